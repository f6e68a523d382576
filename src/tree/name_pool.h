/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef CLYDE_NAME_POOL_H
#define CLYDE_NAME_POOL_H

#include <stddef.h>

/*
 * Names (paths) back to back in one growing block, each with a byte of
 * the caller's (a d_type, a kind); the tree's generator, its listings
 * and what copy, read and delete find all keep names this way.
 */
struct name_pool {
	char *names;		/* NUL-terminated, back to back */
	size_t len, cap;
	size_t *off;		/* where each name starts */
	unsigned char *tag;
	size_t count, slots;
};

/* Add s with its tag. 0 or -ENOMEM. */
int name_pool_add(struct name_pool *p, const char *s, unsigned char tag);

static inline const char *name_pool_get(const struct name_pool *p, size_t i)
{
	return p->names + p->off[i];
}

/* Empty it, keeping its memory. */
void name_pool_reset(struct name_pool *p);
void name_pool_free(struct name_pool *p);

#endif
