// SPDX-License-Identifier: BSD-2-Clause
/*
 * The tree generator: a shape, a scale and a seed give one tree, the
 * same on every platform. Only IEEE basic arithmetic is used on the way
 * from the seed to a size or a count (no libm, whose last bits differ
 * between systems), so a listing's hash is the same on Linux and the BSDs.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/grow.h"
#include "lib/rng.h"
#include "tree/name_pool.h"
#include "tree/tree.h"

/* ln(x) for x > 0 from frexp-like scaling and the atanh series: basic ops only. */
static double det_ln(double x)
{
	const double ln2 = 0.69314718055994530942;
	double s, s2, term, sum = 0;
	int e = 0;

	if (x <= 0)
		return -1e300;
	while (x >= 2) {
		x /= 2;
		e++;
	}
	while (x < 1) {
		x *= 2;
		e--;
	}
	/* x in [1, 2): ln x = 2 atanh((x-1)/(x+1)), |s| <= 1/3 */
	s = (x - 1) / (x + 1);
	s2 = s * s;
	term = s;
	for (int k = 1; k < 60; k += 2) {
		sum += term / k;
		term *= s2;
	}
	return 2 * sum + e * ln2;
}

static double det_exp(double y)
{
	const double ln2 = 0.69314718055994530942;
	double term = 1, sum = 1, r;
	long n;

	if (y > 700)
		y = 700;
	if (y < -700)
		y = -700;
	n = (long)(y / ln2);
	r = y - n * ln2;	/* |r| < ln2 */
	for (int k = 1; k < 30; k++) {
		term *= r / k;
		sum += term;
	}
	for (; n > 0; n--)
		sum *= 2;
	for (; n < 0; n++)
		sum /= 2;
	return sum;
}

double tree_dist_sample(const struct tree_dist *d, double u)
{
	const struct tree_quantile *a, *b;
	double f;
	unsigned i;

	if (!d->n)
		return 0;
	if (u <= d->pt[0].q || d->n == 1)
		return d->pt[0].v;
	for (i = 1; i < d->n - 1 && u > d->pt[i].q; i++)
		;
	a = &d->pt[i - 1];
	b = &d->pt[i];
	if (u >= b->q)
		return b->v;
	f = (u - a->q) / (b->q - a->q);
	if (d->log && a->v > 0 && b->v > 0)
		return det_exp(det_ln(a->v) + f * (det_ln(b->v) - det_ln(a->v)));
	return a->v + f * (b->v - a->v);
}

/* Uniform in [0, 1) from 53 bits: exact on every platform. */
static double unit(struct rng *r)
{
	return (double)(rng_next(r) >> 11) * (1.0 / 9007199254740992.0);
}

static uint64_t round_at_least(double v, uint64_t min)
{
	uint64_t n = v <= 0 ? 0 : (uint64_t)(v + 0.5);

	return n < min ? min : n;
}

/* First character a letter; then letters, digits, '_', '-' and '.'. */
static const char name_first[] = "abcdefghijklmnopqrstuvwxyz";
static const char name_rest[] = "abcdefghijklmnopqrstuvwxyz0123456789_-.";

static void make_name(struct rng *r, char *out, unsigned len)
{
	out[0] = name_first[rng_below(r, sizeof(name_first) - 1)];
	for (unsigned i = 1; i < len; i++)
		out[i] = name_rest[rng_below(r, sizeof(name_rest) - 1)];
	/* a name never ends in '.' (".." and "x." are awkward for shells) */
	if (len > 1 && out[len - 1] == '.')
		out[len - 1] = '_';
	out[len] = '\0';
}

#define NAME_MAX_GEN 200

/* Names already used in a directory: an open-addressed set of hashes. */
struct name_set {
	uint64_t *slot;
	size_t mask;
};

static uint64_t fnv1a(uint64_t h, const void *p, size_t len)
{
	const unsigned char *c = p;

	for (size_t i = 0; i < len; i++) {
		h ^= c[i];
		h *= 0x100000001b3ull;
	}
	return h;
}

#define FNV_INIT 0xcbf29ce484222325ull

static int name_set_init(struct name_set *s, size_t entries)
{
	size_t n = 16;

	while (n < entries * 2)
		n *= 2;
	s->slot = calloc(n, sizeof(*s->slot));
	s->mask = n - 1;
	return s->slot ? 0 : -ENOMEM;
}

/* Add (dir, name); false when it is there already (or hashes the same). */
static bool name_set_add(struct name_set *s, uint32_t dir, const char *name)
{
	uint64_t h = fnv1a(fnv1a(FNV_INIT, &dir, sizeof(dir)), name, strlen(name)) | 1;
	size_t i = (size_t)h & s->mask;

	while (s->slot[i]) {
		if (s->slot[i] == h)
			return false;
		i = (i + 1) & s->mask;
	}
	s->slot[i] = h;
	return true;
}

/* Add a path; *off says where it starts (the block moves until it is done). */
static int pool_add(struct name_pool *p, const char *s, size_t *off)
{
	int ret = name_pool_add(p, s, 0);

	if (!ret)
		*off = p->off[p->count - 1];
	return ret;
}

/* Work state of one generation. */
struct gen {
	uint32_t ndirs;
	uint32_t *depth;	/* by creation index */
	uint32_t *parent;
	uint32_t *nfiles;
	char (*dname)[NAME_MAX_GEN + 1];
	uint32_t *first_child, *next_sibling, *last_child;
};

static void gen_free(struct gen *g)
{
	free(g->depth);
	free(g->parent);
	free(g->nfiles);
	free(g->dname);
	free(g->first_child);
	free(g->next_sibling);
	free(g->last_child);
}

/* Files per directory: drawn until they reach the tree's file count. */
static int draw_dirs(const struct tree_shape *sh, uint32_t nfiles, struct rng *r, struct gen *g)
{
	size_t cap = 1024, total = 0;

	g->nfiles = malloc(cap * sizeof(*g->nfiles));
	if (!g->nfiles)
		return -ENOMEM;
	g->ndirs = 0;
	while (total < nfiles) {
		uint64_t k = round_at_least(tree_dist_sample(&sh->files_per_dir, unit(r)), 0);

		if (array_room(&g->nfiles, &cap, g->ndirs, sizeof(*g->nfiles), cap))
			return -ENOMEM;
		if (k > nfiles - total)
			k = nfiles - total;
		g->nfiles[g->ndirs++] = (uint32_t)k;
		total += k;
	}
	if (g->ndirs == 0)
		g->nfiles[g->ndirs++] = 0;
	return 0;
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * Depths, sorted, with no gap (a directory at depth d needs one at d-1);
 * the root is directory 0 at depth 0; each other directory's parent is
 * drawn among the directories one level up.
 */
static int draw_depths(const struct tree_shape *sh, struct rng *r, struct gen *g)
{
	uint32_t n = g->ndirs, level_start = 0, level_end = 1, cur = 0;

	g->depth = malloc(n * sizeof(*g->depth));
	g->parent = malloc(n * sizeof(*g->parent));
	if (!g->depth || !g->parent)
		return -ENOMEM;
	g->depth[0] = 0;
	for (uint32_t i = 1; i < n; i++)
		g->depth[i] = (uint32_t)round_at_least(tree_dist_sample(&sh->dir_depth, unit(r)), 1);
	qsort(g->depth + 1, n - 1, sizeof(*g->depth), cmp_u32);
	g->parent[0] = 0;
	for (uint32_t i = 1; i < n; i++) {
		if (g->depth[i] > cur + 1)
			g->depth[i] = cur + 1;
		cur = g->depth[i];
	}
	/* The index range of each level, then the parents. */
	for (uint32_t i = 1; i < n;) {
		uint32_t d = g->depth[i], j = i;

		while (j < n && g->depth[j] == d)
			j++;
		for (uint32_t k = i; k < j; k++)
			g->parent[k] = level_start + (uint32_t)rng_below(r, level_end - level_start);
		level_start = i;
		level_end = j;
		i = j;
	}
	return 0;
}

static int draw_dir_names(const struct tree_shape *sh, struct rng *r, struct gen *g,
			  struct name_set *used)
{
	g->dname = malloc((size_t)g->ndirs * sizeof(*g->dname));
	if (!g->dname)
		return -ENOMEM;
	g->dname[0][0] = '\0';
	for (uint32_t i = 1; i < g->ndirs; i++) {
		unsigned len = (unsigned)round_at_least(tree_dist_sample(&sh->dir_name_len, unit(r)), 1);

		if (len > NAME_MAX_GEN)
			len = NAME_MAX_GEN;
		do
			make_name(r, g->dname[i], len);
		while (!name_set_add(used, g->parent[i], g->dname[i]) && (len < NAME_MAX_GEN ? ++len : len));
	}
	return 0;
}

/* Children lists in creation order, for the depth-first walk. */
static int link_children(struct gen *g)
{
	uint32_t n = g->ndirs;

	g->first_child = malloc(n * sizeof(uint32_t));
	g->next_sibling = malloc(n * sizeof(uint32_t));
	g->last_child = malloc(n * sizeof(uint32_t));
	if (!g->first_child || !g->next_sibling || !g->last_child)
		return -ENOMEM;
	for (uint32_t i = 0; i < n; i++)
		g->first_child[i] = g->next_sibling[i] = g->last_child[i] = UINT32_MAX;
	for (uint32_t i = 1; i < n; i++) {
		uint32_t p = g->parent[i];

		if (g->first_child[p] == UINT32_MAX)
			g->first_child[p] = i;
		else
			g->next_sibling[g->last_child[p]] = i;
		g->last_child[p] = i;
	}
	return 0;
}

static void join_path(char *out, size_t len, const char *dir, const char *name)
{
	snprintf(out, len, "%s%s%s", dir, dir[0] ? "/" : "", name);
}

/* Depth-first preorder: directories, and each one's files right after it. */
static int lay_out(const struct tree_shape *sh, struct rng *sizes, struct rng *names,
		   struct gen *g, struct name_set *used, struct tree *t, struct name_pool *sb,
		   size_t *dir_off, size_t *file_off)
{
	uint32_t *stack = malloc(((size_t)g->ndirs + 1) * sizeof(uint32_t));
	uint32_t *order_of = malloc((size_t)g->ndirs * sizeof(uint32_t));
	size_t sp = 0, nd = 0, nf = 0;
	char path[8192], name[NAME_MAX_GEN + 1];
	int ret = 0;

	if (!stack || !order_of) {
		ret = -ENOMEM;
		goto out;
	}
	stack[sp++] = 0;
	while (sp && !ret) {
		uint32_t c = stack[--sp], k = 0;
		struct tree_dir *d = &t->dirs[nd];
		const char *ppath;

		order_of[c] = (uint32_t)nd;
		d->parent = c ? order_of[g->parent[c]] : 0;
		d->depth = g->depth[c];
		d->nfiles = g->nfiles[c];
		ppath = c ? sb->names + dir_off[d->parent] : "";
		join_path(path, sizeof(path), ppath, g->dname[c]);
		ret = pool_add(sb, c ? path : "", &dir_off[nd]);
		for (uint32_t f = 0; f < g->nfiles[c] && !ret; f++, nf++) {
			unsigned len = (unsigned)round_at_least(
				tree_dist_sample(&sh->name_len, unit(names)), 1);

			if (len > NAME_MAX_GEN)
				len = NAME_MAX_GEN;
			do
				make_name(names, name, len);
			while (!name_set_add(used, c, name) && (len < NAME_MAX_GEN ? ++len : len));
			t->files[nf].dir = (uint32_t)nd;
			t->files[nf].size = round_at_least(tree_dist_sample(&sh->file_size, unit(sizes)), 0);
			join_path(path, sizeof(path), sb->names + dir_off[nd], name);
			ret = pool_add(sb, path, &file_off[nf]);
		}
		nd++;
		/* children pushed in reverse, so the first created is walked first */
		for (uint32_t ch = g->first_child[c]; ch != UINT32_MAX; ch = g->next_sibling[ch])
			k++;
		sp += k;
		for (uint32_t ch = g->first_child[c], i = 0; ch != UINT32_MAX;
		     ch = g->next_sibling[ch], i++)
			stack[sp - 1 - i] = ch;
	}
	for (uint32_t i = 1; i < g->ndirs && !ret; i++)
		t->dirs[order_of[g->parent[i]]].nsubdirs++;
out:
	free(stack);
	free(order_of);
	return ret;
}

/* Shallowest first, walk order within a level: a counting sort by depth. */
static int sort_by_depth(struct tree *t)
{
	uint32_t *count = calloc((size_t)t->max_depth + 2, sizeof(uint32_t));

	t->by_depth = malloc((size_t)t->ndirs * sizeof(uint32_t));
	if (!count || !t->by_depth) {
		free(count);
		return -ENOMEM;
	}
	for (uint32_t i = 0; i < t->ndirs; i++)
		count[t->dirs[i].depth + 1]++;
	for (uint32_t d = 1; d <= t->max_depth + 1; d++)
		count[d] += count[d - 1];
	for (uint32_t i = 0; i < t->ndirs; i++)
		t->by_depth[count[t->dirs[i].depth]++] = i;
	free(count);
	return 0;
}

static void listing_line(const struct tree *t, uint32_t fi, bool dir, char *out, size_t len)
{
	if (dir)
		snprintf(out, len, "d %s\n", t->dirs[fi].path);
	else
		snprintf(out, len, "f %s %" PRIu64 "\n", t->files[fi].path, t->files[fi].size);
}

/* Walk order: each directory, then its files. */
static void walk_listing(const struct tree *t, FILE *out, uint64_t *hash)
{
	char line[8300];
	uint32_t f = 0;

	for (uint32_t d = 0; d < t->ndirs; d++) {
		if (d) {
			listing_line(t, d, true, line, sizeof(line));
			if (out)
				fputs(line, out);
			if (hash)
				*hash = fnv1a(*hash, line, strlen(line));
		}
		for (; f < t->nfiles && t->files[f].dir == d; f++) {
			listing_line(t, f, false, line, sizeof(line));
			if (out)
				fputs(line, out);
			if (hash)
				*hash = fnv1a(*hash, line, strlen(line));
		}
	}
}

void tree_list(const struct tree *t, FILE *out)
{
	walk_listing(t, out, NULL);
}

int tree_generate(const struct tree_shape *shape, double scale, uint64_t seed, struct tree *t)
{
	struct rng r_dirs, r_depth, r_names, r_sizes;
	struct name_set used = { 0 };
	struct name_pool sb = { 0 };
	struct gen g = { 0 };
	size_t *dir_off = NULL, *file_off = NULL;
	double want = shape->files * scale;
	uint32_t nfiles;
	int ret;

	memset(t, 0, sizeof(*t));
	if (!(scale >= TREE_MIN_SCALE && scale <= TREE_MAX_SCALE) || want < 0.5 ||
	    want > TREE_MAX_FILES)
		return -EINVAL;
	nfiles = (uint32_t)(want + 0.5);
	t->shape = shape;
	t->scale = scale;
	t->seed = seed;
	/* One stream per aspect: a change in one leaves the others alone. */
	rng_seed(&r_dirs, seed ^ 0x7472656564697273ull);
	rng_seed(&r_depth, seed ^ 0x7472656564657074ull);
	rng_seed(&r_names, seed ^ 0x747265656e616d65ull);
	rng_seed(&r_sizes, seed ^ 0x7472656573697a65ull);
	ret = draw_dirs(shape, nfiles, &r_dirs, &g);
	if (!ret)
		ret = draw_depths(shape, &r_depth, &g);
	if (!ret)
		ret = name_set_init(&used, (size_t)g.ndirs + nfiles);
	if (!ret)
		ret = draw_dir_names(shape, &r_names, &g, &used);
	if (!ret)
		ret = link_children(&g);
	if (ret)
		goto out;
	t->ndirs = g.ndirs;
	t->nfiles = nfiles;
	t->dirs = calloc(g.ndirs, sizeof(*t->dirs));
	t->files = calloc(nfiles ? nfiles : 1, sizeof(*t->files));
	dir_off = malloc((size_t)g.ndirs * sizeof(*dir_off));
	file_off = malloc(((size_t)nfiles + 1) * sizeof(*file_off));
	if (!t->dirs || !t->files || !dir_off || !file_off) {
		ret = -ENOMEM;
		goto out;
	}
	ret = lay_out(shape, &r_sizes, &r_names, &g, &used, t, &sb, dir_off, file_off);
	if (ret)
		goto out;
	t->names = sb.names;
	t->names_len = sb.len;
	sb.names = NULL;
	for (uint32_t i = 0; i < t->ndirs; i++) {
		t->dirs[i].path = t->names + dir_off[i];
		if (t->dirs[i].depth > t->max_depth)
			t->max_depth = t->dirs[i].depth;
	}
	for (uint32_t i = 0; i < t->nfiles; i++) {
		const char *slash;

		t->files[i].path = t->names + file_off[i];
		slash = strrchr(t->files[i].path, '/');
		t->files[i].name = slash ? slash + 1 : t->files[i].path;
		t->bytes += t->files[i].size;
	}
	ret = sort_by_depth(t);
	if (ret)
		goto out;
	t->hash = FNV_INIT;
	walk_listing(t, NULL, &t->hash);
out:
	gen_free(&g);
	free(used.slot);
	name_pool_free(&sb);
	free(dir_off);
	free(file_off);
	if (ret)
		tree_free(t);
	return ret;
}

void tree_free(struct tree *t)
{
	free(t->dirs);
	free(t->files);
	free(t->by_depth);
	free(t->names);
	memset(t, 0, sizeof(*t));
}

int tree_parse_spec(const char *arg, const struct tree_shape **shape, double *scale,
		    char *err, size_t errlen)
{
	char name[32], *end;
	const char *colon = strchr(arg, ':');
	size_t n = colon ? (size_t)(colon - arg) : strlen(arg);

	if (n == 0 || n >= sizeof(name)) {
		snprintf(err, errlen, "--tree: give a shape: ports, source or mixed");
		return -EINVAL;
	}
	memcpy(name, arg, n);
	name[n] = '\0';
	*shape = tree_shape_find(name);
	if (!*shape) {
		snprintf(err, errlen, "--tree: unknown shape '%s' (ports, source or mixed)", name);
		return -EINVAL;
	}
	*scale = 1.0;
	if (!colon)
		return 0;
	*scale = strtod(colon + 1, &end);
	if (end == colon + 1 || *end || !(*scale >= TREE_MIN_SCALE && *scale <= TREE_MAX_SCALE)) {
		snprintf(err, errlen, "--tree: scale '%s' is not a number from %g to %g",
			 colon + 1, TREE_MIN_SCALE, TREE_MAX_SCALE);
		return -EINVAL;
	}
	if ((*shape)->files * *scale < 0.5 || (*shape)->files * *scale > TREE_MAX_FILES) {
		snprintf(err, errlen, "--tree: %s at scale %g makes %.0f files (1 to %u)",
			 (*shape)->name, *scale, (*shape)->files * *scale, TREE_MAX_FILES);
		return -EINVAL;
	}
	return 0;
}
