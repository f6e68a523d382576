// SPDX-License-Identifier: BSD-2-Clause
/* The latency histogram against exact percentiles of known distributions. */
#include "config.h"

#include <stdlib.h>

#include "lib/histogram.h"
#include "lib/rng.h"
#include "unit.h"

#define N 1000000

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* The exact value at quantile q: the smallest with at least q of the samples. */
static uint64_t exact(const uint64_t *sorted, size_t n, double q)
{
	size_t rank = (size_t)(q * (double)n);

	if ((double)rank < q * (double)n)
		rank++;
	return sorted[rank ? rank - 1 : 0];
}

static void check_distribution(const char *name, uint64_t *v, size_t n)
{
	static const double qs[] = { 0.01, 0.10, 0.50, 0.90, 0.99, 0.999, 0.9999 };
	static struct histogram h, a, b;

	hist_init(&h);
	hist_init(&a);
	hist_init(&b);
	for (size_t i = 0; i < n; i++) {
		hist_record(&h, v[i]);
		hist_record(i % 2 ? &a : &b, v[i]);
	}
	hist_merge(&a, &b);
	qsort(v, n, sizeof(*v), cmp_u64);
	CHECK(h.count == n && h.min == v[0] && h.max == v[n - 1], "%s: count/min/max", name);
	for (size_t i = 0; i < sizeof(qs) / sizeof(qs[0]); i++) {
		uint64_t want = exact(v, n, qs[i]), got = hist_quantile(&h, qs[i]);
		double err = want ? ((double)got - (double)want) / (double)want : 0;

		CHECK(err <= 0.01 && err >= -0.01, "%s: q%g = %llu, exact %llu (%.3f%%)", name, qs[i],
		      (unsigned long long)got, (unsigned long long)want, err * 100);
		CHECK(hist_quantile(&a, qs[i]) == got, "%s: merged halves differ at q%g", name, qs[i]);
	}
	CHECK(hist_quantile(&h, 1.0) == v[n - 1], "%s: q1 is the max", name);
}

int main(void)
{
	uint64_t *v = malloc(N * sizeof(*v));
	struct rng r;

	CHECK(sizeof(struct histogram) <= 32 * 1024, "histogram is %zu bytes", sizeof(struct histogram));
	rng_seed(&r, 42);
	/* Uniform microseconds to milliseconds. */
	for (size_t i = 0; i < N; i++)
		v[i] = 1000 + rng_below(&r, 10000000);
	check_distribution("uniform 1us..10ms", v, N);
	/* Log-uniform over 50 ns .. 50 s: every bucket size in play. */
	for (size_t i = 0; i < N; i++) {
		unsigned shift = (unsigned)rng_below(&r, 30);

		v[i] = 50 + (rng_below(&r, 64) + 64) * ((uint64_t)1 << shift);
	}
	check_distribution("log-uniform 50ns..50s", v, N);
	/* A tail: mostly fast, one in a thousand a hundred times slower. */
	for (size_t i = 0; i < N; i++)
		v[i] = i % 1000 ? 5000 + rng_below(&r, 500) : 500000 + rng_below(&r, 50000);
	check_distribution("fast with a slow tail", v, N);
	/* Exact below 128 ns. */
	struct histogram h;

	hist_init(&h);
	for (uint64_t i = 0; i < 100; i++)
		hist_record(&h, i);
	CHECK(hist_quantile(&h, 0.5) == 49 && hist_quantile(&h, 0.9) == 89, "small values exact");
	hist_init(&h);
	CHECK(hist_quantile(&h, 0.5) == 0, "empty histogram");
	hist_record(&h, (uint64_t)1 << 60);
	CHECK(hist_quantile(&h, 0.5) == (uint64_t)1 << 60, "a huge value clamps to the max seen");
	free(v);
	return unit_verdict("unit_histogram");
}
