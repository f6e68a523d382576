/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef CLYDE_STEADY_H
#define CLYDE_STEADY_H

#include <stdbool.h>
#include <stddef.h>

/*
 * --steady=METRIC:PCT:SECONDS[:MAX]: when a phase has settled, decided on
 * its time series' intervals (lib/series.h). The window is the last
 * intervals that span SECONDS (at least two of them). METRIC rate or p99:
 * settled when every interval's value in the window is within PCT percent
 * of the window's mean (fio's ss=bw:PCT%); rate_slope or p99_slope:
 * settled when the least-squares slope of the values over the window,
 * as a fraction of their mean per second, is under PCT percent (fio's
 * ss=bw_slope). A window whose mean is not above zero (a stall; a p99
 * of an interval with no operation) never settles.
 */
enum steady_metric {
	STEADY_RATE,
	STEADY_P99,
};

struct steady_spec {
	bool on;
	enum steady_metric metric;
	bool slope;
	double pct;		/* percent */
	double window_s;	/* SECONDS */
	double max_s;		/* MAX, the phase's most seconds */
};

#define STEADY_MIN_PCT		0.001
#define STEADY_MAX_PCT		100.0
#define STEADY_MIN_WINDOW_S	0.2	/* two of the series' shortest intervals */
#define STEADY_MAX_WINDOW_S	3600.0
#define STEADY_MAX_MAX_S	86400.0
/* MAX when not given: this many windows, and at least STEADY_DEFAULT_MIN_MAX_S */
#define STEADY_DEFAULT_WINDOWS	10.0
#define STEADY_DEFAULT_MIN_MAX_S 60.0

/* Parse METRIC:PCT:SECONDS[:MAX]; 0, or -EINVAL with err naming the problem. */
int steady_parse(struct steady_spec *sp, const char *arg, char *err, size_t errlen);

/* The metric's name as --steady takes it: rate, p99, rate_slope, p99_slope. */
const char *steady_metric_name(const struct steady_spec *sp);

/* How many intervals of width_s the window holds: SECONDS' worth, at least two. */
unsigned steady_window_slots(const struct steady_spec *sp, double width_s);

/*
 * The decision over the window's n values (oldest first), each of an
 * interval width_s wide: true when settled. *spread (may be NULL): what
 * was compared with PCT, in percent: the largest distance of a value from
 * the mean, or the slope's size per second, as a percentage of the mean;
 * -1 when the mean is not above zero.
 */
bool steady_check(const struct steady_spec *sp, const double *v, unsigned n, double width_s,
		  double *spread);

#endif
