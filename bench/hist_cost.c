// SPDX-License-Identifier: BSD-2-Clause
/*
 * hist_cost: nanoseconds per hist_record(), CPU-bound, over latencies
 * drawn beforehand so that only the recording is timed. Prints one line:
 * "hist_record: N.NN ns per record (M records)".
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include "lib/histogram.h"
#include "lib/rng.h"
#include "lib/timing.h"

#define VALUES (1u << 16)
#define RECORDS 200000000ull

int main(void)
{
	static struct histogram h;
	uint64_t *v = malloc(VALUES * sizeof(*v));
	struct rng r;
	uint64_t t0, t1;

	if (!v)
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
	free(v);
	return 0;
}
