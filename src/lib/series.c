// SPDX-License-Identifier: BSD-2-Clause
/* A phase's time series (see series.h). */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lib/series.h"

size_t series_bytes(unsigned cap, bool machine)
{
	return sizeof(struct series) + (size_t)cap * (sizeof(struct series_slot) +
		(machine ? sizeof(struct series_machine) : 0));
}

/* The most slots a fixed width may hold under SERIES_MAX_BYTES. */
static unsigned max_slots(bool machine)
{
	return (unsigned)((SERIES_MAX_BYTES - sizeof(struct series)) /
			  (sizeof(struct series_slot) + (machine ? sizeof(struct series_machine) : 0)));
}

unsigned series_max_rows(bool fixed, bool machine)
{
	return fixed ? max_slots(machine) : SERIES_SLOTS;
}

struct series *series_grid(uint64_t width_ns, unsigned rows, uint64_t span_ns, bool fixed)
{
	struct series *s = calloc(1, sizeof(*s));

	if (!s)
		return NULL;
	s->width_ns = width_ns;
	s->fixed = fixed;
	s->cap = s->used = rows ? rows : 1;
	s->slot = calloc(s->cap, sizeof(*s->slot));
	s->mach = calloc(s->cap, sizeof(*s->mach));
	if (!s->slot || !s->mach) {
		series_free(s);
		return NULL;
	}
	s->peak_bytes = series_bytes(s->cap, true);
	s->end_ns = span_ns;
	return s;
}

static void machine_clear(struct series_machine *m, unsigned n)
{
	memset(m, 0, n * sizeof(*m));
}

struct series *series_new(uint64_t origin_ns, uint64_t fixed_ns, bool machine)
{
	struct series *s = calloc(1, sizeof(*s));

	if (!s)
		return NULL;
	s->origin_ns = s->hot_start = origin_ns;
	s->fixed = fixed_ns > 0;
	s->width_ns = s->fixed ? fixed_ns : SERIES_MIN_NS;
	s->cap = s->fixed ? 64 : SERIES_SLOTS;
	/* the first slot is the hot one from the start: records there take the fast path */
	s->used = 1;
	s->slot = calloc(s->cap, sizeof(*s->slot));
	if (machine)
		s->mach = calloc(s->cap, sizeof(*s->mach));
	if (!s->slot || (machine && !s->mach)) {
		series_free(s);
		return NULL;
	}
	s->peak_bytes = series_bytes(s->cap, machine);
	return s;
}

void series_free(struct series *s)
{
	if (!s)
		return;
	free(s->slot);
	free(s->mach);
	free(s);
}

/* The later of two samples of the machine, their CPU and device bytes added. */
static void machine_fold(struct series_machine *into, const struct series_machine *later)
{
	if (!later->set)
		return;
	if (!into->set || into->gauges_only) {
		struct series_machine g = *into;

		*into = *later;
		/* a reading without gauges keeps the stall reader's */
		if (g.set && into->dirty_kib < 0 && into->writeback_kib < 0) {
			into->dirty_kib = g.dirty_kib;
			into->writeback_kib = g.writeback_kib;
		}
		return;
	}
	if (later->gauges_only) {
		if (later->dirty_kib >= 0 || later->writeback_kib >= 0) {
			into->dirty_kib = later->dirty_kib;
			into->writeback_kib = later->writeback_kib;
		}
		return;
	}
	into->cpu_user += later->cpu_user;
	into->cpu_sys += later->cpu_sys;
	into->dirty_kib = later->dirty_kib;
	into->writeback_kib = later->writeback_kib;
	into->file_dirty_kib = later->file_dirty_kib;
	into->file_writeback_kib = later->file_writeback_kib;
	if (into->dev_read_bytes >= 0 && later->dev_read_bytes >= 0) {
		into->dev_read_bytes += later->dev_read_bytes;
		into->dev_write_bytes += later->dev_write_bytes;
	} else {
		into->dev_read_bytes = into->dev_write_bytes = -1;
	}
}

static void slot_fold(struct series_slot *into, const struct series_slot *from)
{
	into->work += from->work;
	into->ops += from->ops;
	if (from->max_ns > into->max_ns)
		into->max_ns = from->max_ns;
	for (unsigned b = 0; b < SERIES_BUCKETS; b++) {
		uint64_t sum = (uint64_t)into->sketch[b] + from->sketch[b];

		into->sketch[b] = sum > UINT32_MAX ? UINT32_MAX : (uint32_t)sum;
	}
}

void series_coarsen(struct series *s)
{
	unsigned half = (s->cap + 1) / 2;

	for (unsigned i = 0; i < half; i++) {
		struct series_slot pair = s->slot[2 * i];

		if (2 * i + 1 < s->cap)
			slot_fold(&pair, &s->slot[2 * i + 1]);
		s->slot[i] = pair;
		if (s->mach) {
			struct series_machine m = s->mach[2 * i];

			if (2 * i + 1 < s->cap)
				machine_fold(&m, &s->mach[2 * i + 1]);
			s->mach[i] = m;
		}
	}
	memset(&s->slot[half], 0, (s->cap - half) * sizeof(*s->slot));
	if (s->mach)
		machine_clear(&s->mach[half], s->cap - half);
	s->width_ns *= 2;
	s->used = (s->used + 1) / 2;
	s->hot /= 2;
	s->hot_start = s->origin_ns + s->hot * s->width_ns;
	if (s->fixed)
		s->capped = true;
}

/* Room for slot index idx: a fixed width grows its array to the cap, then coarsens. */
static int make_room(struct series *s, uint64_t *idx)
{
	while (*idx >= s->cap) {
		unsigned limit = max_slots(s->mach != NULL), cap = s->cap;

		if (s->fixed && cap < limit) {
			struct series_slot *slot;

			cap = *idx + 1 > (uint64_t)cap * 2 ? (unsigned)(*idx + 1 < limit ? *idx + 1 : limit)
							   : cap * 2;
			if (cap > limit)
				cap = limit;
			slot = realloc(s->slot, cap * sizeof(*slot));
			if (!slot)
				return -ENOMEM;
			memset(&slot[s->cap], 0, (cap - s->cap) * sizeof(*slot));
			s->slot = slot;
			if (s->mach) {
				struct series_machine *m = realloc(s->mach, cap * sizeof(*m));

				if (!m)
					return -ENOMEM;
				machine_clear(&m[s->cap], cap - s->cap);
				s->mach = m;
			}
			s->cap = cap;
			if (series_bytes(cap, s->mach != NULL) > s->peak_bytes)
				s->peak_bytes = series_bytes(cap, s->mach != NULL);
			continue;
		}
		series_coarsen(s);
		*idx /= 2;
	}
	return 0;
}

static uint64_t index_of(const struct series *s, uint64_t when_ns)
{
	return when_ns > s->origin_ns ? (when_ns - s->origin_ns) / s->width_ns : 0;
}

struct series_slot *series_slot_at(struct series *s, uint64_t when_ns)
{
	uint64_t idx = index_of(s, when_ns);

	/* out of memory past the cap: the last slot takes it, the sums stay whole */
	if (make_room(s, &idx))
		idx = s->cap - 1;
	s->hot = (unsigned)idx;
	/* before the origin (slot 0): a start that sends the next record here again */
	s->hot_start = when_ns < s->origin_ns ? UINT64_MAX - s->width_ns
					      : s->origin_ns + idx * s->width_ns;
	if (s->used <= idx)
		s->used = (unsigned)idx + 1;
	return &s->slot[idx];
}

void series_machine_add(struct series *s, uint64_t when_ns, const struct series_machine *m)
{
	uint64_t idx;

	if (!s->mach)
		return;
	/* the slot that ends at when_ns: the one holding when_ns - 1 */
	idx = index_of(s, when_ns > s->origin_ns ? when_ns - 1 : when_ns);
	if (make_room(s, &idx))
		idx = s->cap - 1;
	machine_fold(&s->mach[idx], m);
	if (s->used <= idx)
		s->used = (unsigned)idx + 1;
}

void series_machine_fill(struct series *s, uint64_t end_ns, const struct series_machine *g)
{
	struct series_machine *m;
	uint64_t idx;

	if (!s->mach || end_ns <= s->origin_ns || (end_ns - s->origin_ns) % s->width_ns)
		return;
	idx = (end_ns - s->origin_ns) / s->width_ns - 1;
	if (idx >= s->cap)
		return;
	m = &s->mach[idx];
	if (!m->set) {
		*m = (struct series_machine){
			.set = true,
			.gauges_only = true,
			.dirty_kib = -1, .writeback_kib = -1,
			.file_dirty_kib = -1, .file_writeback_kib = -1,
			.dev_read_bytes = -1, .dev_write_bytes = -1,
		};
		if (s->used <= idx)
			s->used = (unsigned)idx + 1;
	}
	if (m->dirty_kib < 0 && m->writeback_kib < 0) {
		m->dirty_kib = g->dirty_kib;
		m->writeback_kib = g->writeback_kib;
	}
	if (m->file_dirty_kib < 0 && m->file_writeback_kib < 0) {
		m->file_dirty_kib = g->file_dirty_kib;
		m->file_writeback_kib = g->file_writeback_kib;
	}
}

int series_merge_range(struct series *into, const struct series *from, unsigned first,
		       unsigned end)
{
	while (into->width_ns < from->width_ns)
		series_coarsen(into);
	for (unsigned i = first; i < end && i < from->used && i < from->cap; i++) {
		uint64_t at = from->origin_ns + (uint64_t)i * from->width_ns;
		uint64_t idx = index_of(into, at);
		bool empty = !from->slot[i].ops && !from->slot[i].work &&
			     !(from->mach && from->mach[i].set);

		if (empty)
			continue;
		if (make_room(into, &idx))
			return -ENOMEM;
		slot_fold(&into->slot[idx], &from->slot[i]);
		if (from->mach && from->mach[i].set) {
			if (!into->mach) {
				into->mach = calloc(into->cap, sizeof(*into->mach));
				if (!into->mach)
					return -ENOMEM;
			}
			machine_fold(&into->mach[idx], &from->mach[i]);
		}
		if (into->used <= idx)
			into->used = (unsigned)idx + 1;
	}
	return 0;
}

int series_merge(struct series *into, const struct series *from)
{
	int ret = series_merge_range(into, from, 0, from->used);

	if (ret)
		return ret;
	/* a thread's recording, not the sampler's machine side */
	if (!from->mach) {
		size_t rb = from->record_bytes > from->peak_bytes ? from->record_bytes
								   : from->peak_bytes;

		if (rb > into->record_bytes)
			into->record_bytes = rb;
	}
	into->capped |= from->capped;
	into->sampler_cpu_s += from->sampler_cpu_s;
	if (from->dirty_source[0])
		memcpy(into->dirty_source, from->dirty_source, sizeof(into->dirty_source));
	if (from->file_source[0])
		memcpy(into->file_source, from->file_source, sizeof(into->file_source));
	if (from->dev_source[0])
		memcpy(into->dev_source, from->dev_source, sizeof(into->dev_source));
	return 0;
}

int series_close(struct series *s, uint64_t end_ns)
{
	uint64_t span = end_ns > s->origin_ns ? end_ns - s->origin_ns : 0;
	uint64_t rows = span ? (span + s->width_ns - 1) / s->width_ns : 1;
	uint64_t last = rows - 1;
	int ret = make_room(s, &last);

	if (ret)
		return ret;
	/* make_room may have doubled the width: count again */
	rows = span ? (span + s->width_ns - 1) / s->width_ns : 1;
	for (unsigned i = (unsigned)rows; i < s->used && i < s->cap; i++) {
		slot_fold(&s->slot[rows - 1], &s->slot[i]);
		memset(&s->slot[i], 0, sizeof(s->slot[i]));
		if (s->mach) {
			machine_fold(&s->mach[rows - 1], &s->mach[i]);
			memset(&s->mach[i], 0, sizeof(s->mach[i]));
		}
	}
	s->used = (unsigned)rows;
	s->end_ns = end_ns;
	return 0;
}

unsigned series_rows(const struct series *s)
{
	return s->used;
}

void series_row_span(const struct series *s, unsigned i, double *t0, double *t1)
{
	uint64_t a = (uint64_t)i * s->width_ns, b = a + s->width_ns;
	uint64_t span = s->end_ns > s->origin_ns ? s->end_ns - s->origin_ns : 0;

	if (i + 1 >= s->used || b > span)
		b = span;
	*t0 = (double)a / 1e9;
	*t1 = (double)b / 1e9;
}

/* The upper edge of bucket b, ns (see series_bucket). */
static uint64_t bucket_top(unsigned b)
{
	unsigned msb;

	if (!b)
		return 64;
	if (b >= SERIES_BUCKETS - 1)
		return UINT64_MAX;
	msb = 6u + (b - 1u) / 2u;
	return ((uint64_t)1 << msb) + ((uint64_t)((b - 1u) % 2u + 1u) << (msb - 1u));
}

uint64_t series_sketch_quantile(const uint32_t sketch[SERIES_BUCKETS], double q)
{
	uint64_t total = 0, want, seen = 0;

	for (unsigned b = 0; b < SERIES_BUCKETS; b++)
		total += sketch[b];
	if (!total)
		return 0;
	want = (uint64_t)(q * (double)total + 0.5);
	if (want < 1)
		want = 1;
	if (want > total)
		want = total;
	for (unsigned b = 0; b < SERIES_BUCKETS; b++) {
		seen += sketch[b];
		if (seen >= want)
			return bucket_top(b);
	}
	return UINT64_MAX;
}

uint64_t series_slot_quantile(const struct series_slot *sl, double q)
{
	uint64_t top = series_sketch_quantile(sl->sketch, q);

	return top < sl->max_ns ? top : sl->max_ns;
}
