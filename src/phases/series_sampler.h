/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef CLYDE_SERIES_SAMPLER_H
#define CLYDE_SERIES_SAMPLER_H

#include <pthread.h>
#include <stdbool.h>
#include <sys/types.h>

#include "lib/series.h"
#include "lib/timing.h"
#include "phases/bench.h"
#include "profile/profile.h"
#include "sys/dirty.h"
#include "core/modes.h"

struct phase_clock;
struct stall_reader;
struct steady_watch;

/*
 * The machine's side of a phase's series: at each interval's end the
 * process's CPU, the dirty page cache, the test files' dirty pages and
 * the device's bytes, read once; with --live, the line on stderr.
 *
 * Read inline, by the first worker whose operation completes after an
 * interval's end (series_sampler_tick, a trylock: no worker ever waits for
 * another's reading), not by a thread of its own. A second thread makes
 * every system call of a single-threaded process dearer: Linux's fdget()
 * takes a reference on the file as soon as the file table is shared, and
 * glibc's cancellable calls take their slow path. On this machine a 256-byte
 * pread on a tmpfs went from 250 to 310 ns with an idle thread beside it,
 * and bench/series-cost measured the block phases 6-13% slower with a
 * sampler thread: twenty times the 1% the series may cost. The price: an
 * interval in which nothing completes (a stall) has no reading of its
 * own; its gauges are null and its CPU is in the next reading's interval.
 * The readings' CPU is counted (sampler_cpu_s) and is a part of the
 * process's; the stall reader's (stall_reader.h), a process of its own,
 * is not: it is counted apart (reader_cpu_s).
 */
struct series_sampler {
	pthread_mutex_t lock;
	bool on;			/* the phase records a series */
	bool open;			/* the clock has started: ticks read */
	uint64_t t0;			/* the clock's start */
	uint64_t last_ns;		/* the end of the interval read last */
	uint64_t fixed_ns;		/* 0: adaptive */
	struct series *machine;		/* what was read */
	struct sys_dirty_reader dirty;
	bool dirty_ok;
	int *fds;			/* the phase's test files, one per worker; -1 not open */
	unsigned nfds;
	char (*paths)[WORKPATH_MAX];
	bool file_ok;
	uint64_t file_cost_ns;		/* what reading them took last */
	uint64_t file_rest;		/* readings to take without them before the next */
	const struct prof_devices *devs;	/* --profile's; NULL without */
	struct prof_dev_counters dev_prev;
	bool dev_ok;
	struct cpu_sample cpu_prev;
	double cpu_s;			/* the readings' CPU */
	int64_t last_dirty_kib;		/* the last reading's; -1 not measured */
	/* --live: the workers' running totals, what was shown last */
	enum live_mode live;
	bool tty;
	const struct phase_def *d;
	struct series_live *counters;
	unsigned ncounters;
	uint64_t total_ops;		/* planned, for the percent; 0 unknown */
	struct steady_watch *steady;	/* --steady's: what the line says past 100% */
	uint64_t shown_t;
	uint64_t shown_work;
	uint32_t shown_sketch[SERIES_BUCKETS];
	int shown_len;
	/* the run's stall reader (stall_reader.h); NULL: none */
	struct stall_reader *stall;
	bool stall_on;			/* told this phase's start */
	double reader_cpu_s;		/* its CPU over the phase; -1: it read nothing */
};

/*
 * Ready the machine's side of phase d (nothing with --interval=off); with
 * --live it also shows the phase from b->live's counters; total_ops: the
 * operations planned, for the percent. 0 or -errno (then the phase has
 * no machine columns).
 */
int series_sampler_start(struct series_sampler *ss, const struct bench *b,
			 const struct worker *workers, const struct phase_def *d, uint64_t total_ops);
/* The last worker ready, just before the clock starts: open what is read, the baselines. */
void series_sampler_prepare(struct series_sampler *ss);
/* The clock started at t0 with the process's CPU at cpu0: ticks read from now on. */
void series_sampler_begin(struct series_sampler *ss, uint64_t t0, const struct cpu_sample *cpu0);
/* series_sampler_tick (declared in bench.h, which sample_latency calls it from). */
/*
 * After the workers: the stall reader told the phase ended (its CPU, apart
 * from the phase's, into reader_cpu_s), the last interval's reading at the
 * clock's close (its CPU: that end sample), the reader's gauges into the
 * intervals that lack them, the live line's last at the phase's end,
 * end_ns. Returns the machine series (the caller frees it), NULL when
 * there is none.
 */
struct series *series_sampler_stop(struct series_sampler *ss, struct phase_clock *clock,
				   uint64_t end_ns);

#endif
