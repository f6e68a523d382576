/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef CLYDE_SERIES_H
#define CLYDE_SERIES_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * A phase's time series: per interval of time since the phase's timed
 * start, the operations that completed in it, their work (in the phase's
 * smallest unit: bytes, seeks, files, entries, so sums are exact), the
 * slowest, and a sketch of their latencies (64 buckets, two per power of
 * two from 64 ns, so a quantile is within one bucket's width).
 *
 * Adaptive (the default): SERIES_SLOTS slots of SERIES_MIN_NS (100 ms)
 * that double in width when the phase outlasts them, as a timeline does,
 * so a phase of any length ends with at most 512 intervals of at least
 * 100 ms. Fixed (--interval=MS): every slot that wide; the array grows
 * up to SERIES_MAX_BYTES and past that the width doubles (capped says so).
 *
 * The machine's side (CPU of the process, dirty pages, the device's
 * bytes) is an optional parallel array filled once per slot, at its end
 * (phases/series_sampler.c); merged series carry both.
 * One series belongs to one thread while it records; merging is the
 * runner's, after the threads have joined.
 */
#define SERIES_SLOTS		512u
#define SERIES_BUCKETS		64u
#define SERIES_MIN_NS		100000000ull
#define SERIES_MAX_BYTES	(1u << 20)

struct series_slot {
	uint64_t work;
	uint64_t ops;
	uint64_t max_ns;
	uint32_t sketch[SERIES_BUCKETS];
};

/* The machine at the end of a slot; -1: not measured. */
struct series_machine {
	bool set;		/* a sample landed in this slot */
	bool gauges_only;	/* only the stall reader's gauges: no CPU or bytes read */
	double cpu_user;	/* the process's CPU in the slot, seconds */
	double cpu_sys;
	int64_t dirty_kib;	/* the machine's, at the slot's end */
	int64_t writeback_kib;
	int64_t file_dirty_kib;	/* the phase's test files' (cachestat), at the slot's end */
	int64_t file_writeback_kib;
	int64_t dev_read_bytes;	/* the device's, in the slot */
	int64_t dev_write_bytes;
};

struct series {
	uint64_t origin_ns;	/* the phase's timed start (CLOCK_MONOTONIC) */
	uint64_t width_ns;	/* every slot's width */
	bool fixed;		/* --interval set the width */
	bool capped;		/* fixed, but the memory cap doubled the width */
	unsigned cap;		/* slots allocated */
	unsigned used;		/* slots up to the last one written */
	/* the slot the last record went to, and when it starts */
	unsigned hot;
	uint64_t hot_start;
	struct series_slot *slot;
	struct series_machine *mach;	/* NULL: no machine side */
	size_t peak_bytes;	/* the most this series held */
	size_t record_bytes;	/* merged: the most one recording series (a thread's) held */
	uint64_t end_ns;	/* series_close's end */
	/* what the machine side measured, as the sampler says it */
	double sampler_cpu_s;
	char dirty_source[160];		/* "" not measured */
	char file_source[32];
	char dev_source[64];
};

/*
 * A new series from origin_ns; fixed_ns 0 for adaptive widths, else the
 * fixed width. machine: with the machine side. NULL when out of memory.
 */
struct series *series_new(uint64_t origin_ns, uint64_t fixed_ns, bool machine);
void series_free(struct series *s);

/* The phase's timed start, once it is known. */
static inline void series_start(struct series *s, uint64_t origin_ns)
{
	s->origin_ns = s->hot_start = origin_ns;
}

/* The slot of when_ns, grown or coarsened to hold it; out of line. */
struct series_slot *series_slot_at(struct series *s, uint64_t when_ns);

/* The sketch's bucket of a latency: below 64 ns, then two per power of two, clamped. */
static inline unsigned series_bucket(uint64_t ns)
{
	unsigned msb, b;

	if (ns < 64)
		return 0;
	msb = 63u - (unsigned)__builtin_clzll(ns);
	b = (msb - 6u) * 2u + 1u + (unsigned)((ns >> (msb - 1u)) & 1u);
	return b < SERIES_BUCKETS ? b : SERIES_BUCKETS - 1u;
}

/* One operation of lat_ns and work units completed at when_ns. */
static inline void series_record(struct series *s, uint64_t when_ns, uint64_t lat_ns,
				 uint64_t work)
{
	struct series_slot *sl = when_ns - s->hot_start < s->width_ns ? &s->slot[s->hot]
								       : series_slot_at(s, when_ns);

	sl->ops++;
	sl->work += work;
	if (lat_ns > sl->max_ns)
		sl->max_ns = lat_ns;
	sl->sketch[series_bucket(lat_ns)]++;
}

/* Work without an operation of its own (a tree's files): the last record's slot. */
static inline void series_add_work(struct series *s, uint64_t work)
{
	s->slot[s->hot].work += work;
	if (s->used <= s->hot)
		s->used = s->hot + 1;
}

/*
 * --live: one worker's running totals, read by whichever worker reads
 * the machine while the others add (relaxed atomics on each worker's own
 * cache lines; the reader takes differences, so nothing is ever reset). The sketch counts
 * wrap at 2^32, which differences of 32 bits survive.
 */
struct series_live {
	_Alignas(64) atomic_uint_fast64_t work;
	atomic_uint_fast64_t ops;
	atomic_uint sketch[SERIES_BUCKETS];
};

static inline void series_live_record(struct series_live *l, uint64_t lat_ns, uint64_t work)
{
	atomic_fetch_add_explicit(&l->work, work, memory_order_relaxed);
	atomic_fetch_add_explicit(&l->ops, 1, memory_order_relaxed);
	atomic_fetch_add_explicit(&l->sketch[series_bucket(lat_ns)], 1, memory_order_relaxed);
}

/* A quantile (0..1) of a sketch's counts, ns: its bucket's upper edge; 0 when empty. */
uint64_t series_sketch_quantile(const uint32_t sketch[SERIES_BUCKETS], double q);

/* The machine's sample taken at when_ns: into the slot that ends there. */
void series_machine_add(struct series *s, uint64_t when_ns, const struct series_machine *m);
/*
 * Gauges read at end_ns, which must be a slot's end: the dirty, writeback
 * and file columns that slot lacks (-1) are taken from g; its CPU and
 * device bytes are left as they are. Nothing when end_ns is not a slot's
 * end of the series as it stands, or lies past its slots.
 */
void series_machine_fill(struct series *s, uint64_t end_ns, const struct series_machine *g);

/* Double the width: pairs of slots become one. */
void series_coarsen(struct series *s);

/* Add from into into (widths may differ: the coarser wins); -ENOMEM. */
int series_merge(struct series *into, const struct series *from);
/* Only from's slots [first, end), their work, latencies and machine side; -ENOMEM. */
int series_merge_range(struct series *into, const struct series *from, unsigned first,
		       unsigned end);

/*
 * The phase ended at end_ns: the slots become exactly the rows that tile
 * [origin, end_ns] (the last one shorter), anything recorded later folded
 * into the last. 0 or -ENOMEM.
 */
int series_close(struct series *s, uint64_t end_ns);

/* Rows after series_close: how many, and row i's start and end in seconds from the origin. */
unsigned series_rows(const struct series *s);
void series_row_span(const struct series *s, unsigned i, double *t0, double *t1);

/* A quantile (0..1) of a slot's latencies, ns: its bucket's upper edge, at most the slot's max. */
uint64_t series_slot_quantile(const struct series_slot *sl, double q);

/* The most rows of a closed series: SERIES_SLOTS adaptive, fixed what SERIES_MAX_BYTES holds. */
unsigned series_max_rows(bool fixed, bool machine);

/*
 * A closed series of rows empty slots width_ns wide from origin 0, the
 * last ending at span_ns, with the machine side: the grid that several
 * series are re-binned onto (the ranks' under mpirun). NULL: out of memory.
 */
struct series *series_grid(uint64_t width_ns, unsigned rows, uint64_t span_ns, bool fixed);

/* The memory a series of cap slots holds. */
size_t series_bytes(unsigned cap, bool machine);

#endif
