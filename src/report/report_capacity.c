// SPDX-License-Identifier: BSD-2-Clause
/*
 * Capacity under a latency bound (clyde-result/15, issue 45): what
 * clyde --latency-target's search and --open-loop's steps measured of a
 * phase. The text: per configuration, the searches (the unbounded rate,
 * the target, the capacity at the bound and its concurrency, medians
 * over the runs) and each run's open-loop steps with its knee. The
 * charts: per phase with open-loop steps, achieved against offered rate
 * (the line y = x, each knee marked) and the latencies from the schedule
 * on a log axis, every configuration's curve on the same two charts, one
 * colour each. Pure functions of the set; report_text.c, report_svg_bars.c
 * and report_html.c place them.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "core/phase.h"
#include "report/report.h"
#include "report/report_svg.h"

/* Achieved below this share of offered: saturated (the knee's definition, clyde(1)). */
#define CAP_KNEE_SHARE	0.95

static const struct report_capacity *run_cap(const struct report_set *s, size_t i,
					     enum phase_id ph)
{
	return s->runs[i].has_capacity ? s->runs[i].capacity[ph] : NULL;
}

static bool config_has(const struct report_set *s, size_t k, enum phase_id ph, bool search)
{
	for (size_t i = 0; i < s->nruns; i++) {
		const struct report_capacity *c = run_cap(s, i, ph);

		if (c && report_run_of(s, k, i) && (search ? c->has_search : c->has_open_loop))
			return true;
	}
	return false;
}

static bool set_has_capacity(const struct report_set *s)
{
	for (size_t i = 0; i < s->nruns; i++)
		if (s->runs[i].has_capacity)
			return true;
	return false;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The median of the n values in v (sorted here); NAN for none. */
static double median_of(double *v, unsigned n)
{
	if (!n)
		return NAN;
	qsort(v, n, sizeof(*v), cmp_double);
	return report_median(v, n);
}

/* "p99<=5ms", "p99.9<=250us": the target as --latency-target takes it. */
static void target_label(char *buf, size_t len, double pct, double target_s)
{
	static const struct { double scale; const char *unit; } units[] = {
		{ 1, "s" }, { 1e-3, "ms" }, { 1e-6, "us" }, { 1e-9, "ns" },
	};
	size_t u = 0;

	while (u + 1 < sizeof(units) / sizeof(units[0]) && target_s < units[u].scale * (1 - 1e-9))
		u++;
	snprintf(buf, len, "p%g<=%g%s", pct, target_s / units[u].scale, units[u].unit);
}

/* One target of a phase's searches: the runs' medians (NAN: none). */
struct search_row {
	double pct, target_s;
	unsigned runs, met;
	double unbounded, rate, concurrency;
};

/*
 * The searches of configuration k's phase ph with the n-th distinct
 * target (in the order the runs name them): false when there is no
 * n-th. The capacity's median counts a run that met no window as 0, its
 * concurrency is the median over the runs that met one.
 */
static int search_row(const struct report_set *s, size_t k, enum phase_id ph, unsigned n,
		      struct search_row *row, bool *found)
{
	double *unb = malloc((s->nruns + 1) * 3 * sizeof(double)), *rate, *conc;
	unsigned nunb = 0, nrate = 0, nconc = 0, seen = 0;

	*found = false;
	if (!unb)
		return -ENOMEM;
	rate = unb + s->nruns + 1;
	conc = rate + s->nruns + 1;
	memset(row, 0, sizeof(*row));
	for (size_t i = 0; i < s->nruns; i++) {
		const struct report_capacity *c = run_cap(s, i, ph);
		bool first = true;

		if (!c || !c->has_search || !report_run_of(s, k, i))
			continue;
		/* is its target one an earlier run named? */
		for (size_t j = 0; j < i && first; j++) {
			const struct report_capacity *d = run_cap(s, j, ph);

			first = !(d && d->has_search && report_run_of(s, k, j) &&
				  d->percentile == c->percentile && d->target_s == c->target_s);
		}
		if (first && seen++ == n) {
			*found = true;
			row->pct = c->percentile;
			row->target_s = c->target_s;
		}
		if (!*found || c->percentile != row->pct || c->target_s != row->target_s)
			continue;
		row->runs++;
		if (isfinite(c->unbounded_rate))
			unb[nunb++] = c->unbounded_rate;
		rate[nrate++] = c->met ? c->rate : 0;
		if (c->met) {
			row->met++;
			conc[nconc++] = c->concurrency;
		}
	}
	row->unbounded = median_of(unb, nunb);
	row->rate = median_of(rate, nrate);
	row->concurrency = median_of(conc, nconc);
	free(unb);
	return 0;
}

static void print_num(FILE *out, int width, int prec, double v)
{
	if (isfinite(v))
		fprintf(out, " %*.*f", width, prec, v);
	else
		fprintf(out, " %*s", width, "-");
}

static int searches_text(FILE *out, const struct report_set *s, size_t k)
{
	fprintf(out, "  %-12s %5s %12s %-14s %12s %11s %5s\n", "search", "runs", "unbounded/s",
		"target", "capacity/s", "concurrency", "met");
	for (int p = 0; p < PH_COUNT; p++) {
		for (unsigned n = 0;; n++) {
			struct search_row row;
			char target[40];
			bool found;
			int ret = search_row(s, k, (enum phase_id)p, n, &row, &found);

			if (ret)
				return ret;
			if (!found)
				break;
			target_label(target, sizeof(target), row.pct, row.target_s);
			fprintf(out, "  %-12s %5u", phase_csv_name((enum phase_id)p), row.runs);
			print_num(out, 12, 1, row.unbounded);
			fprintf(out, " %-14s", target);
			print_num(out, 12, 1, row.rate);
			print_num(out, 11, 1, row.concurrency);
			fprintf(out, " %u/%u\n", row.met, row.runs);
		}
	}
	return 0;
}

/* A latency in milliseconds, the open-loop table's unit. */
static void print_ms(FILE *out, int width, double s_)
{
	print_num(out, width, 3, s_ * 1e3);
}

static void open_loop_text(FILE *out, const struct report_set *s, size_t k)
{
	fprintf(out, "  %-12s %4s %10s %11s %9s %9s %9s %9s %7s\n", "open loop", "run", "offered/s",
		"achieved/s", "p50_ms", "p99_ms", "p99.9_ms", "sent_late", "unsent");
	for (int p = 0; p < PH_COUNT; p++) {
		unsigned j = 0;

		for (size_t i = 0; i < s->nruns; i++) {
			const struct report_capacity *c;
			const char *name = phase_csv_name((enum phase_id)p);
			char run[16];

			if (!report_run_of(s, k, i))
				continue;
			j++;
			c = run_cap(s, i, (enum phase_id)p);
			if (!c || !c->has_open_loop)
				continue;
			snprintf(run, sizeof(run), "#%u", j);
			for (size_t t = 0; t < c->nsteps; t++) {
				const struct report_cap_step *st = &c->step[t];

				fprintf(out, "  %-12s %4s", name, run);
				print_num(out, 10, 1, st->offered);
				print_num(out, 11, 1, st->achieved);
				print_ms(out, 9, st->p50_s);
				print_ms(out, 9, st->p99_s);
				print_ms(out, 9, st->p999_s);
				fprintf(out, " %9.0f %7.0f\n", st->sent_late, st->unsent);
			}
			fprintf(out, "  %-12s %4s ", name, run);
			if (c->saturated)
				fprintf(out, "knee %.1f/s", c->knee);
			else
				fputs("not saturated", out);
			fprintf(out, " (%s arrivals, %s, %.0f in flight, %zu step%s)\n", c->arrivals,
				c->mode, c->inflight, c->nsteps, c->nsteps == 1 ? "" : "s");
		}
	}
}

int report_capacity_text(FILE *out, const struct report_set *s)
{
	bool any = false;

	if (!set_has_capacity(s))
		return 0;
	for (size_t k = 0; k < s->nconfigs; k++) {
		bool search = false, open = false;
		int ret;

		for (int p = 0; p < PH_COUNT; p++) {
			search |= config_has(s, k, (enum phase_id)p, true);
			open |= config_has(s, k, (enum phase_id)p, false);
		}
		if (!search && !open)
			continue;
		if (!any)
			fputs("\nCapacity under a latency bound (clyde --latency-target, --open-loop)\n", out);
		any = true;
		fprintf(out, "[%zu] %s, %u run%s\n", k + 1, s->configs[k].name, s->configs[k].runs,
			s->configs[k].runs == 1 ? "" : "s");
		if (search) {
			ret = searches_text(out, s, k);
			if (ret)
				return ret;
		}
		if (open)
			open_loop_text(out, s, k);
	}
	fputs("capacity/s: the highest rate of a window within the target (0: none was), median over the runs;\n"
	      "concurrency: its threads, median over the runs that met the target. Open loop: latency from\n"
	      "each request's scheduled time; knee: the offered rate at which the achieved rate first fell\n"
	      "below 95% of the offered.\n", out);
	return ferror(out) ? -EIO : 0;
}

/* ---- the curves ---- */

/* Two rates that are one (a knee is one of its run's offered rates). */
static bool same_rate(double a, double b)
{
	return fabs(a - b) <= 1e-9 * fmax(fabs(a), fabs(b));
}

/* The median of the values v[0..n) that are known (NAN: none is). */
static double known_median(double *v, unsigned n)
{
	unsigned known = 0;

	for (unsigned i = 0; i < n; i++)
		if (isfinite(v[i]))
			v[known++] = v[i];
	return median_of(v, known);
}

/*
 * A configuration's runs of one --open-loop are the same steps (one list
 * of rates, or a sweep from each run's own unbounded rate by x1.25): the
 * curve's k-th point is the medians of the runs' k-th steps, those that
 * have one (a sweep may stop a step later in one run than another).
 */
int report_capacity_curve(const struct report_set *s, size_t k, enum phase_id ph,
			  struct report_cap_point **pts, size_t *n, double *knee)
{
	size_t longest = 0;
	unsigned nknees = 0;
	struct report_cap_point *v;
	double *buf;

	*pts = NULL;
	*n = 0;
	*knee = NAN;
	for (size_t i = 0; i < s->nruns; i++) {
		const struct report_capacity *c = run_cap(s, i, ph);

		if (c && c->has_open_loop && report_run_of(s, k, i) && c->nsteps > longest)
			longest = c->nsteps;
	}
	if (!longest)
		return -ENOENT;
	v = calloc(longest, sizeof(*v));
	buf = malloc(5 * (s->nruns + 1) * sizeof(*buf));
	if (!v || !buf) {
		free(v);
		free(buf);
		return -ENOMEM;
	}
	for (size_t t = 0; t < longest; t++) {
		double *off = buf, *ach = off + s->nruns + 1, *p50 = ach + s->nruns + 1;
		double *p99 = p50 + s->nruns + 1, *p999 = p99 + s->nruns + 1;
		unsigned m = 0;

		for (size_t i = 0; i < s->nruns; i++) {
			const struct report_capacity *c = run_cap(s, i, ph);

			if (!c || !c->has_open_loop || !report_run_of(s, k, i) || t >= c->nsteps)
				continue;
			off[m] = c->step[t].offered;
			ach[m] = c->step[t].achieved;
			p50[m] = c->step[t].p50_s;
			p99[m] = c->step[t].p99_s;
			p999[m++] = c->step[t].p999_s;
		}
		v[t] = (struct report_cap_point){
			.offered = known_median(off, m), .achieved = known_median(ach, m),
			.p50_s = known_median(p50, m), .p99_s = known_median(p99, m),
			.p999_s = known_median(p999, m),
		};
	}
	for (size_t i = 0; i < s->nruns; i++) {
		const struct report_capacity *c = run_cap(s, i, ph);

		if (c && c->has_open_loop && report_run_of(s, k, i) && c->saturated)
			buf[nknees++] = c->knee;
	}
	*knee = median_of(buf, nknees);
	free(buf);
	*pts = v;
	*n = longest;
	return 0;
}

/* The curve's achieved rate at offered rate x, between its points; NAN off its ends. */
static double curve_at(const struct report_cap_point *v, size_t n, double x)
{
	for (size_t i = 0; i + 1 < n; i++) {
		double x0 = v[i].offered, x1 = v[i + 1].offered;

		if (x >= x0 && x <= x1)
			return x1 > x0 ? v[i].achieved + (x - x0) / (x1 - x0) *
					 (v[i + 1].achieved - v[i].achieved) : v[i].achieved;
	}
	return n && same_rate(x, v[n - 1].offered) ? v[n - 1].achieved : NAN;
}

/* ---- the charts ---- */

#define CH_W		((REPORT_CAP_W - GAP) / 2)
#define CH_LEFT		64
#define CH_RIGHT	14
#define CH_TOP		44
#define CH_BOTTOM	(REPORT_CAP_H - 92)	/* the plot's bottom; axis labels and key below */
#define CAP_HEAD	28

/* The phases with open-loop steps in any run. */
static bool phase_charted(const struct report_set *s, enum phase_id ph)
{
	for (size_t i = 0; i < s->nruns; i++) {
		const struct report_capacity *c = run_cap(s, i, ph);

		if (c && c->has_open_loop && c->nsteps)
			return true;
	}
	return false;
}

int report_capacity_svg_height(const struct report_set *s)
{
	int rows = 0;

	for (int p = 0; p < PH_COUNT; p++)
		rows += phase_charted(s, (enum phase_id)p);
	return rows ? CAP_HEAD + rows * (REPORT_CAP_H + GAP) : 0;
}

/* A linear axis 0..top in round steps. */
static double round_step(double max)
{
	double rough = (max > 0 && isfinite(max) ? max : 1) / 5, mag = pow(10, floor(log10(rough)));
	double f = rough / mag;

	return (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * mag;
}

/* "100us", "1ms", "10s": a power of ten of seconds. */
static void decade_label(char *buf, size_t len, int e)
{
	static const char *const units[] = { "ns", "us", "ms", "s" };
	int u = e < -9 ? 0 : e >= 0 ? 3 : (e + 9) / 3;
	int rest = e - (u * 3 - 9);

	if (e < -9 || e > 2)
		snprintf(buf, len, "1e%ds", e);
	else
		snprintf(buf, len, "%d%s", rest == 0 ? 1 : rest == 1 ? 10 : 100, units[u]);
}

/* The configurations' curves of phase ph, computed once for both charts. */
struct curves {
	struct report_cap_point **pts;
	size_t *n;
	double *knee;
};

static void curves_free(struct curves *cv, size_t nconfigs)
{
	for (size_t k = 0; cv->pts && k < nconfigs; k++)
		free(cv->pts[k]);
	free(cv->pts);
	free(cv->n);
	free(cv->knee);
}

static int curves_get(struct curves *cv, const struct report_set *s, enum phase_id ph)
{
	size_t nc = s->nconfigs ? s->nconfigs : 1;

	cv->pts = calloc(nc, sizeof(*cv->pts));
	cv->n = calloc(nc, sizeof(*cv->n));
	cv->knee = calloc(nc, sizeof(*cv->knee));
	if (!cv->pts || !cv->n || !cv->knee)
		goto fail;
	for (size_t k = 0; k < s->nconfigs; k++) {
		int ret = report_capacity_curve(s, k, ph, &cv->pts[k], &cv->n[k], &cv->knee[k]);

		if (ret == -ENOMEM)
			goto fail;
	}
	return 0;
fail:
	curves_free(cv, s->nconfigs);
	return -ENOMEM;
}

/* A chart's group (its class and phase, for whoever reads the SVG), frame and titles. */
static void chart_frame(FILE *out, const char *cls, enum phase_id ph, int x, int y,
			const char *title, const char *sub)
{
	fprintf(out, "<g class=\"cap-chart %s\" data-phase=\"%s\" transform=\"translate(%d,%d)\">\n",
		cls, phase_csv_name(ph), x, y);
	fprintf(out, "<rect x=\"0.5\" y=\"0.5\" width=\"%d\" height=\"%d\" fill=\"#fff\" stroke=\"#d0d0d0\"/>\n",
		CH_W - 1, REPORT_CAP_H - 1);
	fprintf(out, "<text x=\"10\" y=\"18\" font-size=\"13\" font-weight=\"bold\" fill=\"#111\">%s</text>\n",
		title);
	fprintf(out, "<text x=\"10\" y=\"33\" font-size=\"10\" fill=\"#555\">%s</text>\n", sub);
}

/* The configurations' key under a chart: a line of each one's colour and its number and name. */
static void chart_key(FILE *out, const struct report_set *s, const struct curves *cv)
{
	int shown = 0;

	for (size_t k = 0; k < s->nconfigs; k++) {
		double kx = 10 + (shown % 2) * (CH_W / 2.0);
		int ky = CH_BOTTOM + 52 + (shown / 2) * 14;

		if (!cv->n[k])
			continue;
		if (shown >= 4) {
			fprintf(out, "<text x=\"10\" y=\"%d\" font-size=\"10\" fill=\"#222\">and more (their titles name them)</text>\n",
				ky);
			break;
		}
		fprintf(out, "<g class=\"cap-key\"><line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"%s\" stroke-width=\"2\"/>",
			kx, ky - 4, kx + 18, ky - 4, report_chart_color(k));
		fprintf(out, "<text x=\"%.1f\" y=\"%d\" font-size=\"10\" fill=\"#222\">[%zu] ", kx + 23, ky, k + 1);
		report_xml_text_n(out, report_config_label(s, k), 30);
		fputs("</text></g>\n", out);
		shown++;
	}
}

/* Achieved against offered, linear, with y = x and each configuration's knee. */
static void chart_curve(FILE *out, const struct report_set *s, enum phase_id ph,
			const struct curves *cv, int x0, int y0)
{
	double max = 0, step, top, right = CH_W - CH_RIGHT;
	char title[96];

	for (size_t k = 0; k < s->nconfigs; k++)
		for (size_t i = 0; i < cv->n[k]; i++)
			max = fmax(max, fmax(cv->pts[k][i].offered, cv->pts[k][i].achieved));
	step = round_step(max);
	top = ceil(max / step - 1e-9) * step;
	if (!(top > 0))
		top = step;
	snprintf(title, sizeof(title), "%s: achieved against offered rate", phase_get(ph)->row_name);
	chart_frame(out, "cap-rate-chart", ph, x0, y0, title,
		    "medians over runs; dashed: y = x; ring: knee (achieved below 95%)");
#define PX(v) (CH_LEFT + (v) / top * (right - CH_LEFT))
#define PY(v) (CH_BOTTOM - fmin((v), top) / top * (CH_BOTTOM - CH_TOP))
	for (int t = 0; t * step <= top * (1 + 1e-9); t++) {
		fprintf(out, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\"/>",
			CH_LEFT, PY(t * step), right, PY(t * step), t ? "#ebebeb" : "#888");
		fprintf(out, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\" font-size=\"10\" fill=\"#444\">%g</text>\n",
			CH_LEFT - 5, PY(t * step) + 3.5, t * step);
		fprintf(out, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\" font-size=\"10\" fill=\"#444\">%g</text>\n",
			PX(t * step), CH_BOTTOM + 14, t * step);
	}
	fprintf(out, "<line class=\"cap-diagonal\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#999\" stroke-dasharray=\"5,4\"/>\n",
		PX(0), PY(0), PX(top), PY(top));
	fprintf(out, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\" font-size=\"11\" fill=\"#333\">offered, %s</text>\n",
		(CH_LEFT + right) / 2, CH_BOTTOM + 30, phase_unit_names(ph)->rate);
	fprintf(out, "<text transform=\"translate(14,%d) rotate(-90)\" text-anchor=\"middle\" font-size=\"11\" fill=\"#333\">achieved, %s</text>\n",
		(CH_TOP + CH_BOTTOM) / 2, phase_unit_names(ph)->rate);
	for (size_t k = 0; k < s->nconfigs; k++) {
		if (!cv->n[k])
			continue;
		fprintf(out, "<path class=\"cap-achieved\" data-config=\"%zu\" d=\"", k + 1);
		for (size_t i = 0; i < cv->n[k]; i++)
			fprintf(out, "%c%.1f %.1f", i ? 'L' : 'M', PX(cv->pts[k][i].offered),
				PY(cv->pts[k][i].achieved));
		fprintf(out, "\" fill=\"none\" stroke=\"%s\" stroke-width=\"1.8\" stroke-linejoin=\"round\"><title>[%zu] ",
			report_chart_color(k), k + 1);
		report_xml_text(out, report_config_label(s, k));
		fputs("</title></path>\n", out);
		for (size_t i = 0; i < cv->n[k]; i++)
			fprintf(out, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"2.5\" fill=\"%s\"><title>offered %.1f, achieved %.1f</title></circle>\n",
				PX(cv->pts[k][i].offered), PY(cv->pts[k][i].achieved), report_chart_color(k),
				cv->pts[k][i].offered, cv->pts[k][i].achieved);
		if (isfinite(cv->knee[k])) {
			double at = curve_at(cv->pts[k], cv->n[k], cv->knee[k]);

			/* the ring on the curve; off it (a median knee past its points), on the 95% line */
			if (!isfinite(at))
				at = cv->knee[k] * CAP_KNEE_SHARE;
			fprintf(out, "<g class=\"cap-knee\" data-config=\"%zu\"><line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" stroke-dasharray=\"2,3\"/><circle cx=\"%.1f\" cy=\"%.1f\" r=\"6\" fill=\"none\" stroke=\"%s\" stroke-width=\"2\"/><title>[%zu] knee at %.1f offered</title></g>\n",
				k + 1, PX(cv->knee[k]), CH_BOTTOM, PX(cv->knee[k]), PY(cv->knee[k]),
				report_chart_color(k), PX(cv->knee[k]), PY(at), report_chart_color(k),
				k + 1, cv->knee[k]);
		}
	}
#undef PX
#undef PY
	chart_key(out, s, cv);
	fputs("</g>\n", out);
}

static const struct {
	const char *cls, *label, *dash;
	size_t at;
} lat_lines[] = {
	{ "cap-p50", "p50", "", offsetof(struct report_cap_point, p50_s) },
	{ "cap-p99", "p99", "6,3", offsetof(struct report_cap_point, p99_s) },
	{ "cap-p999", "p99.9", "2,2", offsetof(struct report_cap_point, p999_s) },
};

/* The latencies from the schedule against offered rate, on a log axis of whole decades. */
static void chart_latency(FILE *out, const struct report_set *s, enum phase_id ph,
			  const struct curves *cv, int x0, int y0)
{
	double lo = INFINITY, hi = 0, xmax = 0, step, top, right = CH_W - CH_RIGHT;
	int elo, ehi;
	char title[96];

	for (size_t k = 0; k < s->nconfigs; k++)
		for (size_t i = 0; i < cv->n[k]; i++) {
			xmax = fmax(xmax, cv->pts[k][i].offered);
			for (size_t l = 0; l < sizeof(lat_lines) / sizeof(lat_lines[0]); l++) {
				double v = *(const double *)((const char *)&cv->pts[k][i] + lat_lines[l].at);

				if (isfinite(v) && v > 0) {
					lo = fmin(lo, v);
					hi = fmax(hi, v);
				}
			}
		}
	if (!(hi > 0)) {
		lo = 1e-3;
		hi = 1e-3;
	}
	elo = (int)floor(log10(lo) + 1e-9);
	ehi = (int)ceil(log10(hi) - 1e-9);
	if (ehi <= elo)
		ehi = elo + 1;
	step = round_step(xmax);
	top = ceil(xmax / step - 1e-9) * step;
	if (!(top > 0))
		top = step;
	snprintf(title, sizeof(title), "%s: latency against offered rate", phase_get(ph)->row_name);
	chart_frame(out, "cap-latency-chart", ph, x0, y0, title,
		    "from the schedule, log scale; solid p50, dashed p99, dotted p99.9");
#define PX(v) (CH_LEFT + (v) / top * (right - CH_LEFT))
#define PY(v) (CH_BOTTOM - (log10(v) - elo) / (ehi - elo) * (CH_BOTTOM - CH_TOP))
	for (int e = elo; e <= ehi; e++) {
		char lab[16];

		decade_label(lab, sizeof(lab), e);
		fprintf(out, "<line class=\"cap-decade\" x1=\"%d\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\"/>",
			CH_LEFT, PY(pow(10, e)), right, PY(pow(10, e)), e > elo ? "#ebebeb" : "#888");
		fprintf(out, "<text class=\"cap-log-tick\" x=\"%d\" y=\"%.1f\" text-anchor=\"end\" font-size=\"10\" fill=\"#444\">%s</text>\n",
			CH_LEFT - 5, PY(pow(10, e)) + 3.5, lab);
	}
	for (int t = 0; t * step <= top * (1 + 1e-9); t++)
		fprintf(out, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\" font-size=\"10\" fill=\"#444\">%g</text>\n",
			PX(t * step), CH_BOTTOM + 14, t * step);
	fprintf(out, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\" font-size=\"11\" fill=\"#333\">offered, %s</text>\n",
		(CH_LEFT + right) / 2, CH_BOTTOM + 30, phase_unit_names(ph)->rate);
	fprintf(out, "<text transform=\"translate(14,%d) rotate(-90)\" text-anchor=\"middle\" font-size=\"11\" fill=\"#333\">latency (log)</text>\n",
		(CH_TOP + CH_BOTTOM) / 2);
	for (size_t k = 0; k < s->nconfigs; k++) {
		for (size_t l = 0; l < sizeof(lat_lines) / sizeof(lat_lines[0]) && cv->n[k]; l++) {
			bool pen = false;

			fprintf(out, "<path class=\"cap-latency %s\" data-config=\"%zu\" d=\"", lat_lines[l].cls,
				k + 1);
			for (size_t i = 0; i < cv->n[k]; i++) {
				double v = *(const double *)((const char *)&cv->pts[k][i] + lat_lines[l].at);

				if (!(isfinite(v) && v > 0)) {
					pen = false;
					continue;
				}
				fprintf(out, "%c%.1f %.1f", pen ? 'L' : 'M', PX(cv->pts[k][i].offered), PY(v));
				pen = true;
			}
			fprintf(out, "\" fill=\"none\" stroke=\"%s\" stroke-width=\"1.6\"%s%s%s><title>[%zu] %s ",
				report_chart_color(k), lat_lines[l].dash[0] ? " stroke-dasharray=\"" : "",
				lat_lines[l].dash, lat_lines[l].dash[0] ? "\"" : "", k + 1, lat_lines[l].label);
			report_xml_text(out, report_config_label(s, k));
			fputs("</title></path>\n", out);
		}
	}
#undef PX
#undef PY
	chart_key(out, s, cv);
	fputs("</g>\n", out);
}

void report_capacity_svg_charts(FILE *out, const struct report_set *s, int y)
{
	if (!report_capacity_svg_height(s))
		return;
	fprintf(out, "<text x=\"%d\" y=\"%d\" font-size=\"15\" font-weight=\"bold\" fill=\"#111\">Open-loop load: achieved rate and latency against offered rate</text>\n",
		MARGIN, y + 18);
	y += CAP_HEAD;
	for (int p = 0; p < PH_COUNT; p++) {
		struct curves cv;

		if (!phase_charted(s, (enum phase_id)p))
			continue;
		if (curves_get(&cv, s, (enum phase_id)p)) {
			fprintf(out, "<text x=\"%d\" y=\"%d\" font-size=\"12\" fill=\"#999\">%s: out of memory</text>\n",
				MARGIN, y + 20, phase_get((enum phase_id)p)->row_name);
		} else {
			chart_curve(out, s, (enum phase_id)p, &cv, MARGIN, y);
			chart_latency(out, s, (enum phase_id)p, &cv, MARGIN + CH_W + GAP, y);
			curves_free(&cv, s->nconfigs);
		}
		y += REPORT_CAP_H + GAP;
	}
}

int report_capacity_svg_element(FILE *out, const struct report_set *s)
{
	int height = report_capacity_svg_height(s), width = REPORT_CAP_W + 2 * MARGIN;

	if (!height)
		return 0;
	height += MARGIN;
	fprintf(out, "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" viewBox=\"0 0 %d %d\" width=\"%d\" height=\"%d\" font-family=\"DejaVu Sans, Helvetica, Arial, sans-serif\">\n",
		width, height, width, height);
	fprintf(out, "<rect width=\"%d\" height=\"%d\" fill=\"#fff\"/>\n", width, height);
	report_capacity_svg_charts(out, s, 0);
	fputs("</svg>\n", out);
	return ferror(out) ? -EIO : 0;
}

/* The page's section: the text's tables as they are (fixed columns), then the charts. */
int report_capacity_html(FILE *out, const struct report_set *s)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *mem;
	int ret;

	if (!set_has_capacity(s))
		return 0;
	mem = open_memstream(&buf, &len);
	if (!mem)
		return -ENOMEM;
	ret = report_capacity_text(mem, s);
	if (fclose(mem) && !ret)
		ret = -ENOMEM;
	if (ret)
		goto out_buf;
	fputs("<h2>Capacity under a latency bound</h2>\n<p class=\"sub\">For the runs made with"
	      " <code>clyde --latency-target</code> (a closed-loop search over concurrency: the"
	      " highest rate whose percentile stays within the target) or <code>--open-loop</code>"
	      " (requests on a schedule, latency from the scheduled time; the knee is the offered"
	      " rate at which the achieved rate first falls below 95% of the offered).</p>\n<pre class=\"capacity\">",
	      out);
	report_xml_text(out, buf + (buf[0] == '\n'));
	fputs("</pre>\n<div class=\"charts\">\n", out);
	ret = report_capacity_svg_element(out, s);
	fputs("</div>\n", out);
	if (!ret && ferror(out))
		ret = -EIO;
out_buf:
	free(buf);
	return ret;
}
