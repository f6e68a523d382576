// SPDX-License-Identifier: BSD-2-Clause
/*
 * --latency-target's and --open-loop's table (issue 45): per phase the
 * capacity at the bound beside the phase's own rate, then each open-loop
 * step: offered and achieved rate, latency from the scheduled time, the
 * requests sent late or never, and the knee. Nothing when none was asked.
 */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>

#include "core/capacity.h"
#include "core/phase.h"
#include "formats/format.h"

static void search_rows(FILE *out, const struct run_result *r)
{
	bool head = false;
	char lat[32], want[48];

	for (int i = 0; i < PH_COUNT; i++) {
		const struct capacity_result *c = r->phase[i].capacity;
		const char *unit = phase_unit_names((enum phase_id)i)->rate;

		if (!c || !c->searched)
			continue;
		if (!head)
			fprintf(out, "%-18s %12s %-14s %12s %5s %8s\n", "Capacity", "unbounded",
				"target", "at the bound", "conc", "windows");
		head = true;
		format_latency(lat, sizeof(lat), c->target_s);
		snprintf(want, sizeof(want), "p%g<=%s", c->pct, lat);
		if (c->met)
			fprintf(out, "%-18s %12.0f %-14s %12.0f %5u %8u  %s%s\n",
				phase_get((enum phase_id)i)->row_name, c->unbounded_rate, want, c->rate,
				c->conc, c->nsearch, unit, c->by_depth ? " (conc: io_uring depth)" : "");
		else
			fprintf(out, "%-18s %12.0f %-14s %12s %5s %8u  %s (not met at concurrency 1)\n",
				phase_get((enum phase_id)i)->row_name, c->unbounded_rate, want, "-", "-",
				c->nsearch, unit);
	}
}

static void open_rows(FILE *out, const struct run_result *r)
{
	bool head = false;
	char p50[32], p99[32], p999[32];

	for (int i = 0; i < PH_COUNT; i++) {
		const struct capacity_result *c = r->phase[i].capacity;

		if (!c || !c->open)
			continue;
		if (!head)
			fprintf(out, "%-18s %10s %10s %9s %9s %9s %8s %8s\n", "Open loop", "offered",
				"achieved", "p50", "p99", "p99.9", "late", "unsent");
		head = true;
		fprintf(out, "%-18s (%s arrivals, %s, rates in %s)\n",
			phase_get((enum phase_id)i)->row_name, capacity_arrivals_name(c->arrivals),
			c->sweep ? "sweep" : "rates given", phase_unit_names((enum phase_id)i)->rate);
		for (unsigned k = 0; k < c->nopen; k++) {
			const struct cap_open_step *st = &c->steps[k];

			format_latency(p50, sizeof(p50), st->p50_s);
			format_latency(p99, sizeof(p99), st->p99_s);
			format_latency(p999, sizeof(p999), st->p999_s);
			fprintf(out, "%-18s %10.0f %10.0f %9s %9s %9s %8" PRIu64 " %8" PRIu64 "%s\n", "",
				st->offered, st->achieved, p50, p99, p999, st->sent_late, st->unsent,
				c->saturated && st->offered == c->knee ? "  knee" : "");
		}
		if (c->saturated)
			fprintf(out, "%-18s knee %.0f (achieved first below 95%% of offered)\n", "",
				c->knee);
		else
			fprintf(out, "%-18s no knee: %s\n", "",
				c->note[0] ? c->note : "every step kept up");
	}
}

void format_capacity_table(FILE *out, const struct run_result *r)
{
	search_rows(out, r);
	open_rows(out, r);
}
