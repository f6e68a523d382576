// SPDX-License-Identifier: BSD-2-Clause
/*
 * One run's result from every rank, combined on rank 0 (see
 * cluster_result.h). Each rank sends a fixed record per phase, its host
 * and clock offset, and sums its histograms' buckets onto rank 0's;
 * rank 0 keeps every record and replaces its phases' figures with the
 * aggregate.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cluster/cluster.h"
#include "cluster/cluster_result.h"
#include "core/phase.h"

#define HOST_LEN 64

/* This rank's part of a phase; first_end_local: when the first rank ended, in this rank's clock. */
static void to_record(const struct phase_result *pr, double offset_s, double first_end_local,
		      struct rank_result *rec)
{
	memset(rec, 0, sizeof(*rec));
	rec->p.ran = pr->ran;
	rec->at_deadline = -1;
	if (!pr->ran)
		return;
	rec->p.t_start = pr->t_start;
	rec->p.t_end = pr->t_end;
	rank_phase_align(&rec->p, -offset_s);
	rec->p.amount = pr->amount;
	rec->p.amount_at_first_end = rank_amount_by(pr->done, pr->amount, pr->t_end,
						    first_end_local);
	rec->p.cpu_user = pr->cpu_user;
	rec->p.cpu_sys = pr->cpu_sys;
	memcpy(rec->latency_q, pr->latency_q, sizeof(rec->latency_q));
	rec->max_latency = pr->max_latency;
	rec->latency_count = pr->latency_count;
	rec->min_ns = pr->hist ? pr->hist->min : 0;
	rec->max_ns = pr->hist ? pr->hist->max : 0;
	rec->flush = pr->flush;
	rec->resident_pct = pr->residency_measured ? pr->resident_pct : 0;
	rec->mismatches = pr->mismatches;
	rec->tree_files = pr->tree.files;
	rec->tree_dirs = pr->tree.dirs;
	rec->tree_entries = pr->tree.entries;
	rec->tree_bytes = pr->tree.bytes;
	rec->at_deadline = pr->at_deadline;
}

/* Rank 0's phase becomes the aggregate of every rank's. */
static void apply(struct phase_result *pr, const struct cluster_phase *cp, unsigned n,
		  struct histogram *merged, struct series *series)
{
	const struct aggregate *a = &cp->agg;
	uint64_t min_ns = UINT64_MAX, max_ns = 0;

	pr->t_start = a->first_start;
	pr->t_end = a->last_end;
	/* in whole nanoseconds, as alone: the merged series' rows end there */
	pr->elapsed = (double)cluster_span_ns(a->first_start, a->last_end) / 1e9;
	pr->cpu_window = pr->elapsed;
	pr->amount = a->amount;
	pr->cpu_user = a->cpu_user;
	pr->cpu_sys = a->cpu_sys;
	pr->flush = 0;
	pr->mismatches = 0;
	pr->tree.files = pr->tree.dirs = pr->tree.entries = pr->tree.bytes = 0;
	for (unsigned r = 0; r < n; r++) {
		const struct rank_result *rec = &cp->rank[r];

		if (!rec->p.ran)
			continue;
		if (rec->max_ns > max_ns)
			max_ns = rec->max_ns;
		if (rec->latency_count && rec->min_ns < min_ns)
			min_ns = rec->min_ns;
		if (rec->flush > pr->flush)
			pr->flush = rec->flush;
		pr->mismatches += rec->mismatches;
		pr->tree.files += rec->tree_files;
		pr->tree.dirs += rec->tree_dirs;
		pr->tree.entries += rec->tree_entries;
		pr->tree.bytes += rec->tree_bytes;
		/* the worst rank's residency; unknown anywhere is unknown */
		if (pr->residency_measured && pr->resident_pct >= 0 &&
		    (rec->resident_pct < 0 || rec->resident_pct > pr->resident_pct))
			pr->resident_pct = rec->resident_pct;
	}
	merged->min = min_ns == UINT64_MAX ? 0 : min_ns;
	merged->max = max_ns;
	pr->max_latency = (double)max_ns / 1e9;
	pr->latency_count = merged->count;
	for (int q = 0; q < LAT_QUANTILES; q++)
		pr->latency_q[q] = aggregate_quantile(merged, latency_quantiles[q]);
	/* every rank's series on rank 0's clock (cluster_series), not rank 0's own */
	series_free(pr->series);
	pr->series = series;
	/* the workers of rank 0 alone would mislead: every rank's part is in cluster */
	free(pr->workers);
	pr->workers = NULL;
	pr->nworkers = 0;
}

/* The hosts and clock offsets of every rank, on rank 0. */
static int gather_ranks(struct cluster_run *c, double offset_s, bool root)
{
	char mine[HOST_LEN] = { 0 }, (*names)[HOST_LEN] = NULL;
	unsigned n = c ? c->ranks : 0;
	int ret;

	snprintf(mine, sizeof(mine), "%s", cluster_host());
	if (root) {
		names = calloc(n, sizeof(*names));
		c->host = calloc(n, sizeof(*c->host));
		c->rank_host = calloc(n, sizeof(*c->rank_host));
		c->offset = calloc(n, sizeof(*c->offset));
	}
	/* every rank takes part in both gathers, whatever rank 0 could allocate */
	ret = cluster_gather(mine, sizeof(mine), names);
	if (!ret)
		ret = cluster_gather(&offset_s, sizeof(offset_s), root ? c->offset : NULL);
	if (!root || ret)
		goto out;
	if (!names || !c->host || !c->rank_host) {
		ret = -ENOMEM;
		goto out;
	}
	for (unsigned r = 0; r < n; r++) {
		unsigned h = 0;

		while (h < c->hosts && strcmp(c->host[h], names[r]))
			h++;
		if (h == c->hosts)
			memcpy(c->host[c->hosts++], names[r], HOST_LEN);
		c->rank_host[r] = h;
	}
out:
	free(names);
	return ret;
}

int cluster_combine(struct run_result *res, double offset_s)
{
	unsigned n = (unsigned)cluster_size();
	bool root = cluster_rank() == 0;
	struct rank_result mine[PH_COUNT], *all = NULL;
	double first_end[PH_COUNT], span[2 * PH_COUNT];
	struct cluster_run *c = NULL;
	static struct histogram sum;
	int ret;

	/* when the first rank ended each phase, in rank 0's clock */
	for (int i = 0; i < PH_COUNT; i++)
		first_end[i] = res->phase[i].ran ? res->phase[i].t_end - offset_s : HUGE_VAL;
	/* the aggregate's first start and (negated) last end, on every rank for the series' grid */
	for (int i = 0; i < PH_COUNT; i++) {
		const struct phase_result *pr = &res->phase[i];

		span[i] = pr->ran ? pr->t_start - offset_s : HUGE_VAL;
		span[PH_COUNT + i] = pr->ran ? -(pr->t_end - offset_s) : HUGE_VAL;
	}
	ret = cluster_min_f64(first_end, PH_COUNT);
	if (!ret)
		ret = cluster_min_f64(span, 2 * PH_COUNT);
	if (ret)
		return ret;
	for (int i = 0; i < PH_COUNT; i++)
		to_record(&res->phase[i], offset_s, first_end[i] + offset_s, &mine[i]);
	if (root) {
		c = calloc(1, sizeof(*c));
		all = calloc(n, sizeof(mine));
		if (c)
			c->ranks = n;
	}
	ret = gather_ranks(root ? c : NULL, offset_s, root && c);
	if (!ret)
		ret = cluster_gather(mine, sizeof(mine), all);
	if (!ret && root && (!c || !all))
		ret = -ENOMEM;
	for (int i = 0; i < PH_COUNT; i++) {
		static const struct histogram empty;
		const struct histogram *h = res->phase[i].hist ? res->phase[i].hist : &empty;
		struct series *series = NULL;
		struct cluster_phase *cp;
		int r;

		/* every rank takes part in every sum, whether it ran the phase or not */
		r = cluster_sum_u64(h->bucket, sum.bucket, HIST_BUCKETS);
		if (!r)
			r = cluster_sum_u64(&h->count, &sum.count, 1);
		if (r && !ret)
			ret = r;
		if (!r) {
			r = cluster_series(&res->phase[i], offset_s, span[i], -span[PH_COUNT + i],
					   &series);
			/* a series lost to memory is said, as alone; the run goes on */
			if (r == -ENOMEM && root && res->phase[i].ran)
				fprintf(stderr, "clyde: warning: %s: no time series: %s\n",
					phase_get((enum phase_id)i)->name, strerror(-r));
			else if (r && !ret)
				ret = r;
		}
		if (ret || !root || !res->phase[i].ran) {
			series_free(series);
			continue;
		}
		cp = &c->phase[i];
		cp->rank = calloc(n, sizeof(*cp->rank));
		if (!cp->rank) {
			series_free(series);
			ret = -ENOMEM;
			continue;
		}
		for (unsigned k = 0; k < n; k++)
			cp->rank[k] = all[(size_t)k * PH_COUNT + i];
		{
			struct rank_phase *rp = calloc(n, sizeof(*rp));

			if (!rp) {
				series_free(series);
				ret = -ENOMEM;
				continue;
			}
			for (unsigned k = 0; k < n; k++)
				rp[k] = cp->rank[k].p;
			r = aggregate_phase(rp, n, &cp->agg);
			free(rp);
		}
		if (r) {
			series_free(series);
			ret = r;
		} else {
			apply(&res->phase[i], cp, n, &sum, series);
		}
	}
	free(all);
	if (!root)
		return ret;
	if (ret) {
		struct run_result tmp = { .cluster = c };

		run_result_release(&tmp);
		return ret;
	}
	res->cluster = c;
	c->workers = res->params.concurrency;
	res->params.concurrency *= n;
	/* the seeks per worker, as alone: every rank's, when each timed its own */
	for (int i = 0; i < PH_COUNT; i++) {
		const struct phase_result *pr = &res->phase[i];

		if (pr->ran && res->params.concurrency &&
		    phase_family((enum phase_id)i)->amount == AMOUNT_SEEKS)
			res->params.seeks = (uint32_t)(pr->amount / res->params.concurrency + 0.5);
	}
	res->mismatches = 0;
	for (int i = 0; i < PH_COUNT; i++)
		res->mismatches += res->phase[i].mismatches;
	return 0;
}
