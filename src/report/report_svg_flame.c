// SPDX-License-Identifier: BSD-2-Clause
/*
 * Flame graphs of folded stacks: the stacks merged into a tree of frames
 * (a frame is a function at one path from the root), each frame as wide
 * as its samples, callers under their callees and callees in name order,
 * so that the same stacks in any order draw the same picture. Each frame
 * is a nested <svg>, which clips its name to its width: the name is text
 * a page's find still finds, and its <title> gives the exact numbers on
 * hover. The difference of two sets draws the second and colours each
 * frame by how its share of the samples moved.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/grow.h"
#include "report/report_flame.h"
#include "report/report_svg.h"

#define FRAME_H		16
#define HEAD_H		40
#define MIN_W		0.3	/* narrower frames are not drawn (their samples stay in the caller's) */
#define SIDE		10
#define KERNEL_TAG	"_[k]"
#define ROOT_NAME	"all"

struct frame {
	char *name;
	uint64_t total;		/* samples in it and in what it called */
	struct frame **kids;
	size_t nkids, cap;
};

static void frame_free(struct frame *f)
{
	if (!f)
		return;
	for (size_t i = 0; i < f->nkids; i++)
		frame_free(f->kids[i]);
	free(f->kids);
	free(f->name);
	free(f);
}

static struct frame *frame_new(const char *name, size_t len)
{
	struct frame *f = calloc(1, sizeof(*f));

	if (!f)
		return NULL;
	f->name = strndup(name, len);
	if (!f->name) {
		free(f);
		return NULL;
	}
	return f;
}

/* The callee of f named name[0..len), added where it is not there yet. */
static struct frame *frame_kid(struct frame *f, const char *name, size_t len)
{
	struct frame *k;

	for (size_t i = 0; i < f->nkids; i++)
		if (strlen(f->kids[i]->name) == len && !memcmp(f->kids[i]->name, name, len))
			return f->kids[i];
	if (array_room(&f->kids, &f->cap, f->nkids, sizeof(*f->kids), 4))
		return NULL;
	k = frame_new(name, len);
	if (k)
		f->kids[f->nkids++] = k;
	return k;
}

static int frame_cmp(const void *a, const void *b)
{
	return strcmp((*(struct frame *const *)a)->name, (*(struct frame *const *)b)->name);
}

static void frame_sort(struct frame *f)
{
	if (f->nkids)
		qsort(f->kids, f->nkids, sizeof(*f->kids), frame_cmp);
	for (size_t i = 0; i < f->nkids; i++)
		frame_sort(f->kids[i]);
}

/* The callee of f named name, in f's sorted callees; NULL where it has none. */
static const struct frame *frame_find(const struct frame *f, const char *name)
{
	size_t lo = 0, hi = f ? f->nkids : 0;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strcmp(f->kids[mid]->name, name);

		if (!c)
			return f->kids[mid];
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

static unsigned frame_depth(const struct frame *f)
{
	unsigned d = 0;

	for (size_t i = 0; i < f->nkids; i++) {
		unsigned k = frame_depth(f->kids[i]);

		if (k > d)
			d = k;
	}
	return d + 1;
}

/* The tree of the stacks under a root "all"; NULL where memory ran out. */
static struct frame *flame_tree(const struct flame_stack *v, size_t n)
{
	struct frame *root = frame_new(ROOT_NAME, strlen(ROOT_NAME));

	if (!root)
		return NULL;
	for (size_t i = 0; i < n; i++) {
		struct frame *f = root;
		const char *p = v[i].folded;

		if (!v[i].count || !p)
			continue;
		root->total += v[i].count;
		while (*p) {
			size_t len = strcspn(p, ";");

			if (len) {
				f = frame_kid(f, p, len);
				if (!f) {
					frame_free(root);
					return NULL;
				}
				f->total += v[i].count;
			}
			p += len;
			if (*p == ';')
				p++;
		}
	}
	frame_sort(root);
	return root;
}

/* A number in [0, 1) from a name: the same name, the same shade. */
static double name_shade(const char *s)
{
	uint32_t h = 2166136261u;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 16777619u;
	return (double)(h % 1000) / 1000.0;
}

static bool is_kernel(const char *name)
{
	size_t n = strlen(name), k = strlen(KERNEL_TAG);

	return n >= k && !strcmp(name + n - k, KERNEL_TAG);
}

/* One run's colours: kernel frames orange, user frames red to yellow, the root grey. */
static void fill_plain(FILE *out, const char *name, unsigned depth)
{
	double t = name_shade(name);

	if (depth == 0)
		fputs("rgb(200,200,200)", out);
	else if (is_kernel(name))
		fprintf(out, "rgb(235,%d,%d)", 140 + (int)(t * 60), 40 + (int)(t * 30));
	else
		fprintf(out, "rgb(%d,%d,55)", 215 + (int)(t * 40), 80 + (int)(t * 110));
}

/* The difference's colours: red grew, blue shrank, white stayed; t the move over the largest. */
static void fill_moved(FILE *out, double moved, double largest)
{
	int t = largest > 0 ? (int)lround(200.0 * fabs(moved) / largest) : 0;

	if (moved > 0)
		fprintf(out, "rgb(255,%d,%d)", 255 - t, 255 - t);
	else if (moved < 0)
		fprintf(out, "rgb(%d,%d,255)", 255 - t, 255 - t);
	else
		fputs("rgb(250,250,250)", out);
}

struct flame_draw {
	FILE *out;
	double scale;		/* user units per sample */
	unsigned depth;		/* rows */
	uint64_t sum_b;		/* samples of the set drawn */
	uint64_t sum_a;		/* the difference: samples of the set before; 0 without */
	double largest;		/* the difference: the largest move of a drawn frame */
	bool diff;
};

static double share(uint64_t part, uint64_t whole)
{
	return whole ? 100.0 * (double)part / (double)whole : 0.0;
}

/* The largest move of a frame wide enough to draw, over the tree. */
static double largest_move(const struct flame_draw *d, const struct frame *f,
			   const struct frame *base)
{
	double m;

	if ((double)f->total * d->scale < MIN_W)
		return 0;
	m = fabs(share(f->total, d->sum_b) - share(base ? base->total : 0, d->sum_a));
	for (size_t i = 0; i < f->nkids; i++) {
		double k = largest_move(d, f->kids[i], frame_find(base, f->kids[i]->name));

		if (k > m)
			m = k;
	}
	return m;
}

static void draw_frame(const struct flame_draw *d, const struct frame *f, const struct frame *base,
		       double x, unsigned depth)
{
	double w = (double)f->total * d->scale;
	double y = HEAD_H + (double)(d->depth - 1 - depth) * FRAME_H;
	double at = x;

	if (w < MIN_W)
		return;
	fprintf(d->out, "<svg x=\"%.2f\" y=\"%.0f\" width=\"%.2f\" height=\"%d\"><title>",
		x, y, w, FRAME_H);
	report_xml_text_n(d->out, f->name, 0);
	if (d->diff) {
		double now = share(f->total, d->sum_b), was = share(base ? base->total : 0, d->sum_a);

		fprintf(d->out, ": %.2f%% of the samples (was %.2f%%, %+.2f points)", now, was,
			now - was);
	} else {
		fprintf(d->out, ": %llu samples, %.2f%%", (unsigned long long)f->total,
			share(f->total, d->sum_b));
	}
	fputs("</title><rect width=\"100%\" height=\"100%\" rx=\"2\" fill=\"", d->out);
	if (d->diff)
		fill_moved(d->out, share(f->total, d->sum_b) - share(base ? base->total : 0, d->sum_a),
			   d->largest);
	else
		fill_plain(d->out, f->name, depth);
	fputs("\"/><text x=\"3\" y=\"12\">", d->out);
	report_xml_text_n(d->out, f->name, 0);
	fputs("</text></svg>\n", d->out);
	for (size_t i = 0; i < f->nkids; i++) {
		draw_frame(d, f->kids[i], frame_find(base, f->kids[i]->name), at, depth + 1);
		at += (double)f->kids[i]->total * d->scale;
	}
}

/* a's samples in frames b has no frame for (at the first frame of a path that b lacks). */
static uint64_t only_in_base(const struct frame *base, const struct frame *f)
{
	uint64_t n = 0;

	for (size_t i = 0; i < base->nkids; i++) {
		const struct frame *k = frame_find(f, base->kids[i]->name);

		n += k ? only_in_base(base->kids[i], k) : base->kids[i]->total;
	}
	return n;
}

static void draw(FILE *out, const char *title, const struct frame *b, const struct frame *a)
{
	struct flame_draw d = {
		.out = out,
		.depth = frame_depth(b),
		.sum_b = b->total,
		.sum_a = a ? a->total : 0,
		.diff = a != NULL,
	};
	double height = HEAD_H + (double)d.depth * FRAME_H + SIDE;

	d.scale = b->total ? (double)(FLAME_W - 2 * SIDE) / (double)b->total : 0;
	if (a)
		d.largest = largest_move(&d, b, a);
	fprintf(out, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%.0f\" "
		"viewBox=\"0 0 %d %.0f\" font-family=\"sans-serif\" font-size=\"11\">\n",
		FLAME_W, height, FLAME_W, height);
	fprintf(out, "<text x=\"%d\" y=\"16\" font-size=\"14\">", SIDE);
	report_xml_text_n(out, title, 0);
	fputs("</text>\n", out);
	fprintf(out, "<text x=\"%d\" y=\"32\">", SIDE);
	if (!b->total)
		fputs("no samples", out);
	else if (a)
		fprintf(out, "%llu samples, coloured by the move of each frame's share from the "
			"%llu before: red grew, blue shrank; %.2f%% of those before are in frames "
			"not drawn here", (unsigned long long)b->total, (unsigned long long)a->total,
			share(only_in_base(a, b), a->total));
	else
		fprintf(out, "%llu samples; a frame is as wide as its samples, its callees above "
			"it", (unsigned long long)b->total);
	fputs("</text>\n", out);
	if (b->total)
		draw_frame(&d, b, a, SIDE, 0);
	fputs("</svg>\n", out);
}

int report_flame_svg(FILE *out, const char *title, const struct flame_stack *v, size_t n)
{
	struct frame *root = flame_tree(v, n);

	if (!root)
		return -ENOMEM;
	draw(out, title, root, NULL);
	frame_free(root);
	return 0;
}

int report_flame_diff_svg(FILE *out, const char *title, const struct flame_stack *a, size_t na,
			  const struct flame_stack *b, size_t nb)
{
	struct frame *ra = flame_tree(a, na), *rb = flame_tree(b, nb);
	int ret = -ENOMEM;

	if (!ra || !rb)
		goto out_free;
	draw(out, title, rb, ra);
	ret = 0;
out_free:
	frame_free(ra);
	frame_free(rb);
	return ret;
}

/* A function's samples in one set: those of the stacks it ends (its self time). */
struct seen {
	const char *name;
	size_t len;
	uint64_t count;
	bool in_b;
};

static int seen_cmp(const void *x, const void *y)
{
	const struct seen *a = x, *b = y;
	size_t n = a->len < b->len ? a->len : b->len;
	int c = memcmp(a->name, b->name, n);

	if (c)
		return c;
	return (a->len > b->len) - (a->len < b->len);
}

/* Each stack's last frame, the function sampled, appended to *v. */
static int seen_add(struct seen **v, size_t *n, size_t *cap, const struct flame_stack *s, size_t ns,
		    bool in_b)
{
	for (size_t i = 0; i < ns; i++) {
		const char *p = s[i].folded, *last;

		if (!s[i].count || !p || !*p)
			continue;
		last = strrchr(p, ';');
		/* the task alone ("[exited]", "[other stacks]"): no function was sampled */
		if (!last || !last[1])
			continue;
		last++;
		if (array_room(v, cap, *n, sizeof(**v), 256))
			return -ENOMEM;
		(*v)[(*n)++] = (struct seen){ .name = last, .len = strlen(last), .count = s[i].count,
					      .in_b = in_b };
	}
	return 0;
}

static uint64_t stack_sum(const struct flame_stack *s, size_t n)
{
	uint64_t sum = 0;

	for (size_t i = 0; i < n; i++)
		sum += s[i].folded ? s[i].count : 0;
	return sum;
}

int report_flame_mover_cmp(const void *x, const void *y)
{
	const struct flame_mover *a = x, *b = y;
	double ma = fabs(a->share_b - a->share_a), mb = fabs(b->share_b - b->share_a);

	if (ma != mb)
		return ma < mb ? 1 : -1;
	return strcmp(a->name, b->name);
}

int report_flame_movers(const struct flame_stack *a, size_t na, const struct flame_stack *b,
			size_t nb, struct flame_mover *out, size_t max)
{
	uint64_t sum_a = stack_sum(a, na), sum_b = stack_sum(b, nb);
	struct seen *v = NULL;
	struct flame_mover *all = NULL;
	size_t n = 0, cap = 0, nall = 0, acap = 0;
	int ret;

	ret = seen_add(&v, &n, &cap, a, na, false);
	if (!ret)
		ret = seen_add(&v, &n, &cap, b, nb, true);
	if (ret)
		goto out_free;
	if (n)
		qsort(v, n, sizeof(*v), seen_cmp);
	for (size_t i = 0; i < n;) {
		struct flame_mover m = { .share_a = 0 };
		size_t j = i;

		for (; j < n && !seen_cmp(&v[i], &v[j]); j++) {
			if (v[j].in_b)
				m.share_b += share(v[j].count, sum_b);
			else
				m.share_a += share(v[j].count, sum_a);
		}
		snprintf(m.name, sizeof(m.name), "%.*s", (int)v[i].len, v[i].name);
		ret = array_room(&all, &acap, nall, sizeof(*all), 64);
		if (ret)
			goto out_free;
		all[nall++] = m;
		i = j;
	}
	if (nall)
		qsort(all, nall, sizeof(*all), report_flame_mover_cmp);
	if (nall > max)
		nall = max;
	if (nall)
		memcpy(out, all, nall * sizeof(*all));
	ret = (int)nall;
out_free:
	free(all);
	free(v);
	return ret;
}
