// SPDX-License-Identifier: BSD-2-Clause
/*
 * The run plan: what the options ask, turned into what will happen. The
 * engine is chosen by name, sizes follow the free space, and the counts
 * that the user left open come from the calibration.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "clyde/options.h"
#include "clyde/plan.h"
#include "core/phase.h"
#include "lib/size.h"
#include "phases/bench.h"
#include "phases/capacity.h"
#include "sys/cache.h"
#include "sys/workdir.h"

/* Without -s: the smaller of this and half the free space. */
#define DEFAULT_SIZE_MIB	4096ull
/* Share of what the I/O phases leave of the budget that the file tests take. */
#define FILE_BUDGET_SHARE	0.8
/* an fsync this many times faster than the writes and fsync before it wrote nothing */
#define FLUSH_NONE_RATIO	100.0

/* --engine NAME, or auto, by engine_choose's rule; auto's fallback said on stderr. */
static int choose_engine(struct run_plan *p, const struct clyde_options *o,
			 char *err, size_t errlen)
{
	struct engine_choice c;
	int ret = engine_choose(o->engine, o->iodepth, &c);

	if (ret) {
		snprintf(err, errlen, "--engine=%s: %s", o->engine, c.desc);
		return ret == -ENOENT || ret == -EINVAL ? CLYDE_EXIT_USAGE : CLYDE_EXIT_ENGINE;
	}
	if (o->cache == CACHE_UNCACHED && c.ops->flags & ENGINE_F_NO_RW_FLAGS) {
		snprintf(err, errlen, "--cache=uncached: the %s engine cannot pass RWF_DONTCACHE "
			 "with each request", c.ops->name);
		return CLYDE_EXIT_USAGE;
	}
	p->engine = c.ops;
	p->depth = c.depth;
	if (c.refused) {
		snprintf(p->engine_desc, sizeof(p->engine_desc),
			 "%.100s; --engine=auto fell back: %s %.100s", c.desc, c.refused, c.why);
		fprintf(stderr, "clyde: note: --engine=auto: %s cannot be used (%s); running "
			"psync at queue depth 1\n", c.refused, c.why);
	} else if (c.ops->flags & ENGINE_F_QUEUED) {
		snprintf(p->engine_desc, sizeof(p->engine_desc), "QD %u; %s", c.depth, c.desc);
	} else {
		snprintf(p->engine_desc, sizeof(p->engine_desc), "%s", c.desc);
	}
	return 0;
}

static int choose_sizes(struct run_plan *p, const struct clyde_options *o,
			char *err, size_t errlen)
{
	uint64_t free_bytes = p->free_bytes;
	uint64_t mib = o->size_bytes >> 20;

	if (!o->size_given) {
		mib = free_bytes / 2 / o->concurrency >> 20;
		if (mib > DEFAULT_SIZE_MIB)
			mib = DEFAULT_SIZE_MIB;
		if (mib < 1) {
			snprintf(err, errlen, "-d %s: too little free space for even a 1 MiB test file",
				 o->dir);
			return CLYDE_EXIT_DIR;
		}
		if (mib < DEFAULT_SIZE_MIB)
			snprintf(p->size_note, sizeof(p->size_note),
				 "file size %" PRIu64 " MiB: half the free space", mib);
	}
	p->file_bytes = mib << 20;
	/* the one check of the size against the chunk: the options check each alone */
	if (p->file_bytes && p->file_bytes < o->chunk) {
		snprintf(err, errlen, "-s: the file (%" PRIu64 " MiB) is smaller than one chunk", mib);
		return CLYDE_EXIT_USAGE;
	}
	/* 1-byte I/O cannot be direct: -D skips the per-char phases. */
	p->perchar_bytes = o->skip_perchar || o->direct ? 0 : o->perchar_bytes;
	if (p->perchar_bytes > p->file_bytes)
		p->perchar_bytes = p->file_bytes;
	return 0;
}

/* Whether the user fixed the amount of work, as in bonnie++: -s, the seek count, -n. */
static bool amount_given(const struct clyde_options *o, enum phase_amount a)
{
	switch (a) {
	case AMOUNT_SIZE:
		return o->size_given;
	case AMOUNT_SEEKS:
		return o->seeks_given;
	case AMOUNT_FILES:
		return o->files_given;
	default:
		return false;
	}
}

/* --tree: the shape, scale and seed; the engine's batch depth for it. */
static void plan_tree(struct run_plan *p, const struct clyde_options *o)
{
	if (!o->tree_shape)
		return;
	p->tree_shape = o->tree_shape;
	p->tree_scale = o->tree_scale;
	p->tree_seed = o->tree_seed;
	p->tree_depth = o->iodepth_given ? p->depth : p->engine->tree_depth;
}

/* The file tests' data, each file rounded up to 4 KiB: -n's count and sizes. */
static uint64_t files_bytes(const struct run_plan *p)
{
	uint64_t avg, per_file;

	if (!p->files || p->file_max <= 0)
		return 0;
	avg = (uint64_t)(p->file_max + p->file_min) / 2;
	per_file = (avg + 4095) / 4096 * 4096;
	return per_file * p->files * FILES_UNIT;
}

uint64_t plan_space_bytes(const struct run_plan *p)
{
	uint64_t file = p->steady_file_bytes > p->file_bytes ? p->steady_file_bytes : p->file_bytes;

	return (file + files_bytes(p)) * p->workers;
}

/*
 * --steady: the block write may grow each file past -s until it settles,
 * up to what half the free space holds beside the file tests' files (the
 * rule of the default size), never less than the planned file; the
 * free-space check counts it (plan_space_bytes).
 */
static void plan_steady_size(struct run_plan *p)
{
	uint64_t room = p->free_bytes / 2 / (p->workers ? p->workers : 1), files = files_bytes(p);

	p->steady_file_bytes = p->file_bytes;
	if (!p->steady.on || !p->file_bytes || !p->run[PH_PUT_BLOCK])
		return;
	room = room > files ? (room - files) >> 20 << 20 : 0;
	/* whole chunks: the write stops on one */
	room -= room % p->chunk;
	if (room > p->file_bytes)
		p->steady_file_bytes = room;
}

int plan_build(struct run_plan *p, const struct clyde_options *o, char *err, size_t errlen)
{
	char note[sizeof(p->space_note)];
	uint64_t free_bytes = workdir_free_bytes(o->dir, note, sizeof(note));
	size_t len;
	int ret;

	ret = plan_build_space(p, o, free_bytes, workdir_free_inodes(o->dir), err, errlen);
	if (!note[0])
		return ret;
	/* where the free space came from: the run's context, the JSON and --plan say it */
	if (ret) {
		len = strlen(err);
		snprintf(err + len, errlen - len, " (%s)", note);
		return ret;
	}
	snprintf(p->space_note, sizeof(p->space_note), "%s", note);
	len = strlen(p->size_note);
	snprintf(p->size_note + len, sizeof(p->size_note) - len, "%s%s", len ? "; " : "", note);
	return 0;
}

/* A default run's time boxes: only on the phases whose amount clyde chose. */
static void plan_boxes(struct run_plan *p, const struct clyde_options *o)
{
	for (int i = 0; i < PH_COUNT; i++) {
		const struct phase_def *d = phase_get((enum phase_id)i);
		const struct family_def *f = phase_family((enum phase_id)i);

		if (d->box_s > 0 && !amount_given(o, f->amount) && f->runs(p) &&
		    !plan_steady(p, (enum phase_id)i))
			p->phase_box_s[i] = d->box_s;
	}
}

int plan_build_space(struct run_plan *p, const struct clyde_options *o, uint64_t free_bytes,
		     uint64_t free_inodes, char *err, size_t errlen)
{
	int ret;

	memset(p, 0, sizeof(*p));
	p->free_bytes = free_bytes;
	p->free_inodes = free_inodes;
	p->dir = o->dir;
	p->workers = o->concurrency;
	ret = choose_engine(p, o, err, errlen);
	if (ret)
		return ret;
	ret = choose_sizes(p, o, err, errlen);
	if (ret)
		return ret;
	p->chunk = o->chunk;
	p->perchar = o->perchar;
	p->direct = o->direct;
	p->fsync_each = o->fsync_each;
	p->cache = o->cache;
	p->data = o->data;
	p->data_zero_pct = o->data_zero_pct;
	p->verify = o->verify;
	p->stonewall_s = o->stonewall_s;
	p->read_other = o->read_other;
	p->seeks = o->seeks;
	p->seeks_timed = !o->seeks_given && p->file_bytes;
	p->seek_seconds = SEEK_SECONDS;
	p->seekers = o->seekers;
	p->seek_updates = o->seek_updates;
	p->files = o->files;
	p->file_max = o->file_max;
	p->file_min = o->file_min;
	p->file_dirs = o->file_dirs;
	p->file_chunk = o->file_chunk;
	/* without -n a stat phase is measured, not a few milliseconds: see visit_phase */
	p->stat_min_s = o->files_given ? 0 : MIN_REPORT_SECONDS;
	p->sync = o->sync;
	p->quiet = o->quiet;
	p->series_ns = o->interval_ms > 0 ? o->interval_ms * 1000000 : o->interval_ms;
	p->live = o->live;
	p->steady = o->steady;
	p->capacity = o->capacity;
	plan_tree(p, o);
	/* after every family's amount is known: a box goes only where the family runs */
	plan_boxes(p, o);
	for (int i = 0; i < PH_COUNT; i++) {
		const struct family_def *f = phase_family((enum phase_id)i);

		p->run[i] = f->runs(p);
		/* bonnie++'s +++++ rule where the user fixed the amount, as in bonnie++ */
		p->plus_when_short[i] = amount_given(o, f->amount);
	}
	plan_steady_size(p);
	return 0;
}

/*
 * From here on, the estimate and the calibrated counts. No count here
 * comes from a cast of a double: the file count steps down from an
 * integer, so a budget gone negative or a NaN cost gives the least,
 * never a wrapped-around count.
 */

/*
 * One I/O phase's seconds at the calibrated cost t, cut at its limit;
 * the write cut short leaves a shorter file to the rest (*bytes scaled).
 */
static double phase_seconds(const struct run_plan *p, enum phase_id id, double t, double *bytes)
{
	double limit = plan_phase_limit(p, id);

	if (limit <= 0 || t <= limit)
		return t;
	if (bytes)
		*bytes *= limit / t;
	return limit;
}

/*
 * The random create's cost per file over the sequential one: grows with
 * the entries of a directory, to RANDOM_CREATE_COST at RANDOM_CREATE_AT
 * (ext4's hashed directories; a small one costs what a sequential does).
 */
static double random_create_factor(const struct run_plan *p, uint32_t units)
{
	double per_dir = (double)units * FILES_UNIT / (p->file_dirs ? p->file_dirs : 1);
	double f = per_dir / RANDOM_CREATE_AT;

	return 1 + (RANDOM_CREATE_COST - 1) * (f < 1 ? f : 1);
}

/* A stat phase: one pass, or as many whole passes as stat_min_s takes. */
static double stat_seconds(const struct run_plan *p, double pass)
{
	if (!(pass > 0))
		return p->stat_min_s;
	if (pass >= p->stat_min_s)
		return pass;
	return ceil(p->stat_min_s / pass) * pass;
}

/* What the cost models read: the calibration, and the amounts of one run, every worker's. */
struct cost_inputs {
	const struct run_plan *p;
	const struct calibration *c;
	double write_bps;
	double read_bps;
	double bytes;		/* the big files: a block write cut at its limit shortens them */
	double perchar_bytes;
	double files;		/* the file tests' */
	uint32_t units;		/* a worker's files, x 1024: the random create's directories */
};

/*
 * The block trial's fsync wrote nothing: it took a hundredth of the time
 * of the writes before it and their fsync together (a tmpfs, where the
 * page cache is the file system; on a device the fsync writes most of
 * it, and takes most of that time).
 */
static bool flush_writes_nothing(const struct calibration *c)
{
	return c->write_bps > 0 && c->flush_bps > FLUSH_NONE_RATIO * c->write_bps;
}

/*
 * What a buffered write of bytes leaves to flush when its limit stops
 * it: the page cache may have taken all of it before the limit, at
 * memory speed, up to the dirty limit, and the phase's closing fsync
 * (inside its timing) writes that at the device's measured rate: the
 * rate of the block trial's fsync, or else of its write. O_DIRECT
 * leaves nothing. Without a calibration, BOX_FLUSH_S.
 */
static double flush_seconds(const struct cost_inputs *in, double bytes)
{
	const struct calibration *c = in->c;
	double dirty = (double)c->dirty_limit_bytes;
	double rate = c->flush_bps > 0 ? c->flush_bps : c->write_bps;

	if (in->p->direct || flush_writes_nothing(c))
		return 0;
	if (!(rate > 0))
		return BOX_FLUSH_S;
	if (dirty > 0 && dirty < bytes)
		bytes = dirty;
	return bytes / rate;
}

/*
 * A write cut at its limit still syncs what the page cache holds of it:
 * t, the phase's seconds at most its limit, with that flush of at most
 * bytes.
 */
static double cut_write_seconds(const struct cost_inputs *in, enum phase_id id, double t,
				double bytes)
{
	double limit = plan_phase_limit(in->p, id);

	return limit > 0 && t >= limit ? t + flush_seconds(in, bytes) : t;
}

/*
 * The seek phase: each worker's seeks at the trial's measured time per
 * seek (its reads ran as many at once as one worker's seekers do; the
 * -c workers share the device), and, when timed, at least seek_seconds,
 * going on past the count at that rate until then; then the chunks it
 * wrote back (seek_updates in 100), synced inside the phase, at the
 * trial's time per chunk, and each worker's sync. Unmeasured:
 * seek_seconds, or 1 s.
 */
static double seek_phase_seconds(const struct run_plan *p, const struct calibration *c)
{
	double workers = p->workers ? p->workers : 1, seeks = p->seeks;
	double reads = workers * seeks * c->seek_s;

	if (!(c->seek_s > 0))
		return p->seeks_timed ? p->seek_seconds : 1.0;
	if (p->seeks_timed && reads < p->seek_seconds) {
		seeks = p->seek_seconds / (workers * c->seek_s);
		reads = p->seek_seconds;
	}
	if (!p->seek_updates)
		return reads;
	return reads + workers * (seeks * p->seek_updates / 100.0 * c->seek_write_s +
				  c->seek_sync_s);
}


/*
 * The sync that closes a create or delete phase: it writes out what the
 * phase changed, so it costs what the trial's sync cost for its files,
 * in proportion (on a device held to 50 writes a second, the trial's
 * sync of 16384 files' metadata took 33 s, a phase's of 1024 files 1 s).
 */
static double sync_seconds(const struct cost_inputs *in)
{
	const struct calibration *c = in->c;

	if (!c->sync_files)
		return c->sync_s;
	return c->sync_s * in->files / c->sync_files;
}

/*
 * One phase's seconds by its row's cost model (core/phase.h), cut at its
 * limit; 0 where an I/O phase does no work (no per-char bytes) or the
 * calibration measured none of its cost.
 */
static double cost_seconds(struct cost_inputs *in, const struct phase_def *d)
{
	const struct run_plan *p = in->p;
	const struct calibration *c = in->c;
	double w = in->write_bps, r = in->read_bps, n = in->files, t, bytes = in->bytes;

	/* --steady: at most MAX, and a write's flush after it */
	if (plan_steady(p, d->id) && (d->cost != COST_BLOCK_WRITE && d->cost != COST_REWRITE))
		return p->steady.max_s;
	if (plan_steady(p, d->id))
		return p->steady.max_s + BOX_FLUSH_S;
	switch (d->cost) {
	case COST_PERCHAR_WRITE:
		if (!p->perchar_bytes)
			return 0;
		t = phase_seconds(p, d->id, in->perchar_bytes * c->syscall_s, NULL);
		return cut_write_seconds(in, d->id, t, in->perchar_bytes);
	case COST_PERCHAR_READ:
		if (!p->perchar_bytes)
			return 0;
		return phase_seconds(p, d->id, in->perchar_bytes *
				     (c->syscall_s + IO_SUSTAINED_COST / r), NULL);
	case COST_BLOCK_WRITE:
		/* the flush: of the whole file, which the page cache may have taken */
		t = phase_seconds(p, d->id, WRITE_SUSTAINED_COST * in->bytes / w, &in->bytes);
		return cut_write_seconds(in, d->id, t, bytes);
	case COST_REWRITE:
		/*
		 * A rewrite reads and writes each chunk, at the block read's and
		 * the block write's cost; only the write's cut shortens the file.
		 */
		t = phase_seconds(p, d->id, in->bytes * (READ_SUSTAINED_COST / r +
							 WRITE_SUSTAINED_COST / w), NULL);
		return cut_write_seconds(in, d->id, t, bytes);
	case COST_BLOCK_READ:
		return phase_seconds(p, d->id, READ_SUSTAINED_COST * in->bytes / r, NULL);
	case COST_SEEKS:
		return seek_phase_seconds(p, c);
	case COST_CREATE:
		return phase_seconds(p, d->id, n * c->create_s + sync_seconds(in), NULL);
	case COST_RANDOM_CREATE:
		return phase_seconds(p, d->id, n * random_create_factor(p, in->units) *
				     c->create_s + sync_seconds(in), NULL);
	case COST_STAT:
		return stat_seconds(p, n * c->stat_s);
	case COST_DELETE:
		return n * c->delete_s + sync_seconds(in);
	default:
		return 0;
	}
}

/* The two sums of a run's estimate; --tree's phases are in neither. */
enum cost_part {
	PART_NONE,
	PART_IO,	/* the I/O phases */
	PART_FILES,	/* the file tests */
};

static enum cost_part cost_part(enum phase_cost cost)
{
	switch (cost) {
	case COST_PERCHAR_WRITE:
	case COST_PERCHAR_READ:
	case COST_BLOCK_WRITE:
	case COST_REWRITE:
	case COST_BLOCK_READ:
	case COST_SEEKS:
		return PART_IO;
	case COST_CREATE:
	case COST_RANDOM_CREATE:
	case COST_STAT:
	case COST_DELETE:
		return PART_FILES;
	default:
		return PART_NONE;
	}
}

/*
 * The seconds of one part's phases, the rows in order (a block write's
 * cut shortens the file for those after it), each with its overhead;
 * each phase's into est[] (PH_COUNT of them) unless NULL. An I/O phase
 * at 0 s is left out: it does no work or nothing of it was measured.
 */
static double part_seconds(struct cost_inputs *in, enum cost_part part, double *est)
{
	double s = 0;

	for (int i = 0; i < PH_COUNT; i++) {
		const struct phase_def *d = phase_get((enum phase_id)i);
		double t;

		if (cost_part(d->cost) != part)
			continue;
		t = cost_seconds(in, d);
		if (!t && part == PART_IO)
			continue;
		t += PHASE_OVERHEAD_S;
		if (est)
			est[i] = t;
		s += t;
	}
	return s;
}

/* Seconds of the I/O phases of one run at the calibrated speeds; each phase's into est[]. */
static double io_seconds(const struct run_plan *p, const struct calibration *c, uint64_t size,
			 double *est)
{
	double per = (double)p->workers;
	struct cost_inputs in = {
		.p = p, .c = c,
		.write_bps = c->write_bps > 0 ? c->write_bps : 1e9,
		.read_bps = c->read_bps > 0 ? c->read_bps : 1e9,
		.bytes = per * (double)size,
		.perchar_bytes = per * (double)p->perchar_bytes,
	};

	if (!size)
		return 0;
	return part_seconds(&in, PART_IO, est);
}

/*
 * Seconds of the file tests of one run with units x 1024 files per
 * worker; each phase's into est[] unless NULL.
 */
static double files_seconds(const struct run_plan *p, const struct calibration *c,
			    uint32_t units, double *est)
{
	struct cost_inputs in = {
		.p = p, .c = c,
		.files = (double)p->workers * units * FILES_UNIT,
		.units = units,
	};

	if (!units)
		return 0;
	return part_seconds(&in, PART_FILES, est);
}

double plan_estimate(const struct run_plan *p, const struct calibration *c, unsigned runs)
{
	return (RUN_OVERHEAD_S + io_seconds(p, c, p->file_bytes, NULL) +
		files_seconds(p, c, p->files, NULL)) * runs;
}

/*
 * The calibrated file count: bonnie++'s default, fewer where the budget
 * (seconds) cannot hold it or half the free inodes would not leave. The
 * create phases stop at their time boxes and the stat phases repeat
 * until stat_min_s, so a count past bonnie++'s default would only grow
 * the directories, where the random create's cost grows faster than a
 * trial can tell (ext4 on this project's VM: 5 times the sequential cost
 * at 48k files, 12 times at 200k).
 */
static uint32_t files_for_budget(const struct run_plan *p, const struct calibration *c,
				 double budget, const char *why, char *note, size_t len)
{
	unsigned workers = p->workers ? p->workers : 1;
	uint32_t n = DEFAULT_FILES;
	uint64_t room = UINT64_MAX;
	const char *limit = "bonnie++'s default";

	if (!(c->create_s > 0) || !(c->delete_s > 0) || !(c->stat_s > 0)) {
		snprintf(note, len, "%u x 1024 files: the calibration measured no file costs",
			 DEFAULT_FILES);
		return DEFAULT_FILES;
	}
	if (p->free_inodes != UINT64_MAX)
		room = p->free_inodes / 2 / FILES_UNIT / workers;
	if (room < n) {
		n = (uint32_t)room;
		limit = "half the free inodes";
	}
	if (!n) {
		snprintf(note, len, "no files: fewer than %u free inodes",
			 2 * FILES_UNIT * workers);
		return 0;
	}
	while (n > 1 && files_seconds(p, c, n, NULL) > budget) {
		n--;
		limit = "what the time budget holds";
	}
	snprintf(note, len, "%" PRIu32 " x 1024 files: %s (a file took %.1f us to create; "
		 "%.1f us to stat; %.1f us to delete%s)", n, limit, c->create_s * 1e6,
		 c->stat_s * 1e6, c->delete_s * 1e6, why);
	return n;
}

/* How --plan says the seek phase's time was found: the trial's figures, or why none. */
static void plan_seek_note(struct run_plan *p, const struct calibration *c)
{
	double t = seek_phase_seconds(p, c);

	if (c->seek_s > 0)
		snprintf(p->seek_note, sizeof(p->seek_note), "about %.1f s: %u reads of uncached "
			 "chunks (%.1f%% of the trial file in the page cache after the drop) took "
			 "%.3f ms each, %u at once; a chunk written back %.3f ms and its sync %.1f ms",
			 t, c->seeks_timed, c->seek_resident_pct, c->seek_s * 1e3, c->seek_threads,
			 c->seek_write_s * 1e3, c->seek_sync_s * 1e3);
	else if (c->seek_note[0])
		snprintf(p->seek_note, sizeof(p->seek_note), "about %.1f s, not measured: %s", t,
			 c->seek_note);
	else
		snprintf(p->seek_note, sizeof(p->seek_note), "about %.1f s, not measured", t);
}

/* How --plan says a write stopped at its box is counted: its flush, at most what and how fast. */
static void plan_flush_note(struct run_plan *p, const struct calibration *c)
{
	char dirty[32];

	if (p->direct) {
		snprintf(p->flush_note, sizeof(p->flush_note), "nothing: O_DIRECT (-D) leaves no "
			 "dirty pages");
		return;
	}
	if (flush_writes_nothing(c)) {
		snprintf(p->flush_note, sizeof(p->flush_note), "nothing: the trial's fsync had "
			 "nothing to flush (it took 1/%.0f of its writes' time: no device behind)",
			 c->flush_bps / c->write_bps);
		return;
	}
	if (!(c->write_bps > 0)) {
		snprintf(p->flush_note, sizeof(p->flush_note), "%.2f s each, the write rate not "
			 "measured", BOX_FLUSH_S);
		return;
	}
	if (c->dirty_limit_bytes)
		size_human(dirty, sizeof(dirty), c->dirty_limit_bytes);
	snprintf(p->flush_note, sizeof(p->flush_note), "what the page cache took of it, at most "
		 "the %s%s, at the measured %.1f MiB/s", c->dirty_limit_bytes ? "dirty limit " :
		 "file (no dirty limit known)", c->dirty_limit_bytes ? dirty : "",
		 (c->flush_bps > 0 ? c->flush_bps : c->write_bps) / 1048576);
}

int plan_calibrate(struct run_plan *p, const struct clyde_options *o, const struct calibration *c)
{
	double budget = DEFAULT_RUN_BUDGET, io, files_budget;
	const char *why = "";

	/*
	 * No -s: the size is not cut to a trial's guess; the phases stop at
	 * their boxes, whose time is known whatever the device does.
	 */
	if (!o->size_given && p->file_bytes) {
		size_t len = strlen(p->size_note);

		snprintf(p->size_note + len, sizeof(p->size_note) - len, "%sthe I/O phases stop at "
			 "their time boxes (give -s to do it all)", len ? "; " : "");
	}
	/* each phase's estimate where there was a calibration to make one from */
	io = io_seconds(p, c, p->file_bytes, c->seconds > 0 ? p->phase_est_s : NULL);
	/* what the I/O phases leave, never less than the least that measures */
	files_budget = (budget - io) * FILE_BUDGET_SHARE;
	if (!(files_budget >= FILE_MIN_BUDGET)) {
		files_budget = FILE_MIN_BUDGET;
		why = "; the I/O phases take all the budget";
	}
	if (!o->files_given && p->files) {
		p->files = files_for_budget(p, c, files_budget, why, p->files_note,
					    sizeof(p->files_note));
		p->files_calibrated = true;
		for (int i = 0; i < PH_COUNT; i++) {
			const struct family_def *f = phase_family((enum phase_id)i);

			if (f->amount == AMOUNT_FILES)
				p->run[i] = f->runs(p);
		}
	}
	p->estimate_io_s = io;
	plan_seek_note(p, c);
	plan_flush_note(p, c);
	p->estimate_files_s = files_seconds(p, c, p->files, c->seconds > 0 ? p->phase_est_s : NULL);
	if (c->create_batches >= 4)
		snprintf(p->cal_note, sizeof(p->cal_note),
			 "%u batches of 256 creates, their median "
			 "(the slowest quarter %.1f times the fastest%s)", c->create_batches,
			 c->create_spread, c->remeasured ? "; noisy: measured again" : "");
	else if (c->create_batches)
		snprintf(p->cal_note, sizeof(p->cal_note),
			 "%u batches of 256 creates, their median "
			 "(too few to tell their spread%s)", c->create_batches,
			 c->remeasured ? "; measured again" : "");
	return 0;
}

/* The time boxes and the stat phases' least time, as --plan says them. */
static void plan_print_limits(FILE *out, const struct run_plan *p)
{
	bool any = false, stats = false;

	for (int i = 0; i < PH_COUNT; i++) {
		if (!p->run[i])
			continue;
		stats |= phase_get((enum phase_id)i)->cost == COST_STAT;
		if (p->phase_box_s[i] <= 0)
			continue;
		fprintf(out, "%s %s %g s", any ? ";" : "time boxes (stop as --stonewall does):",
			phase_csv_name((enum phase_id)i), p->phase_box_s[i]);
		any = true;
	}
	if (any && p->flush_note[0])
		fprintf(out, "; a write stopped at its box then syncs %s", p->flush_note);
	if (any)
		fputc('\n', out);
	if (p->stat_min_s > 0 && stats)
		fprintf(out, "stat phases: every file again, pass after pass, until %g s\n",
			p->stat_min_s);
}

/* --steady, as --plan says it: the rule, the phases, their most time and the file's most size. */
static void plan_print_steady(FILE *out, const struct run_plan *p)
{
	const struct steady_spec *sp = &p->steady;
	char size[32];
	bool any = false;

	if (!sp->on)
		return;
	fprintf(out, "steady (--steady=%s:%g:%g:%g):", steady_metric_name(sp), sp->pct,
		sp->window_s, sp->max_s);
	for (int i = 0; i < PH_COUNT; i++) {
		if (!p->run[i] || !plan_steady(p, (enum phase_id)i))
			continue;
		fprintf(out, " %s", phase_csv_name((enum phase_id)i));
		any = true;
	}
	if (!any) {
		fputs(" no phase that it applies to runs\n", out);
		return;
	}
	fprintf(out, " each do their planned work then go on until the %s %s over the last "
		"%g s %s %g%% (checked at the series' intervals) and stop there; at most %g s "
		"each (a write then syncs)", sp->metric == STEADY_P99 ? "p99 latency" : "rate",
		sp->slope ? "slope" : "of every interval", sp->window_s,
		sp->slope ? "is under" : "stays within", sp->pct, sp->max_s);
	if (p->run[PH_PUT_BLOCK]) {
		size_human(size, sizeof(size), p->steady_file_bytes);
		fprintf(out, "; the block write may grow each file to %s (half the free space)%s",
			size, p->steady_file_bytes > p->file_bytes ? "" : ": no more than planned");
	}
	fputc('\n', out);
}

/* The search's most windows: doubling to --capacity-max, then halving the last gap. */
static unsigned capacity_max_windows(unsigned max_conc)
{
	unsigned doubling = 1, gap = 1;

	while (gap < max_conc) {
		gap *= 2;
		doubling++;
	}
	/* the last gap is at most half the top; halving it takes log2 of it windows */
	for (gap /= 2; gap > 1; gap /= 2)
		doubling++;
	return doubling < CAP_MAX_SEARCH_STEPS ? doubling : CAP_MAX_SEARCH_STEPS;
}

/*
 * --latency-target and --open-loop, as --plan says them: the phases,
 * the search's and the steps' bounds, and the time they add, which the
 * estimate above does not hold (it depends on the rates found).
 */
static void plan_print_capacity(FILE *out, const struct run_plan *p)
{
	const struct capacity_spec *sp = &p->capacity;
	double lo = 0, hi = 0;
	unsigned phases = 0, windows = capacity_max_windows(sp->max_conc);

	if (!capacity_asked(sp))
		return;
	fputs("capacity: after", out);
	for (int i = 0; i < PH_COUNT; i++) {
		if (!p->run[i] || !capacity_wanted(p, (enum phase_id)i))
			continue;
		fprintf(out, " %s", phase_csv_name((enum phase_id)i));
		phases++;
	}
	fputc('\n', out);
	if (sp->target_on) {
		fprintf(out, "  search: the highest rate with p%g within %g ms: windows of at least "
			"%g s and %" PRIu64 " operations (at most %g s), concurrency 1, 2, 4 ... %u "
			"then halving the gap: 1 to %u windows a phase\n", sp->target_pct,
			sp->target_s * 1e3, sp->step_s, capacity_min_samples(sp->target_pct),
			sp->step_s * CAP_WINDOW_MAX_STEPS, sp->max_conc, windows);
		lo += sp->step_s;
		hi += windows * sp->step_s * CAP_WINDOW_MAX_STEPS;
	}
	if (sp->open_on && sp->sweep) {
		fprintf(out, "  open loop: %s arrivals, a sweep from the phase's rate / %g up by "
			"%gx a step to the knee and one step past it; %g s schedules (a step stops "
			"at twice that), at most %g s a phase (exit 8 if no knee)\n",
			capacity_arrivals_name(sp->arrivals), CAP_SWEEP_START_DIV, CAP_SWEEP_GROWTH,
			sp->step_s, sp->time_s);
		lo += 2 * sp->step_s;
		hi += sp->time_s + 2 * 2 * sp->step_s;
	} else if (sp->open_on) {
		fprintf(out, "  open loop: %s arrivals at", capacity_arrivals_name(sp->arrivals));
		for (unsigned i = 0; i < sp->nrates; i++)
			fprintf(out, "%s %g", i ? "," : "", sp->rates[i]);
		fprintf(out, " a second; %g s schedules (a step stops at twice that)\n", sp->step_s);
		lo += sp->nrates * sp->step_s;
		hi += sp->nrates * 2 * sp->step_s;
	}
	fprintf(out, "  adds %.0f to %.0f s a run (%u %s; not in the estimate, with the untimed "
		"files the file kinds make first)\n", lo * phases, hi * phases, phases,
		phases == 1 ? "phase" : "phases");
}

void plan_print(FILE *out, const struct run_plan *p, const struct clyde_options *o)
{
	char size[32];

	fprintf(out, "directory: %s\n", p->dir);
	fprintf(out, "engine: %s (%s)%s\n", p->engine->name, p->engine_desc,
		p->direct ? " with O_DIRECT" : "");
	fprintf(out, "cache: %s (%s)\n", cache_mode_name(p->cache), cache_mode_description(p->cache));
	fprintf(out, "workers: %u\n", p->workers);
	size_human(size, sizeof(size), p->file_bytes);
	fprintf(out, "file: %s in %" PRIu32 "-byte chunks%s%s\n", size, p->chunk,
		p->size_note[0] ? "; " : "", p->size_note);
	fprintf(out, "per-char: %" PRIu64 " bytes by %s\n", p->perchar_bytes,
		p->perchar == PERCHAR_STDIO ? "stdio" : "1-byte system calls");
	if (p->seeks_timed)
		fprintf(out, "seeks: at least %" PRIu32 " and for at least %.1f s by %" PRIu32
			" %s; %u%% write back, synced at the end; %s\n", p->seeks,
			p->seek_seconds, p->seekers, p->seekers == 1 ? "seeker" : "seekers",
			p->seek_updates, p->seek_note);
	else
		fprintf(out, "seeks: %" PRIu32 " by %" PRIu32 " %s; %u%% write back, synced at "
			"the end; %s\n", p->seeks, p->seekers, p->seekers == 1 ? "seeker" : "seekers",
			p->seek_updates, p->seek_note);
	if (p->cal_note[0])
		fprintf(out, "calibration: %s\n", p->cal_note);
	fprintf(out, "files: %" PRIu32 " x 1024 of %" PRId64 "..%" PRId64 " bytes in %" PRIu32
		" directories%s%s\n", p->files, p->file_min, p->file_max, p->file_dirs,
		p->files_note[0] ? "; " : "", p->files_note);
	if (p->tree_shape)
		fprintf(out, "tree: %s at scale %g seed %" PRIu64 "; %s %u at a time; not in the estimate\n",
			p->tree_shape->name, p->tree_scale, p->tree_seed,
			p->engine->tree_io->via, p->tree_depth);
	fputs("phases:", out);
	for (int i = 0; i < PH_COUNT; i++)
		if (p->run[i])
			fprintf(out, " %s", phase_csv_name((enum phase_id)i));
	fputc('\n', out);
	plan_print_limits(out, p);
	plan_print_steady(out, p);
	plan_print_capacity(out, p);
	fprintf(out, "runs: %" PRIu32 "%s\n", o->repeats, o->warmup ? " after a warm-up run" : "");
	fprintf(out, "estimate: %.0f s (calibration %.1f s; each run: I/O phases %.1f s, "
		"file tests %.1f s, %.1f s around them)\n", p->estimate_seconds, p->estimate_cal_s,
		p->estimate_io_s, p->estimate_files_s, RUN_OVERHEAD_S);
}
