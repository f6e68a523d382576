// SPDX-License-Identifier: BSD-2-Clause
/*
 * The aio engine over a POSIX AIO that is synchronous underneath, as
 * DragonFly's librt is (lib/librt/aio.c): this program defines the aio
 * calls itself, so the engine linked into it calls these, not libc's.
 * aio_read does the pread at once and keeps errno as the request's error
 * whether it failed or not; aio_suspend returns at once. On it:
 * - a stale errno before a request must not fail the request (the engine
 *   clears errno before each aio_read and aio_write);
 * - a short transfer is finished by the engine (the library moves half);
 * - a request the library refuses for want of room (EAGAIN) while others
 *   are in flight is sent again at the next reap.
 * The data that ends in the file is checked every time.
 */
#include "config.h"

#include <aio.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#include "engines/engine.h"
#include "unit.h"

#define LEN 8192
#define DEPTH 4

/* The library's state: one row per request it holds, as librt's aiocb fields. */
static struct {
	const struct aiocb *cb;
	int err;
	ssize_t ret;
} held[64];
static unsigned nheld;
static bool halve;		/* move half of each request (at least 1 byte) */
static unsigned refuse_at;	/* the request of this number (from 1): -1, EAGAIN */
static unsigned requests, refused;

static int keep(const struct aiocb *cb, ssize_t ret, int err)
{
	unsigned i;

	for (i = 0; i < nheld && held[i].cb != cb; i++)
		;
	if (i == nheld) {
		if (nheld == sizeof(held) / sizeof(held[0])) {
			errno = EAGAIN;
			return -1;
		}
		nheld++;
	}
	held[i].cb = cb;
	held[i].ret = ret;
	held[i].err = err;
	return 0;
}

static int transfer(struct aiocb *cb, bool write)
{
	size_t len = halve && cb->aio_nbytes > 1 ? cb->aio_nbytes / 2 : cb->aio_nbytes;
	ssize_t n;

	if (++requests == refuse_at) {
		refused++;
		errno = EAGAIN;
		return -1;
	}
	n = write ? pwrite(cb->aio_fildes, (const void *)cb->aio_buf, len, cb->aio_offset)
		  : pread(cb->aio_fildes, (void *)cb->aio_buf, len, cb->aio_offset);
	/* librt's "ap->_aio_err = errno": set whatever the pread did */
	return keep(cb, n, errno);
}

int aio_read(struct aiocb *cb)
{
	return transfer(cb, false);
}

int aio_write(struct aiocb *cb)
{
	return transfer(cb, true);
}

int aio_error(const struct aiocb *cb)
{
	for (unsigned i = 0; i < nheld; i++)
		if (held[i].cb == cb)
			return held[i].err;
	return EINVAL;
}

ssize_t aio_return(struct aiocb *cb)
{
	for (unsigned i = 0; i < nheld; i++)
		if (held[i].cb == cb)
			return held[i].ret;
	errno = EINVAL;
	return -1;
}

int aio_suspend(const struct aiocb *const list[], int n, const struct timespec *timeout)
{
	(void)list;
	(void)n;
	(void)timeout;
	return 0;
}

int aio_cancel(int fd, struct aiocb *cb)
{
	(void)fd;
	(void)cb;
	return AIO_ALLDONE;
}

/* Write DEPTH chunks of distinct bytes through the engine, read them back, check the file. */
static void round_trip(const struct engine_ops *ops, const char *path, const char *what)
{
	struct engine e;
	struct io_req reqs[DEPTH], *batch[DEPTH], *done[DEPTH];
	static char bufs[DEPTH * LEN], back[LEN], want[LEN];
	struct engine_params p = { .depth = DEPTH, .bufs = bufs, .buf_len = LEN };
	int fd, n, got = 0;

	for (int i = 0; i < DEPTH * LEN; i++)
		bufs[i] = (char)('a' + i / LEN + i % 7);
	nheld = 0;
	requests = 0;
	CHECK(engine_setup(&e, ops, &p) == 0, "%s: setup", what);
	CHECK(ops->open(&e, path, O_RDWR | O_CREAT | O_TRUNC, 0600, &fd) == 0, "%s: open", what);
	for (int i = 0; i < DEPTH; i++) {
		reqs[i] = (struct io_req){ .op = IO_WRITE, .fd = fd, .buf = bufs + i * LEN, .len = LEN,
					   .off = (uint64_t)i * LEN, .slot = (unsigned)i,
					   .buf_index = (unsigned)i };
		batch[i] = &reqs[i];
	}
	/* what an earlier failed call of clyde's left behind */
	errno = ENOENT;
	CHECK(ops->submit(&e, batch, DEPTH) == 0, "%s: submit", what);
	while (got < DEPTH && (n = ops->reap(&e, 1, done, DEPTH)) > 0)
		for (int i = 0; i < n; i++, got++)
			CHECK(done[i]->res == LEN, "%s: write at %llu: res %zd, want %d", what,
			      (unsigned long long)done[i]->off, done[i]->res, LEN);
	CHECK(got == DEPTH, "%s: %d of %d writes reaped", what, got, DEPTH);
	for (int i = 0; i < DEPTH; i++) {
		CHECK(pread(fd, back, LEN, (off_t)i * LEN) == LEN, "%s: read back", what);
		CHECK(!memcmp(back, bufs + i * LEN, LEN), "%s: chunk %d as written", what, i);
	}
	/* and through the engine: chunk 2 into slot 0's buffer */
	memcpy(want, bufs + 2 * LEN, LEN);
	memset(bufs, 0, LEN);
	reqs[0] = (struct io_req){ .op = IO_READ, .fd = fd, .buf = bufs, .len = LEN,
				   .off = 2 * LEN, .slot = 0 };
	batch[0] = &reqs[0];
	errno = EINTR;
	CHECK(ops->submit(&e, batch, 1) == 0, "%s: submit read", what);
	n = ops->reap(&e, 1, done, DEPTH);
	CHECK(n == 1 && done[0]->res == LEN, "%s: read: n %d res %zd", what, n, n == 1 ? done[0]->res : 0);
	CHECK(!memcmp(bufs, want, LEN), "%s: the read's data", what);
	CHECK(ops->close(&e, fd) == 0, "%s: close", what);
	engine_teardown(&e);
}

int main(void)
{
	char path[] = "/tmp/clyde-unit-aio-sync.XXXXXX";
	const struct engine_ops *ops = engine_find("aio");
	int fd = mkstemp(path);

	/* a stale EINTR or EAGAIN taken as the request's would resend it for ever */
	alarm(60);
	CHECK(fd >= 0, "mkstemp");
	close(fd);
	CHECK(ops != NULL && !ops->unavailable, "aio is built");
	if (!ops || ops->unavailable)
		return unit_verdict("unit_engine_aio_sync");
	round_trip(ops, path, "stale errno");
	halve = true;
	round_trip(ops, path, "short transfers");
	halve = false;
	/* the second: the first is still the engine's, not yet reaped */
	refuse_at = 2;
	round_trip(ops, path, "EAGAIN");
	CHECK(refused == 1, "the library refused %u requests, want 1", refused);
	unlink(path);
	return unit_verdict("unit_engine_aio_sync");
}
