// SPDX-License-Identifier: BSD-2-Clause
/*
 * --profile=stacks' pure part: the kernel's symbol table read from
 * kallsyms text, folded stacks built frame by frame, a set's distinct
 * stacks found by a hash of their text, and the folded format written.
 * The sampler (stacks_linux.c) and the unit tests call these alone.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/grow.h"
#include "profile/stacks.h"

static int ksym_cmp(const void *a, const void *b)
{
	const struct stack_ksym *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* Text symbols only: a sample's ip lies in code, and data symbols would split functions. */
static bool ksym_is_text(char type)
{
	return type == 't' || type == 'T' || type == 'w' || type == 'W';
}

int stack_ksyms_add(struct stack_ksyms *k, uint64_t addr, const char *name, size_t len)
{
	char *copy;

	if (array_room(&k->v, &k->cap, k->n, sizeof(*k->v), 4096))
		return -ENOMEM;
	copy = strndup(name, len);
	if (!copy)
		return -ENOMEM;
	k->v[k->n].addr = addr;
	k->v[k->n].name = copy;
	k->n++;
	return 0;
}

static const char *skip_blanks(const char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	return s;
}

int stack_ksyms_parse(struct stack_ksyms *k, const char *text)
{
	const char *line = text;
	bool nonzero = false;

	while (*line) {
		const char *eol = strchr(line, '\n');
		const char *next = eol ? eol + 1 : line + strlen(line);
		const char *type, *name;
		unsigned long long addr;
		char *end;

		/*
		 * "ffffffff81000000 T _stext" or "... t zstd_compress [zstd]"; not
		 * sscanf, which measures the whole rest of the text at each call
		 */
		addr = strtoull(line, &end, 16);
		type = skip_blanks(end);
		name = type[0] ? skip_blanks(type + 1) : type;
		if (end > line && type > end && ksym_is_text(type[0]) && name > type + 1) {
			size_t len = strcspn(name, " \t\n");

			if (len) {
				int ret = stack_ksyms_add(k, addr, name, len);

				if (ret)
					return ret;
				nonzero |= addr != 0;
			}
		}
		line = next;
	}
	/* kptr_restrict hides every address as 0: a table that names nothing */
	if (!nonzero)
		return -ENOENT;
	stack_ksyms_sort(k);
	return 0;
}

void stack_ksyms_sort(struct stack_ksyms *k)
{
	if (k->n)
		qsort(k->v, k->n, sizeof(*k->v), ksym_cmp);
}

const char *stack_ksyms_find(const struct stack_ksyms *k, uint64_t ip)
{
	size_t lo = 0, hi = k->n;

	/* the last symbol at or below ip */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (k->v[mid].addr <= ip)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo ? k->v[lo - 1].name : NULL;
}

void stack_ksyms_free(struct stack_ksyms *k)
{
	for (size_t i = 0; i < k->n; i++)
		free(k->v[i].name);
	free(k->v);
	memset(k, 0, sizeof(*k));
}

static void line_reserve(struct stack_line *l, size_t more)
{
	char *s;
	size_t cap;

	if (l->err || l->len + more + 1 <= l->cap)
		return;
	cap = l->cap ? l->cap : 256;
	while (cap < l->len + more + 1)
		cap *= 2;
	s = realloc(l->s, cap);
	if (!s) {
		l->err = -ENOMEM;
		return;
	}
	l->s = s;
	l->cap = cap;
}

void stack_line_reset(struct stack_line *l)
{
	l->len = 0;
	l->err = 0;
	if (l->s)
		l->s[0] = '\0';
}

/* A byte that would end a frame, a line or the count: ';', blanks, controls. */
static bool frame_breaker(unsigned char c)
{
	return c == ';' || c == ' ' || c < 0x20 || c == 0x7f;
}

void stack_line_frame(struct stack_line *l, const char *name, const char *suffix)
{
	size_t n = strlen(name), m = suffix ? strlen(suffix) : 0;
	char *at;

	line_reserve(l, n + m + 2);
	if (l->err)
		return;
	at = l->s + l->len;
	if (l->len)
		*at++ = ';';
	if (!n)
		*at++ = '_';
	for (size_t i = 0; i < n; i++)
		*at++ = frame_breaker((unsigned char)name[i]) ? '_' : name[i];
	memcpy(at, suffix ? suffix : "", m);
	at += m;
	*at = '\0';
	l->len = (size_t)(at - l->s);
}

void stack_line_free(struct stack_line *l)
{
	free(l->s);
	memset(l, 0, sizeof(*l));
}

/* FNV-1a: the stacks' texts are short and many share their first frames. */
static uint64_t text_hash(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ull;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 0x100000001b3ull;
	return h;
}

static int index_grow(struct stack_index *ix, const struct stack_set *set)
{
	size_t cap = ix->cap ? ix->cap * 2 : 1024;
	uint32_t *slot = calloc(cap, sizeof(*slot));

	if (!slot)
		return -ENOMEM;
	for (size_t i = 0; i < set->n; i++) {
		size_t at = text_hash(set->v[i].folded) & (cap - 1);

		while (slot[at])
			at = (at + 1) & (cap - 1);
		slot[at] = (uint32_t)(i + 1);
	}
	free(ix->slot);
	ix->slot = slot;
	ix->cap = cap;
	return 0;
}

static int set_push(struct stack_set *set, const char *folded, enum prof_group group,
		    bool unseen, uint64_t count)
{
	char *copy;

	if (array_room(&set->v, &set->cap, set->n, sizeof(*set->v), 256))
		return -ENOMEM;
	copy = strdup(folded);
	if (!copy)
		return -ENOMEM;
	set->v[set->n].folded = copy;
	set->v[set->n].count = count;
	set->v[set->n].group = group;
	set->v[set->n].unseen = unseen;
	set->n++;
	return 0;
}

int stack_set_add(struct stack_set *set, struct stack_index *ix, const char *folded,
		  enum prof_group group, uint64_t count)
{
	return stack_set_add_task(set, ix, folded, group, false, count);
}

int stack_set_add_task(struct stack_set *set, struct stack_index *ix, const char *folded,
		       enum prof_group group, bool unseen, uint64_t count)
{
	size_t at;
	int ret;

	/*
	 * Another program's samples are not the phase's work: counted apart,
	 * as idle is, so that a neighbour's load (a build, a CPU hog) moves
	 * no share of the phase's layers, functions or flame graph; their
	 * stacks stay, for what names the CPU no snapshot counted.
	 */
	uint64_t *sum = group == PROF_OTHER ? &set->other : &set->samples;

	/* at most half full, so that a probe ends soon */
	if ((set->n + 1) * 2 > ix->cap) {
		ret = index_grow(ix, set);
		if (ret)
			return ret;
	}
	at = text_hash(folded) & (ix->cap - 1);
	while (ix->slot[at]) {
		struct stack_entry *e = &set->v[ix->slot[at] - 1];

		/* the same text in another group is another stack: two tasks of one name */
		if (e->group == group && e->unseen == unseen && !strcmp(e->folded, folded)) {
			e->count += count;
			*sum += count;
			return 0;
		}
		at = (at + 1) & (ix->cap - 1);
	}
	ret = set_push(set, folded, group, unseen, count);
	if (ret)
		return ret;
	ix->slot[at] = (uint32_t)set->n;
	*sum += count;
	return 0;
}

void stack_index_free(struct stack_index *ix)
{
	free(ix->slot);
	memset(ix, 0, sizeof(*ix));
}

int stack_set_write_folded(FILE *out, const struct stack_set *set)
{
	for (size_t i = 0; i < set->n; i++)
		if (set->v[i].group != PROF_OTHER &&
		    fprintf(out, "%s %" PRIu64 "\n", set->v[i].folded, set->v[i].count) < 0)
			return -EIO;
	return 0;
}
