/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef CLYDE_PHASE_H
#define CLYDE_PHASE_H

#include <stdbool.h>

#include "core/clyde.h"

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
};

struct worker;
struct phase_sample;

/*
 * One row per phase, read by every part of clyde: the runner, the plan,
 * the formatters. Adding a phase adds a row here and its function.
 */
struct phase_def {
	enum phase_id id;
	const char *name;	/* in messages: "block write" */
	const char *csv_name;	/* bonnie++'s CSV header name: "put_block" */
	const char *row_name;	/* clyde's extra tables: "Block write" */
	const char *progress;	/* bonnie++'s progress text */
	enum phase_unit unit;
	enum phase_family family;
	int (*fn)(struct worker *w, struct phase_sample *s);
	bool reads_file;	/* reads the big file: its residency is measured first */
	bool io_file;		/* touches the big file: its cache is dropped after */
	bool reads_tree;	/* reads the tree's files: their residency is measured first */
	bool tree_data;		/* wrote or read the trees' files: their cache is dropped after */
	/* Its amount is data read or written: --profile's amplification divides by it. */
	bool data_read;
	bool data_write;
	/* Frees the family's per-worker state after the last run; may be NULL. */
	void (*cleanup)(struct worker *w);
};

const struct phase_def *phase_get(enum phase_id id);

/* A unit's names, for every output that prints one. */
struct unit_names {
	const char *amount;	/* "KiB", "seeks", "files" */
	const char *rate;	/* "KiB/s", "seeks/s", "files/s" */
	const char *cpu_per;	/* the work CPU cost is counted per: "MiB", "1000 seeks" */
	double amount_per_cpu;	/* amounts in one cpu_per: 1024 KiB, 1000 seeks, 1000 files */
};

const struct unit_names *phase_unit_names(enum phase_id id);

#endif
