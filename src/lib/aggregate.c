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
