/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef CLYDE_BENCH_H
#define CLYDE_BENCH_H

#include <limits.h>
#include <stdint.h>

#include "core/phase.h"
#include "core/plan.h"
#include "core/result.h"
#include "engines/engine.h"
#include "lib/histogram.h"
#include "lib/progress.h"
#include "lib/series.h"
#include "lib/timeline.h"
#include "placement/placement.h"
#include "sys/workdir.h"
#include "tree/tree.h"

#ifndef PATH_MAX
#define PATH_MAX 4096
#endif

struct phase_clock;
struct prof_sampler;
struct series_sampler;
struct stonewall;
struct steady_watch;
struct place_plan;

/* One run's settings, shared read-only by every worker. */
struct bench {
	const struct run_plan *plan;
	char workdir[WORKDIR_MAX];
	uint32_t seed;
	unsigned *sync_count;	/* -y s barriers passed, across -x runs */
	uint64_t verify_key;	/* --verify: seed and run, mixed */
	struct phase_clock *clock;	/* the running phase's shared clock */
	struct prof_sampler *profiler;	/* --profile; NULL without */
	const struct place_plan *placement;	/* where each worker runs */
	const struct tree *tree;	/* --tree: the generated tree; NULL without */
	struct stonewall *stonewall;	/* the running phase's --stonewall; NULL without */
	struct series_live *live;	/* --live: one per worker, the running phase's; NULL without */
	struct steady_watch *steady;	/* the running phase's --steady; NULL without */
	struct stall_reader *stall_reader;	/* the run's, started before its phases; NULL: none */
	/* --mpi-read-other: the private directory of the rank whose files the read phases read */
	char read_dir[WORKDIR_MAX];
	/* a loop device's backing file read through the page cache; NULL: none */
	const char *loop_backing;
	/*
	 * --age: the run's fill is read after a sync of the file system
	 * (btrfs's figures lag until a commit); without it, statvfs alone,
	 * so that a plain run makes no sync of its own.
	 */
	bool fill_sync;
	char errmsg[1024];	/* why bench_run failed */
};

struct file_set;
struct tree_state;

/* One copy of the test (-c runs several at once). */
struct worker {
	const struct bench *b;
	unsigned index;
	char io_path[WORKPATH_MAX];
	/* The big file the read phases read: io_path, or another rank's (--mpi-read-other). */
	char read_path[WORKPATH_MAX];
	uint64_t file_bytes;	/* what the big file holds now: --stonewall may cut it short */
	uint32_t files_made;	/* the sequential create's files: the random one makes no more */
	char files_dir[WORKPATH_MAX];
	struct file_set *files;
	/* --tree: the tree and its copy, made by extract and copy */
	char tree_dir[WORKPATH_MAX];
	char copy_dir[WORKPATH_MAX];
	struct tree_state *trees;
	/*
	 * --verify: the version each chunk of the big file should hold now,
	 * kept here and never read back from the data, so a write that was
	 * lost or undone is a mismatch.
	 */
	uint32_t *versions;
	uint64_t nchunks;
};

/* A tree phase's own figures: each kind of operation's latency, the work done. */
struct tree_sample {
	struct histogram op[TOP_KINDS];
	uint64_t via_ring[TOP_KINDS];
	struct histogram list;	/* walk: one directory listed */
	uint64_t files;
	uint64_t dirs;
	uint64_t entries;
	uint64_t bytes;
	char io_desc[256];	/* the backend's setup, as it said */
	unsigned ring_kinds;
};

/* What one worker measured in one phase. */
struct phase_sample {
	uint64_t start_ns;
	uint64_t end_ns;
	uint64_t flush_ns;	/* the fsync or sync that ends the phase */
	double amount;		/* KiB, seeks or files */
	uint64_t count;		/* seeks done (the seek phase) */
	uint32_t passes;	/* stat phases: passes over every file, the most of any worker */
	uint64_t mismatches;	/* --verify: units that differed */
	struct histogram hist;	/* every operation's latency */
	struct timeline done;	/* when they completed */
	/* the time series (NULL: --interval=off); series_lost: one could not be allocated */
	struct series *series;
	bool series_lost;
	struct series_live *live;	/* --live: the worker's running totals; NULL without */
	struct series_sampler *sampler;	/* the phase's machine readings; NULL without */
	/* --profile=stacks: the rings, glanced at every STACKS_POLL_NS; NULL without */
	struct prof_sampler *stacks;
	uint64_t stacks_next_ns;
	int err;		/* 0 or -errno */
	char msg[768];
	/* Where it failed: the file or name, and the offset in it (-1: none). */
	char err_path[WORKPATH_MAX + 256];
	int64_t err_offset;
	/* The shared clock: 0 not started, 1 started, 2 stopped. */
	int clock_state;
	/* This worker's own CPU (its thread, and its seekers') over the timed part. */
	double cpu_s;
	double cpu_mark;
	int cpu_first;		/* the CPU it ran on at the start and the end, -1 unknown */
	int cpu_last;
	/*
	 * Every CPU its threads that do the work were seen on at their start
	 * and end: the worker thread's, or in the seek phase the seekers'.
	 */
	struct place_mask ran_on;
	/* tree phases: their own figures (allocated; NULL elsewhere) */
	struct tree_sample *tree;
};

typedef int (*phase_fn)(struct worker *w, struct phase_sample *s);

/* Record a failure: "<phase>: <what>: <strerror>"; returns err. */
int sample_fail(struct phase_sample *s, enum phase_id id, int err, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* The same, naming where: dir/name (name may be NULL) and an offset in it (-1: none). */
int sample_fail_at(struct phase_sample *s, enum phase_id id, int err, const char *dir,
		   const char *name, int64_t off, const char *fmt, ...)
	__attribute__((format(printf, 7, 8)));

/* Fold one sample into a total: earliest start, latest end, worst latency. */
void sample_merge(struct phase_sample *total, const struct phase_sample *s);
/* Fold a tree phase's own figures into total's (allocated on first use). */
void tree_sample_merge(struct phase_sample *total, const struct tree_sample *t);

/*
 * How often a worker glances at --profile=stacks' rings: a ring holds a
 * half minute or more of samples at the default rate, the tests' small
 * ones (CLYDE_TEST_STACK_RING_BYTES) a fraction of a second.
 */
#define STACKS_POLL_NS	(50 * 1000 * 1000ull)

/* A worker's operation completed at now_ns in a new interval: read the machine if due. */
void series_sampler_tick(struct series_sampler *ss, uint64_t now_ns);

/*
 * One operation took t1 - t0 ns: a chunk, a request, a seek or a file;
 * work is what it did in the phase's smallest unit (bytes for a phase
 * counted in KiB, else seeks or files), so that the series' work adds up
 * to the phase's amount exactly.
 */
static inline void sample_latency(struct phase_sample *s, uint64_t t0, uint64_t t1, uint64_t work)
{
	hist_record(&s->hist, t1 - t0);
	timeline_record(&s->done, s->start_ns, t1);
	if (s->series) {
		/* the first completion of an interval: the machine's reading is due */
		if (t1 - s->series->hot_start >= s->series->width_ns && s->sampler)
			series_sampler_tick(s->sampler, t1);
		series_record(s->series, t1, t1 - t0, work);
	}
	if (s->live)
		series_live_record(s->live, t1 - t0, work);
	if (s->stacks && t1 >= s->stacks_next_ns) {
		s->stacks_next_ns = t1 + STACKS_POLL_NS;
		prof_stacks_poll(s->stacks);
	}
	progress_tick();
}

/* Work done apart from the operations timed (a tree's files): in the last one's interval. */
static inline void sample_work(struct phase_sample *s, uint64_t work)
{
	if (s->series)
		series_add_work(s->series, work);
	if (s->live)
		atomic_fetch_add_explicit(&s->live->work, work, memory_order_relaxed);
}

/*
 * A thread that records operations in a sample of its own (a seeker):
 * its series from the phase's start, origin_ns, as --interval says.
 */
void sample_series_begin(struct phase_sample *s, const struct run_plan *p, uint64_t origin_ns);

/* --verify found bad data at off in path: counted, and named the first times. */
void verify_mismatch(struct phase_sample *s, enum phase_id id, const char *path, uint64_t off);
/* --verify: a file's size is not what was written: counted and named the same way. */
void verify_size_mismatch(struct phase_sample *s, enum phase_id id, const char *path,
			  uint64_t size, uint64_t expected);

/* Test-only pause point (CLYDE_TEST_PAUSE=<phase csv name>), see clyde(1). */
void test_pause_point(enum phase_id id);
/*
 * The same before a phase starts, after the cache drop and before the
 * ranks' start meeting and the residency measurement
 * (CLYDE_TEST_PAUSE=before-<phase csv name>).
 */
void test_pause_before(enum phase_id id);
/* "after-NAME": the phase's window closed, before its stacks are read (tests) */
void test_pause_after(enum phase_id id);

/*
 * The timed part of a phase starts when every worker has prepared
 * (opened its file, made its buffers and directories) and called
 * sample_start; the CPU of the process is sampled then and when the last
 * worker calls sample_stop, so CPU and rate cover the same interval.
 * A worker that fails before starting still calls sample_start or
 * leaves it to the runner, which settles every sample after the phase.
 */
void sample_start(struct worker *w, struct phase_sample *s);
void sample_stop(struct worker *w, struct phase_sample *s);

/*
 * Each phase's function and its family's cleanup, declared from the list
 * (core/phase_list.h) that also fills the ops table (phase_ops.c).
 */
#define PHASE_DECLARE(id, kind, slot, short_name, name, csv, row, progress, unit, family, flags, \
		      box, cost, fn, cleanup) \
	int fn(struct worker *w, struct phase_sample *s); \
	void cleanup(struct worker *w);
PHASE_LIST(PHASE_DECLARE)
#undef PHASE_DECLARE

/* What runs a phase: the registry's row (core/phase.h) says the rest. */
struct phase_ops {
	int (*fn)(struct worker *w, struct phase_sample *s);
	/* Frees the family's per-worker state after the last run. */
	void (*cleanup)(struct worker *w);
};

/* A row of core/phase_list.h as its struct phase_ops (the ops table's, a test program's). */
#define PHASE_ROW_OPS(id, kind, slot, short_name, name, csv, row, progress, unit, family, flags, \
		      box, cost, ph_fn, ph_cleanup) \
	{ .fn = ph_fn, .cleanup = ph_cleanup }

const struct phase_ops *phase_ops_get(enum phase_id id);

/*
 * Test programs only: a phase of the test's own, its row as
 * PHASE_ROW_DEF and PHASE_ROW_OPS make it from one PHASE(PH_TEST, ...)
 * row, run by clyde's runner and read by every output as a row of
 * core/phase_list.h is (tests/unit/unit_phase_recipe.c). 0, or
 * phase_def_register's -EINVAL or -EEXIST; -EINVAL without fn or cleanup.
 */
int phase_register(const struct phase_def *def, const struct phase_ops *ops);

/* How many bytes the per-char read will read: the first ones of w->read_path. */
uint64_t perchar_read_bytes(const struct worker *w);
/* Evict a worker's tree (and copy) from the page cache; err names the file that failed. */
int tree_evict(const struct worker *w, char *err, size_t errlen);
/* Its tree's resident and total bytes; method and why as residency.h says them. */
int tree_residency(const struct worker *w, uint64_t *resident, uint64_t *total,
		   char *method, size_t len, char *why, size_t whylen);

/* Flags for opening the I/O file in the block and seek phases. */
int io_open_flags(const struct bench *b, int access);

#endif
