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

#include "bench.h"
#include "cache.h"
#include "phase.h"
#include "plan.h"
#include "size.h"
#include "workdir.h"

/* Without -s: the smaller of this and half the free space. */
#define DEFAULT_SIZE_MIB	4096ull
/* A budget never cuts the file below this. */
#define MIN_BUDGET_SIZE_MIB	256ull
/* Share of the run budget the I/O phases may take before -s is cut. */
#define IO_BUDGET_SHARE		0.5
/*
 * A 32 MiB trial runs faster than gigabytes sustained (on this project's
 * VM the 4 GiB phases took 1.5 times the trial's estimate).
 */
#define IO_SUSTAINED_COST	1.5
/* Calibrated file phases aim this far above FILE_PHASE_SECONDS. */
#define FILE_MARGIN		1.5
/*
 * The calibration creates a few thousand files in name order; creating a
 * large directory in random name order costs more per file (ext4 on this
 * project's VM: a tenth of the sequential rate at 200k to 330k entries),
 * so the budget counts the random create at this multiple.
 */
#define RANDOM_CREATE_COST	12.0
/* Share of what the I/O phases leave of the budget that the file tests take. */
#define FILE_BUDGET_SHARE	0.8

/* --engine NAME, or auto: the first queued engine the kernel takes, else psync. */
static int choose_engine(struct run_plan *p, const struct clyde_options *o,
			 char *err, size_t errlen)
{
	const struct engine_ops *const *table;
	const struct engine_ops *want = engine_find(o->engine);
	char desc[160], why[200] = "";
	const char *refused = "none";
	size_t n;

	if (want) {
		unsigned depth = want->flags & ENGINE_F_QUEUED ? o->iodepth : 1;

		if (engine_probe(want, depth, desc, sizeof(desc))) {
			snprintf(err, errlen, "--engine=%s: %s", want->name, desc);
			return CLYDE_EXIT_ENGINE;
		}
		p->engine = want;
		p->depth = depth;
		if (want->flags & ENGINE_F_QUEUED)
			snprintf(p->engine_desc, sizeof(p->engine_desc), "QD %u; %s", depth, desc);
		else
			snprintf(p->engine_desc, sizeof(p->engine_desc), "%s", desc);
		return 0;
	}
	table = engine_table(&n);
	for (size_t i = 0; i < n; i++) {
		if (!(table[i]->flags & ENGINE_F_QUEUED))
			continue;
		if (!engine_probe(table[i], o->iodepth, desc, sizeof(desc))) {
			p->engine = table[i];
			p->depth = o->iodepth;
			snprintf(p->engine_desc, sizeof(p->engine_desc), "QD %u; %s", p->depth, desc);
			return 0;
		}
		snprintf(why, sizeof(why), "%s", desc);
		refused = table[i]->name;
	}
	p->engine = engine_find("psync");
	p->depth = 1;
	snprintf(p->engine_desc, sizeof(p->engine_desc),
		 "pread/pwrite; --engine=auto fell back: %s %s", refused, why);
	fprintf(stderr, "clyde: note: --engine=auto: %s cannot be used (%s); running psync%s\n",
		refused, why, o->iodepth > 1 ? " at queue depth 1" : "");
	return 0;
}

static int choose_sizes(struct run_plan *p, const struct clyde_options *o,
			char *err, size_t errlen)
{
	uint64_t free_bytes = workdir_free_bytes(o->dir);
	uint64_t mib = o->size_mib;

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

static bool family_runs(const struct run_plan *p, enum phase_family f)
{
	switch (f) {
	case FAMILY_PERCHAR:
		return p->file_bytes && p->perchar_bytes;
	case FAMILY_BLOCK:
	case FAMILY_SEEK:
		return p->file_bytes != 0;
	case FAMILY_TREE:
		return p->tree_shape != NULL;
	default:
		return p->files != 0;
	}
}

/* --tree: the shape, scale and seed; the batch depth of the uring backend. */
static int plan_tree(struct run_plan *p, const struct clyde_options *o, char *err, size_t errlen)
{
	if (!o->tree)
		return 0;
	if (tree_parse_spec(o->tree, &p->tree_shape, &p->tree_scale, err, errlen))
		return CLYDE_EXIT_USAGE;
	p->tree_seed = o->tree_seed;
	p->tree_depth = p->engine != &engine_uring ? 1 : o->iodepth_given ? p->depth : TREE_URING_DEPTH;
	return 0;
}

int plan_build(struct run_plan *p, const struct clyde_options *o, char *err, size_t errlen)
{
	int ret;

	memset(p, 0, sizeof(*p));
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
	p->sync = o->sync;
	p->quiet = o->quiet;
	ret = plan_tree(p, o, err, errlen);
	if (ret)
		return ret;
	for (int i = 0; i < PH_COUNT; i++) {
		const struct phase_def *d = phase_get((enum phase_id)i);

		p->run[i] = family_runs(p, d->family);
		/*
		 * bonnie++'s rule where the user fixed the amount of work as in
		 * bonnie++: the seek count, -n, or -s for the I/O phases.
		 */
		if (d->family == FAMILY_SEEK)
			p->plus_when_short[i] = o->seeks_given;
		else if (d->family == FAMILY_FILE)
			p->plus_when_short[i] = o->files_given;
		else if (d->family == FAMILY_TREE)
			p->plus_when_short[i] = false;	/* clyde's own table: always a figure */
		else
			p->plus_when_short[i] = o->size_given;
	}
	return 0;
}

/* Seconds of the I/O phases of one run at the calibrated speeds. */
static double io_seconds(const struct run_plan *p, const struct calibration *c, uint64_t bytes)
{
	double w = c->write_bps > 0 ? c->write_bps : 1e9;
	double r = c->read_bps > 0 ? c->read_bps : 1e9;
	double per = (double)p->workers;
	double s;

	if (!bytes)
		return 0;
	/* block write, rewrite (a read and a write), block read, seeks */
	s = IO_SUSTAINED_COST * per * bytes * (2 / w + 2 / r) +
	    (p->seeks_timed ? p->seek_seconds : 1.0);
	if (p->perchar_bytes)
		s += per * 2.0 * (double)p->perchar_bytes * c->syscall_s;
	return s;
}

static double file_unit_seconds(const struct run_plan *p, const struct calibration *c)
{
	return (double)p->workers * FILES_UNIT *
	       ((1 + RANDOM_CREATE_COST) * c->create_s + 2 * c->stat_s + 2 * c->delete_s);
}

double plan_estimate(const struct run_plan *p, const struct calibration *c, unsigned runs)
{
	double s = io_seconds(p, c, p->file_bytes);

	if (p->files)
		s += p->files * file_unit_seconds(p, c) + 4 * c->sync_s;
	return s * runs;
}

static uint32_t files_for_budget(const struct run_plan *p, const struct calibration *c,
				 double budget, char *note, size_t len)
{
	double fastest = c->create_s, unit = file_unit_seconds(p, c);
	uint64_t inodes = workdir_free_inodes(p->dir);
	double need, fit;
	uint32_t n;

	if (c->stat_s < fastest)
		fastest = c->stat_s;
	if (c->delete_s < fastest)
		fastest = c->delete_s;
	if (fastest <= 0 || unit <= 0)
		return DEFAULT_FILES;
	need = ceil(FILE_PHASE_SECONDS * FILE_MARGIN / (fastest * FILES_UNIT));
	fit = floor(budget / unit);
	n = (uint32_t)(need < fit ? need : fit);
	if (n < 1)
		n = 1;
	if (n > MAX_FILES)
		n = MAX_FILES;
	/* Leave half the free inodes alone. */
	if (inodes != UINT64_MAX && (uint64_t)n * FILES_UNIT * p->workers > inodes / 2)
		n = (uint32_t)(inodes / 2 / FILES_UNIT / p->workers);
	snprintf(note, len, "%" PRIu32 " x 1024 files calibrated (a file took %.1f us to create; "
		 "%.1f us to stat; %.1f us to delete%s)", n, c->create_s * 1e6, c->stat_s * 1e6,
		 c->delete_s * 1e6, need > fit ? "; the time budget cuts the fastest phases short" : "");
	return n;
}

int plan_calibrate(struct run_plan *p, const struct clyde_options *o, const struct calibration *c)
{
	double budget = DEFAULT_RUN_BUDGET, io;

	if (!o->size_given && p->file_bytes) {
		uint64_t mib = p->file_bytes >> 20, was = mib;

		while (mib > MIN_BUDGET_SIZE_MIB &&
		       io_seconds(p, c, mib << 20) > budget * IO_BUDGET_SHARE)
			mib /= 2;
		if (mib < was) {
			p->file_bytes = mib << 20;
			if (p->perchar_bytes > p->file_bytes)
				p->perchar_bytes = p->file_bytes;
			snprintf(p->size_note, sizeof(p->size_note),
				 "file size cut from %" PRIu64 " to %" PRIu64 " MiB to keep a default run "
				 "near a minute (give -s to choose)", was, mib);
		}
	}
	io = io_seconds(p, c, p->file_bytes);
	if (!o->files_given && p->files) {
		p->files = files_for_budget(p, c, (budget - io) * FILE_BUDGET_SHARE - 4 * c->sync_s,
					    p->files_note, sizeof(p->files_note));
		p->files_calibrated = true;
		for (int i = PH_SEQ_CREATE; i < PH_BONNIE_COUNT; i++)
			p->run[i] = p->files != 0;
	}
	return 0;
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
		fprintf(out, "seeks: at least %" PRIu32 " and about %.1f s by %" PRIu32
			" seekers; %u%% write back\n", p->seeks, p->seek_seconds, p->seekers,
			p->seek_updates);
	else
		fprintf(out, "seeks: %" PRIu32 " by %" PRIu32 " seekers; %u%% write back\n",
			p->seeks, p->seekers, p->seek_updates);
	fprintf(out, "files: %" PRIu32 " x 1024 of %" PRId64 "..%" PRId64 " bytes in %" PRIu32
		" directories%s%s\n", p->files, p->file_min, p->file_max, p->file_dirs,
		p->files_note[0] ? "; " : "", p->files_note);
	if (p->tree_shape)
		fprintf(out, "tree: %s at scale %g seed %" PRIu64 "; %s %u at a time; not in the estimate\n",
			p->tree_shape->name, p->tree_scale, p->tree_seed,
			p->engine == &engine_uring ? "io_uring" : "system calls", p->tree_depth);
	fputs("phases:", out);
	for (int i = 0; i < PH_COUNT; i++)
		if (p->run[i])
			fprintf(out, " %s", phase_csv_name((enum phase_id)i));
	fputc('\n', out);
	fprintf(out, "runs: %" PRIu32 "%s\n", o->repeats, o->warmup ? " after a warm-up run" : "");
	fprintf(out, "estimate: %.0f s\n", p->estimate_seconds);
}
