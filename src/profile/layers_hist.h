/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef CLYDE_PROFILE_LAYERS_HIST_H
#define CLYDE_PROFILE_LAYERS_HIST_H

/*
 * The buckets of --profile=layers' latency histograms, shared by the BPF
 * program that fills them in the kernel (layers.bpf.c) and the C that
 * reads them (layers.c): plain C types only, no header of either side.
 *
 * Below LAYERS_SUB ns one bucket per nanosecond; above, each power of
 * two split into LAYERS_SUB equal sub-buckets, so a bucket's midpoint
 * is within 1/(2 * LAYERS_SUB) (1.6%) of any value in it: log2 buckets
 * alone would put p50 anywhere within a factor of two.
 */
#define LAYERS_SUB_BITS	5
#define LAYERS_SUB	(1u << LAYERS_SUB_BITS)
#define LAYERS_MAX_MSB	40	/* 2^41 ns, about 37 minutes: the last bucket holds the rest */
#define LAYERS_BUCKETS	(LAYERS_SUB + (LAYERS_MAX_MSB - LAYERS_SUB_BITS + 1) * LAYERS_SUB)
/*
 * The kernel's arrays have LAYERS_SLOTS, a power of two above LAYERS_BUCKETS,
 * so that the program can mask an index where the verifier cannot follow
 * the bucket's bounds.
 */
#define LAYERS_SLOTS	2048
#define LAYERS_MAX_DEVS	8

/* The two spans timed for each request. */
enum layers_span {
	LAYERS_QUEUE,	/* bio queued (block_bio_queue) -> its request issued (block_rq_issue) */
	LAYERS_DEVICE,	/* request issued -> completed (block_rq_complete) */
	LAYERS_SPANS,
};

/* The bucket of a time in nanoseconds; no builtins, so that the BPF target compiles it. */
static inline unsigned int layers_bucket(unsigned long long ns)
{
	unsigned long long v = ns;
	unsigned int msb = 0;

	if (ns < LAYERS_SUB)
		return (unsigned int)ns;
	if (v >> 32) {
		msb += 32;
		v >>= 32;
	}
	if (v >> 16) {
		msb += 16;
		v >>= 16;
	}
	if (v >> 8) {
		msb += 8;
		v >>= 8;
	}
	if (v >> 4) {
		msb += 4;
		v >>= 4;
	}
	if (v >> 2) {
		msb += 2;
		v >>= 2;
	}
	if (v >> 1)
		msb += 1;
	if (msb > LAYERS_MAX_MSB)
		return LAYERS_BUCKETS - 1;
	return LAYERS_SUB + (msb - LAYERS_SUB_BITS) * LAYERS_SUB +
	       (unsigned int)(ns >> (msb - LAYERS_SUB_BITS)) - LAYERS_SUB;
}

#endif
