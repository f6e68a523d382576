// SPDX-License-Identifier: BSD-2-Clause
/*
 * What clyde-report's charts share, and what its text and page take from
 * them: the palette, XML text, the units a measure is shown in, an axis
 * and its ticks, a configuration's label. The bar charts are
 * report_svg_bars.c's, the time series' report_svg_series.c's. Pure
 * functions of the report_set; presentation attributes only (no CSS), so
 * any SVG 1.1 reader draws what they write.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/phase.h"
#include "report/report.h"
#include "report/report_svg.h"

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
void report_xml_text_n(FILE *out, const char *text, size_t max)
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
	report_xml_text_n(out, s, 0);
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
const char *report_raw_unit(enum phase_id ph, enum report_measure m)
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


bool report_stat_ok(const struct report_stat *st)
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
		if (report_stat_ok(&s->configs[i].stat[ph][m]))
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

/* The configuration's name for the legend and tooltips: its key where the name is empty or shared. */
const char *report_config_label(const struct report_set *s, size_t i)
{
	const struct report_config *c = &s->configs[i];

	if (!c->name[0])
		return c->key;
	for (size_t j = 0; j < s->nconfigs; j++)
		if (j != i && !strcmp(s->configs[j].name, c->name))
			return c->key[0] ? c->key : c->name;
	return c->name;
}
