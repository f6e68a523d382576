// SPDX-License-Identifier: BSD-2-Clause
/*
 * clyde-report's flame graphs: every frame drawn is as wide as the
 * samples of the stacks that pass through it (the test counts them from
 * the stacks itself, by prefix), callees in name order sit on their
 * caller, the same stacks in another order draw the same bytes, names are
 * escaped, and the difference colours by the move of each share. The
 * movers rank functions by the move of their self share (the samples
 * that hit them).
 */
#include "config.h"

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/report_flame.h"
#include "unit.h"

/* What one drawn frame says: its box and its title. */
struct drawn {
	double x, y, w;
	char title[256];
	char fill[32];
};

/* Every frame's nested <svg> of a drawing, in the order drawn. */
static size_t parse(const char *svg, struct drawn *d, size_t max)
{
	size_t n = 0;
	const char *p = svg;

	/* the document's own <svg ...> first: frames are the ones with a y */
	while ((p = strstr(p + 1, "<svg x=\"")) && n < max) {
		const char *t = strstr(p, "<title>"), *e, *f;

		if (sscanf(p, "<svg x=\"%lf\" y=\"%lf\" width=\"%lf\"", &d[n].x, &d[n].y,
			   &d[n].w) != 3 || !t)
			break;
		t += strlen("<title>");
		e = strstr(t, "</title>");
		snprintf(d[n].title, sizeof(d[n].title), "%.*s", (int)(e - t), t);
		f = strstr(e, "fill=\"") + strlen("fill=\"");
		snprintf(d[n].fill, sizeof(d[n].fill), "%.*s", (int)strcspn(f, "\""), f);
		n++;
	}
	return n;
}

static char *draw_plain(const struct flame_stack *v, size_t n)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);

	CHECK(report_flame_svg(out, "t", v, n) == 0, "drawn");
	fclose(out);
	return buf;
}

static char *draw_diff(const struct flame_stack *a, size_t na, const struct flame_stack *b,
		       size_t nb)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);

	CHECK(report_flame_diff_svg(out, "d", a, na, b, nb) == 0, "drawn");
	fclose(out);
	return buf;
}

/* Samples of the stacks whose first frames are prefix's (a whole-frame prefix). */
static uint64_t through(const struct flame_stack *v, size_t n, const char *prefix)
{
	uint64_t sum = 0;
	size_t k = strlen(prefix);

	for (size_t i = 0; i < n; i++)
		if (!strncmp(v[i].folded, prefix, k) &&
		    (v[i].folded[k] == ';' || v[i].folded[k] == 0))
			sum += v[i].count;
	return sum;
}

static const struct frame_case {
	const char *path;	/* the frames from the root, as a folded prefix */
	const char *name;
} frames[] = {
	{ "clyde", "clyde" },
	{ "clyde;main", "main" },
	{ "clyde;main;pread", "pread" },
	{ "clyde;main;pread;vfs_read_[k]", "vfs_read_[k]" },
	{ "clyde;main;pwrite", "pwrite" },
	{ "kworker/u4:1", "kworker/u4:1" },
};

static void test_widths(void)
{
	/* skewed counts, shared prefixes, a stack that ends where another goes on */
	const struct flame_stack v[] = {
		{ "clyde;main;pread;vfs_read_[k]", 700 },
		{ "clyde;main;pread", 50 },
		{ "clyde;main;pwrite", 240 },
		{ "kworker/u4:1", 9 },
		{ "clyde;main;pread;vfs_read_[k]", 1 },
	};
	size_t n = sizeof(v) / sizeof(v[0]);
	uint64_t total = through(v, n, "clyde") + through(v, n, "kworker/u4:1");
	struct drawn d[32];
	char *svg = draw_plain(v, n);
	size_t nd = parse(svg, d, 32);
	double unit = (double)(FLAME_W - 20) / (double)total;

	CHECK(nd == 7, "the root and six frames drawn: %zu", nd);
	CHECK(strstr(d[0].title, "all: 1000 samples, 100.00%") != NULL, "root: %s", d[0].title);
	for (size_t f = 0; f < sizeof(frames) / sizeof(frames[0]); f++) {
		uint64_t want = through(v, n, frames[f].path);
		char head[96];
		bool found = false;

		snprintf(head, sizeof(head), "%s: %llu samples,", frames[f].name,
			 (unsigned long long)want);
		for (size_t i = 0; i < nd; i++) {
			if (strncmp(d[i].title, head, strlen(head)))
				continue;
			found = true;
			CHECK(fabs(d[i].w - (double)want * unit) < 0.01, "%s: width %.2f, want %.2f",
			      frames[f].name, d[i].w, (double)want * unit);
		}
		CHECK(found, "a frame titled '%s'", head);
	}
	/* callees sit on the caller (one row up), from its left edge, in name order */
	for (size_t i = 1; i < nd; i++) {
		if (!strncmp(d[i].title, "pwrite:", 7)) {
			for (size_t j = 0; j < nd; j++)
				if (!strncmp(d[j].title, "pread:", 6))
					CHECK(fabs(d[i].x - (d[j].x + d[j].w)) < 0.01,
					      "pwrite right after pread: %.2f vs %.2f", d[i].x,
					      d[j].x + d[j].w);
		}
		if (!strncmp(d[i].title, "main:", 5))
			CHECK(fabs(d[i].y - (d[0].y - 32)) < 0.01, "main two rows above the root");
	}
	for (size_t i = 0; i < nd; i++) {
		int r = 0, g = 0, b = 0;

		if (sscanf(d[i].fill, "rgb(%d,%d,%d)", &r, &g, &b) != 3)
			CHECK(0, "a fill of three numbers: %s", d[i].fill);
		else if (!strncmp(d[i].title, "vfs_read_[k]:", 13))
			CHECK(r == 235 && b >= 40 && b < 70, "a kernel frame orange: %s", d[i].fill);
		else if (i > 0)
			CHECK(b == 55, "a user frame red to yellow: %s", d[i].fill);
	}
	free(svg);
}

static void test_order_and_escape(void)
{
	const struct flame_stack a[] = {
		{ "p;operator<<&\"x\"", 3 }, { "p;b", 2 }, { "q;a;b", 5 }, { "p;b", 1 },
	};
	const struct flame_stack b[] = {
		{ "p;b", 1 }, { "q;a;b", 5 }, { "p;b", 2 }, { "p;operator<<&\"x\"", 3 },
	};
	char *sa = draw_plain(a, 4), *sb = draw_plain(b, 4);

	CHECK(sa && sb && !strcmp(sa, sb), "the same stacks in another order: the same bytes");
	CHECK(strstr(sa, "operator&lt;&lt;&amp;&quot;x&quot;") != NULL, "a name escaped");
	CHECK(strstr(sa, "operator<<") == NULL, "and never raw");
	free(sa);
	free(sb);
}

static void test_empty_and_narrow(void)
{
	const struct flame_stack v[] = { { "a;big", 1000000 }, { "a;tiny", 1 } };
	struct drawn d[8];
	char *svg = draw_plain(NULL, 0);
	size_t nd;

	CHECK(strstr(svg, "no samples") != NULL, "an empty set says so");
	CHECK(parse(svg, d, 8) == 0, "and draws no frame");
	free(svg);
	svg = draw_plain(v, 2);
	nd = parse(svg, d, 8);
	CHECK(nd == 3, "a frame of a millionth is not drawn: %zu frames", nd);
	CHECK(strstr(svg, "a: 1000001 samples") != NULL, "its samples stay in its caller's");
	free(svg);
}

static void test_diff(void)
{
	/* f's share grows 50 -> 80, g's shrinks 50 -> 15, h is new at 5, k only before */
	const struct flame_stack a[] = { { "x;f", 40 }, { "x;g", 40 }, { "y;k", 20 } };
	const struct flame_stack b[] = { { "x;f", 160 }, { "x;g", 30 }, { "x;h", 10 } };
	struct drawn d[16];
	char *svg = draw_diff(a, 3, b, 3);
	size_t nd = parse(svg, d, 16);
	int seen = 0;

	for (size_t i = 0; i < nd; i++) {
		if (!strncmp(d[i].title, "f:", 2)) {
			seen++;
			CHECK(strstr(d[i].title, "80.00% of the samples (was 40.00%, +40.00 points)"),
			      "f: %s", d[i].title);
			CHECK(!strcmp(d[i].fill, "rgb(255,55,55)"), "f, the largest move, full red: %s",
			      d[i].fill);
		}
		if (!strncmp(d[i].title, "g:", 2)) {
			seen++;
			CHECK(strstr(d[i].title, "15.00% of the samples (was 40.00%, -25.00 points)"),
			      "g: %s", d[i].title);
			CHECK(!strcmp(d[i].fill, "rgb(130,130,255)"), "g blue, 25/40 of red's: %s",
			      d[i].fill);
		}
		if (!strncmp(d[i].title, "h:", 2))
			seen++;
		CHECK(strncmp(d[i].title, "k:", 2), "k, only before, is not drawn");
	}
	CHECK(seen == 3, "f, g and h drawn: %d", seen);
	CHECK(strstr(svg, "20.00% of those before are in frames not drawn here") != NULL,
	      "the heading says how much of before is not drawn");
	free(svg);
}

static void test_movers(void)
{
	/* by self share: r ends two stacks (its recursion is no matter), s ends none */
	const struct flame_stack a[] = { { "s;r;r;r", 10 }, { "s;u", 90 } };
	const struct flame_stack b[] = { { "s;r;r", 60 }, { "s;u", 40 }, { "s;v", 100 },
					 { "s;v;r", 0 } };
	struct flame_mover m[8];
	int n = report_flame_movers(a, 2, b, 4, m, 8);

	CHECK(n == 3, "three functions sampled: %d", n);
	if (n != 3)
		return;
	/* u: 90% -> 20%: -70; v: 0 -> 50%: +50; r: 10% -> 30%: +20 */
	CHECK_STR(m[0].name, "u");
	CHECK(fabs(m[0].share_a - 90) < 1e-9 && fabs(m[0].share_b - 20) < 1e-9, "u %.2f -> %.2f",
	      m[0].share_a, m[0].share_b);
	CHECK_STR(m[1].name, "v");
	CHECK_STR(m[2].name, "r");
	CHECK(fabs(m[2].share_a - 10) < 1e-9 && fabs(m[2].share_b - 30) < 1e-9,
	      "r, self in its stacks: %.2f -> %.2f", m[2].share_a, m[2].share_b);
	CHECK(report_flame_movers(a, 2, b, 4, m, 2) == 2, "at most max");
}

/*
 * A stack of the task alone (a task that exited before its frames were
 * read, the remainder past the cap) names no function: it is no mover,
 * though its samples count in the shares of the rest.
 */
static void test_movers_task_alone(void)
{
	const struct flame_stack a[] = { { "w;f", 50 }, { "[exited]", 50 } };
	const struct flame_stack b[] = { { "w;f", 50 }, { "cc1", 150 }, { "[other stacks]", 0 } };
	struct flame_mover m[8];
	int n = report_flame_movers(a, 2, b, 3, m, 8);

	CHECK(n == 1, "one function sampled: %d", n);
	if (n < 1)
		return;
	CHECK_STR(m[0].name, "f");
	CHECK(fabs(m[0].share_a - 50) < 1e-9 && fabs(m[0].share_b - 25) < 1e-9, "f %.2f -> %.2f",
	      m[0].share_a, m[0].share_b);
}

int main(void)
{
	test_widths();
	test_order_and_escape();
	test_empty_and_narrow();
	test_diff();
	test_movers();
	test_movers_task_alone();
	return unit_verdict("unit_report_flame");
}
