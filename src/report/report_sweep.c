// SPDX-License-Identifier: BSD-2-Clause
/*
 * clyde-report's position sweeps (zcav's text, clyde-zcav's JSON): a
 * table of each sweep's rates, and one chart of rate by position with
 * every sweep overlaid (several passes, several devices), as zcav's
 * users draw it with gnuplot. A zcav block under a second has no rate
 * ("++++") and is not drawn. Pure functions of the set; which of them a
 * run of clyde-report writes, beside the runs' or alone, is report_page.c's.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/report.h"

#define SW_W		REPORT_SWEEP_W
#define SW_H		420
#define SW_LEFT		72
#define SW_RIGHT	24
#define SW_TOP		56
#define SW_BOTTOM	300	/* the plot's bottom; the key below */
#define SW_KEY_ROWS	6	/* two columns of them */
#define SW_MARGIN	16

/* A chart's scale: 0..top in steps of a round number. */
struct scale {
	double top, step;
};

static void scale_pick(struct scale *a, double max)
{
	double rough, mag, f;

	if (!(max > 0) || !isfinite(max))
		max = 1;
	rough = max / 5;
	mag = pow(10, floor(log10(rough)));
	f = rough / mag;
	a->step = (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * mag;
	a->top = ceil(max / a->step - 1e-9) * a->step;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The sweep's rates: how many have one, their min, median and max (NAN when none). */
struct sweep_stat {
	size_t rated;
	double min, median, max;
};

static int sweep_stat(const struct report_sweep *sw, struct sweep_stat *st)
{
	double *v = malloc((sw->n ? sw->n : 1) * sizeof(*v));

	st->rated = 0;
	st->min = st->median = st->max = NAN;
	if (!v)
		return -ENOMEM;
	for (size_t i = 0; i < sw->n; i++)
		if (isfinite(sw->pt[i].mib_s))
			v[st->rated++] = sw->pt[i].mib_s;
	if (st->rated) {
		qsort(v, st->rated, sizeof(*v), cmp_double);
		st->min = v[0];
		st->max = v[st->rated - 1];
		st->median = st->rated % 2 ? v[st->rated / 2] :
			     (v[st->rated / 2 - 1] + v[st->rated / 2]) / 2;
	}
	free(v);
	return 0;
}

int report_sweep_text(FILE *out, const struct report_set *s)
{
	int width = 5;

	for (size_t i = 0; i < s->nsweeps; i++) {
		size_t n = strlen(s->sweeps[i].label);

		if ((int)n > width)
			width = n > 120 ? 120 : (int)n;
	}
	fputs("Position sweeps (zcav): MiB/s by block\n", out);
	fprintf(out, "%-4s %-*s %7s %7s %9s %9s %9s\n", "", width, "sweep", "blocks", "++++", "min",
		"median", "max");
	for (size_t i = 0; i < s->nsweeps; i++) {
		const struct report_sweep *sw = &s->sweeps[i];
		struct sweep_stat st;
		char idx[24];

		if (sweep_stat(sw, &st))
			return -ENOMEM;

		snprintf(idx, sizeof(idx), "[%zu]", i + 1);
		fprintf(out, "%-4s %-*.*s %7zu %7zu", idx, width, width, sw->label, sw->n,
			sw->n - st.rated);
		if (st.rated)
			fprintf(out, " %9.1f %9.1f %9.1f\n", st.min, st.median, st.max);
		else
			fprintf(out, " %9s %9s %9s\n", "-", "-", "-");
	}
	fputs("++++: blocks read in under a second, which zcav prints without a rate.\n", out);
	return ferror(out) ? -EIO : 0;
}

static size_t sweep_keys(const struct report_set *s)
{
	return s->nsweeps < 2 * SW_KEY_ROWS ? s->nsweeps : 2 * SW_KEY_ROWS;
}

int report_sweep_svg_height(const struct report_set *s)
{
	return SW_BOTTOM + 56 + (int)((sweep_keys(s) + 1) / 2) * 16 + 2 * SW_MARGIN;
}

/* The chart's <svg> element: every sweep's rated points as one line, overlaid. */
int report_sweep_svg_element(FILE *out, const struct report_set *s)
{
	size_t keys = sweep_keys(s);
	double xmax = 0, ymax = 0, right = SW_W - SW_RIGHT;
	int height = report_sweep_svg_height(s);
	size_t unrated = 0;
	struct scale x, y;

	for (size_t i = 0; i < s->nsweeps; i++) {
		for (size_t k = 0; k < s->sweeps[i].n; k++) {
			const struct report_sweep_point *p = &s->sweeps[i].pt[k];

			xmax = fmax(xmax, p->offset_gib);
			if (isfinite(p->mib_s))
				ymax = fmax(ymax, p->mib_s);
			else
				unrated++;
		}
	}
	scale_pick(&x, xmax);
	scale_pick(&y, ymax);
	fprintf(out, "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" viewBox=\"0 0 %d %d\" width=\"%d\" height=\"%d\" font-family=\"DejaVu Sans, Helvetica, Arial, sans-serif\">\n",
		SW_W, height, SW_W, height);
	fputs("<title>clyde-report: rate by position</title>\n", out);
	fprintf(out, "<rect width=\"%d\" height=\"%d\" fill=\"#fff\"/>\n", SW_W, height);
	fputs("<text x=\"12\" y=\"22\" font-size=\"14\" font-weight=\"bold\" fill=\"#111\">Rate by position: the position sweeps (zcav) overlaid</text>\n", out);
	fprintf(out, "<text x=\"12\" y=\"40\" font-size=\"11\" fill=\"#555\">MiB/s of each block at its offset; %zu block%s under a second (zcav's ++++) not drawn</text>\n",
		unrated, unrated == 1 ? "" : "s");
	for (int k = 0; k * y.step <= y.top * (1 + 1e-9); k++) {
		double py = SW_BOTTOM - k * y.step / y.top * (SW_BOTTOM - SW_TOP);

		fprintf(out, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\"/>\n",
			SW_LEFT, py, right, py, k ? "#ebebeb" : "#888");
		fprintf(out, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\" font-size=\"10\" fill=\"#444\">%g</text>\n",
			SW_LEFT - 6, py + 3.5, k * y.step);
	}
	for (int k = 0; k * x.step <= x.top * (1 + 1e-9); k++) {
		double px = SW_LEFT + k * x.step / x.top * (right - SW_LEFT);

		fprintf(out, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#888\"/>",
			px, SW_BOTTOM, px, SW_BOTTOM + 4);
		fprintf(out, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\" font-size=\"10\" fill=\"#444\">%g</text>\n",
			px, SW_BOTTOM + 15, k * x.step);
	}
	fprintf(out, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#888\"/>\n", SW_LEFT,
		SW_TOP - 4, SW_LEFT, SW_BOTTOM);
	fprintf(out, "<text transform=\"translate(16,%d) rotate(-90)\" text-anchor=\"middle\" font-size=\"11\" fill=\"#333\">MiB/s</text>\n",
		(SW_TOP + SW_BOTTOM) / 2);
	fprintf(out, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\" font-size=\"11\" fill=\"#333\">block offset, GiB</text>\n",
		(SW_LEFT + right) / 2, SW_BOTTOM + 31);
	for (size_t i = 0; i < s->nsweeps; i++) {
		const struct report_sweep *sw = &s->sweeps[i];
		bool pen = false;

		fprintf(out, "<path class=\"sweep\" d=\"");
		for (size_t k = 0; k < sw->n; k++) {
			const struct report_sweep_point *p = &sw->pt[k];

			if (!isfinite(p->mib_s)) {
				pen = false;
				continue;
			}
			fprintf(out, "%c%.1f %.1f", pen ? 'L' : 'M',
				SW_LEFT + p->offset_gib / x.top * (right - SW_LEFT),
				SW_BOTTOM - fmin(p->mib_s, y.top) / y.top * (SW_BOTTOM - SW_TOP));
			pen = true;
		}
		fprintf(out, "\" fill=\"none\" stroke=\"%s\" stroke-width=\"1.6\" stroke-linejoin=\"round\"><title>",
			report_chart_color(i));
		report_xml_text(out, sw->label);
		fprintf(out, " (%s, ", sw->origin);
		report_xml_text(out, sw->source);
		fprintf(out, ":%u)</title></path>\n", sw->line);
	}
	for (size_t i = 0; i < keys; i++) {
		char label[64];	/* half the chart's width */
		double kx = 12 + (double)(i % 2) * (SW_W / 2);
		int ky = SW_BOTTOM + 56 + (int)(i / 2) * 16;

		fprintf(out, "<g class=\"sweep-key\"><line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"%s\" stroke-width=\"2\"/>",
			kx, ky - 4, kx + 22, ky - 4, report_chart_color(i));
		fprintf(out, "<text x=\"%.1f\" y=\"%d\" font-size=\"11\" fill=\"#222\">[%zu] ", kx + 28, ky, i + 1);
		snprintf(label, sizeof(label), "%.63s", s->sweeps[i].label);
		report_xml_text(out, label);
		fputs("</text></g>\n", out);
	}
	if (s->nsweeps > keys)
		fprintf(out, "<text x=\"12\" y=\"%d\" font-size=\"11\" fill=\"#222\">and %zu more (their titles name them)</text>\n",
			height - SW_MARGIN, s->nsweeps - keys);
	fputs("</svg>\n", out);
	return ferror(out) ? -EIO : 0;
}

static void html_table(FILE *out, const struct report_set *s)
{
	fputs("<table class=\"sweeps\"><caption>Position sweeps: MiB/s by block</caption>\n"
	      "<tr><th></th><th>sweep</th><th>from</th><th>blocks</th><th>++++</th><th>min</th>"
	      "<th>median</th><th>max</th></tr>\n", out);
	for (size_t i = 0; i < s->nsweeps; i++) {
		const struct report_sweep *sw = &s->sweeps[i];
		struct sweep_stat st;

		if (sweep_stat(sw, &st))
			continue;
		fprintf(out, "<tr><td><span class=\"sw\" style=\"background:%s\"></span>%zu</td><td>",
			report_chart_color(i), i + 1);
		report_xml_text(out, sw->label);
		fprintf(out, "</td><td>%s, ", sw->origin);
		report_xml_text(out, sw->source);
		fprintf(out, ":%u</td><td class=\"num\">%zu</td><td class=\"num\">%zu</td>", sw->line,
			sw->n, sw->n - st.rated);
		if (st.rated)
			fprintf(out, "<td class=\"num\">%.1f</td><td class=\"num\">%.1f</td><td class=\"num\">%.1f</td></tr>\n",
				st.min, st.median, st.max);
		else
			fputs("<td class=\"na\">-</td><td class=\"na\">-</td><td class=\"na\">-</td></tr>\n", out);
	}
	fputs("</table>\n", out);
}

int report_sweep_section(FILE *out, const struct report_set *s)
{
	if (!s->nsweeps)
		return 0;
	fputs("<h2>Rate by position</h2>\n<p class=\"sub\">Position sweeps read from zcav's text"
	      " and clyde-zcav's JSON: each block's rate at its offset, every pass and device"
	      " overlaid. A block read in under a second has no rate in zcav's text (++++) and is"
	      " not drawn; clyde-zcav's JSON has the rate of every block.</p>\n", out);
	html_table(out, s);
	fputs("<div class=\"charts\">\n", out);
	if (report_sweep_svg_element(out, s))
		return -EIO;
	fputs("</div>\n", out);
	return ferror(out) ? -EIO : 0;
}

/* A page of sweeps alone (no run to report). */
int report_sweep_page(FILE *out, const struct report_set *s)
{
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	      "<title>clyde-report: rate by position</title>\n<style>\n"
	      "body { font-family: \"DejaVu Sans\", Helvetica, Arial, sans-serif; color: #111;"
	      " background: #fff; margin: 24px; max-width: 1400px; line-height: 1.4; }\n"
	      "h1 { font-size: 24px; margin: 0 0 4px; }\n"
	      "h2 { font-size: 18px; margin: 28px 0 8px; border-bottom: 1px solid #ddd; }\n"
	      "p.sub { color: #444; margin: 0 0 8px; }\n"
	      "table { border-collapse: collapse; margin: 6px 0 18px; font-size: 13px; }\n"
	      "caption { text-align: left; font-weight: bold; padding: 4px 0; }\n"
	      "th, td { border: 1px solid #d0d0d0; padding: 4px 8px; }\n"
	      "th { background: #f2f2f2; }\n"
	      "td.num { text-align: right; font-variant-numeric: tabular-nums; }\n"
	      "td.na { text-align: center; color: #999; }\n"
	      ".sw { display: inline-block; width: 12px; height: 12px; margin-right: 6px; }\n"
	      "div.charts svg { max-width: 100%; height: auto; }\n"
	      "p.foot { color: #777; font-size: 12px; }\n"
	      "</style>\n</head>\n<body>\n", out);
	fprintf(out, "<h1>clyde-report: %zu position sweep%s</h1>\n", s->nsweeps,
		s->nsweeps == 1 ? "" : "s");
	if (report_sweep_section(out, s))
		return -EIO;
	fputs("<p class=\"foot\">Written by clyde-report.</p>\n</body>\n</html>\n", out);
	return ferror(out) || fflush(out) == EOF ? -EIO : 0;
}
