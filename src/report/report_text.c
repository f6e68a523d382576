// SPDX-License-Identifier: BSD-2-Clause
/*
 * clyde-report's text: one block per configuration, one row per phase,
 * columns aligned across the whole report so that blocks compare by eye.
 * Without a baseline the figures are absolute (medians and spread of
 * the runs); with one they are ratios to the baseline, turned so that
 * above 1 is better, each marked with what Welch's t-test makes of it.
 * Runs of clyde --tree add a second table to their block, the tree
 * workloads, with two more measures: the tree's MiB/s and dead time.
 * Runs of clyde --profile add a table of what each phase cost: medians
 * of CPU per unit of work, in clyde and on the whole machine, and of
 * the device's amplification, always absolute. Runs with time series
 * (clyde-result/8) add one of each run's phases over time: the rate in
 * its first, middle and last tenth, and its longest stall.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/phase.h"
#include "report/report.h"

#define TEXT_COLS	12
#define CELL		48

enum align { LEFT, RIGHT };

struct column {
	const char *head;
	enum align align;
};

/* Without a baseline: what each phase measured. */
static const struct column absolute_cols[] = {
	{ "Phase", LEFT }, { "Rate", RIGHT }, { "Unit", LEFT }, { "Min..Max", RIGHT },
	{ "CV%", RIGHT }, { "n", RIGHT }, { "CPU s", RIGHT }, { "per", LEFT },
	{ "Latency us", RIGHT },
};

/* With one: ratios (marked), then the absolute rate for scale. */
static const struct column ratio_cols[] = {
	{ "Phase", LEFT }, { "Rate", RIGHT }, { "Min..Max", RIGHT }, { "CV%", RIGHT },
	{ "n", RIGHT }, { "CPU/unit", RIGHT }, { "Latency", RIGHT }, { "Mean rate", RIGHT },
	{ "Unit", LEFT },
};

/*
 * The tree workloads: the same columns with MiB/s and dead time before
 * the CPU (TREE_AT: the column they go in at), absolute or ratios.
 */
#define TREE_EXTRA	2
#define TREE_AT_ABSOLUTE	6
#define TREE_AT_RATIO	5

static const struct column tree_absolute_cols[] = {
	{ "Tree phase", LEFT }, { "Rate", RIGHT }, { "Unit", LEFT }, { "Min..Max", RIGHT },
	{ "CV%", RIGHT }, { "n", RIGHT }, { "MiB/s", RIGHT }, { "Dead s", RIGHT },
	{ "CPU s", RIGHT }, { "per", LEFT }, { "Latency us", RIGHT },
};

static const struct column tree_ratio_cols[] = {
	{ "Tree phase", LEFT }, { "Rate", RIGHT }, { "Min..Max", RIGHT }, { "CV%", RIGHT },
	{ "n", RIGHT }, { "MiB/s", RIGHT }, { "Dead", RIGHT }, { "CPU/unit", RIGHT },
	{ "Latency", RIGHT }, { "Mean rate", RIGHT }, { "Unit", LEFT },
};

/* The CPU cost of the phases that ran with --profile: medians, whether or not a baseline is set. */
static const struct column cost_cols[] = {
	{ "Phase", LEFT }, { "Clyde s", RIGHT }, { "Caused s", RIGHT }, { "per", LEFT },
	{ "Outside%", RIGHT }, { "Write amp", RIGHT }, { "Read amp", RIGHT }, { "n", RIGHT },
};

typedef char row_t[TEXT_COLS][CELL];

/* The row of phase ph in configuration k; false when the phase has nothing there. */
typedef bool row_fn(row_t row, const struct report_set *s, size_t k, enum phase_id ph);

struct table {
	const struct column *cols;
	unsigned ncols;
	size_t width[TEXT_COLS];
	row_fn *row;
	bool tree;		/* the tree phases' table, or every other phase's */
};

/* Whether table t has a row for phase ph, by what the phase's row says it is. */
static bool table_holds(const struct table *t, int ph)
{
	return (report_phase_table((enum phase_id)ph) == RT_TREE) == t->tree;
}

/* The unit of phase ph's rates in the blocks: the page's column's (MiB/s, GiB/s, ...). */
static void rate_display(struct report_display *d, const struct report_set *s, enum phase_id ph)
{
	report_column_display(d, s, ph, RM_RATE);
}

static const char *cpu_unit(enum phase_id ph)
{
	return phase_unit_names(ph)->cpu_per;
}

/* Whole numbers as whole numbers, the rest (medians of two, seeks/s below 1000) with one decimal. */
static void rate_text(char *buf, double v)
{
	snprintf(buf, CELL, v >= 1000 || v == floor(v) ? "%.0f" : "%.1f", v);
}

/* digits significant digits without an exponent (three: 1.70, 0.00188, 1638). */
static void sig_text(char *buf, double v, int digits)
{
	int decimals;

	if (v == 0 || !isfinite(v)) {
		snprintf(buf, CELL, "%.0f", v);
		return;
	}
	if (v < 1e-9 || v >= 1e15) {
		snprintf(buf, CELL, "%.2e", v);
		return;
	}
	decimals = digits - 1 - (int)floor(log10(v));
	snprintf(buf, CELL, "%.*f", decimals < 0 ? 0 : decimals, v);
}

static void ratio_text(char *buf, double r)
{
	if (r >= 1e15)
		snprintf(buf, CELL, "%.2e", r);
	else
		snprintf(buf, CELL, r >= 1000 ? "%.0f" : r >= 100 ? "%.1f" : "%.2f", r);
}

/* What to write beside a ratio: nothing for the baseline itself or a clear difference. */
static char ratio_mark(const struct report_set *s, size_t k, enum phase_id ph, enum report_measure m)
{
	const struct report_config *c = &s->configs[k];

	if ((size_t)s->baseline == k)
		return ' ';
	if (c->untestable[ph][m])
		return '?';
	return c->within_noise[ph][m] ? '~' : ' ';
}

static void ratio_cell(char *buf, const struct report_set *s, size_t k, enum phase_id ph,
		       enum report_measure m, const char *hidden)
{
	const struct report_config *c = &s->configs[k];
	size_t n;

	if (!c->stat[ph][m].n && c->hidden[ph] && hidden) {
		snprintf(buf, CELL, "%s", hidden);
		return;
	}
	if (!c->has_ratio[ph][m]) {
		snprintf(buf, CELL, "%s", c->stat[ph][m].n ? "-" : "");
		return;
	}
	ratio_text(buf, c->ratio[ph][m]);
	n = strlen(buf);
	buf[n] = ratio_mark(s, k, ph, m);
	buf[n + 1] = '\0';
}

/* n, "+N" for the runs that printed +++++, "^N" for those measured under 0.5 s (JSON). */
static void count_cell(char *buf, const struct report_config *c, enum phase_id ph)
{
	int n = snprintf(buf, CELL, "%u", c->stat[ph][RM_RATE].n);

	if (c->hidden[ph])
		n += snprintf(buf + n, CELL - (size_t)n, "+%u", c->hidden[ph]);
	if (c->too_short[ph])
		snprintf(buf + n, CELL - (size_t)n, "^%u", c->too_short[ph]);
}

/* Whether the phase's rate is a figure of fewer runs than the configuration has. */
static bool fewer_runs(const struct report_config *c, enum phase_id ph)
{
	unsigned n = c->stat[ph][RM_RATE].n;

	return n && n < c->runs;
}

void report_scaled_rate_text(char *buf, size_t len, double v, const struct report_display *d)
{
	char s[CELL];

	sig_text(s, v * d->scale, 4);
	snprintf(buf, len, "%s", s);
}

/* A rate (KiB/s, seeks/s, files/s) in the display's unit: seeks and files as they are. */
static void shown_rate_text(char *buf, double v, const struct report_display *d)
{
	if (d->scale == 1)
		rate_text(buf, v);
	else
		report_scaled_rate_text(buf, CELL, v, d);
}

/* A rate with "*" after it when fewer runs than the configuration's gave it. */
static void rate_cell(char *buf, const struct report_config *c, enum phase_id ph, double v,
		      const struct report_display *d)
{
	shown_rate_text(buf, v, d);
	if (fewer_runs(c, ph))
		strcat(buf, "*");
}

static void cv_cell(char *buf, const struct report_stat *st)
{
	if (st->n >= 2)
		snprintf(buf, CELL, "%.1f", st->cv_percent);
	else
		snprintf(buf, CELL, "%s", st->n ? "-" : "");
}

static void absolute_row(row_t row, const struct report_set *s, size_t k, enum phase_id ph)
{
	const struct report_config *c = &s->configs[k];
	const struct report_stat *rate = &c->stat[ph][RM_RATE], *cpu = &c->stat[ph][RM_CPU];
	const struct report_stat *lat = &c->stat[ph][RM_LATENCY];
	struct report_display d;
	char lo[CELL], hi[CELL];

	rate_display(&d, s, ph);
	if (rate->n)
		rate_cell(row[1], c, ph, rate->median, &d);
	if (rate->n >= 2) {
		shown_rate_text(lo, rate->min, &d);
		shown_rate_text(hi, rate->max, &d);
		snprintf(row[3], CELL, "%.20s..%.20s", lo, hi);
	} else if (rate->n) {
		snprintf(row[3], CELL, "-");
	} else if (c->hidden[ph]) {
		snprintf(row[1], CELL, "+++++");
	}
	snprintf(row[2], CELL, "%s", d.unit);
	cv_cell(row[4], rate);
	count_cell(row[5], c, ph);
	if (cpu->n) {
		sig_text(row[6], cpu->median, 3);
		snprintf(row[7], CELL, "%s", cpu_unit(ph));
	} else if (c->hidden[ph] && !rate->n) {
		snprintf(row[6], CELL, "+++");
	}
	if (lat->n)
		snprintf(row[8], CELL, "%.0f", lat->median);
}

static void ratio_row(row_t row, const struct report_set *s, size_t k, enum phase_id ph)
{
	const struct report_config *c = &s->configs[k];
	const struct report_stat *rate = &c->stat[ph][RM_RATE];
	const struct report_stat *base = &s->configs[s->baseline].stat[ph][RM_RATE];
	struct report_display d;
	char lo[CELL], hi[CELL];

	ratio_cell(row[1], s, k, ph, RM_RATE, "+++++");
	if (rate->n == 1)
		snprintf(row[2], CELL, "-");
	if (rate->n >= 2 && base->n && base->mean > 0) {
		ratio_text(lo, rate->min / base->mean);
		ratio_text(hi, rate->max / base->mean);
		snprintf(row[2], CELL, "%.20s..%.20s", lo, hi);
	}
	cv_cell(row[3], rate);
	count_cell(row[4], c, ph);
	ratio_cell(row[5], s, k, ph, RM_CPU, "+++");
	ratio_cell(row[6], s, k, ph, RM_LATENCY, NULL);
	rate_display(&d, s, ph);
	if (rate->n)
		rate_cell(row[7], c, ph, rate->mean, &d);
	snprintf(row[8], CELL, "%s", d.unit);
}

static bool phase_row(row_t row, const struct report_set *s, size_t k, enum phase_id ph)
{
	const struct report_config *c = &s->configs[k];
	bool any = c->hidden[ph];

	memset(row, 0, sizeof(row_t));
	for (int m = 0; m < RM_ALL; m++)
		any |= c->stat[ph][m].n > 0;
	if (!any)
		return false;
	snprintf(row[0], CELL, "%s", phase_get(ph)->row_name);
	if (s->baseline >= 0)
		ratio_row(row, s, k, ph);
	else
		absolute_row(row, s, k, ph);
	return true;
}

/* MiB/s with one decimal, dead seconds with three as clyde's own table has them; or their ratios. */
static void tree_cell(char *buf, const struct report_set *s, size_t k, enum phase_id ph,
		      enum report_measure m)
{
	const struct report_stat *st = &s->configs[k].stat[ph][m];

	if (s->baseline >= 0)
		ratio_cell(buf, s, k, ph, m, NULL);
	else if (st->n)
		snprintf(buf, CELL, m == RM_DEAD ? "%.3f" : "%.1f", st->median);
}

/* A tree phase's row: phase_row's cells, with MiB/s and dead time let in before the CPU. */
static bool tree_row(row_t row, const struct report_set *s, size_t k, enum phase_id ph)
{
	int at = s->baseline >= 0 ? TREE_AT_RATIO : TREE_AT_ABSOLUTE;

	if (!phase_row(row, s, k, ph))
		return false;
	memmove(row[at + TREE_EXTRA], row[at], (size_t)(TEXT_COLS - TREE_EXTRA - at) * CELL);
	memset(row[at], 0, TREE_EXTRA * CELL);
	tree_cell(row[at], s, k, ph, RM_MIBS);
	tree_cell(row[at + 1], s, k, ph, RM_DEAD);
	return true;
}

static void measure(struct table *t, const struct report_set *s)
{
	row_t row;

	for (unsigned i = 0; i < t->ncols; i++)
		t->width[i] = strlen(t->cols[i].head);
	for (size_t k = 0; k < s->nconfigs; k++) {
		for (int ph = 0; ph < PH_COUNT; ph++) {
			if (!table_holds(t, ph) || !t->row(row, s, k, (enum phase_id)ph))
				continue;
			for (unsigned i = 0; i < t->ncols; i++)
				if (strlen(row[i]) > t->width[i])
					t->width[i] = strlen(row[i]);
		}
	}
}

static void print_cells(FILE *out, const struct table *t, const char *const *cells)
{
	char line[TEXT_COLS * (CELL + 2) + 4];
	size_t used = 0;

	for (unsigned i = 0; i < t->ncols; i++) {
		int w = (int)t->width[i];
		int n = snprintf(line + used, sizeof(line) - used, "  %*s",
				 t->cols[i].align == LEFT ? -w : w, cells[i]);

		if (n < 0 || (size_t)n >= sizeof(line) - used)
			break;
		used += (size_t)n;
	}
	while (used && line[used - 1] == ' ')
		used--;
	line[used] = '\0';
	fprintf(out, "%s\n", line);
}

static void print_row(FILE *out, const struct table *t, row_t row)
{
	const char *cells[TEXT_COLS];

	for (unsigned i = 0; i < t->ncols; i++)
		cells[i] = row[i];
	print_cells(out, t, cells);
}

static void print_heads(FILE *out, const struct table *t)
{
	const char *cells[TEXT_COLS];

	for (unsigned i = 0; i < t->ncols; i++)
		cells[i] = t->cols[i].head;
	print_cells(out, t, cells);
}

/* ---- the CPU cost of profiled runs ---- */

double report_prof_value(const struct report_profile *p, enum report_prof_measure m)
{
	switch (m) {
	case RP_CLYDE:
		return p->clyde_per_unit;
	case RP_CAUSED:
		return p->caused_per_unit;
	case RP_OUTSIDE:
		return p->outside_fraction;
	case RP_WRITE_AMP:
		return p->write_amp;
	case RP_READ_AMP:
		return p->read_amp;
	default:
		return NAN;
	}
}

/* Configurations hold no list of their runs: a run is k's when it has k's key. */
static bool run_of(const struct report_set *s, size_t k, size_t i)
{
	return report_run_of(s, k, i);
}

unsigned report_prof_runs(const struct report_set *s, size_t k, enum phase_id ph)
{
	unsigned n = 0;

	for (size_t i = s->configs[k].first_run; i < s->nruns; i++)
		n += s->runs[i].prof[ph].has && run_of(s, k, i);
	return n;
}

static int by_value(const void *pa, const void *pb)
{
	double a = *(const double *)pa, b = *(const double *)pb;

	return a < b ? -1 : a > b;
}

int report_prof_median(const struct report_set *s, size_t k, enum phase_id ph,
		       enum report_prof_measure m, double *median)
{
	unsigned n = report_prof_runs(s, k, ph), used = 0;
	double *v;

	if (!n)
		return -ENOENT;
	v = malloc(n * sizeof(*v));
	if (!v)
		return -ENOMEM;
	for (size_t i = s->configs[k].first_run; i < s->nruns && used < n; i++) {
		const struct report_profile *p = &s->runs[i].prof[ph];
		double x;

		if (!p->has || !run_of(s, k, i))
			continue;
		x = report_prof_value(p, m);
		if (isfinite(x))
			v[used++] = x;
	}
	if (used) {
		qsort(v, used, sizeof(*v), by_value);
		*median = report_median(v, used);
	}
	free(v);
	return used ? 0 : -ENOENT;
}

static unsigned profiled_runs(const struct report_set *s, size_t k)
{
	unsigned n = 0;

	for (size_t i = s->configs[k].first_run; i < s->nruns; i++)
		n += s->runs[i].has_profile && run_of(s, k, i);
	return n;
}

/* One median of the cost row: "-" when no run knows it; 0 or -ENOMEM. */
static int cost_cell(char *buf, const struct report_set *s, size_t k, enum phase_id ph,
		     enum report_prof_measure m)
{
	double v;
	int ret = report_prof_median(s, k, ph, m, &v);

	if (ret == -ENOENT) {
		snprintf(buf, CELL, "-");
		return 0;
	}
	if (ret)
		return ret;
	if (m == RP_CLYDE || m == RP_CAUSED)
		sig_text(buf, v, 3);
	else if (m == RP_OUTSIDE)
		snprintf(buf, CELL, "%.1f", v * 100);
	else
		snprintf(buf, CELL, "%.2f", v);
	return 0;
}

/* The cost row of phase ph in configuration k: 1, 0 when no run profiled it, or -ENOMEM. */
static int cost_row(row_t row, const struct report_set *s, size_t k, enum phase_id ph)
{
	static const int col[RP_COUNT] = {
		[RP_CLYDE] = 1, [RP_CAUSED] = 2, [RP_OUTSIDE] = 4, [RP_WRITE_AMP] = 5, [RP_READ_AMP] = 6,
	};
	unsigned n = report_prof_runs(s, k, ph);

	memset(row, 0, sizeof(row_t));
	if (!n)
		return 0;
	snprintf(row[0], CELL, "%s", phase_get(ph)->row_name);
	snprintf(row[3], CELL, "%s", report_profile_unit(ph));
	snprintf(row[7], CELL, "%u", n);
	for (int m = 0; m < RP_COUNT; m++) {
		int ret;

		/* a phase that reads nothing of the file has no read amplification to show */
		if (m == RP_READ_AMP && !(phase_get(ph)->flags & PF_READS_FILE))
			continue;
		ret = cost_cell(row[col[m]], s, k, ph, (enum report_prof_measure)m);
		if (ret)
			return ret;
	}
	return 1;
}

static int cost_measure(struct table *t, const struct report_set *s)
{
	row_t row;

	for (unsigned i = 0; i < t->ncols; i++)
		t->width[i] = strlen(t->cols[i].head);
	for (size_t k = 0; k < s->nconfigs; k++) {
		for (int ph = 0; ph < PH_COUNT; ph++) {
			int ret = cost_row(row, s, k, (enum phase_id)ph);

			if (ret < 0)
				return ret;
			for (unsigned i = 0; ret && i < t->ncols; i++)
				if (strlen(row[i]) > t->width[i])
					t->width[i] = strlen(row[i]);
		}
	}
	return 0;
}

/* After the blocks, where any run was profiled: one block per configuration that was. */
static int print_costs(FILE *out, const struct report_set *s)
{
	struct table t = { .cols = cost_cols, .ncols = sizeof(cost_cols) / sizeof(cost_cols[0]) };
	bool any = false;
	row_t row;
	int ret;

	for (size_t i = 0; i < s->nruns && !any; i++)
		any = s->runs[i].has_profile;
	if (!any)
		return 0;
	ret = cost_measure(&t, s);
	if (ret)
		return ret;
	fputs("\nCPU cost (--profile): medians over the runs that profiled the phase, never ratios.\n"
	      "Clyde s: CPU seconds (user + system) of clyde's process per GiB, per 1000 seeks or\n"
	      "  per 1000 files; Caused s: the CPU seconds the phase caused on the whole machine\n"
	      "  (clyde's process, every kernel thread, interrupts) per the same unit.\n"
	      "Outside%: the share of the caused CPU spent outside clyde's process.\n"
	      "Write amp, Read amp: the device's bytes written (read) over the bytes clyde wrote (read).\n"
	      "-: not known (not measured, or no block device); n: runs with a profile of the phase.\n",
	      out);
	for (size_t k = 0; k < s->nconfigs; k++) {
		const struct report_config *c = &s->configs[k];
		unsigned n = profiled_runs(s, k);

		if (!n)
			continue;
		fprintf(out, "\n[%zu] %s: %u of %u run%s profiled\n", k + 1, c->key, n, c->runs,
			c->runs == 1 ? "" : "s");
		print_heads(out, &t);
		for (int ph = 0; ph < PH_COUNT; ph++) {
			ret = cost_row(row, s, k, (enum phase_id)ph);
			if (ret < 0)
				return ret;
			if (ret)
				print_row(out, &t, row);
		}
	}
	return 0;
}

/* ---- the time series (clyde-result/8) ---- */

static const struct column series_cols[] = {
	{ "Phase", LEFT }, { "Run", RIGHT }, { "Intervals", RIGHT }, { "First 10%", RIGHT },
	{ "Middle 10%", RIGHT }, { "Last 10%", RIGHT }, { "Unit", LEFT }, { "Stall s", RIGHT },
	{ "at s", RIGHT },
};

#define SERIES_NCOLS (sizeof(series_cols) / sizeof(series_cols[0]))

/* Seconds of a stall or a place in a phase: milliseconds are the finest an interval gets. */
static void seconds_text(char *buf, double v)
{
	snprintf(buf, CELL, "%.3f", v);
}

/* The row of run i's series of phase ph (j: the run's number in its configuration); false: none. */
static bool series_row(row_t row, const struct report_set *s, size_t i, unsigned j,
		       enum phase_id ph)
{
	const struct report_series *se = s->runs[i].series[ph];
	struct report_display d;
	struct report_stall st;
	double tenth[3];

	memset(row, 0, sizeof(row_t));
	if (!se)
		return false;
	report_series_tenths(se, tenth);
	report_tenths_display(&d, ph, tenth);
	snprintf(row[0], CELL, "%s", phase_get(ph)->row_name);
	snprintf(row[1], CELL, "%u", j);
	snprintf(row[2], CELL, "%zu", se->n);
	for (int t = 0; t < 3; t++) {
		/* a share of whole intervals' work: whole numbers where it comes out whole */
		double whole = round(tenth[t]);

		if (isfinite(tenth[t]) && fabs(tenth[t] - whole) <= 1e-9 * fmax(1, tenth[t]))
			shown_rate_text(row[3 + t], whole, &d);
		else if (isfinite(tenth[t]))
			shown_rate_text(row[3 + t], tenth[t], &d);
		else
			snprintf(row[3 + t], CELL, "-");
	}
	snprintf(row[6], CELL, "%s", d.unit);
	if (report_series_stall(se, &st)) {
		seconds_text(row[7], st.length_s);
		seconds_text(row[8], st.start_s);
	} else {
		snprintf(row[7], CELL, "-");
	}
	return true;
}

struct series_out {
	FILE *out;			/* NULL: widen the table's columns only */
	struct table *t;
	const struct report_set *s;
};

/* One row of the series section: its columns widened, or printed. */
static void series_each_row(void *arg, size_t i, unsigned j, enum phase_id ph)
{
	struct series_out *so = arg;
	row_t row;

	if (!series_row(row, so->s, i, j, ph))
		return;
	if (so->out) {
		print_row(so->out, so->t, row);
		return;
	}
	for (unsigned c = 0; c < so->t->ncols; c++)
		if (strlen(row[c]) > so->t->width[c])
			so->t->width[c] = strlen(row[c]);
}

static unsigned series_runs(const struct report_set *s, size_t k)
{
	unsigned n = 0;

	for (size_t i = s->configs[k].first_run; i < s->nruns; i++)
		n += s->runs[i].has_series && report_run_of(s, k, i);
	return n;
}

/* After the blocks, where any run has a time series: what the rate did over each phase's time. */
static void print_series(FILE *out, const struct report_set *s)
{
	struct table t = { .cols = series_cols, .ncols = SERIES_NCOLS };
	struct series_out so = { .out = NULL, .t = &t, .s = s };

	if (!report_series_shown(s))
		return;
	for (unsigned i = 0; i < t.ncols; i++)
		t.width[i] = strlen(t.cols[i].head);
	for (size_t k = 0; k < s->nconfigs; k++)
		report_series_each(s, k, series_each_row, &so);
	so.out = out;
	fputs("\nOver time (the runs' time series): the rate in the first, middle and last tenth of\n"
	      "  each phase's time, never ratios; Run: the run's number in its configuration, in the\n"
	      "  order read; Intervals: the series' rows. Stall s: the longest run of intervals in\n"
	      "  which no operation completed, and at s where it began (seconds since the phase's\n"
	      "  start); -: none.\n", out);
	for (size_t k = 0; k < s->nconfigs; k++) {
		const struct report_config *c = &s->configs[k];
		unsigned n = series_runs(s, k);

		if (!n)
			continue;
		fprintf(out, "\n[%zu] %s: %u of %u run%s with a series\n", k + 1, c->key, n, c->runs,
			c->runs == 1 ? "" : "s");
		print_heads(out, &t);
		report_series_each(s, k, series_each_row, &so);
	}
}

/* The marks of the n column and the rates, where some cell has them. */
static void print_marks(FILE *out, const struct report_set *s, const char *rate_col)
{
	bool fewer = false, short_runs = false;

	for (size_t k = 0; k < s->nconfigs; k++) {
		for (int ph = 0; ph < PH_COUNT; ph++) {
			fewer |= fewer_runs(&s->configs[k], (enum phase_id)ph);
			short_runs |= s->configs[k].too_short[ph] > 0;
		}
	}
	if (fewer)
		fprintf(out, "*: after a %s, a figure of fewer runs than the configuration has (n says how\n"
			"  many had a rate).\n", rate_col);
	if (short_runs)
		fputs("^N: after n, N runs ran the phase for under 0.5 s (JSON too_short); their rates are\n"
		      "  measured and counted here and in the history (their CSV line prints +++++).\n", out);
}

static void print_legend(FILE *out, const struct report_set *s, bool trees)
{
	fprintf(out, "clyde-report: %zu run%s in %zu configuration%s", s->nruns, s->nruns == 1 ? "" : "s",
		s->nconfigs, s->nconfigs == 1 ? "" : "s");
	if (s->errors)
		fprintf(out, "; %u malformed line%s skipped", s->errors, s->errors == 1 ? "" : "s");
	fputs("\n", out);
	if (s->baseline < 0) {
		fputs("Rate: the median of the runs, in MiB/s or GiB/s (I/O phases, "
		      "1 MiB = 1024 KiB; the\n"
		      "  page's unit for the phase, to 4 significant digits), seeks/s or files/s;\n"
		      "  Min..Max and CV% over the runs; n: runs with a rate (+N: runs that printed +++++).\n"
		      "CPU s: the median CPU seconds (user + system) per MiB, per 1000 seeks or per 1000 files.\n"
		      "Latency us: the median of the runs' slowest operation, in microseconds.\n"
		      "+++++ / +++: the phase was too short to measure in every run.\n", out);
		print_marks(out, s, "Rate");
		if (trees)
			fputs("Tree workloads (clyde --tree), in a table of their own: Rate in files/s (entries/s\n"
			      "  for the walk); MiB/s: the tree's bytes over the phase's time; Dead s: the median\n"
			      "  wall time less user CPU (system CPU and waiting), in seconds.\n", out);
		return;
	}
	fprintf(out, "Baseline: [%d] %s\n", s->baseline + 1, s->configs[s->baseline].key);
	fputs("Every figure is a ratio of means to the baseline's (baseline = 1.00), turned so\n"
	      "  that > 1.00 is better: a higher rate, less CPU per unit of work, a lower latency.\n"
	      "  Min..Max: the runs' lowest and highest rate over the baseline's mean rate.\n"
	      "Mean rate: the mean of the runs, in MiB/s or GiB/s (I/O phases, 1 MiB = 1024 KiB;\n"
	      "  the page's unit for the phase, to 4 significant digits), seeks/s or files/s.\n"
	      "Marks: ~ within the noise (Welch's t-test of the same means, p >= 0.05); unmarked:\n"
	      "  a difference (Welch's t-test, p < 0.05); ? fewer than 2 runs on a side: cannot tell.\n", out);
	print_marks(out, s, "Mean rate");
	if (trees)
		fputs("Tree workloads (clyde --tree), in a table of their own: MiB/s and Dead (wall time\n"
		      "  less user CPU) are ratios too: more MiB/s, less dead time is better.\n", out);
}

/* Under a configuration's head: what its runs say their reads may not be. */
static void print_cautions(FILE *out, const struct report_config *c)
{
	for (int k = 0; k < CAUTION_COUNT; k++)
		if (c->caution[k])
			fprintf(out, "  caution: %u of %u run%s %s\n", c->caution[k], c->runs,
				c->runs == 1 ? "" : "s", report_caution_text((enum report_caution)k));
}

static void print_block_head(FILE *out, const struct report_set *s, size_t k)
{
	const struct report_config *c = &s->configs[k];

	fprintf(out, "\n[%zu] %s: %u run%s (%s)", k + 1, c->key, c->runs, c->runs == 1 ? "" : "s",
		c->origins);
	if (s->baseline < 0) {
		fputc('\n', out);
		print_cautions(out, c);
		return;
	}
	if ((size_t)s->baseline == k)
		fputs("; the baseline", out);
	else if (c->geomean_n)
		fprintf(out, "; geometric mean of rate ratios %.2f over %u phase%s", c->geomean,
			c->geomean_n, c->geomean_n == 1 ? "" : "s");
	else if (!report_has_rate_ratio(c))
		fputs("; no rate to compare", out);
	else
		fputs("; no geometric mean: no phase has a rate ratio in every configuration", out);
	fputc('\n', out);
	print_cautions(out, c);
}

/* A phase some configurations have a rate ratio for and others not: out of every mean. */
static void print_left_out(void *arg, const struct report_set *s, enum phase_id ph,
			   const char *which, bool first)
{
	FILE *out = arg;

	if (first && s->geomean_phases)
		fprintf(out, "Every mean is over the same %u phase%s, those every configuration with a\n"
			"  rate ratio has one for; left out of all:\n", s->geomean_phases,
			s->geomean_phases == 1 ? "" : "s");
	else if (first)
		fputs("No phase has a rate ratio in every configuration that has one: no mean; the\n"
		      "  phases:\n", out);
	fprintf(out, "  %s: no rate in %s\n", phase_get(ph)->row_name, which);
}

static void print_geomeans(FILE *out, const struct report_set *s)
{
	int width = 0;

	fputs("\nGeometric mean of the rate ratios (> 1.00: faster than the baseline)\n", out);
	for (size_t k = 0; k < s->nconfigs; k++) {
		int n = snprintf(NULL, 0, "[%zu]", k + 1);

		width = n > width ? n : width;
	}
	for (size_t k = 0; k < s->nconfigs; k++) {
		const struct report_config *c = &s->configs[k];
		char id[24];

		snprintf(id, sizeof(id), "[%zu]", k + 1);
		if (c->geomean_n)
			fprintf(out, "  %-*s  %5.2f  %s%s\n", width, id, c->geomean, c->key,
				(size_t)s->baseline == k ? " (baseline)" : "");
		else
			fprintf(out, "  %-*s  %5s  %s\n", width, id, "-", c->key);
	}
	report_geomean_left_out_each(s, print_left_out, out);
}

/* Whether table t has a row in configuration k. */
static bool table_has(const struct table *t, const struct report_set *s, size_t k)
{
	row_t row;

	for (int ph = 0; ph < PH_COUNT; ph++)
		if (table_holds(t, ph) && t->row(row, s, k, (enum phase_id)ph))
			return true;
	return false;
}

static void print_table(FILE *out, const struct table *t, const struct report_set *s, size_t k)
{
	row_t row;

	print_heads(out, t);
	for (int ph = 0; ph < PH_COUNT; ph++)
		if (table_holds(t, ph) && t->row(row, s, k, (enum phase_id)ph))
			print_row(out, t, row);
}

/*
 * The tree the configuration's runs made (one tree: its shape, scale and
 * seed are in the key), as clyde's own text gives it: the directories
 * under the root, which the JSON's dirs counts too.
 */
static void print_tree_head(FILE *out, const struct report_set *s, size_t k)
{
	const struct report_run *r = &s->runs[s->configs[k].first_run];

	fprintf(out, "  Tree workloads: %.0f files, %.0f directories, %.1f MiB\n", r->tree_files,
		r->tree_dirs, r->tree_bytes / (1024.0 * 1024.0));
}

int report_text(FILE *out, const struct report_set *s)
{
	bool base = s->baseline >= 0, trees = false;
	struct table t = {
		.cols = base ? ratio_cols : absolute_cols,
		.ncols = base ? sizeof(ratio_cols) / sizeof(ratio_cols[0]) :
			 sizeof(absolute_cols) / sizeof(absolute_cols[0]),
		.row = phase_row, .tree = false,
	};
	struct table tree = {
		.cols = base ? tree_ratio_cols : tree_absolute_cols,
		.ncols = base ? sizeof(tree_ratio_cols) / sizeof(tree_ratio_cols[0]) :
			 sizeof(tree_absolute_cols) / sizeof(tree_absolute_cols[0]),
		.row = tree_row, .tree = true,
	};
	int ret;

	/* getc_putc's records alone: their table, none of the runs' */
	if (!s->nruns) {
		ret = report_getc_text(out, s);
		return ret ? ret : fflush(out) ? -errno : ferror(out) ? -EIO : 0;
	}
	measure(&t, s);
	measure(&tree, s);
	for (size_t k = 0; k < s->nconfigs && !trees; k++)
		trees = table_has(&tree, s, k);
	print_legend(out, s, trees);
	for (size_t k = 0; k < s->nconfigs; k++) {
		bool has_tree = table_has(&tree, s, k);

		print_block_head(out, s, k);
		/* a configuration of trees alone (clyde -s 0 -n 0 --tree) has no bonnie++ table */
		if (!has_tree || table_has(&t, s, k))
			print_table(out, &t, s, k);
		if (has_tree) {
			print_tree_head(out, s, k);
			print_table(out, &tree, s, k);
		}
	}
	print_series(out, s);
	ret = print_costs(out, s);
	if (!ret)
		ret = report_split_text(out, s);
	if (!ret)
		ret = report_where_text(out, s);
	if (!ret)
		ret = report_where_moves_text(out, s);
	if (ret)
		return ret;
	if (s->baseline >= 0)
		print_geomeans(out, s);
	ret = report_age_text(out, s);
	if (!ret)
		ret = report_age_runs_text(out, s);
	if (!ret)
		ret = report_getc_text(out, s);
	if (!ret)
		ret = report_capacity_text(out, s);
	if (ret)
		return ret;
	if (fflush(out))
		return -errno;
	return ferror(out) ? -EIO : 0;
}
