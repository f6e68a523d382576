// SPDX-License-Identifier: BSD-2-Clause
/*
 * clyde-report's page: one self-contained HTML file (inline CSS and SVG,
 * no script, nothing fetched) that a person reads without the tool: how
 * to read it, the summary tables, the CPU cost of runs made with
 * --profile, then report_svg's charts, and where runs have time series
 * (clyde-result/8) a section of them over time. Written as
 * XHTML-compatible markup, so an XML parser reads it too. A pure
 * function of the report_set.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/phase.h"
#include "report/report.h"

#define SOURCES_SHOWN 12

static const char css[] =
	"body { font-family: \"DejaVu Sans\", Helvetica, Arial, sans-serif; color: #111;"
	" background: #fff; margin: 24px; max-width: 1400px; line-height: 1.4; }\n"
	"h1 { font-size: 24px; margin: 0 0 4px; }\n"
	"h2 { font-size: 18px; margin: 28px 0 8px; border-bottom: 1px solid #ddd; padding-bottom: 4px; }\n"
	"p.sub { color: #444; margin: 0 0 8px; }\n"
	"dl.howto { display: grid; grid-template-columns: max-content 1fr; gap: 4px 18px; margin: 0; max-width: 1100px; }\n"
	"dl.howto dt { font-weight: bold; }\n"
	"dl.howto dd { margin: 0; }\n"
	"table { border-collapse: collapse; margin: 6px 0 18px; font-size: 13px; }\n"
	"caption { text-align: left; font-weight: bold; padding: 4px 0; }\n"
	"th, td { border: 1px solid #d0d0d0; padding: 4px 8px; vertical-align: top; }\n"
	"th { background: #f2f2f2; text-align: center; }\n"
	"th .unit { display: block; font-weight: normal; color: #555; font-size: 11px; }\n"
	"td.num { text-align: right; white-space: nowrap; font-variant-numeric: tabular-nums; }\n"
	"td.na { text-align: center; color: #999; }\n"
	"td.name { max-width: 360px; }\n"
	"tr.base td { background: #f7f7f7; }\n"
	".sw { display: inline-block; width: 12px; height: 12px; margin-right: 6px; vertical-align: -1px; }\n"
	".sw.base { outline: 2px solid #111; }\n"
	".key { display: block; color: #666; font-size: 11px; overflow-wrap: anywhere; }\n"
	".ratio { display: block; font-size: 11px; }\n"
	".better { color: #1a7f37; }\n"
	".worse { color: #c62828; }\n"
	".noise { color: #777; }\n"
	".tag { font-size: 11px; color: #fff; background: #111; border-radius: 3px; padding: 0 4px; margin-left: 4px; }\n"
	"div.charts svg { max-width: 100%; height: auto; }\n"
	"p.foot { color: #777; font-size: 12px; }\n";

static const char howto[] =
	"<dl class=\"howto\">\n"
	"<dt>Throughput</dt><dd>Work done per second: KiB/s for the byte phases, shown as"
	" MiB/s or GiB/s (1 MiB = 1024 KiB), seeks/s for random seeks, files/s for the file"
	" phases. Higher is better.</dd>\n"
	"<dt>CPU</dt><dd>CPU time (user + system) per unit of work: per MiB for the byte phases,"
	" per 1000 seeks, per 1000 files; in s, ms or \xc2\xb5s. Lower is better.</dd>\n"
	"<dt>Latency</dt><dd>The slowest single operation of the phase, in \xc2\xb5s, ms or s."
	" Lower is better.</dd>\n"
	"<dt>Bars and error bars</dt><dd>A configuration is the runs that share a name and"
	" parameters. Its bar is the median over those runs; its error bar spans the lowest to"
	" the highest run, drawn only where it has 2 or more runs. Hover over a bar for the exact"
	" numbers.</dd>\n"
	"<dt>Ratio</dt><dd>A configuration's mean against the baseline's mean, turned so that above"
	" 1 is better for every measure: this \xc3\xb7 baseline for throughput, baseline \xc3\xb7"
	" this for CPU and latency. \xc3\x97" "1.10 is 10% better, \xc3\x97" "0.90 about 10% worse."
	" The mean, because the noise test is a test of the means: the ratio and its mark come"
	" from one statistic.</dd>\n"
	"<dt>Noise marks ~ ?</dt><dd>After a ratio, ~: the difference may be run-to-run noise,"
	" Welch's t-test of the two configurations' means gives p \xe2\x89\xa5 0.05. ?: it cannot"
	" be tested, one of them has fewer than 2 runs. Both are grey. A ratio without a mark"
	" differs at p &lt; 0.05: green better, red worse.</dd>\n"
	"<dt>+++++ and \xe2\x80\x94</dt><dd>+++++: the phase ran for under 0.5 s in every run, too"
	" short to measure (bonnie++ prints it so). \xe2\x80\x94: the runs have no value for it.</dd>\n"
	"<dt>* and ^N</dt><dd>After a median, *: it is of fewer runs than the configuration has"
	" (hover for how many). ^N: N runs ran the phase for under 0.5 s; clyde's JSON has their"
	" figures, counted here as in the history (their CSV line prints +++++).</dd>\n"
	"<dt>Geometric mean</dt><dd>Of a configuration's throughput ratios, over the phases every"
	" configuration with a ratio has one for, the same phases for all (those left out are named under"
	" the table): above 1 is faster overall.</dd>\n";

/* Only where a run made trees: the tree workloads' own measures. */
static const char howto_tree[] =
	"<dt>Tree workloads</dt><dd>clyde --tree: extract, copy, walk, read and delete a generated"
	" tree. Throughput in files/s (entries/s for the walk); data rate: the tree's bytes per second"
	" (delete moves none). Higher is better.</dd>\n"
	"<dt>Dead time</dt><dd>Of a tree phase: its wall time less its user CPU time, that is system"
	" CPU and waiting, in s, ms or \xc2\xb5s. Lower is better.</dd>\n";

static bool stat_ok(const struct report_stat *st)
{
	return st->n > 0 && isfinite(st->median);
}

static bool is_baseline(const struct report_set *s, size_t i)
{
	return s->baseline >= 0 && (size_t)s->baseline == i;
}

static bool column_has(const struct report_set *s, enum phase_id ph, enum report_measure m)
{
	for (size_t i = 0; i < s->nconfigs; i++)
		if (stat_ok(&s->configs[i].stat[ph][m]))
			return true;
	return false;
}

/* Three or four significant digits, no exponent above 1. */
static void number(char *buf, size_t len, double v)
{
	if (v >= 99.95)
		snprintf(buf, len, "%.0f", v);
	else if (v >= 9.995)
		snprintf(buf, len, "%.1f", v);
	else if (v >= 1)
		snprintf(buf, len, "%.2f", v);
	else if (v >= 0.09995)
		snprintf(buf, len, "%.3f", v);
	else
		snprintf(buf, len, "%.3g", v);
}

static void ratio_span(FILE *out, const struct report_config *c, enum phase_id ph,
		       enum report_measure m)
{
	double r = c->ratio[ph][m];
	bool noise = c->within_noise[ph][m];

	if (!c->has_ratio[ph][m] || !isfinite(r))
		return;
	fprintf(out, "<span class=\"ratio %s\">\xc3\x97%.2f%s</span>",
		noise ? "noise" : r >= 1 ? "better" : "worse", r,
		c->untestable[ph][m] ? "?" : noise ? "~" : "");
}

static void value_cell(FILE *out, const struct report_set *s, size_t i, enum phase_id ph,
		       enum report_measure m, const struct report_display *d)
{
	const struct report_config *c = &s->configs[i];
	const struct report_stat *st = &c->stat[ph][m];
	char buf[32];

	if (!stat_ok(st) && c->hidden[ph]) {
		fputs("<td class=\"na\" title=\"under 0.5 s in every run\">+++++</td>", out);
		return;
	}
	if (!stat_ok(st)) {
		fputs("<td class=\"na\">\xe2\x80\x94</td>", out);
		return;
	}
	number(buf, sizeof(buf), st->median * d->scale);
	fprintf(out, "<td class=\"num\" title=\"median of %u run%s", st->n, st->n == 1 ? "" : "s");
	if (st->n > 1)
		fprintf(out, "; lowest %.4g, highest %.4g %s; CV %.1f%%", st->min * d->scale,
			st->max * d->scale, d->unit, st->cv_percent);
	if (c->has_ratio[ph][m] && st->n > 1)
		fprintf(out, "; mean %.4g %s", st->mean * d->scale, d->unit);
	if (c->has_ratio[ph][m] && !c->untestable[ph][m] && c->p_value[ph][m] >= 0)
		fprintf(out, "; Welch p = %.3g", c->p_value[ph][m]);
	if (c->too_short[ph])
		fprintf(out, "; %u run%s under 0.5 s", c->too_short[ph], c->too_short[ph] == 1 ? "" : "s");
	fprintf(out, "\">%s%s", buf, st->n < c->runs ? "*" : "");
	if (c->too_short[ph])
		fprintf(out, "<sup>^%u</sup>", c->too_short[ph]);
	if (is_baseline(s, i))
		fputs("<span class=\"ratio\">baseline</span>", out);
	else
		ratio_span(out, c, ph, m);
	fputs("</td>", out);
}

/* The configuration's cell; rows > 1 spans that many rows. */
static void name_cell(FILE *out, const struct report_set *s, size_t i, unsigned rows)
{
	const struct report_config *c = &s->configs[i];

	fputs("<td class=\"name\"", out);
	if (rows > 1)
		fprintf(out, " rowspan=\"%u\"", rows);
	fprintf(out, "><span class=\"sw%s\" style=\"background: %s\"></span>%zu ",
		is_baseline(s, i) ? " base" : "", report_chart_color(i), i + 1);
	report_xml_text(out, c->name[0] ? c->name : c->key);
	if (is_baseline(s, i))
		fputs("<span class=\"tag\">baseline</span>", out);
	if (c->name[0] && c->key[0] && strcmp(c->key, c->name)) {
		fputs("<span class=\"key\">", out);
		report_xml_text(out, c->key);
		fputs("</span>", out);
	}
	for (int k = 0; k < CAUTION_COUNT; k++) {
		if (!c->caution[k])
			continue;
		fprintf(out, "<span class=\"caution\" style=\"display: block; color: #a33\">"
			"caution: %u of %u run%s ", c->caution[k], c->runs, c->runs == 1 ? "" : "s");
		report_xml_text(out, report_caution_text((enum report_caution)k));
		fputs("</span>", out);
	}
	fputs("</td>", out);
}

/* Under the table of the geometric means: a phase left out of every one, and why. */
static void geomean_left_out(void *arg, const struct report_set *s, enum phase_id ph,
			     const char *which, bool first)
{
	FILE *out = arg;

	if (first && s->geomean_phases)
		fprintf(out, "<p class=\"sub\">Every geometric mean is over the same %u phase%s, those"
			" every configuration with a throughput ratio has one for. Left out of all:",
			s->geomean_phases, s->geomean_phases == 1 ? "" : "s");
	else if (first)
		fputs("<p class=\"sub\">No phase has a throughput ratio in every configuration that"
		      " has one: no geometric mean. The phases:", out);
	fprintf(out, "%s ", first ? "" : ";");
	report_xml_text(out, phase_get(ph)->row_name);
	fprintf(out, " (no rate in %s)", which);
}

/* A column of the table of group g's measure m: the phase is in g and has a value. */
static bool group_column(const struct report_set *s, enum report_table g, int p,
			 enum report_measure m)
{
	return report_phase_table((enum phase_id)p) == g && column_has(s, (enum phase_id)p, m);
}

/* The table of measure m (the throughput, ...) of group g's phases; false when none has a value. */
static bool rate_table(FILE *out, const struct report_set *s, enum report_table g,
		       enum report_measure m, const char *caption, bool geomean)
{
	struct report_display d[PH_COUNT];
	bool any = false;

	for (int p = 0; p < PH_COUNT; p++)
		any |= group_column(s, g, p, m);
	if (!any)
		return false;
	fprintf(out, "<table>\n<caption>%s</caption>\n<tr><th>Configuration</th><th>Runs</th>", caption);
	for (int p = 0; p < PH_COUNT; p++) {
		enum phase_id ph = (enum phase_id)p;

		if (!group_column(s, g, p, m))
			continue;
		report_column_display(&d[p], s, ph, m);
		fputs("<th>", out);
		report_xml_text(out, phase_get(ph)->row_name);
		fputs("<span class=\"unit\">", out);
		report_xml_text(out, d[p].unit);
		fputs("</span></th>", out);
	}
	if (geomean)
		fputs("<th>Geometric mean<span class=\"unit\">of the ratios</span></th>", out);
	fputs("</tr>\n", out);
	for (size_t i = 0; i < s->nconfigs; i++) {
		const struct report_config *c = &s->configs[i];

		fprintf(out, "<tr%s>", is_baseline(s, i) ? " class=\"base\"" : "");
		name_cell(out, s, i, 1);
		fprintf(out, "<td class=\"num\">%u</td>", c->runs);
		for (int p = 0; p < PH_COUNT; p++)
			if (group_column(s, g, p, m))
				value_cell(out, s, i, (enum phase_id)p, m, &d[p]);
		if (geomean && is_baseline(s, i))
			fputs("<td class=\"na\">baseline</td>", out);
		else if (geomean && c->geomean_n > 0 && isfinite(c->geomean))
			fprintf(out, "<td class=\"num\" title=\"over %u phase%s\"><b>\xc3\x97%.3f</b></td>",
				c->geomean_n, c->geomean_n == 1 ? "" : "s", c->geomean);
		else if (geomean)
			fputs("<td class=\"na\">\xe2\x80\x94</td>", out);
		fputs("</tr>\n", out);
	}
	fputs("</table>\n", out);
	if (geomean && report_geomean_left_out_each(s, geomean_left_out, out))
		fputs(".</p>\n", out);
	return true;
}

/* One median of the CPU cost table: a dash where no run knows it; 0 or -ENOMEM. */
static int cost_cell(FILE *out, const struct report_set *s, size_t k, enum phase_id ph,
		     enum report_prof_measure m)
{
	double v;
	char buf[32];
	int ret = report_prof_median(s, k, ph, m, &v);

	if (ret == -ENOENT) {
		fputs("<td class=\"na\" title=\"not known\">\xe2\x80\x94</td>", out);
		return 0;
	}
	if (ret)
		return ret;
	if (m == RP_OUTSIDE)
		snprintf(buf, sizeof(buf), "%.1f", v * 100);
	else if (m == RP_WRITE_AMP || m == RP_READ_AMP)
		snprintf(buf, sizeof(buf), "%.2f", v);
	else
		number(buf, sizeof(buf), v);
	fprintf(out, "<td class=\"num\">%s</td>", buf);
	return 0;
}

/* The phases of configuration k that a run profiled: its rows in the cost table. */
static unsigned cost_rows(const struct report_set *s, size_t k)
{
	unsigned rows = 0;

	for (int ph = 0; ph < PH_COUNT; ph++)
		rows += report_prof_runs(s, k, (enum phase_id)ph) > 0;
	return rows;
}

static int cost_phase_row(FILE *out, const struct report_set *s, size_t k, enum phase_id ph)
{
	static const enum report_prof_measure before_unit[] = { RP_CLYDE, RP_CAUSED };
	static const enum report_prof_measure after_unit[] = { RP_OUTSIDE, RP_WRITE_AMP, RP_READ_AMP };
	int ret = 0;

	fputs("<td>", out);
	report_xml_text(out, phase_get(ph)->row_name);
	fprintf(out, "</td><td class=\"num\">%u</td>", report_prof_runs(s, k, ph));
	for (size_t i = 0; i < sizeof(before_unit) / sizeof(before_unit[0]) && !ret; i++)
		ret = cost_cell(out, s, k, ph, before_unit[i]);
	fputs("<td>", out);
	report_xml_text(out, report_profile_unit(ph));
	fputs("</td>", out);
	for (size_t i = 0; i < sizeof(after_unit) / sizeof(after_unit[0]) && !ret; i++) {
		/* a phase that reads nothing of the file has no read amplification to show */
		if (after_unit[i] == RP_READ_AMP && !(phase_get(ph)->flags & PF_READS_FILE))
			fputs("<td class=\"na\"></td>", out);
		else
			ret = cost_cell(out, s, k, ph, after_unit[i]);
	}
	return ret;
}

/*
 * What each phase cost where runs were made with --profile: one row per
 * configuration and phase, medians as in the text, never ratios. 0 (also
 * when nothing was profiled: no table) or -ENOMEM.
 */
static int cost_table(FILE *out, const struct report_set *s)
{
	bool any = false;

	for (size_t i = 0; i < s->nruns && !any; i++)
		any = s->runs[i].has_profile;
	if (!any)
		return 0;
	fputs("<h2>CPU cost (--profile)</h2>\n<p class=\"sub\">For the runs made with <code>clyde"
	      " --profile</code>: the CPU seconds (user + system) per unit of work spent in clyde's"
	      " process, and caused on the whole machine (clyde, the filesystem's and the block"
	      " layer's threads, writeback); the share of the caused CPU outside clyde; the"
	      " device's bytes written or read over the bytes clyde wrote or read. Medians over the"
	      " runs that profiled the phase, never ratios; \xe2\x80\x94: not known.</p>\n", out);
	fputs("<table>\n<caption>CPU cost per unit of work (median over the profiled runs)</caption>\n"
	      "<tr><th>Configuration</th><th>Phase</th><th>Runs<span class=\"unit\">profiled</span></th>"
	      "<th>In clyde<span class=\"unit\">CPU s per unit</span></th>"
	      "<th>Caused<span class=\"unit\">CPU s per unit</span></th><th>Unit</th>"
	      "<th>Outside clyde<span class=\"unit\">% of caused</span></th>"
	      "<th>Write amplification<span class=\"unit\">device \xc3\xb7 clyde</span></th>"
	      "<th>Read amplification<span class=\"unit\">device \xc3\xb7 clyde</span></th></tr>\n", out);
	for (size_t k = 0; k < s->nconfigs; k++) {
		unsigned rows = cost_rows(s, k), done = 0;

		for (int ph = 0; ph < PH_COUNT && rows; ph++) {
			int ret;

			if (!report_prof_runs(s, k, (enum phase_id)ph))
				continue;
			fprintf(out, "<tr%s>", is_baseline(s, k) ? " class=\"base\"" : "");
			if (!done++)
				name_cell(out, s, k, rows);
			ret = cost_phase_row(out, s, k, (enum phase_id)ph);
			if (ret)
				return ret;
			fputs("</tr>\n", out);
		}
	}
	fputs("</table>\n", out);
	return 0;
}

/* A rate of the series table, in the phase's display unit; a dash where the window is empty. */
static void series_rate_cell(FILE *out, double v, const struct report_display *d)
{
	char buf[32];

	if (!isfinite(v)) {
		fputs("<td class=\"na\">\xe2\x80\x94</td>", out);
		return;
	}
	number(buf, sizeof(buf), v * d->scale);
	fprintf(out, "<td class=\"num\">%s</td>", buf);
}

struct series_rows {
	FILE *out;
	const struct report_set *s;
	size_t k;
};

/* Run i's row (number j in the configuration) of phase ph's time series. */
static void series_table_row(void *arg, size_t i, unsigned j, enum phase_id ph)
{
	const struct series_rows *rows = arg;
	FILE *out = rows->out;
	const struct report_set *s = rows->s;
	size_t k = rows->k;
	const struct report_series *se = s->runs[i].series[ph];
	struct report_display d;
	struct report_stall st;
	double tenth[3];

	report_series_tenths(se, tenth);
	report_tenths_display(&d, ph, tenth);
	fprintf(out, "<tr%s><td class=\"name\"><span class=\"sw\" style=\"background: %s\"></span>%zu ",
		is_baseline(s, k) ? " class=\"base\"" : "", report_chart_color(k), k + 1);
	report_xml_text(out, s->configs[k].name[0] ? s->configs[k].name : s->configs[k].key);
	fputs("</td><td>", out);
	report_xml_text(out, phase_get(ph)->row_name);
	fputs("</td><td class=\"num\" title=\"", out);
	report_xml_text(out, s->runs[i].source);
	fprintf(out, ":%u\">%u</td><td class=\"num\">%zu</td>", s->runs[i].line, j, se->n);
	for (int t = 0; t < 3; t++)
		series_rate_cell(out, tenth[t], &d);
	fputs("<td>", out);
	report_xml_text(out, d.unit);
	fputs("</td>", out);
	if (report_series_stall(se, &st))
		fprintf(out, "<td class=\"num\">%.3f</td><td class=\"num\">%.3f</td>", st.length_s, st.start_s);
	else
		fputs("<td class=\"na\">\xe2\x80\x94</td><td class=\"na\"></td>", out);
	fputs("</tr>\n", out);
}

/*
 * Where a run has a time series (clyde-result/8): the rate in the first,
 * middle and last tenth of each phase and its longest stall, as the text
 * has them, then a chart per configuration and phase. 0 or -EIO.
 */
static int series_section(FILE *out, const struct report_set *s)
{
	if (!report_series_shown(s))
		return 0;
	fputs("<h2>Over time</h2>\n<p class=\"sub\">For the runs with a time series (clyde records one"
	      " per phase unless <code>--interval=off</code>): the rate in the first, middle and last"
	      " tenth of the phase's time, and its longest stall, the longest run of intervals in which"
	      " no operation completed, with where it began (seconds since the phase's start); never"
	      " ratios. Then one chart per configuration and phase, its runs overlaid: the rate at each"
	      " interval's middle (solid, left axis), the machine's dirty (dashed) and writeback (dotted)"
	      " pages at each interval's end on the right axis where they were measured, and each"
	      " interval's latency p99 as steps in the strip below. Hover over a rate line for its"
	      " figures.</p>\n", out);
	fputs("<table>\n<caption>The rate over each phase's time, by run</caption>\n"
	      "<tr><th>Configuration</th><th>Phase</th><th>Run</th><th>Intervals</th>"
	      "<th>First 10%</th><th>Middle 10%</th><th>Last 10%</th><th>Unit</th>"
	      "<th>Longest stall<span class=\"unit\">s</span></th><th>Began at<span class=\"unit\">s</span></th></tr>\n",
	      out);
	for (size_t k = 0; k < s->nconfigs; k++) {
		struct series_rows rows = { .out = out, .s = s, .k = k };

		report_series_each(s, k, series_table_row, &rows);
	}
	fputs("</table>\n<div class=\"charts\">\n", out);
	if (report_svg_series_element(out, s))
		return -EIO;
	fputs("</div>\n", out);
	return 0;
}

static void sources(FILE *out, const struct report_set *s)
{
	size_t shown = 0, distinct = 0;

	for (size_t i = 0; i < s->nruns; i++) {
		size_t j;

		for (j = 0; j < i; j++)
			if (!strcmp(s->runs[j].source, s->runs[i].source))
				break;
		if (j < i)
			continue;
		distinct++;
		if (shown == SOURCES_SHOWN)
			continue;
		fputs(shown ? ", " : " Read from ", out);
		fputs("<code>", out);
		report_xml_text(out, s->runs[i].source);
		fputs("</code>", out);
		shown++;
	}
	if (distinct > shown)
		fprintf(out, " and %zu more", distinct - shown);
	if (distinct)
		fputs(".", out);
}

int report_html(FILE *out, const struct report_set *s)
{
	bool has_base = s->baseline >= 0 && (size_t)s->baseline < s->nconfigs;
	bool tables, trees = false;
	int r;

	fputs("<!DOCTYPE html>\n<html xmlns=\"http://www.w3.org/1999/xhtml\" lang=\"en\">\n<head>\n"
	      "<meta charset=\"utf-8\"/>\n"
	      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"/>\n", out);
	fprintf(out, "<title>clyde-report: %zu configuration%s, %zu run%s</title>\n",
		s->nconfigs, s->nconfigs == 1 ? "" : "s", s->nruns, s->nruns == 1 ? "" : "s");
	fprintf(out, "<style>\n%s</style>\n</head>\n<body>\n<h1>clyde-report</h1>\n", css);
	fprintf(out, "<p class=\"sub\">%zu configuration%s from %zu run%s.",
		s->nconfigs, s->nconfigs == 1 ? "" : "s", s->nruns, s->nruns == 1 ? "" : "s");
	sources(out, s);
	if (has_base) {
		fputs(" Baseline: <b>", out);
		report_xml_text(out, s->configs[s->baseline].name[0] ? s->configs[s->baseline].name :
				s->configs[s->baseline].key);
		fputs("</b>.", out);
	} else {
		fputs(" No baseline: no ratios, noise marks or geometric means.", out);
	}
	if (s->errors)
		fprintf(out, " %u malformed line%s skipped.", s->errors, s->errors == 1 ? " was" : "s were");
	if (s->ngetc)
		fprintf(out, " %zu getc_putc record%s.", s->ngetc, s->ngetc == 1 ? "" : "s");
	fputs("</p>\n", out);
	/* getc_putc's records without runs: theirs and the sweeps' sections, none of the runs' */
	if (!s->nruns)
		goto sweeps;
	fputs("<h2>How to read this page</h2>\n", out);
	fputs(howto, out);
	for (int p = 0; p < PH_COUNT && !trees; p++)
		trees = group_column(s, RT_TREE, p, RM_RATE);
	if (trees)
		fputs(howto_tree, out);
	fputs("</dl>\n", out);

	fputs("<h2>Summary</h2>\n", out);
	tables = rate_table(out, s, RT_IO, RM_RATE,
			    "Throughput: sequential I/O and random seeks (median over the runs)", has_base);
	tables |= rate_table(out, s, RT_FILES, RM_RATE,
			     "Throughput: file operations (median over the runs)", has_base && !tables);
	tables |= rate_table(out, s, RT_OWN, RM_RATE,
			     "Throughput: clyde's own phases (median over the runs)", has_base && !tables);
	if (trees) {
		tables |= rate_table(out, s, RT_TREE, RM_RATE,
				     "Throughput: tree workloads (median over the runs)", has_base && !tables);
		rate_table(out, s, RT_TREE, RM_MIBS,
			   "Data rate: tree workloads (median over the runs)", false);
		rate_table(out, s, RT_TREE, RM_DEAD,
			   "Dead time: tree workloads, wall less user CPU (median over the runs)", false);
	}
	if (!tables)
		fputs("<p>No phase has a throughput value.</p>\n", out);
	r = report_age_html(out, s);
	if (!r)
		r = report_age_runs_html(out, s);
	if (!r)
		r = cost_table(out, s);
	if (!r)
		r = report_split_html(out, s);
	if (r)
		return r;

	if (s->series_mode != REPORT_SERIES_ONLY) {
		fputs("<h2>Charts</h2>\n<p class=\"sub\">One chart per phase and measure; the numbers"
		      " under the bars are the configurations' numbers in the legend and, where a baseline"
		      " is set, their ratios to it (the baseline's median is the dashed line).</p>\n"
		      "<div class=\"charts\">\n", out);
		r = report_svg_element(out, s);
		if (r)
			return r;
		fputs("</div>\n", out);
	}
	r = series_section(out, s);
	if (!r)
		r = report_capacity_html(out, s);
	if (!r)
		r = report_flame_html(out, s);
	if (r)
		return r;
sweeps:
	r = report_sweep_section(out, s);
	if (!r)
		r = report_getc_html(out, s);
	if (r)
		return r;
	fputs("<p class=\"foot\">Written by clyde-report.</p>\n</body>\n</html>\n", out);
	if (ferror(out) || fflush(out) == EOF)
		return -EIO;
	return 0;
}
