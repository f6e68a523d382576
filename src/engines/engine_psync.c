// SPDX-License-Identifier: BSD-2-Clause
/*
 * psync: pread/pwrite at submit time. Completions wait in a small queue
 * until reaped, so the phases drive it exactly as a queued engine.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "engines/engine.h"
#include "lib/signals.h"
#include "sys/compat.h"

struct psync {
	int rw_flags;
	struct done_queue done;
	struct io_req *slot[];
};

static int psync_setup(struct engine *e, const struct engine_params *p)
{
	struct psync *ps;

	ps = calloc(1, sizeof(*ps) + (p->depth ? p->depth : 1) * sizeof(ps->slot[0]));
	if (!ps)
		return -ENOMEM;
	ps->done.cap = p->depth ? p->depth : 1;
	ps->done.slot = ps->slot;
	ps->rw_flags = p->rw_flags;
	e->priv = ps;
	return 0;
}

static int psync_probe(unsigned depth, char *desc, size_t len)
{
	(void)depth;
	snprintf(desc, len, "pread/pwrite");
	return 0;
}

static int psync_open(struct engine *e, const char *path, int flags, mode_t mode, int *fd)
{
	(void)e;
	*fd = open(path, flags, mode);
	return *fd < 0 ? -errno : 0;
}

/* Move all of it unless the file ends (read) or an error stops us. */
static ssize_t psync_transfer(const struct io_req *r, int flags)
{
	size_t done = 0;

	while (done < r->len) {
		char *p = (char *)r->buf + done;
		off_t off = (off_t)(r->off + done);
		ssize_t n = r->op == IO_READ ? pread_flags(r->fd, p, r->len - done, off, flags)
					     : pwrite_flags(r->fd, p, r->len - done, off, flags);
		if (n < 0) {
			if (errno == EINTR && !clyde_stop_requested())
				continue;
			/* the error that stopped it, even after part: ENOSPC says more than "short" */
			return -errno;
		}
		if (n == 0)
			break;
		done += (size_t)n;
	}
	return (ssize_t)done;
}

static int psync_submit(struct engine *e, struct io_req *const *reqs, unsigned n)
{
	struct psync *ps = e->priv;

	for (unsigned i = 0; i < n; i++) {
		if (ps->done.count == ps->done.cap)
			return -EBUSY;
		reqs[i]->res = psync_transfer(reqs[i], ps->rw_flags);
		done_queue_push(&ps->done, reqs[i]);
	}
	return 0;
}

static int psync_reap(struct engine *e, unsigned min, struct io_req **done, unsigned max)
{
	struct psync *ps = e->priv;

	(void)min;	/* everything submitted has completed already */
	return (int)done_queue_pop(&ps->done, done, max);
}

static int psync_close(struct engine *e, int fd)
{
	(void)e;
	return close(fd) ? -errno : 0;
}

static void psync_teardown(struct engine *e)
{
	free(e->priv);
	e->priv = NULL;
}

const struct engine_ops engine_psync = {
	.name = "psync",
	.flags = 0,
	.unavailable = NULL,
	.tree_io = &tree_io_psync,
	.tree_depth = 1,
	.probe = psync_probe,
	.setup = psync_setup,
	.open = psync_open,
	.submit = psync_submit,
	.reap = psync_reap,
	.close = psync_close,
	.teardown = psync_teardown,
};
