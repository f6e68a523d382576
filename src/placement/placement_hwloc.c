// SPDX-License-Identifier: BSD-2-Clause
/* The calling thread's memory policy through hwloc. */
#include "config.h"

#include <errno.h>
#include <hwloc.h>
#include <pthread.h>

#include "placement/placement.h"

static pthread_once_t topo_once = PTHREAD_ONCE_INIT;
static hwloc_topology_t topo;
static int topo_err;

/* Loaded once and kept for the process: a load reads much of sysfs. */
static void topo_load(void)
{
	if (hwloc_topology_init(&topo)) {
		topo_err = -ENOMEM;
		return;
	}
	if (hwloc_topology_load(topo)) {
		topo_err = errno ? -errno : -EIO;
		hwloc_topology_destroy(topo);
	}
}

int place_mem_hwloc(enum place_mem_policy mem, const struct place_mask *nodes)
{
	/*
	 * STRICT: without it hwloc 2.9 turns BIND into Linux's
	 * MPOL_PREFERRED_MANY, which falls back to other nodes silently.
	 */
	int flags = HWLOC_MEMBIND_THREAD | HWLOC_MEMBIND_BYNODESET | HWLOC_MEMBIND_STRICT;
	hwloc_membind_policy_t policy;
	hwloc_bitmap_t set;
	unsigned node;
	int ret = 0;

	pthread_once(&topo_once, topo_load);
	if (topo_err)
		return topo_err;
	switch (mem) {
	case MEM_LOCAL:
		/* hwloc's documented form: first touch over every node. */
		policy = HWLOC_MEMBIND_FIRSTTOUCH;
		set = hwloc_bitmap_dup(hwloc_topology_get_topology_nodeset(topo));
		break;
	case MEM_INTERLEAVE:
	case MEM_BIND:
		policy = mem == MEM_BIND ? HWLOC_MEMBIND_BIND : HWLOC_MEMBIND_INTERLEAVE;
		set = hwloc_bitmap_alloc();
		for (node = 0; set && node < PLACE_MAX_PUS; node++)
			if (place_mask_has(nodes, node))
				hwloc_bitmap_set(set, node);
		break;
	default:
		policy = HWLOC_MEMBIND_DEFAULT;
		set = hwloc_bitmap_dup(hwloc_topology_get_topology_nodeset(topo));
		break;
	}
	if (!set)
		return -ENOMEM;
	if (hwloc_bitmap_iszero(set)) {
		ret = -EINVAL;
		goto out;
	}
	/* hwloc leaves errno 0 for a node it does not know. */
	errno = 0;
	if (hwloc_set_membind(topo, set, policy, flags))
		ret = errno ? -errno : -EINVAL;
out:
	hwloc_bitmap_free(set);
	return ret;
}
