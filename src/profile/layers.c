// SPDX-License-Identifier: BSD-2-Clause
/*
 * --profile=layers' arithmetic: the kernel's histograms of a phase's
 * requests summarised, and clyde's own operation time split into the
 * block layer's queue, the device and what lies above them. Pure: the
 * BPF part (layers_bpf_linux.c) only fills struct layers_raw.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "lib/strutil.h"
#include "profile/layers.h"

void layers_bucket_bounds(unsigned int b, uint64_t *low, uint64_t *width)
{
	unsigned int msb, sub;

	if (b < LAYERS_SUB) {
		*low = b;
		*width = 1;
		return;
	}
	msb = (b - LAYERS_SUB) / LAYERS_SUB + LAYERS_SUB_BITS;
	sub = (b - LAYERS_SUB) % LAYERS_SUB;
	*width = (uint64_t)1 << (msb - LAYERS_SUB_BITS);
	*low = (uint64_t)(LAYERS_SUB + sub) * *width;
}

/* The midpoint of the bucket the q-th request falls in, in seconds. */
static double span_quantile(const uint64_t hist[LAYERS_BUCKETS], uint64_t count, double q)
{
	uint64_t rank = (uint64_t)(q * (double)count), seen = 0, low, width;

	if (rank >= count)
		rank = count - 1;
	for (unsigned int b = 0; b < LAYERS_BUCKETS; b++) {
		seen += hist[b];
		if (seen > rank) {
			layers_bucket_bounds(b, &low, &width);
			return ((double)low + (double)(width - 1) / 2) / 1e9;
		}
	}
	return 0;
}

void layers_span_summarise(const uint64_t hist[LAYERS_BUCKETS], uint64_t sum_ns,
			   struct layers_span_stat *out)
{
	memset(out, 0, sizeof(*out));
	for (unsigned int b = 0; b < LAYERS_BUCKETS; b++)
		out->count += hist[b];
	if (!out->count)
		return;
	out->sum_s = (double)sum_ns / 1e9;
	out->mean_s = out->sum_s / (double)out->count;
	out->p50_s = span_quantile(hist, out->count, 0.50);
	out->p99_s = span_quantile(hist, out->count, 0.99);
}

static void cost_unknown(struct layers_cost *out, const char *why)
{
	memset(out, 0, sizeof(*out));
	str_copy(out->why, sizeof(out->why), why);
	out->ns_per_event = out->rate_share = -1;
}

const char *layers_prog_name(enum layers_prog prog)
{
	static const char *const names[LAYERS_PROGS] = {
		[LAYERS_PROG_BIO_QUEUE] = "bio_queue",
		[LAYERS_PROG_RQ_ISSUE] = "rq_issue",
		[LAYERS_PROG_RQ_COMPLETE] = "rq_complete",
	};

	return (unsigned int)prog < LAYERS_PROGS ? names[prog] : "?";
}

void layers_cost_compute(const struct layers_raw *raw, double window_s, struct layers_cost *out)
{
	uint64_t time_ns = 0;

	if (!raw->valid) {
		cost_unknown(out, "the kernel's counts could not be read");
		return;
	}
	if (raw->stats_why[0]) {
		cost_unknown(out, raw->stats_why);
		return;
	}
	cost_unknown(out, "");
	for (int i = 0; i < LAYERS_PROGS; i++) {
		const struct layers_prog_stats *a = &raw->prog_begin[i], *b = &raw->prog_end[i];

		/* 64-bit counters do not wrap in a run: going back means they were not the same */
		if (b->run_cnt < a->run_cnt || b->run_time_ns < a->run_time_ns) {
			snprintf(out->why, sizeof(out->why),
				 "%s's run-time counters went backwards", layers_prog_name(i));
			return;
		}
		out->prog_events[i] = b->run_cnt - a->run_cnt;
		out->prog_cpu_s[i] = (double)(b->run_time_ns - a->run_time_ns) / 1e9;
		out->events += out->prog_events[i];
		time_ns += b->run_time_ns - a->run_time_ns;
	}
	out->measured = true;
	out->cpu_s = (double)time_ns / 1e9;
	if (out->events)
		out->ns_per_event = (double)time_ns / (double)out->events;
	if (window_s > 0)
		out->rate_share = out->cpu_s / window_s;
}

void layers_unavailable(struct prof_layers *out, const char *why)
{
	memset(out, 0, sizeof(*out));
	cost_unknown(&out->cost, why);
	out->state = LAYERS_UNAVAILABLE;
	str_copy(out->why, sizeof(out->why), why);
	out->op_mean_s = -1;
	out->queue_share = out->device_share = out->above_share = out->above_mean_s = -1;
	out->busy_share = -1;
}

void layers_summarise(const struct layers_raw *raw, bool request_queue, const char *devs,
		      struct prof_layers *out)
{
	layers_unavailable(out, "the kernel's counts could not be read");
	if (!raw->valid)
		return;
	out->why[0] = '\0';
	out->bios = raw->bios;
	for (int s = 0; s < LAYERS_SPANS; s++) {
		layers_span_summarise(raw->hist[s], raw->sum_ns[s], &out->span[s]);
		out->own_s[s] = (double)raw->own_sum_ns[s] / 1e9;
	}
	out->own_requests = raw->own_count[LAYERS_DEVICE];
	out->state = LAYERS_MEASURED;
	if (!request_queue) {
		/* A bio-based device completes bios itself: there is no request to time. */
		out->state = LAYERS_NO_QUEUE;
		snprintf(out->why, sizeof(out->why), "no request queue: %s %s bio-based", devs,
			 strchr(devs, ',') ? "are" : "is");
	}
}

void layers_above(struct prof_layers *l, uint64_t ops, double op_mean_s)
{
	double op_total, queue_s, device_s;

	l->ops = ops;
	l->op_mean_s = ops ? op_mean_s : -1;
	if (l->state != LAYERS_MEASURED || !ops || op_mean_s <= 0)
		return;
	op_total = op_mean_s * (double)ops;
	queue_s = l->own_s[LAYERS_QUEUE];
	device_s = l->own_s[LAYERS_DEVICE];
	l->queue_share = queue_s / op_total;
	l->device_share = device_s / op_total;
	if (queue_s + device_s > op_total) {
		/* a write phase's closing fsync, read-ahead: requests no operation's latency holds */
		str_copy(l->above_why, sizeof(l->above_why),
			 "clyde's requests took longer than its operations (the closing fsync, "
			 "read-ahead)");
		return;
	}
	l->above_share = 1 - l->queue_share - l->device_share;
	l->above_mean_s = (op_total - queue_s - device_s) / (double)ops;
}
