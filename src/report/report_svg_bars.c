// SPDX-License-Identifier: BSD-2-Clause
/*
 * clyde-report's bar charts: one per phase and measure with any value,
 * laid out as a grid (a row per phase, a column per measure). Within a
 * chart, one bar per configuration: the median over its runs, an error
 * bar from the lowest to the highest run where there are two or more,
 * the baseline's median as a dashed line, and a <title> on each bar with
 * the exact numbers. The SVG document is theirs: the grid, then the time
 * series' charts (report_svg_series.c) under it and the open-loop
 * curves (report_capacity.c) under those, or the series alone with
 * --series=only.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/phase.h"
#include "report/report.h"
#include "report/report_svg.h"

/* The grid of bar charts, in SVG user units (pixels at 100%); MARGIN and GAP in report_svg.h. */
#define CHART_W		440
#define CHART_H		270
#define PLOT_L		64
#define PLOT_R		14
#define PLOT_T		56
#define PLOT_B		42
#define LEGEND_ROW	20
#define TITLE_VALUES	24	/* run values listed in a bar's tooltip */


static const char *measure_title(enum report_measure m)
{
	switch (m) {
	case RM_RATE:
		return "throughput";
	case RM_CPU:
		return "CPU per unit of work";
	case RM_MIBS:
		return "data rate";
	case RM_DEAD:
		return "dead time (wall less user CPU)";
	default:
		return "latency (slowest operation)";
	}
}

/* After a ratio: "?" fewer than 2 runs on a side, "~" within the noise, "" a difference. */
static const char *noise_mark(const struct report_config *c, enum phase_id ph, enum report_measure m)
{
	if (c->untestable[ph][m])
		return "?";
	return c->within_noise[ph][m] ? "~" : "";
}

static bool is_baseline(const struct report_set *s, size_t i)
{
	return s->baseline >= 0 && (size_t)s->baseline == i;
}

static bool chart_has(const struct report_set *s, enum phase_id ph, enum report_measure m)
{
	if (!report_measure_applies(ph, m))
		return false;
	for (size_t i = 0; i < s->nconfigs; i++)
		if (report_stat_ok(&s->configs[i].stat[ph][m]))
			return true;
	return false;
}

/* A value over a bar: three or four digits. */
static void short_label(char *buf, size_t len, double v)
{
	const char *suffix = "";

	if (v >= 999.5e3) {
		v /= 1e6;
		suffix = "M";
	} else if (v >= 9999.5) {
		v /= 1e3;
		suffix = "k";
	}
	if (v >= 99.95)
		snprintf(buf, len, "%.0f%s", v, suffix);
	else if (v >= 9.995)
		snprintf(buf, len, "%.1f%s", v, suffix);
	else if (v >= 1)
		snprintf(buf, len, "%.2f%s", v, suffix);
	else if (v >= 0.0995)
		snprintf(buf, len, "%.2f%s", v, suffix);
	else
		snprintf(buf, len, "%.2g%s", v, suffix);
}

static void bar_title(FILE *out, const struct report_set *s, size_t i, enum phase_id ph,
		      enum report_measure m, const struct report_display *d)
{
	const struct report_config *c = &s->configs[i];
	const struct report_stat *st = &c->stat[ph][m];

	fputs("<title>", out);
	report_xml_text(out, report_config_label(s, i));
	fprintf(out, "\n%s %s: median %.6g %s\n", phase_get(ph)->row_name, measure_title(m),
		st->median * d->scale, d->unit);
	fprintf(out, "median %.10g, min %.10g, max %.10g %s; %u run%s", st->median, st->min,
		st->max, report_raw_unit(ph, m), st->n, st->n == 1 ? "" : "s");
	if (st->values) {
		fputs(": ", out);
		for (unsigned k = 0; k < st->n && k < TITLE_VALUES; k++)
			fprintf(out, "%s%.10g", k ? ", " : "", st->values[k]);
		if (st->n > TITLE_VALUES)
			fputs(", \xe2\x80\xa6", out);
	}
	if (st->n > 1)
		fprintf(out, "\nCV %.1f%%", st->cv_percent);
	if (is_baseline(s, i)) {
		fputs("\nthe baseline", out);
	} else if (c->has_ratio[ph][m]) {
		fprintf(out, "\nratio to the baseline %.3f (above 1 is better)", c->ratio[ph][m]);
		if (c->untestable[ph][m] || c->p_value[ph][m] < 0)
			fputs(", untested: fewer than 2 runs on a side", out);
		else if (c->within_noise[ph][m])
			fprintf(out, ", within the noise: Welch p = %.3g", c->p_value[ph][m]);
		else
			fprintf(out, ", Welch p = %.3g", c->p_value[ph][m]);
	}
	fputs("</title>", out);
}

static double ypos(double v, const struct report_axis *a)
{
	double h = CHART_H - PLOT_T - PLOT_B;

	if (v < 0)
		v = 0;
	if (v > a->top)
		v = a->top;
	return PLOT_T + h - v / a->top * h;
}

static double slot_width(const struct report_set *s)
{
	return (double)(CHART_W - PLOT_L - PLOT_R) / (double)s->nconfigs;
}

static void chart_bar(FILE *out, const struct report_set *s, size_t i, enum phase_id ph,
		      enum report_measure m, const struct report_display *d, const struct report_axis *a)
{
	const struct report_stat *st = &s->configs[i].stat[ph][m];
	double slot = slot_width(s);
	double x = PLOT_L + slot * ((double)i + 0.5);
	double bw = fmin(slot * 0.66, 64);
	double top;

	if (!report_stat_ok(st))
		return;
	top = ypos(st->median * d->scale, a);
	fprintf(out, "<rect class=\"bar\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\"",
		x - bw / 2, top, bw, CHART_H - PLOT_B - top, report_chart_color(i));
	if (is_baseline(s, i))
		fputs(" stroke=\"#111\" stroke-width=\"2\"", out);
	fputs(">", out);
	bar_title(out, s, i, ph, m, d);
	fputs("</rect>\n", out);
	if (st->n > 1 && isfinite(st->min) && isfinite(st->max)) {
		double y0 = ypos(st->min * d->scale, a), y1 = ypos(st->max * d->scale, a);
		double cap = fmin(bw / 3, 8);

		fprintf(out, "<path class=\"err\" d=\"M%.1f %.1fV%.1fM%.1f %.1fH%.1fM%.1f %.1fH%.1f\" stroke=\"#222\" stroke-width=\"1.5\" fill=\"none\"/>\n",
			x, y0, y1, x - cap, y0, x + cap, x - cap, y1, x + cap);
	}
}

/* A value over a bar, on a white patch so that the baseline's dashed line does not cross it. */
static void patch_text(FILE *out, double x, double y, const char *text)
{
	double w = 6.2 * (double)strlen(text) + 4;

	fprintf(out, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"12\" fill=\"#fff\" fill-opacity=\"0.85\"/>",
		x - w / 2, y - 10, w);
	fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" font-size=\"10\" fill=\"#222\">%s</text>\n",
		x, y, text);
}

/* Under the bar its legend number and ratio, over it its median. */
static void chart_labels(FILE *out, const struct report_set *s, size_t i, enum phase_id ph,
			 enum report_measure m, const struct report_display *d, const struct report_axis *a)
{
	const struct report_config *c = &s->configs[i];
	const struct report_stat *st = &c->stat[ph][m];
	double slot = slot_width(s);
	double x = PLOT_L + slot * ((double)i + 0.5);
	double label_y;
	char buf[48];

	if (slot >= 14)
		fprintf(out, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\" font-size=\"10\" fill=\"#444\">%zu</text>\n",
			x, CHART_H - PLOT_B + 13, i + 1);
	if (!report_stat_ok(st)) {
		if (slot >= 34)
			fprintf(out, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\" font-size=\"10\" fill=\"#999\">%s</text>\n",
				x, CHART_H - PLOT_B - 4, c->hidden[ph] ? "+++++" : "n/a");
		return;
	}
	if (slot < 30)
		return;
	label_y = ypos(st->median * d->scale, a);
	if (st->n > 1 && isfinite(st->max))
		label_y = fmin(label_y, ypos(st->max * d->scale, a));
	short_label(buf, sizeof(buf), st->median * d->scale);
	if (6.2 * (double)strlen(buf) <= slot - 2)
		patch_text(out, x, label_y - 4, buf);
	if (is_baseline(s, i)) {
		fprintf(out, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\" font-size=\"10\" fill=\"#111\" font-weight=\"bold\">base</text>\n",
			x, CHART_H - PLOT_B + 27);
	} else if (c->has_ratio[ph][m] && isfinite(c->ratio[ph][m])) {
		double r = c->ratio[ph][m];
		bool noise = c->within_noise[ph][m];
		const char *colour = noise ? "#777" : r >= 1 ? "#1a7f37" : "#c62828";

		snprintf(buf, sizeof(buf), "%.*f%s", r < 10 ? 2 : r < 100 ? 1 : 0, r, noise_mark(c, ph, m));
		/* "×" and the digits at about 0.6 em each: smaller, or left out, where it would run into the next */
		for (int size = 10; size >= 8; size--) {
			if (0.6 * size * (double)(strlen(buf) + 1) > slot - 2)
				continue;
			fprintf(out, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\" font-size=\"%d\" fill=\"%s\">\xc3\x97%s</text>\n",
				x, CHART_H - PLOT_B + 27, size, colour, buf);
			break;
		}
	}
}

static void chart(FILE *out, const struct report_set *s, enum phase_id ph, enum report_measure m,
		  int cx, int cy)
{
	const struct report_config *b = NULL;
	struct report_display d;
	struct report_axis a;
	double max = 0;
	char buf[32];

	for (size_t i = 0; i < s->nconfigs; i++) {
		const struct report_stat *st = &s->configs[i].stat[ph][m];

		if (is_baseline(s, i))
			b = &s->configs[i];
		if (!report_stat_ok(st))
			continue;
		max = fmax(max, st->median);
		if (st->n > 1 && isfinite(st->max))
			max = fmax(max, st->max);
	}
	report_display_pick(&d, ph, m, max);
	report_axis_pick(&a, max * d.scale);

	fprintf(out, "<g class=\"chart\" transform=\"translate(%d,%d)\">\n", cx, cy);
	fprintf(out, "<rect x=\"0.5\" y=\"0.5\" width=\"%d\" height=\"%d\" fill=\"#fff\" stroke=\"#d0d0d0\"/>\n",
		CHART_W - 1, CHART_H - 1);
	fputs("<text x=\"12\" y=\"21\" font-size=\"14\" font-weight=\"bold\" fill=\"#111\">", out);
	report_xml_text(out, phase_get(ph)->row_name);
	fprintf(out, " \xe2\x80\x94 %s</text>\n", measure_title(m));
	fputs("<text x=\"12\" y=\"38\" font-size=\"11\" fill=\"#555\">", out);
	report_xml_text(out, d.unit);
	fprintf(out, ", %s is better</text>\n", report_higher_is_better(m) ? "higher" : "lower");

	for (int k = 0; k * a.step <= a.top * (1 + 1e-9); k++) {
		double y = ypos(k * a.step, &a);

		report_tick_label(buf, sizeof(buf), k * a.step, &a);
		fprintf(out, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"%s\"/>\n",
			PLOT_L, y, CHART_W - PLOT_R, y, k ? "#ebebeb" : "#888");
		fprintf(out, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\" font-size=\"10\" fill=\"#444\">%s</text>\n",
			PLOT_L - 6, y + 3.5, buf);
	}
	fprintf(out, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#888\"/>\n",
		PLOT_L, PLOT_T - 6, PLOT_L, CHART_H - PLOT_B);

	for (size_t i = 0; i < s->nconfigs; i++)
		chart_bar(out, s, i, ph, m, &d, &a);
	if (b && report_stat_ok(&b->stat[ph][m])) {
		double y = ypos(b->stat[ph][m].median * d.scale, &a);

		fprintf(out, "<line class=\"baseline\" x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#111\" stroke-width=\"1\" stroke-dasharray=\"5 3\"/>\n",
			PLOT_L, y, CHART_W - PLOT_R, y);
	}
	for (size_t i = 0; i < s->nconfigs; i++)
		chart_labels(out, s, i, ph, m, &d, &a);
	fputs("</g>\n", out);
}

struct grid {
	bool row[PH_COUNT];
	bool col[RM_ALL];
	int nrows, ncols;
	int width, legend_y, charts_y, height;
};

static const char *const notes[] = {
	"Bars: the median over a configuration's runs. Error bars: its lowest to highest run (where it has 2 or more).",
	"Below each bar: its number in the legend, and the ratio of its mean to the baseline's (dashed line: the baseline's",
	"median), oriented so that above 1 is better; ~ marks a difference within the noise (Welch's t-test of the means, p \xe2\x89\xa5 0.05),",
	"? one that cannot be tested (fewer than 2 runs on a side).",
	"Each bar's tooltip has the exact numbers.",
};

#define NOTES_N (int)(sizeof(notes) / sizeof(notes[0]))

static void grid_plan(struct grid *g, const struct report_set *s, bool standalone)
{
	int legend_cols, legend_rows;

	memset(g, 0, sizeof(*g));
	for (int p = 0; p < PH_COUNT; p++)
		for (int m = 0; m < RM_ALL; m++)
			if (chart_has(s, (enum phase_id)p, (enum report_measure)m))
				g->row[p] = g->col[m] = true;
	for (int p = 0; p < PH_COUNT; p++)
		g->nrows += g->row[p];
	for (int m = 0; m < RM_ALL; m++)
		g->ncols += g->col[m];
	legend_cols = g->ncols > 0 ? g->ncols : 1;
	g->width = 2 * MARGIN + legend_cols * CHART_W + (legend_cols - 1) * GAP;
	if (standalone && g->width < 2 * MARGIN + 2 * CHART_W + GAP)
		g->width = 2 * MARGIN + 2 * CHART_W + GAP;	/* room for the notes */
	g->legend_y = standalone ? 40 + NOTES_N * 15 + 8 : MARGIN;
	legend_rows = (int)((s->nconfigs + (size_t)legend_cols - 1) / (size_t)legend_cols);
	g->charts_y = g->legend_y + legend_rows * LEGEND_ROW + 10;
	g->height = g->charts_y + g->nrows * (CHART_H + GAP) + MARGIN;
	if (!g->nrows)
		g->height += 30;
}

static void legend(FILE *out, const struct report_set *s, const struct grid *g)
{
	int cols = g->ncols > 0 ? g->ncols : 1;

	for (size_t i = 0; i < s->nconfigs; i++) {
		int x = MARGIN + (int)(i % (size_t)cols) * (CHART_W + GAP);
		int y = g->legend_y + (int)(i / (size_t)cols) * LEGEND_ROW;
		bool is_base = is_baseline(s, i);

		fprintf(out, "<g class=\"legend\"><title>");
		report_xml_text(out, s->configs[i].key[0] ? s->configs[i].key : s->configs[i].name);
		fprintf(out, "</title><rect x=\"%d\" y=\"%d\" width=\"14\" height=\"14\" fill=\"%s\"%s/>",
			x, y, report_chart_color(i),
			is_base ? " stroke=\"#111\" stroke-width=\"2\"" : "");
		fprintf(out, "<text x=\"%d\" y=\"%d\" font-size=\"12\" fill=\"#111\">%zu  ", x + 22, y + 12, i + 1);
		report_xml_text_n(out, report_config_label(s, i), is_base ? LEGEND_CHARS - 11 : LEGEND_CHARS);
		fprintf(out, "%s</text></g>\n", is_base ? " (baseline)" : "");
	}
}

/* The bar charts; standalone: with the notes, and the series charts after them. */
static int svg_write(FILE *out, const struct report_set *s, bool standalone)
{
	int nseries = standalone ? report_svg_series_count(s) : 0;
	int capacity = standalone ? report_capacity_svg_height(s) : 0;
	int width, height;
	struct grid g;
	int y;

	grid_plan(&g, s, standalone);
	width = g.width;
	height = g.height;
	if (nseries) {
		width = width > SERIES_W + 2 * MARGIN ? width : SERIES_W + 2 * MARGIN;
		height += SERIES_HEAD + nseries * (SERIES_H + GAP);
	}
	if (capacity) {
		width = width > REPORT_CAP_W + 2 * MARGIN ? width : REPORT_CAP_W + 2 * MARGIN;
		height += capacity;
	}
	fprintf(out, "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" viewBox=\"0 0 %d %d\" width=\"%d\" height=\"%d\" font-family=\"DejaVu Sans, Helvetica, Arial, sans-serif\">\n",
		width, height, width, height);
	fputs("<title>clyde-report: charts per phase and measure</title>\n", out);
	fprintf(out, "<rect width=\"%d\" height=\"%d\" fill=\"#fff\"/>\n", width, height);
	if (standalone) {
		fprintf(out, "<text x=\"%d\" y=\"26\" font-size=\"17\" font-weight=\"bold\" fill=\"#111\">clyde-report: %zu configuration%s, %zu run%s</text>\n",
			MARGIN, s->nconfigs, s->nconfigs == 1 ? "" : "s", s->nruns, s->nruns == 1 ? "" : "s");
		for (int k = 0; k < NOTES_N; k++)
			fprintf(out, "<text x=\"%d\" y=\"%d\" font-size=\"11\" fill=\"#444\">%s</text>\n",
				MARGIN, 46 + 15 * k, notes[k]);
	}
	legend(out, s, &g);
	if (!g.nrows)
		fprintf(out, "<text x=\"%d\" y=\"%d\" font-size=\"13\" fill=\"#666\">No phase has a value to chart.</text>\n",
			MARGIN, g.charts_y + 16);
	y = g.charts_y;
	for (int p = 0; p < PH_COUNT; p++) {
		int x = MARGIN;

		if (!g.row[p])
			continue;
		for (int m = 0; m < RM_ALL; m++) {
			if (!g.col[m])
				continue;
			if (chart_has(s, (enum phase_id)p, (enum report_measure)m))
				chart(out, s, (enum phase_id)p, (enum report_measure)m, x, y);
			else if (report_measure_applies((enum phase_id)p, (enum report_measure)m))
				fprintf(out, "<text x=\"%d\" y=\"%d\" font-size=\"12\" fill=\"#999\">%s: no %s values</text>\n",
					x + 12, y + 24, phase_get((enum phase_id)p)->row_name,
					measure_title((enum report_measure)m));
			x += CHART_W + GAP;
		}
		y += CHART_H + GAP;
	}
	if (nseries) {
		fprintf(out, "<text x=\"%d\" y=\"%d\" font-size=\"15\" font-weight=\"bold\" fill=\"#111\">The phases over time: each run's time series</text>\n",
			MARGIN, y + 18);
		report_svg_series_charts(out, s, y + SERIES_HEAD);
		y += SERIES_HEAD + nseries * (SERIES_H + GAP);
	}
	/* open-loop curves (clyde-result/15), every configuration's on one chart per phase */
	if (capacity)
		report_capacity_svg_charts(out, s, y);
	fputs("</svg>\n", out);
	return ferror(out) ? -EIO : 0;
}

int report_svg_element(FILE *out, const struct report_set *s)
{
	return svg_write(out, s, false);
}
int report_svg(FILE *out, const struct report_set *s)
{
	int r;

	fputs("<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>\n", out);
	if (s->series_mode == REPORT_SERIES_ONLY)
		r = report_svg_series_write(out, s);
	else
		r = svg_write(out, s, true);
	if (r)
		return r;
	return fflush(out) == EOF ? -EIO : 0;
}
