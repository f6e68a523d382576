// SPDX-License-Identifier: BSD-2-Clause
/*
 * The aggregate of many clients' parts of one phase (see aggregate.h).
 * A rate over first start to last end counts the time some rank was
 * still working; the sum of per-rank rates counts each rank's own time
 * only and overstates the whole when the ranks did not overlap. Both are
 * kept, with the stonewall view between them.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lib/aggregate.h"

void rank_phase_align(struct rank_phase *r, double offset_s)
{
	r->t_start += offset_s;
	r->t_end += offset_s;
}

static void bound(double v, double *lo, double *hi, bool first)
{
	if (first || v < *lo)
		*lo = v;
	if (first || v > *hi)
		*hi = v;
}

int aggregate_phase(const struct rank_phase *r, unsigned n, struct aggregate *out)
{
	bool stonewall = true;

	memset(out, 0, sizeof(*out));
	for (unsigned i = 0; i < n; i++) {
		const struct rank_phase *p = &r[i];
		bool first = out->ranks == 0;

		if (!p->ran)
			continue;
		if (p->t_end < p->t_start || p->amount < 0)
			return -EINVAL;
		bound(p->t_start, &out->first_start, &out->last_start, first);
		bound(p->t_end, &out->first_end, &out->last_end, first);
		out->amount += p->amount;
		out->cpu_user += p->cpu_user;
		out->cpu_sys += p->cpu_sys;
		if (p->t_end > p->t_start)
			out->sum_of_rates += p->amount / (p->t_end - p->t_start);
		if (p->amount_at_first_end < 0 || p->amount_at_first_end > p->amount)
			stonewall = false;
		else
			out->stonewall_amount += p->amount_at_first_end;
		out->ranks++;
	}
	if (!out->ranks)
		return -EINVAL;
	if (out->last_end > out->first_start)
		out->rate = out->amount / (out->last_end - out->first_start);
	out->stonewall_known = stonewall && out->first_end > out->first_start;
	if (out->stonewall_known)
		out->stonewall_rate = out->stonewall_amount / (out->first_end - out->first_start);
	else
		out->stonewall_amount = 0;
	return 0;
}

double aggregate_quantile(const struct histogram *merged, double q)
{
	return (double)hist_quantile(merged, q) / 1e9;
}

double rank_amount_by(const struct timeline *done, double amount, double t_end_s, double when_s)
{
	/* a nanosecond's slack: the first to end, its end moved to rank 0's clock and back */
	if (when_s >= t_end_s - 1e-9)
		return amount;
	if (!done || !done->total || when_s <= 0)
		return -1;
	return amount * timeline_ops_by(done, (uint64_t)(when_s * 1e9)) / (double)done->total;
}

double rank_phase_rate(const struct rank_phase *r)
{
	double len = r->t_end - r->t_start;

	return len > 0 ? r->amount / len : 0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The q-th quantile of n sorted values, linear between the nearest order statistics. */
static double sorted_quantile(const double *v, size_t n, double q)
{
	double pos = q * (double)(n - 1);
	size_t lo = (size_t)pos;

	if (lo + 1 >= n)
		return v[n - 1];
	return v[lo] + (v[lo + 1] - v[lo]) * (pos - (double)lo);
}

void spread_of(double *v, size_t n, struct spread *out)
{
	memset(out, 0, sizeof(*out));
	if (!n)
		return;
	qsort(v, n, sizeof(*v), cmp_double);
	out->min = v[0];
	out->q1 = sorted_quantile(v, n, 0.25);
	out->median = sorted_quantile(v, n, 0.5);
	out->q3 = sorted_quantile(v, n, 0.75);
	out->max = v[n - 1];
}

/* Keep the SUMMARY_SLOWEST lowest rates, in order; a later rank never displaces an equal one. */
static void note_slow(struct ranks_summary *s, unsigned rank, double rate)
{
	unsigned at = s->slowest_n;

	while (at > 0 && rate < s->slowest[at - 1].rate)
		at--;
	if (at >= SUMMARY_SLOWEST)
		return;
	if (s->slowest_n < SUMMARY_SLOWEST)
		s->slowest_n++;
	memmove(&s->slowest[at + 1], &s->slowest[at],
		(s->slowest_n - 1 - at) * sizeof(s->slowest[0]));
	s->slowest[at].rank = rank;
	s->slowest[at].rate = rate;
}

int ranks_summarise(const struct rank_phase *r, unsigned n, struct ranks_summary *out)
{
	double *v;
	size_t m = 0;

	memset(out, 0, sizeof(*out));
	for (unsigned i = 0; i < n; i++)
		m += r[i].ran;
	if (!m)
		return -EINVAL;
	v = malloc(m * sizeof(*v));
	if (!v)
		return -ENOMEM;
	out->ranks = (unsigned)m;
	m = 0;
	for (unsigned i = 0; i < n; i++) {
		if (!r[i].ran)
			continue;
		v[m++] = rank_phase_rate(&r[i]);
		note_slow(out, i, rank_phase_rate(&r[i]));
	}
	spread_of(v, m, &out->rate);
	m = 0;
	for (unsigned i = 0; i < n; i++)
		if (r[i].ran)
			v[m++] = r[i].amount;
	spread_of(v, m, &out->amount);
	m = 0;
	for (unsigned i = 0; i < n; i++)
		if (r[i].ran)
			v[m++] = r[i].t_end - r[i].t_start;
	spread_of(v, m, &out->elapsed);
	free(v);
	return 0;
}
