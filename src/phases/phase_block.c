// SPDX-License-Identifier: BSD-2-Clause
/*
 * Block write, rewrite and block read: the whole file in chunk-sized
 * requests through the engine. Each phase ends with fsync (when it wrote)
 * and close inside its timing.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

#include "lib/timing.h"
#include "phases/bench.h"
#include "phases/pattern.h"
#include "phases/pipeline.h"
#include "phases/steady_watch.h"
#include "phases/stonewall.h"
#include "sys/cache.h"

enum { ST_READ, ST_WRITE };

struct seq_ctx {
	struct worker *w;
	struct phase_sample *s;
	struct pipeline *p;
	enum phase_id id;
	const char *path;
	uint64_t next;
	uint64_t nchunks;	/* what the phase does; --steady: the most */
	uint64_t planned;	/* --steady: what it does at least (unless MAX cuts it) */
	uint64_t file_chunks;	/* --steady's rewrite and read: start over past this */
	struct steady_watch *steady;
	struct steady_cursor *cursor;
	bool at_most;		/* --steady: the write stopped at the largest file */
	bool evict;		/* --steady: drop the file's cache at each start-over */
	bool start_over;	/* seq_fill stopped for one: drain, evict, go on */
	uint64_t over_at;	/* the chunk count of the last start-over */
	uint64_t completed;
	bool fsync_each;
	bool verify;
	uint32_t *versions;	/* --verify: what each chunk should hold */
};

/* One byte of the chunk changes before every write, as in bonnie++. */
static void touch_chunk(struct io_req *r)
{
	((unsigned char *)r->buf)[r->chunk % r->len]++;
}

/*
 * Where a limit may stop the phase: any chunk, but a block write only on
 * whole MiB where the chunk divides one, so the file it leaves has the
 * size the CSV's MiB label says.
 */
static bool at_cut_point(const struct seq_ctx *c, uint64_t len)
{
	const uint64_t mib = 1u << 20;

	if (c->id != PH_PUT_BLOCK || len >= mib || mib % len)
		return true;
	return (c->next * len) % mib == 0;
}

/*
 * --steady before each chunk: the watch hears of the worker's finished
 * intervals; past the planned work only the watch (or the largest file)
 * stops it, at a cut point.
 */
static bool seq_steady_go(struct seq_ctx *c, uint64_t len)
{
	steady_tick(c->steady, c->cursor, c->s->series);
	if (c->next >= c->planned)
		steady_floor_done(c->steady, c->cursor);
	if (steady_stopped(c->steady) && at_cut_point(c, len))
		return false;
	if (c->next == c->nchunks && c->id == PH_PUT_BLOCK)
		c->at_most = true;
	return true;
}

static bool seq_fill(void *arg, struct io_req *r)
{
	struct seq_ctx *c = arg;

	if (c->steady && !seq_steady_go(c, r->len))
		return false;
	if (c->next == c->nchunks || (at_cut_point(c, r->len) &&
	    stonewall_stop(c->w->b->stonewall, c->s->start_ns, c->next)))
		return false;
	/*
	 * --steady: the rewrite and the read start over at the file's start,
	 * after the requests in flight completed and the file's pages were
	 * dropped (seq_start_over), so the next pass is the device's again
	 */
	if (c->evict && c->next && c->next % c->file_chunks == 0 && c->next != c->over_at) {
		c->start_over = true;
		return false;
	}
	r->chunk = c->file_chunks ? c->next++ % c->file_chunks : c->next++;
	r->off = r->chunk * r->len;
	if (c->id == PH_PUT_BLOCK) {
		r->op = IO_WRITE;
		r->state = ST_WRITE;
		if (c->verify) {
			c->versions[r->chunk] = 1;
			verify_fill(r->buf, r->len, r->off, c->w->b->verify_key, 1);
		} else {
			/* Zeros repeat anyway: they need no pool. */
			if (c->p->pool)
				pipeline_use_pool(c->p, r, r->chunk);
			touch_chunk(r);
		}
	} else {
		/* Reads land in the slot's own buffer, never in the pool. */
		r->buf = c->p->bufs + (size_t)r->slot * r->len;
		r->buf_index = r->slot;
		r->op = IO_READ;
		r->state = ST_READ;
	}
	return true;
}

static int seq_complete(void *arg, struct io_req *r)
{
	struct seq_ctx *c = arg;

	if (r->res < 0)
		return sample_fail_at(c->s, c->id, (int)r->res, c->path, NULL, (int64_t)r->off,
				      "%s %s at offset %llu", r->op == IO_READ ? "read" : "write",
				      c->path, (unsigned long long)r->off);
	if ((size_t)r->res != r->len)
		return sample_fail_at(c->s, c->id, -EIO, c->path, NULL, (int64_t)r->off,
				      "short %s of %s at offset %llu (%zd of %zu bytes)",
				      r->op == IO_READ ? "read" : "write", c->path,
				      (unsigned long long)r->off, r->res, r->len);
	if (r->op == IO_READ && c->verify) {
		uint64_t bad;

		if (verify_check(r->buf, r->len, r->off, c->w->b->verify_key,
				 c->versions[r->chunk], &bad))
			verify_mismatch(c->s, c->id, c->path, bad);
	}
	if (c->id == PH_REWRITE && r->state == ST_READ) {
		if (c->verify)
			verify_fill(r->buf, r->len, r->off, c->w->b->verify_key,
				    ++c->versions[r->chunk]);
		else
			touch_chunk(r);
		r->op = IO_WRITE;
		r->state = ST_WRITE;
		return 1;
	}
	if (c->fsync_each && r->op == IO_WRITE && fsync(r->fd))
		return sample_fail_at(c->s, c->id, -errno, c->w->io_path, NULL, -1, "fsync %s",
				      c->w->io_path);
	sample_latency(c->s, r->t_start, now_ns(), r->len);
	if (++c->completed == 1)
		test_pause_point(c->id);
	return 0;
}

/*
 * --steady's start-over of the rewrite or the read: nothing of the file is
 * in flight; drop its pages as the runner does between phases (the
 * rewrite's dirty pages go to the device first, inside the timing):
 * --cache=drop and uncached evict the file, system drops the machine's
 * caches. A failure is counted in the watch (the runner warns), not the
 * phase's: the runner's drop between phases does the same.
 */
static void seq_start_over(struct seq_ctx *c)
{
	int ret = 0;

	c->start_over = false;
	c->over_at = c->next;
	if (c->w->b->plan->cache == CACHE_SYSTEM)
		ret = cache_drop_system();
	else
		ret = cache_evict_file(c->path);
	steady_evicted(c->steady, ret);
}

static int seq_phase(struct worker *w, struct phase_sample *s, enum phase_id id, int flags)
{
	const struct run_plan *plan = w->b->plan;
	struct pipeline p;
	/*
	 * block write makes the file; the others find what it made (with
	 * --steady, what it wrote: it may have grown the file)
	 */
	bool steady = plan_steady(plan, id) && w->b->steady;
	uint64_t bytes = id == PH_PUT_BLOCK || (w->file_bytes > plan->file_bytes && !steady) ?
			 plan->file_bytes : w->file_bytes;
	struct seq_ctx c = {
		.w = w, .s = s, .p = &p, .id = id,
		.path = id == PH_GET_BLOCK ? w->read_path : w->io_path,
		.nchunks = bytes / plan->chunk,
		.fsync_each = plan->fsync_each,
		.verify = plan->verify,
		.versions = w->versions,
	};
	bool writes = id != PH_GET_BLOCK;

	if (steady) {
		c.steady = w->b->steady;
		c.planned = c.nchunks;
		if (id == PH_PUT_BLOCK)
			c.nchunks = plan->steady_file_bytes / plan->chunk;
		else
			c.file_chunks = c.nchunks;
		/* --cache=keep leaves the page cache alone, here as between phases */
		c.evict = c.file_chunks && plan->cache != CACHE_KEEP;
		if (c.nchunks)
			c.nchunks = c.file_chunks ? UINT64_MAX : c.nchunks;
	}
	int ret, cret;

	/* Buffers, ring and open come before the clock, as bonnie++ opens first. */
	ret = pipeline_open(&p, w->b, c.path, io_open_flags(w->b, flags), plan->chunk,
			    id == PH_PUT_BLOCK && !plan->verify && plan->data != DATA_ZERO);
	if (ret == -EINVAL && plan->direct)
		return sample_fail_at(s, id, ret, c.path, NULL, -1,
				      "open %s: the filesystem refuses O_DIRECT", c.path);
	if (ret)
		return sample_fail_at(s, id, ret, c.path, NULL, -1, "open %s", c.path);
	c.cursor = steady_join(c.steady);
	sample_start(w, s);
	ret = pipeline_drive(&p, seq_fill, seq_complete, &c);
	while (!ret && c.start_over) {
		seq_start_over(&c);
		ret = pipeline_drive(&p, seq_fill, seq_complete, &c);
	}
	if (c.file_chunks && c.next)
		steady_started_over(c.steady, (c.next - 1) / c.file_chunks);
	steady_leave(c.steady, c.cursor, s->series, c.at_most);
	cret = pipeline_finish(&p, writes && !ret, &s->flush_ns);
	sample_stop(w, s);
	pipeline_release(&p);
	if (ret)
		return sample_fail_at(s, id, ret, c.path, NULL, -1, "%s", c.path);
	if (cret)
		return sample_fail_at(s, id, cret, c.path, NULL, -1, "%s %s",
				      writes ? "fsync/close" : "close", c.path);
	/* all of it, or what --stonewall left it at */
	s->amount = (double)(c.next * plan->chunk) / 1024.0;
	if (id == PH_PUT_BLOCK)
		w->file_bytes = c.next * plan->chunk;
	return 0;
}

int phase_put_block(struct worker *w, struct phase_sample *s)
{
	/* The file is new unless the per-char write made it. */
	int create = w->b->plan->perchar_bytes ? O_TRUNC : O_EXCL;

	return seq_phase(w, s, PH_PUT_BLOCK, O_WRONLY | O_CREAT | create);
}

int phase_rewrite(struct worker *w, struct phase_sample *s)
{
	return seq_phase(w, s, PH_REWRITE, O_RDWR);
}

int phase_get_block(struct worker *w, struct phase_sample *s)
{
	return seq_phase(w, s, PH_GET_BLOCK, O_RDONLY);
}
