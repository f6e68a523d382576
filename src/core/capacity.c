// SPDX-License-Identifier: BSD-2-Clause
/*
 * The grammar of --latency-target and --open-loop, and the small rules
 * every reader of a capacity result shares (core/capacity.h).
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/capacity.h"

static int cap_fail(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int cap_fail(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

void capacity_spec_init(struct capacity_spec *sp)
{
	memset(sp, 0, sizeof(*sp));
	sp->step_s = CAP_STEP_DEFAULT_S;
	sp->time_s = CAP_TIME_DEFAULT_S;
	sp->max_conc = CAP_MAX_CONC_DEFAULT;
	sp->arrivals = CAP_ARRIVALS_FIXED;
}

/* A time with its unit (ns, us, ms, s): seconds, or -1 when it is not one. */
static double parse_time(const char *s)
{
	static const struct {
		const char *unit;
		double scale;
	} units[] = { { "ns", 1e-9 }, { "us", 1e-6 }, { "ms", 1e-3 }, { "s", 1.0 } };
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (end == s || errno || !isfinite(v))
		return -1;
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (!strcmp(end, units[i].unit))
			return v * units[i].scale;
	return -1;
}

int capacity_target_parse(struct capacity_spec *sp, const char *arg, char *err, size_t errlen)
{
	const char *colon = strchr(arg, ':'), *p = arg;
	char pct[32], *end;
	double v, t;

	if (!colon || (size_t)(colon - arg) >= sizeof(pct))
		return cap_fail(err, errlen, "--latency-target: '%s' is not PCT:TIME (such as "
				"p99:5ms)", arg);
	if (*p == 'p' || *p == 'P')
		p++;
	memcpy(pct, p, (size_t)(colon - p));
	pct[colon - p] = '\0';
	errno = 0;
	v = strtod(pct, &end);
	if (!pct[0] || *end || errno || !(v > 0) || !(v < 100))
		return cap_fail(err, errlen, "--latency-target: the percentile '%.*s' is not a "
				"number between 0 and 100 (exclusive), such as p99 or 99.9",
				(int)(colon - arg), arg);
	t = parse_time(colon + 1);
	if (!(t > 0))
		return cap_fail(err, errlen, "--latency-target: the time '%s' is not a time above "
				"0 with its unit (ns, us, ms or s), such as 5ms", colon + 1);
	if (t > 3600)
		return cap_fail(err, errlen, "--latency-target: the time '%s' is over an hour",
				colon + 1);
	sp->target_on = true;
	sp->target_pct = v;
	sp->target_s = t;
	return 0;
}

int capacity_rates_parse(struct capacity_spec *sp, const char *arg, char *err, size_t errlen)
{
	const char *p = arg;

	sp->nrates = 0;
	sp->sweep = false;
	if (!strcmp(arg, "sweep")) {
		sp->open_on = true;
		sp->sweep = true;
		return 0;
	}
	for (;;) {
		char *end;
		double v;

		if (sp->nrates == CAP_MAX_RATES)
			return cap_fail(err, errlen, "--open-loop: at most %u rates", CAP_MAX_RATES);
		errno = 0;
		v = strtod(p, &end);
		if (end == p || errno || (*end && *end != ',') || !isfinite(v) || !(v > 0))
			return cap_fail(err, errlen, "--open-loop: '%s' is not 'sweep' or a list of "
					"rates above 0 (operations a second, such as 100,200,400)",
					arg);
		if (v > CAP_RATE_MAX)
			return cap_fail(err, errlen, "--open-loop: %g a second is more than clyde can "
					"schedule (at most %g: a request a microsecond; a thread's "
					"wake-up takes longer than that)", v, CAP_RATE_MAX);
		sp->rates[sp->nrates++] = v;
		if (!*end)
			break;
		p = end + 1;
	}
	sp->open_on = true;
	return 0;
}

bool capacity_phase_measurable(enum phase_id id)
{
	static const enum phase_id measurable[] = {
		PH_SEEKS, PH_SEQ_CREATE, PH_SEQ_STAT, PH_SEQ_DEL, PH_RAN_CREATE, PH_RAN_STAT,
		PH_RAN_DEL,
	};

	for (size_t i = 0; i < sizeof(measurable) / sizeof(measurable[0]); i++)
		if (measurable[i] == id)
			return true;
	return false;
}

bool capacity_asked(const struct capacity_spec *sp)
{
	return sp->target_on || sp->open_on;
}

uint64_t capacity_min_samples(double pct)
{
	double n = CAP_TAIL_SAMPLES / (1.0 - pct / 100.0), whole = round(n);

	/*
	 * 1 - 99.9 / 100 is not 0.001 in binary: the quotient comes out a few
	 * parts in 1e13 above 20000, which ceil would make 20001. A quotient
	 * that near a whole number is that number.
	 */
	if (fabs(n - whole) <= 1e-9 * n)
		return (uint64_t)whole;
	return (uint64_t)ceil(n);
}

unsigned capacity_inflight(const struct capacity_spec *sp, double rate)
{
	double n = ceil(rate * CAP_INFLIGHT_LATENCY_S);

	if (sp->inflight)
		return sp->inflight;
	if (n < CAP_INFLIGHT_AUTO_MIN)
		return CAP_INFLIGHT_AUTO_MIN;
	if (n > CAP_INFLIGHT_AUTO_MAX)
		return CAP_INFLIGHT_AUTO_MAX;
	return (unsigned)n;
}

unsigned capacity_search_next(unsigned *lo, unsigned *hi, unsigned conc, bool within,
			      unsigned max)
{
	if (within)
		*lo = conc;
	else
		*hi = conc;
	if (!*hi && conc >= max)
		return 0;
	if (!*hi)
		return conc * 2 > max ? max : conc * 2;
	if (*hi - *lo > 1)
		return *lo + (*hi - *lo) / 2;
	return 0;
}

const char *capacity_arrivals_name(enum cap_arrivals a)
{
	return a == CAP_ARRIVALS_POISSON ? "poisson" : "fixed";
}

bool capacity_step_kept_up(const struct cap_open_step *st)
{
	return st->achieved >= CAP_KNEE_SHARE * st->offered;
}
