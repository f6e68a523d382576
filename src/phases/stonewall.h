/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef CLYDE_STONEWALL_H
#define CLYDE_STONEWALL_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

/*
 * --stonewall=SECONDS: a time limit on the sequential phases, worn out as
 * IOR's stoneWallingWearOut does. When the limit strikes, each worker
 * stops before its next unit (chunk) and waits; once every worker of
 * this process has stopped or ended, the main thread learns the most
 * units any worker of any rank had done (cluster_max_u64) and every
 * worker goes on until it has done that many. So all files end the same
 * size and every rank does the same work; the phase's time includes the
 * wear-out, and what was done at the limit is reported beside it.
 */
struct stonewall {
	double seconds;
	unsigned workers;	/* of this process */
	pthread_mutex_t lock;
	pthread_cond_t cond;
	unsigned waiting;	/* stopped at the limit */
	unsigned finished;	/* their phase function returned */
	uint64_t most;		/* units done, the most of any stopped worker */
	bool all;		/* a worker ended before the limit: everyone does everything */
	atomic_bool decided;
	uint64_t target;	/* units every worker does, once decided */
};

void stonewall_init(struct stonewall *sw, double seconds, unsigned workers);
void stonewall_destroy(struct stonewall *sw);

/*
 * Called by a worker before each unit, with the units done so far and
 * its phase's start: true when it must do no more. Waits at the limit
 * until stonewall_decide has run. The first unit is always done.
 */
bool stonewall_stop(struct stonewall *sw, uint64_t start_ns, uint64_t done);

/* A worker's phase function returned (done, cut or failed). */
void stonewall_worker_done(struct stonewall *sw);

/*
 * The main thread: wait until every worker has stopped at the limit or
 * ended, agree on the target with the other ranks, and let the workers
 * go on. Collective under mpirun; 0 or -errno (the workers then do all).
 */
int stonewall_decide(struct stonewall *sw);

#endif
