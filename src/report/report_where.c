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
#include "report/report_flame.h"

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
			report_unseen_text(out, s, k, (enum phase_id)ph);
			cut |= m->task.cut || m->layer.cut || m->self.cut || m->total.cut;
		}
	}
	if (cut)
		fprintf(out, "Only the first %d names of a phase's tasks, layers or functions are "
			"in its means.\n", WHERE_ACC_MAX);
	free(m);
	return 0;
}

/* Configuration k's folded stacks of phase ph, every run's one after another; *n 0 where none. */
int report_where_stacks(const struct report_set *s, size_t k, enum phase_id ph,
			struct flame_stack **v, size_t *n)
{
	size_t total = 0, at = 0;

	*v = NULL;
	*n = 0;
	for (size_t i = 0; i < s->nruns; i++)
		if (report_run_of(s, k, i) && s->runs[i].where[ph])
			total += s->runs[i].where[ph]->nfolded;
	if (!total)
		return 0;
	*v = malloc(total * sizeof(**v));
	if (!*v)
		return -ENOMEM;
	for (size_t i = 0; i < s->nruns; i++) {
		const struct report_where *w = s->runs[i].where[ph];

		if (!report_run_of(s, k, i) || !w || !w->nfolded)
			continue;
		memcpy(*v + at, w->folded, w->nfolded * sizeof(**v));
		at += w->nfolded;
	}
	*n = at;
	return 0;
}

/* The layers whose mean share moved most from configuration a to b (in percent), at most max. */
int report_where_layer_moves(const struct report_set *s, size_t a, size_t b, enum phase_id ph,
			     struct flame_mover *out, size_t max)
{
	struct where_means *ma = malloc(sizeof(*ma)), *mb = malloc(sizeof(*mb));
	struct flame_mover all[2 * WHERE_ACC_MAX];
	size_t n = 0;
	int ret = -ENOMEM;

	if (!ma || !mb)
		goto out_free;
	ret = 0;
	if (!where_means(s, a, ph, ma) || !where_means(s, b, ph, mb) || !ma->stacked ||
	    !mb->stacked)
		goto out_free;
	for (unsigned i = 0; i < ma->layer.n; i++) {
		snprintf(all[n].name, sizeof(all[n].name), "%s", ma->layer.v[i].name);
		all[n].share_a = ma->layer.v[i].v * 100;
		all[n++].share_b = 0;
	}
	for (unsigned i = 0; i < mb->layer.n; i++) {
		size_t j = 0;

		while (j < n && strcmp(all[j].name, mb->layer.v[i].name))
			j++;
		if (j == n) {
			snprintf(all[n].name, sizeof(all[n].name), "%s", mb->layer.v[i].name);
			all[n++].share_a = 0;
		}
		all[j].share_b = mb->layer.v[i].v * 100;
	}
	qsort(all, n, sizeof(all[0]), report_flame_mover_cmp);
	if (n > max)
		n = max;
	memcpy(out, all, n * sizeof(all[0]));
	ret = (int)n;
out_free:
	free(ma);
	free(mb);
	return ret;
}

/* A run's figure averaged over configuration k's runs that have it; NAN where none does. */
static double config_mean(const struct report_set *s, size_t k, enum phase_id ph, bool write)
{
	double sum = 0;
	unsigned n = 0;

	for (size_t i = 0; i < s->nruns; i++) {
		double v = write ? s->runs[i].prof[ph].write_amp : s->runs[i].prof[ph].read_amp;

		if (report_run_of(s, k, i) && s->runs[i].prof[ph].has && !isnan(v)) {
			sum += v;
			n++;
		}
	}
	return n ? sum / n : NAN;
}

/*
 * Seconds per request of span sp over configuration k's runs that
 * measured it (--profile=layers): their time summed over their requests
 * summed, so that a run with more requests weighs more; NAN where none did.
 */
static double config_per_request(const struct report_set *s, size_t k, enum phase_id ph,
				 enum report_span sp)
{
	double sum = 0, n = 0;

	for (size_t i = 0; i < s->nruns; i++) {
		const struct report_profile *p = &s->runs[i].prof[ph];

		if (!report_run_of(s, k, i) || !p->has || !(p->span_requests[sp] > 0) ||
		    isnan(p->span_sum_s[sp]))
			continue;
		sum += p->span_sum_s[sp];
		n += p->span_requests[sp];
	}
	return n > 0 ? sum / n : NAN;
}

/* The task outside clyde whose mean CPU grew most from ma to mb; d->task "" where none grew. */
static void task_grew(const struct where_means *ma, const struct where_means *mb,
		      struct report_where_diff *d)
{
	double most = 0;

	d->task[0] = d->task_group[0] = '\0';
	d->task_a_s = d->task_b_s = NAN;
	if (!ma->tasked || !mb->tasked)
		return;
	for (unsigned i = 0; i < mb->task.n; i++) {
		const struct report_named *t = &mb->task.v[i];
		double was = 0;

		for (unsigned j = 0; j < ma->task.n; j++)
			if (!strcmp(ma->task.v[j].name, t->name) &&
			    !strcmp(ma->task.v[j].group, t->group))
				was = ma->task.v[j].v;
		if (t->v - was <= most)
			continue;
		most = t->v - was;
		snprintf(d->task, sizeof(d->task), "%s", t->name);
		snprintf(d->task_group, sizeof(d->task_group), "%s", t->group);
		d->task_a_s = was;
		d->task_b_s = t->v;
	}
}

int report_where_diff(const struct report_set *s, size_t a, size_t b, enum phase_id ph,
		      struct report_where_diff *d)
{
	struct where_means *ma = malloc(sizeof(*ma)), *mb = malloc(sizeof(*mb));
	int ret = -ENOMEM;

	if (!ma || !mb)
		goto out_free;
	for (int w = 0; w < 2; w++) {
		d->amp_a[w] = config_mean(s, a, ph, w);
		d->amp_b[w] = config_mean(s, b, ph, w);
	}
	for (int sp = 0; sp < REPORT_SPANS; sp++) {
		d->per_request_a[sp] = config_per_request(s, a, ph, (enum report_span)sp);
		d->per_request_b[sp] = config_per_request(s, b, ph, (enum report_span)sp);
	}
	d->task[0] = d->task_group[0] = '\0';
	d->task_a_s = d->task_b_s = NAN;
	if (where_means(s, a, ph, ma) && where_means(s, b, ph, mb))
		task_grew(ma, mb, d);
	ret = 0;
out_free:
	free(ma);
	free(mb);
	return ret;
}

static void moves_list(FILE *out, const char *what, const struct flame_mover *m, int n)
{
	fprintf(out, "; %s", what);
	for (int i = 0; i < n; i++)
		fprintf(out, "%s %s %+.1f", i ? "," : "", m[i].name, m[i].share_b - m[i].share_a);
}

/* b over a, where both are known and a is above 0. */
static void ratio(FILE *out, const char *what, double a, double b)
{
	if (!isnan(a) && !isnan(b) && a > 0)
		fprintf(out, "; %s %.2fx", what, b / a);
}

static void diff_text(FILE *out, const struct report_where_diff *d)
{
	ratio(out, "device writes per byte", d->amp_a[1], d->amp_b[1]);
	ratio(out, "device reads per byte", d->amp_a[0], d->amp_b[0]);
	ratio(out, "device time per request", d->per_request_a[REPORT_SPAN_DEVICE],
	      d->per_request_b[REPORT_SPAN_DEVICE]);
	ratio(out, "queue time per request", d->per_request_a[REPORT_SPAN_QUEUE],
	      d->per_request_b[REPORT_SPAN_QUEUE]);
	if (d->task[0])
		fprintf(out, "; outside clyde %s (%s) %+.3f s", d->task, d->task_group,
			d->task_b_s - d->task_a_s);
}

#define MOVES_TEXT	3

/* Configuration k's phase ph against the baseline's: its line, where the stacks have one. */
static int moves_line(FILE *out, const struct report_set *s, size_t base, size_t k,
		      enum phase_id ph, bool *header)
{
	const struct report_config *c = &s->configs[k];
	struct flame_mover layers[MOVES_TEXT], funcs[MOVES_TEXT];
	struct flame_stack *va = NULL, *vb = NULL;
	struct report_where_diff d;
	size_t na, nb;
	int nl, nf, ret;

	nl = report_where_layer_moves(s, base, k, ph, layers, MOVES_TEXT);
	if (nl <= 0)
		return nl;
	ret = report_where_stacks(s, base, ph, &va, &na);
	if (!ret)
		ret = report_where_stacks(s, k, ph, &vb, &nb);
	if (ret)
		goto out_free;
	nf = report_flame_movers(va, na, vb, nb, funcs, MOVES_TEXT);
	ret = nf < 0 ? nf : report_where_diff(s, base, k, ph, &d);
	if (ret)
		goto out_free;
	if (!*header)
		fputs("\nWhat moved (--profile=stacks): where a phase's rate differs from the "
		      "baseline's beyond\nnoise (?: too few runs to tell), the layers and functions "
		      "whose share of its\nsampled CPU moved most, in points; the device's bytes per "
		      "byte clyde moved and,\nwith --profile=layers, the time per request at the "
		      "device and queued in the\nblock layer, as ratios; and the task outside clyde "
		      "whose CPU grew most.\n", out);
	*header = true;
	fprintf(out, "  [%zu] %-18s %.2fx%s", k + 1, phase_get(ph)->row_name,
		c->ratio[ph][RM_RATE], c->untestable[ph][RM_RATE] ? "?" : "");
	moves_list(out, "layers", layers, nl);
	moves_list(out, "functions", funcs, nf);
	diff_text(out, &d);
	fputc('\n', out);
out_free:
	free(va);
	free(vb);
	return ret;
}

/*
 * Per configuration and phase where the rate differs from the baseline's
 * beyond noise (or too few runs tell whether it does) and both sampled
 * their stacks: what moved, from the data: the layers and functions whose
 * share of the sampled CPU moved most, in points, the device's bytes per
 * byte clyde moved and its time per request, as ratios, and the task
 * outside clyde that grew.
 */
int report_where_moves_text(FILE *out, const struct report_set *s)
{
	size_t base = (size_t)s->baseline;
	bool header = false;

	if (s->baseline < 0 || base >= s->nconfigs)
		return 0;
	for (size_t k = 0; k < s->nconfigs; k++) {
		for (int p = 0; p < PH_COUNT && k != base; p++) {
			const struct report_config *c = &s->configs[k];
			int ret;

			if (!c->has_ratio[p][RM_RATE] ||
			    (c->within_noise[p][RM_RATE] && !c->untestable[p][RM_RATE]))
				continue;
			ret = moves_line(out, s, base, k, (enum phase_id)p, &header);
			if (ret < 0)
				return ret;
		}
	}
	return 0;
}
