// SPDX-License-Identifier: BSD-2-Clause
/*
 * clyde-report's statistics: runs grouped into configurations, each
 * phase and measure summarised (median, spread, CV), and every figure
 * compared with a baseline's by one statistic, the mean: the ratio of
 * the means says the direction and the size, Welch's t-test on the same
 * means whether it is more than noise. The t distribution is computed here, from the regularized
 * incomplete beta function, so that the report needs nothing but libm.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/phase.h"
#include "lib/strutil.h"
#include "report/report.h"

bool report_higher_is_better(enum report_measure m)
{
	return m == RM_RATE || m == RM_MIBS;
}

bool report_measure_applies(enum phase_id ph, enum report_measure m)
{
	return (m != RM_MIBS && m != RM_DEAD) || phase_get(ph)->kind == KIND_TREE;
}

enum report_table report_phase_table(enum phase_id ph)
{
	const struct phase_def *d = phase_get(ph);

	switch (d->kind) {
	case KIND_BONNIE:
		return d->slot < SLOT_FIRST_FILE ? RT_IO : RT_FILES;
	case KIND_TREE:
		return RT_TREE;
	default:
		return RT_OWN;
	}
}

bool report_ratio(enum report_measure m, double a, double base, double *ratio)
{
	double r;

	if (report_higher_is_better(m)) {
		if (!(base > 0))
			return false;
		r = a / base;
	} else if (a > 0) {
		r = base / a;
	} else if (a == 0 && base == 0) {
		r = 1;
	} else {
		return false;
	}
	if (!isfinite(r))
		return false;
	*ratio = r;
	return true;
}

bool report_mean_ratio(enum report_measure m, const struct report_stat *a,
		       const struct report_stat *base, double *ratio)
{
	return a->n && base->n && report_ratio(m, a->mean, base->mean, ratio);
}

double report_median(const double *sorted, unsigned n)
{
	if (!n)
		return 0;
	if (n % 2)
		return sorted[n / 2];
	/* halves first: the sum of two huge values must not overflow */
	return sorted[n / 2 - 1] / 2 + sorted[n / 2] / 2;
}

void report_stat_fill(struct report_stat *st, double *sorted, unsigned n)
{
	double sum = 0, squares = 0;

	memset(st, 0, sizeof(*st));
	st->values = sorted;
	st->n = n;
	if (!n)
		return;
	st->median = report_median(sorted, n);
	st->min = sorted[0];
	st->max = sorted[n - 1];
	for (unsigned i = 0; i < n; i++)
		sum += sorted[i];
	st->mean = sum / n;
	if (n < 2)
		return;
	/* two passes: the mean first, then the squares about it (no cancellation) */
	for (unsigned i = 0; i < n; i++)
		squares += (sorted[i] - st->mean) * (sorted[i] - st->mean);
	st->sd = sqrt(squares / (n - 1));
	st->cv_percent = st->mean > 0 ? st->sd / st->mean * 100.0 : 0;
}

/*
 * The continued fraction of I_x(a, b),
 *   1 / (1 + d1 / (1 + d2 / (1 + ...))),
 *   d(2m+1) = -(a + m)(a + b + m) x / ((a + 2m)(a + 2m + 1)),
 *   d(2m)   = m (b - m) x / ((a + 2m - 1)(a + 2m)),
 * evaluated front to back by the modified Lentz method; it converges
 * quickly for x below (a + 1) / (a + b + 2).
 */
static double beta_fraction(double a, double b, double x)
{
	const double tiny = 1e-300, eps = 1e-15;
	double f = 1, c = 1, d = 0;

	for (int j = 1; j <= 10000; j++) {
		double m = j / 2, num, delta;

		if (j % 2)
			num = -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1));
		else
			num = m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m));
		d = 1 + num * d;
		if (fabs(d) < tiny)
			d = tiny;
		c = 1 + num / c;
		if (fabs(c) < tiny)
			c = tiny;
		d = 1 / d;
		delta = c * d;
		f *= delta;
		if (fabs(delta - 1) < eps)
			break;
	}
	return 1 / f;
}

double report_incomplete_beta(double a, double b, double x)
{
	double front;

	if (!(a > 0) || !(b > 0) || !(x >= 0) || !(x <= 1) || !isfinite(a) || !isfinite(b))
		return NAN;
	if (x == 0 || x == 1)
		return x;
	/* I_x(a, b) = 1 - I_(1-x)(b, a): take the side where the fraction converges */
	if (x > (a + 1) / (a + b + 2))
		return 1 - report_incomplete_beta(b, a, 1 - x);
	front = exp(lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log1p(-x)) / a;
	return front * beta_fraction(a, b, x);
}

/* P(|T| >= |t|) for Student's t with df degrees of freedom: I_(df / (df + t^2))(df / 2, 1 / 2). */
double report_t_two_sided_p(double t, double df)
{
	if (!(df > 0) || isnan(t))
		return NAN;
	if (isinf(t))
		return 0;
	return report_incomplete_beta(df / 2, 0.5, df / (df + t * t));
}

double report_welch_p(const struct report_stat *a, const struct report_stat *b)
{
	double sea, seb, se, t, df, fa, fb;

	if (a->n < 2 || b->n < 2)
		return -1;
	/* the standard error without squaring the spreads, which overflows for rates past 1e154 */
	sea = a->sd / sqrt(a->n);
	seb = b->sd / sqrt(b->n);
	se = hypot(sea, seb);
	if (isnan(se))
		return NAN;
	/* no spread on either side: the same value, or certainly a different one */
	if (!(se > 0))
		return a->mean == b->mean ? 1 : 0;
	t = (a->mean - b->mean) / se;
	/* Welch-Satterthwaite, with the variances as fractions of se^2 so that nothing underflows */
	fa = (sea / se) * (sea / se);
	fb = (seb / se) * (seb / se);
	df = 1 / (fa * fa / (a->n - 1) + fb * fb / (b->n - 1));
	return report_t_two_sided_p(t, df);
}

static void free_configs(struct report_set *s)
{
	for (size_t i = 0; i < s->nconfigs; i++)
		for (int ph = 0; ph < PH_COUNT; ph++)
			for (int m = 0; m < RM_ALL; m++)
				free(s->configs[i].stat[ph][m].values);
	free(s->configs);
	s->configs = NULL;
	s->nconfigs = 0;
	s->baseline = -1;
}

struct keyed {
	const char *key;
	size_t index;
};

static int by_key_then_index(const void *pa, const void *pb)
{
	const struct keyed *a = pa, *b = pb;
	int c = strcmp(a->key, b->key);

	if (c)
		return c;
	return a->index < b->index ? -1 : a->index > b->index;
}

/* A group of runs with one key: its earliest run, and its number in key order. */
struct group {
	size_t first_run;
	size_t number;
};

static int by_first_run(const void *pa, const void *pb)
{
	const struct group *a = pa, *b = pb;

	return a->first_run < b->first_run ? -1 : a->first_run > b->first_run;
}

static int by_value(const void *pa, const void *pb)
{
	double a = *(const double *)pa, b = *(const double *)pb;

	return a < b ? -1 : a > b;
}

/*
 * Each run's configuration: runs sorted by key (then reading order) form
 * the groups; the groups are then numbered in the order their first
 * runs were read, which is the order of the report.
 */
static int assign_configs(struct report_set *s, size_t *config_of)
{
	struct keyed *sorted;
	struct group *groups = NULL;
	size_t *order = NULL, ngroups = 0;
	int ret = -ENOMEM;

	sorted = malloc(s->nruns * sizeof(*sorted));
	groups = malloc(s->nruns * sizeof(*groups));
	order = malloc(s->nruns * sizeof(*order));
	if (!sorted || !groups || !order)
		goto out;
	for (size_t i = 0; i < s->nruns; i++)
		sorted[i] = (struct keyed){ .key = s->runs[i].key, .index = i };
	qsort(sorted, s->nruns, sizeof(*sorted), by_key_then_index);
	for (size_t i = 0; i < s->nruns; i++) {
		if (i == 0 || strcmp(sorted[i].key, sorted[i - 1].key)) {
			groups[ngroups] = (struct group){ .first_run = sorted[i].index, .number = ngroups };
			ngroups++;
		}
		config_of[sorted[i].index] = ngroups - 1;
	}
	qsort(groups, ngroups, sizeof(*groups), by_first_run);
	for (size_t k = 0; k < ngroups; k++)
		order[groups[k].number] = k;
	for (size_t i = 0; i < s->nruns; i++)
		config_of[i] = order[config_of[i]];
	s->configs = calloc(ngroups, sizeof(*s->configs));
	if (!s->configs)
		goto out;
	s->nconfigs = ngroups;
	for (size_t k = 0; k < ngroups; k++)
		s->configs[k].first_run = groups[k].first_run;
	ret = 0;
out:
	free(order);
	free(groups);
	free(sorted);
	return ret;
}

/* Every configuration's values of one phase and measure, sorted and summarised. */
static int fill_measure(struct report_set *s, const size_t *config_of, size_t *count,
			enum phase_id ph, enum report_measure m)
{
	memset(count, 0, s->nconfigs * sizeof(*count));
	for (size_t i = 0; i < s->nruns; i++)
		count[config_of[i]] += s->runs[i].has[ph][m];
	for (size_t k = 0; k < s->nconfigs; k++) {
		struct report_stat *st = &s->configs[k].stat[ph][m];

		if (!count[k])
			continue;
		st->values = malloc(count[k] * sizeof(double));
		if (!st->values)
			return -ENOMEM;
	}
	memset(count, 0, s->nconfigs * sizeof(*count));
	for (size_t i = 0; i < s->nruns; i++) {
		size_t k = config_of[i];

		if (s->runs[i].has[ph][m])
			s->configs[k].stat[ph][m].values[count[k]++] = s->runs[i].v[ph][m];
	}
	for (size_t k = 0; k < s->nconfigs; k++) {
		struct report_stat *st = &s->configs[k].stat[ph][m];

		if (!count[k])
			continue;
		qsort(st->values, count[k], sizeof(double), by_value);
		report_stat_fill(st, st->values, (unsigned)count[k]);
	}
	return 0;
}

static const char *const caution_texts[CAUTION_COUNT] = {
	[CAUTION_LOOP_CACHED] = "ran on a loop device without direct I/O: their reads may have "
				"come from the host's page cache below the loop",
	[CAUTION_CACHE_BELOW] = "sought faster than any rotational device (the one they ran on "
				"says it is): a cache below clyde answered and their reads may be "
				"that cache's",
	[CAUTION_READ_BELOW] = "read an uncached file faster than any rotational disk streams "
			       "(the one they ran on says it is): a cache below clyde served "
			       "their reads",
};

const char *report_caution_text(enum report_caution k)
{
	return caution_texts[k];
}

/* Adds the run's tool to the configuration's list, once; a list too long ends in "...". */
static void add_origin(struct report_config *c, const struct report_run *r)
{
	size_t used = strlen(c->origins), n;
	char origin[64];
	const char *p;

	report_run_origin(origin, sizeof(origin), r);
	n = strlen(origin);
	for (p = c->origins; (p = strstr(p, origin)); p += n)
		if ((p == c->origins || p[-1] == ' ') && (p[n] == ',' || p[n] == '\0'))
			return;
	if (used && !strcmp(c->origins + used - 3, "..."))
		return;
	if (used + n + 2 + 5 >= sizeof(c->origins)) {
		str_copy(c->origins + used, sizeof(c->origins) - used, used ? ", ..." : "...");
		return;
	}
	snprintf(c->origins + used, sizeof(c->origins) - used, "%s%s", used ? ", " : "", origin);
}

int report_group(struct report_set *s)
{
	size_t *config_of = NULL, *count = NULL;
	int ret;

	free_configs(s);
	if (!s->nruns)
		return 0;
	ret = -ENOMEM;
	config_of = malloc(s->nruns * sizeof(*config_of));
	count = malloc(s->nruns * sizeof(*count));
	if (!config_of || !count)
		goto out;
	ret = assign_configs(s, config_of);
	if (ret)
		goto out;
	for (size_t k = 0; k < s->nconfigs; k++) {
		const struct report_run *r = &s->runs[s->configs[k].first_run];

		str_copy(s->configs[k].key, sizeof(s->configs[k].key), r->key);
		str_copy(s->configs[k].name, sizeof(s->configs[k].name), r->name);
	}
	for (size_t i = 0; i < s->nruns; i++) {
		struct report_config *c = &s->configs[config_of[i]];

		c->runs++;
		for (int ph = 0; ph < PH_COUNT; ph++) {
			c->hidden[ph] += s->runs[i].hidden[ph];
			c->too_short[ph] += s->runs[i].too_short[ph];
		}
		for (int k = 0; k < CAUTION_COUNT; k++)
			c->caution[k] += s->runs[i].env.caution[k];
		add_origin(c, &s->runs[i]);
	}
	for (int ph = 0; ph < PH_COUNT && !ret; ph++)
		for (int m = 0; m < RM_ALL && !ret; m++)
			ret = fill_measure(s, config_of, count, (enum phase_id)ph, (enum report_measure)m);
	if (ret)
		goto out_configs;
	report_compare(s, -1);
	goto out;
out_configs:
	free_configs(s);
out:
	free(count);
	free(config_of);
	return ret;
}

int report_find_config(const struct report_set *s, const char *which)
{
	int found = -ENOENT;

	if (!strcmp(which, "first"))
		return s->nconfigs ? 0 : -ENOENT;
	for (size_t i = 0; i < s->nconfigs; i++)
		if (!strcmp(s->configs[i].key, which))
			return (int)i;
	for (size_t i = 0; i < s->nconfigs; i++) {
		if (strcmp(s->configs[i].name, which))
			continue;
		if (found >= 0)
			return -EINVAL;
		found = (int)i;
	}
	return found;
}

static void clear_comparison(struct report_config *c)
{
	memset(c->has_ratio, 0, sizeof(c->has_ratio));
	memset(c->ratio, 0, sizeof(c->ratio));
	memset(c->within_noise, 0, sizeof(c->within_noise));
	memset(c->untestable, 0, sizeof(c->untestable));
	for (int ph = 0; ph < PH_COUNT; ph++)
		for (int m = 0; m < RM_ALL; m++)
			c->p_value[ph][m] = -1;
	c->geomean = 0;
	c->geomean_n = 0;
}

static bool rate_ratio_of(const struct report_config *c, int ph)
{
	return c->has_ratio[ph][RM_RATE] && c->ratio[ph][RM_RATE] > 0;
}

bool report_has_rate_ratio(const struct report_config *c)
{
	for (int ph = 0; ph < PH_COUNT; ph++)
		if (rate_ratio_of(c, ph))
			return true;
	return false;
}

/*
 * The phases every configuration with a rate ratio has one for (the
 * baseline's with itself included): the geometric means cover these
 * alone, so that a configuration that lacks a phase does not make its
 * mean one of other phases than the rest's. A configuration with no rate
 * ratio at all (no phase in common with the baseline) has no mean, and
 * takes nothing from the others'.
 */
static void geomean_phases(struct report_set *s)
{
	s->geomean_phases = 0;
	for (int ph = 0; ph < PH_COUNT; ph++) {
		bool all = s->baseline >= 0;

		for (size_t i = 0; i < s->nconfigs && all; i++)
			all = rate_ratio_of(&s->configs[i], ph) || !report_has_rate_ratio(&s->configs[i]);
		s->geomean_phase[ph] = all;
		s->geomean_phases += all;
	}
}

bool report_geomean_left_out(const struct report_set *s, enum phase_id ph, char *buf, size_t len)
{
	size_t used = 0;
	bool some = false;

	buf[0] = '\0';
	if (s->baseline < 0 || s->geomean_phase[ph])
		return false;
	for (size_t i = 0; i < s->nconfigs; i++) {
		const struct report_config *c = &s->configs[i];

		if (rate_ratio_of(c, ph)) {
			some = true;
			continue;
		}
		if (!report_has_rate_ratio(c))
			continue;
		if (used < len)
			used += (size_t)snprintf(buf + used, len - used, "%s[%zu]", used ? ", " : "", i + 1);
	}
	return some;
}

unsigned report_geomean_left_out_each(const struct report_set *s, report_left_out_fn *fn, void *arg)
{
	unsigned n = 0;
	char which[256];

	for (int ph = 0; ph < PH_COUNT; ph++)
		if (report_geomean_left_out(s, (enum phase_id)ph, which, sizeof(which)))
			fn(arg, s, (enum phase_id)ph, which, !n++);
	return n;
}

void report_compare(struct report_set *s, int base)
{
	s->baseline = base >= 0 && (size_t)base < s->nconfigs ? base : -1;
	for (size_t i = 0; i < s->nconfigs; i++) {
		struct report_config *c = &s->configs[i];
		const struct report_config *b;

		clear_comparison(c);
		if (s->baseline < 0)
			continue;
		b = &s->configs[s->baseline];
		for (int ph = 0; ph < PH_COUNT; ph++) {
			for (int m = 0; m < RM_ALL; m++) {
				const struct report_stat *x = &c->stat[ph][m], *y = &b->stat[ph][m];
				double r, p;

				if (!report_mean_ratio((enum report_measure)m, x, y, &r))
					continue;
				c->has_ratio[ph][m] = true;
				c->ratio[ph][m] = r;
				if (c == b) {
					c->within_noise[ph][m] = true;
					continue;
				}
				p = report_welch_p(x, y);
				c->p_value[ph][m] = p;
				c->untestable[ph][m] = p < 0;
				c->within_noise[ph][m] = report_p_within_noise(p);
			}
		}
	}
	geomean_phases(s);
	for (size_t i = 0; i < s->nconfigs && s->geomean_phases; i++) {
		struct report_config *c = &s->configs[i];
		double logs = 0;

		if (!report_has_rate_ratio(c))
			continue;
		for (int ph = 0; ph < PH_COUNT; ph++)
			if (s->geomean_phase[ph])
				logs += log(c->ratio[ph][RM_RATE]);
		c->geomean_n = s->geomean_phases;
		c->geomean = exp(logs / c->geomean_n);
	}
}

/* ---- a phase's time series ---- */

bool report_run_of(const struct report_set *s, size_t k, size_t i)
{
	return i >= s->configs[k].first_run && !strcmp(s->runs[i].key, s->configs[k].key);
}

double report_series_end(const struct report_series *se)
{
	return se->row[se->n - 1].t_end;
}

double report_series_rate(const struct report_series *se, double from, double to)
{
	double work = 0;

	if (!(to > from))
		return NAN;
	for (size_t k = 0; k < se->n; k++) {
		const struct report_sample *smp = &se->row[k];
		double width = smp->t_end - smp->t_start;
		double inside = fmin(to, smp->t_end) - fmax(from, smp->t_start);

		if (smp->t_start > to)
			break;
		/* an interval of no width (the last, at the phase's end) counts whole where it is */
		if (width <= 0 && smp->t_start >= from)
			work += smp->work;
		else if (width > 0 && inside > 0)
			work += smp->work * (inside / width);
	}
	return work / (to - from);
}

void report_series_tenths(const struct report_series *se, double rate[3])
{
	double end = report_series_end(se);

	rate[0] = report_series_rate(se, 0, end / 10);
	rate[1] = report_series_rate(se, end * 0.45, end * 0.55);
	rate[2] = report_series_rate(se, end * 0.9, end);
}

bool report_series_stall(const struct report_series *se, struct report_stall *st)
{
	struct report_stall run = { 0 };

	memset(st, 0, sizeof(*st));
	for (size_t k = 0; k < se->n; k++) {
		const struct report_sample *smp = &se->row[k];

		if (smp->ops > 0) {
			run.intervals = 0;
			continue;
		}
		if (!run.intervals++) {
			run.start_s = smp->t_start;
			run.length_s = 0;
		}
		run.length_s += smp->t_end - smp->t_start;
		/* a longer one, the first, or the longest going on (starts are one run's each) */
		if (run.length_s > st->length_s || !st->intervals || st->start_s == run.start_s)
			*st = run;
	}
	return st->intervals > 0;
}

void report_series_each(const struct report_set *s, size_t k,
			void (*fn)(void *arg, size_t i, unsigned j, enum phase_id ph), void *arg)
{
	for (int ph = 0; ph < PH_COUNT; ph++) {
		unsigned j = 0;

		for (size_t i = s->configs[k].first_run; i < s->nruns; i++) {
			if (!report_run_of(s, k, i))
				continue;
			j++;
			if (s->runs[i].series[ph])
				fn(arg, i, j, (enum phase_id)ph);
		}
	}
}

bool report_series_shown(const struct report_set *s)
{
	if (s->series_mode == REPORT_SERIES_OFF)
		return false;
	for (size_t i = 0; i < s->nruns; i++)
		if (s->runs[i].has_series)
			return true;
	return false;
}
