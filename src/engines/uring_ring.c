// SPDX-License-Identifier: BSD-2-Clause
/* Setting up an io_uring ring, for every part of clyde that uses one. */
#include "config.h"

#include <errno.h>
#include <string.h>

#include "engines/uring_ring.h"

struct uring_setup_try {
	unsigned flags;
	const char *name;
};

/* From the best down; DEFER_TASKRUN needs SINGLE_ISSUER and a waiting reaper. */
static const struct uring_setup_try setup_tries[] = {
	{ IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN, "SINGLE_ISSUER|DEFER_TASKRUN" },
	{ IORING_SETUP_COOP_TASKRUN, "COOP_TASKRUN" },
	{ 0, "no setup flags" },
};

int uring_ring_init(struct io_uring *ring, unsigned entries, const char **flags)
{
	int ret = -EINVAL;

	for (size_t i = 0; i < sizeof(setup_tries) / sizeof(setup_tries[0]); i++) {
		ret = io_uring_queue_init(entries, ring, setup_tries[i].flags);
		if (!ret) {
			*flags = setup_tries[i].name;
			return 0;
		}
		/* Only an unknown flag is worth another try. */
		if (ret != -EINVAL)
			return ret;
	}
	return ret;
}

const char *uring_ring_failure(int err)
{
	switch (err) {
	case -ENOSYS:
		return "the kernel has no io_uring (ENOSYS)";
	case -EPERM:
		return "io_uring is refused (EPERM: kernel.io_uring_disabled or a seccomp filter)";
	case -ENOMEM:
		return "no memory for the ring (ENOMEM: RLIMIT_MEMLOCK?)";
	default:
		return strerror(-err);
	}
}
