/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef CLYDE_CLUSTER_RESULT_H
#define CLYDE_CLUSTER_RESULT_H

#include "core/result.h"

/*
 * Under mpirun: every rank's result of one run combined on rank 0
 * (aggregate.h), in place of rank 0's own figures: the phases' first
 * start to last end, amounts and CPU summed, latency from the ranks'
 * merged histograms, concurrency ranks x -c; every rank's own part kept
 * in res->cluster. offset_s is this rank's clock minus rank 0's.
 * Collective; 0 or -errno.
 */
int cluster_combine(struct run_result *res, double offset_s);

/*
 * One phase's time series of every rank, merged on rank 0's clock onto a
 * grid from first_start to last_end (the aggregate's, rank 0's seconds):
 * the widest rank's interval, doubled until the rows fit (a fixed
 * --interval: until they fit SERIES_MAX_BYTES, capped); each rank's
 * operations re-binned by their slot's start, its readings by their
 * slot's end; work, operations, sketches, CPU and the sampler's CPU
 * summed, the slowest operation the slowest; the machine-wide gauges
 * rank 0's where it read in that interval, else the largest of the other
 * ranks'; the test file's and the device's columns rank 0's alone.
 * *out: the merged series on rank 0, NULL elsewhere and when any rank
 * that ran the phase kept none. Collective: every rank calls it for
 * every phase. 0 or -errno (-ENOMEM on any rank: no series).
 */
int cluster_series(const struct phase_result *pr, double offset_s, double first_start,
		   double last_end, struct series **out);

/* A phase's span from first start to last end in whole nanoseconds: its elapsed and series' end. */
uint64_t cluster_span_ns(double first_start, double last_end);

#endif
