// SPDX-License-Identifier: BSD-2-Clause
/* -x N: what the runs say together, median and spread per phase. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/phase.h"
#include "formats/format.h"

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double median_of(double *v, unsigned n)
{
	qsort(v, n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

void summarize_phase(const struct run_result *runs, unsigned count, enum phase_id id,
		     struct phase_summary *out)
{
	double *rate = calloc(count ? count : 1, sizeof(*rate));
	double *cpu = calloc(count ? count : 1, sizeof(*cpu));
	double sum = 0, sq = 0, mean;
	unsigned n = 0;

	out->runs = 0;
	if (!rate || !cpu)
		goto out;
	for (unsigned i = 0; i < count; i++) {
		const struct phase_result *p = &runs[i].phase[id];

		if (!p->ran || p->elapsed <= 0)
			continue;
		rate[n] = phase_rate(p);
		cpu[n] = phase_cpu_percent(p);
		sum += rate[n];
		n++;
	}
	out->runs = n;
	if (!n)
		goto out;
	mean = sum / n;
	for (unsigned i = 0; i < n; i++)
		sq += (rate[i] - mean) * (rate[i] - mean);
	out->cv_percent = n > 1 && mean > 0 ? sqrt(sq / (n - 1)) / mean * 100.0 : 0;
	out->median = median_of(rate, n);
	out->min = rate[0];
	out->max = rate[n - 1];
	out->median_cpu = median_of(cpu, n);
out:
	free(rate);
	free(cpu);
}

static void rate_text(char *buf, size_t len, enum phase_id id, double v)
{
	if (phase_get(id)->unit == UNIT_KIB)
		format_kib_rate(buf, len, v);
	else
		format_count5(buf, len, v, phase_get(id)->unit == UNIT_SEEK);
}

void format_summary(FILE *out, const struct run_result *runs, unsigned count)
{
	char med[32], lo[32], hi[32], range[80];

	/* Rates in the table's notation: KiB/s as NNNNk/NN.Nm/N.Ng, else per second. */
	fprintf(out, "Summary of %u runs   %7s %17s %7s %5s\n", count, "median", "min..max",
		"CV%", "CPU%");
	for (int i = 0; i < PH_COUNT; i++) {
		struct phase_summary s;

		summarize_phase(runs, count, (enum phase_id)i, &s);
		if (!s.runs)
			continue;
		rate_text(med, sizeof(med), (enum phase_id)i, s.median);
		rate_text(lo, sizeof(lo), (enum phase_id)i, s.min);
		rate_text(hi, sizeof(hi), (enum phase_id)i, s.max);
		snprintf(range, sizeof(range), "%s..%s", lo + strspn(lo, " "), hi + strspn(hi, " "));
		fprintf(out, "%-20s %7s %17s %7.1f %5.0f\n", phase_name((enum phase_id)i),
			med + strspn(med, " "), range, s.cv_percent, s.median_cpu);
	}
}
