/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef CLYDE_RUNNER_H
#define CLYDE_RUNNER_H

#include "core/plan.h"
#include "core/result.h"
#include "phases/bench.h"

/*
 * The runner (runner.c): one run's phases in the registry's order, each on
 * every worker at once. What the program calls; the phase functions
 * share bench.h.
 */

/*
 * Run every phase of one run into *res. 0, -EINTR when a signal stopped
 * it, or -errno with b->errmsg saying where.
 */
int bench_run(struct bench *b, struct run_result *res);

/*
 * The worst residency before any read, and what it says of the cache mode;
 * seeks no rotational device reaches (again after the ranks' merge).
 */
void bench_cache_outcome(const struct run_plan *p, struct run_result *res);

#endif
