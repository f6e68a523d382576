// SPDX-License-Identifier: BSD-2-Clause
/*
 * --profile=layers: each phase's latency split, in clyde's text and in
 * the JSON's profile object: the requests' time in the block layer's
 * queue and at the device, the devices' busy share, and the rest of
 * clyde's own operation time, above the block layer. Pure functions of
 * the result.
 */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>

#include "core/phase.h"
#include "formats/format.h"
#include "formats/format_json.h"
#include "lib/json_writer.h"
#include "profile/layers.h"

static const char *const span_keys[LAYERS_SPANS] = {
	[LAYERS_QUEUE] = "queue", [LAYERS_DEVICE] = "device",
};

static const char *const state_names[] = {
	[LAYERS_OFF] = "off", [LAYERS_UNAVAILABLE] = "unavailable",
	[LAYERS_NO_QUEUE] = "no request queue", [LAYERS_MEASURED] = "measured",
};

static void latency_cell(FILE *out, int width, double s)
{
	char buf[32];

	format_latency(buf, sizeof(buf), s);
	fprintf(out, " %*s", width, buf[0] ? buf : "-");
}

static void share_cell(FILE *out, int width, double share)
{
	if (share < 0)
		fprintf(out, " %*s", width, "-");
	else
		fprintf(out, " %*.1f", width, share * 100);
}

static bool any_layers(const struct run_result *r)
{
	for (int i = 0; i < PH_COUNT; i++)
		if (r->phase[i].ran && r->phase[i].profile.valid &&
		    r->phase[i].profile.layers.state != LAYERS_OFF)
			return true;
	return false;
}

static void layers_row(FILE *out, const struct prof_layers *l)
{
	if (l->state != LAYERS_MEASURED) {
		fputs(" (", out);
		format_put_field(out, l->why);
		if (l->state == LAYERS_NO_QUEUE)
			fprintf(out, "; %" PRIu64 " bios queued", l->bios);
		fputs(")\n", out);
		return;
	}
	fprintf(out, " %8" PRIu64 " %8" PRIu64, l->span[LAYERS_DEVICE].count, l->own_requests);
	for (int s = 0; s < LAYERS_SPANS; s++) {
		latency_cell(out, 8, l->span[s].p50_s);
		latency_cell(out, 8, l->span[s].p99_s);
		latency_cell(out, 8, l->span[s].mean_s);
	}
	share_cell(out, 5, l->busy_share);
	latency_cell(out, 8, l->op_mean_s);
	share_cell(out, 6, l->queue_share);
	share_cell(out, 6, l->device_share);
	share_cell(out, 6, l->above_share);
	latency_cell(out, 8, l->above_mean_s);
	fputc('\n', out);
}

/* The programs' own time over a phase, beside the table, or why it was not measured. */
/*
 * The whole cost of --profile=layers over the programs' own time, as
 * bench/layers-cost measured it (bench/results/2026-12-07/layers-cost.txt:
 * 8 interleaved rounds, the rates' loss per request over the programs'
 * run time per request): 2.5 to 4.9 on a direct-I/O loop device, 4.7 to
 * 5.7 on the virtio disk. The rest is the dispatch around each run, the
 * tracepoints' own work and the run-time statistics' clock reads.
 */
#define COST_FACTOR_LOW		2.5
#define COST_FACTOR_HIGH	6.0

static void cost_line(FILE *out, const char *phase, const struct layers_cost *c)
{
	char share[96] = "unknown";

	if (!c->measured) {
		fprintf(out, "Profile layers: %s: programs' cost not measured (", phase);
		format_put_field(out, c->why);
		fputs(")\n", out);
		return;
	}
	if (c->rate_share >= 0)
		snprintf(share, sizeof(share), "about %.1f%% to %.1f%% (the programs' own %.1f%% "
			 "times %.1f to %.0f: clyde(1))", c->rate_share * 100 * COST_FACTOR_LOW,
			 c->rate_share * 100 * COST_FACTOR_HIGH, c->rate_share * 100,
			 COST_FACTOR_LOW, COST_FACTOR_HIGH);
	fprintf(out, "Profile layers: %s: profiled: BPF programs took %.3f ms in %" PRIu64
		" events (", phase, c->cpu_s * 1e3, c->events);
	if (c->ns_per_event >= 0)
		fprintf(out, "%.0f ns each", c->ns_per_event);
	else
		fputs("none", out);
	fprintf(out, "); rates %s below an unprofiled run\n", share);
}

void format_layers_table(FILE *out, const struct run_result *r)
{
	if (!any_layers(r))
		return;
	fputs("Profile latency by layer: each request's time queued in the block layer (bio "
	      "queued to issued) and at the device (issued to completed); clyde's operation "
	      "time split into its own requests' (their bio queued by clyde) and the rest, "
	      "above the block layer (" LAYERS_THROTTLE_NOTE ")\n", out);
	fprintf(out, "%-18s %8s %8s %8s %8s %8s %8s %8s %8s %5s %8s %6s %6s %6s %8s\n", "Phase",
		"requests", "clyde's", "queue50", "queue99", "queue", "dev50", "dev99", "dev",
		"busy%", "op", "queue%", "dev%", "above%", "above");
	for (int i = 0; i < PH_COUNT; i++) {
		const struct phase_result *p = &r->phase[i];

		if (!p->ran || !p->profile.valid || p->profile.layers.state == LAYERS_OFF)
			continue;
		fprintf(out, "%-18s", phase_get((enum phase_id)i)->row_name);
		layers_row(out, &p->profile.layers);
	}
	for (int i = 0; i < PH_COUNT; i++) {
		const struct prof_layers *l = &r->phase[i].profile.layers;

		if (!r->phase[i].ran || !r->phase[i].profile.valid || !l->above_why[0])
			continue;
		fprintf(out, "Profile layers: %s: nothing left above: %s\n",
			phase_get((enum phase_id)i)->row_name, l->above_why);
	}
	for (int i = 0; i < PH_COUNT; i++) {
		const struct prof_layers *l = &r->phase[i].profile.layers;

		/* unavailable: no program was loaded, nothing ran to cost anything */
		if (!r->phase[i].ran || !r->phase[i].profile.valid || l->state == LAYERS_OFF ||
		    l->state == LAYERS_UNAVAILABLE)
			continue;
		cost_line(out, phase_get((enum phase_id)i)->row_name, &l->cost);
	}
}

static void count_or_null(struct json_writer *w, const char *key, bool known, uint64_t v)
{
	if (known)
		json_add_uint(w, key, v);
	else
		json_add_null(w, key);
}

/* clyde-result/13: the programs' own time, from the kernel's run-time statistics. */
static void json_layers_cost(struct json_writer *w, const struct layers_cost *c)
{
	json_obj_begin(w, "cost");
	json_add_bool(w, "measured", c->measured);
	json_add_text(w, "why", c->why);
	json_known_or_null(w, "cpu_s", c->measured, c->cpu_s);
	count_or_null(w, "events", c->measured, c->events);
	json_known(w, "ns_per_event", c->ns_per_event);
	json_known(w, "rate_share", c->rate_share);
	json_obj_begin(w, "programs");
	for (int i = 0; i < LAYERS_PROGS; i++) {
		json_obj_begin(w, layers_prog_name(i));
		count_or_null(w, "events", c->measured, c->prog_events[i]);
		json_known_or_null(w, "cpu_s", c->measured, c->prog_cpu_s[i]);
		json_obj_end(w);
	}
	json_obj_end(w);
	json_obj_end(w);
}

void json_profile_layers(struct json_writer *w, const struct prof_layers *l)
{
	if (l->state == LAYERS_OFF)
		return;
	json_obj_begin(w, "layers");
	json_add_str(w, "state", state_names[l->state]);
	json_add_text(w, "why", l->why);
	json_add_uint(w, "bios", l->bios);
	for (int s = 0; s < LAYERS_SPANS; s++) {
		const struct layers_span_stat *st = &l->span[s];
		bool known = l->state == LAYERS_MEASURED && st->count;

		json_obj_begin(w, span_keys[s]);
		json_add_uint(w, "requests", st->count);
		json_known_or_null(w, "mean_s", known, st->mean_s);
		json_known_or_null(w, "p50_s", known, st->p50_s);
		json_known_or_null(w, "p99_s", known, st->p99_s);
		json_known_or_null(w, "sum_s", known, st->sum_s);
		json_obj_end(w);
	}
	json_known(w, "busy_share", l->busy_share);
	json_obj_begin(w, "operations");
	json_add_uint(w, "count", l->ops);
	json_known(w, "mean_s", l->op_mean_s);
	json_add_uint(w, "requests", l->own_requests);
	json_known_or_null(w, "queue_s", l->state == LAYERS_MEASURED, l->own_s[LAYERS_QUEUE]);
	json_known_or_null(w, "device_s", l->state == LAYERS_MEASURED, l->own_s[LAYERS_DEVICE]);
	json_known(w, "queue_share", l->queue_share);
	json_known(w, "device_share", l->device_share);
	json_known(w, "above_share", l->above_share);
	json_known(w, "above_mean_s", l->above_mean_s);
	json_add_text(w, "above_why", l->above_why);
	json_obj_end(w);
	json_add_str(w, "throttle", LAYERS_THROTTLE_NOTE);
	json_layers_cost(w, &l->cost);
	json_obj_end(w);
}
