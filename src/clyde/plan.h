/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef CLYDE_CLYDE_PLAN_H
#define CLYDE_CLYDE_PLAN_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "core/plan.h"

struct clyde_options;

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

/* Estimate of the time the plan takes, from a calibration. */
double plan_estimate(const struct run_plan *p, const struct calibration *c, unsigned runs);

/* --plan: what would run, one line per item, no commas. */
void plan_print(FILE *out, const struct run_plan *p, const struct clyde_options *o);

#endif
