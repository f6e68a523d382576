// SPDX-License-Identifier: BSD-2-Clause
/*
 * clyde-report's page: where each profiled phase's CPU went, as flame
 * graphs of its sampled stacks (clyde --profile=stacks, clyde-result/12),
 * one per configuration with its runs' stacks together, and beside the
 * baseline's, the difference of each other configuration's, with the
 * functions and layers whose share of the sampled CPU moved most.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include "core/phase.h"
#include "report/report.h"
#include "report/report_flame.h"

#define MOVERS_SHOWN	8

static const char *config_name(const struct report_set *s, size_t k)
{
	return s->configs[k].name[0] ? s->configs[k].name : s->configs[k].key;
}

static void movers_table(FILE *out, const char *what, const struct flame_mover *m, int n)
{
	fprintf(out, "<table class=\"movers\">\n<tr><th>%s</th><th>baseline</th><th>this</th>"
		"<th>moved</th></tr>\n", what);
	for (int i = 0; i < n; i++) {
		fputs("<tr><td>", out);
		report_xml_text(out, m[i].name);
		fprintf(out, "</td><td>%.2f%%</td><td>%.2f%%</td><td>%+.2f points</td></tr>\n",
			m[i].share_a, m[i].share_b, m[i].share_b - m[i].share_a);
	}
	fputs("</table>\n", out);
}

static bool known(double a, double b)
{
	return !isnan(a) && !isnan(b) && a > 0;
}

/* One row of the figures table: both sides and b over a, where both are known. */
static void figure_row(FILE *out, const char *what, double a, double b, double scale,
		       const char *unit)
{
	if (!known(a, b))
		return;
	fprintf(out, "<tr><td>%s</td><td>%.3g%s</td><td>%.3g%s</td><td>%.2fx</td></tr>\n", what,
		a * scale, unit, b * scale, unit, b / a);
}

/* What moved besides the stacks: the device's bytes and time per request, the task that grew. */
static void figures_table(FILE *out, const struct report_where_diff *d)
{
	bool any = d->task[0];

	for (int k = 0; k < 2; k++)
		any |= known(d->amp_a[k], d->amp_b[k]) ||
		       known(d->per_request_a[k], d->per_request_b[k]);
	if (!any)
		return;
	fputs("<table class=\"movers\">\n<tr><th>figure (means over the runs)</th>"
	      "<th>baseline</th><th>this</th><th>ratio</th></tr>\n", out);
	figure_row(out, "device bytes written per byte clyde wrote", d->amp_a[1], d->amp_b[1], 1,
		   "");
	figure_row(out, "device bytes read per byte clyde read", d->amp_a[0], d->amp_b[0], 1, "");
	figure_row(out, "device time per request (--profile=layers)",
		   d->per_request_a[REPORT_SPAN_DEVICE], d->per_request_b[REPORT_SPAN_DEVICE], 1e3,
		   " ms");
	figure_row(out, "block-layer queue time per request (--profile=layers)",
		   d->per_request_a[REPORT_SPAN_QUEUE], d->per_request_b[REPORT_SPAN_QUEUE], 1e3,
		   " ms");
	if (d->task[0]) {
		fputs("<tr><td>grew most outside clyde: ", out);
		report_xml_text(out, d->task);
		fputs(" (", out);
		report_xml_text(out, d->task_group);
		fprintf(out, ")</td><td>%.3f s</td><td>%.3f s</td><td>%+.3f s</td></tr>\n",
			d->task_a_s, d->task_b_s, d->task_b_s - d->task_a_s);
	}
	fputs("</table>\n", out);
}

static int difference(FILE *out, const struct report_set *s, size_t base, size_t k,
		      enum phase_id ph, const struct flame_stack *va, size_t na,
		      const struct flame_stack *vb, size_t nb)
{
	struct flame_mover m[MOVERS_SHOWN];
	struct report_where_diff d;
	char title[2 * sizeof(((struct report_config *)0)->key) + 160];
	int n, ret;

	snprintf(title, sizeof(title), "%s: %s, against the baseline %s", config_name(s, k),
		 phase_get(ph)->row_name, config_name(s, base));
	fputs("<div class=\"flame\" style=\"overflow-x: auto\">\n", out);
	ret = report_flame_diff_svg(out, title, va, na, vb, nb);
	fputs("</div>\n", out);
	if (ret)
		return ret;
	n = report_flame_movers(va, na, vb, nb, m, MOVERS_SHOWN);
	if (n < 0)
		return n;
	movers_table(out, "function (self: share of the samples that hit it)", m, n);
	n = report_where_layer_moves(s, base, k, ph, m, MOVERS_SHOWN);
	if (n < 0)
		return n;
	if (n)
		movers_table(out, "layer (share of the sampled CPU)", m, n);
	ret = report_where_diff(s, base, k, ph, &d);
	if (ret)
		return ret;
	figures_table(out, &d);
	return 0;
}

static int phase_section(FILE *out, const struct report_set *s, enum phase_id ph, bool *header)
{
	long base = s->baseline >= 0 && (size_t)s->baseline < s->nconfigs ? s->baseline : -1;
	struct flame_stack *vb = NULL, *v = NULL;
	size_t nb = 0, n;
	bool shown = false;
	int ret;

	if (base >= 0) {
		ret = report_where_stacks(s, (size_t)base, ph, &vb, &nb);
		if (ret)
			return ret;
	}
	for (size_t k = 0; k < s->nconfigs; k++) {
		char title[2 * sizeof(((struct report_config *)0)->key) + 160];

		ret = report_where_stacks(s, k, ph, &v, &n);
		if (ret)
			goto free_base;
		if (!n)
			continue;
		if (!*header)
			fputs("<h2>Where the CPU went: flame graphs</h2>\n<p class=\"sub\">Each "
			      "profiled phase's sampled stacks (clyde --profile=stacks), every CPU, "
			      "a configuration's runs together: a frame is as wide as the samples "
			      "it is in, its callees above it; hover for the numbers, find a "
			      "function with the page's find. Beside the baseline, each other "
			      "configuration's difference: red grew, blue shrank.</p>\n", out);
		*header = true;
		if (!shown) {
			fputs("<h3>", out);
			report_xml_text(out, phase_get(ph)->row_name);
			fputs("</h3>\n", out);
		}
		shown = true;
		snprintf(title, sizeof(title), "%s: %s", config_name(s, k), phase_get(ph)->row_name);
		fputs("<div class=\"flame\" style=\"overflow-x: auto\">\n", out);
		ret = report_flame_svg(out, title, v, n);
		fputs("</div>\n", out);
		if (!ret && nb && (long)k != base)
			ret = difference(out, s, (size_t)base, k, ph, vb, nb, v, n);
		free(v);
		v = NULL;
		if (ret)
			goto free_base;
	}
	ret = 0;
free_base:
	free(vb);
	return ret;
}

int report_flame_html(FILE *out, const struct report_set *s)
{
	bool header = false;

	for (int p = 0; p < PH_COUNT; p++) {
		int ret = phase_section(out, s, (enum phase_id)p, &header);

		if (ret)
			return ret;
	}
	return 0;
}
