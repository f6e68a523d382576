/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef CLYDE_AGGREGATE_H
#define CLYDE_AGGREGATE_H

/*
 * One figure for many clients: each rank's
 * part of a phase, its clock aligned to rank 0's, combined as IOR and
 * elbencho do: the aggregate rate over first start to last end, and
 * beside it the stonewall view at the moment the first rank finished.
 * Pure functions: the ranks' records in, the aggregate out.
 */

#include <stdbool.h>
#include <stddef.h>

#include "lib/histogram.h"
#include "lib/timeline.h"

struct rank_phase {
	bool ran;
	double t_start;		/* rank 0's CLOCK_MONOTONIC seconds */
	double t_end;
	double amount;		/* KiB, seeks or files */
	/* Work done when the first rank finished; negative: not recorded. */
	double amount_at_first_end;
	double cpu_user;	/* seconds, the rank's process */
	double cpu_sys;
	double at_deadline;	/* --stonewall: amount done at the limit; -1 not reached */
};

struct aggregate {
	unsigned ranks;		/* that ran the phase */
	double first_start;
	double last_start;
	double first_end;
	double last_end;
	double amount;		/* all ranks */
	double rate;		/* amount / (last_end - first_start) */
	/* Work done by all ranks when the first finished, over first start to that moment. */
	bool stonewall_known;
	double stonewall_amount;
	double stonewall_rate;
	/* The sum of each rank's own rate: what adding up per-client figures gives. */
	double sum_of_rates;
	double cpu_user;	/* summed */
	double cpu_sys;
};

/*
 * Combine n ranks' parts. 0, or -EINVAL when no rank ran the phase or a
 * record is inconsistent (an end before its start).
 */
int aggregate_phase(const struct rank_phase *r, unsigned n, struct aggregate *out);

/*
 * Clock alignment: a rank's times plus offset_s are in rank 0's clock
 * (offset = rank 0's clock minus the rank's, read at one barrier).
 */
void rank_phase_align(struct rank_phase *r, double offset_s);

/*
 * A rank's work done by when_s (its own CLOCK_MONOTONIC seconds), from
 * its completions over time: all of amount once it had ended (t_end_s),
 * else amount in the share of its operations done by then; -1 when no
 * operation was timed to tell.
 */
double rank_amount_by(const struct timeline *done, double amount, double t_end_s, double when_s);

/* Five points of a distribution: quartiles linear between order statistics (numpy's default). */
struct spread {
	double min;
	double q1;
	double median;
	double q3;
	double max;
};

/* The slowest ranks named in a summary. */
#define SUMMARY_SLOWEST 5

/*
 * Many ranks' parts of a phase in a few figures, in place of one record
 * per rank: the spread of their rates (amount over own elapsed), amounts
 * and elapsed times, and the slowest ranks by rate (ties: lower rank
 * first). Only ranks that ran count.
 */
struct ranks_summary {
	unsigned ranks;		/* that ran the phase */
	struct spread rate;
	struct spread amount;
	struct spread elapsed;
	unsigned slowest_n;
	struct {
		unsigned rank;
		double rate;
	} slowest[SUMMARY_SLOWEST];
};

/* A rank's own rate: amount over its own elapsed, 0 when it took no time. */
double rank_phase_rate(const struct rank_phase *r);

/* The spread of n values (sorted in place); all zero when n is 0. */
void spread_of(double *v, size_t n, struct spread *out);

/* Summarise n ranks' parts. 0, -EINVAL when none ran, or -ENOMEM. */
int ranks_summarise(const struct rank_phase *r, unsigned n, struct ranks_summary *out);

/* The percentile q (0..1) of the ranks' merged histograms, in seconds: never an average of percentiles. */
double aggregate_quantile(const struct histogram *merged, double q);

#endif
