// SPDX-License-Identifier: BSD-2-Clause
/*
 * The engine table: every engine is listed, built or not. Adding one is
 * its file (ending with its engine_ops) and its row below.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "engines/engine.h"

/* clyde's rows and those a test program adds (engine_register), at most. */
#define ENGINE_ROWS_MAX	8

/*
 * clyde's engines, ended by NULL; the empty slots after them are for a
 * test's own. --engine=auto goes down it in order (engine_choose).
 */
static const struct engine_ops *engines[ENGINE_ROWS_MAX + 1] = {
	&engine_psync,
	&engine_uring,
	&engine_aio,
	&engine_null,
};

static size_t engine_count(void)
{
	size_t n = 0;

	while (engines[n])
		n++;
	return n;
}

const struct engine_ops *const *engine_table(size_t *count)
{
	*count = engine_count();
	return engines;
}

const struct engine_ops *engine_find(const char *name)
{
	for (size_t i = 0; engines[i]; i++)
		if (!strcmp(engines[i]->name, name))
			return engines[i];
	return NULL;
}

void engine_names(char *buf, size_t len)
{
	size_t used = 0;

	if (len)
		buf[0] = '\0';
	for (size_t i = 0; engines[i] && used < len; i++) {
		int n = snprintf(buf + used, len - used, "%s%s", i ? ", " : "", engines[i]->name);

		if (n < 0)
			return;
		used += (size_t)n;
	}
}

int engine_register(const struct engine_ops *ops)
{
	size_t n = engine_count();

	if (engine_find(ops->name))
		return -EEXIST;
	if (n == ENGINE_ROWS_MAX)
		return -ENOSPC;
	engines[n] = ops;
	return 0;
}

int engine_probe(const struct engine_ops *ops, unsigned depth, char *desc, size_t len)
{
	if (ops->unavailable) {
		snprintf(desc, len, "%s", ops->unavailable);
		return -ENOSYS;
	}
	return ops->probe(depth, desc, len);
}

static int choose_named(const struct engine_ops *ops, unsigned depth, struct engine_choice *c)
{
	if (!(ops->flags & ENGINE_F_QUEUED) && depth > 1) {
		snprintf(c->desc, sizeof(c->desc), "%s keeps one request in flight", ops->name);
		return -EINVAL;
	}
	c->ops = ops;
	c->depth = ops->flags & ENGINE_F_QUEUED ? depth : 1;
	return engine_probe(ops, c->depth, c->desc, sizeof(c->desc));
}

int engine_choose_in(const struct engine_ops *const *table, size_t n, const char *name,
		     unsigned depth, struct engine_choice *c)
{
	memset(c, 0, sizeof(*c));
	c->refused = NULL;
	if (strcmp(name, "auto")) {
		for (size_t i = 0; i < n; i++)
			if (!strcmp(table[i]->name, name))
				return choose_named(table[i], depth, c);
		snprintf(c->desc, sizeof(c->desc), "no engine %s", name);
		return -ENOENT;
	}
	if (depth > 1) {
		for (size_t i = 0; i < n; i++) {
			unsigned flags = table[i]->flags;

			if (!(flags & ENGINE_F_QUEUED) || flags & (ENGINE_F_NO_DATA | ENGINE_F_NOT_AUTO))
				continue;
			if (!choose_named(table[i], depth, c)) {
				c->refused = NULL;
				c->why[0] = '\0';
				return 0;
			}
			c->refused = table[i]->name;
			snprintf(c->why, sizeof(c->why), "%s", c->desc);
		}
		if (!c->refused)
			c->refused = "none";
	}
	c->ops = &engine_psync;
	c->depth = 1;
	return engine_probe(&engine_psync, 1, c->desc, sizeof(c->desc));
}

int engine_choose(const char *name, unsigned depth, struct engine_choice *c)
{
	return engine_choose_in(engines, engine_count(), name, depth, c);
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

int engine_adopt(struct engine *e, int fd)
{
	return e->ops->adopt ? e->ops->adopt(e, fd) : 0;
}

void engine_teardown(struct engine *e)
{
	if (e->ops)
		e->ops->teardown(e);
	e->ops = NULL;
}
