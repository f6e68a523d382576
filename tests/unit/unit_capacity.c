// SPDX-License-Identifier: BSD-2-Clause
/*
 * --latency-target and --open-loop: their grammar, and the rules every
 * reader of a capacity result shares (core/capacity.c). The expected
 * figures are worked out here from the rules clyde(1) and the interface
 * state, not read off the program.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/capacity.h"
#include "phases/capacity.h"
#include "unit.h"

/* a and b equal but for the last bits of a double */
static int near(double a, double b)
{
	return fabs(a - b) <= 1e-12 * fabs(b);
}

static void target_accepts(const char *arg, double pct, double seconds)
{
	struct capacity_spec sp;
	char err[256] = "";

	capacity_spec_init(&sp);
	CHECK(!capacity_target_parse(&sp, arg, err, sizeof(err)), "%s refused: %s", arg, err);
	CHECK(sp.target_on && near(sp.target_pct, pct) && near(sp.target_s, seconds),
	      "%s: on %d pct %g s %g, want %g %g", arg, sp.target_on, sp.target_pct, sp.target_s,
	      pct, seconds);
}

/* arg refused, the message naming what (part of it) is wrong */
static void target_refuses(const char *arg, const char *why)
{
	struct capacity_spec sp;
	char err[256] = "";
	int ret;

	capacity_spec_init(&sp);
	ret = capacity_target_parse(&sp, arg, err, sizeof(err));
	CHECK(ret == -EINVAL, "%s: got %d, want -EINVAL", arg, ret);
	CHECK(!sp.target_on, "%s: refused but turned on", arg);
	CHECK(strstr(err, "--latency-target") && strstr(err, why), "%s: message '%s' lacks '%s'",
	      arg, err, why);
}

static void target_cases(void)
{
	target_accepts("p99:5ms", 99, 0.005);
	target_accepts("99.9:500us", 99.9, 0.0005);
	target_accepts("P50:1s", 50, 1);
	target_accepts("99:2ns", 99, 2e-9);
	/* PCT is exclusive at both ends */
	target_refuses("p100:5ms", "percentile");
	target_refuses("p0:1ms", "percentile");
	target_refuses(":5ms", "percentile");
	target_refuses("x:5ms", "percentile");
	/* TIME: above 0, with its unit, and nothing after */
	target_refuses("99:0ms", "time");
	target_refuses("99:5", "time");
	target_refuses("99:-1ms", "time");
	target_refuses("99:", "time");
	target_refuses("99:5ms:extra", "time");
	target_refuses("99", "PCT:TIME");
}

static void rates_accepts(const char *arg, unsigned n, const double *want)
{
	struct capacity_spec sp;
	char err[256] = "";

	capacity_spec_init(&sp);
	CHECK(!capacity_rates_parse(&sp, arg, err, sizeof(err)), "%s refused: %s", arg, err);
	CHECK(sp.open_on && !sp.sweep && sp.nrates == n, "%s: on %d sweep %d %u rates, want %u",
	      arg, sp.open_on, sp.sweep, sp.nrates, n);
	for (unsigned i = 0; i < n && i < sp.nrates; i++)
		CHECK(sp.rates[i] == want[i], "%s: rate %u is %g, want %g", arg, i, sp.rates[i],
		      want[i]);
}

static void rates_refuses(const char *arg, const char *why)
{
	struct capacity_spec sp;
	char err[256] = "";
	int ret;

	capacity_spec_init(&sp);
	ret = capacity_rates_parse(&sp, arg, err, sizeof(err));
	CHECK(ret == -EINVAL, "%.40s: got %d, want -EINVAL", arg, ret);
	CHECK(!sp.open_on, "%.40s: refused but turned on", arg);
	CHECK(strstr(err, "--open-loop") && strstr(err, why), "%.40s: message '%s' lacks '%s'",
	      arg, err, why);
}

static void rates_cases(void)
{
	static const double r100[] = { 100 }, r2[] = { 100, 200.5 }, rmax[] = { 1e6 };
	double r32[CAP_MAX_RATES];
	struct capacity_spec sp;
	char list[512], err[256];
	size_t at = 0;

	capacity_spec_init(&sp);
	CHECK(!capacity_rates_parse(&sp, "sweep", err, sizeof(err)) && sp.open_on && sp.sweep &&
	      sp.nrates == 0, "sweep");
	rates_accepts("100", 1, r100);
	rates_accepts("100,200.5", 2, r2);
	/* the most clyde schedules, a request a microsecond: taken; above it, not */
	rates_accepts("1000000", 1, rmax);
	rates_refuses("2e6", "more than clyde can schedule");
	rates_refuses("1000001", "more than clyde can schedule");
	rates_refuses("0", "rates above 0");
	rates_refuses("-5", "rates above 0");
	rates_refuses("1,,2", "rates above 0");
	rates_refuses("1,", "rates above 0");
	rates_refuses(",1", "rates above 0");
	rates_refuses("10/s", "rates above 0");
	rates_refuses("inf", "rates above 0");
	rates_refuses("nan", "rates above 0");
	rates_refuses("", "rates above 0");
	/* 32 rates: the most; 33: refused */
	for (unsigned i = 0; i < CAP_MAX_RATES; i++) {
		r32[i] = i + 1;
		at += (size_t)snprintf(list + at, sizeof(list) - at, "%s%u", i ? "," : "", i + 1);
	}
	CHECK(CAP_MAX_RATES == 32, "the documented most is 32 rates, not %u", CAP_MAX_RATES);
	rates_accepts(list, CAP_MAX_RATES, r32);
	snprintf(list + at, sizeof(list) - at, ",33");
	rates_refuses(list, "at most 32 rates");
}

static void samples_cases(void)
{
	/* ceil(20 / (1 - q)): 20 / 0.01, 20 / 0.001, 20 / 0.5, 20 / 0.1, 20 / 0.05 */
	CHECK(capacity_min_samples(99) == 2000, "p99: %llu",
	      (unsigned long long)capacity_min_samples(99));
	CHECK(capacity_min_samples(99.9) == 20000, "p99.9: %llu",
	      (unsigned long long)capacity_min_samples(99.9));
	CHECK(capacity_min_samples(50) == 40, "p50: %llu",
	      (unsigned long long)capacity_min_samples(50));
	CHECK(capacity_min_samples(90) == 200, "p90: %llu",
	      (unsigned long long)capacity_min_samples(90));
	CHECK(capacity_min_samples(95) == 400, "p95: %llu",
	      (unsigned long long)capacity_min_samples(95));
	/* a fraction rounds up: 20 / 0.3 = 66.7 -> 67 */
	CHECK(capacity_min_samples(70) == 67, "p70: %llu",
	      (unsigned long long)capacity_min_samples(70));
}

static void inflight_cases(void)
{
	struct capacity_spec sp;

	capacity_spec_init(&sp);
	/* rate x 100 ms, a slot for a part, in [4, 256] */
	CHECK(capacity_inflight(&sp, 1) == 4, "1/s: %u", capacity_inflight(&sp, 1));
	CHECK(capacity_inflight(&sp, 40) == 4, "40/s: %u", capacity_inflight(&sp, 40));
	CHECK(capacity_inflight(&sp, 50) == 5, "50/s: %u", capacity_inflight(&sp, 50));
	CHECK(capacity_inflight(&sp, 45) == 5, "45/s: %u", capacity_inflight(&sp, 45));
	CHECK(capacity_inflight(&sp, 1000) == 100, "1000/s: %u", capacity_inflight(&sp, 1000));
	CHECK(capacity_inflight(&sp, 2560) == 256, "2560/s: %u", capacity_inflight(&sp, 2560));
	CHECK(capacity_inflight(&sp, 2570) == 256, "2570/s: %u", capacity_inflight(&sp, 2570));
	CHECK(capacity_inflight(&sp, 1e6) == 256, "1e6/s: %u", capacity_inflight(&sp, 1e6));
	/* --open-loop-inflight: as given, whatever the rate */
	sp.inflight = 7;
	CHECK(capacity_inflight(&sp, 1) == 7 && capacity_inflight(&sp, 1e6) == 7, "given 7: %u %u",
	      capacity_inflight(&sp, 1), capacity_inflight(&sp, 1e6));
	sp.inflight = 1024;
	CHECK(capacity_inflight(&sp, 10) == 1024, "given 1024: %u", capacity_inflight(&sp, 10));
}

static void kept_up_cases(void)
{
	/* offered, achieved, kept up: at least 95% of offered */
	static const struct {
		double offered, achieved;
		int kept;
	} c[] = {
		{ 100, 100, 1 },	{ 100, 95, 1 },	     { 100, 94.99, 0 },
		{ 62.5, 59.375, 1 },	{ 62.5, 59.37, 0 },  { 1000, 950, 1 },
		{ 1000, 949.9, 0 },	{ 1e6, 950000, 1 },  { 1e6, 949999, 0 },
		{ 10, 0, 0 },		{ 10, 12, 1 },
	};

	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		struct cap_open_step st = { .offered = c[i].offered, .achieved = c[i].achieved };

		CHECK(capacity_step_kept_up(&st) == c[i].kept, "offered %g achieved %g: kept %d",
		      c[i].offered, c[i].achieved, capacity_step_kept_up(&st));
	}
}

/*
 * The concurrencies a search visits when a window is within the target
 * exactly up to concurrency limit, each worked out by hand below.
 */
static void search_walk(unsigned limit, unsigned max, const unsigned *want, unsigned nwant)
{
	unsigned got[32], n = 0, lo = 0, hi = 0, conc = 1;
	int same;

	while (conc && n < 32) {
		got[n++] = conc;
		conc = capacity_search_next(&lo, &hi, conc, conc <= limit, max);
	}
	same = n == nwant;
	for (unsigned i = 0; same && i < n; i++)
		same = got[i] == want[i];
	CHECK(same, "within up to %u, max %u: %u windows, the last at %u", limit, max, n,
	      n ? got[n - 1] : 0);
}

static void search_cases(void)
{
	/* within up to 11: doubling to 16 (beyond), then 12 (beyond), 10, 11 (within) */
	static const unsigned w11[] = { 1, 2, 4, 8, 16, 12, 10, 11 };
	/* within everywhere: doubling up to the most */
	static const unsigned all64[] = { 1, 2, 4, 8, 16, 32, 64 };
	/* the most not a power of two: the last doubling stops at it */
	static const unsigned all48[] = { 1, 2, 4, 8, 16, 32, 48 };
	static const unsigned all3[] = { 1, 2, 3 };
	/* never within: 1, and no gap to halve */
	static const unsigned none[] = { 1 };
	static const unsigned w1[] = { 1, 2 };
	/* within up to 2: 4 beyond, then 3 */
	static const unsigned w2[] = { 1, 2, 4, 3 };
	/* within up to 40 of 48: 48 beyond, then 40 (within), 44, 42, 41 (beyond) */
	static const unsigned w40[] = { 1, 2, 4, 8, 16, 32, 48, 40, 44, 42, 41 };
	static const unsigned max1[] = { 1 };
	/* an odd gap (4 within, 7 beyond): its lower half first, 5 */
	static const unsigned w5of7[] = { 1, 2, 4, 7, 5, 6 };
	static const unsigned w4of7[] = { 1, 2, 4, 7, 5 };

	search_walk(11, 64, w11, 8);
	search_walk(1000, 64, all64, 7);
	search_walk(1000, 48, all48, 7);
	search_walk(1000, 3, all3, 3);
	search_walk(0, 64, none, 1);
	search_walk(1, 64, w1, 2);
	search_walk(2, 64, w2, 4);
	search_walk(40, 48, w40, 11);
	search_walk(1000, 1, max1, 1);
	search_walk(5, 7, w5of7, 6);
	search_walk(4, 7, w4of7, 5);
}

static void defaults_cases(void)
{
	struct capacity_spec sp;

	capacity_spec_init(&sp);
	CHECK(!capacity_asked(&sp) && sp.step_s == 2 && sp.time_s == 120 && sp.max_conc == 64 &&
	      sp.arrivals == CAP_ARRIVALS_FIXED && sp.inflight == 0,
	      "defaults: step %g time %g max %u", sp.step_s, sp.time_s, sp.max_conc);
	CHECK_STR(capacity_arrivals_name(CAP_ARRIVALS_FIXED), "fixed");
	CHECK_STR(capacity_arrivals_name(CAP_ARRIVALS_POISSON), "poisson");
}

/*
 * The option parser's list of measurable phases (core, so that it links
 * no phase) and the engine's rows (phases/capacity_ops.c) are two lists:
 * they must name the same phases.
 */
static void lists_agree_cases(void)
{
	for (int i = 0; i < PH_COUNT; i++) {
		bool parser = capacity_phase_measurable((enum phase_id)i);
		bool engine = capacity_kind((enum phase_id)i, NULL) != NULL;

		CHECK(parser == engine, "phase %d: the parser says %s, the engine's rows %s", i,
		      parser ? "measurable" : "not", engine ? "have it" : "do not");
	}
}

int main(void)
{
	target_cases();
	rates_cases();
	samples_cases();
	inflight_cases();
	kept_up_cases();
	search_cases();
	defaults_cases();
	lists_agree_cases();
	return unit_verdict("unit_capacity");
}
