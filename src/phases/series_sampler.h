/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef CLYDE_SERIES_SAMPLER_H
#define CLYDE_SERIES_SAMPLER_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>

#include "lib/series.h"
#include "lib/timing.h"
#include "phases/bench.h"
#include "profile/profile.h"
#include "sys/dirty.h"
#include "core/modes.h"

struct phase_clock;

/*
 * The machine's side of a phase's series: one thread per phase that wakes
 * at each interval's end and reads the process's CPU, the dirty page
 * cache, the test files' dirty pages and the device's bytes once.
 *
 * A thread rather than reads inline at the boundaries: inline, the read
 * would fall to whichever worker completes the first operation after a
 * boundary, inside its timed loop, and an interval in which nothing
 * completes (a write-back stall, the moment the series exists to show)
 * would have no reading at all. The thread sleeps between readings; its
 * CPU is in the process's (getrusage) and the JSON says how much it was.
 */
struct series_sampler {
	pthread_t thread;
	bool started;
	atomic_bool stop;
	pthread_mutex_t lock;
	pthread_cond_t wake;
	struct phase_clock *clock;
	uint64_t fixed_ns;		/* 0: adaptive */
	struct series *machine;		/* what it read; NULL when it could not start */
	struct sys_dirty_reader dirty;
	bool dirty_ok;
	int *fds;			/* the phase's test files, one per worker; -1 not open */
	unsigned nfds;
	char (*paths)[WORKPATH_MAX];
	bool file_ok;
	const struct prof_devices *devs;	/* --profile's; NULL without */
	struct prof_dev_counters dev_prev;
	bool dev_ok;
	struct cpu_sample cpu_prev;
	double cpu_s;			/* the thread's CPU */
	uint64_t t0;			/* the clock's start, once open */
	int64_t last_dirty_kib;		/* the last reading's; -1 not measured */
	/* --live: the workers' running totals, what was shown last */
	enum live_mode live;
	bool tty;
	const struct phase_def *d;
	struct series_live *counters;
	unsigned ncounters;
	uint64_t total_ops;		/* planned, for the percent; 0 unknown */
	uint64_t shown_t;
	uint64_t shown_work;
	uint32_t shown_sketch[SERIES_BUCKETS];
	int shown_len;
};

/*
 * Start the sampler of phase d (nothing with --interval=off); it waits for
 * the clock to open. With --live it also shows the phase at each reading
 * from b->live's counters; total_ops: the operations planned, for the
 * percent. 0 or -errno (then the phase has no machine columns).
 */
int series_sampler_start(struct series_sampler *ss, const struct bench *b,
			 const struct worker *workers, const struct phase_def *d,
			 struct phase_clock *clock, uint64_t total_ops);
/*
 * Stop it after the workers' end: the last interval's reading is taken
 * at the clock's close (its CPU: the clock's own end sample). Returns the
 * machine series (the caller frees it), NULL when there is none.
 */
struct series *series_sampler_stop(struct series_sampler *ss);

#endif
