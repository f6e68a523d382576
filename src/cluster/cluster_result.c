// SPDX-License-Identifier: BSD-2-Clause
/*
 * One run's result from every rank, combined on rank 0 (see
 * cluster_result.h). Each rank sends a record per phase that ran (times,
 * amounts, CPU: 64 bytes) and its clock offset, its latency and flush
 * only when the ranks are few (CLUSTER_DETAIL_MAX); its histograms'
 * buckets, counters and extremes are reduced onto rank 0's. Rank 0
 * keeps the records, summarises them above the limit, and replaces its
 * phases' figures with the aggregate.
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

/* What the ranks' parts add up to beside their records, reduced on the way (per phase). */
enum {
	SUM_MISMATCHES, SUM_TREE_FILES, SUM_TREE_DIRS, SUM_TREE_ENTRIES, SUM_TREE_BYTES,
	SUM_READER_NS, SUM_READERS, SUMS
};
enum { MAX_NS, MAX_NOT_MIN_NS, MAXES };	/* the slowest op; UINT64_MAX - the quickest */
/* negated: the longest flush, the worst residency */
enum { MIN_NOT_FLUSH, MIN_NOT_RESIDENT, MINS };

/* A test sets a lower limit (CLYDE_TEST_RANKS_SUMMARY_ABOVE) to summarise a few ranks. */
static unsigned detail_max(void)
{
	const char *s = getenv("CLYDE_TEST_RANKS_SUMMARY_ABOVE");
	char *end;
	unsigned long v;

	if (!s || !*s)
		return CLUSTER_DETAIL_MAX;
	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || *end || v > 1000000)
		return CLUSTER_DETAIL_MAX;
	return (unsigned)v;
}

/* This rank's part of a phase; first_end_local: when the first rank ended, in this rank's clock. */
static void to_record(const struct phase_result *pr, double offset_s, double first_end_local,
		      struct rank_phase *rec, struct rank_detail *det)
{
	memset(rec, 0, sizeof(*rec));
	memset(det, 0, sizeof(*det));
	rec->ran = pr->ran;
	rec->at_deadline = -1;
	if (!pr->ran)
		return;
	rec->t_start = pr->t_start;
	rec->t_end = pr->t_end;
	rank_phase_align(rec, -offset_s);
	rec->amount = pr->amount;
	rec->amount_at_first_end = rank_amount_by(pr->done, pr->amount, pr->t_end,
						  first_end_local);
	rec->cpu_user = pr->cpu_user;
	rec->cpu_sys = pr->cpu_sys;
	rec->at_deadline = pr->at_deadline;
	memcpy(det->latency_q, pr->latency_q, sizeof(det->latency_q));
	det->max_latency = pr->max_latency;
	det->latency_count = pr->latency_count;
	det->flush = pr->flush;
}

/* This rank's counters, extremes and worst values of every phase, for the reductions. */
static void to_reduced(const struct phase_result *ph, uint64_t (*sums)[SUMS],
		       uint64_t (*maxes)[MAXES], double (*mins)[MINS])
{
	for (int i = 0; i < PH_COUNT; i++) {
		const struct phase_result *pr = &ph[i];
		bool timed = pr->ran && pr->latency_count && pr->hist;

		memset(sums[i], 0, sizeof(sums[i]));
		maxes[i][MAX_NS] = pr->ran && pr->hist ? pr->hist->max : 0;
		maxes[i][MAX_NOT_MIN_NS] = timed ? UINT64_MAX - pr->hist->min : 0;
		mins[i][MIN_NOT_FLUSH] = 0;
		mins[i][MIN_NOT_RESIDENT] = 0;
		if (!pr->ran)
			continue;
		sums[i][SUM_MISMATCHES] = pr->mismatches;
		sums[i][SUM_TREE_FILES] = pr->tree.files;
		sums[i][SUM_TREE_DIRS] = pr->tree.dirs;
		sums[i][SUM_TREE_ENTRIES] = pr->tree.entries;
		sums[i][SUM_TREE_BYTES] = pr->tree.bytes;
		/* the ranks' stall readers, each a process of its own: their CPU adds up */
		if (pr->stall_reader_cpu_s >= 0) {
			sums[i][SUM_READER_NS] = (uint64_t)(pr->stall_reader_cpu_s * 1e9 + 0.5);
			sums[i][SUM_READERS] = 1;
		}
		mins[i][MIN_NOT_FLUSH] = -pr->flush;
		/* unknown anywhere is unknown: it wins as the most negative */
		if (pr->residency_measured)
			mins[i][MIN_NOT_RESIDENT] = pr->resident_pct < 0 ? -HUGE_VAL :
						    -pr->resident_pct;
	}
}

/* Rank 0's phase becomes the aggregate of every rank's. */
static void apply(struct phase_result *pr, const struct cluster_phase *cp, const uint64_t *sums,
		  const uint64_t *maxes, const double *mins, struct histogram *merged,
		  struct series *series)
{
	const struct aggregate *a = &cp->agg;
	uint64_t min_ns = maxes[MAX_NOT_MIN_NS] ? UINT64_MAX - maxes[MAX_NOT_MIN_NS] : 0;

	pr->t_start = a->first_start;
	pr->t_end = a->last_end;
	/* in whole nanoseconds, as alone: the merged series' rows end there */
	pr->elapsed = (double)cluster_span_ns(a->first_start, a->last_end) / 1e9;
	pr->cpu_window = pr->elapsed;
	pr->amount = a->amount;
	pr->cpu_user = a->cpu_user;
	pr->cpu_sys = a->cpu_sys;
	pr->flush = -mins[MIN_NOT_FLUSH];
	pr->mismatches = sums[SUM_MISMATCHES];
	pr->tree.files = sums[SUM_TREE_FILES];
	pr->tree.dirs = sums[SUM_TREE_DIRS];
	pr->tree.entries = sums[SUM_TREE_ENTRIES];
	pr->tree.bytes = sums[SUM_TREE_BYTES];
	pr->stall_reader_cpu_s = sums[SUM_READERS] ? (double)sums[SUM_READER_NS] / 1e9 : -1;
	/* the worst rank's residency; unknown anywhere is unknown */
	if (pr->residency_measured && pr->resident_pct >= 0) {
		if (isinf(mins[MIN_NOT_RESIDENT]))
			pr->resident_pct = -1;
		else if (-mins[MIN_NOT_RESIDENT] > pr->resident_pct)
			pr->resident_pct = -mins[MIN_NOT_RESIDENT];
	}
	merged->min = min_ns;
	merged->max = maxes[MAX_NS];
	pr->max_latency = (double)maxes[MAX_NS] / 1e9;
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

/*
 * The clock offsets of every rank, on rank 0, and the hosts as
 * cluster_init learned them: the distinct names and each rank's index,
 * not a name per rank.
 */
static int gather_ranks(struct cluster_run *c, double offset_s, bool root)
{
	const char (*names)[64];
	const uint32_t *index;
	unsigned n = c ? c->ranks : 0, hosts;
	int ret;

	hosts = cluster_hosts(&names, &index);
	if (root) {
		c->host = calloc(hosts, sizeof(*c->host));
		c->rank_host = calloc(n, sizeof(*c->rank_host));
		c->offset = calloc(n, sizeof(*c->offset));
	}
	/* every rank takes part in the gather, whatever rank 0 could allocate */
	ret = cluster_gather(&offset_s, sizeof(offset_s), root ? c->offset : NULL);
	if (!root || ret)
		return ret;
	if (!c->host || !c->rank_host || !c->offset)
		return -ENOMEM;
	memcpy(c->host, names, hosts * sizeof(*c->host));
	c->hosts = hosts;
	for (unsigned r = 0; r < n; r++)
		c->rank_host[r] = index[r] < hosts ? index[r] : 0;
	return 0;
}

/*
 * Every rank's record of phase i on rank 0, and its detail when the ranks
 * are few enough; only for a phase some rank ran (all know it from span).
 * Collective.
 */
static int gather_phase(struct cluster_phase *cp, unsigned n, bool root, bool detail,
			const struct rank_phase *rec, const struct rank_detail *det)
{
	int ret;

	if (root) {
		cp->rank = calloc(n, sizeof(*cp->rank));
		if (detail)
			cp->detail = calloc(n, sizeof(*cp->detail));
	}
	ret = cluster_gather(rec, sizeof(*rec), cp ? cp->rank : NULL);
	if (!ret && detail)
		ret = cluster_gather(det, sizeof(*det), cp ? cp->detail : NULL);
	if (!ret && root && (!cp->rank || (detail && !cp->detail)))
		ret = -ENOMEM;
	return ret;
}

int cluster_combine(struct run_result *res, double offset_s)
{
	unsigned n = (unsigned)cluster_size(), limit = detail_max();
	bool root = cluster_rank() == 0, detail;
	struct rank_phase mine[PH_COUNT];
	struct rank_detail det[PH_COUNT];
	double first_end[PH_COUNT], span[2 * PH_COUNT];
	static uint64_t sums[PH_COUNT][SUMS], sums_all[PH_COUNT][SUMS], maxes[PH_COUNT][MAXES];
	static double mins[PH_COUNT][MINS];
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
	to_reduced(res->phase, sums, maxes, mins);
	ret = cluster_min_f64(first_end, PH_COUNT);
	if (!ret)
		ret = cluster_min_f64(span, 2 * PH_COUNT);
	if (!ret)
		ret = cluster_min_f64(&mins[0][0], PH_COUNT * MINS);
	if (!ret)
		ret = cluster_max_u64(&maxes[0][0], PH_COUNT * MAXES);
	if (!ret)
		ret = cluster_sum_u64(&sums[0][0], &sums_all[0][0], PH_COUNT * SUMS);
	/* rank 0's limit for all: every rank gathers the details or none does */
	if (!ret)
		ret = cluster_bcast(&limit, sizeof(limit));
	if (ret)
		return ret;
	detail = n <= limit;
	for (int i = 0; i < PH_COUNT; i++)
		to_record(&res->phase[i], offset_s, first_end[i] + offset_s, &mine[i], &det[i]);
	if (root) {
		c = calloc(1, sizeof(*c));
		if (!c)
			ret = -ENOMEM;
		else
			c->ranks = n;
	}
	{
		int r = gather_ranks(c, offset_s, root && c);

		if (r && !ret)
			ret = r;
	}
	for (int i = 0; i < PH_COUNT; i++) {
		static const struct histogram empty;
		const struct histogram *h = res->phase[i].hist ? res->phase[i].hist : &empty;
		struct series *series = NULL;
		struct cluster_phase *cp = c ? &c->phase[i] : NULL;
		int r = 0;

		/* every rank takes part in every collective, whether it ran the phase or not */
		if (span[i] < HUGE_VAL)
			r = gather_phase(cp, n, root && cp, detail, &mine[i], &det[i]);
		if (r && !ret)
			ret = r;
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
			if (cp && !res->phase[i].ran) {
				/* only the phases rank 0 ran are reported, as before */
				free(cp->rank);
				free(cp->detail);
				cp->rank = NULL;
				cp->detail = NULL;
			}
			continue;
		}
		r = aggregate_phase(cp->rank, n, &cp->agg);
		if (!r && !detail)
			r = ranks_summarise(cp->rank, n, &cp->summary);
		if (r) {
			series_free(series);
			ret = r;
		} else {
			apply(&res->phase[i], cp, sums_all[i], maxes[i], mins[i], &sum, series);
		}
	}
	if (!root)
		return ret;
	if (ret) {
		struct run_result tmp = { .cluster = c };

		run_result_release(&tmp);
		return ret;
	}
	res->cluster = c;
	c->detail_max = limit;
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
