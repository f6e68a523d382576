// SPDX-License-Identifier: BSD-2-Clause
/*
 * Every built engine on a real file: whole chunks, a read that the end of
 * the file cuts short, and a per-request error (writing to a read-only
 * descriptor), reported on the request and not as an engine failure.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#include "engines/engine.h"
#include "unit.h"

#define LEN 8192
#define DEPTH 4

/* Built for psync (always there), and again for uring and aio (each skipped where unusable). */
#ifndef UNIT_ENGINE
#define UNIT_ENGINE "psync"
#endif
#define SKIPPED 77

static int run_engine(const struct engine_ops *ops, const char *path)
{
	char desc[160];
	struct engine e;
	struct io_req reqs[DEPTH], *batch[DEPTH], *done[DEPTH];
	void *mem;
	char *bufs;
	int fd, n, got = 0;

	if (engine_probe(ops, DEPTH, desc, sizeof(desc))) {
		printf("SKIP: %s is not usable here: %s\n", ops->name, desc);
		return SKIPPED;
	}
	CHECK(!posix_memalign(&mem, 4096, DEPTH * LEN), "memory");
	bufs = mem;
	memset(bufs, 'x', DEPTH * LEN);
	struct engine_params p = { .depth = DEPTH, .bufs = bufs, .buf_len = LEN };

	CHECK(engine_setup(&e, ops, &p) == 0, "%s setup", ops->name);
	CHECK(ops->open(&e, path, O_RDWR | O_CREAT | O_TRUNC, 0600, &fd) == 0, "%s open", ops->name);

	/* Three whole writes, then a read of chunk 2 and one past the end. */
	for (int i = 0; i < 3; i++) {
		reqs[i] = (struct io_req){ .op = IO_WRITE, .fd = fd, .buf = bufs + i * LEN,
					   .len = LEN, .off = (uint64_t)i * LEN, .slot = (unsigned)i, .buf_index = (unsigned)i };
		batch[i] = &reqs[i];
	}
	CHECK(ops->submit(&e, batch, 3) == 0, "%s submit writes", ops->name);
	while (got < 3 && (n = ops->reap(&e, 1, done, DEPTH)) > 0)
		for (int i = 0; i < n; i++, got++)
			CHECK(done[i]->res == LEN, "%s write res %zd", ops->name, done[i]->res);
	CHECK(got == 3, "%s reaped %d writes", ops->name, got);
	CHECK(ftruncate(fd, 2 * LEN + 100) == 0, "truncate");

	reqs[0] = (struct io_req){ .op = IO_READ, .fd = fd, .buf = bufs, .len = LEN, .off = LEN, .slot = 0 };
	reqs[1] = (struct io_req){ .op = IO_READ, .fd = fd, .buf = bufs + LEN, .len = LEN,
				   .off = 2 * LEN, .slot = 1, .buf_index = 1 };
	batch[0] = &reqs[0];
	batch[1] = &reqs[1];
	CHECK(ops->submit(&e, batch, 2) == 0, "%s submit reads", ops->name);
	for (got = 0; got < 2 && (n = ops->reap(&e, 1, done, DEPTH)) > 0;) {
		for (int i = 0; i < n; i++, got++) {
			if (done[i] == &reqs[0])
				CHECK(done[i]->res == LEN, "%s whole read %zd", ops->name, done[i]->res);
			else
				CHECK(done[i]->res == 100, "%s read cut by EOF: %zd, want 100",
				      ops->name, done[i]->res);
		}
	}
	CHECK(got == 2, "%s reaped %d reads", ops->name, got);
	CHECK(ops->close(&e, fd) == 0, "%s close", ops->name);

	/* A write to a read-only descriptor fails on the request itself. */
	CHECK(ops->open(&e, path, O_RDONLY, 0, &fd) == 0, "%s reopen", ops->name);
	reqs[0] = (struct io_req){ .op = IO_WRITE, .fd = fd, .buf = bufs, .len = LEN, .off = 0, .slot = 0 };
	batch[0] = &reqs[0];
	CHECK(ops->submit(&e, batch, 1) == 0, "%s submit bad write", ops->name);
	n = ops->reap(&e, 1, done, DEPTH);
	CHECK(n == 1 && done[0]->res == -EBADF, "%s bad write: n %d res %zd", ops->name, n,
	      n == 1 ? done[0]->res : 0);
	CHECK(ops->close(&e, fd) == 0, "%s close", ops->name);
	engine_teardown(&e);
	free(mem);
	printf("%s: checked (%s)\n", ops->name, desc);
	return 0;
}

int main(void)
{
	char path[] = "/tmp/clyde-unit-engine.XXXXXX";
	int fd = mkstemp(path);
	size_t n;
	const struct engine_ops *const *all = engine_table(&n);
	const struct engine_ops *ops = engine_find(UNIT_ENGINE);

	CHECK(fd >= 0, "mkstemp");
	close(fd);
	CHECK(n >= 2 && engine_find("psync") && engine_find("uring"), "psync and uring are listed");
	for (size_t i = 0; i < n; i++) {
		if (all[i]->unavailable)
			CHECK(strstr(all[i]->unavailable, "not built") != NULL, "%s: %s",
			      all[i]->name, all[i]->unavailable);
		else
			CHECK(all[i]->tree_io && all[i]->tree_depth >= 1, "%s: its tree I/O and depth",
			      all[i]->name);
	}
	CHECK(ops != NULL, "engine %s is listed", UNIT_ENGINE);
	if (ops && run_engine(ops, path) == SKIPPED && !unit_failures) {
		unlink(path);
		return SKIPPED;
	}
	unlink(path);
	return unit_verdict("unit_engine " UNIT_ENGINE);
}
