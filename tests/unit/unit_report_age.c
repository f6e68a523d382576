// SPDX-License-Identifier: BSD-2-Clause
/*
 * clyde-report's aged and full filesystems (report_age.c, read_json.c)
 * from hand-made documents: a run's age label from its "age" object (the
 * profile only where it is not clyde's default), from its name's suffix
 * where it has none, "fresh" in a /14 document without either and
 * unknown ("") before /14; its fill label, fill.phases_pct rounded. The
 * fresh-against-aged pairs: configurations that differ only by their age
 * (other parameters do not pair); the aged/fresh medians with unequal
 * numbers of runs; a ranking that flips, and one that does not.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/phase.h"
#include "report/report.h"
#include "unit.h"

#define CHECK_NEAR(got, want, eps) do {					\
	double g_ = (got), w_ = (want);					\
	CHECK(fabs(g_ - w_) < (eps), "got %.9g, want %.9g", g_, w_);	\
} while (0)

/* One run of schema /schema, name, -s size_mib, its two rates, and extra members of the run. */
static void run(FILE *m, int schema, const char *name, int size_mib, double put, double get,
		const char *extra)
{
	static unsigned seed;

	fprintf(m, "{\"schema\": \"clyde-result/%d\", \"clyde_version\": \"0.1.0\", \"runs\": [{"
		"\"name\": \"%s\", \"seed\": %u, \"io\": {\"size_mib\": %d, \"chunk\": 8192,"
		" \"seeks\": 100, \"seekers\": 1}, \"files\": {\"number\": 0, \"max_size\": 0,"
		" \"min_size\": 0, \"dirs\": 1, \"chunk\": 8192}, \"phases\": {"
		"\"put_block\": {\"ran\": true, \"amount\": 65536, \"rate\": %g},"
		" \"get_block\": {\"ran\": true, \"amount\": 65536, \"rate\": %g}}%s}]}\n",
		schema, name, ++seed, size_mib, put, get, extra ? extra : "");
}

static void read_set(struct report_set *s, const char *text)
{
	report_set_free(s);
	report_set_init(s);
	CHECK(report_read_buffer(s, text, strlen(text), "t", stderr) == 0, "read");
	CHECK(report_group(s) == 0, "group");
}

static const struct report_run *run_named(const struct report_set *s, const char *name, unsigned nth)
{
	for (size_t i = 0; i < s->nruns; i++)
		if (!strcmp(s->runs[i].name, name) && !nth--)
			return &s->runs[i];
	return NULL;
}

static void test_labels(struct report_set *s)
{
	char *text = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&text, &len);

	run(m, 14, "a", 64, 1, 1, ", \"age\": {\"spec\": \"80:2\", \"target_pct\": 80, \"churn\": 2.0,"
	    " \"profile\": \"agrawal\"}, \"fill\": {\"capacity_bytes\": 1048576, \"before_pct\": 1,"
	    " \"phases_pct\": 79.6, \"after_pct\": 1}");
	run(m, 14, "b", 64, 1, 1, ", \"age\": {\"target_pct\": 90, \"churn\": 0.5, \"profile\": \"small\"}");
	run(m, 14, "c", 64, 1, 1, NULL);
	run(m, 13, "d", 64, 1, 1, NULL);
	run(m, 14, "e@aged:70:1", 64, 1, 1, ", \"fill\": {\"phases_pct\": 70.4}");
	run(m, 14, "f@fill50", 64, 1, 1, ", \"age\": {\"target_pct\": 50, \"churn\": 0}");
	run(m, 12, "g@fresh", 64, 1, 1, NULL);
	fclose(m);
	read_set(s, text);
	CHECK(s->nruns == 7, "seven runs: %zu", s->nruns);
	if (s->nruns == 7) {
		CHECK_STR(run_named(s, "a", 0)->age, "aged:80:2");
		CHECK_STR(run_named(s, "a", 0)->fill, "80");
		CHECK_STR(run_named(s, "b", 0)->age, "aged:90:0.5:small");
		CHECK_STR(run_named(s, "b", 0)->fill, "");
		CHECK_STR(run_named(s, "c", 0)->age, "fresh");
		CHECK_STR(run_named(s, "d", 0)->age, "");
		CHECK_STR(run_named(s, "e@aged:70:1", 0)->age, "aged:70:1");
		CHECK_STR(run_named(s, "e@aged:70:1", 0)->fill, "70");
		CHECK_STR(run_named(s, "f@fill50", 0)->age, "aged:50:0");
		CHECK_STR(run_named(s, "g@fresh", 0)->age, "fresh");
	}
	free(text);
}

/*
 * ext4 fresh 3 runs (1000, 1010, 1020 put; 2000 get), aged 1 run (500;
 * 1500); xfs fresh 1 run (900; 2100), aged 2 runs (700, 710; 1600, 1650):
 * put_block: ext4 above xfs fresh, below aged (flipped); get_block: xfs
 * above ext4 both ways. With flip false ext4's aged put_block is 950:
 * above xfs both ways. btrfs aged with other parameters (-s 128): no pair.
 */
static void study(struct report_set *s, bool flip)
{
	char *text = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&text, &len);

	run(m, 14, "ext4@fresh", 64, 1000, 2000, NULL);
	run(m, 14, "ext4@fresh", 64, 1010, 2000, NULL);
	run(m, 14, "ext4@fresh", 64, 1020, 2000, NULL);
	run(m, 14, "ext4@aged:80:2", 64, flip ? 500 : 950, 1500, NULL);
	run(m, 14, "xfs@fresh", 64, 900, 2100, NULL);
	run(m, 14, "xfs@aged:80:2", 64, 700, 1600, NULL);
	run(m, 14, "xfs@aged:80:2", 64, 710, 1650, ", \"age\": {\"target_pct\": 80, \"churn\": 2}");
	run(m, 14, "btrfs@fresh", 64, 800, 800, NULL);
	run(m, 14, "btrfs@aged:80:2", 128, 800, 800, NULL);
	fclose(m);
	read_set(s, text);
	free(text);
}

static void test_pairs(struct report_set *s)
{
	struct report_age_cmp c;
	double f, a;
	size_t hi = 99, lo = 99;

	study(s, true);
	CHECK(report_age_compare(s, &c) == 0, "compare");
	CHECK(c.n == 2, "two pairs (btrfs's aged runs have other parameters): %zu", c.n);
	if (c.n != 2)
		return;
	CHECK_STR(c.pair[0].fs, "ext4");
	CHECK_STR(c.pair[1].fs, "xfs");
	CHECK_STR(c.pair[0].label, "aged:80:2");
	CHECK(report_age_figures(s, &c.pair[0], PH_PUT_BLOCK, &f, &a), "ext4 put_block");
	CHECK_NEAR(f, 1010, 1e-9);	/* the median of three fresh runs */
	CHECK_NEAR(a, 500, 1e-9);	/* of one aged run */
	CHECK(report_age_figures(s, &c.pair[1], PH_PUT_BLOCK, &f, &a), "xfs put_block");
	CHECK_NEAR(f, 900, 1e-9);
	CHECK_NEAR(a, 705, 1e-9);	/* of two */
	CHECK(report_age_flipped(s, &c, "aged:80:2", PH_PUT_BLOCK, &hi, &lo), "put_block flipped");
	CHECK(hi == 0 && lo == 1, "ext4 above xfs fresh, below aged: %zu %zu", hi, lo);
	CHECK(!report_age_flipped(s, &c, "aged:80:2", PH_GET_BLOCK, &hi, &lo), "get_block did not");
	report_age_cmp_free(&c);

	study(s, false);
	CHECK(report_age_compare(s, &c) == 0 && c.n == 2, "compare again");
	CHECK(!report_age_flipped(s, &c, "aged:80:2", PH_PUT_BLOCK, &hi, &lo),
	      "put_block: ext4 above xfs both ways");
	report_age_cmp_free(&c);
}

static void test_text(struct report_set *s)
{
	char *out = NULL;
	size_t len = 0;
	FILE *m;

	study(s, true);
	m = open_memstream(&out, &len);
	CHECK(report_age_text(m, s) == 0, "text");
	fclose(m);
	CHECK(out && strstr(out, "put_block    ranking flipped: ext4 above xfs fresh, below aged"),
	      "the flip said: %s", out);
	CHECK(out && strstr(out, "get_block    same ranking fresh and aged"), "no flip said: %s", out);
	CHECK(out && strstr(out, "0.495"), "ext4's put_block ratio 500/1010: %s", out);
	free(out);
	out = NULL;
	m = open_memstream(&out, &len);
	CHECK(report_age_html(m, s) == 0, "html");
	fclose(m);
	CHECK(out && strstr(out, "<h2>Fresh against aged (aged:80:2)</h2>"), "the page's table");
	CHECK(out && strstr(out, "ranking flipped: xfs above") == NULL, "no wrong flip");
	free(out);
}

int main(void)
{
	struct report_set s;

	report_set_init(&s);
	test_labels(&s);
	test_pairs(&s);
	test_text(&s);
	report_set_free(&s);
	return unit_verdict("unit_report_age");
}
