// SPDX-License-Identifier: BSD-2-Clause
/*
 * clyde's own tables: its own phases, latency percentiles (--latency) and
 * CPU (--cpu); no commas.
 */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>

#include "core/phase.h"
#include "formats/format.h"

/*
 * clyde's own phases (KIND_OWN) that ran, which bonnie++'s table has no
 * cell for; nothing when none did, as in every run of clyde's own rows.
 */
void format_own_table(FILE *out, const struct run_result *r)
{
	bool head = false;

	for (int i = 0; i < PH_COUNT; i++) {
		const struct phase_def *d = phase_get((enum phase_id)i);
		const struct phase_result *p = &r->phase[i];

		if (d->kind != KIND_OWN || !p->ran)
			continue;
		if (!head)
			fprintf(out, "%-18s %12s %-8s %4s %9s\n", "clyde's own", "rate", "unit", "%CP",
				"wall s");
		head = true;
		fprintf(out, "%-18s %12.0f %-8s %4d %9.3f\n", d->row_name, phase_rate(p),
			phase_unit_names((enum phase_id)i)->rate, phase_cpu_percent(p), p->elapsed);
	}
}

void format_latency_table(FILE *out, const struct run_result *r)
{
	char cell[32];

	fprintf(out, "%-18s", "Latency");
	for (int q = 0; q < LAT_QUANTILES; q++)
		fprintf(out, " %9s", latency_quantile_names[q]);
	fprintf(out, " %9s %10s\n", "max", "ops");
	for (int i = 0; i < PH_COUNT; i++) {
		const struct phase_result *p = &r->phase[i];

		if (!p->ran)
			continue;
		fprintf(out, "%-18s", phase_get((enum phase_id)i)->row_name);
		for (int q = 0; q < LAT_QUANTILES; q++) {
			format_latency(cell, sizeof(cell), p->latency_q[q]);
			fprintf(out, " %9s", cell);
		}
		format_latency(cell, sizeof(cell), p->max_latency);
		fprintf(out, " %9s %10" PRIu64 "\n", cell, p->latency_count);
	}
}

void format_cpu_table(FILE *out, const struct run_result *r)
{
	fprintf(out, "%-18s %9s %9s %9s %9s %9s %12s\n", "CPU (seconds)", "wall", "user",
		"system", "dead", "flush", "CPU us per");
	for (int i = 0; i < PH_COUNT; i++) {
		const struct phase_result *p = &r->phase[i];
		double cpu = p->cpu_user + p->cpu_sys;
		enum phase_unit unit = phase_get((enum phase_id)i)->unit;
		double units = unit == UNIT_KIB ? p->amount / 1024.0 : p->amount;

		if (!p->ran)
			continue;
		fprintf(out, "%-18s %9.3f %9.3f %9.3f %9.3f %9.3f %7.1f %s\n", phase_get((enum phase_id)i)->row_name,
			p->elapsed, p->cpu_user, p->cpu_sys, phase_dead_time(p), p->flush,
			units > 0 ? cpu * 1e6 / units : 0.0,
			unit == UNIT_KIB ? "MiB" : unit == UNIT_SEEK ? "seek" : "file");
	}
}

double phase_ceiling(const struct run_result *r, enum phase_id id)
{
	const struct run_env *e = &r->env;

	switch (phase_family(id)->ceiling) {
	case CEILING_SYSCALL:
		/* KiB/s at a call per byte */
		return e->ceil_syscall_ns > 0 ? 1e9 / e->ceil_syscall_ns / 1024.0 : 0;
	case CEILING_COPY:
		/* KiB/s at memory speed */
		return e->ceil_copy_bps > 0 ? e->ceil_copy_bps / 1024.0 : 0;
	default:
		return 0;
	}
}

void format_ceilings_table(FILE *out, const struct run_result *r)
{
	char rate[32], ceil[32];

	fprintf(out, "Ceilings: system call %.0f ns; memory copy %.1f GiB/s\n",
		r->env.ceil_syscall_ns, r->env.ceil_copy_bps / (1 << 30));
	fprintf(out, "%-18s %9s %9s %9s\n", "Phase", "rate", "ceiling", "fraction");
	for (int i = 0; i < PH_COUNT; i++) {
		const struct phase_result *p = &r->phase[i];
		double c = phase_ceiling(r, (enum phase_id)i);

		if (!p->ran || c <= 0)
			continue;
		format_kib_rate(rate, sizeof(rate), phase_rate(p));
		format_kib_rate(ceil, sizeof(ceil), c);
		fprintf(out, "%-18s %9s %9s %9.3f\n", phase_get((enum phase_id)i)->row_name, rate, ceil, phase_rate(p) / c);
	}
}
