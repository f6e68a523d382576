// SPDX-License-Identifier: BSD-2-Clause
/* The engine table: every engine is listed, built or not. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "engines/engine.h"

static const struct engine_ops *const engines[] = {
	&engine_psync,
	&engine_uring,
};

const struct engine_ops *const *engine_table(size_t *count)
{
	*count = sizeof(engines) / sizeof(engines[0]);
	return engines;
}

const struct engine_ops *engine_find(const char *name)
{
	for (size_t i = 0; i < sizeof(engines) / sizeof(engines[0]); i++)
		if (!strcmp(engines[i]->name, name))
			return engines[i];
	return NULL;
}

int engine_probe(const struct engine_ops *ops, unsigned depth, char *desc, size_t len)
{
	if (ops->unavailable) {
		snprintf(desc, len, "%s", ops->unavailable);
		return -ENOSYS;
	}
	return ops->probe(depth, desc, len);
}

int engine_setup(struct engine *e, const struct engine_ops *ops,
		 const struct engine_params *p)
{
	memset(e, 0, sizeof(*e));
	if (ops->unavailable)
		return -ENOSYS;
	e->ops = ops;
	e->depth = p->depth ? p->depth : 1;
	return ops->setup(e, p);
}

void engine_teardown(struct engine *e)
{
	if (e->ops)
		e->ops->teardown(e);
	e->ops = NULL;
}
