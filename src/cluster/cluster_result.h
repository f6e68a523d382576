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

#endif
