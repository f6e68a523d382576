// SPDX-License-Identifier: BSD-2-Clause
/*
 * The phase registry: bonnie++'s twelve phases in its order, then the
 * five --tree phases (PH_COUNT in all, one row each).
 */
#include "config.h"

#include "core/phase.h"
#include "phases/bench.h"

static const struct phase_def phases[PH_COUNT] = {
	[PH_PUTC] = {
		.id = PH_PUTC, .name = "per-char write", .csv_name = "putc",
		.row_name = "Per-char write", .progress = "Writing a byte at a time",
		.unit = UNIT_KIB, .family = FAMILY_PERCHAR, .fn = phase_putc,
		.io_file = true,
		.data_write = true,
	},
	[PH_PUT_BLOCK] = {
		.id = PH_PUT_BLOCK, .name = "block write", .csv_name = "put_block",
		.row_name = "Block write", .progress = "Writing intelligently",
		.unit = UNIT_KIB, .family = FAMILY_BLOCK, .fn = phase_put_block,
		.io_file = true,
		.data_write = true,
	},
	[PH_REWRITE] = {
		.id = PH_REWRITE, .name = "rewrite", .csv_name = "rewrite",
		.row_name = "Rewrite", .progress = "Rewriting",
		.unit = UNIT_KIB, .family = FAMILY_BLOCK, .fn = phase_rewrite,
		.reads_file = true, .io_file = true,
		.data_read = true, .data_write = true,
	},
	[PH_GETC] = {
		.id = PH_GETC, .name = "per-char read", .csv_name = "getc",
		.row_name = "Per-char read", .progress = "Reading a byte at a time",
		.unit = UNIT_KIB, .family = FAMILY_PERCHAR, .fn = phase_getc,
		.reads_file = true, .io_file = true,
		.data_read = true,
	},
	[PH_GET_BLOCK] = {
		.id = PH_GET_BLOCK, .name = "block read", .csv_name = "get_block",
		.row_name = "Block read", .progress = "Reading intelligently",
		.unit = UNIT_KIB, .family = FAMILY_BLOCK, .fn = phase_get_block,
		.reads_file = true, .io_file = true,
		.data_read = true,
	},
	[PH_SEEKS] = {
		.id = PH_SEEKS, .name = "random seeks", .csv_name = "seeks",
		.row_name = "Random seeks", .progress = "Random seeks",
		.unit = UNIT_SEEK, .family = FAMILY_SEEK, .fn = phase_seeks,
		.reads_file = true, .io_file = true,
	},
	[PH_SEQ_CREATE] = {
		.id = PH_SEQ_CREATE, .name = "sequential create", .csv_name = "seq_create",
		.row_name = "Seq create", .progress = "Create files in sequential order",
		.unit = UNIT_FILE, .family = FAMILY_FILE, .fn = phase_seq_create,
		.cleanup = phase_file_cleanup,
	},
	[PH_SEQ_STAT] = {
		.id = PH_SEQ_STAT, .name = "sequential stat", .csv_name = "seq_stat",
		.row_name = "Seq stat/read", .progress = "Stat files in sequential order",
		.unit = UNIT_FILE, .family = FAMILY_FILE, .fn = phase_seq_stat,
		.cleanup = phase_file_cleanup,
	},
	[PH_SEQ_DEL] = {
		.id = PH_SEQ_DEL, .name = "sequential delete", .csv_name = "seq_del",
		.row_name = "Seq delete", .progress = "Delete files in sequential order",
		.unit = UNIT_FILE, .family = FAMILY_FILE, .fn = phase_seq_del,
		.cleanup = phase_file_cleanup,
	},
	[PH_RAN_CREATE] = {
		.id = PH_RAN_CREATE, .name = "random create", .csv_name = "ran_create",
		.row_name = "Random create", .progress = "Create files in random order",
		.unit = UNIT_FILE, .family = FAMILY_FILE, .fn = phase_ran_create,
		.cleanup = phase_file_cleanup,
	},
	[PH_RAN_STAT] = {
		.id = PH_RAN_STAT, .name = "random stat", .csv_name = "ran_stat",
		.row_name = "Random stat/read", .progress = "Stat files in random order",
		.unit = UNIT_FILE, .family = FAMILY_FILE, .fn = phase_ran_stat,
		.cleanup = phase_file_cleanup,
	},
	[PH_RAN_DEL] = {
		.id = PH_RAN_DEL, .name = "random delete", .csv_name = "ran_del",
		.row_name = "Random delete", .progress = "Delete files in random order",
		.unit = UNIT_FILE, .family = FAMILY_FILE, .fn = phase_ran_del,
		.cleanup = phase_file_cleanup,
	},
	[PH_TREE_EXTRACT] = {
		.id = PH_TREE_EXTRACT, .name = "tree extract", .csv_name = "tree_extract",
		.row_name = "Tree extract", .progress = "Extracting the tree",
		.unit = UNIT_FILE, .family = FAMILY_TREE, .fn = phase_tree_extract,
		.tree_data = true,
		.data_write = true,
		.cleanup = phase_tree_cleanup,
	},
	[PH_TREE_COPY] = {
		.id = PH_TREE_COPY, .name = "tree copy", .csv_name = "tree_copy",
		.row_name = "Tree copy", .progress = "Copying the tree",
		.unit = UNIT_FILE, .family = FAMILY_TREE, .fn = phase_tree_copy,
		.reads_tree = true, .tree_data = true,
		.data_read = true, .data_write = true,
		.cleanup = phase_tree_cleanup,
	},
	[PH_TREE_WALK] = {
		.id = PH_TREE_WALK, .name = "tree walk", .csv_name = "tree_walk",
		.row_name = "Tree walk", .progress = "Walking the tree",
		.unit = UNIT_FILE, .family = FAMILY_TREE, .fn = phase_tree_walk,
		.cleanup = phase_tree_cleanup,
	},
	[PH_TREE_READ] = {
		.id = PH_TREE_READ, .name = "tree read", .csv_name = "tree_read",
		.row_name = "Tree read", .progress = "Reading the tree",
		.unit = UNIT_FILE, .family = FAMILY_TREE, .fn = phase_tree_read,
		.reads_tree = true, .tree_data = true,
		.data_read = true,
		.cleanup = phase_tree_cleanup,
	},
	[PH_TREE_DELETE] = {
		.id = PH_TREE_DELETE, .name = "tree delete", .csv_name = "tree_delete",
		.row_name = "Tree delete", .progress = "Deleting the trees",
		.unit = UNIT_FILE, .family = FAMILY_TREE, .fn = phase_tree_delete,
		.cleanup = phase_tree_cleanup,
	},
};

static const struct unit_names unit_names[] = {
	[UNIT_KIB] = { "KiB", "KiB/s", "MiB", 1024.0 },
	[UNIT_SEEK] = { "seeks", "seeks/s", "1000 seeks", 1000.0 },
	[UNIT_FILE] = { "files", "files/s", "1000 files", 1000.0 },
};

const struct unit_names *phase_unit_names(enum phase_id id)
{
	return &unit_names[phase_get(id)->unit];
}

const struct phase_def *phase_get(enum phase_id id)
{
	return &phases[id < PH_COUNT ? id : 0];
}

const char *phase_name(enum phase_id id)
{
	return id < PH_COUNT ? phases[id].name : "?";
}

const char *phase_csv_name(enum phase_id id)
{
	return id < PH_COUNT ? phases[id].csv_name : "?";
}
