// SPDX-License-Identifier: BSD-2-Clause
/*
 * Aged and full filesystems in clyde-report (issue 44): a run's age and
 * fill labels, the list of the runs with theirs, and the "Fresh against
 * aged" table: per phase, each filesystem's fresh and aged median, their
 * ratio, and whether the order of the filesystems by that phase is the
 * same fresh and aged. Pure functions of the set.
 *
 * Two configurations are one filesystem fresh and aged when they differ
 * only by their age: the same parameters, and names that are the same
 * once a "@fresh", "@aged:..." or "@fill..." suffix (clyde-fsmatrix's
 * names) is taken off; one's runs all "fresh", the other's all one
 * "aged:..." label.
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

/* clyde's aging profile when --age names none: not repeated in the label. */
#define AGE_DEFAULT_PROFILE	"agrawal"

void report_age_label(char *buf, size_t len, double full, double churn, const char *profile)
{
	bool other = profile && profile[0] && strcmp(profile, AGE_DEFAULT_PROFILE);

	snprintf(buf, len, "aged:%.15g:%.15g%s%s", full, churn, other ? ":" : "", other ? profile : "");
}

/* Where name's age suffix begins (its '@'), or NULL: "@fresh", "@aged:...", "@fill...". */
static const char *age_suffix(const char *name)
{
	const char *at = strrchr(name, '@');

	if (!at || at == name)
		return NULL;
	if (!strcmp(at + 1, "fresh") || !strncmp(at + 1, "aged:", 5) || !strncmp(at + 1, "fill", 4))
		return at;
	return NULL;
}

const char *report_age_of_name(const char *name)
{
	const char *at = age_suffix(name);

	if (!at || !strncmp(at + 1, "fill", 4))
		return NULL;
	return at + 1;
}

/* The configuration's age: its runs' one label, or NULL where they differ or none is known. */
static const char *config_age(const struct report_set *s, size_t k)
{
	const char *age = NULL;

	for (size_t i = s->configs[k].first_run; i < s->nruns; i++) {
		if (!report_run_of(s, k, i))
			continue;
		if (!s->runs[i].age[0] || (age && strcmp(age, s->runs[i].age)))
			return NULL;
		age = s->runs[i].age;
	}
	return age;
}

/* Whether configurations a and b are the same but for the name's age suffix. */
static bool same_but_age(const struct report_config *a, const struct report_config *b)
{
	const char *sa = age_suffix(a->name), *sb = age_suffix(b->name);
	size_t la = sa ? (size_t)(sa - a->name) : strlen(a->name);
	size_t lb = sb ? (size_t)(sb - b->name) : strlen(b->name);
	size_t na = strlen(a->name), nb = strlen(b->name);

	/* the key begins with the name (report_key); what follows is the parameters */
	if (la != lb || memcmp(a->name, b->name, la))
		return false;
	if (strncmp(a->key, a->name, na) || strncmp(b->key, b->name, nb))
		return false;
	return !strcmp(a->key + na, b->key + nb);
}

static int add_pair(struct report_age_cmp *c, const struct report_set *s, size_t fresh,
		    size_t aged, const char *label)
{
	const char *suffix = age_suffix(s->configs[fresh].name);
	size_t len = suffix ? (size_t)(suffix - s->configs[fresh].name) : strlen(s->configs[fresh].name);
	struct report_age_pair *p;

	if (c->n == c->cap) {
		size_t cap = c->cap ? 2 * c->cap : 8;
		struct report_age_pair *np = realloc(c->pair, cap * sizeof(*np));

		if (!np)
			return -ENOMEM;
		c->pair = np;
		c->cap = cap;
	}
	p = &c->pair[c->n++];
	memset(p, 0, sizeof(*p));
	p->fresh = fresh;
	p->aged = aged;
	snprintf(p->fs, sizeof(p->fs), "%.*s", (int)len, s->configs[fresh].name);
	str_copy(p->label, sizeof(p->label), label);
	return 0;
}

int report_age_compare(const struct report_set *s, struct report_age_cmp *c)
{
	int ret = 0;

	memset(c, 0, sizeof(*c));
	for (size_t f = 0; f < s->nconfigs && !ret; f++) {
		const char *fa = config_age(s, f);

		if (!fa || strcmp(fa, "fresh"))
			continue;
		for (size_t a = 0; a < s->nconfigs && !ret; a++) {
			const char *aa = config_age(s, a);

			if (a == f || !aa || strncmp(aa, "aged:", 5) ||
			    !same_but_age(&s->configs[f], &s->configs[a]))
				continue;
			ret = add_pair(c, s, f, a, aa);
		}
	}
	if (ret)
		report_age_cmp_free(c);
	return ret;
}

void report_age_cmp_free(struct report_age_cmp *c)
{
	free(c->pair);
	memset(c, 0, sizeof(*c));
}

bool report_age_figures(const struct report_set *s, const struct report_age_pair *p,
			enum phase_id ph, double *fresh, double *aged)
{
	const struct report_stat *f = &s->configs[p->fresh].stat[ph][RM_RATE];
	const struct report_stat *a = &s->configs[p->aged].stat[ph][RM_RATE];

	if (!f->n || !a->n)
		return false;
	*fresh = f->median;
	*aged = a->median;
	return true;
}

/*
 * The ranking of the pairs of one aged label by phase ph: false where it
 * is the same fresh and aged. Where it flipped, *hi and *lo are the first
 * two filesystems (in the pairs' order) whose order changed: hi above lo
 * fresh, below it aged.
 */
bool report_age_flipped(const struct report_set *s, const struct report_age_cmp *c,
			const char *label, enum phase_id ph, size_t *hi, size_t *lo)
{
	for (size_t i = 0; i < c->n; i++) {
		double fi, ai;

		if (strcmp(c->pair[i].label, label) || !report_age_figures(s, &c->pair[i], ph, &fi, &ai))
			continue;
		for (size_t j = 0; j < c->n; j++) {
			double fj, aj;

			if (j == i || strcmp(c->pair[j].label, label) ||
			    !report_age_figures(s, &c->pair[j], ph, &fj, &aj))
				continue;
			if (fi > fj && ai < aj) {
				*hi = i;
				*lo = j;
				return true;
			}
		}
	}
	return false;
}

/* How many pairs of label have figures of ph (a ranking needs two). */
static unsigned ranked(const struct report_set *s, const struct report_age_cmp *c, const char *label,
		       enum phase_id ph)
{
	unsigned n = 0;
	double f, a;

	for (size_t i = 0; i < c->n; i++)
		n += !strcmp(c->pair[i].label, label) && report_age_figures(s, &c->pair[i], ph, &f, &a);
	return n;
}

/* Whether pair i's label is the first pair's of that label (each label's table once). */
static bool first_of_label(const struct report_age_cmp *c, size_t i)
{
	for (size_t j = 0; j < i; j++)
		if (!strcmp(c->pair[j].label, c->pair[i].label))
			return false;
	return true;
}

static bool phase_listed(enum phase_id ph)
{
	return phase_get(ph)->kind != KIND_NONE;
}

/* The ranking line of a phase: "same ranking fresh and aged" or what flipped. */
static void ranking_line(char *buf, size_t len, const struct report_set *s,
			 const struct report_age_cmp *c, const char *label, enum phase_id ph)
{
	size_t hi, lo;

	if (ranked(s, c, label, ph) < 2)
		snprintf(buf, len, "one filesystem: no ranking");
	else if (report_age_flipped(s, c, label, ph, &hi, &lo))
		snprintf(buf, len, "ranking flipped: %s above %s fresh, below aged", c->pair[hi].fs,
			 c->pair[lo].fs);
	else
		snprintf(buf, len, "same ranking fresh and aged");
}

int report_age_text(FILE *out, const struct report_set *s)
{
	struct report_age_cmp c;
	char line[400];
	int ret = report_age_compare(s, &c);

	if (ret || !c.n)
		return ret;
	for (size_t i = 0; i < c.n; i++) {
		const char *label = c.pair[i].label;

		if (!first_of_label(&c, i))
			continue;
		fprintf(out, "\nFresh against aged (%s): medians of the rates, their ratio aged/fresh,"
			" and whether the filesystems' order by each phase is the same\n", label);
		fprintf(out, "%-12s %-24s %14s %14s %-8s %8s\n", "phase", "filesystem", "fresh", "aged",
			"unit", "ratio");
		for (int ph = 0; ph < PH_COUNT; ph++) {
			bool any = false;

			if (!phase_listed((enum phase_id)ph))
				continue;
			for (size_t j = i; j < c.n; j++) {
				double f, a;

				if (strcmp(c.pair[j].label, label) ||
				    !report_age_figures(s, &c.pair[j], (enum phase_id)ph, &f, &a))
					continue;
				fprintf(out, "%-12s %-24s %14.0f %14.0f %-8s %8.3f\n",
					phase_csv_name((enum phase_id)ph), c.pair[j].fs, f, a,
					phase_unit_names((enum phase_id)ph)->rate, f > 0 ? a / f : NAN);
				any = true;
			}
			if (!any)
				continue;
			ranking_line(line, sizeof(line), s, &c, label, (enum phase_id)ph);
			fprintf(out, "%-12s %s\n", phase_csv_name((enum phase_id)ph), line);
		}
	}
	report_age_cmp_free(&c);
	return ferror(out) ? -EIO : 0;
}

int report_age_html(FILE *out, const struct report_set *s)
{
	struct report_age_cmp c;
	char line[400];
	int ret = report_age_compare(s, &c);

	if (ret || !c.n)
		return ret;
	for (size_t i = 0; i < c.n; i++) {
		const char *label = c.pair[i].label;

		if (!first_of_label(&c, i))
			continue;
		fputs("<h2>Fresh against aged (", out);
		report_xml_text(out, label);
		fputs(")</h2>\n<table>\n<tr><th>phase</th><th>filesystem</th><th>fresh</th>"
		      "<th>aged</th><th>unit</th><th>aged/fresh</th></tr>\n", out);
		for (int ph = 0; ph < PH_COUNT; ph++) {
			bool any = false;

			if (!phase_listed((enum phase_id)ph))
				continue;
			for (size_t j = i; j < c.n; j++) {
				double f, a;

				if (strcmp(c.pair[j].label, label) ||
				    !report_age_figures(s, &c.pair[j], (enum phase_id)ph, &f, &a))
					continue;
				fprintf(out, "<tr><td>%s</td><td>", phase_csv_name((enum phase_id)ph));
				report_xml_text(out, c.pair[j].fs);
				fprintf(out, "</td><td class=\"num\">%.0f</td><td class=\"num\">%.0f</td>"
					"<td>%s</td><td class=\"num\">%.3f</td></tr>\n", f, a,
					phase_unit_names((enum phase_id)ph)->rate, f > 0 ? a / f : NAN);
				any = true;
			}
			if (!any)
				continue;
			ranking_line(line, sizeof(line), s, &c, label, (enum phase_id)ph);
			fprintf(out, "<tr><td>%s</td><td colspan=\"5\">",
				phase_csv_name((enum phase_id)ph));
			report_xml_text(out, line);
			fputs("</td></tr>\n", out);
		}
		fputs("</table>\n", out);
	}
	report_age_cmp_free(&c);
	return ferror(out) ? -EIO : 0;
}

/*
 * Whether the runs' list is worth showing: some run aged, or the runs'
 * fills differ (a --fill study). Every /14 run knows its fill, so a list
 * of fresh runs at one fill would only repeat the file names.
 */
static bool any_age(const struct report_set *s)
{
	for (size_t i = 0; i < s->nruns; i++) {
		if (s->runs[i].age[0] && strcmp(s->runs[i].age, "fresh") &&
		    strcmp(s->runs[i].age, "unknown"))
			return true;
		if (strcmp(s->runs[i].fill, s->runs[0].fill))
			return true;
	}
	return false;
}

int report_age_runs_text(FILE *out, const struct report_set *s)
{
	if (!any_age(s))
		return 0;
	fputs("\nThe runs' age and fill (age: fresh, aged:FULL:CHURN[:PROFILE] or unknown;"
	      " fill: % of capacity during the phases)\n", out);
	fprintf(out, "%-32s %-32s %-24s %5s\n", "configuration", "run", "age", "fill");
	for (size_t i = 0; i < s->nruns; i++) {
		const struct report_run *r = &s->runs[i];
		char where[300];

		snprintf(where, sizeof(where), "%s:%u", r->source, r->line);
		fprintf(out, "%-32s %-32s %-24s %5s\n", r->name[0] ? r->name : "(no name)", where,
			r->age[0] ? r->age : "unknown", r->fill[0] ? r->fill : "-");
	}
	return ferror(out) ? -EIO : 0;
}

int report_age_runs_html(FILE *out, const struct report_set *s)
{
	if (!any_age(s))
		return 0;
	fputs("<h2>The runs' age and fill</h2>\n<p class=\"sub\">Age: fresh,"
	      " aged:FULL:CHURN[:PROFILE] (clyde --age) or unknown; fill: the filesystem's fill"
	      " during the phases, % of its capacity.</p>\n<table>\n<tr><th>configuration</th>"
	      "<th>run</th><th>age</th><th>fill</th></tr>\n", out);
	for (size_t i = 0; i < s->nruns; i++) {
		const struct report_run *r = &s->runs[i];

		fputs("<tr><td>", out);
		report_xml_text(out, r->name[0] ? r->name : "(no name)");
		fputs("</td><td>", out);
		report_xml_text(out, r->source);
		fprintf(out, ":%u</td><td>", r->line);
		report_xml_text(out, r->age[0] ? r->age : "unknown");
		fputs("</td><td class=\"num\">", out);
		report_xml_text(out, r->fill[0] ? r->fill : "-");
		fputs("</td></tr>\n", out);
	}
	fputs("</table>\n", out);
	return ferror(out) ? -EIO : 0;
}
