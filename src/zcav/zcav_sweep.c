// SPDX-License-Identifier: BSD-2-Clause
/*
 * One target's sweep: its blocks from first to last, each as chunk-sized
 * requests through clyde's engine (psync, or io_uring with --iodepth),
 * timed whole, every chunk's latency in a histogram. O_DIRECT unless
 * --buffered: zcav reads through the page cache, which on a second pass
 * (or a device smaller than memory) measures memory. Standard input is
 * read with read(2), in order, as zcav does.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "engines/engine.h"
#include "lib/grow.h"
#include "lib/signals.h"
#include "lib/timing.h"
#include "sys/compat.h"
#include "zcav/zcav.h"

#define BUFFER_ALIGN	4096u

/* One sweep's means of doing I/O. */
struct sweeper {
	const struct zcav_opts *o;
	struct zcav_sweep *sw;
	struct engine eng;
	bool engine_up;
	int fd;
	char *bufs;
	struct io_req *reqs;
	struct io_req **free_reqs, **done;
	unsigned depth, nfree;
	size_t chunk;
	struct histogram *hist;
};

int zcav_engine_pick(const struct zcav_opts *o, struct engine_choice *c, char *err, size_t len)
{
	int ret = engine_choose(o->engine, o->iodepth, c);
	char names[64];

	if (ret == -ENOENT) {
		engine_names(names, sizeof(names));
		snprintf(err, len, "no engine %s (there are: %s, auto)", o->engine, names);
	} else if (ret == -EINVAL) {
		snprintf(err, len, "--iodepth %u needs a queued engine (--engine uring); %s runs one"
			 " request at a time", o->iodepth, o->engine);
	} else if (ret) {
		snprintf(err, len, "engine %s at depth %u: %s", c->ops->name, c->depth, c->desc);
	} else if (c->ops->flags & ENGINE_F_NO_DATA) {
		/* a sweep's figures are the device's: null would time nothing, and -w write none */
		snprintf(err, len, "--engine %s moves no data: a sweep measures the device (psync"
			 " or uring or auto)", c->ops->name);
		ret = -EOPNOTSUPP;
	}
	return ret;
}

static int sweeper_setup(struct sweeper *s, const struct engine_choice *c)
{
	struct engine_params params = { 0 };
	void *mem;
	int ret;

	s->depth = c->depth;
	/* zcav's rule for writes through the cache: each chunk fsync'd before the next */
	if (s->o->write && s->o->buffered)
		s->depth = 1;
	if (posix_memalign(&mem, BUFFER_ALIGN, (size_t)s->depth * s->chunk))
		return -ENOMEM;
	s->bufs = mem;
	/* zeros: what -w writes, and a read's buffer shows no stale data */
	memset(s->bufs, 0, (size_t)s->depth * s->chunk);
	s->reqs = calloc(s->depth, sizeof(*s->reqs));
	s->free_reqs = calloc(s->depth, sizeof(*s->free_reqs));
	s->done = calloc(s->depth, sizeof(*s->done));
	s->hist = malloc(sizeof(*s->hist));
	if (!s->reqs || !s->free_reqs || !s->done || !s->hist)
		return -ENOMEM;
	for (unsigned i = 0; i < s->depth; i++) {
		s->reqs[i].buf = s->bufs + (size_t)i * s->chunk;
		s->reqs[i].slot = i;
		s->reqs[i].buf_index = i;
		s->reqs[i].op = s->o->write ? IO_WRITE : IO_READ;
		s->free_reqs[s->nfree++] = &s->reqs[i];
	}
	params.depth = s->depth;
	params.direct = !s->o->buffered;
	params.bufs = s->bufs;
	params.buf_len = s->chunk;
	ret = engine_setup(&s->eng, c->ops, &params);
	if (ret)
		return ret;
	s->engine_up = true;
	return 0;
}

static void sweeper_release(struct sweeper *s)
{
	if (s->fd > 0 && s->engine_up)
		s->eng.ops->close(&s->eng, s->fd);
	if (s->engine_up)
		engine_teardown(&s->eng);
	free(s->bufs);
	free(s->reqs);
	free(s->free_reqs);
	free(s->done);
	free(s->hist);
}

/* The completions of at least min requests: latency kept, errors and short ones noted. */
static int reap(struct sweeper *s, unsigned min, bool *short_io)
{
	int n = s->eng.ops->reap(&s->eng, min, s->done, s->depth);
	uint64_t t = now_ns();

	if (n < 0)
		return n;
	for (int i = 0; i < n; i++) {
		struct io_req *r = s->done[i];

		hist_record(s->hist, t - r->t_start);
		if (r->res < 0 && r->res != -ENOSPC)
			return (int)r->res;
		if (r->res < (ssize_t)r->len)
			*short_io = true;
		s->free_reqs[s->nfree++] = r;
	}
	return 0;
}

/* [off, off + len) through the engine: 0, 1 when it ended short (the target's end), -errno. */
static int engine_block(struct sweeper *s, uint64_t off, uint64_t len)
{
	bool short_io = false;
	uint64_t pos = 0;
	int ret = 0;

	while (pos < len && !short_io && !ret) {
		struct io_req *batch[64];
		unsigned n = 0;

		while (s->nfree && pos < len && n < 64) {
			struct io_req *r = s->free_reqs[--s->nfree];

			r->fd = s->fd;
			r->off = off + pos;
			r->len = len - pos < s->chunk ? (size_t)(len - pos) : s->chunk;
			r->t_start = now_ns();
			pos += r->len;
			batch[n++] = r;
		}
		if (n)
			ret = s->eng.ops->submit(&s->eng, batch, n);
		if (!ret && s->nfree < s->depth)
			ret = reap(s, 1, &short_io);
		/* zcav's rule for a write through the cache: each chunk synced before the next */
		if (!ret && s->o->write && s->o->buffered && fsync(s->fd))
			ret = -errno;
	}
	while (!ret && s->nfree < s->depth)
		ret = reap(s, s->depth - s->nfree, &short_io);
	if (!ret && s->o->write && !s->o->buffered && fsync(s->fd))
		ret = -errno;
	return ret ? ret : short_io;
}

/* Standard input: read(2) in order; 0, 1 at its end, -errno. */
static int stream_block(struct sweeper *s, uint64_t len)
{
	uint64_t pos = 0;

	while (pos < len) {
		size_t want = len - pos < s->chunk ? (size_t)(len - pos) : s->chunk;
		size_t got = 0;
		uint64_t t = now_ns();

		while (got < want) {
			ssize_t n = read(s->fd, s->bufs + got, want - got);

			if (n < 0 && errno == EINTR && !clyde_stop_requested())
				continue;
			if (n < 0)
				return -errno;
			if (!n)
				return 1;
			got += (size_t)n;
		}
		hist_record(s->hist, now_ns() - t);
		pos += want;
	}
	return 0;
}

static int time_block(struct sweeper *s, struct zcav_block *b)
{
	static const double q[] = { 0.5, 0.9, 0.99, 0.999 };
	uint64_t t0;
	int ret;

	hist_init(s->hist);
	t0 = now_ns();
	if (!strcmp(s->sw->t->path, "-"))
		ret = stream_block(s, b->bytes);
	else
		ret = engine_block(s, b->offset, b->bytes);
	b->seconds = (double)(now_ns() - t0) / 1e9;
	b->lat_ns[0] = s->hist->min;
	for (int i = 0; i < 4; i++)
		b->lat_ns[1 + i] = hist_quantile(s->hist, q[i]);
	b->lat_ns[5] = s->hist->max;
	return ret;
}

void zcav_span_of(const struct zcav_opts *o, const struct zcav_sweep *sw, struct zcav_span *sp)
{
	uint64_t end = UINT64_MAX;	/* the first block past the span, in blocks */

	sp->first = o->first_mib / o->block_mib;
	sp->step = o->skip;
	if (o->last_mib)
		end = o->last_mib / o->block_mib;
	if (sw->sized && sw->size / ((uint64_t)o->block_mib * MIB) < end)
		end = sw->size / ((uint64_t)o->block_mib * MIB);
	if (end == UINT64_MAX)
		sp->count = UINT64_MAX;
	else
		sp->count = end > sp->first ? (end - sp->first - 1) / sp->step + 1 : 0;
}

/*
 * The first pass: the span's blocks, or until the target's end. No block
 * past a known size: a file being written would grow, even an empty one.
 */
static int first_pass(struct sweeper *s, struct zcav_pass *p)
{
	const struct zcav_opts *o = s->o;
	uint64_t bbytes = (uint64_t)o->block_mib * MIB;
	struct zcav_span sp;
	size_t cap = 0;
	bool one = o->passes == 1;

	zcav_span_of(o, s->sw, &sp);
	for (uint64_t k = 0; k < sp.count; k++) {
		struct zcav_block b = {
			.offset = (sp.first + k * sp.step) * bbytes,
			.bytes = bbytes,
		};
		int ret;

		if (clyde_stop_requested())
			return -EINTR;
		ret = time_block(s, &b);
		if (ret < 0)
			return ret;
		if (ret)
			break;	/* the end, part of a block in: zcav counts no part */
		if (array_room(&p->block, &cap, p->nblocks, sizeof(*p->block), 64))
			return -ENOMEM;
		p->block[p->nblocks++] = b;
		p->seconds += b.seconds;
		if (one)
			zcav_text_block(s->sw->log, (double)b.offset / (1024.0 * MIB), b.seconds,
					o->block_mib);
	}
	return 0;
}

/* A later pass: the first pass's blocks again. */
static int next_pass(struct sweeper *s, struct zcav_pass *p, const struct zcav_pass *first)
{
	p->block = calloc(first->nblocks ? first->nblocks : 1, sizeof(*p->block));
	if (!p->block)
		return -ENOMEM;
	for (size_t i = 0; i < first->nblocks; i++) {
		struct zcav_block *b = &p->block[i];
		int ret;

		if (clyde_stop_requested())
			return -EINTR;
		b->offset = first->block[i].offset;
		b->bytes = first->block[i].bytes;
		ret = time_block(s, b);
		if (ret < 0)
			return ret;
		if (ret)
			return -ENODATA;	/* shorter than on the first pass */
		p->nblocks++;
		p->seconds += b->seconds;
	}
	return 0;
}

static int means(struct zcav_sweep *sw)
{
	size_t n = sw->pass[0].nblocks;
	double v[ZCAV_MAX_PASSES];

	sw->mean = calloc(n ? n : 1, sizeof(*sw->mean));
	if (!sw->mean)
		return -ENOMEM;
	for (size_t b = 0; b < n; b++) {
		for (unsigned p = 0; p < sw->npasses; p++)
			v[p] = sw->pass[p].block[b].seconds;
		sw->mean[b] = zcav_middle_mean(v, sw->npasses);
	}
	return 0;
}

static void pass_done(const struct zcav_sweep *sw, unsigned pass, const struct zcav_opts *o)
{
	const struct zcav_pass *p = &sw->pass[pass];
	time_t now = time(NULL);
	struct tm tm;

	zcav_text_pass(sw->log, (uint64_t)p->nblocks * o->block_mib, p->seconds);
	localtime_r(&now, &tm);
	fprintf(stderr, "# Finished loop %u, on device %s at %d:%02d:%02d\n", pass + 1, sw->t->path,
		tm.tm_hour, tm.tm_min, tm.tm_sec);
}

int zcav_open_flags(const struct zcav_opts *o)
{
	return (o->write ? O_WRONLY : O_RDONLY) | (o->buffered ? 0 : O_DIRECT) | O_CLOEXEC;
}

void zcav_say_open_error(FILE *err, const struct zcav_opts *o, const char *path, int errnum)
{
	fprintf(err, "clyde-zcav: %s: %s%s\n", path, strerror(errnum),
		errnum == EINVAL && !o->buffered ?
		" (O_DIRECT refused here? --buffered reads through the page cache)" : "");
}

void zcav_target_size(struct zcav_sweep *sw, const struct stat *st)
{
	off_t end;

	if (S_ISREG(st->st_mode)) {
		sw->size = (uint64_t)st->st_size;
		sw->sized = true;
		return;
	}
	end = lseek(sw->fd, 0, SEEK_END);
	sw->size = end > 0 ? (uint64_t)end : 0;
	sw->sized = end > 0;
}

int zcav_open_targets(const struct zcav_opts *o, struct zcav_sweep *sw, FILE *err)
{
	for (unsigned i = 0; i < o->ntargets; i++) {
		const char *path = o->target[i].path;
		struct stat st;

		if (!strcmp(path, "-")) {
			sw[i].fd = 0;
			continue;
		}
		sw[i].fd = open(path, zcav_open_flags(o));
		if (sw[i].fd < 0) {
			zcav_say_open_error(err, o, path, errno);
			return ZCAV_EXIT_IO;
		}
		if (fstat(sw[i].fd, &st)) {
			fprintf(err, "clyde-zcav: %s: %s\n", path, strerror(errno));
			return ZCAV_EXIT_IO;
		}
		zcav_target_size(&sw[i], &st);
	}
	return 0;
}

/* The engine takes the descriptor opened (and, for -w, checked) before: never the path again. */
static int open_target(struct sweeper *s, const struct engine_choice *c)
{
	struct zcav_sweep *sw = s->sw;
	struct stat st;
	int ret;

	s->fd = sw->fd;
	if (!strcmp(sw->t->path, "-")) {
		sw->direct = false;
		snprintf(sw->engine, sizeof(sw->engine), "read");
		snprintf(sw->engine_desc, sizeof(sw->engine_desc), "read(2) in order");
		snprintf(sw->id.kind, sizeof(sw->id.kind), "stream");
		return 0;
	}
	ret = sweeper_setup(s, c);
	if (ret)
		return ret;
	/* from here the engine's close closes it */
	sw->fd = -1;
	ret = engine_adopt(&s->eng, s->fd);
	if (ret)
		return ret;
	if (fstat(s->fd, &st))
		return -errno;
	zcav_identity_read(&sw->id, &st);
	sw->direct = !s->o->buffered;
	snprintf(sw->engine, sizeof(sw->engine), "%s", c->ops->name);
	snprintf(sw->engine_desc, sizeof(sw->engine_desc), "%s", c->desc);
	return 0;
}

static void say_start(const struct zcav_opts *o, const struct zcav_sweep *sw, unsigned depth)
{
	fprintf(stderr, "clyde-zcav: %s: %s %s, %llu MiB, with %s; blocks of %u MiB in %u MiB"
		" requests, engine %s (%s), depth %u\n", sw->t->path,
		o->write ? "writing zeros to" : "reading", sw->id.kind,
		(unsigned long long)(sw->size / MIB), sw->direct ? "O_DIRECT" : "the page cache",
		o->block_mib, o->chunk_mib, sw->engine, sw->engine_desc, depth);
}

int zcav_sweep_run(const struct zcav_opts *o, struct zcav_sweep *sw)
{
	struct sweeper s = { .o = o, .sw = sw, .fd = -1, .chunk = (size_t)o->chunk_mib * MIB };
	struct engine_choice c = { .ops = NULL };
	char err[256];
	int ret;

	if (strcmp(sw->t->path, "-")) {
		ret = zcav_engine_pick(o, &c, err, sizeof(err));
		if (ret) {
			fprintf(stderr, "clyde-zcav: %s: %s\n", sw->t->path, err);
			goto out;
		}
	} else {
		s.hist = malloc(sizeof(*s.hist));
		s.bufs = malloc(s.chunk);
		if (!s.hist || !s.bufs) {
			ret = -ENOMEM;
			goto out_said;
		}
	}
	ret = open_target(&s, &c);
	if (ret) {
		zcav_say_open_error(stderr, o, sw->t->path, -ret);
		goto out;
	}
	say_start(o, sw, s.depth ? s.depth : 1);
	if (o->passes == 1)
		zcav_text_header(sw->log);
	for (unsigned p = 0; p < o->passes; p++) {
		ret = p ? next_pass(&s, &sw->pass[p], &sw->pass[0]) : first_pass(&s, &sw->pass[0]);
		if (ret)
			goto out_said;
		sw->npasses++;
		if (!sw->pass[0].nblocks) {
			sw->too_small = true;
			fprintf(stderr, "clyde-zcav: %s: too small: not one block of %u MiB%s\n",
				sw->t->path, o->block_mib, o->first_mib ? " after -r's first" : "");
			ret = -ENODATA;
			goto out;
		}
		pass_done(sw, p, o);
	}
	if (o->passes > 1) {
		ret = means(sw);
		if (ret)
			goto out_said;
		zcav_text_means(sw->log, o, sw);
	}
	goto out;
out_said:
	if (ret == -ENODATA)
		fprintf(stderr, "clyde-zcav: %s: shorter than on the first pass\n", sw->t->path);
	else
		zcav_say_open_error(stderr, o, sw->t->path, -ret);
out:
	if (fflush(sw->log) && !ret)
		ret = -errno;
	sw->error = ret;
	sweeper_release(&s);
	return ret;
}

void zcav_sweep_free(struct zcav_sweep *sw)
{
	if (sw->fd > 0 && strcmp(sw->t->path, "-"))
		close(sw->fd);
	sw->fd = -1;
	for (unsigned p = 0; p < ZCAV_MAX_PASSES; p++)
		free(sw->pass[p].block);
	free(sw->mean);
	sw->mean = NULL;
}
