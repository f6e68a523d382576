/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef CLYDE_CAPACITY_H
#define CLYDE_CAPACITY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/clyde.h"

/*
 * Capacity under a latency bound (--latency-target) and open-loop load
 * (--open-loop): what was asked, and what one phase measured. The
 * machinery is phases/capacity.c; this is the model every output reads.
 */

#define CAP_MAX_RATES		32
#define CAP_MAX_SEARCH_STEPS	24
#define CAP_MAX_OPEN_STEPS	64

/* Defaults and limits, named in the messages and in clyde(1). */
#define CAP_STEP_DEFAULT_S	2.0
#define CAP_STEP_MIN_S		0.1
#define CAP_STEP_MAX_S		3600.0
#define CAP_TIME_DEFAULT_S	120.0
#define CAP_MAX_CONC_DEFAULT	64u
#define CAP_MAX_CONC_LIMIT	1024u
#define CAP_INFLIGHT_LIMIT	1024u
#define CAP_INFLIGHT_AUTO_MAX	256u
#define CAP_INFLIGHT_AUTO_MIN	4u
/* rate x this: the worst latency the slots are sized for when not given */
#define CAP_INFLIGHT_LATENCY_S	0.1
/*
 * The fastest schedule clyde offers: a request every microsecond. A
 * thread's wake-up from nanosleep takes tens of microseconds here,
 * so a faster one would be the scheduler's figure, not the filesystem's.
 */
#define CAP_RATE_MAX		1e6
/* A request sent this much after its time found no free slot: the shortfall. */
#define CAP_LATE_NS		1000000ull
/* The knee: achieved below this share of offered. */
#define CAP_KNEE_SHARE		0.95
/* The sweep: from the unbounded rate over this, times CAP_SWEEP_GROWTH a step. */
#define CAP_SWEEP_START_DIV	8.0
#define CAP_SWEEP_GROWTH	1.25
/* Samples at or above the percentile a search window holds at least. */
#define CAP_TAIL_SAMPLES	20.0
/* A window lasts at most this many --capacity-step's. */
#define CAP_WINDOW_MAX_STEPS	10.0
/* The concurrency whose rate is within this share of the best is the knee's. */
#define CAP_RATE_TIE_SHARE	0.95

enum cap_arrivals {
	CAP_ARRIVALS_FIXED,	/* one request every 1/rate seconds */
	CAP_ARRIVALS_POISSON,	/* exponential gaps of mean 1/rate, from the seed */
};

struct capacity_spec {
	bool target_on;			/* --latency-target */
	double target_pct;		/* PCT as given: 99.9 */
	double target_s;		/* TIME */
	bool open_on;			/* --open-loop */
	bool sweep;			/* --open-loop=sweep */
	unsigned nrates;
	double rates[CAP_MAX_RATES];	/* the rates given, per second */
	enum cap_arrivals arrivals;	/* --arrivals */
	double step_s;			/* --capacity-step */
	double time_s;			/* --capacity-time: a sweep's most seconds a phase */
	unsigned max_conc;		/* --capacity-max */
	unsigned inflight;		/* --open-loop-inflight; 0: rate x CAP_INFLIGHT_LATENCY_S */
	bool phases_given;		/* --capacity-phases */
	bool phase[PH_COUNT];
	const char *log_path;		/* --open-loop-log */
};

/* One window of the search: c threads, closed loop. */
struct cap_search_step {
	unsigned conc;
	double rate;		/* operations per second */
	double latency_s;	/* at the target's percentile */
	double seconds;
	uint64_t samples;
	bool within;
	bool few;		/* it ended before holding the samples it should */
};

/* One open-loop step at an offered rate. */
struct cap_open_step {
	double offered;
	double achieved;
	double seconds;		/* the step's first scheduled time to its last completion */
	unsigned inflight;	/* its slots */
	uint64_t scheduled;
	uint64_t completed;
	uint64_t sent_late;	/* sent CAP_LATE_NS or more after their time */
	uint64_t unsent;	/* never sent: the step's time ran out */
	uint64_t errors;
	/* from the scheduled time (unsent ones: at least to the step's end) */
	double p50_s, p99_s, p999_s, max_s;
	/* from the time sent: what a closed loop would have counted */
	double service_p50_s, service_p99_s, service_p999_s, service_max_s;
};

struct capacity_result {
	bool searched;
	double pct;
	double target_s;
	uint64_t min_samples;
	double unbounded_rate;
	bool met;
	double rate;
	unsigned conc;
	bool by_depth;		/* concurrency is one thread's io_uring depth, not threads */
	unsigned nsearch;
	struct cap_search_step search[CAP_MAX_SEARCH_STEPS];

	bool open;
	enum cap_arrivals arrivals;
	bool sweep;
	unsigned inflight;	/* the most slots of any step */
	bool saturated;		/* some step fell below CAP_KNEE_SHARE */
	double knee;		/* the first such step's offered rate */
	bool timed_out;		/* a sweep that reached --capacity-time unsaturated */
	unsigned nopen;
	struct cap_open_step steps[CAP_MAX_OPEN_STEPS];
	char note[192];		/* what cut it short, for the outputs; "" none */
};

/* An unset spec: the defaults of the options that tune it. */
void capacity_spec_init(struct capacity_spec *sp);
/* --latency-target=PCT:TIME: 0, or -EINVAL with err saying why. */
int capacity_target_parse(struct capacity_spec *sp, const char *arg, char *err, size_t errlen);
/* --open-loop=RATE[,RATE...]|sweep: 0, or -EINVAL with err saying why. */
int capacity_rates_parse(struct capacity_spec *sp, const char *arg, char *err, size_t errlen);
/*
 * Whether --latency-target and --open-loop can measure the phase: those
 * phases/capacity_ops.c has a row for (the option parser asks here, so
 * that it links no phase).
 */
bool capacity_phase_measurable(enum phase_id id);
/* Whether either was asked. */
bool capacity_asked(const struct capacity_spec *sp);

/*
 * The samples a window at percentile pct holds at least: CAP_TAIL_SAMPLES
 * at or above it, so that the percentile is a sample the window saw many
 * of rather than its largest few (p99: 2000, p99.9: 20000).
 */
uint64_t capacity_min_samples(double pct);
/* An open-loop step's slots at rate: --open-loop-inflight, else rate x 100 ms in [4, 256]. */
unsigned capacity_inflight(const struct capacity_spec *sp, double rate);
/*
 * The search's concurrency after a window at conc, within the target or
 * not: 1, 2, 4 ... (at most max) while within, then halving the gap
 * between the highest within (*lo, 0: none) and the lowest beyond (*hi,
 * 0: none yet), both updated here. 0: the search is done.
 */
unsigned capacity_search_next(unsigned *lo, unsigned *hi, unsigned conc, bool within,
			      unsigned max);
/* "fixed", "poisson" */
const char *capacity_arrivals_name(enum cap_arrivals a);
/* Whether the step kept up: achieved at least CAP_KNEE_SHARE of offered. */
bool capacity_step_kept_up(const struct cap_open_step *st);

#endif
