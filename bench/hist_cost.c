// SPDX-License-Identifier: BSD-2-Clause
/*
 * hist_cost: nanoseconds per hist_record(), CPU-bound, over latencies
 * drawn beforehand so that only the recording is timed, then the same for
 * series_record() (a phase's time series, completions 1 us apart). Prints
 * two lines: "hist_record: N.NN ns per record (M records, ...)" and
 * "series_record: N.NN ns per record (...)".
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include "lib/histogram.h"
#include "lib/series.h"
#include "lib/rng.h"
#include "lib/timing.h"

#define VALUES (1u << 16)
#define RECORDS 200000000ull

int main(void)
{
	static struct histogram h;
	uint64_t *v = malloc(VALUES * sizeof(*v));
	struct series *s = series_new(0, 0, false);
	struct rng r;
	uint64_t t0, t1;

	if (!v || !s)
		return 1;
	rng_seed(&r, 1);
	/* Latencies as phases see them: a few us to a few ms. */
	for (unsigned i = 0; i < VALUES; i++)
		v[i] = 2000 + rng_below(&r, 2000000);
	hist_init(&h);
	t0 = now_ns();
	for (uint64_t i = 0; i < RECORDS; i++)
		hist_record(&h, v[i & (VALUES - 1)]);
	t1 = now_ns();
	printf("hist_record: %.2f ns per record (%llu records, p50 %llu ns)\n",
	       (double)(t1 - t0) / RECORDS, (unsigned long long)h.count,
	       (unsigned long long)hist_quantile(&h, 0.5));
	t0 = now_ns();
	series_start(s, t0);
	for (uint64_t i = 0; i < RECORDS; i++)
		series_record(s, t0 + i * 1000, v[i & (VALUES - 1)], 8192);
	t1 = now_ns();
	printf("series_record: %.2f ns per record (%u intervals of %.1f s)\n",
	       (double)(t1 - t0) / RECORDS, s->used, (double)s->width_ns / 1e9);
	series_free(s);
	free(v);
	return 0;
}
