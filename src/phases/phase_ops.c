// SPDX-License-Identifier: BSD-2-Clause
/*
 * The phase ops: each row of core/phase_list.h, its function and cleanup;
 * the runner's half of the registry (core/phase_registry.c has the rest).
 */
#include "config.h"

#include "phases/bench.h"

#define PHASE_OPS(id, kind, slot, short_name, name, csv, row, progress, unit, family, flags, box, \
		  cost, ph_fn, ph_cleanup) \
	[id] = { .fn = ph_fn, .cleanup = ph_cleanup },

static const struct phase_ops ops[PH_COUNT] = {
	PHASE_LIST(PHASE_OPS)
};

#undef PHASE_OPS

/* The cleanup of a family that keeps no state between phases. */
void phase_no_cleanup(struct worker *w)
{
	(void)w;
}

const struct phase_ops *phase_ops_get(enum phase_id id)
{
	return &ops[id < PH_COUNT ? id : 0];
}
