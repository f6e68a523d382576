// SPDX-License-Identifier: BSD-2-Clause
/*
 * The aio engine's completions through a kqueue of its own (FreeBSD):
 * each request is sent with SIGEV_KEVENT naming this queue, and the
 * kernel registers an EVFILT_AIO knote whose ident is the request's
 * aiocb, the user's pointer (sys/kern/vfs_aio.c, aio_aqueue: "kev.ident
 * = (uintptr_t)job->ujob"). A cancelled request is completed with
 * ECANCELED through the same path (aio_cancel -> aio_complete ->
 * aio_bio_done_notify -> KNOTE), so the engine's drain() waits for
 * cancelled requests here too. No EV_ONESHOT or EV_CLEAR is asked
 * (sigev_notify_kevent_flags 0): the event stays until aio_return frees
 * the request (aio_free_entry's knlist_delete). One queue per engine,
 * and so per seeker: aio_waitcomplete(2) would hand any thread of the
 * process any completion. Compiled against FreeBSD's headers and
 * checked against its libc's symbols (.ci/bsd-check), not yet run.
 */
#include "config.h"

#include <sys/types.h>
#include <sys/event.h>
#include <sys/time.h>

#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engines/aio_wait.h"

/* Events taken by one kevent(2) at most: the rest wait for the next. */
#define AIO_KQUEUE_BATCH	64u

const char aio_wait_name[] = "kqueue";

struct aio_wait {
	int kq;
	struct kevent ev[AIO_KQUEUE_BATCH];
};

int aio_wait_setup(struct aio_wait **w, unsigned depth)
{
	(void)depth;
	*w = calloc(1, sizeof(**w));
	if (!*w)
		return -ENOMEM;
	(*w)->kq = kqueue();
	if ((*w)->kq < 0) {
		int ret = -errno;

		free(*w);
		*w = NULL;
		return ret;
	}
	return 0;
}

void aio_wait_arm(struct aio_wait *w, struct aiocb *cb)
{
	memset(&cb->aio_sigevent, 0, sizeof(cb->aio_sigevent));
	cb->aio_sigevent.sigev_notify = SIGEV_KEVENT;
	cb->aio_sigevent.sigev_notify_kqueue = w->kq;
	cb->aio_sigevent.sigev_value.sival_ptr = cb;
}

int aio_wait_some(struct aio_wait *w, struct aiocb *const *inflight, unsigned n,
		  struct aiocb **done, unsigned max)
{
	int got;

	(void)inflight;
	if (!n)
		return -EINVAL;
	if (max > AIO_KQUEUE_BATCH)
		max = AIO_KQUEUE_BATCH;
	got = kevent(w->kq, NULL, 0, w->ev, (int)max, NULL);
	if (got < 0)
		return -errno;
	for (int i = 0; i < got; i++)
		done[i] = (struct aiocb *)(uintptr_t)w->ev[i].ident;
	return got;
}

void aio_wait_teardown(struct aio_wait *w)
{
	if (!w)
		return;
	close(w->kq);
	free(w);
}
