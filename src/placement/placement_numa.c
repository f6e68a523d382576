// SPDX-License-Identifier: BSD-2-Clause
/* The calling thread's memory policy through libnuma, when hwloc is not built in. */
#include "config.h"

#include <errno.h>
#include <numa.h>

#include "placement/placement.h"

int place_mem_libnuma(enum place_mem_policy mem, const struct place_mask *nodes)
{
	struct bitmask *bm = NULL, *allowed = NULL;
	unsigned node;
	int ret = 0;

	if (numa_available() < 0)
		return -ENOSYS;
	if (mem == MEM_INTERLEAVE || mem == MEM_BIND) {
		bm = numa_allocate_nodemask();
		allowed = numa_get_mems_allowed();
		if (!bm || !allowed) {
			ret = -ENOMEM;
			goto out;
		}
		/*
		 * Refused here, not by the kernel: libnuma would print its
		 * own message (and drop a node beyond its mask silently).
		 */
		for (node = 0; node < PLACE_MAX_PUS; node++) {
			if (!place_mask_has(nodes, node))
				continue;
			if (node >= bm->size || !numa_bitmask_isbitset(allowed, node)) {
				ret = -EINVAL;
				goto out;
			}
			numa_bitmask_setbit(bm, node);
		}
		if (!numa_bitmask_weight(bm)) {
			ret = -EINVAL;
			goto out;
		}
	}
	/*
	 * These return nothing: libnuma reports a failure through
	 * numa_error(), a message on stderr, and leaves errno set.
	 */
	errno = 0;
	switch (mem) {
	case MEM_INTERLEAVE:
		numa_set_interleave_mask(bm);
		break;
	case MEM_BIND:
		numa_set_membind(bm);
		break;
	default:
		numa_set_localalloc();
		break;
	}
	ret = -errno;
out:
	if (bm)
		numa_bitmask_free(bm);
	if (allowed)
		numa_bitmask_free(allowed);
	return ret;
}
