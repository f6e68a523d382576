// SPDX-License-Identifier: BSD-2-Clause
/*
 * uring: io_uring through liburing. One ring per issuing thread, set up
 * with the best flags the kernel takes; the phase's buffers and file are
 * registered; requests reach the kernel as they are ready, at most four
 * per io_uring_enter(), and completions are reaped in batches; short
 * reads and writes are finished here, so the phases see whole chunks
 * exactly as with psync.
 */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <fcntl.h>
#include <liburing.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

#include "engines/engine.h"
#include "engines/uring_ring.h"
#include "lib/signals.h"

/* The tree phases' operations in flight unless --iodepth says. */
#define URING_TREE_DEPTH	32u
/* Scattered SQEs handed to one io_uring_enter(); more than two are plugged. */
#define URING_UNPLUGGED		4u
/* From URING_WAIT_SOME in flight a reap waits for 1/URING_WAIT_SHARE of them (wait_for()). */
#define URING_WAIT_SOME		16u
#define URING_WAIT_SHARE	8u

struct uring {
	struct io_uring ring;
	unsigned depth;
	bool bufs_registered;
	bool file_registered;
	int rw_flags;
	size_t *progress;	/* bytes done of each slot's request */
	struct io_uring_cqe **cqes;
	unsigned inflight;	/* submitted by the phase, not yet handed back */
};

static int uring_probe(unsigned depth, char *desc, size_t len)
{
	struct io_uring ring;
	const char *name = "";
	int ret = uring_ring_init(&ring, depth, &name);

	if (ret) {
		snprintf(desc, len, "%s", uring_ring_failure(ret));
		return ret;
	}
	io_uring_queue_exit(&ring);
	snprintf(desc, len, "%s; registered buffers and file", name);
	return 0;
}

static int uring_setup(struct engine *e, const struct engine_params *p)
{
	struct uring *u = calloc(1, sizeof(*u));
	const char *name;
	unsigned workers[2];
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	int ret;

	if (!u)
		return -ENOMEM;
	u->depth = e->depth;
	u->rw_flags = p->rw_flags;
	u->progress = calloc(u->depth, sizeof(*u->progress));
	u->cqes = calloc(u->depth, sizeof(*u->cqes));
	if (!u->progress || !u->cqes) {
		ret = -ENOMEM;
		goto out_free;
	}
	ret = uring_ring_init(&u->ring, u->depth, &name);
	if (ret)
		goto out_free;
	/* Buffered writes go to io-wq workers; more of them than CPUs only thrash. */
	workers[0] = workers[1] = cpus > 0 ? (unsigned)cpus : 1;
	io_uring_register_iowq_max_workers(&u->ring, workers);
	if (p->bufs && p->buf_len) {
		unsigned n = u->depth + (p->pool ? 1 : 0);
		struct iovec *iov = calloc(n, sizeof(*iov));

		if (!iov) {
			ret = -ENOMEM;
			goto out_ring;
		}
		for (unsigned i = 0; i < u->depth; i++) {
			iov[i].iov_base = p->bufs + (size_t)i * p->buf_len;
			iov[i].iov_len = p->buf_len;
		}
		if (p->pool) {
			iov[u->depth].iov_base = p->pool;
			iov[u->depth].iov_len = p->pool_len;
		}
		/* Registration can fail on RLIMIT_MEMLOCK: plain buffers still work. */
		u->bufs_registered = !io_uring_register_buffers(&u->ring, iov, n);
		free(iov);
	}
	e->priv = u;
	return 0;

out_ring:
	io_uring_queue_exit(&u->ring);
out_free:
	free(u->progress);
	free(u->cqes);
	free(u);
	return ret;
}

/* A registered file saves the kernel a lookup per request; plain descriptors still work. */
static int uring_adopt(struct engine *e, int fd)
{
	struct uring *u = e->priv;

	u->file_registered = !io_uring_register_files(&u->ring, &fd, 1);
	return 0;
}

static int uring_open(struct engine *e, const char *path, int flags, mode_t mode, int *fd)
{
	*fd = open(path, flags, mode);
	if (*fd < 0)
		return -errno;
	return uring_adopt(e, *fd);
}

/* Queue the rest of r: everything after progress[slot] bytes. */
static int queue_rest(struct uring *u, struct io_req *r)
{
	struct io_uring_sqe *sqe = io_uring_get_sqe(&u->ring);
	size_t done = u->progress[r->slot];
	char *buf = (char *)r->buf + done;
	unsigned len = (unsigned)(r->len - done);
	int fd = u->file_registered ? 0 : r->fd;

	if (!sqe)
		return -EBUSY;
	if (u->bufs_registered && r->op == IO_READ)
		io_uring_prep_read_fixed(sqe, fd, buf, len, r->off + done, (int)r->buf_index);
	else if (u->bufs_registered)
		io_uring_prep_write_fixed(sqe, fd, buf, len, r->off + done, (int)r->buf_index);
	else if (r->op == IO_READ)
		io_uring_prep_read(sqe, fd, buf, len, r->off + done);
	else
		io_uring_prep_write(sqe, fd, buf, len, r->off + done);
	if (u->file_registered)
		sqe->flags |= IOSQE_FIXED_FILE;
	sqe->rw_flags = u->rw_flags;
	io_uring_sqe_set_data(sqe, r);
	return 0;
}

/*
 * Requests that continue one another (one file, one direction, each
 * starting where the last ended: a block phase's refill) are better
 * plugged: the block layer merges them into fewer, larger requests. An
 * O_DIRECT sequential read of 8 KiB chunks at QD 32 went from 1.04 to
 * 1.68 times fio's rate (fio sends each request alone) at 40% less CPU
 * per chunk (bench/results/2026-12-02/uring-seq-plug.txt).
 */
static bool adjacent(struct io_req *const *reqs, unsigned n)
{
	for (unsigned i = 1; i < n; i++)
		if (reqs[i]->fd != reqs[0]->fd || reqs[i]->op != reqs[0]->op ||
		    reqs[i]->off != reqs[i - 1]->off + reqs[i - 1]->len)
			return false;
	return true;
}

/*
 * Scattered requests go to the kernel as they are ready, at most four per
 * io_uring_enter(). More than two SQEs in one call are plugged
 * (io_submit_state_start()) and reach the device as one burst: one virtio
 * notify for the four, not one each. With a reap that woke for every
 * completion that burst cost a sixth of the random read rate at QD 32;
 * now that a reap waits for an eighth of those in flight the refills come
 * in bursts anyway, and four per call took 8-26% off the CPU per I/O at
 * QD 32 and 128 at the same rate (issue 22; bench/results/2026-12-03/
 * uring-plug4-ab.txt). The last few stay queued for the
 * io_uring_enter() that waits in uring_reap(), which the pipeline calls
 * next: one system call fewer per refill.
 */
static int uring_submit(struct engine *e, struct io_req *const *reqs, unsigned n)
{
	struct uring *u = e->priv;
	unsigned unplugged = adjacent(reqs, n) ? UINT_MAX : URING_UNPLUGGED;

	for (unsigned i = 0; i < n; i++) {
		int ret;

		u->progress[reqs[i]->slot] = 0;
		ret = queue_rest(u, reqs[i]);
		if (!ret && i + 1 < n && io_uring_sq_ready(&u->ring) >= unplugged)
			ret = io_uring_submit(&u->ring);
		if (ret < 0)
			return ret;
		u->inflight++;
	}
	return 0;
}

/*
 * How many completions one wait asks for. With many in flight, waking for
 * each costs a context switch per request for nothing: the device still
 * has most of them to work on (a quarter took 6% and 11% off the CPU per
 * I/O at QD 32 and 128, uring-causes/README.txt). An eighth costs the
 * same CPU and leaves more in the device between reaps: a median 3-4%
 * more random reads at QD 32 and 128, intervals reaching 0.99 (20 paired
 * rounds; bench/results/2026-12-03/uring-policy/README.txt).
 */
static unsigned wait_for(const struct uring *u)
{
	return u->inflight >= URING_WAIT_SOME ? u->inflight / URING_WAIT_SHARE : 1;
}

static int uring_reap(struct engine *e, unsigned min, struct io_req **done, unsigned max)
{
	struct uring *u = e->priv;
	unsigned got = 0;
	int ret;

	while (got < min) {
		/* Submit what is queued (the last new ones, any short or EAGAIN) and wait. */
		ret = io_uring_submit_and_wait(&u->ring, wait_for(u));
		if (ret == -EINTR) {
			if (clyde_stop_requested())
				return -EINTR;
			continue;
		}
		if (ret < 0)
			return ret;
		unsigned n = io_uring_peek_batch_cqe(&u->ring, u->cqes, max - got);

		for (unsigned i = 0; i < n; i++) {
			struct io_req *r = io_uring_cqe_get_data(u->cqes[i]);
			int res = u->cqes[i]->res;

			if (res == -EAGAIN || res == -EINTR) {
				ret = queue_rest(u, r);
			} else if (res > 0 && u->progress[r->slot] + (size_t)res < r->len) {
				/* Short: finish it here, the phase sees whole chunks. */
				u->progress[r->slot] += (size_t)res;
				ret = queue_rest(u, r);
			} else {
				r->res = res < 0 ? res : (ssize_t)(u->progress[r->slot] + (size_t)res);
				done[got++] = r;
				u->inflight--;
				ret = 0;
				continue;
			}
			if (ret)
				return ret;
		}
		io_uring_cq_advance(&u->ring, n);
	}
	return (int)got;
}

static int uring_close(struct engine *e, int fd)
{
	struct uring *u = e->priv;

	if (u->file_registered) {
		io_uring_unregister_files(&u->ring);
		u->file_registered = false;
	}
	return close(fd) ? -errno : 0;
}

static void uring_teardown(struct engine *e)
{
	struct uring *u = e->priv;

	if (!u)
		return;
	/* Exiting the ring cancels and waits for anything still in flight. */
	io_uring_queue_exit(&u->ring);
	free(u->progress);
	free(u->cqes);
	free(u);
	e->priv = NULL;
}

const struct engine_ops engine_uring = {
	.name = "uring",
	.flags = ENGINE_F_QUEUED,
	.unavailable = NULL,
	.tree_io = &tree_io_uring,
	.tree_depth = URING_TREE_DEPTH,
	.probe = uring_probe,
	.setup = uring_setup,
	.open = uring_open,
	.adopt = uring_adopt,
	.submit = uring_submit,
	.reap = uring_reap,
	.close = uring_close,
	.teardown = uring_teardown,
};
