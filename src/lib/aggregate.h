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

/* The percentile q (0..1) of the ranks' merged histograms, in seconds: never an average of percentiles. */
double aggregate_quantile(const struct histogram *merged, double q);

#endif
