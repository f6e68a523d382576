// SPDX-License-Identifier: BSD-2-Clause
/* clyde's own tables: latency percentiles (--latency) and CPU (--cpu). */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>

#include "format.h"

static const char *const row_names[PH_COUNT] = {
	[PH_PUTC] = "Per-char write",
	[PH_PUT_BLOCK] = "Block write",
	[PH_REWRITE] = "Rewrite",
	[PH_GETC] = "Per-char read",
	[PH_GET_BLOCK] = "Block read",
	[PH_SEEKS] = "Random seeks",
	[PH_SEQ_CREATE] = "Seq create",
	[PH_SEQ_STAT] = "Seq stat/read",
	[PH_SEQ_DEL] = "Seq delete",
	[PH_RAN_CREATE] = "Random create",
	[PH_RAN_STAT] = "Random stat/read",
	[PH_RAN_DEL] = "Random delete",
};

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
		fprintf(out, "%-18s", row_names[i]);
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
		double units = i < PH_SEEKS ? p->amount / 1024.0 : p->amount;

		if (!p->ran)
			continue;
		fprintf(out, "%-18s %9.3f %9.3f %9.3f %9.3f %9.3f %7.1f %s\n", row_names[i],
			p->elapsed, p->cpu_user, p->cpu_sys, phase_dead_time(p), p->flush,
			units > 0 ? cpu * 1e6 / units : 0.0,
			i < PH_SEEKS ? "MiB" : i == PH_SEEKS ? "seek" : "file");
	}
}

double phase_ceiling(const struct run_result *r, enum phase_id id)
{
	const struct run_env *e = &r->env;

	if ((id == PH_PUTC || id == PH_GETC) && e->ceil_syscall_ns > 0)
		return 1e9 / e->ceil_syscall_ns / 1024.0;	/* KiB/s at a call per byte */
	if ((id == PH_PUT_BLOCK || id == PH_REWRITE || id == PH_GET_BLOCK) && e->ceil_copy_bps > 0)
		return e->ceil_copy_bps / 1024.0;		/* KiB/s at memory speed */
	return 0;
}

void format_ceilings_table(FILE *out, const struct run_result *r)
{
	char rate[32], ceil[32];

	fprintf(out, "Ceilings: system call %.0f ns, memory copy %.1f GiB/s\n",
		r->env.ceil_syscall_ns, r->env.ceil_copy_bps / (1 << 30));
	fprintf(out, "%-18s %9s %9s %9s\n", "Phase", "rate", "ceiling", "fraction");
	for (int i = PH_PUTC; i <= PH_GET_BLOCK; i++) {
		const struct phase_result *p = &r->phase[i];
		double c = phase_ceiling(r, (enum phase_id)i);

		if (!p->ran || c <= 0)
			continue;
		format_kib_rate(rate, sizeof(rate), phase_rate(p));
		format_kib_rate(ceil, sizeof(ceil), c);
		fprintf(out, "%-18s %9s %9s %9.3f\n", row_names[i], rate, ceil, phase_rate(p) / c);
	}
}
