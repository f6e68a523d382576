// SPDX-License-Identifier: BSD-2-Clause
/*
 * Per-char write and read: one system call per byte (bonnie++ 2.00), or
 * stdio putc/getc (bonnie++ 1.03, --perchar=stdio). Latency is timed per
 * chunk of bytes, as bonnie++ does, never per byte.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "lib/signals.h"
#include "lib/timing.h"
#include "phases/bench.h"
#include "phases/pattern.h"
#include "phases/stonewall.h"
#include "sys/compat.h"

struct perchar_io {
	int fd;
	FILE *stream;		/* --perchar=stdio only */
};

/*
 * The stream is the worker's own: the _unlocked calls are what a
 * single-threaded bonnie++ gets from putc and getc. The locked ones cost
 * a lock per byte as soon as the process has a second thread (glibc then
 * takes the stream's lock on every call), which -c or the seekers
 * would otherwise add to the figure: five times slower per byte on a
 * tmpfs.
 */
static int putc_byte(struct perchar_io *io, unsigned char c)
{
	if (io->stream)
		return putc_unlocked(c, io->stream) == EOF ? -errno : 0;
	for (;;) {
		ssize_t n = write(io->fd, &c, 1);

		if (n == 1)
			return 0;
		if (n == 0)
			return -EIO;
		if (errno != EINTR)
			return -errno;
		if (clyde_stop_requested())
			return -EINTR;
	}
}

static int getc_byte(struct perchar_io *io, unsigned char *out)
{
	unsigned char c;

	if (io->stream) {
		int v = getc_unlocked(io->stream);

		if (v != EOF) {
			*out = (unsigned char)v;
			return 0;
		}
		return ferror(io->stream) ? -errno : -ENODATA;
	}
	for (;;) {
		ssize_t n = read(io->fd, &c, 1);

		if (n == 1) {
			*out = c;
			return 0;
		}
		if (n == 0)
			return -ENODATA;
		if (errno != EINTR)
			return -errno;
		if (clyde_stop_requested())
			return -EINTR;
	}
}

static int perchar_open(struct worker *w, struct perchar_io *io, bool writing)
{
	/* Per-char write is the first phase: it creates the file, exclusively. */
	int flags = writing ? O_WRONLY | O_CREAT | O_EXCL : O_RDONLY;

	io->stream = NULL;
	io->fd = open(writing ? w->io_path : w->read_path, flags | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (io->fd < 0)
		return -errno;
	if (w->b->plan->perchar != PERCHAR_STDIO)
		return 0;
	io->stream = fdopen(io->fd, writing ? "w" : "r");
	if (!io->stream) {
		int e = errno;

		close(io->fd);
		return -e;
	}
	return 0;
}

/*
 * Flush, fsync when writing (timed into *flush_ns), and close; the first
 * error is returned.
 */
static int perchar_close(struct perchar_io *io, bool writing, uint64_t *flush_ns)
{
	uint64_t t0 = now_ns();
	int ret = 0;

	if (io->stream && writing && fflush(io->stream))
		ret = -errno;
	if (writing && !ret && fsync(io->fd))
		ret = -errno;
	if (writing && flush_ns)
		*flush_ns = now_ns() - t0;
	if (io->stream) {
		if (fclose(io->stream) && !ret)
			ret = -errno;
	} else if (close(io->fd) && !ret) {
		ret = -errno;
	}
	return ret;
}

/* The read finds what the writes left: --stonewall may have cut them. */
uint64_t perchar_read_bytes(const struct worker *w)
{
	const uint64_t planned = w->b->plan->perchar_bytes;

	return w->file_bytes > planned ? planned : w->file_bytes;
}

static int perchar_run(struct worker *w, struct phase_sample *s, enum phase_id id)
{
	const bool writing = id == PH_PUTC;
	const uint64_t total = writing ? w->b->plan->perchar_bytes : perchar_read_bytes(w);
	const uint64_t chunk = w->b->plan->chunk;
	const char *path = writing ? w->io_path : w->read_path;
	const bool verify = w->b->plan->verify;
	const uint64_t key = w->b->verify_key;
	struct perchar_io io;
	uint64_t done = 0, bad;
	unsigned char *vbuf = NULL, scratch;
	int ret;

	/* --verify: the chunk's pattern to write, or the bytes read to check. */
	if (verify && !(vbuf = malloc(chunk)))
		return sample_fail(s, id, -ENOMEM, "verify buffer");
	/* Opened before the clock starts, as bonnie++ does; closed inside it. */
	ret = perchar_open(w, &io, writing);
	if (ret) {
		free(vbuf);
		return sample_fail_at(s, id, ret, path, NULL, -1, "open %s", path);
	}
	sample_start(w, s);
	while (done < total && !stonewall_stop(w->b->stonewall, s->start_ns, done / chunk)) {
		uint64_t n = total - done < chunk ? total - done : chunk;
		uint64_t t0 = now_ns();

		if (verify && writing)
			verify_fill((char *)vbuf, n, done, key, 0);
		for (uint64_t i = 0; i < n; i++) {
			ret = writing ? putc_byte(&io, vbuf ? vbuf[i] : (unsigned char)(done + i))
				      : getc_byte(&io, vbuf ? &vbuf[i] : &scratch);
			if (ret) {
				/* the failing byte's own offset, not its chunk's */
				done += i;
				goto out_close;
			}
		}
		sample_latency(s, t0, now_ns(), n);
		if (verify && !writing &&
		    verify_check((char *)vbuf, n, done, key, w->versions[done / chunk], &bad))
			verify_mismatch(s, id, path, bad);
		done += n;
		if (done == n)
			test_pause_point(id);
		if (clyde_stop_requested()) {
			ret = -EINTR;
			goto out_close;
		}
	}
	ret = perchar_close(&io, writing, &s->flush_ns);
	sample_stop(w, s);
	free(vbuf);
	if (ret)
		return sample_fail_at(s, id, ret, path, NULL, -1, "%s %s",
				      writing ? "fsync/close" : "close", path);
	s->amount = (double)done / 1024.0;
	if (writing)
		w->file_bytes = done;
	return 0;

out_close:
	perchar_close(&io, false, NULL);
	sample_stop(w, s);
	free(vbuf);
	if (ret == -ENODATA)
		return sample_fail_at(s, id, -EIO, path, NULL, (int64_t)done,
				      "%s ends at byte %llu, before %llu", path,
				      (unsigned long long)done, (unsigned long long)total);
	return sample_fail_at(s, id, ret, path, NULL, (int64_t)done, "%s %s at byte %llu",
			      writing ? "write" : "read", path, (unsigned long long)done);
}

int phase_putc(struct worker *w, struct phase_sample *s)
{
	return perchar_run(w, s, PH_PUTC);
}

int phase_getc(struct worker *w, struct phase_sample *s)
{
	return perchar_run(w, s, PH_GETC);
}
