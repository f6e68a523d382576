// SPDX-License-Identifier: BSD-2-Clause
/*
 * --profile=layers' arithmetic on crafted histograms: every time lands in
 * the bucket whose bounds hold it, the bucket's midpoint within 1.6% of
 * it; p50, p99 and the mean of known spans; clyde's operation time split
 * into the queue, the device and the rest above, and no rest where the
 * requests took longer than the operations; a bio-based device's split
 * says "no request queue"; the options' word sets the flag; the programs'
 * cost from their run-time counters (not measured where the kernel kept
 * none or a counter went back, no rate share over a window of no length),
 * in the text's line and the JSON's cost, and neither where no program
 * was loaded.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clyde/options.h"
#include "core/phase.h"
#include "formats/format.h"
#include "formats/format_json.h"
#include "lib/json_reader.h"
#include "lib/json_writer.h"
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

static void stamp(struct layers_prog_stats *st, uint64_t cnt, uint64_t ns)
{
	st->run_cnt = cnt;
	st->run_time_ns = ns;
}

/* Counters moved by 1000 runs each: 1.2 + 2.0 + 1.0 ms, 4.2 ms in 3000 events, 1400 ns each. */
static void cost_raw(struct layers_raw *raw)
{
	memset(raw, 0, sizeof(*raw));
	raw->valid = true;
	stamp(&raw->prog_begin[LAYERS_PROG_BIO_QUEUE], 100, 50000);
	stamp(&raw->prog_end[LAYERS_PROG_BIO_QUEUE], 1100, 1250000);
	stamp(&raw->prog_begin[LAYERS_PROG_RQ_ISSUE], 200, 80000);
	stamp(&raw->prog_end[LAYERS_PROG_RQ_ISSUE], 1200, 2080000);
	stamp(&raw->prog_begin[LAYERS_PROG_RQ_COMPLETE], 0, 0);
	stamp(&raw->prog_end[LAYERS_PROG_RQ_COMPLETE], 1000, 1000000);
}

static void test_cost(void)
{
	static struct layers_raw raw;
	struct layers_cost c;

	cost_raw(&raw);
	layers_cost_compute(&raw, 0.42, &c);
	CHECK(c.measured && !c.why[0], "measured: '%s'", c.why);
	CHECK(c.events == 3000 && c.prog_events[LAYERS_PROG_RQ_ISSUE] == 1000,
	      "events %llu (the deltas, not the counters)", (unsigned long long)c.events);
	CHECK(rel(c.cpu_s, 4.2e-3) < 1e-9, "cpu %g s", c.cpu_s);
	CHECK(rel(c.prog_cpu_s[LAYERS_PROG_RQ_ISSUE], 2.0e-3) < 1e-9, "rq_issue %g s",
	      c.prog_cpu_s[LAYERS_PROG_RQ_ISSUE]);
	CHECK(rel(c.ns_per_event, 1400) < 1e-9, "%g ns each", c.ns_per_event);
	CHECK(rel(c.rate_share, 0.01) < 1e-9, "rate share %g", c.rate_share);

	/* a phase of no length: the figures, but no share */
	layers_cost_compute(&raw, 0, &c);
	CHECK(c.measured && c.rate_share == -1, "zero window: share %g", c.rate_share);
	layers_cost_compute(&raw, -0.5, &c);
	CHECK(c.rate_share == -1, "negative window: share %g", c.rate_share);

	/* no event: nothing per event, a share of 0 */
	memcpy(raw.prog_end, raw.prog_begin, sizeof(raw.prog_end));
	layers_cost_compute(&raw, 1, &c);
	CHECK(c.measured && !c.events && c.ns_per_event == -1 && c.rate_share == 0,
	      "no event: %llu, %g ns, share %g", (unsigned long long)c.events, c.ns_per_event,
	      c.rate_share);

	/* a counter that went back (a wrap, another program) is no measurement */
	cost_raw(&raw);
	stamp(&raw.prog_end[LAYERS_PROG_RQ_COMPLETE], 1000, 0);
	stamp(&raw.prog_begin[LAYERS_PROG_RQ_COMPLETE], 5, 7);
	layers_cost_compute(&raw, 1, &c);
	CHECK(!c.measured && c.rate_share == -1 && strstr(c.why, "rq_complete"),
	      "backwards: measured %d, '%s'", c.measured, c.why);
	cost_raw(&raw);
	stamp(&raw.prog_begin[LAYERS_PROG_BIO_QUEUE], UINT64_MAX - 10, 50000);
	layers_cost_compute(&raw, 1, &c);
	CHECK(!c.measured && !c.events && strstr(c.why, "bio_queue"),
	      "wrapped count: measured %d, %llu events, '%s'", c.measured,
	      (unsigned long long)c.events, c.why);

	/* the kernel kept no statistics: counters of zero are not a cost of zero */
	cost_raw(&raw);
	memset(raw.prog_end, 0, sizeof(raw.prog_end));
	memset(raw.prog_begin, 0, sizeof(raw.prog_begin));
	snprintf(raw.stats_why, sizeof(raw.stats_why), "BPF_ENABLE_STATS: Operation not permitted");
	layers_cost_compute(&raw, 1, &c);
	CHECK(!c.measured && c.ns_per_event == -1 && c.rate_share == -1, "absent stats: measured");
	CHECK_STR(c.why, "BPF_ENABLE_STATS: Operation not permitted");
	raw.stats_why[0] = '\0';
	raw.valid = false;
	layers_cost_compute(&raw, 1, &c);
	CHECK(!c.measured && c.why[0], "unread counts: measured %d", c.measured);
}

static char *layers_text(const struct run_result *r)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);

	if (!m)
		return NULL;
	format_layers_table(m, r);
	fclose(m);
	return buf;
}

/* The phase's profile.layers as the JSON writes it, parsed back into *doc. */
static struct json_node *layers_json(const struct prof_layers *l, char **buf)
{
	struct json_parser jp = { 0 };
	struct json_writer w;
	size_t len = 0;
	FILE *m = open_memstream(buf, &len);

	if (!m)
		return NULL;
	json_writer_init(&w, m, 0);
	json_obj_begin(&w, NULL);
	json_profile_layers(&w, l);
	json_obj_end(&w);
	fclose(m);
	return json_parse(&jp, *buf, len, 1);
}

static bool number_is(const struct json_node *obj, const char *key, double want)
{
	const struct json_node *n = json_get(obj, key);

	return n && n->type == JSON_NUMBER && rel(n->number, want) < 1e-6;
}

static void test_cost_outputs(void)
{
	static struct run_result r;
	static struct layers_raw raw;
	struct prof_layers *l = &r.phase[PH_PUT_BLOCK].profile.layers;
	const struct json_node *cost;
	struct json_node *doc;
	char *text, *buf = NULL;

	r.phase[PH_PUT_BLOCK].ran = true;
	r.phase[PH_PUT_BLOCK].profile.valid = true;
	cost_raw(&raw);
	layers_summarise(&raw, true, "loop0", l);
	layers_cost_compute(&raw, 0.42, &l->cost);
	text = layers_text(&r);
	CHECK(text && strstr(text, ": profiled: BPF programs took 4.200 ms in 3000 events (1400 ns "
			     "each); rates about 2.5% to 6.0% (the programs' own 1.0% times 2.5 to 6: "
			     "clyde(1)) below an unprofiled run\n"),
	      "the cost line: %s", text ? text : "(none)");
	free(text);
	doc = layers_json(l, &buf);
	cost = json_get(json_get(doc, "layers"), "cost");
	CHECK(json_get_bool(cost, "measured", false), "cost.measured true");
	CHECK(number_is(cost, "events", 3000), "cost.events 3000");
	CHECK(number_is(cost, "cpu_s", 4.2e-3), "cost.cpu_s");
	CHECK(number_is(cost, "ns_per_event", 1400), "cost.ns_per_event");
	CHECK(number_is(cost, "rate_share", 0.01), "cost.rate_share 0.01");
	CHECK(number_is(json_get(json_get(cost, "programs"), "rq_complete"), "events", 1000),
	      "cost.programs.rq_complete.events 1000");
	json_free(doc);
	free(buf);
	buf = NULL;

	/* no program loaded (layers_none.c): no line; the JSON says why */
	layers_unavailable(l, "not built: libbpf (libbpf-dev)");
	text = layers_text(&r);
	CHECK(text && !strstr(text, "BPF programs took") && !strstr(text, "programs' cost"),
	      "no cost line without programs: %s", text ? text : "(none)");
	free(text);
	doc = layers_json(l, &buf);
	cost = json_get(json_get(doc, "layers"), "cost");
	CHECK(cost && !json_get_bool(cost, "measured", true), "unavailable: cost.measured false");
	CHECK(json_get(cost, "events") && json_get(cost, "events")->type == JSON_NULL,
	      "unavailable: cost.events null");
	CHECK(json_get(cost, "why") && json_get(cost, "why")->type == JSON_STRING,
	      "unavailable: cost.why said");
	if (json_get(cost, "why") && json_get(cost, "why")->type == JSON_STRING)
		CHECK_STR(json_get(cost, "why")->string, "not built: libbpf (libbpf-dev)");
	json_free(doc);
	free(buf);
}

int main(void)
{
	test_buckets();
	test_span();
	test_states();
	test_hist_mean();
	test_option();
	test_cost();
	test_cost_outputs();
	return unit_verdict("unit_layers");
}
