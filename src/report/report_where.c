// SPDX-License-Identifier: BSD-2-Clause
/*
 * clyde-report's text of where a profiled phase's CPU went: what clyde
 * --profile prints as its "Profile where" and "where the time went"
 * lines, per configuration and phase, as means over the runs that
 * profiled the phase (a run without a task or a layer counts 0 for it).
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/phase.h"
#include "report/report.h"

/* The names one mean holds: more than any one run writes, so that a few runs fit whole. */
#define WHERE_ACC_MAX	128
/* The functions a line names; the tasks and layers are all named. */
#define WHERE_TEXT_FUNCS	3

struct where_acc {
	unsigned n;
	bool cut;		/* a name did not fit: the means hold the first WHERE_ACC_MAX */
	struct report_named v[WHERE_ACC_MAX];
};

static void acc_add(struct where_acc *a, const struct report_named *x)
{
	for (unsigned k = 0; k < a->n; k++)
		if (!strcmp(a->v[k].name, x->name) && !strcmp(a->v[k].group, x->group)) {
			a->v[k].v += x->v;
			return;
		}
	if (a->n == WHERE_ACC_MAX) {
		a->cut = true;
		return;
	}
	a->v[a->n++] = *x;
}

static int by_value(const void *pa, const void *pb)
{
	const struct report_named *a = pa, *b = pb;

	if (a->v != b->v)
		return a->v > b->v ? -1 : 1;
	return strcmp(a->name, b->name);
}

/* The sums as means over runs, the largest first. */
static void acc_means(struct where_acc *a, unsigned runs)
{
	for (unsigned k = 0; k < a->n; k++)
		a->v[k].v /= runs;
	qsort(a->v, a->n, sizeof(a->v[0]), by_value);
}

struct where_means {
	unsigned tasked, stacked, outside_runs;
	double outside_s, stacks_cpu_s;
	struct where_acc task, layer, self, total;
};

static void add_all(struct where_acc *a, const struct report_named *v, unsigned n)
{
	for (unsigned k = 0; k < n; k++)
		acc_add(a, &v[k]);
}

/* Configuration k's phase ph over its profiled runs; false where none has a where. */
static bool where_means(const struct report_set *s, size_t k, enum phase_id ph,
			struct where_means *m)
{
	bool any = false;

	memset(m, 0, sizeof(*m));
	for (size_t i = 0; i < s->nruns; i++) {
		const struct report_run *r = &s->runs[i];
		const struct report_where *w = r->where[ph];

		if (!r->prof[ph].has || !report_run_of(s, k, i))
			continue;
		if (!isnan(r->prof[ph].outside_s)) {
			m->outside_s += r->prof[ph].outside_s;
			m->outside_runs++;
		}
		/* a run whose tasks are unknown (groups null) is no 0 */
		m->tasked += r->prof[ph].tasks_known;
		if (!w)
			continue;
		any = true;
		add_all(&m->task, w->task, w->ntasks);
		if (!w->has_stacks)
			continue;
		m->stacked++;
		m->stacks_cpu_s += w->stacks_cpu_s;
		add_all(&m->layer, w->layer, w->nlayers);
		add_all(&m->self, w->self, w->nself);
		add_all(&m->total, w->total, w->ntotal);
	}
	if (!any)
		return false;
	if (m->tasked)
		acc_means(&m->task, m->tasked);
	if (m->stacked) {
		acc_means(&m->layer, m->stacked);
		acc_means(&m->self, m->stacked);
		acc_means(&m->total, m->stacked);
	}
	return true;
}

static void shares(FILE *out, const char *row, const char *what, const struct where_acc *a,
		   unsigned max)
{
	fprintf(out, "  %-18s %s", row, what);
	for (unsigned k = 0; k < a->n && k < max; k++)
		fprintf(out, "%s%s %.1f%%", k ? "  " : " ", a->v[k].name, a->v[k].v * 100);
	fputc('\n', out);
}

static void where_rows(FILE *out, const struct where_means *m, enum phase_id ph)
{
	const char *row = phase_get(ph)->row_name;

	fprintf(out, "  %-18s outside clyde ", row);
	if (m->outside_runs)
		fprintf(out, "%.3f s in %u run%s", m->outside_s / m->outside_runs, m->outside_runs,
			m->outside_runs == 1 ? "" : "s");
	else
		fputs("-", out);
	if (m->task.n)
		fprintf(out, "; tasks in %u run%s", m->tasked, m->tasked == 1 ? "" : "s");
	for (unsigned k = 0; k < m->task.n; k++)
		fprintf(out, "%s %s %.3f s (%s)", k ? ";" : ":", m->task.v[k].name, m->task.v[k].v,
			m->task.v[k].group);
	fputc('\n', out);
	if (!m->stacked)
		return;
	fprintf(out, "  %-18s sampled %.3f s of CPU in %u run%s\n", row,
		m->stacks_cpu_s / m->stacked, m->stacked, m->stacked == 1 ? "" : "s");
	shares(out, row, "layers", &m->layer, WHERE_ACC_MAX);
	shares(out, row, "self", &m->self, WHERE_TEXT_FUNCS);
	shares(out, row, "total", &m->total, WHERE_TEXT_FUNCS);
}

int report_where_text(FILE *out, const struct report_set *s)
{
	struct where_means *m = malloc(sizeof(*m));
	bool header = false, cut = false;

	if (!m)
		return -ENOMEM;
	for (size_t k = 0; k < s->nconfigs; k++) {
		bool block = false;

		for (int ph = 0; ph < PH_COUNT; ph++) {
			if (!where_means(s, k, (enum phase_id)ph, m))
				continue;
			if (!header)
				fputs("\nWhere the time went (--profile): means over the runs that "
				      "profiled the phase.\n"
				      "Outside clyde: the CPU seconds the phase caused outside clyde's "
				      "process, and the\n"
				      "  busiest tasks there (kworkers by their workqueue).\n"
				      "Layers, self, total (--profile=stacks): shares of the phase's "
				      "sampled CPU, idle apart;\n"
				      "  self: the function sampled; total: on the stack.\n", out);
			header = true;
			if (!block)
				fprintf(out, "\n[%zu] %s\n", k + 1, s->configs[k].key);
			block = true;
			where_rows(out, m, (enum phase_id)ph);
			cut |= m->task.cut || m->layer.cut || m->self.cut || m->total.cut;
		}
	}
	if (cut)
		fprintf(out, "Only the first %d names of a phase's tasks, layers or functions are "
			"in its means.\n", WHERE_ACC_MAX);
	free(m);
	return 0;
}
