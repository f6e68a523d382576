// SPDX-License-Identifier: BSD-2-Clause
/*
 * clyde-report's charts: one bar chart per phase and measure with any
 * value, laid out as a grid (a row per phase, a column per measure).
 * Within a chart, one bar per configuration: the median over its runs,
 * an error bar from the lowest to the highest run where there are two
 * or more, the baseline's median as a dashed line, and a <title> on
 * each bar with the exact numbers. A pure function of the report_set;
 * presentation attributes only (no CSS), so any SVG 1.1 reader draws it.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/phase.h"
#include "report/report.h"

/* The grid, in SVG user units (pixels at 100%). */
#define MARGIN		16
#define GAP		14
#define CHART_W		440
#define CHART_H		270
#define PLOT_L		64
#define PLOT_R		14
#define PLOT_T		56
#define PLOT_B		42
#define LEGEND_ROW	20
#define LEGEND_CHARS	52	/* code points of a name shown in the legend */
#define TITLE_VALUES	24	/* run values listed in a bar's tooltip */

/* Distinct on white and for the common colour-vision deficiencies first. */
static const char *const palette[] = {
	"#0072b2", "#e69f00", "#009e73", "#d55e00", "#cc79a7",
	"#56b4e9", "#8c6d31", "#7f7f7f", "#c9b500", "#6a3d9a",
};

#define PALETTE_N (sizeof(palette) / sizeof(palette[0]))

const char *report_chart_color(size_t i)
{
	return palette[i % PALETTE_N];
}

/* Length of the valid UTF-8 sequence at p that XML allows, or 0. */
static int utf8_len(const unsigned char *p)
{
	unsigned int cp, min;
	int n;

	if (p[0] < 0x80)
		return 1;
	if (p[0] >= 0xc2 && p[0] <= 0xdf) {
		n = 2;
		cp = p[0] & 0x1f;
		min = 0x80;
	} else if ((p[0] & 0xf0) == 0xe0) {
		n = 3;
		cp = p[0] & 0x0f;
		min = 0x800;
	} else if (p[0] >= 0xf0 && p[0] <= 0xf4) {
		n = 4;
		cp = p[0] & 0x07;
		min = 0x10000;
	} else {
		return 0;
	}
	for (int i = 1; i < n; i++) {
		if ((p[i] & 0xc0) != 0x80)	/* the terminating NUL stops here too */
			return 0;
		cp = cp << 6 | (p[i] & 0x3f);
	}
	if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff) ||
	    cp == 0xfffe || cp == 0xffff)
		return 0;
	return n;
}

/* At most max code points of s (0: all), escaped; "…" where cut. */
static void xml_text_n(FILE *out, const char *text, size_t max)
{
	const unsigned char *p = (const unsigned char *)text;
	size_t shown = 0;

	while (*p) {
		int n = utf8_len(p);

		if (max && shown == max) {
			fputs("\xe2\x80\xa6", out);
			return;
		}
		shown++;
		if (n == 0) {
			fputs("\xef\xbf\xbd", out);	/* U+FFFD for a byte that is not UTF-8 */
			p++;
			continue;
		}
		switch (*p) {
		case '&':
			fputs("&amp;", out);
			break;
		case '<':
			fputs("&lt;", out);
			break;
		case '>':
			fputs("&gt;", out);
			break;
		case '"':
			fputs("&quot;", out);
			break;
		case '\'':
			fputs("&#39;", out);
			break;
		default:
			if (*p < 0x20 && *p != '\t' && *p != '\n' && *p != '\r')
				fputs("\xef\xbf\xbd", out);	/* not allowed in XML 1.0 */
			else
				fwrite(p, 1, (size_t)n, out);
		}
		p += n;
	}
}

void report_xml_text(FILE *out, const char *s)
{
	xml_text_n(out, s, 0);
}

static const char *const cpu_units[3][3] = {
	{ "CPU s per MiB", "CPU ms per MiB", "CPU \xc2\xb5s per MiB" },
	{ "CPU s per 1000 seeks", "CPU ms per 1000 seeks", "CPU \xc2\xb5s per 1000 seeks" },
	{ "CPU s per 1000 files", "CPU ms per 1000 files", "CPU \xc2\xb5s per 1000 files" },
};

static int unit_index(enum phase_id ph)
{
	switch (phase_get(ph)->unit) {
	case UNIT_KIB:
		return 0;
	case UNIT_SEEK:
		return 1;
	default:
		return 2;
	}
}

void report_display_pick(struct report_display *d, enum phase_id ph,
			 enum report_measure m, double max_raw)
{
	int u = unit_index(ph);

	switch (m) {
	case RM_RATE:
		d->scale = 1;
		d->unit = phase_unit_names(ph)->rate;
		if (u == 0 && max_raw >= 1024.0 * 1024.0) {
			d->scale = 1 / (1024.0 * 1024.0);
			d->unit = "GiB/s";
		} else if (u == 0) {
			d->scale = 1 / 1024.0;
			d->unit = "MiB/s";
		}
		break;
	case RM_MIBS:
		d->scale = max_raw >= 1024.0 ? 1 / 1024.0 : 1;
		d->unit = max_raw >= 1024.0 ? "GiB/s" : "MiB/s";
		break;
	case RM_DEAD:
		/* seconds, shown as the latencies are, from the same microseconds */
		report_display_pick(d, ph, RM_LATENCY, max_raw * 1e6);
		d->scale *= 1e6;
		break;
	case RM_CPU:
		if (max_raw >= 1) {
			d->scale = 1;
			d->unit = cpu_units[u][0];
		} else if (max_raw >= 1e-3) {
			d->scale = 1e3;
			d->unit = cpu_units[u][1];
		} else {
			d->scale = 1e6;
			d->unit = cpu_units[u][2];
		}
		break;
	default:
		if (max_raw >= 1e6) {
			d->scale = 1e-6;
			d->unit = "s";
		} else if (max_raw >= 1e3) {
			d->scale = 1e-3;
			d->unit = "ms";
		} else {
			d->scale = 1;
			d->unit = "\xc2\xb5s";
		}
	}
}

/* The unit the readers store a measure in. */
static const char *raw_unit(enum phase_id ph, enum report_measure m)
{
	switch (m) {
	case RM_RATE:
		return phase_unit_names(ph)->rate;
	case RM_CPU:
		return cpu_units[unit_index(ph)][0];
	case RM_MIBS:
		return "MiB/s";
	case RM_DEAD:
		return "s";
	default:
		return "\xc2\xb5s";
	}
}

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

static bool stat_ok(const struct report_stat *st)
{
	return st->n > 0 && isfinite(st->median);
}

/*
 * The display of a table's column: picked from the largest of the
 * configurations' medians, so that the page's table and the text give a
 * phase the same unit.
 */
void report_column_display(struct report_display *d, const struct report_set *s,
			   enum phase_id ph, enum report_measure m)
{
	double max = 0;

	for (size_t i = 0; i < s->nconfigs; i++)
		if (stat_ok(&s->configs[i].stat[ph][m]))
			max = fmax(max, s->configs[i].stat[ph][m].median);
	report_display_pick(d, ph, m, max);
}

/* The display of a time series' row: from the largest of its three tenths' rates. */
void report_tenths_display(struct report_display *d, enum phase_id ph, const double tenth[3])
{
	double max = 0;

	for (int t = 0; t < 3; t++)
		if (isfinite(tenth[t]))
			max = fmax(max, tenth[t]);
	report_display_pick(d, ph, RM_RATE, max);
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
		if (stat_ok(&s->configs[i].stat[ph][m]))
			return true;
	return false;
}

void report_axis_pick(struct report_axis *a, double max)
{
	double rough, mag, f, m;

	if (!(max > 0) || !isfinite(max))
		max = 1;
	rough = max / 4;
	mag = pow(10, floor(log10(rough)));
	f = rough / mag;
	m = f <= 1 ? 1 : f <= 2 ? 2 : f <= 2.5 ? 2.5 : f <= 5 ? 5 : 10;
	a->step = m * mag;
	a->top = ceil(max / a->step - 1e-9) * a->step;
	a->decimals = -(int)floor(log10(a->step) + 1e-9) + (m == 2.5);
	if (a->decimals < 0)
		a->decimals = 0;
}

void report_tick_label(char *buf, size_t len, double v, const struct report_axis *a)
{
	double div = 1;
	const char *suffix = "";
	int dec = a->decimals;

	if (a->step >= 1e6) {
		div = 1e6;
		suffix = "M";
	} else if (a->step >= 1e3) {
		div = 1e3;
		suffix = "k";
	}
	if (v == 0) {
		snprintf(buf, len, "0");
		return;
	}
	if (div > 1) {
		dec = -(int)floor(log10(a->step / div) + 1e-9);
		if (fabs(a->step / div - floor(a->step / div + 0.5)) > 1e-9 && dec < 1)
			dec = 1;
		if (dec < 0)
			dec = 0;
	}
	snprintf(buf, len, "%.*f%s", dec, v / div, suffix);
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

/* The configuration's name for the legend and tooltips: its key where the name is empty or shared. */
static const char *config_label(const struct report_set *s, size_t i)
{
	const struct report_config *c = &s->configs[i];

	if (!c->name[0])
		return c->key;
	for (size_t j = 0; j < s->nconfigs; j++)
		if (j != i && !strcmp(s->configs[j].name, c->name))
			return c->key[0] ? c->key : c->name;
	return c->name;
}

static void bar_title(FILE *out, const struct report_set *s, size_t i, enum phase_id ph,
		      enum report_measure m, const struct report_display *d)
{
	const struct report_config *c = &s->configs[i];
	const struct report_stat *st = &c->stat[ph][m];

	fputs("<title>", out);
	report_xml_text(out, config_label(s, i));
	fprintf(out, "\n%s %s: median %.6g %s\n", phase_get(ph)->row_name, measure_title(m),
		st->median * d->scale, d->unit);
	fprintf(out, "median %.10g, min %.10g, max %.10g %s; %u run%s", st->median, st->min,
		st->max, raw_unit(ph, m), st->n, st->n == 1 ? "" : "s");
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

	if (!stat_ok(st))
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
	if (!stat_ok(st)) {
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
		if (!stat_ok(st))
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
	if (b && stat_ok(&b->stat[ph][m])) {
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
		xml_text_n(out, config_label(s, i), is_base ? LEGEND_CHARS - 11 : LEGEND_CHARS);
		fprintf(out, "%s</text></g>\n", is_base ? " (baseline)" : "");
	}
}

/* ---- the time series: a chart per configuration and phase, its runs overlaid ---- */

/* One chart, in SVG user units: about 900 by 400, as a page or a README shows it. */
#define SERIES_W	900
#define SERIES_H	400
#define S_LEFT		72	/* the rate's axis */
#define S_RIGHT		72	/* the dirty pages' axis, where they were measured */
#define S_RIGHT_BARE	24
#define S_TOP		78
#define S_BOTTOM	262	/* the rate's plot */
#define S_LAT_TOP	284
#define S_LAT_BOTTOM	340	/* the latency strip */
#define S_RUNS_SHOWN	12	/* runs named in a chart's key */
#define SERIES_HEAD	28	/* the heading over them, in the SVG with the bar charts */

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
	xml_text_n(out, config_label(s, k), 2 * LEGEND_CHARS);
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
		xml_text_n(out, f.dirty_source, LEGEND_CHARS);
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
static int series_count(const struct report_set *s)
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
static void series_charts(FILE *out, const struct report_set *s, int y)
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
static int svg_series_write(FILE *out, const struct report_set *s)
{
	int n = series_count(s);
	int width = SERIES_W + 2 * MARGIN;
	int height = n ? 2 * MARGIN + n * (SERIES_H + GAP) - GAP : 2 * MARGIN + 30;

	fprintf(out, "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" viewBox=\"0 0 %d %d\" width=\"%d\" height=\"%d\" font-family=\"DejaVu Sans, Helvetica, Arial, sans-serif\">\n",
		width, height, width, height);
	fputs("<title>clyde-report: the phases over time</title>\n", out);
	fprintf(out, "<rect width=\"%d\" height=\"%d\" fill=\"#fff\"/>\n", width, height);
	if (!n)
		fprintf(out, "<text x=\"%d\" y=\"%d\" font-size=\"13\" fill=\"#666\">No run has a time series to chart.</text>\n",
			MARGIN, MARGIN + 16);
	series_charts(out, s, MARGIN);
	fputs("</svg>\n", out);
	return ferror(out) ? -EIO : 0;
}

/* The bar charts; standalone: with the notes, and the series charts after them. */
static int svg_write(FILE *out, const struct report_set *s, bool standalone)
{
	int nseries = standalone ? series_count(s) : 0;
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
		series_charts(out, s, y + SERIES_HEAD);
	}
	fputs("</svg>\n", out);
	return ferror(out) ? -EIO : 0;
}

int report_svg_element(FILE *out, const struct report_set *s)
{
	return svg_write(out, s, false);
}

int report_svg_series_element(FILE *out, const struct report_set *s)
{
	return report_series_shown(s) ? svg_series_write(out, s) : 0;
}

int report_svg(FILE *out, const struct report_set *s)
{
	int r;

	fputs("<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>\n", out);
	if (s->series_mode == REPORT_SERIES_ONLY)
		r = svg_series_write(out, s);
	else
		r = svg_write(out, s, true);
	if (r)
		return r;
	return fflush(out) == EOF ? -EIO : 0;
}
