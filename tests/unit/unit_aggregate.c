// SPDX-License-Identifier: BSD-2-Clause
/* The aggregate of many ranks' parts of a phase: rates, stonewall, merged percentiles. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <string.h>

#include "lib/aggregate.h"
#include "unit.h"

#define NEAR(a, b) (fabs((double)(a) - (double)(b)) < 1e-9 * (1 + fabs((double)(b))))

int main(void)
{
	/* Four ranks writing 1000 KiB each, starting 0.1 s apart, 2 s each. */
	struct rank_phase r[4];
	struct aggregate a;

	for (int i = 0; i < 4; i++)
		r[i] = (struct rank_phase){ .ran = true, .t_start = 10 + 0.1 * i, .t_end = 12 + 0.1 * i,
					    .amount = 1000, .amount_at_first_end = 1000 - 50.0 * i,
					    .cpu_user = 0.5, .cpu_sys = 1.0 };
	CHECK(aggregate_phase(r, 4, &a) == 0, "four ranks");
	CHECK(a.ranks == 4 && NEAR(a.amount, 4000), "amount %g", a.amount);
	CHECK(NEAR(a.first_start, 10) && NEAR(a.last_start, 10.3), "starts");
	CHECK(NEAR(a.first_end, 12) && NEAR(a.last_end, 12.3), "ends");
	CHECK(NEAR(a.rate, 4000 / 2.3), "first start to last end: %g", a.rate);
	CHECK(NEAR(a.sum_of_rates, 2000), "sum of the ranks' rates: %g", a.sum_of_rates);
	CHECK(a.stonewall_known && NEAR(a.stonewall_amount, 3700) && NEAR(a.stonewall_rate, 3700 / 2.0),
	      "stonewall %g %g", a.stonewall_amount, a.stonewall_rate);
	CHECK(NEAR(a.cpu_user, 2) && NEAR(a.cpu_sys, 4), "CPU summed");

	/* Ranks that did not overlap: the sum of rates overstates the whole. */
	r[1].t_start = 12;
	r[1].t_end = 14;
	CHECK(aggregate_phase(r, 2, &a) == 0 && NEAR(a.rate, 2000 / 4.0) && NEAR(a.sum_of_rates, 1000),
	      "serial ranks: rate %g, sum %g", a.rate, a.sum_of_rates);

	/* A rank that did not record its stonewall amount: no stonewall figure. */
	r[1].amount_at_first_end = -1;
	CHECK(aggregate_phase(r, 2, &a) == 0 && !a.stonewall_known && a.stonewall_rate == 0, "unknown");

	/* Clock alignment moves a rank onto rank 0's clock. */
	r[2].t_start = 100;
	r[2].t_end = 102;
	rank_phase_align(&r[2], -89.9);
	CHECK(NEAR(r[2].t_start, 10.1) && NEAR(r[2].t_end, 12.1), "aligned %g %g", r[2].t_start, r[2].t_end);

	/* Bad records and nothing to aggregate. */
	r[0].t_end = 9;
	CHECK(aggregate_phase(r, 1, &a) == -EINVAL, "end before start");
	r[0].ran = false;
	CHECK(aggregate_phase(r, 1, &a) == -EINVAL, "no rank ran");

	/*
	 * Percentiles come from the merged histogram: rank A's 1000 fast
	 * operations and rank B's 10 slow ones. The merged p99 is the fast
	 * one (1010 operations, 10 slow: the slow begin above p99); an
	 * average of the two ranks' p99s would say about half the slow time.
	 */
	{
		static struct histogram ha, hb, m;

		for (int i = 0; i < 1000; i++)
			hist_record(&ha, 1000);
		for (int i = 0; i < 10; i++)
			hist_record(&hb, 1000000);
		hist_merge(&m, &ha);
		hist_merge(&m, &hb);
		double merged = aggregate_quantile(&m, 0.99);
		double averaged = (aggregate_quantile(&ha, 0.99) + aggregate_quantile(&hb, 0.99)) / 2;

		CHECK(merged < 2e-6, "merged p99 %g s", merged);
		CHECK(averaged > 4e-4, "the average of percentiles would be %g s", averaged);
		CHECK(aggregate_quantile(&m, 0.999) > 9e-4, "p99.9 reaches the slow ones");
	}
	/*
	 * A rank's work by a moment: 100 operations evenly over 10 s to 20 s,
	 * 400 KiB in all; by 15 s about half, after its end all, before its
	 * start nothing, without a record unknown.
	 */
	{
		static struct timeline t;

		for (int i = 0; i < 100; i++)
			timeline_record(&t, 10000000000ull, 10000000000ull + 100000000ull * (uint64_t)i);
		double half = rank_amount_by(&t, 400, 20, 15);

		CHECK(half > 190 && half < 210, "by the middle: %g KiB of 400", half);
		CHECK(rank_amount_by(&t, 400, 20, 20) == 400, "at its end: all");
		CHECK(rank_amount_by(&t, 400, 20, 25) == 400, "after its end: all");
		CHECK(rank_amount_by(&t, 400, 20, 9) == 0, "before its start: none");
		CHECK(rank_amount_by(NULL, 400, 20, 15) == -1, "no record: unknown");
	}
	/*
	 * The summary above the detail limit: nine ranks, rank 3 idle, 1 s
	 * each but rank 8's 4 s. Quartiles linear between order statistics:
	 * amounts 10..80 give 27.5, 45, 62.5; rates 10 10 20 30 50 60 70 80
	 * give 17.5, 40, 62.5; the slowest in rate order, ties by rank.
	 */
	{
		static const double amount[9] = { 50, 10, 80, 999, 30, 70, 20, 60, 40 };
		struct rank_phase s[9];
		struct ranks_summary sum;
		static const unsigned slow[5] = { 1, 8, 6, 4, 0 };
		static const double slow_rate[5] = { 10, 10, 20, 30, 50 };

		for (int i = 0; i < 9; i++)
			s[i] = (struct rank_phase){ .ran = i != 3, .t_start = 5, .t_end = i == 8 ? 9 : 6,
						    .amount = amount[i] };
		CHECK(ranks_summarise(s, 9, &sum) == 0 && sum.ranks == 8, "eight ranks ran: %u",
		      sum.ranks);
		CHECK(NEAR(sum.amount.min, 10) && NEAR(sum.amount.q1, 27.5) &&
		      NEAR(sum.amount.median, 45) && NEAR(sum.amount.q3, 62.5) &&
		      NEAR(sum.amount.max, 80), "amounts %g %g %g %g %g", sum.amount.min,
		      sum.amount.q1, sum.amount.median, sum.amount.q3, sum.amount.max);
		CHECK(NEAR(sum.rate.min, 10) && NEAR(sum.rate.q1, 17.5) && NEAR(sum.rate.median, 40) &&
		      NEAR(sum.rate.q3, 62.5) && NEAR(sum.rate.max, 80), "rates %g %g %g %g %g",
		      sum.rate.min, sum.rate.q1, sum.rate.median, sum.rate.q3, sum.rate.max);
		CHECK(NEAR(sum.elapsed.min, 1) && NEAR(sum.elapsed.q3, 1) && NEAR(sum.elapsed.max, 4),
		      "elapsed %g %g %g", sum.elapsed.min, sum.elapsed.q3, sum.elapsed.max);
		CHECK(sum.slowest_n == 5, "five slowest: %u", sum.slowest_n);
		for (int k = 0; k < 5; k++)
			CHECK(sum.slowest[k].rank == slow[k] && NEAR(sum.slowest[k].rate, slow_rate[k]),
			      "slowest %d: rank %u at %g", k, sum.slowest[k].rank, sum.slowest[k].rate);
		/* two ranks: as many named as ran; one: every point its own */
		CHECK(ranks_summarise(s, 2, &sum) == 0 && sum.slowest_n == 2 &&
		      sum.slowest[0].rank == 1 && sum.slowest[1].rank == 0 &&
		      NEAR(sum.rate.q1, 20) && NEAR(sum.rate.median, 30), "two ranks: q1 %g median %g",
		      sum.rate.q1, sum.rate.median);
		CHECK(ranks_summarise(s + 2, 1, &sum) == 0 && NEAR(sum.rate.min, 80) &&
		      NEAR(sum.rate.q1, 80) && NEAR(sum.rate.max, 80), "one rank");
		CHECK(ranks_summarise(s + 3, 1, &sum) == -EINVAL, "none ran: -EINVAL");
	}
	return unit_verdict("unit_aggregate");
}
