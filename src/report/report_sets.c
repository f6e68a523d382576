// SPDX-License-Identifier: BSD-2-Clause
/*
 * The history's arithmetic and drawing, with no database in it: two
 * sets of runs compared phase by phase (means, their ratio, CV, Welch's
 * t-test on the same means, a verdict), and a set's medians charted over its dates or a
 * label's values. report_db.c fills the points; these are pure functions
 * of them, and the unit tests call them without SQLite.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/phase.h"
#include "lib/grow.h"
#include "report/report_db.h"

int report_points_add(struct report_points *pts, const struct report_point *p)
{
	int ret = array_room(&pts->p, &pts->cap, pts->n, sizeof(*pts->p), 64);

	if (ret)
		return ret;
	pts->p[pts->n++] = *p;
	return 0;
}

void report_points_free(struct report_points *pts)
{
	free(pts->p);
	memset(pts, 0, sizeof(*pts));
}

void report_points_by_params(struct report_points *pts)
{
	for (size_t i = 0; i < pts->n; i++) {
		struct report_point *p = &pts->p[i];
		const char *name = p->name[0] ? p->name : "(no name)";
		size_t n = strlen(name);
		char params[sizeof(p->config)];

		char *super;

		/* a key begins with its run's name (report_key); one that does not is left as it is */
		if (strncmp(p->config, name, n) || (p->config[n] && p->config[n] != ' '))
			continue;
		/*
		 * and ends with the filesystem's own options (report_key_setup),
		 * which differ from one filesystem to the next as names do: the
		 * sides a field selects are paired by clyde's parameters alone
		 */
		super = strstr(p->config + n, " super=");
		if (super)
			*super = '\0';
		snprintf(params, sizeof(params), "(any name)%s", p->config + n);
		memcpy(p->config, params, sizeof(p->config));
	}
}

bool report_db_key_ok(const char *s, size_t n)
{
	if (!n || n > 64)
		return false;
	for (size_t i = 0; i < n; i++) {
		char c = s[i];

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		      c == '_' || c == '.' || c == '-'))
			return false;
	}
	return true;
}

bool report_db_selection_ok(const char *sel, const char **why)
{
	const char *p = sel;

	do {
		const char *eq = strchr(p, '='), *end = strchr(p, ',');

		if (!end)
			end = p + strlen(p);
		if (!eq || eq > end) {
			*why = "each condition is K=V (conditions joined by ',')";
			return false;
		}
		if (!report_db_key_ok(p, (size_t)(eq - p))) {
			*why = "a key is letters, digits, '_', '.' or '-' (64 at most)";
			return false;
		}
		if (eq + 1 == end || (*end && !end[1])) {
			*why = "a condition has no value";
			return false;
		}
		p = *end ? end + 1 : end;
	} while (*p);
	return true;
}

const char *report_verdict_name(enum report_verdict v)
{
	switch (v) {
	case RV_BETTER:
		return "better";
	case RV_WORSE:
		return "worse";
	case RV_NOISE:
		return "within noise";
	default:
		return "too few runs";
	}
}

enum report_verdict report_verdict_of(const struct report_stat *a, const struct report_stat *b,
				      enum report_measure m, double *ratio, double *p)
{
	*ratio = NAN;
	*p = -1;
	if (!report_mean_ratio(m, b, a, ratio))
		*ratio = NAN;
	if (a->n < REPORT_MIN_RUNS || b->n < REPORT_MIN_RUNS)
		return RV_TOO_FEW;
	*p = report_welch_p(a, b);
	if (report_p_within_noise(*p) || isnan(*ratio))
		return RV_NOISE;
	return *ratio > 1 ? RV_BETTER : *ratio < 1 ? RV_WORSE : RV_NOISE;
}

static int cmp_double(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;

	return a < b ? -1 : a > b;
}

/* The sorted values of config's phase ph in pts, summarised into st (which then owns them). */
static int cell_stat(const struct report_points *pts, const char *config, enum phase_id ph,
		     struct report_stat *st)
{
	double *v = malloc((pts->n ? pts->n : 1) * sizeof(*v));
	unsigned n = 0;

	if (!v)
		return -ENOMEM;
	for (size_t i = 0; i < pts->n; i++)
		if (pts->p[i].ph == ph && !strcmp(pts->p[i].config, config))
			v[n++] = pts->p[i].value;
	qsort(v, n, sizeof(*v), cmp_double);
	report_stat_fill(st, v, n);
	return 0;
}

/* The first point of config's phase ph in a or else b; NULL when neither has one. */
static const struct report_point *cell_find(const struct report_points *a,
					    const struct report_points *b, const char *config,
					    enum phase_id ph)
{
	const struct report_points *sets[2] = { a, b };

	for (int k = 0; k < 2; k++)
		for (size_t i = 0; i < sets[k]->n; i++)
			if (sets[k]->p[i].ph == ph && !strcmp(sets[k]->p[i].config, config))
				return &sets[k]->p[i];
	return NULL;
}

/* A side's mean and CV, or "-" where it has no run (the mean) or fewer than 2 (the CV). */
static void side_cells(char *mean, char *cv, size_t len, const struct report_stat *st,
		       const struct report_display *d)
{
	snprintf(mean, len, "-");
	snprintf(cv, len, "-");
	if (st->n && d->scale != 1)
		report_scaled_rate_text(mean, len, st->mean, d);
	else if (st->n)
		snprintf(mean, len, "%.1f", st->mean);
	if (st->n >= 2)
		snprintf(cv, len, "%.1f%%", st->cv_percent);
}

/* One configuration's phase: its row, and its regression on errs. */
static int compare_cell(FILE *out, FILE *errs, const struct report_points *a,
			const struct report_points *b, const struct report_point *p,
			double fail_pct, struct report_gate *gate)
{
	struct report_stat sa, sb;
	struct report_display d;
	enum report_verdict v;
	double ratio, pv;
	char ps[16] = "-", rs[16] = "-", mean_a[24], mean_b[24], cv_a[24], cv_b[24];
	int ret;

	ret = cell_stat(a, p->config, p->ph, &sa);
	if (ret)
		return ret;
	ret = cell_stat(b, p->config, p->ph, &sb);
	if (ret)
		goto free_a;
	v = report_verdict_of(&sa, &sb, RM_RATE, &ratio, &pv);
	if (pv >= 0)
		snprintf(ps, sizeof(ps), "%.4f", pv);
	if (!isnan(ratio))
		snprintf(rs, sizeof(rs), "%.3f", ratio);
	/* the row's unit as the text report picks a column's: from the larger of its figures */
	report_display_pick(&d, p->ph, RM_RATE, fmax(sa.n ? sa.mean : 0, sb.n ? sb.mean : 0));
	side_cells(mean_a, cv_a, sizeof(mean_a), &sa, &d);
	side_cells(mean_b, cv_b, sizeof(mean_b), &sb, &d);
	fprintf(out, "  %-18s %12s %12s %-7s %7s %7s %7s %7s  %s (%u/%u runs)\n",
		phase_csv_name(p->ph), mean_a, mean_b, d.unit, rs, cv_a, cv_b, ps,
		report_verdict_name(v), sa.n, sb.n);
	if (v == RV_WORSE && fail_pct >= 0 && (1 - ratio) * 100 > fail_pct) {
		gate->regressions++;
		fprintf(errs, "clyde-report: regression: %s: %s %.1f%% worse (p %.4f), more than %g%%\n",
			p->config, phase_csv_name(p->ph), (1 - ratio) * 100, pv, fail_pct);
	}
	if (v == RV_TOO_FEW && fail_pct >= 0) {
		gate->too_few++;
		fprintf(errs, "clyde-report: too few runs: %s: %s has %u in A and %u in B, "
			"a verdict needs %d a side\n", p->config, phase_csv_name(p->ph), sa.n, sb.n,
			REPORT_MIN_RUNS);
	}
	free(sb.values);
free_a:
	free(sa.values);
	return ret;
}

/* Prints config's rows, its phases in the phase table's order. */
/* Whether pts has a point of config. */
static bool config_in(const struct report_points *pts, const char *config)
{
	for (size_t i = 0; i < pts->n; i++)
		if (!strcmp(pts->p[i].config, config))
			return true;
	return false;
}

static int compare_config(FILE *out, FILE *errs, const struct report_points *a,
			  const struct report_points *b, const char *config, double fail_pct,
			  struct report_gate *gate)
{
	int ret;

	gate->shared += config_in(a, config) && config_in(b, config);
	fprintf(out, "%s\n  %-18s %12s %12s %-7s %7s %7s %7s %7s  %s\n", config, "phase", "mean A",
		"mean B", "unit", "B/A", "CV A", "CV B", "p", "verdict");
	for (int ph = 0; ph < PH_COUNT; ph++) {
		const struct report_point *p = cell_find(a, b, config, (enum phase_id)ph);

		if (!p)
			continue;
		ret = compare_cell(out, errs, a, b, p, fail_pct, gate);
		if (ret)
			return ret;
	}
	return 0;
}

static bool config_seen(const struct report_points *a, const struct report_points *in, size_t i)
{
	for (size_t j = 0; j < a->n && (in != a || j < i); j++)
		if (!strcmp(a->p[j].config, in->p[i].config))
			return true;
	for (size_t j = 0; in != a && j < i; j++)
		if (!strcmp(in->p[j].config, in->p[i].config))
			return true;
	return false;
}

int report_sets_compare(FILE *out, FILE *errs, const struct report_points *a,
			const struct report_points *b, const char *sel_a, const char *sel_b,
			double fail_pct, struct report_gate *gate)
{
	const struct report_points *sets[2] = { a, b };
	int ret;

	memset(gate, 0, sizeof(*gate));
	fprintf(out, "A: %s (%u runs)\nB: %s (%u runs)\n"
		"Rates: each side's mean, in MiB/s or GiB/s (byte phases, 1 MiB = 1024 KiB, "
		"picked per\nrow from its larger mean, 4 significant digits), seeks/s or files/s; "
		"B/A, the ratio\nof the means, above 1 is better;\n"
		"p: Welch's t-test of the same means; a verdict needs %d runs a side.\n\n",
		sel_a, a->runs, sel_b, b->runs, REPORT_MIN_RUNS);
	for (int k = 0; k < 2; k++) {
		const struct report_points *in = sets[k];

		for (size_t i = 0; i < in->n; i++) {
			if (config_seen(a, in, i))
				continue;
			ret = compare_config(out, errs, a, b, in->p[i].config, fail_pct, gate);
			if (ret)
				return ret;
		}
	}
	return ferror(out) ? -EIO : 0;
}

/* The history's charts. */
#define HC_W		720
#define HC_H		260
#define HC_LEFT		80
#define HC_TOP		40
#define HC_PLOT_W	600
#define HC_PLOT_H	160

/* The groups of config's phase ph, in the order first seen: their index in pts of the first point. */
static size_t chart_groups(const struct report_points *pts, const char *config, enum phase_id ph,
			   size_t *first)
{
	size_t n = 0;

	for (size_t i = 0; i < pts->n; i++) {
		const struct report_point *p = &pts->p[i];
		bool seen = false;

		if (p->ph != ph || strcmp(p->config, config))
			continue;
		for (size_t g = 0; g < n && !seen; g++)
			seen = !strcmp(pts->p[first[g]].group, p->group);
		if (!seen)
			first[n++] = i;
	}
	return n;
}

/* The median, min and max of group g's values. */
static int group_stat(const struct report_points *pts, const struct report_point *g,
		      struct report_stat *st)
{
	double *v = malloc(pts->n * sizeof(*v));
	unsigned n = 0;

	if (!v)
		return -ENOMEM;
	for (size_t i = 0; i < pts->n; i++)
		if (pts->p[i].ph == g->ph && !strcmp(pts->p[i].config, g->config) &&
		    !strcmp(pts->p[i].group, g->group))
			v[n++] = pts->p[i].value;
	qsort(v, n, sizeof(*v), cmp_double);
	report_stat_fill(st, v, n);
	return 0;
}

/* One chart, at y offset top: config's phase ph. */
static int history_chart(FILE *out, const struct report_points *pts, const struct report_point *c,
			 int top)
{
	size_t *first = malloc(pts->n * sizeof(*first)), n;
	struct report_stat *st;
	struct report_display d;
	struct report_axis a;
	double max = 0;
	char tick[32];
	int ret = -ENOMEM;

	if (!first)
		return ret;
	n = chart_groups(pts, c->config, c->ph, first);
	st = calloc(n, sizeof(*st));
	if (!st)
		goto free_first;
	for (size_t g = 0; g < n; g++) {
		ret = group_stat(pts, &pts->p[first[g]], &st[g]);
		if (ret)
			goto free_stats;
		if (st[g].max > max)
			max = st[g].max;
	}
	report_display_pick(&d, c->ph, RM_RATE, max);
	/*
	 * Round ticks, the top one at or above the fastest run: the axis, not
	 * the data, sets the scale, so that a single point is not the top
	 * edge with ticks at quarters of its own value.
	 */
	report_axis_pick(&a, max * d.scale);
	max = a.top / d.scale;
	fprintf(out, "<g transform=\"translate(0,%d)\">\n<text x=\"%d\" y=\"20\" font-weight=\"bold\">",
		top, HC_LEFT);
	report_xml_text(out, c->config);
	fprintf(out, " \xe2\x80\x94 %s (%s)</text>\n", phase_csv_name(c->ph), d.unit);
	fprintf(out, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" stroke=\"#888\"/>\n",
		HC_LEFT, HC_TOP, HC_PLOT_W, HC_PLOT_H);
	for (int k = 0; k * a.step <= a.top * (1 + 1e-9); k++) {
		report_tick_label(tick, sizeof(tick), k * a.step, &a);
		fprintf(out, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\" font-size=\"10\">%s</text>\n",
			HC_LEFT - 4, HC_TOP + HC_PLOT_H * (1 - k * a.step / a.top) + 3, tick);
	}
	fputs("<polyline fill=\"none\" stroke=\"#1f77b4\" stroke-width=\"2\" points=\"", out);
	for (size_t g = 0; g < n; g++) {
		double x = HC_LEFT + HC_PLOT_W * (g + 0.5) / n;

		fprintf(out, "%s%.1f,%.1f", g ? " " : "", x, HC_TOP + HC_PLOT_H * (1 - st[g].median / max));
	}
	fputs("\"/>\n", out);
	for (size_t g = 0; g < n; g++) {
		double x = HC_LEFT + HC_PLOT_W * (g + 0.5) / n;

		/* the spread: min..max of the group's runs */
		fprintf(out, "<line class=\"spread\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#1f77b4\"/>\n",
			x, x, HC_TOP + HC_PLOT_H * (1 - st[g].min / max),
			HC_TOP + HC_PLOT_H * (1 - st[g].max / max));
		fprintf(out, "<circle class=\"median\" cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"#1f77b4\"><title>",
			x, HC_TOP + HC_PLOT_H * (1 - st[g].median / max));
		report_xml_text(out, pts->p[first[g]].group);
		fprintf(out, ": median %.6g %s of %u runs, %.6g..%.6g</title></circle>\n",
			st[g].median * d.scale, d.unit, st[g].n, st[g].min * d.scale, st[g].max * d.scale);
		fprintf(out, "<text x=\"%.1f\" y=\"%d\" font-size=\"10\" text-anchor=\"middle\">", x,
			HC_TOP + HC_PLOT_H + 14);
		report_xml_text(out, pts->p[first[g]].group);
		fputs("</text>\n", out);
	}
	fputs("</g>\n", out);
	ret = 0;
free_stats:
	for (size_t g = 0; g < n; g++)
		free(st[g].values);
	free(st);
free_first:
	free(first);
	return ret;
}

/* Whether point i's configuration came before it. */
static bool chart_config_seen(const struct report_points *pts, size_t i)
{
	for (size_t j = 0; j < i; j++)
		if (!strcmp(pts->p[j].config, pts->p[i].config))
			return true;
	return false;
}

/* Calls chart for each configuration (in the order first seen) and phase (the table's) with points. */
static int each_chart(FILE *out, const struct report_points *pts, size_t *charts,
		      int (*chart)(FILE *out, const struct report_points *pts,
				   const struct report_point *c, int top))
{
	int ret;

	for (size_t i = 0; i < pts->n; i++) {
		if (chart_config_seen(pts, i))
			continue;
		for (int ph = 0; ph < PH_COUNT; ph++) {
			const struct report_point *c = cell_find(pts, pts, pts->p[i].config, (enum phase_id)ph);

			if (!c)
				continue;
			ret = chart ? chart(out, pts, c, 30 + (int)*charts * HC_H) : 0;
			if (ret)
				return ret;
			++*charts;
		}
	}
	return 0;
}

static int history_element(FILE *out, const struct report_points *pts, const char *title)
{
	size_t charts = 0;
	int ret;

	each_chart(out, pts, &charts, NULL);
	fprintf(out, "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"%d\" height=\"%zu\" "
		"font-family=\"sans-serif\" font-size=\"12\">\n<title>", HC_W, 30 + charts * HC_H);
	report_xml_text(out, title);
	fputs("</title>\n<text x=\"10\" y=\"20\" font-size=\"14\">", out);
	report_xml_text(out, title);
	fputs("</text>\n", out);
	charts = 0;
	ret = each_chart(out, pts, &charts, history_chart);
	if (ret)
		return ret;
	fputs("</svg>\n", out);
	return ferror(out) ? -EIO : 0;
}

int report_history_svg(FILE *out, const struct report_points *pts, const char *title)
{
	fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", out);
	return history_element(out, pts, title);
}

int report_history_html(FILE *out, const struct report_points *pts, const char *title)
{
	int ret;

	fputs("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>", out);
	report_xml_text(out, title);
	fputs("</title></head><body>\n<p>Each chart: a configuration's phase, the median rate of each "
	      "group of runs (a date, or a label's value) joined by a line, the bar from the slowest "
	      "run to the fastest.</p>\n", out);
	ret = history_element(out, pts, title);
	fputs("</body></html>\n", out);
	return ret ? ret : ferror(out) ? -EIO : 0;
}
