// SPDX-License-Identifier: BSD-2-Clause
/*
 * aio: POSIX asynchronous I/O, aio_read(3) and aio_write(3), up to the
 * depth in flight. How completions are learnt is one whole file per
 * system (aio_wait.h: a kqueue per engine on FreeBSD, aio_suspend
 * elsewhere); what the system's AIO is underneath, and so whether
 * --engine=auto may choose it, is aio_host.h. Short transfers are
 * finished here and a request the system could not take yet (EAGAIN)
 * is sent again after the next completion, so the phases see whole
 * chunks exactly as with psync and uring.
 *
 * Each request is one buffer: the vector forms (FreeBSD's aio_readv)
 * would carry a vector of one and change nothing the kernel does.
 */
#include "config.h"

#include <sys/resource.h>

#include <aio.h>
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engines/aio_host.h"
#include "engines/aio_wait.h"
#include "engines/engine.h"
#include "lib/signals.h"

struct aio_slot {
	struct aiocb cb;
	struct io_req *req;	/* the phase's request in this slot, or NULL */
	size_t done;		/* bytes of it moved so far */
	bool inflight;		/* sent, not yet reaped */
	bool pending;		/* to be sent (again): EAGAIN, or the rest of a short one */
};

struct aio_engine {
	unsigned depth;
	struct aio_wait *wait;
	struct aio_slot *slot;		/* by io_req.slot */
	struct aiocb **list;		/* the requests in flight, for the wait */
	struct aiocb **ready;		/* what the wait found completed */
	unsigned inflight, pending;
	struct done_queue failed;	/* requests the system refused outright */
	struct io_req **failed_slot;
	int fd;				/* the file opened or adopted, or -1 */
	int *dup;			/* a descriptor of it per slot (AIO_HOST_DUP_PER_SLOT) */
};

static int aio_probe(unsigned depth, char *desc, size_t len)
{
	unsigned threads = aio_host_threads();

	/* no commas: the context line is one field of bonnie++'s CSV */
	(void)depth;
	if (threads)
		snprintf(desc, len, "POSIX AIO by %s; %s; %u threads at most", aio_wait_name,
			 AIO_HOST_NOTE, threads);
	else
		snprintf(desc, len, "POSIX AIO by %s; %s", aio_wait_name, AIO_HOST_NOTE);
	return 0;
}

static int aio_setup(struct engine *e, const struct engine_params *p)
{
	struct aio_engine *a;
	int ret;

	/* No per-request flags in an aiocb: --cache=uncached is refused before (ENGINE_F_NO_RW_FLAGS). */
	if (p->rw_flags)
		return -EOPNOTSUPP;
	ret = aio_host_init();
	if (ret)
		return ret;
	a = calloc(1, sizeof(*a));
	if (!a)
		return -ENOMEM;
	a->depth = e->depth;
	a->fd = -1;
	a->slot = calloc(a->depth, sizeof(*a->slot));
	a->list = calloc(a->depth, sizeof(*a->list));
	a->ready = calloc(a->depth, sizeof(*a->ready));
	a->failed_slot = calloc(a->depth, sizeof(*a->failed_slot));
	if (!a->slot || !a->list || !a->ready || !a->failed_slot) {
		ret = -ENOMEM;
		goto out_free;
	}
	a->failed.cap = a->depth;
	a->failed.slot = a->failed_slot;
	ret = aio_wait_setup(&a->wait, a->depth);
	if (ret)
		goto out_free;
	e->priv = a;
	return 0;

out_free:
	free(a->slot);
	free(a->list);
	free(a->ready);
	free(a->failed_slot);
	free(a);
	return ret;
}

/* dup(2), raising the soft limit on descriptors to the hard one once when it is reached. */
static int dup_raising(int fd)
{
	struct rlimit rl;
	int d = dup(fd);

	if (d >= 0 || errno != EMFILE || getrlimit(RLIMIT_NOFILE, &rl) || rl.rlim_cur >= rl.rlim_max)
		return d < 0 ? -errno : d;
	rl.rlim_cur = rl.rlim_max;
	if (setrlimit(RLIMIT_NOFILE, &rl))
		return -EMFILE;
	d = dup(fd);
	return d < 0 ? -errno : d;
}

static void close_dups(struct aio_engine *a)
{
	if (!a->dup)
		return;
	/* slot 0 is the file's own descriptor */
	for (unsigned i = 1; i < a->depth; i++)
		if (a->dup[i] >= 0)
			close(a->dup[i]);
	free(a->dup);
	a->dup = NULL;
}

/*
 * glibc runs the requests of one descriptor one after another on one of
 * its threads: one descriptor per slot lets the pool run them all.
 */
static int aio_adopt(struct engine *e, int fd)
{
	struct aio_engine *a = e->priv;
	int ret;

	a->fd = fd;
	if (!AIO_HOST_DUP_PER_SLOT || a->depth < 2)
		return 0;
	a->dup = malloc(a->depth * sizeof(*a->dup));
	if (!a->dup)
		return -ENOMEM;
	a->dup[0] = fd;
	for (unsigned i = 1; i < a->depth; i++)
		a->dup[i] = -1;
	for (unsigned i = 1; i < a->depth; i++) {
		ret = dup_raising(fd);
		if (ret < 0) {
			close_dups(a);
			return ret;
		}
		a->dup[i] = ret;
	}
	return 0;
}

static int aio_open(struct engine *e, const char *path, int flags, mode_t mode, int *fd)
{
	int ret;

	*fd = open(path, flags, mode);
	if (*fd < 0)
		return -errno;
	ret = aio_adopt(e, *fd);
	if (ret) {
		close(*fd);
		*fd = -1;
	}
	return ret;
}

static int slot_fd(const struct aio_engine *a, const struct io_req *r)
{
	return a->dup && r->fd == a->fd ? a->dup[r->slot] : r->fd;
}

/*
 * Send what is left of slot s's request. 0 when sent or left pending (the
 * system's queue is full and others are in flight: sent again after the
 * next completion); -errno when the system refused it.
 */
static int send_rest(struct aio_engine *a, struct aio_slot *s)
{
	struct io_req *r = s->req;
	struct aiocb *cb = &s->cb;
	int ret;

	memset(cb, 0, sizeof(*cb));
	cb->aio_fildes = slot_fd(a, r);
	cb->aio_buf = (char *)r->buf + s->done;
	cb->aio_nbytes = r->len - s->done;
	cb->aio_offset = (off_t)(r->off + s->done);
	aio_wait_arm(a->wait, cb);
	/*
	 * DragonFly's librt does the I/O in aio_read itself and keeps errno
	 * as the request's error whether the I/O failed or not
	 * (lib/librt/aio.c: "ap->_aio_err = errno;" after the pread): a
	 * stale errno would fail a request that moved its bytes.
	 */
	errno = 0;
	ret = r->op == IO_READ ? aio_read(cb) : aio_write(cb);
	if (!ret) {
		s->inflight = true;
		a->inflight++;
		return 0;
	}
	if (errno == EAGAIN && a->inflight) {
		s->pending = true;
		a->pending++;
		return 0;
	}
	return -errno;
}

/* A request that ends without being sent: the phase sees its error. */
static void refuse(struct aio_engine *a, struct aio_slot *s, int err)
{
	s->req->res = err;
	done_queue_push(&a->failed, s->req);
	s->req = NULL;
}

static int aio_submit(struct engine *e, struct io_req *const *reqs, unsigned n)
{
	struct aio_engine *a = e->priv;

	for (unsigned i = 0; i < n; i++) {
		struct aio_slot *s;
		int ret;

		if (reqs[i]->slot >= a->depth)
			return -EINVAL;
		s = &a->slot[reqs[i]->slot];
		if (s->req)
			return -EBUSY;
		s->req = reqs[i];
		s->done = 0;
		ret = send_rest(a, s);
		if (ret)
			refuse(a, s, ret);
	}
	return 0;
}

/* Send again what waits (after EAGAIN, or the rest of a short transfer). */
static void send_pending(struct aio_engine *a)
{
	for (unsigned i = 0; i < a->depth && a->pending; i++) {
		struct aio_slot *s = &a->slot[i];
		int ret;

		if (!s->pending)
			continue;
		s->pending = false;
		a->pending--;
		ret = send_rest(a, s);
		if (ret)
			refuse(a, s, ret);
	}
}

/* The slot whose aiocb cb is, or NULL for anything else. */
static struct aio_slot *slot_of(const struct aio_engine *a, const struct aiocb *cb)
{
	uintptr_t at = (uintptr_t)cb - offsetof(struct aio_slot, cb);
	uintptr_t base = (uintptr_t)a->slot;

	if (at < base || (at - base) % sizeof(*a->slot) || (at - base) / sizeof(*a->slot) >= a->depth)
		return NULL;
	return &a->slot[(at - base) / sizeof(*a->slot)];
}

static unsigned list_inflight(struct aio_engine *a)
{
	unsigned n = 0;

	for (unsigned i = 0; i < a->depth && n < a->inflight; i++)
		if (a->slot[i].inflight)
			a->list[n++] = &a->slot[i].cb;
	return n;
}

/*
 * Take slot s's result: its request when done (res set), or NULL when it
 * was short or the system asks it again (EAGAIN): the rest is pending.
 */
static struct io_req *finish(struct aio_engine *a, struct aio_slot *s)
{
	int err = aio_error(&s->cb);
	ssize_t n = aio_return(&s->cb);
	struct io_req *r = s->req;

	s->inflight = false;
	a->inflight--;
	if (err == EAGAIN || err == EINTR || (!err && n > 0 && s->done + (size_t)n < r->len)) {
		if (!err)
			s->done += (size_t)n;
		s->pending = true;
		a->pending++;
		return NULL;
	}
	r->res = err ? -err : (ssize_t)(s->done + (size_t)(n > 0 ? n : 0));
	s->req = NULL;
	return r;
}

/*
 * Wait once for completions, taking up to max of them: how many requests
 * are done (stored in done), or -errno from the wait (-EINTR on a signal).
 */
static int take_some(struct aio_engine *a, struct io_req **done, unsigned max)
{
	unsigned n = list_inflight(a), got = 0;
	int k = aio_wait_some(a->wait, a->list, n, a->ready, max < n ? max : n);

	for (int i = 0; i < k; i++) {
		struct aio_slot *s = slot_of(a, a->ready[i]);
		struct io_req *r;

		if (!s || !s->inflight || aio_error(&s->cb) == EINPROGRESS)
			continue;
		r = finish(a, s);
		if (r)
			done[got++] = r;
	}
	return k < 0 ? k : (int)got;
}

static int aio_reap(struct engine *e, unsigned min, struct io_req **done, unsigned max)
{
	struct aio_engine *a = e->priv;
	unsigned got = 0;

	for (;;) {
		int k;

		send_pending(a);
		got += done_queue_pop(&a->failed, done + got, max - got);
		if (got >= min || got == max)
			return (int)got;
		if (!a->inflight)
			return a->pending ? -EAGAIN : (int)got;
		k = take_some(a, done + got, max - got);
		if (k == -EINTR && !clyde_stop_requested())
			continue;
		if (k < 0)
			return k;
		got += (unsigned)k;
	}
}

/*
 * Cancel what is in flight and wait for all of it: the buffers are the
 * phase's, and the system must be done with them before they go. Nothing
 * pending is sent.
 */
static void drain(struct aio_engine *a)
{
	struct io_req *sink[64];

	for (unsigned i = 0; i < a->depth; i++)
		if (a->slot[i].inflight)
			aio_cancel(a->slot[i].cb.aio_fildes, &a->slot[i].cb);
	while (a->inflight) {
		int k = take_some(a, sink, sizeof(sink) / sizeof(sink[0]));

		if (k < 0 && k != -EINTR)
			break;
	}
	for (unsigned i = 0; i < a->depth; i++) {
		a->slot[i].pending = false;
		a->slot[i].req = NULL;
	}
	a->pending = 0;
	a->failed.head = a->failed.count = 0;
}

static int aio_close(struct engine *e, int fd)
{
	struct aio_engine *a = e->priv;

	drain(a);
	if (fd == a->fd) {
		close_dups(a);
		a->fd = -1;
	}
	return close(fd) ? -errno : 0;
}

static void aio_teardown(struct engine *e)
{
	struct aio_engine *a = e->priv;

	if (!a)
		return;
	drain(a);
	close_dups(a);
	aio_wait_teardown(a->wait);
	free(a->slot);
	free(a->list);
	free(a->ready);
	free(a->failed_slot);
	free(a);
	e->priv = NULL;
}

const struct engine_ops engine_aio = {
	.name = "aio",
	/* where it is not asynchronous underneath, only when asked for by name */
	.flags = ENGINE_F_QUEUED | ENGINE_F_NO_RW_FLAGS | (AIO_HOST_IN_KERNEL ? 0 : ENGINE_F_NOT_AUTO),
	.unavailable = NULL,
	.tree_io = &tree_io_psync,
	.tree_depth = 1,
	.probe = aio_probe,
	.setup = aio_setup,
	.open = aio_open,
	.adopt = aio_adopt,
	.submit = aio_submit,
	.reap = aio_reap,
	.close = aio_close,
	.teardown = aio_teardown,
};
