// SPDX-License-Identifier: BSD-2-Clause
/*
 * null: every request completes at once with its full length and moves
 * nothing, so a run through it costs only clyde's own work per request
 * (the phases' loop, the pipeline, the latency histogram, the series):
 * the ruler that clyde's overhead is measured with, as fio's null engine
 * is fio's.
 *
 * A read leaves the buffer as it was. The file stays a real, sparse file:
 * its descriptor is opened as any engine's (the phases fsync it and the
 * runner evicts and measures it by it), and its size follows the writes,
 * set by ftruncate when it is closed, so every later phase's offsets lie
 * inside it. It holds no data: reading it afterwards gives zeros.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engines/engine.h"

/* One instance: the requests submitted and not yet reaped, in order. */
struct null_engine {
	uint64_t end;		/* where the farthest write ended, for the size */
	struct done_queue done;
	struct io_req *slot[];
};

static int null_probe(unsigned depth, char *desc, size_t len)
{
	(void)depth;
	snprintf(desc, len, "no I/O");
	return 0;
}

static int null_setup(struct engine *e, const struct engine_params *p)
{
	struct null_engine *ne;

	(void)p;
	ne = calloc(1, sizeof(*ne) + e->depth * sizeof(ne->slot[0]));
	if (!ne)
		return -ENOMEM;
	ne->done.cap = e->depth;
	ne->done.slot = ne->slot;
	e->priv = ne;
	return 0;
}

static int null_open(struct engine *e, const char *path, int flags, mode_t mode, int *fd)
{
	struct null_engine *ne = e->priv;

	*fd = open(path, flags, mode);
	if (*fd < 0)
		return -errno;
	ne->end = 0;
	return 0;
}

/* Complete as submitted: no system call, so the cost is clyde's alone. */
static int null_submit(struct engine *e, struct io_req *const *reqs, unsigned n)
{
	struct null_engine *ne = e->priv;

	for (unsigned i = 0; i < n; i++) {
		struct io_req *r = reqs[i];

		if (ne->done.count == ne->done.cap)
			return -EBUSY;
		if (r->op == IO_WRITE && r->off + r->len > ne->end)
			ne->end = r->off + r->len;
		r->res = (ssize_t)r->len;
		done_queue_push(&ne->done, r);
	}
	return 0;
}

static int null_reap(struct engine *e, unsigned min, struct io_req **done, unsigned max)
{
	struct null_engine *ne = e->priv;

	(void)min;	/* everything submitted has completed already */
	return (int)done_queue_pop(&ne->done, done, max);
}

/*
 * The size the writes would have left: a regular file grows (never
 * shrinks: a rewrite inside it leaves it as it was); a device is left.
 */
static int null_grow(int fd, uint64_t end)
{
	struct stat st;

	if (!end)
		return 0;
	if (fstat(fd, &st))
		return -errno;
	if (!S_ISREG(st.st_mode) || (uint64_t)st.st_size >= end)
		return 0;
	return ftruncate(fd, (off_t)end) ? -errno : 0;
}

static int null_close(struct engine *e, int fd)
{
	struct null_engine *ne = e->priv;
	int ret = null_grow(fd, ne->end);

	ne->end = 0;
	if (close(fd) && !ret)
		ret = -errno;
	return ret;
}

static void null_teardown(struct engine *e)
{
	free(e->priv);
	e->priv = NULL;
}

const struct engine_ops engine_null = {
	.name = "null",
	.flags = ENGINE_F_QUEUED | ENGINE_F_NO_DATA,
	.unavailable = NULL,
	.tree_io = &tree_io_psync,
	.tree_depth = 1,
	.probe = null_probe,
	.setup = null_setup,
	.open = null_open,
	.submit = null_submit,
	.reap = null_reap,
	.close = null_close,
	.teardown = null_teardown,
};
