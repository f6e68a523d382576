// SPDX-License-Identifier: BSD-2-Clause
/*
 * The cluster table (under mpirun): per phase the aggregate rate over
 * first start to last end, the stonewall view when the first rank
 * finished, the sum of the ranks' own rates, how far apart the ranks
 * started and ended, and --stonewall's rate at its limit; then each
 * host's CPU. Printed before the CSV line, with no commas.
 */
#include "config.h"

#include <stdio.h>

#include "core/phase.h"
#include "formats/format.h"

static void head(FILE *out, const struct cluster_run *c)
{
	double lo = 0, hi = 0;

	for (unsigned r = 0; r < c->ranks; r++) {
		if (c->offset[r] < lo)
			lo = c->offset[r];
		if (c->offset[r] > hi)
			hi = c->offset[r];
	}
	fprintf(out, "Many clients: %u ranks on %u host%s x -c %u; clocks aligned to rank 0 "
		"(offsets %.6f to %.6f s)", c->ranks, c->hosts, c->hosts == 1 ? "" : "s",
		c->workers, lo, hi);
	if (c->read_other)
		fprintf(out, "; reads from rank +%d", c->read_other);
	if (c->stonewall_s > 0)
		fprintf(out, "; stonewall %g s worn out", c->stonewall_s);
	fputc('\n', out);
}

/* A rate in the phase's unit, or "-" when not known. */
static void rate_cell(char *buf, size_t len, bool known, double rate)
{
	if (known)
		snprintf(buf, len, "%.0f", rate);
	else
		snprintf(buf, len, "-");
}

/* What --stonewall's limit found done, over the limit: IOR's stonewall rate. */
static void deadline_cell(char *buf, size_t len, const struct cluster_run *c,
			  const struct cluster_phase *cp)
{
	double amount = 0;

	if (c->stonewall_s <= 0) {
		snprintf(buf, len, "-");
		return;
	}
	for (unsigned r = 0; r < c->ranks; r++) {
		if (cp->rank[r].at_deadline < 0) {
			snprintf(buf, len, "not hit");
			return;
		}
		amount += cp->rank[r].at_deadline;
	}
	snprintf(buf, len, "%.0f", amount / c->stonewall_s);
}

static void phase_rows(FILE *out, const struct cluster_run *c)
{
	fprintf(out, "%-18s %-8s %11s %11s %11s %11s %9s %9s\n", "Phase", "unit", "aggregate",
		"first done", "sum/rank", "at limit", "start s", "end s");
	for (int i = 0; i < PH_COUNT; i++) {
		const struct cluster_phase *cp = &c->phase[i];
		const struct phase_def *d = phase_get((enum phase_id)i);
		char first[24], lim[24];

		if (!cp->rank)
			continue;
		rate_cell(first, sizeof(first), cp->agg.stonewall_known, cp->agg.stonewall_rate);
		deadline_cell(lim, sizeof(lim), c, cp);
		fprintf(out, "%-18s %-8s %11.0f %11s %11.0f %11s %9.4f %9.4f\n", d->row_name,
			phase_unit_names((enum phase_id)i)->rate, cp->agg.rate, first,
			cp->agg.sum_of_rates, lim, cp->agg.last_start - cp->agg.first_start,
			cp->agg.last_end - cp->agg.first_end);
	}
}

static void host_rows(FILE *out, const struct cluster_run *c)
{
	for (unsigned h = 0; h < c->hosts; h++) {
		unsigned n = 0;

		for (unsigned r = 0; r < c->ranks; r++)
			n += c->rank_host[r] == h;
		fputs("Host ", out);
		format_put_field(out, c->host[h]);
		fprintf(out, ": %u rank%s; CPU user+sys s:", n, n == 1 ? "" : "s");
		for (int i = 0; i < PH_COUNT; i++) {
			double user, sys;

			if (!c->phase[i].rank)
				continue;
			cluster_host_cpu(c, i, h, &user, &sys);
			fprintf(out, " %s %.3f+%.3f", phase_csv_name((enum phase_id)i), user, sys);
		}
		fputc('\n', out);
	}
}

void format_cluster_table(FILE *out, const struct run_result *r)
{
	if (!r->cluster)
		return;
	head(out, r->cluster);
	phase_rows(out, r->cluster);
	host_rows(out, r->cluster);
	fprintf(out, "aggregate: all ranks' work over first start to last end; first done: their "
		"work when the first rank finished over first start to then; sum/rank: the sum of "
		"each rank's own rate\n");
}
