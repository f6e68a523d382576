// SPDX-License-Identifier: BSD-2-Clause
/*
 * clyde-report's CPU split (report_split.c) from hand-made documents: the
 * means of each column over a configuration's runs that profiled the
 * phase (a mean, not a median: three runs 1, 2 and 6 give 3), a column a
 * run says null of left out of its mean only, a run without a profile
 * left out, two configurations apart, the phases in the phase table's
 * order whatever the document's, the columns named as clyde names them;
 * the where row of the CPU no snapshot counted (clyde-result/13), means
 * over the runs that name it; an old document without groups or machine
 * prints nothing and does not crash.
 */
#include "config.h"

#include <errno.h>
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

#define FILES "{\"number\": 0, \"max_size\": 0, \"min_size\": 0, \"dirs\": 1, \"chunk\": 8192}"

/*
 * One run's profile of a phase, left open: clyde c s, fs f s, irq (null
 * where < 0), unattributed u s.
 */
static void profile(FILE *m, double wall, double c, double f, double irq, double u)
{
	fprintf(m, "{\"window_s\": %g, \"process\": {\"user_s\": %g, \"sys_s\": %g, "
		"\"io_uring_s\": null}, \"machine\": {\"cpus\": 2, \"user_s\": 1, \"system_s\": 1, "
		"\"idle_s\": 0.5, \"iowait_s\": 0.25, ", wall, c / 4, c * 3 / 4);
	if (irq < 0)
		fputs("\"irq_s\": null, \"softirq_s\": null, ", m);
	else
		fprintf(m, "\"irq_s\": %g, \"softirq_s\": 0.01, ", irq);
	fprintf(m, "\"steal_s\": 0}, \"groups\": {\"clyde_s\": %g, \"filesystem_s\": %g, "
		"\"writeback_s\": 0, \"block_s\": 0.125, \"kworker_s\": 0, \"kswapd_s\": 0, "
		"\"kernel_other_s\": 0, \"other_processes_s\": 0, \"unattributed_s\": %g, "
		"\"top\": []}, \"outside_s\": 0.1, \"outside_fraction\": 0.1", c, f, u);
}

/* One /13 run of configuration name: put_block listed before putc; seeks without a profile. */
static void run(FILE *m, const char *name, bool first, double scale, double irq, const char *unseen)
{
	fprintf(m, "%s{\"name\": \"%s\", \"io\": {\"size_mib\": 64, \"chunk\": 8192, \"seeks\": 100,"
		" \"seekers\": 1}, \"files\": " FILES ", \"phases\": {\"put_block\": {\"ran\": true,"
		" \"amount\": 65536, \"rate\": 131072, \"profile\": ", first ? "" : ",\n", name);
	profile(m, 2 * scale, 1 * scale, 0.5 * scale, irq, -0.02 * scale);
	fputs("}}, \"putc\": {\"ran\": true, \"amount\": 65536, \"rate\": 1024, \"profile\": ", m);
	profile(m, 4 * scale, 3 * scale, 0, 0.02, 1.5 * scale);
	/* the profile's stacks: the named unattributed CPU, where the run gives it */
	if (unseen)
		fprintf(m, ", \"stacks\": {\"cpu_s\": 2, \"layers\": [], \"top_self\": [],"
			" \"top_total\": [], \"folded\": [], \"unattributed\": %s}", unseen);
	fputs("}}, \"seeks\": {\"ran\": true, \"amount\": 100, \"rate\": 50}}}", m);
}

static char *doc(void)
{
	char *text = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&text, &len);

	fputs("{\"schema\": \"clyde-result/13\", \"clyde_version\": \"0.1.0\", \"runs\": [\n", m);
	/* alpha: scales 1, 2, 6 (mean 3, median 2); irq null in the second */
	run(m, "alpha", true, 1, 0.04, "{\"samples\": 100, \"cpu_s\": 1.0, \"tasks\": ["
	    "{\"name\": \"cc1\", \"function\": \"[no frames]\", \"layer\": \"other-processes\","
	    " \"samples\": 60, \"cpu_s\": 0.6}, {\"name\": \"kworker btrfs-endio\", \"function\":"
	    " \"btrfs_work_helper_[k]\", \"layer\": \"btrfs\", \"samples\": 40, \"cpu_s\": 0.4}]}");
	run(m, "alpha", false, 2, -1, "{\"samples\": 300, \"cpu_s\": 3.0, \"tasks\": ["
	    "{\"name\": \"kworker btrfs-endio\", \"function\": \"crc32c_le_[k]\", \"layer\":"
	    " \"checksum\", \"samples\": 300, \"cpu_s\": 3.0}]}");
	run(m, "alpha", false, 6, 0.16, NULL);
	/* beta: one run */
	run(m, "beta", false, 10, 0.5, NULL);
	fputs("\n]}\n", m);
	fclose(m);
	return text;
}

static void find_line(const char *out, const char *want, const char *what)
{
	CHECK(out && strstr(out, want), "%s: no line\n%s\nin:\n%s", what, want, out ? out : "");
}

static void test_means(struct report_set *s)
{
	char *text = doc(), *out = NULL;
	size_t len = 0;
	FILE *m;
	struct report_split sp;
	unsigned runs = 0;
	char *at, *putc_at, *block_at;

	CHECK(text && report_read_buffer(s, text, strlen(text), "t", stderr) == 0, "read");
	free(text);
	CHECK(s->nruns == 4 && s->errors == 0, "%zu runs, %u errors", s->nruns, s->errors);
	CHECK(report_group(s) == 0 && s->nconfigs == 2, "two configurations: %zu", s->nconfigs);
	if (s->nconfigs != 2)
		return;
	CHECK(report_split_means(s, 0, PH_PUT_BLOCK, &sp, &runs) && runs == 3, "alpha: 3 runs");
	CHECK_NEAR(sp.v[SPLIT_WALL], (2 + 4 + 12) / 3.0, 1e-9);
	CHECK_NEAR(sp.v[SPLIT_CLYDE], 3, 1e-9);
	CHECK_NEAR(sp.v[SPLIT_FS], 1.5, 1e-9);
	/* irq + softirq, over the two runs that know it: (0.05 + 0.17) / 2 */
	CHECK_NEAR(sp.v[SPLIT_IRQ], 0.11, 1e-9);
	/* idle + iowait */
	CHECK_NEAR(sp.v[SPLIT_IDLE], 0.75, 1e-9);
	CHECK(isnan(sp.v[SPLIT_URING]), "io_uring null in every run: not known");
	CHECK_NEAR(sp.v[SPLIT_UNATTR], -0.06, 1e-9);
	CHECK(sp.cpus == 2, "cpus %u", sp.cpus);
	CHECK(report_split_means(s, 1, PH_PUT_BLOCK, &sp, &runs) && runs == 1, "beta: 1 run");
	CHECK_NEAR(sp.v[SPLIT_CLYDE], 10, 1e-9);
	CHECK(!report_split_means(s, 0, PH_SEEKS, &sp, &runs) && runs == 0, "seeks: no profile");

	m = open_memstream(&out, &len);
	CHECK(report_text(m, s) == 0, "text");
	fclose(m);
	find_line(out, "  wall: the phase's wall time; clyde: clyde's process, user and system; "
		  "uring: its io_uring threads, a part of clyde\n", "the columns said");
	find_line(out, "\n[1] alpha", "alpha's block");
	find_line(out, "  Phase              runs cpus    wall   clyde   uring      fs   wback   block"
		  "   kwork  kswapd  kother  others     irq   steal    idle  unattr\n", "the heading");
	/* putc: wall (4 + 8 + 24) / 3, clyde 3, unattributed (1.5 + 3 + 9) / 3 */
	find_line(out, "  Per-char write        3    2  12.000   9.000       -   0.000   0.000   0.125"
		  "   0.000   0.000   0.000   0.000   0.030   0.000   0.750   4.500\n", "alpha putc");
	find_line(out, "  Block write           3    2   6.000   3.000       -   1.500   0.000   0.125"
		  "   0.000   0.000   0.000   0.000   0.110   0.000   0.750  -0.060\n",
		  "alpha put_block");
	find_line(out, "  Block write           1    2  20.000  10.000       -   5.000", "beta");
	/* the phase table's order (putc first), in alpha's block, before beta's */
	at = out ? strstr(out, "\nCPU split") : NULL;
	at = at ? strstr(at, "\n[1] alpha") : NULL;
	putc_at = at ? strstr(at, "  Per-char write        3") : NULL;
	block_at = at ? strstr(at, "  Block write           3") : NULL;
	CHECK(putc_at && block_at && putc_at < block_at && block_at < strstr(at, "\n[2] beta"),
	      "putc before put_block, alpha before beta");
	CHECK(out && !strstr(strstr(out, "CPU split") ? strstr(out, "CPU split") : out,
			      "  Random seeks          "), "no split row for seeks");
	/*
	 * the named unattributed CPU: (1.0 + 3.0) / 2 over the two runs that
	 * name it; kworker btrfs-endio (0.4 + 3.0) / 2 by the function of its
	 * larger run, then cc1 0.6 / 2
	 */
	find_line(out, "  Per-char write     unattributed, in tasks no snapshot counted: 2.000 s in 2 "
		  "runs: kworker btrfs-endio 1.700 s (crc32c_le_[k] in checksum); cc1 0.300 s "
		  "([no frames] in other-processes)\n", "the where row");
	free(out);

	out = NULL;
	m = open_memstream(&out, &len);
	CHECK(report_html(m, s) == 0, "page");
	fclose(m);
	find_line(out, "<h2>CPU split (--profile)</h2>", "the page's section");
	find_line(out, "<dt>unattr</dt><dd>busy time no task", "the page says the columns");
	find_line(out, "<tr><td>alpha</td><td>Block write</td><td class=\"num\">3</td>"
		  "<td class=\"num\">2</td><td class=\"num\">6.000</td><td class=\"num\">3.000</td>"
		  "<td class=\"na\">", "the page's alpha put_block row");
	free(out);
}

static void test_old(struct report_set *s)
{
	static const char old[] =
		"{\"schema\": \"clyde-result/3\", \"runs\": [{\"name\": \"old\", \"io\": {\"size_mib\":"
		" 64, \"chunk\": 8192, \"seeks\": 100, \"seekers\": 1}, \"files\": " FILES ","
		" \"phases\": {\"put_block\": {\"ran\": true, \"amount\": 65536, \"rate\": 131072,"
		" \"profile\": {\"window_s\": 1, \"machine\": null, \"groups\": null, \"outside_s\":"
		" null, \"outside_fraction\": null, \"per_unit\": {\"unit\": \"GiB\", \"clyde_s\":"
		" 0.4, \"caused_s\": null}}}}}]}\n";
	char *out = NULL;
	size_t len = 0;
	struct report_split sp;
	unsigned runs = 1;
	FILE *m;

	report_set_free(s);
	report_set_init(s);
	CHECK(report_read_buffer(s, old, strlen(old), "t", stderr) == 0 && s->nruns == 1 &&
	      s->errors == 0, "old document read");
	CHECK(report_group(s) == 0, "group");
	CHECK(!s->runs[0].split[PH_PUT_BLOCK].has, "no groups, no machine: no split");
	CHECK(!report_split_means(s, 0, PH_PUT_BLOCK, &sp, &runs) && !runs, "no means");
	m = open_memstream(&out, &len);
	CHECK(report_text(m, s) == 0, "text");
	fclose(m);
	CHECK(out && !strstr(out, "CPU split"), "nothing printed:\n%s", out ? out : "");
	free(out);
	out = NULL;
	m = open_memstream(&out, &len);
	CHECK(report_html(m, s) == 0, "page");
	fclose(m);
	CHECK(out && !strstr(out, "CPU split"), "no section on the page");
	free(out);
}

int main(void)
{
	struct report_set s;

	report_set_init(&s);
	test_means(&s);
	test_old(&s);
	report_set_free(&s);
	return unit_verdict("unit_report_split");
}
