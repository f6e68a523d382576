// SPDX-License-Identifier: BSD-2-Clause
/*
 * The tree phases' operations as plain system calls, one after another:
 * what tar, cp, find and rm do, and what the io_uring backend falls back
 * to for a kind of operation it cannot queue.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engines/engine.h"
#include "lib/signals.h"
#include "lib/timing.h"
#include "tree/tree.h"

static int64_t op_result(long r)
{
	return r < 0 ? -(int64_t)errno : (int64_t)r;
}

static int64_t op_stat(struct tree_op *op)
{
	struct stat st;

	if (fstatat(op->dirfd, op->name, &st, AT_SYMLINK_NOFOLLOW))
		return -(int64_t)errno;
	op->size = (uint64_t)st.st_size;
	op->mode = (uint32_t)st.st_mode;
	return 0;
}

/* One operation, restarted after EINTR unless clyde is stopping. */
void tree_op_sync(struct tree_op *op)
{
	op->via_ring = false;
	op->t_start = now_ns();
	for (;;) {
		switch (op->kind) {
		case TOP_MKDIR:
			op->res = op_result(mkdirat(op->dirfd, op->name, 0700));
			break;
		case TOP_CREATE:
			op->res = op_result(openat(op->dirfd, op->name,
						   O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
						   0600));
			break;
		case TOP_OPEN:
			op->res = op_result(openat(op->dirfd, op->name,
						   O_RDONLY | O_NOFOLLOW | O_CLOEXEC));
			break;
		case TOP_WRITE:
			op->res = op_result((long)pwrite(op->fd, op->buf, op->len, (off_t)op->off));
			break;
		case TOP_READ:
			op->res = op_result((long)pread(op->fd, op->buf, op->len, (off_t)op->off));
			break;
		case TOP_CLOSE:
			/* Never retried: the descriptor is gone either way. */
			op->res = op_result(close(op->fd));
			op->t_end = now_ns();
			return;
		case TOP_STAT:
			op->res = op_stat(op);
			break;
		case TOP_UNLINK:
			op->res = op_result(unlinkat(op->dirfd, op->name, 0));
			break;
		case TOP_RMDIR:
			op->res = op_result(unlinkat(op->dirfd, op->name, AT_REMOVEDIR));
			break;
		default:
			op->res = -EINVAL;
			break;
		}
		if (op->res != -EINTR || clyde_stop_requested())
			break;
	}
	op->t_end = now_ns();
}

static int psync_setup(struct tree_io *io, unsigned depth, char *desc, size_t len)
{
	(void)depth;
	io->depth = 1;
	io->ring_kinds = 0;
	if (len)
		desc[0] = '\0';
	return 0;
}

static int psync_run(struct tree_io *io, struct tree_op *ops, unsigned n)
{
	(void)io;
	for (unsigned i = 0; i < n; i++)
		tree_op_sync(&ops[i]);
	return 0;
}

static void psync_teardown(struct tree_io *io)
{
	(void)io;
}

const struct tree_io_ops tree_io_psync = {
	.name = "psync",
	.via = "system calls",
	.setup = psync_setup,
	.run = psync_run,
	.teardown = psync_teardown,
};
