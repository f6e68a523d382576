/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef CLYDE_STEADY_WATCH_H
#define CLYDE_STEADY_WATCH_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "lib/series.h"
#include "lib/steady.h"

/*
 * --steady in a running phase: every thread that records operations (a
 * worker of the block phases, a seeker) publishes its finished intervals
 * into one series of the phase's threads added together, when its own
 * series moves past an interval (so at most once an interval, never per
 * operation); whichever thread completes an interval of the sum for all
 * of them decides on it (lib/steady.h). The phase stops at the first
 * interval's end where every thread has done its planned work and the
 * window that ends there has settled, or once MAX seconds have passed.
 * The sum adds the same slots the JSON's series adds, so the steady
 * window's work is the work of the JSON's rows of that window.
 */
enum steady_end {
	STEADY_END_NONE,	/* the phase ended before a decision (a failure) */
	STEADY_END_SETTLED,
	STEADY_END_MAX_TIME,	/* MAX seconds passed first */
	STEADY_END_MAX_SIZE,	/* the block write reached the largest file the plan allows */
};

/* One thread's part: where it has published up to. */
struct steady_cursor {
	uint64_t pub_ns;	/* from the origin: its intervals before this are in the sum */
	uint64_t next_abs;	/* publish again when its series' interval starts at or past this */
	bool floor_done;	/* its planned work is done */
	bool gone;		/* it records nothing more */
	bool joined;
};

struct steady_watch {
	struct steady_spec spec;
	pthread_mutex_t lock;
	struct series *sum;
	struct steady_cursor *cur;	/* the threads' cursors, the watch's own */
	unsigned ncur, capcur;
	unsigned expected;	/* threads that will join */
	uint64_t checked;	/* the sum's intervals decided on so far (ends, ns from origin) */
	double *vals;
	unsigned nvals;
	atomic_bool stop;
	/* the decision, once stop is set */
	enum steady_end end;
	bool settled;
	bool size_capped;	/* a thread stopped at the largest file */
	uint64_t at_ns;		/* the window's end, from the phase's start */
	uint64_t window_ns;
	uint64_t work;		/* the window's, in the series' unit */
	uint64_t ops;
	uint64_t p99_ns;	/* the window's p99 (0: no operation) */
	double spread;		/* what the last check measured, percent; -1 none */
	unsigned checks;
	/* the rewrite's and the read's passes after the first, all threads' */
	atomic_uint start_overs;
	atomic_uint evictions;	/* the file's pages dropped at a start-over */
	atomic_int evict_err;	/* the first failed drop's -errno; 0 none */
};

/* For a phase of `threads` recording threads; 0 or -ENOMEM. */
int steady_watch_init(struct steady_watch *sw, const struct steady_spec *spec, unsigned threads,
		      uint64_t fixed_ns);
void steady_watch_destroy(struct steady_watch *sw);

/*
 * A thread joins once it is ready to start: its cursor, the watch's own
 * (NULL when sw is NULL, or all have joined).
 */
struct steady_cursor *steady_join(struct steady_watch *sw);
/* Its planned work is done: from now on only the watch stops it. */
void steady_floor_done(struct steady_watch *sw, struct steady_cursor *c);
/* It records nothing more; max_size: because the file can grow no more. */
void steady_leave(struct steady_watch *sw, struct steady_cursor *c, const struct series *s,
		  bool max_size);

/* A start-over's drop of the file's pages returned ret (0 or -errno). */
void steady_evicted(struct steady_watch *sw, int ret);
/* The thread's rewrite or read started over n times. */
void steady_started_over(struct steady_watch *sw, uint64_t n);

void steady_publish(struct steady_watch *sw, struct steady_cursor *c, const struct series *s);

/* At each operation: cheap unless the thread's series has moved past an interval. */
static inline void steady_tick(struct steady_watch *sw, struct steady_cursor *c,
			       const struct series *s)
{
	if (c && s && s->hot_start >= c->next_abs && s->hot_start != UINT64_MAX - s->width_ns)
		steady_publish(sw, c, s);
}

static inline bool steady_stopped(struct steady_watch *sw)
{
	return sw && atomic_load_explicit(&sw->stop, memory_order_relaxed);
}

#endif
