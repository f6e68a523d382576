// SPDX-License-Identifier: BSD-2-Clause
/* A growing block of names, see name_pool.h. */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "tree/name_pool.h"

int name_pool_add(struct name_pool *p, const char *s, unsigned char tag)
{
	size_t n = strlen(s) + 1;

	if (p->len + n > p->cap) {
		size_t cap = p->cap ? p->cap * 2 : 4096;
		char *names;

		while (cap < p->len + n)
			cap *= 2;
		names = realloc(p->names, cap);
		if (!names)
			return -ENOMEM;
		p->names = names;
		p->cap = cap;
	}
	if (p->count == p->slots) {
		size_t slots = p->slots ? p->slots * 2 : 256;
		size_t *off = realloc(p->off, slots * sizeof(*off));
		unsigned char *tag_v;

		if (!off)
			return -ENOMEM;
		p->off = off;
		tag_v = realloc(p->tag, slots);
		if (!tag_v)
			return -ENOMEM;
		p->tag = tag_v;
		p->slots = slots;
	}
	memcpy(p->names + p->len, s, n);
	p->off[p->count] = p->len;
	p->tag[p->count++] = tag;
	p->len += n;
	return 0;
}

void name_pool_reset(struct name_pool *p)
{
	p->len = 0;
	p->count = 0;
}

void name_pool_free(struct name_pool *p)
{
	free(p->names);
	free(p->off);
	free(p->tag);
	memset(p, 0, sizeof(*p));
}
