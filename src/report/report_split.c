// SPDX-License-Identifier: BSD-2-Clause
/*
 * clyde-report's table of where each profiled phase's CPU seconds went
 * over the machine's CPUs: clyde --profile's "Profile CPU seconds over
 * each phase" table, per configuration, as means over the runs that
 * profiled the phase, in the text and on the page; and the where row of
 * the CPU no snapshot counted, as the stack samples name it
 * (clyde-result/13). Pure functions of the set.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/phase.h"
#include "report/report.h"

static const char *const split_head[SPLIT_COLS] = {
	[SPLIT_WALL] = "wall", [SPLIT_CLYDE] = "clyde", [SPLIT_URING] = "uring",
	[SPLIT_FS] = "fs", [SPLIT_WBACK] = "wback", [SPLIT_BLOCK] = "block",
	[SPLIT_KWORK] = "kwork", [SPLIT_KSWAPD] = "kswapd", [SPLIT_KOTHER] = "kother",
	[SPLIT_OTHERS] = "others", [SPLIT_IRQ] = "irq", [SPLIT_STEAL] = "steal",
	[SPLIT_IDLE] = "idle", [SPLIT_UNATTR] = "unattr",
};

/* What each column is, as clyde's own heading and clyde(1) say it. */
static const char *const split_what[SPLIT_COLS] = {
	[SPLIT_WALL] = "the phase's wall time",
	[SPLIT_CLYDE] = "clyde's process, user and system",
	[SPLIT_URING] = "its io_uring threads, a part of clyde",
	[SPLIT_FS] = "the filesystem's threads",
	[SPLIT_WBACK] = "writeback kworkers",
	[SPLIT_BLOCK] = "the block layer's threads (loop, kblockd, dm, md)",
	[SPLIT_KWORK] = "other kworkers",
	[SPLIT_KSWAPD] = "page reclaim",
	[SPLIT_KOTHER] = "other kernel threads",
	[SPLIT_OTHERS] = "other processes",
	[SPLIT_IRQ] = "interrupts and softirqs",
	[SPLIT_STEAL] = "taken by the hypervisor",
	[SPLIT_IDLE] = "idle and iowait",
	[SPLIT_UNATTR] = "busy time no task's counters explain (came and went; <0: rounding)",
};

bool report_split_means(const struct report_set *s, size_t k, enum phase_id ph,
			struct report_split *mean, unsigned *runs)
{
	unsigned n[SPLIT_COLS] = { 0 };

	memset(mean, 0, sizeof(*mean));
	*runs = 0;
	for (size_t i = 0; i < s->nruns; i++) {
		const struct report_split *sp = &s->runs[i].split[ph];

		if (!report_run_of(s, k, i) || !s->runs[i].prof[ph].has || !sp->has)
			continue;
		(*runs)++;
		if (sp->cpus > mean->cpus)
			mean->cpus = sp->cpus;
		for (int c = 0; c < SPLIT_COLS; c++) {
			if (isnan(sp->v[c]))
				continue;
			mean->v[c] += sp->v[c];
			n[c]++;
		}
	}
	for (int c = 0; c < SPLIT_COLS; c++)
		mean->v[c] = n[c] ? mean->v[c] / n[c] : NAN;
	mean->has = *runs > 0;
	return mean->has;
}

static bool any_split(const struct report_set *s)
{
	for (size_t i = 0; i < s->nruns; i++)
		for (int ph = 0; ph < PH_COUNT; ph++)
			if (s->runs[i].prof[ph].has && s->runs[i].split[ph].has)
				return true;
	return false;
}

int report_split_text(FILE *out, const struct report_set *s)
{
	if (!any_split(s))
		return 0;
	fputs("\nCPU split (--profile): the CPU seconds of the machine's CPUs over each phase, "
	      "means over\nthe runs that profiled it (each column over the runs that know it; "
	      "-: none does).\n", out);
	for (int c = 0; c < SPLIT_COLS; c++)
		fprintf(out, "%s%s: %s%s", c % 3 ? "; " : "  ", split_head[c], split_what[c],
			c % 3 == 2 || c == SPLIT_COLS - 1 ? "\n" : "");
	for (size_t k = 0; k < s->nconfigs; k++) {
		bool block = false;

		for (int ph = 0; ph < PH_COUNT; ph++) {
			struct report_split m;
			unsigned runs;

			if (!report_split_means(s, k, (enum phase_id)ph, &m, &runs))
				continue;
			if (!block) {
				fprintf(out, "\n[%zu] %s\n  %-18s %4s %4s", k + 1,
					s->configs[k].key, "Phase", "runs", "cpus");
				for (int c = 0; c < SPLIT_COLS; c++)
					fprintf(out, " %7s", split_head[c]);
				fputc('\n', out);
			}
			block = true;
			fprintf(out, "  %-18s %4u", phase_get((enum phase_id)ph)->row_name, runs);
			if (m.cpus)
				fprintf(out, " %4u", m.cpus);
			else
				fprintf(out, " %4s", "-");
			for (int c = 0; c < SPLIT_COLS; c++)
				if (isnan(m.v[c]))
					fprintf(out, " %7s", "-");
				else
					fprintf(out, " %7.3f", m.v[c]);
			fputc('\n', out);
		}
	}
	return ferror(out) ? -EIO : 0;
}

int report_split_html(FILE *out, const struct report_set *s)
{
	if (!any_split(s))
		return 0;
	fputs("<h2>CPU split (--profile)</h2>\n<p class=\"sub\">For the runs made with <code>clyde"
	      " --profile</code>: the CPU seconds of the machine's CPUs over each phase, as clyde's"
	      " own table splits them; means over the runs that profiled the phase, each column"
	      " over the runs that know it; \xe2\x80\x94: none does.</p>\n"
	      "<dl class=\"split\">", out);
	for (int c = 0; c < SPLIT_COLS; c++) {
		fprintf(out, "<dt>%s</dt><dd>", split_head[c]);
		report_xml_text(out, split_what[c]);
		fputs("</dd>", out);
	}
	fputs("</dl>\n<table class=\"split\">\n<caption>CPU seconds over each phase (mean over the"
	      " profiled runs)</caption>\n<tr><th>Configuration</th><th>Phase</th><th>Runs</th>"
	      "<th>CPUs</th>", out);
	for (int c = 0; c < SPLIT_COLS; c++)
		fprintf(out, "<th>%s<span class=\"unit\">s</span></th>", split_head[c]);
	fputs("</tr>\n", out);
	for (size_t k = 0; k < s->nconfigs; k++) {
		for (int ph = 0; ph < PH_COUNT; ph++) {
			struct report_split m;
			unsigned runs;

			if (!report_split_means(s, k, (enum phase_id)ph, &m, &runs))
				continue;
			fputs("<tr><td>", out);
			report_xml_text(out, s->configs[k].name[0] ? s->configs[k].name :
					s->configs[k].key);
			fputs("</td><td>", out);
			report_xml_text(out, phase_get((enum phase_id)ph)->row_name);
			fprintf(out, "</td><td class=\"num\">%u</td>", runs);
			if (m.cpus)
				fprintf(out, "<td class=\"num\">%u</td>", m.cpus);
			else
				fputs("<td class=\"na\">\xe2\x80\x94</td>", out);
			for (int c = 0; c < SPLIT_COLS; c++)
				if (isnan(m.v[c]))
					fputs("<td class=\"na\">\xe2\x80\x94</td>", out);
				else
					fprintf(out, "<td class=\"num\">%.3f</td>", m.v[c]);
			fputs("</tr>\n", out);
		}
	}
	fputs("</table>\n", out);
	return ferror(out) ? -EIO : 0;
}

/* --- the where row of the CPU no snapshot counted --- */

struct unseen_acc {
	struct report_unseen u;
	double largest;		/* the largest one run gave: its function and layer name it */
};

static int unseen_by_value(const void *pa, const void *pb)
{
	const struct unseen_acc *a = pa, *b = pb;

	if (a->u.s != b->u.s)
		return a->u.s > b->u.s ? -1 : 1;
	return strcmp(a->u.name, b->u.name);
}

#define UNSEEN_ACC_MAX	64

void report_unseen_text(FILE *out, const struct report_set *s, size_t k, enum phase_id ph)
{
	struct unseen_acc acc[UNSEEN_ACC_MAX];
	unsigned n = 0, runs = 0;
	double all = 0;

	for (size_t i = 0; i < s->nruns; i++) {
		const struct report_where *w = s->runs[i].where[ph];

		if (!report_run_of(s, k, i) || !s->runs[i].prof[ph].has || !w || !w->has_unseen)
			continue;
		runs++;
		all += w->unseen_s;
		for (unsigned j = 0; j < w->nunseen; j++) {
			const struct report_unseen *x = &w->unseen[j];
			unsigned a = 0;

			while (a < n && strcmp(acc[a].u.name, x->name))
				a++;
			if (a == n) {
				if (n == UNSEEN_ACC_MAX)
					continue;
				acc[n].u = *x;
				acc[n].u.s = 0;
				acc[n++].largest = -1;
			}
			acc[a].u.s += x->s;
			if (x->s > acc[a].largest) {
				acc[a].largest = x->s;
				memcpy(acc[a].u.func, x->func, sizeof(acc[a].u.func));
				memcpy(acc[a].u.layer, x->layer, sizeof(acc[a].u.layer));
			}
		}
	}
	if (!runs)
		return;
	for (unsigned a = 0; a < n; a++)
		acc[a].u.s /= runs;
	if (n)
		qsort(acc, n, sizeof(acc[0]), unseen_by_value);
	fprintf(out, "  %-18s unattributed, in tasks no snapshot counted: %.3f s in %u run%s",
		phase_get(ph)->row_name, all / runs, runs, runs == 1 ? "" : "s");
	if (!n)
		fputs("; none sampled: the unattributed time is the counters' rounding", out);
	for (unsigned a = 0; a < n && a < REPORT_UNSEEN_MAX; a++)
		fprintf(out, "%s %s %.3f s (%s in %s)", a ? ";" : ":", acc[a].u.name, acc[a].u.s,
			acc[a].u.func, acc[a].u.layer);
	fputc('\n', out);
}
