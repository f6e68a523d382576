/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef CLYDE_HISTOGRAM_H
#define CLYDE_HISTOGRAM_H

#include <stdint.h>

/*
 * Latency histogram with log-linear buckets: values below 128 ns have a
 * bucket each; above, every power of two is split in 64 equal buckets, so
 * a bucket is at most 1/64 of its value wide and its midpoint is within
 * 0.8% of any value in it. Fixed size (about 21 KiB), no allocation per
 * record; one per thread and phase, merged at the end.
 */
#define HIST_LINEAR		128u
#define HIST_SUB_BITS		6u
#define HIST_SUB		(1u << HIST_SUB_BITS)
#define HIST_MAX_MSB		45u	/* 2^46 ns, about 19 hours; longer clamps */
#define HIST_BUCKETS		(HIST_LINEAR + (HIST_MAX_MSB - 6u) * HIST_SUB)

struct histogram {
	uint64_t count;
	uint64_t min;
	uint64_t max;
	uint64_t bucket[HIST_BUCKETS];
};

/* A zeroed histogram is empty and ready; hist_init says so explicitly. */
void hist_init(struct histogram *h);

static inline unsigned hist_index(uint64_t ns)
{
	unsigned msb;

	if (ns < HIST_LINEAR)
		return (unsigned)ns;
	msb = 63u - (unsigned)__builtin_clzll(ns);
	if (msb > HIST_MAX_MSB)
		return HIST_BUCKETS - 1;
	/* The top HIST_SUB_BITS + 1 bits: 64..127 within this power of two. */
	return HIST_LINEAR + (msb - 7u) * HIST_SUB +
	       (unsigned)(ns >> (msb - HIST_SUB_BITS)) - HIST_SUB;
}

static inline void hist_record(struct histogram *h, uint64_t ns)
{
	if (!h->count || ns < h->min)
		h->min = ns;
	if (ns > h->max)
		h->max = ns;
	h->bucket[hist_index(ns)]++;
	h->count++;
}

void hist_merge(struct histogram *into, const struct histogram *from);

/* The value at quantile q (0..1): the midpoint of its bucket, within [min, max]. */
uint64_t hist_quantile(const struct histogram *h, double q);

/* The mean in ns, from the buckets' midpoints (within 0.8%, as they are); 0 when empty. */
double hist_mean(const struct histogram *h);

#endif
