// SPDX-License-Identifier: BSD-2-Clause
/* --steady: its grammar, the settle decision on synthetic intervals, and the watch. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "lib/series.h"
#include "lib/steady.h"
#include "phases/steady_watch.h"
#include "unit.h"

#define MS 1000000ull
#define T0 (7000 * MS)

/*
 * Slide the window over v[0..count) as the watch does, interval by
 * interval: the first end (in intervals) where it settles, or -1.
 */
static int first_settle(const struct steady_spec *sp, const double *v, unsigned count, double width)
{
	unsigned n = steady_window_slots(sp, width);

	for (unsigned k = n; k <= count; k++)
		if (steady_check(sp, v + k - n, n, width, NULL))
			return (int)k;
	return -1;
}

static void parse_cases(void)
{
	struct steady_spec sp;
	char err[256];

	CHECK(!steady_parse(&sp, "rate:20:1:5", err, sizeof(err)), "%s", err);
	CHECK(sp.on && sp.metric == STEADY_RATE && !sp.slope && sp.pct == 20 &&
	      sp.window_s == 1 && sp.max_s == 5, "rate:20:1:5");
	CHECK(!steady_parse(&sp, "p99_slope:5%:10", err, sizeof(err)), "%s", err);
	CHECK(sp.metric == STEADY_P99 && sp.slope && sp.pct == 5 && sp.max_s == 100,
	      "default MAX: 10 windows (%g)", sp.max_s);
	CHECK(!steady_parse(&sp, "rate_slope:1:2", err, sizeof(err)) && sp.max_s == 60,
	      "default MAX: at least 60 s (%g)", sp.max_s);
	CHECK_STR(steady_metric_name(&sp), "rate_slope");
	CHECK(steady_parse(&sp, "bw:20:1", err, sizeof(err)) == -EINVAL &&
	      strstr(err, "the metric 'bw'"), "%s", err);
	CHECK(steady_parse(&sp, "rate", err, sizeof(err)) == -EINVAL && strstr(err, "missing"),
	      "%s", err);
	CHECK(steady_parse(&sp, "rate:0:1", err, sizeof(err)) == -EINVAL && strstr(err, "PCT"),
	      "%s", err);
	CHECK(steady_parse(&sp, "rate:20:0.1", err, sizeof(err)) == -EINVAL &&
	      strstr(err, "SECONDS"), "%s", err);
	CHECK(steady_parse(&sp, "rate:20:2:1", err, sizeof(err)) == -EINVAL && strstr(err, "MAX"),
	      "%s", err);
	CHECK(steady_parse(&sp, "rate:20:2:", err, sizeof(err)) == -EINVAL && strstr(err, "MAX"),
	      "%s", err);
	CHECK(steady_parse(&sp, "rate:20:2:9:1", err, sizeof(err)) == -EINVAL &&
	      strstr(err, "too many"), "%s", err);
	CHECK(steady_parse(&sp, "rate:x:1", err, sizeof(err)) == -EINVAL && strstr(err, "PCT"),
	      "%s", err);
	CHECK(steady_window_slots(&(struct steady_spec){ .window_s = 1 }, 0.1) == 10, "10 slots");
	CHECK(steady_window_slots(&(struct steady_spec){ .window_s = 1 }, 0.8) == 2, "at least 2");
}

static void decision_cases(void)
{
	struct steady_spec flat = { .on = true, .pct = 20, .window_s = 1, .max_s = 10 };
	struct steady_spec slope = flat;
	double v[100], spread;

	slope.slope = true;
	slope.pct = 2;
	/* constant: settles once the first window is full, after SECONDS */
	for (int i = 0; i < 100; i++)
		v[i] = 500e6;
	CHECK(first_settle(&flat, v, 100, 0.1) == 10, "constant settles after 1 s: %d",
	      first_settle(&flat, v, 100, 0.1));
	CHECK(first_settle(&slope, v, 100, 0.1) == 10, "constant, slope");
	/* a sawtooth of amplitude 30% around the mean: never within 20% */
	for (int i = 0; i < 100; i++)
		v[i] = 100.0 * (1.0 + 0.3 * ((i % 4) - 1.5) / 1.5);
	CHECK(first_settle(&flat, v, 100, 0.1) == -1, "sawtooth 30%% never settles");
	CHECK(steady_check(&flat, v, 10, 0.1, &spread) == false && spread > 20, "spread %g", spread);
	/* the same sawtooth at 10%: settles */
	for (int i = 0; i < 100; i++)
		v[i] = 100.0 * (1.0 + 0.1 * ((i % 4) - 1.5) / 1.5);
	CHECK(first_settle(&flat, v, 100, 0.1) == 10, "sawtooth 10%% settles");
	/*
	 * A ramp of 20% per second for 5 s, then flat: every window of the
	 * ramp is within 20% of its mean (the flat rule settles on it) but its
	 * slope is not under 2% a second; the slope settles once the window
	 * is flat: at 6 s.
	 */
	for (int i = 0; i < 100; i++)
		v[i] = 1000.0 * (1.0 + 0.2 * (i < 50 ? i : 50) * 0.1);
	CHECK(first_settle(&flat, v, 100, 0.1) == 10, "the flat rule settles on the ramp");
	CHECK(first_settle(&slope, v, 100, 0.1) > 55 && first_settle(&slope, v, 100, 0.1) <= 60,
	      "slope settles only when (nearly) flat: %d", first_settle(&slope, v, 100, 0.1));
	CHECK(steady_check(&slope, v + 10, 10, 0.1, &spread) == false &&
	      fabs(spread - 0.2 * 1000 / (1000 * 1.3) * 100) < 1.0, "ramp's slope %g%%/s", spread);
	/* a stall: a mean of zero never settles */
	memset(v, 0, sizeof(v));
	CHECK(first_settle(&flat, v, 100, 0.1) == -1, "zeros never settle");
}

/*
 * The watch, as a worker drives it: one thread records an operation of
 * `bytes` every ms (x amplitude in alternate quarter seconds), ticking
 * at each operation; where it stops and what it says.
 */
static void drive(struct steady_watch *sw, double amplitude, uint64_t planned_ms,
		  uint64_t *stopped_ms)
{
	struct series *s = series_new(0, 0, false);
	struct steady_cursor *c = steady_join(sw);
	uint64_t t;

	series_start(s, T0);
	for (t = 1; t < 60000; t++) {
		uint64_t bytes = (t / 250) % 2 ? (uint64_t)(1000 * amplitude) : 1000;

		steady_tick(sw, c, s);
		if (t >= planned_ms)
			steady_floor_done(sw, c);
		if (steady_stopped(sw))
			break;
		series_record(s, T0 + t * MS, 10000, bytes);
	}
	*stopped_ms = t;
	steady_leave(sw, c, s, false);
	series_free(s);
}

static void watch_cases(void)
{
	struct steady_spec sp = { .on = true, .pct = 20, .window_s = 1, .max_s = 5 };
	struct steady_watch sw;
	uint64_t stop;

	CHECK(!steady_watch_init(&sw, &sp, 1, 0), "init");
	drive(&sw, 1.0, 0, &stop);
	CHECK(sw.settled && sw.end == STEADY_END_SETTLED, "constant settles");
	CHECK(sw.at_ns == 1000 * MS && sw.window_ns == 1000 * MS, "at %llu window %llu",
	      (unsigned long long)sw.at_ns, (unsigned long long)sw.window_ns);
	/* 1000 bytes at 1..999 ms: the window's work is the series' */
	CHECK(sw.work == 999 * 1000 && sw.ops == 999, "work %llu ops %llu",
	      (unsigned long long)sw.work, (unsigned long long)sw.ops);
	CHECK(stop >= 1000 && stop <= 1300, "stopped at %llu ms", (unsigned long long)stop);
	steady_watch_destroy(&sw);

	/* the planned work first: a constant rate still goes on until it is done */
	CHECK(!steady_watch_init(&sw, &sp, 1, 0), "init");
	drive(&sw, 1.0, 3000, &stop);
	CHECK(sw.settled && sw.at_ns >= 3000 * MS && sw.at_ns <= 3200 * MS, "settled at %llu",
	      (unsigned long long)sw.at_ns);
	steady_watch_destroy(&sw);

	/* a rate that doubles every quarter second: never settles, MAX stops it */
	CHECK(!steady_watch_init(&sw, &sp, 1, 0), "init");
	drive(&sw, 2.0, 0, &stop);
	CHECK(!sw.settled && sw.end == STEADY_END_MAX_TIME, "never settled: end %d", sw.end);
	CHECK(stop >= 5000 && stop <= 5300, "MAX stopped it at %llu ms", (unsigned long long)stop);
	CHECK(sw.spread > 20, "the last spread %g", sw.spread);
	steady_watch_destroy(&sw);
}

int main(void)
{
	parse_cases();
	decision_cases();
	watch_cases();
	return unit_verdict("unit_steady");
}
