/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef CLYDE_AIO_WAIT_H
#define CLYDE_AIO_WAIT_H

/*
 * How the aio engine (engine_aio.c) learns that its requests completed:
 * one whole file per way, chosen by configure. aio_wait_kqueue.c (FreeBSD:
 * SIGEV_KEVENT into a kqueue of this engine's own, so that two seekers
 * never take each other's completions, as aio_waitcomplete(2) would) or
 * aio_wait_suspend.c (aio_suspend over the requests in flight: NetBSD,
 * DragonFly, Linux).
 */
#include <aio.h>
#include <stddef.h>

struct aio_wait;

/* "kqueue" or "aio_suspend": for the engine's description. */
extern const char aio_wait_name[];

/* One engine's waiting, for up to depth requests: 0 or -errno. */
int aio_wait_setup(struct aio_wait **w, unsigned depth);
/* Before cb is sent: how its completion is told (its aio_sigevent). */
void aio_wait_arm(struct aio_wait *w, struct aiocb *cb);
/*
 * Wait until one or more of the n requests in flight (inflight) has
 * completed; store up to max of those completed in done, without reaping
 * them (the engine calls aio_return). How many, or -errno: -EINTR when a
 * signal came (the caller decides whether to stop).
 */
int aio_wait_some(struct aio_wait *w, struct aiocb *const *inflight, unsigned n,
		  struct aiocb **done, unsigned max);
void aio_wait_teardown(struct aio_wait *w);

#endif
