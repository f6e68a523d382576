/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef CLYDE_URING_RING_H
#define CLYDE_URING_RING_H

#include <liburing.h>

/*
 * A ring with the best setup flags the kernel takes, from
 * SINGLE_ISSUER|DEFER_TASKRUN down to none; *flags names what it got.
 * 0 or -errno. Shared by the I/O engine and the tree phases' backend.
 */
int uring_ring_init(struct io_uring *ring, unsigned entries, const char **flags);

/* Why a ring could not be made, in words naming the usual causes. */
const char *uring_ring_failure(int err);

#endif
