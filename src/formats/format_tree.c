// SPDX-License-Identifier: BSD-2-Clause
/*
 * The tree table (--tree): one row per tree phase, then each kind of
 * operation's latency. Printed before the CSV line; no commas, so a
 * program that takes the line with commas as the CSV still finds it.
 */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>

#include "core/phase.h"
#include "formats/format.h"

/* A tree phase that ran: a row of each table ("Tree extract" is its row name, "Extract" here). */
static const struct phase_result *tree_phase(const struct run_result *r, int i)
{
	const struct phase_result *p = &r->phase[i];

	return phase_get((enum phase_id)i)->kind == KIND_TREE && p->ran ? p : NULL;
}

static void tree_head(FILE *out, const struct run_tree *t)
{
	double mib = (double)t->bytes / 1048576.0;

	fprintf(out, "Tree %s x%g seed %" PRIu64 ": %" PRIu32 " directories %" PRIu32
		" files %.1f MiB depth %" PRIu32 "; listing hash %016" PRIx64 "; %s %u at a time\n",
		t->shape, t->scale, t->seed, t->dirs, t->files, mib, t->max_depth, t->hash,
		t->io, t->depth);
}

/* Residency before the phase, or what the walk finds cached. */
static void cache_cell(char *buf, size_t len, const struct phase_result *p, enum phase_id id)
{
	if (id == PH_TREE_WALK)
		snprintf(buf, len, "metadata");
	else if (!p->residency_measured)
		snprintf(buf, len, "-");
	else if (p->resident_pct < 0)
		snprintf(buf, len, "unknown");
	else
		snprintf(buf, len, "%.1f%%", p->resident_pct);
}

static void phase_rows(FILE *out, const struct run_result *r)
{
	fprintf(out, "%-14s %9s %9s %8s %8s %8s %8s %8s %4s %9s\n", "Tree phase", "files/s",
		"MiB/s", "wall s", "user s", "sys s", "dead s", "flush s", "%CP", "resident");
	for (int i = 0; i < PH_COUNT; i++) {
		const struct phase_result *p = tree_phase(r, i);
		char cache[24];

		if (!p)
			continue;
		cache_cell(cache, sizeof(cache), p, (enum phase_id)i);
		fprintf(out, "%-14s %9.0f %9.1f %8.3f %8.3f %8.3f %8.3f %8.3f %4d %9s\n",
			phase_get((enum phase_id)i)->short_name, phase_rate(p),
			p->elapsed > 0 ? (double)p->tree.bytes / 1048576.0 / p->elapsed : 0.0,
			p->elapsed, p->cpu_user, p->cpu_sys, phase_dead_time(p), p->flush,
			phase_cpu_percent(p), cache);
	}
}

static void op_row(FILE *out, const char *phase, const char *op, const struct tree_op_result *o)
{
	char cell[32];

	fprintf(out, "%-14s %-7s %9" PRIu64 " %9" PRIu64, phase, op, o->count, o->via_ring);
	for (int q = 0; q < LAT_QUANTILES; q++) {
		format_latency(cell, sizeof(cell), o->latency_q[q]);
		fprintf(out, " %8s", cell);
	}
	format_latency(cell, sizeof(cell), o->max_latency);
	fprintf(out, " %8s\n", cell);
}

static void latency_rows(FILE *out, const struct run_result *r)
{
	fprintf(out, "%-14s %-7s %9s %9s", "Tree latency", "op", "count", "via ring");
	for (int q = 0; q < LAT_QUANTILES; q++)
		fprintf(out, " %8s", latency_quantile_names[q]);
	fprintf(out, " %8s\n", "max");
	for (int i = 0; i < PH_COUNT; i++) {
		const struct phase_result *p = tree_phase(r, i);
		const char *name = phase_get((enum phase_id)i)->short_name;

		if (!p || !p->tree.valid)
			continue;
		for (int k = 0; k < TOP_KINDS; k++)
			if (p->tree.op[k].count)
				op_row(out, name, tree_op_name((enum tree_op_kind)k), &p->tree.op[k]);
		if (p->tree.list.count)
			op_row(out, name, "list", &p->tree.list);
	}
}

void format_tree_table(FILE *out, const struct run_result *r)
{
	if (!r->tree.on)
		return;
	tree_head(out, &r->tree);
	phase_rows(out, r);
	fprintf(out, "walk: %s; it counts every entry (files and directories)\n",
		r->tree.walk_cache);
	latency_rows(out, r);
}
