// SPDX-License-Identifier: BSD-2-Clause
/*
 * One run's result from every rank, combined on rank 0 (see
 * cluster_result.h). Each rank sends a fixed record per phase and sums
 * its histogram's buckets onto rank 0's; rank 0 replaces its phases'
 * figures with the aggregate.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "aggregate.h"
#include "cluster.h"
#include "cluster_result.h"

/* What one rank sends of one phase. */
struct rank_record {
	struct rank_phase p;
	double max_latency;
	uint64_t min_ns;
};

static void to_record(const struct phase_result *pr, double offset_s, struct rank_record *rec)
{
	memset(rec, 0, sizeof(*rec));
	rec->p.ran = pr->ran;
	rec->p.t_start = pr->t_start;
	rec->p.t_end = pr->t_end;
	rank_phase_align(&rec->p, -offset_s);
	rec->p.amount = pr->amount;
	rec->p.amount_at_first_end = -1;	/* TODO: the ops timeline */
	rec->p.cpu_user = pr->cpu_user;
	rec->p.cpu_sys = pr->cpu_sys;
	rec->max_latency = pr->max_latency;
	rec->min_ns = pr->hist ? pr->hist->min : 0;
}

static void apply(struct phase_result *pr, const struct aggregate *a, const struct histogram *h,
		  double max_latency)
{
	pr->t_start = a->first_start;
	pr->t_end = a->last_end;
	pr->elapsed = a->last_end - a->first_start;
	pr->amount = a->amount;
	pr->cpu_user = a->cpu_user;
	pr->cpu_sys = a->cpu_sys;
	pr->max_latency = max_latency;
	pr->latency_count = h->count;
	for (int q = 0; q < LAT_QUANTILES; q++)
		pr->latency_q[q] = aggregate_quantile(h, latency_quantiles[q]);
}

int cluster_combine(struct run_result *res, double offset_s)
{
	int n = cluster_size(), me = cluster_rank(), ret = 0;
	struct rank_record mine[PH_COUNT], *all = NULL;
	static struct histogram sum;

	for (int i = 0; i < PH_COUNT; i++)
		to_record(&res->phase[i], offset_s, &mine[i]);
	if (me == 0) {
		all = calloc((size_t)n, sizeof(mine));
		if (!all)
			return -ENOMEM;
	}
	ret = cluster_gather(mine, sizeof(mine), all);
	for (int i = 0; i < PH_COUNT && !ret; i++) {
		static const struct histogram empty;
		const struct histogram *h = res->phase[i].hist ? res->phase[i].hist : &empty;

		/* every rank takes part in every sum, whether it ran the phase or not */
		ret = cluster_sum_u64(h->bucket, sum.bucket, HIST_BUCKETS);
		if (!ret)
			ret = cluster_sum_u64(&h->count, &sum.count, 1);
		if (ret || me != 0 || !res->phase[i].ran)
			continue;
		{
			struct rank_phase *rp = calloc((size_t)n, sizeof(*rp));
			struct aggregate a;
			double max_latency = 0;
			uint64_t min_ns = UINT64_MAX;

			if (!rp) {
				ret = -ENOMEM;
				break;
			}
			for (int r = 0; r < n; r++) {
				const struct rank_record *rec = &all[(size_t)r * PH_COUNT + i];

				rp[r] = rec->p;
				if (rec->max_latency > max_latency)
					max_latency = rec->max_latency;
				if (rec->p.ran && rec->min_ns < min_ns)
					min_ns = rec->min_ns;
			}
			sum.min = min_ns == UINT64_MAX ? 0 : min_ns;
			sum.max = (uint64_t)(max_latency * 1e9);
			if (!aggregate_phase(rp, (unsigned)n, &a))
				apply(&res->phase[i], &a, &sum, max_latency);
			free(rp);
		}
	}
	if (!ret && me == 0)
		res->params.concurrency *= (unsigned)n;
	free(all);
	return ret;
}
