// SPDX-License-Identifier: BSD-2-Clause
/*
 * --profile=layers' arithmetic on crafted histograms: every time lands in
 * the bucket whose bounds hold it, the bucket's midpoint within 1.6% of
 * it; p50, p99 and the mean of known spans; clyde's operation time split
 * into the queue, the device and the rest above, and no rest where the
 * requests took longer than the operations; a bio-based device's split
 * says "no request queue"; the options' word sets the flag.
 */
#include "config.h"

#include <math.h>

#include "clyde/options.h"
#include "lib/histogram.h"
#include "profile/layers.h"
#include "unit.h"

static double rel(double got, double want)
{
	return fabs(got - want) / want;
}

static void test_buckets(void)
{
	uint64_t low, width, worst_v = 0;
	double worst = 0;
	unsigned int last = 0;
	bool ordered = true;
	uint64_t outside = UINT64_MAX;	/* the first time not in its bucket */

	/* every ns below 2^16, then a sweep to the top by steps of ~0.1% */
	for (uint64_t v = 0; v < ((uint64_t)1 << 41); v = v < 65536 ? v + 1 : v + v / 997) {
		unsigned int b = layers_bucket(v);
		double mid;

		if (b < last)
			ordered = false;
		last = b;
		layers_bucket_bounds(b, &low, &width);
		if (b >= LAYERS_BUCKETS || v < low || v >= low + width) {
			outside = v;
			break;
		}
		if (!v)
			continue;
		mid = (double)low + (double)(width - 1) / 2;
		if (rel(mid, (double)v) > worst) {
			worst = rel(mid, (double)v);
			worst_v = v;
		}
	}
	CHECK(outside == UINT64_MAX, "%llu ns outside its bucket %u",
	      (unsigned long long)outside, layers_bucket(outside));
	CHECK(ordered, "buckets grow with the time");
	CHECK(worst <= 1.0 / 64 + 1e-9, "a midpoint %.4f off at %llu ns", worst,
	      (unsigned long long)worst_v);
	CHECK(layers_bucket((uint64_t)1 << 50) == LAYERS_BUCKETS - 1, "past the top: the last");
	CHECK(LAYERS_BUCKETS <= LAYERS_SLOTS, "the kernel's arrays hold every bucket");
}

/* n requests of ns each into raw's span s; own: clyde's process queued them */
static void put(struct layers_raw *raw, int s, uint64_t ns, uint64_t n, bool own)
{
	raw->hist[s][layers_bucket(ns)] += n;
	raw->sum_ns[s] += ns * n;
	if (own) {
		raw->own_count[s] += n;
		raw->own_sum_ns[s] += ns * n;
	}
}

static void test_span(void)
{
	static struct layers_raw raw;
	struct prof_layers l;
	const struct layers_span_stat *dev = &l.span[LAYERS_DEVICE], *q = &l.span[LAYERS_QUEUE];

	raw.valid = true;
	raw.bios = 1000;
	/* 980 requests at 10 ms and 20 at 80 ms: p50 10 ms, p99 80 ms, mean 11.4 ms */
	put(&raw, LAYERS_DEVICE, 10000000, 980, true);
	put(&raw, LAYERS_DEVICE, 80000000, 20, true);
	put(&raw, LAYERS_QUEUE, 5000, 1000, true);
	/* and the journal's 50 requests of 30 ms, which no operation of clyde's waited on */
	put(&raw, LAYERS_DEVICE, 30000000, 50, false);
	put(&raw, LAYERS_QUEUE, 5000, 50, false);
	layers_summarise(&raw, true, "loop0", &l);
	CHECK(l.state == LAYERS_MEASURED, "state %d", l.state);
	CHECK(dev->count == 1050 && q->count == 1050 && l.own_requests == 1000,
	      "counts %llu %llu, clyde's %llu", (unsigned long long)dev->count,
	      (unsigned long long)q->count, (unsigned long long)l.own_requests);
	CHECK(rel(dev->p50_s, 0.010) < 0.016, "device p50 %g", dev->p50_s);
	CHECK(rel(dev->p99_s, 0.080) < 0.016, "device p99 %g", dev->p99_s);
	CHECK(rel(dev->mean_s, 12.9 / 1050) < 1e-9, "device mean %g (the kernel's sum)",
	      dev->mean_s);
	CHECK(rel(q->p50_s, 5e-6) < 0.016, "queue p50 %g", q->p50_s);
	CHECK(l.busy_share == -1 && l.above_share == -1, "unknown until told");

	/* 1000 operations of 12 ms: clyde's 11.4 s at the device, 5 ms queued, 0.595 s above */
	layers_above(&l, 1000, 0.012);
	CHECK(rel(l.device_share, 11.4 / 12) < 1e-9, "device share %g", l.device_share);
	CHECK(rel(l.queue_share, 0.005 / 12) < 1e-9, "queue share %g", l.queue_share);
	CHECK(rel(l.above_share, 0.595 / 12) < 1e-6, "above share %g", l.above_share);
	CHECK(rel(l.above_mean_s, 0.000595) < 1e-6, "above per operation %g", l.above_mean_s);
	CHECK(!l.above_why[0], "no note: %s", l.above_why);

	/* writeback: 100 operations of 1 ms against the same requests: nothing left above */
	layers_summarise(&raw, true, "loop0", &l);
	layers_above(&l, 100, 0.001);
	CHECK(l.above_share == -1 && l.above_mean_s == -1 && l.above_why[0],
	      "above %g, note '%s'", l.above_share, l.above_why);
	CHECK(l.device_share > 1, "the device's share says it: %g", l.device_share);
}

static void test_states(void)
{
	static struct layers_raw raw;
	struct prof_layers l;

	raw.valid = true;
	raw.bios = 42;
	layers_summarise(&raw, false, "zram0", &l);
	CHECK(l.state == LAYERS_NO_QUEUE, "state %d", l.state);
	CHECK_STR(l.why, "no request queue: zram0 is bio-based");
	CHECK(l.bios == 42 && !l.span[LAYERS_DEVICE].count, "bios %llu, no request invented",
	      (unsigned long long)l.bios);
	layers_above(&l, 10, 0.001);
	CHECK(l.device_share == -1 && l.above_share == -1, "no split without requests");

	raw.valid = false;
	layers_summarise(&raw, true, "sda", &l);
	CHECK(l.state == LAYERS_UNAVAILABLE && l.why[0], "unread counts: state %d", l.state);
	layers_unavailable(&l, "not built: libbpf (libbpf-dev)");
	CHECK(l.state == LAYERS_UNAVAILABLE && l.op_mean_s == -1 && l.busy_share == -1,
	      "unavailable: every figure unknown");
	CHECK_STR(l.why, "not built: libbpf (libbpf-dev)");
}

/* clyde's own operations' mean, from their histogram */
static void test_hist_mean(void)
{
	struct histogram h;

	hist_init(&h);
	CHECK(hist_mean(&h) == 0, "empty: 0");
	for (int i = 0; i < 900; i++)
		hist_record(&h, 1000000);
	for (int i = 0; i < 100; i++)
		hist_record(&h, 11000000);
	CHECK(rel(hist_mean(&h), 2000000) < 0.008, "mean %g ns, want 2e6", hist_mean(&h));
}

static void test_option(void)
{
	struct clyde_options o;
	char err[256];
	char *argv_layers[] = { "clyde", "--profile=layers", NULL };
	char *argv_bad[] = { "clyde", "--profile=latency", NULL };
	char *argv_plain[] = { "clyde", "--profile", NULL };

	options_defaults(&o);
	CHECK(!options_parse(&o, 2, argv_layers, err, sizeof(err)), "--profile=layers: %s", err);
	CHECK(o.profile && o.profile_layers, "profile %d layers %d", o.profile, o.profile_layers);
	options_defaults(&o);
	CHECK(!options_parse(&o, 2, argv_plain, err, sizeof(err)), "--profile: %s", err);
	CHECK(o.profile && !o.profile_layers, "profile %d layers %d", o.profile, o.profile_layers);
	options_defaults(&o);
	CHECK(options_parse(&o, 2, argv_bad, err, sizeof(err)), "--profile=latency refused");
	CHECK(strstr(err, "'latency'") != NULL, "the word named: %s", err);
}

int main(void)
{
	test_buckets();
	test_span();
	test_states();
	test_hist_mean();
	test_option();
	return unit_verdict("unit_layers");
}
