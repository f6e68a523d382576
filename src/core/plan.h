/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef CLYDE_PLAN_H
#define CLYDE_PLAN_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "core/clyde.h"
#include "core/modes.h"
#include "lib/steady.h"
#include "tree/tree.h"

struct clyde_options;
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

/* Measured by the calibration; zeros where it did not run. */
struct calibration {
	double create_s;	/* seconds per file: create, stat, delete (with its sync) */
	double stat_s;
	double delete_s;
	double sync_s;		/* the sync that closes a create or delete phase */
	unsigned sync_files;	/* the files that sync wrote out (0: not known: sync_s per phase) */
	double write_bps;	/* block write with fsync, bytes per second */
	double flush_bps;	/* its fsync alone: what the page cache held, written (0: not known) */
	double read_bps;	/* block read after a drop */
	double syscall_s;	/* a 1-byte write */
	/*
	 * Random chunk reads on data shown uncached, seek_threads at once:
	 * seconds per read (wall time over the reads; 0 not measured, then
	 * seek_note says why); chunks written back and synced: seconds per
	 * chunk, and the sync's own.
	 */
	double seek_s;
	double seek_write_s;
	double seek_sync_s;
	unsigned seeks_timed;
	unsigned seek_threads;
	double seek_resident_pct;	/* of the trial file, after the drop */
	char seek_note[160];
	/* What a write stopped early may leave to flush (sys/dirty.h); 0 not known. */
	uint64_t dirty_limit_bytes;
	double seconds;		/* the calibration took */
	/* The create trial: batches timed, their spread, whether it measured again. */
	unsigned create_batches;
	double create_spread;	/* slowest quarter over fastest quarter of the batches */
	bool remeasured;
};

/* The estimate's model (plan.c), here for the unit tests that check it. */
/*
 * A 32 MiB trial runs faster than gigabytes sustained (on this project's
 * VM the 4 GiB phases took 1.5 times the trial's estimate).
 */
#define IO_SUSTAINED_COST	1.5
/*
 * The block write more so: its 32 MiB trial wrote and synced at 1.3 GB/s
 * where the run's block write of 2 GiB went at 230 to 250 MB/s (same VM,
 * same hour), a cost the trial cannot see; its time box caps the error.
 */
#define WRITE_SUSTAINED_COST	4.0
/*
 * And the block read: 4 GiB read cold at 0.7 to 1.7 GB/s where the
 * 32 MiB trial read at several GB/s (what the host still held).
 */
#define READ_SUSTAINED_COST	2.5
/*
 * The calibration creates a few thousand files in name order; creating a
 * large directory in random name order costs more per file (ext4 on this
 * project's VM: a tenth of the sequential rate at 200k to 330k entries),
 * so the budget counts the random create at this multiple.
 */
#define RANDOM_CREATE_COST	12.0
#define RANDOM_CREATE_AT	200000.0
/*
 * What a phase costs beyond its work (the residency check, the drop
 * after it, the workers' start), what a run costs beyond its phases
 * (its directory made and removed), and the sync of a write cut at its
 * time box: as measured on this project's VM, rounded up.
 */
#define PHASE_OVERHEAD_S	0.1
#define RUN_OVERHEAD_S		0.3
#define BOX_FLUSH_S		0.75

/* Defaults of the timed and calibrated counts. */
#define SEEK_SECONDS		1.0	/* a default seek phase lasts about this */
#define DEFAULT_RUN_BUDGET	55.0	/* seconds for a default run */
/* The file tests' least share when the I/O phases take the whole budget. */
#define FILE_MIN_BUDGET		8.0
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
 * Fill *p from the options and the engine chosen; sizes from the free
 * space. Returns 0, or a CLYDE_EXIT_* status with the reason in err.
 */
int plan_build(struct run_plan *p, const struct clyde_options *o, char *err, size_t errlen);

/*
 * plan_build with the free space given (free_inodes UINT64_MAX: unknown)
 * rather than read from the directory: the unit tests' seam.
 */
int plan_build_space(struct run_plan *p, const struct clyde_options *o, uint64_t free_bytes,
		     uint64_t free_inodes, char *err, size_t errlen);

/* The space a run of the plan needs in -d: every worker's file and its file tests' files. */
uint64_t plan_space_bytes(const struct run_plan *p);

/*
 * Calibrated counts: the file count when -n was not given, and the file
 * size when -s was not given and the budget needs it. 0 or -errno.
 */
int plan_calibrate(struct run_plan *p, const struct clyde_options *o, const struct calibration *c);

/* Whether --steady runs the phase until it settles. */
bool plan_steady(const struct run_plan *p, enum phase_id id);
/*
 * The seconds a phase stops at: its time box or --stonewall (the
 * sequential I/O phases), the smaller; 0 when it has none (a --steady
 * phase: its MAX stops it).
 */
double plan_phase_limit(const struct run_plan *p, enum phase_id id);

/* Estimate of the time the plan takes, from a calibration. */
double plan_estimate(const struct run_plan *p, const struct calibration *c, unsigned runs);

/* --plan: what would run, one line per item, no commas. */
void plan_print(FILE *out, const struct run_plan *p, const struct clyde_options *o);

#endif
