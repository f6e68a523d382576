/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef CLYDE_PLAN_H
#define CLYDE_PLAN_H

#include <stdbool.h>
#include <stdint.h>

#include "core/capacity.h"
#include "core/clyde.h"
#include "core/modes.h"
#include "lib/steady.h"
#include "tree/tree.h"

struct engine_ops;

/*
 * What a run will do, computed once from the options, the directory and
 * the calibration: the phases and formatters read this, never the raw
 * options, and --plan prints it.
 */
struct run_plan {
	const char *dir;
	unsigned workers;		/* -c */

	const struct engine_ops *engine;
	unsigned depth;
	char engine_desc[256];

	/* The big file of the I/O phases; 0 bytes skips them. */
	uint64_t file_bytes;
	uint64_t perchar_bytes;		/* 0 skips the per-char phases */
	uint32_t chunk;
	enum perchar_mode perchar;
	bool direct;
	bool fsync_each;		/* -b */
	enum cache_mode cache;
	enum data_mode data;
	unsigned data_zero_pct;
	bool verify;

	/* Seeks: a fixed count (-s's seek field), or timed when none is given. */
	uint32_t seeks;			/* the count, or the least done when timed */
	bool seeks_timed;		/* go on until seek_seconds have passed */
	double seek_seconds;
	uint32_t seekers;
	unsigned seek_updates;		/* percent */

	/* File tests: -n's count, or calibrated when none is given. */
	uint32_t files;			/* units of 1024; 0 skips them */
	bool files_calibrated;
	int64_t file_max;
	int64_t file_min;
	uint32_t file_dirs;
	uint32_t file_chunk;

	/* --tree: the shape (NULL: no tree phases), its scale and its own seed */
	const struct tree_shape *tree_shape;
	double tree_scale;
	uint64_t tree_seed;
	unsigned tree_depth;		/* operations in flight: 1 (psync), --iodepth or 32 (uring) */

	double stonewall_s;		/* --stonewall; 0 off */
	int read_other;			/* --mpi-read-other; 0 off */

	/*
	 * A default run's time boxes: an I/O phase whose size clyde chose
	 * stops at this many seconds as --stonewall does (0: no box).
	 */
	double phase_box_s[PH_COUNT];
	/* Without -n: each stat phase stats every file again until it has lasted this long. */
	double stat_min_s;

	/* The free space of the directory, read once by plan_build (the unit tests set it). */
	uint64_t free_bytes;
	uint64_t free_inodes;		/* UINT64_MAX: the file system does not say */
	/* A file system that reports no size: free_bytes is the memory it may fill; "" else. */
	char space_note[192];

	bool run[PH_COUNT];
	/* bonnie++'s +++++ for a phase under 0.5 s: only where the user set the count. */
	bool plus_when_short[PH_COUNT];

	enum sync_mode sync;
	bool quiet;
	/* The series' interval: 0 adaptive, -1 off (--interval=off), else fixed, ns. */
	int64_t series_ns;
	enum live_mode live;	/* --live */
	/*
	 * --steady (.on false without): the phases it applies to (the
	 * registry's steady flag) go on until they settle, at most max_s,
	 * without a time box; the block write may grow each file up to
	 * steady_file_bytes, which plan_space_bytes counts.
	 */
	struct steady_spec steady;
	uint64_t steady_file_bytes;
	/* --latency-target and --open-loop: after the phases capacity_wanted says */
	struct capacity_spec capacity;

	/* Why the sizes are what they are, for the context line and --plan (and space_note). */
	char size_note[384];
	char files_note[192];
	char cal_note[192];		/* what the calibration measured, for --plan */
	char seek_note[256];		/* the seek phase's estimate: from what, for --plan */
	char flush_note[160];		/* a boxed write's flush in the estimate, for --plan */
	double estimate_seconds;	/* the whole invocation, every -x run */
	double estimate_cal_s;		/* the calibration, once */
	double estimate_io_s;		/* of one run: the I/O phases */
	double estimate_files_s;	/* of one run: the file tests */
	double phase_est_s[PH_COUNT];	/* of one run: each phase (0: not estimated) */
};

/*
 * A default run's time boxes (seconds): the I/O phases' cost on the
 * whole file is what a 32 MiB trial cannot know (cold reads, write-back).
 */
#define BOX_PERCHAR_S		3.0
#define BOX_WRITE_S		8.0
#define BOX_REWRITE_S		8.0
#define BOX_READ_S		6.0
/* Without -n: each create phase (its trial cannot see the file system's state then). */
#define BOX_CREATE_S		3.0

/*
 * What the phases ask of a plan (core/plan.c). The functions that build
 * one from the options and the calibration are clyde's (clyde/plan.h).
 */

/* Whether --steady runs the phase until it settles. */
bool plan_steady(const struct run_plan *p, enum phase_id id);
/*
 * The seconds a phase stops at: its time box or --stonewall (the
 * sequential I/O phases), the smaller; 0 when it has none (a --steady
 * phase: its MAX stops it).
 */
double plan_phase_limit(const struct run_plan *p, enum phase_id id);

#endif
