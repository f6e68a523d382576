// SPDX-License-Identifier: BSD-2-Clause
/*
 * clyde-report's time series charts: a chart per configuration and phase,
 * its runs overlaid (the rate, the dirty pages where they were measured,
 * the p99 strip), one under the other: under the bar charts in their
 * SVG, or alone (the page's second <svg>, --series=only).
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/phase.h"
#include "report/report.h"
#include "report/report_svg.h"

/* One chart, in SVG user units (SERIES_W by SERIES_H, report_svg.h). */
#define S_LEFT		72	/* the rate's axis */
#define S_RIGHT		72	/* the dirty pages' axis, where they were measured */
#define S_RIGHT_BARE	24
#define S_TOP		78
#define S_BOTTOM	262	/* the rate's plot */
#define S_LAT_TOP	284
#define S_LAT_BOTTOM	340	/* the latency strip */
#define S_RUNS_SHOWN	12	/* runs named in a chart's key */

/* A chart's scales: the x axis in seconds, the rate, the dirty pages and the p99. */
struct series_frame {
	double right;			/* the plots' right edge */
	struct report_axis x, rate, dirty, lat;
	struct report_display rate_d, lat_d;
	double dirty_div;		/* KiB in one of dirty_unit */
	const char *dirty_unit;
	bool paged;			/* a run measured the dirty pages: the second axis */
	const char *dirty_source;	/* the first run's, "" for none said */
	unsigned runs;
};

static double sx(const struct series_frame *f, double t)
{
	return S_LEFT + fmin(fmax(t, 0), f->x.top) / f->x.top * (f->right - S_LEFT);
}

/* v on axis a, drawn between the pixels bottom (0) and top (a->top). */
static double sy(double v, const struct report_axis *a, double top, double bottom)
{
	return bottom - fmin(fmax(v, 0), a->top) / a->top * (bottom - top);
}

static void series_frame(struct series_frame *f, const struct report_set *s, size_t k,
			 enum phase_id ph)
{
	double end = 0, rate = 0, dirty = 0, p99 = 0;

	memset(f, 0, sizeof(*f));
	f->dirty_source = "";
	for (size_t i = s->configs[k].first_run; i < s->nruns; i++) {
		const struct report_series *se = s->runs[i].series[ph];

		if (!se || !report_run_of(s, k, i))
			continue;
		f->runs++;
		end = fmax(end, report_series_end(se));
		if (se->dirty_measured && !f->paged) {
			f->paged = true;
			f->dirty_source = se->dirty_source;
		}
		for (size_t r = 0; r < se->n; r++) {
			const struct report_sample *smp = &se->row[r];

			rate = fmax(rate, smp->rate);
			if (isfinite(smp->p99))
				p99 = fmax(p99, smp->p99);
			if (isfinite(smp->dirty))
				dirty = fmax(dirty, smp->dirty);
			if (isfinite(smp->writeback))
				dirty = fmax(dirty, smp->writeback);
		}
	}
	f->right = SERIES_W - (f->paged ? S_RIGHT : S_RIGHT_BARE);
	report_axis_pick(&f->x, end);
	report_display_pick(&f->rate_d, ph, RM_RATE, rate);
	report_axis_pick(&f->rate, rate * f->rate_d.scale);
	f->dirty_div = dirty >= 10 * 1024.0 * 1024.0 ? 1024.0 * 1024.0 : 1024.0;
	f->dirty_unit = dirty >= 10 * 1024.0 * 1024.0 ? "GiB" : "MiB";
	report_axis_pick(&f->dirty, dirty / f->dirty_div);
	report_display_pick(&f->lat_d, ph, RM_LATENCY, p99 * 1e6);
	report_axis_pick(&f->lat, p99 * 1e6 * f->lat_d.scale);
}

/* The axes, the grid and their labels. */
static void series_axes(FILE *out, const struct series_frame *f)
{
	char buf[32];

	for (int k = 0; k * f->rate.step <= f->rate.top * (1 + 1e-9); k++) {
		double y = sy(k * f->rate.step, &f->rate, S_TOP, S_BOTTOM);

		report_tick_label(buf, sizeof(buf), k * f->rate.step, &f->rate);
		fprintf(out, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\"/>\n",
			S_LEFT, y, f->right, y, k ? "#ebebeb" : "#888");
		fprintf(out, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\" font-size=\"10\" fill=\"#444\">%s</text>\n",
			S_LEFT - 6, y + 3.5, buf);
	}
	fprintf(out, "<text transform=\"translate(16,%d) rotate(-90)\" text-anchor=\"middle\" font-size=\"11\" fill=\"#333\">rate, %s</text>\n",
		(S_TOP + S_BOTTOM) / 2, f->rate_d.unit);
	fprintf(out, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#888\"/>\n",
		S_LEFT, S_TOP - 4, S_LEFT, S_LAT_BOTTOM);
	if (f->paged) {
		fprintf(out, "<g class=\"axis-dirty\"><line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#888\"/>\n",
			f->right, S_TOP - 4, f->right, S_BOTTOM);
		for (int k = 0; k * f->dirty.step <= f->dirty.top * (1 + 1e-9); k++) {
			double y = sy(k * f->dirty.step, &f->dirty, S_TOP, S_BOTTOM);

			report_tick_label(buf, sizeof(buf), k * f->dirty.step, &f->dirty);
			fprintf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#888\"/>",
				f->right, y, f->right + 4, y);
			fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"10\" fill=\"#444\">%s</text>\n",
				f->right + 7, y + 3.5, buf);
		}
		fprintf(out, "<text transform=\"translate(%d,%d) rotate(90)\" text-anchor=\"middle\" font-size=\"11\" fill=\"#333\">dirty, writeback: %s</text></g>\n",
			SERIES_W - 12, (S_TOP + S_BOTTOM) / 2, f->dirty_unit);
	}
	/* the latency strip: its top and bottom, labelled */
	report_tick_label(buf, sizeof(buf), f->lat.top, &f->lat);
	fprintf(out, "<rect x=\"%d\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"#fafafa\" stroke=\"#ebebeb\"/>\n",
		S_LEFT, S_LAT_TOP, f->right - S_LEFT, S_LAT_BOTTOM - S_LAT_TOP);
	fprintf(out, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\" font-size=\"10\" fill=\"#444\">%s %s</text>\n",
		S_LEFT - 6, S_LAT_TOP + 4, buf, f->lat_d.unit);
	fprintf(out, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\" font-size=\"10\" fill=\"#444\">0</text>\n",
		S_LEFT - 6, S_LAT_BOTTOM + 3);
	fprintf(out, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\" font-size=\"10\" fill=\"#333\">p99</text>\n",
		S_LEFT - 6, (S_LAT_TOP + S_LAT_BOTTOM) / 2 + 4);
	for (int k = 0; k * f->x.step <= f->x.top * (1 + 1e-9); k++) {
		double x = sx(f, k * f->x.step);

		report_tick_label(buf, sizeof(buf), k * f->x.step, &f->x);
		if (k)
			fprintf(out, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#f0f0f0\"/>",
				x, S_TOP, x, S_BOTTOM);
		fprintf(out, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#888\"/>",
			x, S_LAT_BOTTOM, x, S_LAT_BOTTOM + 4);
		fprintf(out, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\" font-size=\"10\" fill=\"#444\">%s</text>\n",
			x, S_LAT_BOTTOM + 15, buf);
	}
	fprintf(out, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\" font-size=\"11\" fill=\"#333\">seconds since the phase's start</text>\n",
		(S_LEFT + f->right) / 2, S_LAT_BOTTOM + 31);
}

/* The title: the exact figures of run j (of its configuration) over the phase. */
static void series_title(FILE *out, const struct report_run *r, unsigned j,
			 const struct report_series *se, const struct report_display *d)
{
	struct report_stall st;
	double tenth[3];

	report_series_tenths(se, tenth);
	fprintf(out, "<title>run %u (", j);
	report_xml_text(out, r->source);
	fprintf(out, ":%u): %zu interval%s", r->line, se->n, se->n == 1 ? "" : "s");
	if (isfinite(se->interval_s))
		fprintf(out, " of %.3g s (%s)", se->interval_s, se->interval_fixed ? "fixed" : "adaptive");
	fprintf(out, "\nrate in the first, middle and last tenth: %.4g, %.4g, %.4g %s",
		tenth[0] * d->scale, tenth[1] * d->scale, tenth[2] * d->scale, d->unit);
	if (report_series_stall(se, &st))
		fprintf(out, "\nlongest stall: %.3f s from %.3f s", st.length_s, st.start_s);
	else
		fputs("\nno interval without a completion", out);
	fputs("</title>", out);
}

/* A line through the points of column val (KiB at t_end), broken where it is not known. */
static void series_pages(FILE *out, const struct series_frame *f, const struct report_series *se,
			 bool writeback, const char *colour)
{
	bool pen = false;

	fprintf(out, "<path class=\"%s\" d=\"", writeback ? "writeback" : "dirty");
	for (size_t r = 0; r < se->n; r++) {
		double v = writeback ? se->row[r].writeback : se->row[r].dirty;

		if (!isfinite(v)) {
			pen = false;
			continue;
		}
		fprintf(out, "%c%.1f %.1f", pen ? 'L' : 'M', sx(f, se->row[r].t_end),
			sy(v / f->dirty_div, &f->dirty, S_TOP, S_BOTTOM));
		pen = true;
	}
	fprintf(out, "\" fill=\"none\" stroke=\"%s\" stroke-width=\"%s\" stroke-dasharray=\"%s\"/>\n",
		colour, writeback ? "1.6" : "1.4", writeback ? "1.5 2.5" : "6 3");
}

/* Run j's series: its p99 as steps in the strip, its pages, its rate at each interval's middle. */
static void series_run(FILE *out, const struct series_frame *f, const struct report_run *r,
		       unsigned j, const struct report_series *se, const char *colour)
{
	fprintf(out, "<g class=\"run\"><path class=\"p99\" d=\"M%.1f %d", sx(f, 0), S_LAT_BOTTOM);
	for (size_t k = 0; k < se->n; k++) {
		const struct report_sample *smp = &se->row[k];
		double y = S_LAT_BOTTOM;

		if (isfinite(smp->p99))
			y = sy(smp->p99 * 1e6 * f->lat_d.scale, &f->lat, S_LAT_TOP, S_LAT_BOTTOM);

		fprintf(out, "V%.1fH%.1f", y, sx(f, smp->t_end));
	}
	fprintf(out, "V%dZ\" fill=\"%s\" fill-opacity=\"0.3\" stroke=\"%s\" stroke-width=\"0.8\"/>\n",
		S_LAT_BOTTOM, colour, colour);
	if (f->paged && se->dirty_measured) {
		series_pages(out, f, se, false, colour);
		series_pages(out, f, se, true, colour);
	}
	fputs("<polyline class=\"rate\" points=\"", out);
	for (size_t k = 0; k < se->n; k++) {
		const struct report_sample *smp = &se->row[k];

		fprintf(out, "%s%.1f,%.1f", k ? " " : "", sx(f, (smp->t_start + smp->t_end) / 2),
			sy(smp->rate * f->rate_d.scale, &f->rate, S_TOP, S_BOTTOM));
	}
	fprintf(out, "\" fill=\"none\" stroke=\"%s\" stroke-width=\"1.8\" stroke-linejoin=\"round\">", colour);
	series_title(out, r, j, se, &f->rate_d);
	fputs("</polyline></g>\n", out);
}

/* A key entry: a line of the given dashes (or a patch), then its words; returns the x after it. */
static double key_entry(FILE *out, double x, int y, const char *dash, bool patch,
			const char *colour, const char *words)
{
	if (patch)
		fprintf(out, "<rect x=\"%.1f\" y=\"%d\" width=\"22\" height=\"9\" fill=\"%s\" fill-opacity=\"0.3\" stroke=\"%s\" stroke-width=\"0.8\"/>",
			x, y - 8, colour, colour);
	else
		fprintf(out, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"%s\" stroke-width=\"1.8\"%s%s%s/>",
			x, y - 4, x + 22, y - 4, colour, dash ? " stroke-dasharray=\"" : "", dash ? dash : "",
			dash ? "\"" : "");
	fprintf(out, "<text x=\"%.1f\" y=\"%d\" font-size=\"11\" fill=\"#222\">%s</text>\n", x + 27, y, words);
	return x + 27 + 6.2 * (double)strlen(words) + 18;
}

static void series_chart(FILE *out, const struct report_set *s, size_t k, enum phase_id ph,
			 int cx, int cy)
{
	struct series_frame f;
	unsigned j = 0, shown = 0;
	double x;

	series_frame(&f, s, k, ph);
	fprintf(out, "<g class=\"series-chart\" transform=\"translate(%d,%d)\">\n", cx, cy);
	fprintf(out, "<rect x=\"0.5\" y=\"0.5\" width=\"%d\" height=\"%d\" fill=\"#fff\" stroke=\"#d0d0d0\"/>\n",
		SERIES_W - 1, SERIES_H - 1);
	fputs("<text x=\"12\" y=\"21\" font-size=\"14\" font-weight=\"bold\" fill=\"#111\">", out);
	report_xml_text(out, phase_get(ph)->row_name);
	fprintf(out, " over time \xe2\x80\x94 [%zu] ", k + 1);
	report_xml_text_n(out, report_config_label(s, k), 2 * LEGEND_CHARS);
	fprintf(out, "</text>\n<text x=\"12\" y=\"38\" font-size=\"11\" fill=\"#555\">rate in %s, left axis; ",
		f.rate_d.unit);
	if (f.paged)
		fprintf(out, "the machine's dirty and writeback pages in %s, right axis", f.dirty_unit);
	else
		fputs("dirty pages: not measured", out);
	fputs("; latency p99 of each interval, below</text>\n", out);
	if (f.paged && f.dirty_source[0]) {
		fprintf(out, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\" font-size=\"10\" fill=\"#555\">dirty pages: ",
			SERIES_W - 12, SERIES_H - 10);
		report_xml_text_n(out, f.dirty_source, LEGEND_CHARS);
		fputs("</text>\n", out);
	}
	x = key_entry(out, 12, 60, NULL, false, "#333", "rate (at each interval's middle)");
	if (f.paged) {
		x = key_entry(out, x, 60, "6 3", false, "#333", "dirty");
		x = key_entry(out, x, 60, "1.5 2.5", false, "#333", "writeback");
	}
	key_entry(out, x, 60, NULL, true, "#333", "latency p99 (below)");
	series_axes(out, &f);
	for (size_t i = s->configs[k].first_run; i < s->nruns; i++) {
		const struct report_series *se = s->runs[i].series[ph];

		if (!report_run_of(s, k, i))
			continue;
		j++;
		if (se)
			series_run(out, &f, &s->runs[i], j, se, report_chart_color(k + j - 1));
	}
	/* the runs' colours, along the bottom */
	x = 12;
	j = 0;
	for (size_t i = s->configs[k].first_run; i < s->nruns; i++) {
		char words[32];

		if (!report_run_of(s, k, i))
			continue;
		j++;
		if (!s->runs[i].series[ph])
			continue;
		if (shown++ == S_RUNS_SHOWN) {
			fprintf(out, "<text x=\"%.1f\" y=\"%d\" font-size=\"11\" fill=\"#222\">\xe2\x80\xa6</text>\n",
				x, SERIES_H - 10);
			break;
		}
		snprintf(words, sizeof(words), "run %u", j);
		fputs("<g class=\"run-key\"><title>", out);
		report_xml_text(out, s->runs[i].source);
		fprintf(out, ":%u</title>", s->runs[i].line);
		x = key_entry(out, x, SERIES_H - 10, NULL, false, report_chart_color(k + j - 1),
			      words) - 8;
		fputs("</g>\n", out);
	}
	fputs("</g>\n", out);
}

static bool series_has(const struct report_set *s, size_t k, enum phase_id ph)
{
	for (size_t i = s->configs[k].first_run; i < s->nruns; i++)
		if (s->runs[i].series[ph] && report_run_of(s, k, i))
			return true;
	return false;
}

/* The series charts: how many there are. */
int report_svg_series_count(const struct report_set *s)
{
	int n = 0;

	if (!report_series_shown(s))
		return 0;
	for (size_t k = 0; k < s->nconfigs; k++)
		for (int ph = 0; ph < PH_COUNT; ph++)
			n += series_has(s, k, (enum phase_id)ph);
	return n;
}

/* Every series chart, one under the other from y. */
void report_svg_series_charts(FILE *out, const struct report_set *s, int y)
{
	for (size_t k = 0; k < s->nconfigs; k++) {
		for (int ph = 0; ph < PH_COUNT; ph++) {
			if (!series_has(s, k, (enum phase_id)ph))
				continue;
			series_chart(out, s, k, (enum phase_id)ph, MARGIN, y);
			y += SERIES_H + GAP;
		}
	}
}

/* The series charts alone: the page's second <svg>, and the SVG of --series=only. */
int report_svg_series_write(FILE *out, const struct report_set *s)
{
	int n = report_svg_series_count(s);
	int width = SERIES_W + 2 * MARGIN;
	int height = n ? 2 * MARGIN + n * (SERIES_H + GAP) - GAP : 2 * MARGIN + 30;

	fprintf(out, "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" viewBox=\"0 0 %d %d\" width=\"%d\" height=\"%d\" font-family=\"DejaVu Sans, Helvetica, Arial, sans-serif\">\n",
		width, height, width, height);
	fputs("<title>clyde-report: the phases over time</title>\n", out);
	fprintf(out, "<rect width=\"%d\" height=\"%d\" fill=\"#fff\"/>\n", width, height);
	if (!n)
		fprintf(out, "<text x=\"%d\" y=\"%d\" font-size=\"13\" fill=\"#666\">No run has a time series to chart.</text>\n",
			MARGIN, MARGIN + 16);
	report_svg_series_charts(out, s, MARGIN);
	fputs("</svg>\n", out);
	return ferror(out) ? -EIO : 0;
}

int report_svg_series_element(FILE *out, const struct report_set *s)
{
	return report_series_shown(s) ? report_svg_series_write(out, s) : 0;
}
