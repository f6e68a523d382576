/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef CLYDE_PHASE_H
#define CLYDE_PHASE_H

#include <stdbool.h>
#include <stdint.h>

#include "core/clyde.h"

struct run_plan;

/* What a phase's amount counts, and so its rate's unit. */
enum phase_unit {
	UNIT_KIB,	/* KiB/s */
	UNIT_SEEK,	/* seeks/s */
	UNIT_FILE,	/* files/s */
};

/* Phases that share options, state and bonnie++'s +++++ rule. */
enum phase_family {
	FAMILY_PERCHAR,
	FAMILY_BLOCK,
	FAMILY_SEEK,
	FAMILY_FILE,
	FAMILY_TREE,	/* --tree: clyde's own, never in bonnie++'s CSV */
	FAMILY_NONE,	/* PH_TEST's until a test program fills it: no work, never runs */
	FAMILY_COUNT,
};

/*
 * What a phase is, the kind column of core/phase_list.h: where each output
 * puts it, asked of the row and never of where its id falls.
 */
enum phase_kind {
	KIND_BONNIE,	/* bonnie++'s twelve: its slot in the CSV and table; always in the JSON */
	KIND_OWN,	/* clyde's own: the JSON, the summaries and its own table, when it ran */
	KIND_TREE,	/* --tree's: the tree table; in the JSON of a run with --tree */
	KIND_NONE,	/* PH_TEST before a test program fills it: never run, never read */
};

/*
 * bonnie++'s CSV and table, the slot column: each of its twelve phases'
 * fixed place, whatever rows come after them. The CSV's rate and CPU of
 * slot s are fields 9 + 2s (the I/O six) or 26 + 2(s - 6) (the file
 * tests), its latency field 38 + s; the table's cell s in the I/O row or,
 * from SLOT_FIRST_FILE, the file tests' row.
 */
enum csv_slot {
	SLOT_NONE = -1,	/* not bonnie++'s: in neither */
	SLOT_PUTC,
	SLOT_PUT_BLOCK,
	SLOT_REWRITE,
	SLOT_GETC,
	SLOT_GET_BLOCK,
	SLOT_SEEKS,
	SLOT_SEQ_CREATE,
	SLOT_SEQ_STAT,
	SLOT_SEQ_DEL,
	SLOT_RAN_CREATE,
	SLOT_RAN_STAT,
	SLOT_RAN_DEL,
	SLOT_COUNT,
};

#define SLOT_FIRST_FILE SLOT_SEQ_CREATE

/* A phase's flags, the flags column of core/phase_list.h. */
enum phase_flag {
	PF_READS_FILE = 1 << 0,	/* reads the big file: its residency is measured first */
	PF_IO_FILE = 1 << 1,	/* touches the big file: its cache is dropped after */
	PF_READS_TREE = 1 << 2,	/* reads the tree's files: their residency is measured first */
	PF_TREE_DATA = 1 << 3,	/* wrote or read the trees' files: their cache is dropped after */
	/* Its amount is data read or written: --profile's amplification divides by it. */
	PF_DATA_READ = 1 << 4,
	PF_DATA_WRITE = 1 << 5,
	PF_READS_OTHER_RANK = 1 << 6,	/* --mpi-read-other: reads the file another rank wrote */
	PF_STONEWALL = 1 << 7,	/* --stonewall cuts it (IOR's rule: the sequential transfers) */
	/*
	 * Cut at its limit, it leaves the phases after it less (a shorter
	 * file, fewer files): the table's and the CSV's size or file count,
	 * its family's amount, then say what it made.
	 */
	PF_CUT_SETS_AMOUNT = 1 << 8,
	PF_STEADY = 1 << 9,	/* --steady may run it until it settles */
	/* It lays the big file out on the device: its extents are measured after it (issue 44). */
	PF_LAYS_OUT_FILE = 1 << 10,
};

/*
 * How the plan estimates a phase's seconds from the calibration: one
 * case each in plan.c, so a new phase that costs what another does takes
 * its model and needs nothing there. The cost column of core/phase_list.h.
 */
enum phase_cost {
	COST_NONE,		/* not in the estimate (--tree's phases) */
	/* the I/O phases, on the big file */
	COST_PERCHAR_WRITE,	/* a system call per byte */
	COST_PERCHAR_READ,	/* a system call per byte, and the file read under them */
	COST_BLOCK_WRITE,	/* the file written; cut at its limit, a shorter file for the rest */
	COST_REWRITE,		/* each chunk read and written again */
	COST_BLOCK_READ,	/* the file read */
	COST_SEEKS,		/* timed (about a second) or a count */
	/* the file tests */
	COST_CREATE,		/* a create per file, in name order */
	COST_RANDOM_CREATE,	/* in random order: dearer as a directory grows */
	COST_STAT,		/* every file, pass after pass until the plan's stat_min_s */
	COST_DELETE,		/* a delete per file */
};

/*
 * One row per phase (made from core/phase_list.h), read by every part of
 * clyde: the runner, the plan, the formatters, clyde-report. The phase's
 * function is not here but in phases/ (phase_ops_get), so the programs
 * that only read results link no phase.
 */
struct phase_def {
	enum phase_id id;
	enum phase_kind kind;
	enum csv_slot slot;	/* bonnie++'s twelve: the CSV's and table's place; else SLOT_NONE */
	const char *short_name;	/* within its kind's table: "Block", "Extract" */
	const char *name;	/* in messages: "block write" */
	const char *csv_name;	/* bonnie++'s CSV header name: "put_block" */
	const char *row_name;	/* clyde's extra tables: "Block write" */
	const char *progress;	/* bonnie++'s progress text */
	enum phase_unit unit;
	enum phase_family family;
	unsigned flags;		/* PF_*: what it reads, touches, and the rules it follows */
	enum phase_cost cost;	/* how the plan estimates it */
	/* A default run's time box in seconds when clyde chose the amount; 0: none. */
	double box_s;
};

/* A row of core/phase_list.h as its struct phase_def (the registry's, a test program's). */
#define PHASE_ROW_DEF(ph_id, ph_kind, ph_slot, ph_short, ph_name, ph_csv, ph_row, ph_progress, \
		      ph_unit, ph_family, ph_flags, ph_box, ph_cost, ph_fn, ph_cleanup) \
	{ \
		.id = ph_id, .kind = ph_kind, .slot = ph_slot, .short_name = ph_short, \
		.name = ph_name, .csv_name = ph_csv, .row_name = ph_row, \
		.progress = ph_progress, .unit = ph_unit, .family = ph_family, \
		.flags = (ph_flags), .cost = ph_cost, .box_s = (ph_box), \
	}

const struct phase_def *phase_get(enum phase_id id);

/*
 * Test programs only (C11 has no constructors): def, a row as
 * PHASE_ROW_DEF makes it, becomes PH_TEST's, once. 0, -EINVAL (another
 * id, no kind or family, a slot: bonnie++'s twelve are all there) or
 * -EEXIST (filled already, or a row has its CSV name). phases/bench.h's
 * phase_register gives its function with it.
 */
int phase_def_register(const struct phase_def *def);

/* The phase in bonnie++'s slot: its CSV's and table's reader and writers; PH_COUNT: none. */
enum phase_id phase_in_slot(enum csv_slot slot);

/* What fixes a family's amount of work. */
enum phase_amount {
	AMOUNT_SIZE,	/* -s: the file's size */
	AMOUNT_SEEKS,	/* the seek count */
	AMOUNT_FILES,	/* -n: the file count */
	AMOUNT_OWN,	/* clyde's own (--tree): never bonnie++'s +++++ */
};

/* The fastest the machine could go, a phase's rate's ceiling (--ceilings). */
enum phase_ceiling {
	CEILING_NONE,
	CEILING_SYSCALL,	/* a system call per byte */
	CEILING_COPY,		/* memory copy speed */
};

/* One row per family: what enables it, what it counts, its rules. */
struct family_def {
	/* Whether the plan has work for this family. */
	bool (*runs)(const struct run_plan *p);
	/* Operations one worker times, for the progress line (0: no total known). */
	uint64_t (*ops_per_worker)(const struct run_plan *p);
	/*
	 * Where the user fixed the amount (as in bonnie++) a phase shorter
	 * than MIN_REPORT_SECONDS prints +++++; where clyde chose it, the
	 * phase's time box applies.
	 */
	enum phase_amount amount;
	enum phase_ceiling ceiling;
	bool counts_passes;	/* the JSON says its passes over every file */
	/*
	 * Its phases do only the per-char bytes at the file's start, not the
	 * whole file: a read's residency is measured over those.
	 */
	bool perchar_span;
};

const struct family_def *phase_family(enum phase_id id);

/* A unit's names, for every output that prints one. */
struct unit_names {
	const char *amount;	/* "KiB", "seeks", "files" */
	const char *rate;	/* "KiB/s", "seeks/s", "files/s" */
	const char *cpu_per;	/* the work CPU cost is counted per: "MiB", "1000 seeks" */
	double amount_per_cpu;	/* amounts in one cpu_per: 1024 KiB, 1000 seeks, 1000 files */
};

const struct unit_names *phase_unit_names(enum phase_id id);

#endif
