// SPDX-License-Identifier: BSD-2-Clause
/*
 * The phase registry: the rows of core/phase_list.h (bonnie++'s twelve
 * phases in its order, then the five --tree phases) and PH_TEST's, a test
 * program's (phase_def_register), without their functions, which
 * phases/phase_ops.c holds; and one row per family.
 */
#include "config.h"

#include <errno.h>
#include <string.h>

#include "core/phase.h"
#include "core/plan.h"

#define PHASE_DEF(id, ...) [id] = PHASE_ROW_DEF(id, __VA_ARGS__),

static const struct phase_def phases[PH_TEST] = {
	PHASE_LIST(PHASE_DEF)
};

/* Empty in clyde: no output lists a phase that never ran, no reader takes its name. */
static struct phase_def test_phase = {
	.id = PH_TEST, .kind = KIND_NONE, .slot = SLOT_NONE, .short_name = "-", .name = "-",
	.csv_name = "-", .row_name = "-", .progress = "", .unit = UNIT_KIB,
	.family = FAMILY_NONE, .cost = COST_NONE,
};

#undef PHASE_DEF

static bool perchar_runs(const struct run_plan *p)
{
	return p->file_bytes && p->perchar_bytes;
}

static bool file_io_runs(const struct run_plan *p)
{
	return p->file_bytes != 0;
}

static bool files_run(const struct run_plan *p)
{
	return p->files != 0;
}

static bool tree_runs(const struct run_plan *p)
{
	return p->tree_shape != NULL;
}

static uint64_t perchar_ops(const struct run_plan *p)
{
	return (p->perchar_bytes + p->chunk - 1) / p->chunk;
}

static uint64_t block_ops(const struct run_plan *p)
{
	return p->file_bytes / p->chunk;
}

static uint64_t seek_ops(const struct run_plan *p)
{
	return p->seeks_timed ? 0 : p->seeks;
}

static uint64_t file_ops(const struct run_plan *p)
{
	return (uint64_t)p->files * FILES_UNIT;
}

/* operations per file vary: no total to show (and an empty row has none) */
static uint64_t no_ops(const struct run_plan *p)
{
	(void)p;
	return 0;
}

static bool never_runs(const struct run_plan *p)
{
	(void)p;
	return false;
}

static const struct family_def families[FAMILY_COUNT] = {
	[FAMILY_PERCHAR] = {
		.runs = perchar_runs, .ops_per_worker = perchar_ops,
		.amount = AMOUNT_SIZE, .ceiling = CEILING_SYSCALL, .perchar_span = true,
	},
	[FAMILY_BLOCK] = {
		.runs = file_io_runs, .ops_per_worker = block_ops,
		.amount = AMOUNT_SIZE, .ceiling = CEILING_COPY,
	},
	[FAMILY_SEEK] = {
		.runs = file_io_runs, .ops_per_worker = seek_ops,
		.amount = AMOUNT_SEEKS,
	},
	[FAMILY_FILE] = {
		.runs = files_run, .ops_per_worker = file_ops,
		.amount = AMOUNT_FILES, .counts_passes = true,
	},
	[FAMILY_TREE] = {
		.runs = tree_runs, .ops_per_worker = no_ops,
		.amount = AMOUNT_OWN,
	},
	[FAMILY_NONE] = {
		.runs = never_runs, .ops_per_worker = no_ops,
		.amount = AMOUNT_OWN,
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
	if (id == PH_TEST)
		return &test_phase;
	return &phases[id < PH_TEST ? id : 0];
}

int phase_def_register(const struct phase_def *def)
{
	if (def->id != PH_TEST || def->kind == KIND_NONE || def->kind == KIND_BONNIE ||
	    def->slot != SLOT_NONE || def->family == FAMILY_NONE || def->family >= FAMILY_COUNT ||
	    !def->csv_name || !def->csv_name[0])
		return -EINVAL;
	if (test_phase.kind != KIND_NONE)
		return -EEXIST;
	for (int i = 0; i < PH_TEST; i++)
		if (!strcmp(phases[i].csv_name, def->csv_name))
			return -EEXIST;
	test_phase = *def;
	return 0;
}

enum phase_id phase_in_slot(enum csv_slot slot)
{
	for (int i = 0; i < PH_COUNT; i++)
		if (phase_get((enum phase_id)i)->kind == KIND_BONNIE &&
		    phase_get((enum phase_id)i)->slot == slot)
			return (enum phase_id)i;
	return PH_COUNT;
}

const struct family_def *phase_family(enum phase_id id)
{
	return &families[phase_get(id)->family];
}

const char *phase_name(enum phase_id id)
{
	return id < PH_COUNT ? phase_get(id)->name : "?";
}

const char *phase_csv_name(enum phase_id id)
{
	return id < PH_COUNT ? phase_get(id)->csv_name : "?";
}
