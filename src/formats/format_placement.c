// SPDX-License-Identifier: BSD-2-Clause
/*
 * Where the workers really ran, on stderr with the context lines: the
 * plan, each worker's CPU set, the CPUs it was seen on and the node of
 * its buffers over the run, what the kernel refused or narrowed; and a
 * line for each phase whose slowest worker fell below 0.9 x the median.
 * No commas: they are context lines.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/phase.h"
#include "formats/format.h"
#include "placement/placement.h"

/* Below this share of the median rate a worker is named. */
#define WORKER_SLOW_FRACTION 0.9

double worker_rate(const struct worker_result *w)
{
	double secs = w->t_end - w->t_start;

	return secs > 0 ? w->amount / secs : 0;
}

/*
 * The CPUs a worker's phase ran on: its threads' start and end CPUs (the
 * seekers' in the seek phase), else the two samples alone.
 */
static void add_ran_on(struct place_mask *seen, const struct worker_result *w)
{
	struct place_mask m;

	if (w->ran_on[0] && !place_mask_parse(w->ran_on, &m)) {
		for (int i = 0; i < PLACE_MASK_WORDS; i++)
			seen->w[i] |= m.w[i];
		return;
	}
	if (w->cpu_first >= 0)
		place_mask_set(seen, (unsigned)w->cpu_first);
	if (w->cpu_last >= 0)
		place_mask_set(seen, (unsigned)w->cpu_last);
}

/* One worker over every phase: the CPUs it was seen on and its buffers' nodes. */
static void worker_line(FILE *out, const struct run_result *r, unsigned k)
{
	struct place_mask seen = { { 0 } }, nodes = { { 0 } };
	const char *set = NULL, *note = NULL;
	char list[128];

	for (int i = 0; i < PH_COUNT; i++) {
		const struct phase_result *p = &r->phase[i];
		const struct worker_result *w;

		if (!p->ran || k >= p->nworkers)
			continue;
		w = &p->workers[k];
		add_ran_on(&seen, w);
		if (w->buffer_node >= 0)
			place_mask_set(&nodes, (unsigned)w->buffer_node);
		if (!set && w->cpus[0])
			set = w->cpus;
		if (!note && w->note[0])
			note = w->note;
	}
	fprintf(out, "; worker %u", k);
	if (set) {
		fputs(" set ", out);
		format_put_field(out, set);
	}
	place_mask_format(&seen, list, sizeof(list));
	fprintf(out, " ran on CPU %s", list[0] ? list : "unknown");
	place_mask_format(&nodes, list, sizeof(list));
	fprintf(out, " buffers on node %s", list[0] ? list : "unknown");
	if (note) {
		fputs(" (", out);
		format_put_field(out, note);
		fputc(')', out);
	}
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Workers that differ by more than noise: the slowest under 0.9 x the median. */
static void spread_lines(FILE *out, const struct run_result *r)
{
	for (int i = 0; i < PH_COUNT; i++) {
		const struct phase_result *p = &r->phase[i];
		double rates[256], median, slowest = INFINITY;
		unsigned n = p->nworkers < 256 ? p->nworkers : 256, who = 0;

		/* Under half a second a worker's rate is mostly its start-up: noise. */
		if (!p->ran || n < 2 || p->elapsed < MIN_REPORT_SECONDS)
			continue;
		for (unsigned k = 0; k < n; k++) {
			rates[k] = worker_rate(&p->workers[k]);
			if (rates[k] < slowest) {
				slowest = rates[k];
				who = k;
			}
		}
		qsort(rates, n, sizeof(rates[0]), cmp_double);
		median = n % 2 ? rates[n / 2] : (rates[n / 2 - 1] + rates[n / 2]) / 2;
		if (median <= 0 || slowest >= WORKER_SLOW_FRACTION * median)
			continue;
		fprintf(out, "clyde: workers differ in %s: worker %u at %.2f x the median "
			"worker's rate (CPU set ", phase_get((enum phase_id)i)->name, who,
			slowest / median);
		format_put_field(out, p->workers[who].cpus[0] ? p->workers[who].cpus : "unknown");
		fputs(" ran on ", out);
		format_put_field(out, p->workers[who].ran_on[0] ? p->workers[who].ran_on : "unknown");
		fputs(")\n", out);
	}
}

void format_placement(FILE *out, const struct run_result *r)
{
	unsigned workers = 0;

	for (int i = 0; i < PH_COUNT; i++)
		if (r->phase[i].ran && r->phase[i].nworkers > workers)
			workers = r->phase[i].nworkers;
	fputs("topology: ", out);
	format_put_field(out, r->env.topology);
	fputs("\nplacement: ", out);
	format_put_field(out, r->env.placement);
	for (unsigned k = 0; k < workers; k++)
		worker_line(out, r, k);
	fputc('\n', out);
	spread_lines(out, r);
}
