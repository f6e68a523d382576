// SPDX-License-Identifier: BSD-2-Clause
/*
 * The aio engine's completions by aio_suspend(3) over every request in
 * flight, then aio_error(3) on each: the POSIX way, for systems with no
 * completion queue (NetBSD, DragonFly, Linux). A wake costs a look at each
 * request in flight, at most the queue's depth.
 */
#include "config.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "engines/aio_wait.h"

const char aio_wait_name[] = "aio_suspend";

struct aio_wait {
	unsigned depth;
};

int aio_wait_setup(struct aio_wait **w, unsigned depth)
{
	*w = calloc(1, sizeof(**w));
	if (!*w)
		return -ENOMEM;
	(*w)->depth = depth;
	return 0;
}

void aio_wait_arm(struct aio_wait *w, struct aiocb *cb)
{
	(void)w;
	memset(&cb->aio_sigevent, 0, sizeof(cb->aio_sigevent));
	cb->aio_sigevent.sigev_notify = SIGEV_NONE;
}

int aio_wait_some(struct aio_wait *w, struct aiocb *const *inflight, unsigned n,
		  struct aiocb **done, unsigned max)
{
	unsigned got = 0;

	(void)w;
	if (!n)
		return -EINVAL;
	for (;;) {
		for (unsigned i = 0; i < n && got < max; i++)
			if (aio_error(inflight[i]) != EINPROGRESS)
				done[got++] = inflight[i];
		if (got)
			return (int)got;
		/* No timeout: it returns when one of them has completed, or on a signal. */
		if (aio_suspend((const struct aiocb *const *)inflight, (int)n, NULL) && errno != EAGAIN)
			return -errno;
	}
}

void aio_wait_teardown(struct aio_wait *w)
{
	free(w);
}
