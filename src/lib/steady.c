// SPDX-License-Identifier: BSD-2-Clause
/* --steady's grammar and its decision (see steady.h). */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/steady.h"

static int fail(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

/* A number of [lo, hi] up to the next ':' (or the end); *s moves past it. */
static int field(const char **s, double lo, double hi, bool pct, double *v)
{
	char *end;

	if (!**s || **s == ':')
		return -EINVAL;
	errno = 0;
	*v = strtod(*s, &end);
	if (end == *s || errno || !isfinite(*v))
		return -EINVAL;
	if (pct && *end == '%')
		end++;
	if (*end && *end != ':')
		return -EINVAL;
	*s = *end ? end + 1 : end;
	return *v >= lo && *v <= hi ? 0 : -ERANGE;
}

int steady_parse(struct steady_spec *sp, const char *arg, char *err, size_t errlen)
{
	static const struct {
		const char *name;
		enum steady_metric metric;
		bool slope;
	} metrics[] = {
		{ "rate", STEADY_RATE, false },
		{ "p99", STEADY_P99, false },
		{ "rate_slope", STEADY_RATE, true },
		{ "p99_slope", STEADY_P99, true },
	};
	const char *colon = strchr(arg, ':'), *s;
	size_t len = colon ? (size_t)(colon - arg) : strlen(arg);
	struct steady_spec n = { .on = true };
	bool found = false;
	int ret;

	for (size_t i = 0; i < sizeof(metrics) / sizeof(metrics[0]); i++) {
		if (strlen(metrics[i].name) == len && !strncmp(arg, metrics[i].name, len)) {
			n.metric = metrics[i].metric;
			n.slope = metrics[i].slope;
			found = true;
		}
	}
	if (!found)
		return fail(err, errlen, "--steady=%s: the metric '%.*s' is not rate, p99, "
			    "rate_slope or p99_slope", arg, (int)len, arg);
	if (!colon)
		return fail(err, errlen, "--steady=%s: METRIC:PCT:SECONDS[:MAX] wanted: PCT and "
			    "SECONDS are missing", arg);
	s = colon + 1;
	ret = field(&s, STEADY_MIN_PCT, STEADY_MAX_PCT, true, &n.pct);
	if (ret)
		return fail(err, errlen, "--steady=%s: PCT %s a percentage from %g to %g", arg,
			    ret == -ERANGE ? "is not" : "is missing or not", STEADY_MIN_PCT,
			    STEADY_MAX_PCT);
	ret = field(&s, STEADY_MIN_WINDOW_S, STEADY_MAX_WINDOW_S, false, &n.window_s);
	if (ret)
		return fail(err, errlen, "--steady=%s: SECONDS %s a number of seconds from %g to %g",
			    arg, ret == -ERANGE ? "is not" : "is missing or not", STEADY_MIN_WINDOW_S,
			    STEADY_MAX_WINDOW_S);
	if (*s || s[-1] == ':') {
		ret = field(&s, n.window_s, STEADY_MAX_MAX_S, false, &n.max_s);
		if (ret)
			return fail(err, errlen, "--steady=%s: MAX %s a number of seconds from "
				    "SECONDS (%g) to %g", arg, ret == -ERANGE ? "is not" :
				    "is missing or not", n.window_s, STEADY_MAX_MAX_S);
		if (*s || s[-1] == ':')
			return fail(err, errlen, "--steady=%s: too many fields: "
				    "METRIC:PCT:SECONDS[:MAX] wanted", arg);
	} else {
		n.max_s = n.window_s * STEADY_DEFAULT_WINDOWS;
		if (n.max_s < STEADY_DEFAULT_MIN_MAX_S)
			n.max_s = STEADY_DEFAULT_MIN_MAX_S;
		if (n.max_s > STEADY_MAX_MAX_S)
			n.max_s = STEADY_MAX_MAX_S;
	}
	*sp = n;
	return 0;
}

const char *steady_metric_name(const struct steady_spec *sp)
{
	if (sp->metric == STEADY_P99)
		return sp->slope ? "p99_slope" : "p99";
	return sp->slope ? "rate_slope" : "rate";
}

unsigned steady_window_slots(const struct steady_spec *sp, double width_s)
{
	double n = width_s > 0 ? ceil(sp->window_s / width_s - 1e-9) : 2;

	return n < 2 ? 2 : n > 1e6 ? 1000000u : (unsigned)n;
}

bool steady_check(const struct steady_spec *sp, const double *v, unsigned n, double width_s,
		  double *spread)
{
	double mean = 0, d = 0;

	if (spread)
		*spread = -1;
	if (n < 2)
		return false;
	for (unsigned i = 0; i < n; i++)
		mean += v[i];
	mean /= n;
	if (!(mean > 0))
		return false;
	if (sp->slope) {
		/* x: the intervals' middles, seconds; the least-squares slope of v over x */
		double xm = width_s * n / 2.0, sxy = 0, sxx = 0;

		for (unsigned i = 0; i < n; i++) {
			double x = width_s * (i + 0.5) - xm;

			sxy += x * (v[i] - mean);
			sxx += x * x;
		}
		d = sxx > 0 ? fabs(sxy / sxx) / mean * 100.0 : 0;
	} else {
		for (unsigned i = 0; i < n; i++)
			if (fabs(v[i] - mean) > d)
				d = fabs(v[i] - mean);
		d = d / mean * 100.0;
	}
	if (spread)
		*spread = d;
	return d < sp->pct || (!sp->slope && d <= sp->pct);
}
