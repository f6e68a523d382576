// SPDX-License-Identifier: BSD-2-Clause
/*
 * The phase ops: each row of core/phase_list.h, its function and cleanup,
 * and PH_TEST's, a test program's (phase_register); the runner's half of
 * the registry (core/phase_registry.c has the rest).
 */
#include "config.h"

#include <errno.h>

#include "phases/bench.h"

#define PHASE_OPS(id, ...) [id] = PHASE_ROW_OPS(id, __VA_ARGS__),

static const struct phase_ops ops[PH_TEST] = {
	PHASE_LIST(PHASE_OPS)
};

#undef PHASE_OPS

/* PH_TEST's: never run in clyde, cleaned up after every run as every row is. */
static struct phase_ops test_ops = { .fn = NULL, .cleanup = phase_no_cleanup };

/* The cleanup of a family that keeps no state between phases. */
void phase_no_cleanup(struct worker *w)
{
	(void)w;
}

const struct phase_ops *phase_ops_get(enum phase_id id)
{
	if (id == PH_TEST)
		return &test_ops;
	return &ops[id < PH_TEST ? id : 0];
}

int phase_register(const struct phase_def *def, const struct phase_ops *ops_in)
{
	int ret;

	if (!ops_in->fn || !ops_in->cleanup)
		return -EINVAL;
	ret = phase_def_register(def);
	if (!ret)
		test_ops = *ops_in;
	return ret;
}
