// SPDX-License-Identifier: BSD-2-Clause
/* Merging and reading the latency histograms. */
#include "config.h"

#include <string.h>

#include "lib/histogram.h"

void hist_init(struct histogram *h)
{
	memset(h, 0, sizeof(*h));
}

void hist_merge(struct histogram *into, const struct histogram *from)
{
	if (!from->count)
		return;
	for (unsigned i = 0; i < HIST_BUCKETS; i++)
		into->bucket[i] += from->bucket[i];
	if (!into->count || from->min < into->min)
		into->min = from->min;
	if (from->max > into->max)
		into->max = from->max;
	into->count += from->count;
}

/* The range of values that land in bucket i. */
static void bucket_range(unsigned i, uint64_t *lo, uint64_t *hi)
{
	unsigned k, msb, shift;

	if (i < HIST_LINEAR) {
		*lo = *hi = i;
		return;
	}
	k = i - HIST_LINEAR;
	msb = 7u + k / HIST_SUB;
	shift = msb - HIST_SUB_BITS;
	*lo = (uint64_t)(HIST_SUB + k % HIST_SUB) << shift;
	*hi = *lo + ((uint64_t)1 << shift) - 1;
}

uint64_t hist_quantile(const struct histogram *h, double q)
{
	uint64_t rank, seen = 0, lo, hi, mid;
	double want;

	if (!h->count)
		return 0;
	if (q <= 0)
		return h->min;
	if (q >= 1)
		return h->max;
	/* The smallest value with at least q of the samples at or below it. */
	want = q * (double)h->count;
	rank = (uint64_t)want;
	if ((double)rank < want)
		rank++;
	if (rank < 1)
		rank = 1;
	for (unsigned i = 0; i < HIST_BUCKETS; i++) {
		seen += h->bucket[i];
		if (seen < rank)
			continue;
		bucket_range(i, &lo, &hi);
		mid = lo + (hi - lo) / 2;
		if (mid < h->min)
			mid = h->min;
		if (mid > h->max)
			mid = h->max;
		return mid;
	}
	return h->max;
}

double hist_mean(const struct histogram *h)
{
	uint64_t lo, hi;
	double sum = 0;

	if (!h->count)
		return 0;
	for (unsigned i = 0; i < HIST_BUCKETS; i++) {
		if (!h->bucket[i])
			continue;
		bucket_range(i, &lo, &hi);
		sum += (double)h->bucket[i] * ((double)lo + (double)(hi - lo) / 2);
	}
	return sum / (double)h->count;
}
