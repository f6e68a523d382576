// SPDX-License-Identifier: BSD-2-Clause
/*
 * The tree phases' operations through io_uring. Each thread that issues
 * them sets up its own ring (SINGLE_ISSUER: run() must be called from the
 * thread that called setup()). A batch goes in with one
 * io_uring_submit_and_wait(); the kinds of operation the kernel cannot
 * queue, by its probe or by the first answer it gives, and the kinds that
 * cost more through the ring than as calls, are done as the plain system
 * calls of tree_io_psync.c instead.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <liburing.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/uio.h>

#include "engines/engine.h"
#include "engines/uring_ring.h"
#include "lib/signals.h"
#include "lib/timing.h"
#include "tree/tree.h"

#define TREE_URING_MAX_DEPTH	1024u
/* The most one read or write moves in Linux (MAX_RW_COUNT); more is short anyway. */
#define TREE_URING_MAX_RW	0x7ffff000u

/* The opcode each kind goes in as; tree_op_sync()'s flags, exactly. */
static const unsigned char kind_opcode[TOP_KINDS] = {
	[TOP_MKDIR] = IORING_OP_MKDIRAT,
	[TOP_CREATE] = IORING_OP_OPENAT,
	[TOP_OPEN] = IORING_OP_OPENAT,
	[TOP_WRITE] = IORING_OP_WRITE,
	[TOP_READ] = IORING_OP_READ,
	[TOP_CLOSE] = IORING_OP_CLOSE,
	[TOP_STAT] = IORING_OP_STATX,
	[TOP_UNLINK] = IORING_OP_UNLINKAT,
	[TOP_RMDIR] = IORING_OP_UNLINKAT,
};

#define CREATE_FLAGS	(O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC)
#define CREATE_MODE	0600
#define OPEN_FLAGS	(O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
#define STAT_MASK	(STATX_TYPE | STATX_MODE | STATX_SIZE)

/*
 * The kinds that pay through the ring. bench/tree-op-cost on Linux 6.18,
 * 12 rounds, 4096 names, depth 32, warm caches: every kind costs as much
 * or more batched than as a direct call (ring/direct, tmpfs and ext4:
 * stat 2.5-2.7x, mkdir, create, unlink, rmdir 1.3-1.8x, write 1.5-1.9x,
 * open and close 0.9-1.2x): the ring punts metadata to io-wq, one thread
 * hop each. Only reads of data not in the page cache gain, by the device
 * I/O they overlap; a read the page cache holds is a plain call
 * (RWF_NOWAIT, read_without_ring()), the rest go in the ring.
 */
#define RING_PAYS	(1u << TOP_READ)
/* Which kinds go through the ring instead: "all", "none" or kind names (tests). */
#define RING_KINDS_ENV	"CLYDE_TEST_TREE_RING"

struct tree_uring {
	struct io_uring ring;
	unsigned depth;
	/* kinds whose first completion showed the ring does them */
	unsigned confirmed;
	/* TOP_STAT's answers, one per slot of a batch */
	struct statx *stx;
	/* the filesystem refused RWF_NOWAIT: reads are plain calls */
	bool no_nowait;
};

/* Append " name" for each kind in mask to desc at *pos; "none" when empty. */
static void append_kinds(char *desc, size_t len, size_t *pos, unsigned mask)
{
	bool any = false;

	for (unsigned k = 0; k < TOP_KINDS; k++) {
		if (!(mask & (1u << k)))
			continue;
		if (*pos < len)
			*pos += (size_t)snprintf(desc + *pos, len - *pos, " %s",
						 tree_op_name((enum tree_op_kind)k));
		any = true;
	}
	if (!any && *pos < len)
		*pos += (size_t)snprintf(desc + *pos, len - *pos, " none");
}

/* why is the reason the other kinds are plain calls */
static void describe(char *desc, size_t len, unsigned depth, const char *flags,
		     const char *why, unsigned ring_kinds)
{
	unsigned all = (1u << TOP_KINDS) - 1;
	size_t pos;

	if (!len)
		return;
	pos = (size_t)snprintf(desc, len, "ring depth %u %s; via ring:", depth, flags);
	append_kinds(desc, len, &pos, ring_kinds);
	if ((ring_kinds & all) == all || pos >= len)
		return;
	pos += (size_t)snprintf(desc + pos, len - pos, "; plain calls (%s):", why);
	append_kinds(desc, len, &pos, all & ~ring_kinds);
}

/* Which of the probed kinds go through the ring: RING_PAYS, or the test knob's. */
static unsigned ring_choice(unsigned probed)
{
	const char *want = getenv(RING_KINDS_ENV);
	unsigned mask = 0;

	if (!want)
		return probed & RING_PAYS;
	if (!strcmp(want, "all"))
		return probed;
	for (unsigned k = 0; k < TOP_KINDS; k++) {
		const char *name = tree_op_name((enum tree_op_kind)k);
		size_t n = strlen(name);

		for (const char *p = strstr(want, name); p; p = strstr(p + 1, name))
			if ((p == want || p[-1] == ',') && (p[n] == ',' || !p[n]))
				mask |= 1u << k;
	}
	return probed & mask;
}

static int uring_setup(struct tree_io *io, unsigned depth, char *desc, size_t len)
{
	struct tree_uring *u;
	struct io_uring_probe *probe;
	const char *flags = "";
	unsigned kinds = 0;
	int ret;

	if (depth < 1 || depth > TREE_URING_MAX_DEPTH) {
		snprintf(desc, len, "depth %u: the ring takes 1 to %u", depth,
			 TREE_URING_MAX_DEPTH);
		return -EINVAL;
	}
	u = calloc(1, sizeof(*u));
	if (u)
		u->stx = calloc(depth, sizeof(*u->stx));
	if (!u || !u->stx) {
		ret = -ENOMEM;
		snprintf(desc, len, "no memory for %u slots", depth);
		goto out_free;
	}
	u->depth = depth;
	ret = uring_ring_init(&u->ring, depth, &flags);
	if (ret) {
		snprintf(desc, len, "%s", uring_ring_failure(ret));
		goto out_free;
	}
	/* No probe (before Linux 5.6): nothing is known to work, all go as plain calls. */
	probe = io_uring_get_probe_ring(&u->ring);
	for (unsigned k = 0; probe && k < TOP_KINDS; k++)
		if (io_uring_opcode_supported(probe, kind_opcode[k]))
			kinds |= 1u << k;
	kinds = ring_choice(kinds);
	describe(desc, len, depth, flags, !probe ? "no opcode probe" :
		 getenv(RING_KINDS_ENV) ? RING_KINDS_ENV : "cheaper here", kinds);
	if (probe)
		io_uring_free_probe(probe);
	io->depth = depth;
	io->ring_kinds = kinds;
	io->priv = u;
	return 0;

out_free:
	if (u)
		free(u->stx);
	free(u);
	return ret;
}

/* Prepare the SQE of ops[i] (an op of a ring kind); user_data is i. */
static int queue_op(struct tree_uring *u, struct tree_op *op, unsigned i)
{
	struct io_uring_sqe *sqe = io_uring_get_sqe(&u->ring);
	unsigned rw_len = op->len > TREE_URING_MAX_RW ? TREE_URING_MAX_RW : (unsigned)op->len;

	/* Never: each op holds one SQE at most and the ring has depth of them. */
	if (!sqe)
		return -EBUSY;
	switch (op->kind) {
	case TOP_MKDIR:
		io_uring_prep_mkdirat(sqe, op->dirfd, op->name, 0700);
		break;
	case TOP_CREATE:
		io_uring_prep_openat(sqe, op->dirfd, op->name, CREATE_FLAGS, CREATE_MODE);
		break;
	case TOP_OPEN:
		io_uring_prep_openat(sqe, op->dirfd, op->name, OPEN_FLAGS, 0);
		break;
	case TOP_WRITE:
		io_uring_prep_write(sqe, op->fd, op->buf, rw_len, op->off);
		break;
	case TOP_READ:
		io_uring_prep_read(sqe, op->fd, op->buf, rw_len, op->off);
		break;
	case TOP_CLOSE:
		io_uring_prep_close(sqe, op->fd);
		break;
	case TOP_STAT:
		io_uring_prep_statx(sqe, op->dirfd, op->name, AT_SYMLINK_NOFOLLOW, STAT_MASK,
				    &u->stx[i]);
		break;
	case TOP_UNLINK:
		io_uring_prep_unlinkat(sqe, op->dirfd, op->name, 0);
		break;
	case TOP_RMDIR:
		io_uring_prep_unlinkat(sqe, op->dirfd, op->name, AT_REMOVEDIR);
		break;
	default:
		io_uring_prep_nop(sqe);
		break;
	}
	io_uring_sqe_set_data64(sqe, i);
	return 0;
}

/*
 * One completion. Returns 1 when the op is done, 0 when it went in again,
 * or -errno when it could not.
 */
static int complete(struct tree_io *io, struct tree_op *ops, unsigned n,
		    const struct io_uring_cqe *cqe, uint64_t now)
{
	struct tree_uring *u = io->priv;
	uint64_t i = io_uring_cqe_get_data64(cqe);
	struct tree_op *op;
	unsigned bit;
	int res = cqe->res;

	if (i >= n)
		return -EIO;
	op = &ops[i];
	bit = 1u << op->kind;
	/* A close that failed with EINTR has closed the descriptor anyway. */
	if ((res == -EAGAIN || (res == -EINTR && op->kind != TOP_CLOSE)) &&
	    !clyde_stop_requested())
		return queue_op(u, op, (unsigned)i);
	if ((res == -EINVAL || res == -EOPNOTSUPP) && !(u->confirmed & bit)) {
		/*
		 * The kernel may list the opcode and still refuse these
		 * arguments: do it as the plain call, and unless that fails
		 * the same way, do the kind as plain calls from now on.
		 */
		tree_op_sync(op);
		if (op->res == res && (io->ring_kinds & bit))
			u->confirmed |= bit;
		else
			io->ring_kinds &= ~bit;
		return 1;
	}
	u->confirmed |= bit;
	op->res = res;
	if (op->kind == TOP_STAT && res == 0) {
		op->size = u->stx[i].stx_size;
		op->mode = u->stx[i].stx_mode;
	}
	op->t_end = now;
	op->via_ring = true;
	return 1;
}

/*
 * A read the page cache can answer at once, as a plain call; false when
 * it would have to wait for the device: then it goes in the ring. Where
 * the filesystem cannot say (no RWF_NOWAIT: tmpfs), the ring would hand
 * every read to an io-wq worker, so all are plain calls.
 */
static bool read_without_ring(struct tree_uring *u, struct tree_op *op)
{
	struct iovec iov = { .iov_base = op->buf, .iov_len = op->len };
	ssize_t got;

	if (!u->no_nowait) {
		op->t_start = now_ns();
		got = preadv2(op->fd, &iov, 1, (off_t)op->off, RWF_NOWAIT);
		if (got >= 0) {
			op->res = got;
			op->t_end = now_ns();
			op->via_ring = false;
			return true;
		}
		if (errno != EOPNOTSUPP)
			return false;
		u->no_nowait = true;
	}
	tree_op_sync(op);
	return true;
}

static int uring_run(struct tree_io *io, struct tree_op *ops, unsigned n)
{
	struct tree_uring *u = io->priv;
	unsigned inflight = 0;
	int ret;

	if (n > u->depth)
		return -EINVAL;
	/* The plain calls first, so that the ring's ops are timed from their own issue. */
	for (unsigned i = 0; i < n; i++)
		if (!(io->ring_kinds & (1u << ops[i].kind)))
			tree_op_sync(&ops[i]);
	for (unsigned i = 0; i < n; i++) {
		if (!(io->ring_kinds & (1u << ops[i].kind)))
			continue;
		if (ops[i].kind == TOP_READ && read_without_ring(u, &ops[i]))
			continue;
		ops[i].t_start = now_ns();
		ret = queue_op(u, &ops[i], i);
		if (ret)
			return ret;
		inflight++;
	}
	while (inflight) {
		struct io_uring_cqe *cqe;
		unsigned head, seen = 0;
		uint64_t now;

		/*
		 * Submit and wait for the whole batch in one call. An interrupted
		 * wait goes on even when clyde is stopping: the ops in flight
		 * point at the caller's names and buffers.
		 */
		ret = io_uring_submit_and_wait(&u->ring, inflight);
		if (ret < 0 && ret != -EINTR && ret != -EAGAIN && ret != -EBUSY)
			return ret;
		now = now_ns();
		io_uring_for_each_cqe(&u->ring, head, cqe) {
			seen++;
			ret = complete(io, ops, n, cqe, now);
			if (ret < 0) {
				io_uring_cq_advance(&u->ring, seen);
				return ret;
			}
			inflight -= (unsigned)ret;
		}
		io_uring_cq_advance(&u->ring, seen);
	}
	return 0;
}

static void uring_teardown(struct tree_io *io)
{
	struct tree_uring *u = io->priv;

	if (!u)
		return;
	/* Exiting the ring cancels and waits for anything still in flight. */
	io_uring_queue_exit(&u->ring);
	free(u->stx);
	free(u);
	io->priv = NULL;
}

const struct tree_io_ops tree_io_uring = {
	.name = "uring",
	.via = "io_uring",
	.setup = uring_setup,
	.run = uring_run,
	.teardown = uring_teardown,
};
