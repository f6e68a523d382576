/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef CLYDE_TIMELINE_H
#define CLYDE_TIMELINE_H

#include <stdint.h>

/*
 * When a phase's operations completed, coarsely: how many finished in
 * each slot of time since an origin. Slots start 2^20 ns (about 1 ms)
 * wide and double when the phase outlasts them, so the record stays
 * TIMELINE_SLOTS long and resolves at least 1/256 of the phase. Under
 * mpirun this tells how much of its work a rank had done when the first
 * rank finished (the stonewall view). A zeroed timeline is empty.
 */
#define TIMELINE_SLOTS		512u
#define TIMELINE_SHIFT0		20u

struct timeline {
	uint64_t origin_ns;
	unsigned shift;		/* slot width 2^shift ns; 0: nothing recorded */
	uint64_t total;
	uint64_t ops[TIMELINE_SLOTS];
};

/* Halve the resolution: pairs of slots become one. */
void timeline_coarsen(struct timeline *t);

/* One operation completed at when_ns; the first record sets the origin. */
static inline void timeline_record(struct timeline *t, uint64_t origin_ns, uint64_t when_ns)
{
	uint64_t slot;

	if (!t->shift) {
		t->shift = TIMELINE_SHIFT0;
		t->origin_ns = origin_ns;
	}
	slot = when_ns > t->origin_ns ? (when_ns - t->origin_ns) >> t->shift : 0;
	while (slot >= TIMELINE_SLOTS) {
		timeline_coarsen(t);
		slot >>= 1;
	}
	t->ops[slot]++;
	t->total++;
}

/* Add from's operations into into's, at their times (origins may differ). */
void timeline_merge(struct timeline *into, const struct timeline *from);

/*
 * Operations completed by when_ns (same clock as the origin): whole slots
 * before it, and the part of its slot up to it, as if spread evenly.
 */
double timeline_ops_by(const struct timeline *t, uint64_t when_ns);

#endif
