/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef CLYDE_PHASE_CLOCK_H
#define CLYDE_PHASE_CLOCK_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "lib/timing.h"
#include "phases/bench.h"
#include "profile/profile.h"

struct series_sampler;

/* One phase's shared start line and finish line (see sample_start). */
struct phase_clock {
	pthread_mutex_t lock;
	pthread_cond_t go;
	unsigned workers;
	unsigned started;
	unsigned stopped;
	bool open;
	uint64_t t0;		/* the timed part began */
	uint64_t t1;		/* the last worker stopped */
	struct cpu_sample cpu0;
	struct cpu_sample cpu1;
	/* --profile's snapshots, just outside the timed part; unused without. */
	struct prof_sampler *profiler;
	struct prof_snapshot prof0;
	struct prof_snapshot prof1;
	/* The machine's side of the series, read at the intervals' ends; NULL without. */
	struct series_sampler *sampler;
};

void phase_clock_init(struct phase_clock *c, unsigned workers, struct prof_sampler *profiler);
void phase_clock_destroy(struct phase_clock *c);
/* Whatever the phase left undone: start and stop, so no worker waits. */
void sample_settle(struct worker *w, struct phase_sample *s);

#endif
