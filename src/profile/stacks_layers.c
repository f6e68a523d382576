// SPDX-License-Identifier: BSD-2-Clause
/*
 * A phase's sampled stacks summed up by layer and by function. The
 * layer table is text (data/layers): one row a line, "LAYER k|u
 * PATTERN...", the first row whose pattern matches a frame gives that
 * frame its layer. A sample's layer is the first frame's with a layer,
 * walking from the sampled function toward the root; frames of the
 * layer "-" (memcpy, copy_to_iter ...) are passed over, so a copy is
 * charged to the layer that asked for it. clyde(1) LAYERS says why.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/grow.h"
#include "lib/strutil.h"
#include "profile/stacks_layers.h"

#ifndef CLYDE_LAYERS_DEFAULT
#define CLYDE_LAYERS_DEFAULT "/usr/local/share/clyde/layers"
#endif

#define KSUFFIX_LEN (sizeof(STACK_KERNEL_SUFFIX) - 1)

/*
 * '*' matches any run of characters, every other character itself. One
 * way back, to the last '*', is all '*' needs: time in the pattern's
 * length times the name's, never the exponential of a recursion a table
 * of many stars ("*a*a*a*a*b") would make of every frame.
 */
static bool glob_match(const char *g, const char *s, size_t slen)
{
	const char *star = NULL;
	size_t si = 0, star_si = 0;

	while (si < slen) {
		if (*g == '*') {
			star = ++g;
			star_si = si;
		} else if (*g && *g == s[si]) {
			g++;
			si++;
		} else if (star) {
			g = star;
			si = ++star_si;
		} else {
			return false;
		}
	}
	while (*g == '*')
		g++;
	return !*g;
}

void layer_table_free(struct layer_table *t)
{
	for (size_t k = 0; k < t->npat; k++)
		free(t->pat[k].glob);
	free(t->pat);
	memset(t, 0, sizeof(*t));
}

static int layer_index(struct layer_table *t, const char *name, size_t len, unsigned *idx)
{
	if (len == 1 && name[0] == LAYER_GENERIC[0]) {
		*idx = LAYER_PASS;
		return 0;
	}
	for (unsigned k = 0; k < t->nlayers; k++)
		if (strlen(t->name[k]) == len && !memcmp(t->name[k], name, len)) {
			*idx = k;
			return 0;
		}
	/* the two built-in layers keep their places at the end */
	if (len >= LAYER_NAME_LEN || t->nlayers + 2 >= STACK_MAX_LAYERS)
		return -EINVAL;
	memcpy(t->name[t->nlayers], name, len);
	t->name[t->nlayers][len] = '\0';
	*idx = t->nlayers++;
	return 0;
}

static const char *token(const char **p, size_t *len)
{
	const char *s = *p + strspn(*p, " \t");

	*len = strcspn(s, " \t");
	*p = s + *len;
	return *len ? s : NULL;
}

static int parse_row(struct layer_table *t, const char *line, char *why, size_t whylen)
{
	const char *p = line, *name, *where, *glob;
	size_t nlen, wlen, glen;
	unsigned idx;
	bool kernel;

	name = token(&p, &nlen);
	if (!name)
		return 0;
	if (name[0] == '#')
		return 0;
	where = token(&p, &wlen);
	if (!where || wlen != 1 || (*where != 'k' && *where != 'u')) {
		snprintf(why, whylen, "the second word must be k (kernel frames) or u (user frames)");
		return -EINVAL;
	}
	kernel = *where == 'k';
	if ((nlen == strlen(LAYER_OTHER_PROCS) && !memcmp(name, LAYER_OTHER_PROCS, nlen)) ||
	    (nlen == strlen(LAYER_UNKNOWN) && !memcmp(name, LAYER_UNKNOWN, nlen))) {
		snprintf(why, whylen, "%s and %s are clyde's own layers", LAYER_OTHER_PROCS,
			 LAYER_UNKNOWN);
		return -EINVAL;
	}
	if (layer_index(t, name, nlen, &idx)) {
		snprintf(why, whylen, "a layer name of %d characters at most, %d layers at most",
			 LAYER_NAME_LEN - 1, STACK_MAX_LAYERS - 2);
		return -EINVAL;
	}
	if (!token(&(const char *){ p }, &glen)) {
		snprintf(why, whylen, "a row needs a pattern after k or u");
		return -EINVAL;
	}
	while ((glob = token(&p, &glen))) {
		struct layer_pattern *lp;

		if (array_room(&t->pat, &t->cap, t->npat, sizeof(*t->pat), 64))
			return -ENOMEM;
		lp = &t->pat[t->npat];
		lp->glob = strndup(glob, glen);
		if (!lp->glob)
			return -ENOMEM;
		lp->layer = idx;
		lp->kernel = kernel;
		t->npat++;
	}
	return 0;
}

int layer_table_parse(struct layer_table *t, const char *text, const char *file, char *err,
		      size_t errlen)
{
	unsigned lineno = 0;
	int ret = 0;

	memset(t, 0, sizeof(*t));
	while (*text) {
		size_t len = strcspn(text, "\n");
		char *line = strndup(text, len), why[160];

		if (!line) {
			ret = -ENOMEM;
			goto free_table;
		}
		lineno++;
		ret = parse_row(t, line, why, sizeof(why));
		free(line);
		if (ret == -EINVAL)
			snprintf(err, errlen, "%s:%u: %s", file, lineno, why);
		if (ret)
			goto free_table;
		text += len + (text[len] == '\n');
	}
	if (!t->npat) {
		snprintf(err, errlen, "%s: no layer rows", file);
		ret = -EINVAL;
		goto free_table;
	}
	str_copy(t->name[t->nlayers++], LAYER_NAME_LEN, LAYER_OTHER_PROCS);
	str_copy(t->name[t->nlayers++], LAYER_NAME_LEN, LAYER_UNKNOWN);
	return 0;

free_table:
	layer_table_free(t);
	return ret;
}

int layer_table_load(struct layer_table *t, const char *path, char *err, size_t errlen)
{
	/* a FIFO or a device must not hang or fill clyde: opened without waiting, then checked */
	int fd = open(path, O_RDONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
	struct stat st;
	char *text = NULL;
	ssize_t got = 0;
	size_t n = 0;
	int ret;

	if (fd < 0) {
		ret = -errno;
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return ret;
	}
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || st.st_size > LAYER_TABLE_MAX_BYTES) {
		ret = -EINVAL;
		snprintf(err, errlen, "%s: not a regular file of %d bytes at most", path,
			 LAYER_TABLE_MAX_BYTES);
		goto close_file;
	}
	ret = -ENOMEM;
	text = malloc(LAYER_TABLE_MAX_BYTES + 1);
	if (!text)
		goto close_file;
	/* read to the end or past the limit: a file that grew since fstat is read as it is now */
	while (n <= LAYER_TABLE_MAX_BYTES &&
	       (got = read(fd, text + n, LAYER_TABLE_MAX_BYTES + 1 - n)) > 0)
		n += (size_t)got;
	if (got < 0) {
		ret = -errno;
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		goto free_text;
	}
	ret = -EINVAL;
	if (n > LAYER_TABLE_MAX_BYTES) {
		snprintf(err, errlen, "%s: not a regular file of %d bytes at most", path,
			 LAYER_TABLE_MAX_BYTES);
		goto free_text;
	}
	if (memchr(text, '\0', n)) {
		snprintf(err, errlen, "%s: not a text file", path);
		goto free_text;
	}
	text[n] = '\0';
	ret = layer_table_parse(t, text, path, err, errlen);
free_text:
	free(text);
close_file:
	close(fd);
	return ret;
}

const char *layer_table_path(void)
{
	static char beside[4096];
	const char *env = getenv("CLYDE_LAYERS");
	ssize_t n;
	char *slash;

	if (env && *env)
		return env;
	if (!access(CLYDE_LAYERS_DEFAULT, F_OK))
		return CLYDE_LAYERS_DEFAULT;
	/*
	 * Not installed: a clyde run from its build tree reads the table there,
	 * beside the program (data/layers). /proc/self/exe is Linux's, as the
	 * stacks are.
	 */
	n = readlink("/proc/self/exe", beside, sizeof(beside) - sizeof("/data/layers"));
	if (n <= 0 || (size_t)n >= sizeof(beside) - sizeof("/data/layers"))
		return CLYDE_LAYERS_DEFAULT;
	beside[n] = '\0';
	slash = strrchr(beside, '/');
	if (!slash)
		return CLYDE_LAYERS_DEFAULT;
	strcpy(slash, "/data/layers");
	return access(beside, F_OK) ? CLYDE_LAYERS_DEFAULT : beside;
}

/* No row matched the frame (LAYER_PASS: a "-" row did). */
#define LAYER_NONE (UINT32_MAX - 1)

/* The layer of one frame, s of len bytes, a kernel frame with its suffix. */

static unsigned layer_of_frame(const struct layer_table *t, const char *s, size_t len)
{
	bool kernel = len >= KSUFFIX_LEN &&
		      !memcmp(s + len - KSUFFIX_LEN, STACK_KERNEL_SUFFIX, KSUFFIX_LEN);

	if (kernel)
		len -= KSUFFIX_LEN;
	for (size_t k = 0; k < t->npat; k++)
		if (t->pat[k].kernel == kernel && glob_match(t->pat[k].glob, s, len))
			return t->pat[k].layer;
	return LAYER_NONE;
}

unsigned layer_of_stack(const struct layer_table *t, const char *folded, enum prof_group group)
{
	const char *first = strchr(folded, ';'), *end = folded + strlen(folded);

	if (group == PROF_OTHER)
		return t->nlayers - 2;
	/* from the sampled function (the last frame) toward the root */
	while (first && end > first) {
		const char *start = end;
		unsigned layer;

		while (start > first + 1 && start[-1] != ';')
			start--;
		layer = end > start ? layer_of_frame(t, start, (size_t)(end - start)) : LAYER_NONE;
		if (layer != LAYER_NONE && layer != LAYER_PASS)
			return layer;
		end = start - 1;
	}
	return t->nlayers - 1;
}

/* ---- the functions: self and total, once a stack ---- */

struct func_slot {
	char *name;
	uint64_t self, total;
	size_t seen_in;		/* the last stack counted in its total, +1 */
};

struct func_map {
	struct func_slot *v;
	size_t cap, n;
};

static uint64_t name_hash(const char *s, size_t len)
{
	uint64_t h = 1469598103934665603ULL;

	for (size_t k = 0; k < len; k++)
		h = (h ^ (unsigned char)s[k]) * 1099511628211ULL;
	return h;
}

static void func_map_free(struct func_map *m)
{
	for (size_t k = 0; k < m->cap; k++)
		free(m->v[k].name);
	free(m->v);
}

static int func_map_grow(struct func_map *m)
{
	size_t cap = m->cap ? m->cap * 2 : 256;
	struct func_slot *v = calloc(cap, sizeof(*v));

	if (!v)
		return -ENOMEM;
	for (size_t k = 0; k < m->cap; k++) {
		size_t at;

		if (!m->v[k].name)
			continue;
		at = name_hash(m->v[k].name, strlen(m->v[k].name)) & (cap - 1);
		while (v[at].name)
			at = (at + 1) & (cap - 1);
		v[at] = m->v[k];
	}
	free(m->v);
	m->v = v;
	m->cap = cap;
	return 0;
}

static struct func_slot *func_find(struct func_map *m, const char *s, size_t len)
{
	size_t at;

	if ((m->n + 1) * 2 > m->cap && func_map_grow(m))
		return NULL;
	at = name_hash(s, len) & (m->cap - 1);
	while (m->v[at].name) {
		if (strlen(m->v[at].name) == len && !memcmp(m->v[at].name, s, len))
			return &m->v[at];
		at = (at + 1) & (m->cap - 1);
	}
	m->v[at].name = strndup(s, len);
	if (!m->v[at].name)
		return NULL;
	m->n++;
	return &m->v[at];
}

/* Every frame of stack number idx: its total once, the last frame's self. */
static int count_frames(struct func_map *m, const struct stack_entry *e, size_t idx)
{
	const char *p = strchr(e->folded, ';');

	while (p) {
		const char *s = p + 1, *next = strchr(s, ';');
		size_t len = next ? (size_t)(next - s) : strlen(s);
		struct func_slot *f;

		p = next;
		if (!len)
			continue;
		f = func_find(m, s, len);
		if (!f)
			return -ENOMEM;
		if (f->seen_in != idx + 1) {
			f->seen_in = idx + 1;
			f->total += e->count;
		}
		if (!next)
			f->self += e->count;
	}
	return 0;
}

/* The largest first; among equals the name, so that the order is the same every time. */
static bool ranks_before(uint64_t a, const char *an, uint64_t b, const char *bn)
{
	return a != b ? a > b : strcmp(an, bn) < 0;
}

/*
 * The top functions by self or total; names borrowed from the map. The
 * total ranks the named functions only (stack_frame_named): "[libc.so.6]"
 * is on nearly every stack and tells nothing; self keeps every frame, as
 * the folded stacks do.
 */
static void top_funcs(const struct func_map *m, bool by_self, struct stack_func *top,
		      unsigned *ntop)
{
	*ntop = 0;
	for (size_t k = 0; k < m->cap; k++) {
		const struct func_slot *f = &m->v[k];
		uint64_t c = by_self ? f->self : f->total;
		unsigned at;

		if (!f->name || !c || (!by_self && !stack_frame_named(f->name)))
			continue;
		at = *ntop;
		while (at > 0 && ranks_before(c, f->name, by_self ? top[at - 1].self
					      : top[at - 1].total, top[at - 1].name))
			at--;
		if (at >= STACK_TOP_FUNCS)
			continue;
		if (*ntop < STACK_TOP_FUNCS)
			(*ntop)++;
		memmove(&top[at + 1], &top[at], (*ntop - 1 - at) * sizeof(*top));
		top[at] = (struct stack_func){ .name = f->name, .self = f->self,
					       .total = f->total };
	}
}

/* ---- the folded stacks, by count ---- */

static int folded_order(const void *a, const void *b)
{
	const struct stack_folded *x = a, *y = b;

	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	return strcmp(x->folded, y->folded);
}

/*
 * The set's stacks by count, the text borrowed, each with its layer
 * (layer[k], found once for the sums); past the cap the rest in one
 * remainder.
 */
static struct stack_folded *order_folded(const struct stack_set *set, const struct layer_table *t,
					 const unsigned *layer, size_t *kept, uint64_t *merged)
{
	struct stack_folded *v = calloc(set->n ? set->n : 1, sizeof(*v));
	size_t n = 0;

	if (!v)
		return NULL;
	for (size_t k = 0; k < set->n; k++) {
		if (set->v[k].group == PROF_OTHER)
			continue;	/* not the phase's work: in no flame graph */
		v[n].folded = set->v[k].folded;
		v[n].count = set->v[k].count;
		str_copy(v[n++].layer, LAYER_NAME_LEN, t->name[layer[k]]);
	}
	qsort(v, n, sizeof(*v), folded_order);
	*kept = n;
	*merged = 0;
	if (n > STACK_FOLDED_MAX) {
		struct stack_folded *rest = &v[STACK_FOLDED_MAX - 1];

		*kept = STACK_FOLDED_MAX;
		*merged = n - (STACK_FOLDED_MAX - 1);
		for (size_t k = STACK_FOLDED_MAX; k < n; k++)
			rest->count += v[k].count;
		rest->folded = (char *)STACK_REMAINDER;
		rest->layer[0] = '\0';		/* of many layers: none */
	}
	return v;
}

/* Text into the block at *at: the copy's address. */
static char *put_text(char **at, const char *text)
{
	char *copy = *at;
	size_t len = strlen(text) + 1;

	memcpy(copy, text, len);
	*at += len;
	return copy;
}

/*
 * One block: the summary, its folded stacks and every name, so that
 * whoever holds it frees it with free() (the result does, in core,
 * which calls nothing of this room).
 */
static struct stack_summary *pack(const struct stack_summary *draft,
				  const struct stack_folded *folded)
{
	size_t bytes = sizeof(*draft) + draft->nfolded * sizeof(*folded);
	struct stack_summary *s;
	char *at;

	for (unsigned k = 0; k < draft->nself; k++)
		bytes += strlen(draft->top_self[k].name) + 1;
	for (unsigned k = 0; k < draft->ntotal; k++)
		bytes += strlen(draft->top_total[k].name) + 1;
	for (size_t k = 0; k < draft->nfolded; k++)
		bytes += strlen(folded[k].folded) + 1;
	s = malloc(bytes);
	if (!s)
		return NULL;
	*s = *draft;
	s->folded = (struct stack_folded *)(s + 1);
	at = (char *)(s->folded + draft->nfolded);
	for (unsigned k = 0; k < draft->nself; k++)
		s->top_self[k].name = put_text(&at, draft->top_self[k].name);
	for (unsigned k = 0; k < draft->ntotal; k++)
		s->top_total[k].name = put_text(&at, draft->top_total[k].name);
	for (size_t k = 0; k < draft->nfolded; k++) {
		s->folded[k] = folded[k];
		s->folded[k].folded = put_text(&at, folded[k].folded);
	}
	return s;
}

/* --- the CPU no snapshot counted, named --- */

/* One unseen stack: its task's name, its sampled function, layer and count. */
struct unseen_row {
	char task[PROF_COMM_LEN];
	const char *func;	/* the last frame, into the set's text */
	size_t func_len;
	unsigned layer;
	uint64_t count;
};

/* A task's name without what changes from one of its kind to the next: a kworker's number. */
static void unseen_task_name(const char *folded, char *buf, size_t len)
{
	size_t n = strcspn(folded, ";");
	const char *q;

	if (n > 8 && !strncmp(folded, "kworker/", 8)) {
		q = memchr(folded, '-', n);
		if (q)
			snprintf(buf, len, "kworker %.*s", (int)(folded + n - q - 1), q + 1);
		else
			snprintf(buf, len, "kworker");
		return;
	}
	snprintf(buf, len, "%.*s", (int)n, folded);
}

static int unseen_order(const void *pa, const void *pb)
{
	const struct unseen_row *a = pa, *b = pb;
	size_t n = a->func_len < b->func_len ? a->func_len : b->func_len;
	int c = strcmp(a->task, b->task);

	if (c)
		return c;
	c = memcmp(a->func, b->func, n);
	if (c)
		return c;
	if (a->func_len != b->func_len)
		return a->func_len < b->func_len ? -1 : 1;
	return a->count == b->count ? 0 : a->count > b->count ? -1 : 1;
}

static bool unseen_before(const struct stack_unseen *a, const struct stack_unseen *b)
{
	return a->samples != b->samples ? a->samples > b->samples : strcmp(a->task, b->task) < 0;
}

/* Task n's total (rows [i, end) sorted by function), its top function, into the largest kept. */
static void unseen_keep(struct stack_summary *d, const struct layer_table *t,
			const struct unseen_row *r, size_t i, size_t end)
{
	struct stack_unseen u = { 0 };
	uint64_t best = 0;

	str_copy(u.task, sizeof(u.task), r[i].task);
	while (i < end) {
		size_t j = i;
		uint64_t sum = 0;

		/* one function's rows: the largest first, whose layer it is named with */
		while (j < end && r[j].func_len == r[i].func_len &&
		       !memcmp(r[j].func, r[i].func, r[i].func_len))
			sum += r[j++].count;
		u.samples += sum;
		if (sum > best || (sum == best && strncmp(u.func, r[i].func, r[i].func_len) > 0)) {
			best = sum;
			snprintf(u.func, sizeof(u.func), "%.*s", (int)r[i].func_len, r[i].func);
			str_copy(u.layer, sizeof(u.layer), t->name[r[i].layer]);
		}
		i = j;
	}
	u.cpu_s = (double)u.samples * d->period_s;
	d->unseen_samples += u.samples;
	for (unsigned k = 0; k < STACK_UNSEEN_MAX; k++) {
		if (k < d->nunseen && !unseen_before(&u, &d->unseen[k]))
			continue;
		if (d->nunseen < STACK_UNSEEN_MAX)
			d->nunseen++;
		memmove(&d->unseen[k + 1], &d->unseen[k],
			(d->nunseen - 1 - k) * sizeof(d->unseen[0]));
		d->unseen[k] = u;
		return;
	}
}

/*
 * The samples of tasks no snapshot counted (stack_entry.unseen), by task
 * and the function most of its samples were in: what the profile's
 * unattributed CPU was, where it was in such tasks. 0 or -ENOMEM.
 */
static int name_unseen(const struct stack_set *set, const struct layer_table *t,
		       const unsigned *layer, struct stack_summary *d)
{
	struct unseen_row *r;
	size_t n = 0;

	for (size_t k = 0; k < set->n; k++)
		n += set->v[k].unseen;
	if (!n)
		return 0;
	r = calloc(n, sizeof(*r));
	if (!r)
		return -ENOMEM;
	n = 0;
	for (size_t k = 0; k < set->n; k++) {
		const char *f = set->v[k].folded, *leaf = strrchr(f, ';');

		if (!set->v[k].unseen)
			continue;
		unseen_task_name(f, r[n].task, sizeof(r[n].task));
		r[n].func = leaf ? leaf + 1 : "[no frames]";
		r[n].func_len = strlen(r[n].func);
		r[n].layer = layer[k];
		r[n++].count = set->v[k].count;
	}
	qsort(r, n, sizeof(*r), unseen_order);
	for (size_t i = 0, j; i < n; i = j) {
		for (j = i; j < n && !strcmp(r[j].task, r[i].task); j++)
			;
		unseen_keep(d, t, r, i, j);
	}
	free(r);
	return 0;
}

int stacks_summarize(const struct stack_set *set, const struct layer_table *t,
		     struct stack_summary **out)
{
	uint64_t by_layer[STACK_MAX_LAYERS] = { 0 };
	struct func_map funcs = { 0 };
	struct stack_summary draft = { .period_s = set->period_s, .idle = set->idle,
				       .other = set->other,
				       .lost = set->lost, .drain_cpu_s = set->drain_cpu_s,
				       .drain_wakeups = set->drain_wakeups };
	struct stack_folded *folded = NULL;
	/* a stack's layer walks its frames through every pattern: once a stack */
	unsigned *layer = calloc(set->n ? set->n : 1, sizeof(*layer));
	int ret = -ENOMEM;

	*out = NULL;
	if (!layer)
		return -ENOMEM;
	for (size_t k = 0; k < set->n; k++) {
		layer[k] = layer_of_stack(t, set->v[k].folded, set->v[k].group);
		/* another program's: apart (set->other), only to name the unseen */
		if (set->v[k].group == PROF_OTHER)
			continue;
		by_layer[layer[k]] += set->v[k].count;
		draft.samples += set->v[k].count;
		ret = count_frames(&funcs, &set->v[k], k);
		if (ret)
			goto free_funcs;
	}
	for (unsigned k = 0; k < t->nlayers; k++) {
		struct stack_layer *l;

		if (!by_layer[k])
			continue;
		l = &draft.layer[draft.nlayers++];
		str_copy(l->name, LAYER_NAME_LEN, t->name[k]);
		l->samples = by_layer[k];
		l->share = (double)by_layer[k] / (double)draft.samples;
		l->cpu_s = (double)by_layer[k] * set->period_s;
	}
	top_funcs(&funcs, true, draft.top_self, &draft.nself);
	top_funcs(&funcs, false, draft.top_total, &draft.ntotal);
	ret = name_unseen(set, t, layer, &draft);
	if (ret)
		goto free_funcs;
	ret = -ENOMEM;
	folded = order_folded(set, t, layer, &draft.nfolded, &draft.folded_merged);
	if (!folded)
		goto free_funcs;
	*out = pack(&draft, folded);
	if (*out)
		ret = 0;
	free(folded);
free_funcs:
	func_map_free(&funcs);
	free(layer);
	return ret;
}

int prof_stacks_finish(struct prof_phase *pp, const struct stack_set *set,
		       const struct layer_table *t)
{
	struct stack_summary *s;
	int ret = stacks_summarize(set, t, &s);

	if (ret)
		return ret;
	free(pp->stacks);
	pp->stacks = s;
	return 0;
}

int prof_stack_layers_open(struct prof_sampler *p, char *err, size_t errlen)
{
	struct layer_table *t = calloc(1, sizeof(*t));
	int ret;

	if (!t) {
		snprintf(err, errlen, "--profile=stacks: no memory for the layer table");
		return -ENOMEM;
	}
	ret = layer_table_load(t, layer_table_path(), err, errlen);
	if (ret) {
		free(t);
		return ret;
	}
	p->stack_layers = t;
	return 0;
}

void prof_stack_layers_close(struct prof_sampler *p)
{
	if (!p->stack_layers)
		return;
	layer_table_free(p->stack_layers);
	free(p->stack_layers);
	p->stack_layers = NULL;
}
