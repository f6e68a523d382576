// SPDX-License-Identifier: BSD-2-Clause
/* A phase's completions over time (see timeline.h). */
#include "config.h"

#include <string.h>

#include "lib/timeline.h"

void timeline_coarsen(struct timeline *t)
{
	for (unsigned i = 0; i < TIMELINE_SLOTS / 2; i++)
		t->ops[i] = t->ops[2 * i] + t->ops[2 * i + 1];
	memset(&t->ops[TIMELINE_SLOTS / 2], 0, sizeof(t->ops) / 2);
	t->shift++;
}

void timeline_merge(struct timeline *into, const struct timeline *from)
{
	if (!from->shift || !from->total)
		return;
	if (!into->shift) {
		*into = *from;
		return;
	}
	/* The coarser of the two, and an origin no later than either. */
	if (from->origin_ns < into->origin_ns) {
		struct timeline moved = { .origin_ns = from->origin_ns, .shift = into->shift };

		timeline_merge(&moved, into);
		*into = moved;
	}
	while (into->shift < from->shift)
		timeline_coarsen(into);
	for (unsigned i = 0; i < TIMELINE_SLOTS; i++) {
		uint64_t at = from->origin_ns + ((uint64_t)i << from->shift), slot;

		if (!from->ops[i])
			continue;
		slot = (at - into->origin_ns) >> into->shift;
		while (slot >= TIMELINE_SLOTS) {
			timeline_coarsen(into);
			slot >>= 1;
		}
		into->ops[slot] += from->ops[i];
		into->total += from->ops[i];
	}
}

double timeline_ops_by(const struct timeline *t, uint64_t when_ns)
{
	uint64_t width, rel, slot;
	double done = 0;

	if (!t->shift || when_ns <= t->origin_ns)
		return 0;
	width = (uint64_t)1 << t->shift;
	rel = when_ns - t->origin_ns;
	slot = rel >> t->shift;
	if (slot >= TIMELINE_SLOTS)
		return (double)t->total;
	for (uint64_t i = 0; i < slot; i++)
		done += (double)t->ops[i];
	return done + (double)t->ops[slot] * (double)(rel - (slot << t->shift)) / (double)width;
}
