// SPDX-License-Identifier: BSD-2-Clause
/*
 * zcav's text, line for line as bonnie++ 2.00a's zcav prints it, so that
 * the gnuplot scripts kept for zcav read clyde-zcav's: a header, one
 * line per block "position-GiB MiB/s seconds", a block done in under a
 * second as a comment with "++++" for its rate (its time is too short
 * to trust), a "# Read" line after each pass, and with more than one
 * pass the means of each block's middle third after "#loops: N".
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>

#include "zcav/zcav.h"

void zcav_text_header(FILE *log)
{
	fputs("#block offset (GiB), MiB/s, time\n", log);
}

void zcav_text_block(FILE *log, double position_gib, double seconds, unsigned block_mib)
{
	if (seconds < ZCAV_MIN_SECONDS)
		fprintf(log, "#%.2f ++++ %.3f\n", position_gib, seconds);
	else
		fprintf(log, "%.2f %.2f %.3f\n", position_gib, (double)block_mib / seconds, seconds);
	fflush(log);
}

void zcav_text_pass(FILE *log, uint64_t mib, double seconds)
{
	/* zcav's whole numbers, truncated; no rate for a pass that took no time */
	long rate = seconds > 0 ? (long)((double)mib / seconds) : 0;

	fprintf(log, "# Read %llu megs in %ld seconds, %ld megabytes per second.\n",
		(unsigned long long)mib, (long)seconds, rate);
	fflush(log);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

double zcav_middle_mean(double *v, unsigned n)
{
	unsigned cut = n / 3;
	double sum = 0;

	if (!n)
		return NAN;
	qsort(v, n, sizeof(*v), cmp_double);
	for (unsigned i = cut; i < n - cut; i++)
		sum += v[i];
	return sum / (n - 2 * cut);
}

static double gib_of(uint64_t offset)
{
	return (double)offset / (1024.0 * MIB);
}

void zcav_text_means(FILE *log, const struct zcav_opts *o, const struct zcav_sweep *sw)
{
	fprintf(log, "#loops: %u\n", o->passes);
	zcav_text_header(log);
	for (size_t b = 0; sw->mean && b < sw->pass[0].nblocks; b++)
		zcav_text_block(log, gib_of(sw->pass[0].block[b].offset), sw->mean[b],
				o->block_mib);
}

/* The rate of the sweep's blocks, median, MiB/s; 0 when none took any time. */
static double median_rate(const struct zcav_sweep *sw)
{
	const struct zcav_pass *p = &sw->pass[sw->npasses - 1];
	double *r = malloc((p->nblocks ? p->nblocks : 1) * sizeof(*r));
	size_t n = 0;
	double m = 0;

	if (!r)
		return 0;
	for (size_t b = 0; b < p->nblocks; b++)
		if (p->block[b].seconds > 0)
			r[n++] = (double)p->block[b].bytes / MIB / p->block[b].seconds;
	if (n) {
		qsort(r, n, sizeof(*r), cmp_double);
		m = n % 2 ? r[n / 2] : (r[n / 2 - 1] + r[n / 2]) / 2;
	}
	free(r);
	return m;
}

void zcav_text_hint(FILE *err, const struct zcav_opts *o, const struct zcav_sweep *sw)
{
	const struct zcav_pass *p;
	double rate;
	uint64_t want = 1;

	if (!sw->npasses || !sw->pass[0].nblocks)
		return;
	p = &sw->pass[0];
	for (size_t b = 0; b < p->nblocks; b++) {
		double s = sw->mean ? sw->mean[b] : p->block[b].seconds;

		if (s >= ZCAV_MIN_SECONDS)
			return;
	}
	rate = median_rate(sw);
	/* a power of two taking about two seconds at the median rate: well over zcav's one */
	while ((double)want < 2 * rate && want < (1u << 20))
		want *= 2;
	fprintf(err, "clyde-zcav: %s: every block took under a second, so each line came out a"
		" comment (++++) as in zcav; at the %.0f MiB/s measured, -b %llu", sw->t->path, rate,
		(unsigned long long)want);
	if (o->chunk_mib != ZCAV_CHUNK_MIB)
		fprintf(err, ":%u", o->chunk_mib);
	fputs(" would give numbers", err);
	if (sw->size && want * MIB > sw->size)
		fprintf(err, " but is larger than the %llu MiB there are: --json has every block's"
			" rate", (unsigned long long)(sw->size / MIB));
	fputs("\n", err);
}
