// SPDX-License-Identifier: BSD-2-Clause
/*
 * clyde-report's SVG charts and HTML page, from a set built by hand:
 * well-formed XML, one bar per configuration and phase/measure with a
 * value, error bars only where n > 1, names escaped, nothing external.
 * With a directory argument it also leaves report.svg and report.html
 * there (tests/report/report_charts.sh and bench/render-report use them).
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/phase.h"
#include "report/report.h"
#include "unit.h"

#define NCONF 3
#define MAXV 3

static const char odd_name[] = "xfs & <tuned> \"quoted\" 'x'";
static const char odd_escaped[] = "xfs &amp; &lt;tuned&gt; &quot;quoted&quot; &#39;x&#39;";

static struct report_config configs[NCONF];
static double store[NCONF][PH_COUNT][RM_COUNT][MAXV];
static struct report_run runs[8];

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static void set_stat(int c, enum phase_id ph, enum report_measure m, unsigned n, const double *v)
{
	struct report_stat *st = &configs[c].stat[ph][m];
	double *d = store[c][ph][m];
	double sum = 0, ss = 0;

	memcpy(d, v, n * sizeof(*d));
	qsort(d, n, sizeof(*d), cmp_double);
	st->n = n;
	st->values = d;
	st->min = d[0];
	st->max = d[n - 1];
	st->median = n % 2 ? d[n / 2] : (d[n / 2 - 1] + d[n / 2]) / 2;
	for (unsigned k = 0; k < n; k++)
		sum += d[k];
	st->mean = sum / n;
	for (unsigned k = 0; k < n; k++)
		ss += (d[k] - st->mean) * (d[k] - st->mean);
	st->sd = n > 1 ? sqrt(ss / (n - 1)) : 0;
	st->cv_percent = st->mean > 0 ? 100 * st->sd / st->mean : 0;
}

/* Typical magnitudes per phase: KiB/s, seeks/s, files/s; CPU s per unit; latency us. */
static double typical(enum phase_id ph, enum report_measure m)
{
	static const double rate[PH_COUNT] = {
		900, 1.6e6, 7.5e5, 1100, 2.9e6, 2400, 42000, 310000, 98000, 39000, 290000, 0,
	};

	if (m == RM_RATE)
		return rate[ph];
	if (m == RM_CPU)
		return phase_get(ph)->unit == UNIT_KIB ? 0.0004 : 0.012;
	return phase_get(ph)->slot < SLOT_FIRST_FILE ? 2500 : 180;
}

/*
 * Three configurations: 0 the baseline (3 runs), 1 the odd name (2 runs),
 * 2 (2 runs, one of which printed +++++ for the seeks and lacks the file
 * tests). No per-char phases, no random delete; latency for the byte
 * phases and seeks only.
 */
static void build(struct report_set *s)
{
	static const double spread[NCONF][MAXV] = {
		{ 1.0, 0.97, 1.04 }, { 1.12, 1.18, 0 }, { 0.80, 0.86, 0 },
	};
	static const unsigned nruns[NCONF] = { 3, 2, 2 };

	memset(s, 0, sizeof(*s));
	memset(configs, 0, sizeof(configs));
	snprintf(configs[0].name, sizeof(configs[0].name), "ext4 default");
	snprintf(configs[0].key, sizeof(configs[0].key), "ext4 default,1G,8192");
	snprintf(configs[1].name, sizeof(configs[1].name), "%s", odd_name);
	snprintf(configs[1].key, sizeof(configs[1].key), "%s,1G,8192", odd_name);
	snprintf(configs[2].name, sizeof(configs[2].name), "btrfs");
	snprintf(configs[2].key, sizeof(configs[2].key), "btrfs,1G,8192");
	for (int c = 0; c < NCONF; c++) {
		configs[c].runs = nruns[c];
		for (int p = 0; p <= PH_RAN_DEL; p++) {
			enum phase_id ph = (enum phase_id)p;

			if (ph == PH_PUTC || ph == PH_GETC || ph == PH_RAN_DEL)
				continue;
			if (c == 2 && phase_get(ph)->slot >= SLOT_FIRST_FILE)
				continue;
			for (int m = 0; m < RM_COUNT; m++) {
				double v[MAXV];
				unsigned n = nruns[c];

				if (m == RM_LATENCY && phase_get(ph)->slot >= SLOT_FIRST_FILE)
					continue;
				if (c == 2 && ph == PH_SEEKS)
					n = 1;
				for (unsigned k = 0; k < n; k++)
					v[k] = typical(ph, (enum report_measure)m) *
					       (m == RM_RATE ? spread[c][k] : 1 / spread[c][k]);
				set_stat(c, ph, (enum report_measure)m, n, v);
			}
		}
	}
	configs[2].hidden[PH_SEQ_CREATE] = 2;	/* printed +++++ in both runs */
	/* Ratios against configuration 0, as the statistics would set them. */
	for (int c = 0; c < NCONF; c++) {
		double logsum = 0;

		for (int p = 0; p <= PH_RAN_DEL; p++)
			for (int m = 0; m < RM_COUNT; m++) {
				const struct report_stat *a = &configs[c].stat[p][m], *b = &configs[0].stat[p][m];

				configs[c].p_value[p][m] = -1;
				if (!a->n || !b->n)
					continue;
				configs[c].has_ratio[p][m] = true;
				configs[c].ratio[p][m] = m == RM_RATE ? a->median / b->median : b->median / a->median;
				configs[c].untestable[p][m] = a->n < 2 || b->n < 2;
				configs[c].within_noise[p][m] = a->n < 2 || c == 0 || p == PH_REWRITE;
				if (a->n >= 2)
					configs[c].p_value[p][m] = configs[c].within_noise[p][m] ? 0.41 : 0.012;
				if (m == RM_RATE) {
					logsum += log(configs[c].ratio[p][m]);
					configs[c].geomean_n++;
				}
			}
		configs[c].geomean = configs[c].geomean_n ? exp(logsum / configs[c].geomean_n) : 0;
	}
	for (size_t r = 0; r < 7; r++) {
		snprintf(runs[r].source, sizeof(runs[r].source), "%s", r < 3 ? "ext4.csv" : r < 5 ? "xfs&more.json" : "btrfs.csv");
		runs[r].line = (unsigned)r + 1;
	}
	s->runs = runs;
	s->nruns = 7;
	s->configs = configs;
	s->nconfigs = NCONF;
	s->baseline = 0;
}

/* ---- a small XML 1.0 well-formedness checker (no DTD, ASCII names) ---- */

static int utf8_ok(const unsigned char *p, size_t *len)
{
	unsigned int cp, min;
	int n;

	if (p[0] < 0x80) {
		*len = 1;
		return p[0] >= 0x20 || p[0] == '\t' || p[0] == '\n' || p[0] == '\r';
	}
	if (p[0] >= 0xc2 && p[0] <= 0xdf) {
		n = 2, cp = p[0] & 0x1f, min = 0x80;
	} else if ((p[0] & 0xf0) == 0xe0) {
		n = 3, cp = p[0] & 0x0f, min = 0x800;
	} else if (p[0] >= 0xf0 && p[0] <= 0xf4) {
		n = 4, cp = p[0] & 0x07, min = 0x10000;
	} else {
		return 0;
	}
	for (int i = 1; i < n; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (p[i] & 0x3f);
	}
	*len = (size_t)n;
	return cp >= min && cp <= 0x10ffff && !(cp >= 0xd800 && cp <= 0xdfff) && cp != 0xfffe && cp != 0xffff;
}

static int name_start(int c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_' || c == ':';
}

static int name_char(int c)
{
	return name_start(c) || (c >= '0' && c <= '9') || c == '-' || c == '.';
}

static const char *xml_err;

static size_t read_name(const char *p)
{
	size_t n = 0;

	if (!name_start((unsigned char)p[0]))
		return 0;
	while (name_char((unsigned char)p[n]))
		n++;
	return n;
}

/* Character data or an attribute value up to stop: entities must be known, no '<'. */
static const char *chars(const char *p, char stop)
{
	while (*p && *p != stop) {
		if (*p == '<' && stop != '<')
			return xml_err = "'<' in an attribute value", NULL;
		if (*p == '&') {
			const char *q = p + 1;

			if (*q == '#' && q[1] == 'x') {
				for (q += 2; strchr("0123456789abcdefABCDEF", *q) && *q; q++)
					;
			} else if (*q == '#') {
				for (q++; *q >= '0' && *q <= '9'; q++)
					;
			} else if (!strncmp(q, "amp;", 4) || !strncmp(q, "lt;", 3) || !strncmp(q, "gt;", 3) ||
				   !strncmp(q, "quot;", 5) || !strncmp(q, "apos;", 5)) {
				q = strchr(q, ';');
			} else {
				return xml_err = "unknown entity", NULL;
			}
			if (*q != ';' || q == p + 2)
				return xml_err = "bad character reference", NULL;
			p = q;
		}
		if (stop == '<' && !strncmp(p, "]]>", 3))
			return xml_err = "']]>' in text", NULL;
		p++;
	}
	return p;
}

static const char *skip_ws(const char *p)
{
	while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
		p++;
	return p;
}

/* 0 when doc is well-formed; else -1, with xml_err and *where set. */
static int xml_check(const char *doc, size_t *where)
{
	const char *stack[256];
	size_t stack_len[256];
	int depth = 0, roots = 0;
	const char *p = doc;

	xml_err = NULL;
	for (const unsigned char *u = (const unsigned char *)doc; *u;) {
		size_t len;

		if (!utf8_ok(u, &len)) {
			*where = (size_t)((const char *)u - doc);
			xml_err = "not UTF-8, or a character XML forbids";
			return -1;
		}
		u += len;
	}
	if (!strncmp(p, "<?xml", 5)) {
		p = strstr(p, "?>");
		if (!p)
			return *where = 0, xml_err = "unterminated declaration", -1;
		p += 2;
	}
	while (*p) {
		const char *q;
		size_t n;

		*where = (size_t)(p - doc);
		if (!strncmp(p, "<!--", 4)) {
			q = strstr(p + 4, "--");
			if (!q || q[2] != '>')
				return xml_err = "bad comment", -1;
			p = q + 3;
		} else if (!strncmp(p, "<!DOCTYPE", 9)) {
			if (roots || depth)
				return xml_err = "DOCTYPE after the root", -1;
			q = strchr(p, '>');
			if (!q || memchr(p, '[', (size_t)(q - p)))
				return xml_err = "DOCTYPE with a subset", -1;
			p = q + 1;
		} else if (!strncmp(p, "<![CDATA[", 9)) {
			if (!depth)
				return xml_err = "CDATA outside the root", -1;
			q = strstr(p, "]]>");
			if (!q)
				return xml_err = "unterminated CDATA", -1;
			p = q + 3;
		} else if (!strncmp(p, "<?", 2)) {
			q = strstr(p, "?>");
			if (!q)
				return xml_err = "unterminated PI", -1;
			p = q + 2;
		} else if (!strncmp(p, "</", 2)) {
			n = read_name(p + 2);
			if (!n || !depth || stack_len[depth - 1] != n || strncmp(stack[depth - 1], p + 2, n))
				return xml_err = "mismatched end tag", -1;
			depth--;
			p = skip_ws(p + 2 + n);
			if (*p++ != '>')
				return xml_err = "bad end tag", -1;
		} else if (*p == '<') {
			const char *attrs[64];
			size_t attr_len[64];
			int nattrs = 0;

			n = read_name(p + 1);
			if (!n)
				return xml_err = "bad element name", -1;
			if (!depth && roots++)
				return xml_err = "second root element", -1;
			if (depth == 256)
				return xml_err = "too deep", -1;
			stack[depth] = p + 1;
			stack_len[depth] = n;
			p += 1 + n;
			for (;;) {
				q = skip_ws(p);
				if (!strncmp(q, "/>", 2)) {
					p = q + 2;
					break;
				}
				if (*q == '>') {
					depth++;
					p = q + 1;
					break;
				}
				if (q == p)
					return xml_err = "no space before an attribute", -1;
				n = read_name(q);
				if (!n || nattrs == 64)
					return xml_err = "bad attribute name", -1;
				for (int k = 0; k < nattrs; k++)
					if (attr_len[k] == n && !strncmp(attrs[k], q, n))
						return xml_err = "attribute repeated", -1;
				attrs[nattrs] = q;
				attr_len[nattrs++] = n;
				q = skip_ws(q + n);
				if (*q != '=')
					return xml_err = "attribute without a value", -1;
				q = skip_ws(q + 1);
				if (*q != '"' && *q != '\'')
					return xml_err = "attribute value not quoted", -1;
				p = chars(q + 1, *q);
				if (!p)
					return -1;
				if (!*p)
					return xml_err = "unterminated attribute value", -1;
				p++;
			}
		} else {
			q = chars(p, '<');
			if (!q)
				return -1;
			if (!depth && *skip_ws(p) != '<' && *skip_ws(p))
				return xml_err = "text outside the root", -1;
			p = q;
		}
	}
	*where = (size_t)(p - doc);
	if (depth)
		return xml_err = "unclosed element", -1;
	if (!roots)
		return xml_err = "no root element", -1;
	return 0;
}

/* ---- rendering into memory ---- */

static char *render(int (*fn)(FILE *, const struct report_set *), const struct report_set *s, int *ret)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f) {
		*ret = -errno;
		return NULL;
	}
	*ret = fn(f, s);
	if (fclose(f))
		*ret = -EIO;
	return buf;
}

static size_t count(const char *hay, const char *needle)
{
	size_t n = 0;

	for (const char *p = strstr(hay, needle); p; p = strstr(p + 1, needle))
		n++;
	return n;
}

static void well_formed(const char *what, const char *doc)
{
	size_t where = 0;
	int r = xml_check(doc, &where);

	CHECK(r == 0, "%s is not well-formed XML: %s at byte %zu: '%.60s'", what, xml_err ? xml_err : "?",
	      where, doc + where);
}

static void nothing_external(const char *what, const char *doc)
{
	CHECK(!strstr(doc, "href="), "%s links to something", what);
	CHECK(!strstr(doc, "src="), "%s loads something", what);
	CHECK(!strstr(doc, "url("), "%s has a CSS url()", what);
	CHECK(!strstr(doc, "@import"), "%s imports CSS", what);
	CHECK(!strstr(doc, "<script"), "%s has a script", what);
}

static bool has_value(const struct report_set *s, size_t i, int p, int m)
{
	return s->configs[i].stat[p][m].n > 0;
}

/*
 * The bars, in the order the charts draw them (phase, measure,
 * configuration): each bar in its configuration's colour, followed by an
 * error bar exactly when n > 1.
 */
static void bars_match(const char *what, const char *doc, const struct report_set *s)
{
	const char *p = strstr(doc, "<rect class=\"bar\"");
	size_t charts = 0, bars = 0, errs = 0;

	for (int ph = 0; ph <= PH_RAN_DEL; ph++)
		for (int m = 0; m < RM_COUNT; m++) {
			bool any = false;

			for (size_t i = 0; i < s->nconfigs; i++) {
				const char *next, *fill;
				char want[40];

				if (!has_value(s, i, ph, m))
					continue;
				any = true;
				bars++;
				errs += s->configs[i].stat[ph][m].n > 1;
				CHECK(p != NULL, "%s: no bar for configuration %zu, phase %d, measure %d", what, i, ph, m);
				if (!p)
					return;
				next = strstr(p + 1, "<rect class=\"bar\"");
				fill = strstr(p, " fill=\"");
				snprintf(want, sizeof(want), " fill=\"%s\"", report_chart_color(i));
				CHECK(fill && !strncmp(fill, want, strlen(want)) && fill < strchr(p, '>'),
				      "%s: bar of phase %d measure %d is not configuration %zu's colour", what, ph, m, i);
				{
					const char *err = strstr(p, "class=\"err\"");
					bool has_err = err && (!next || err < next) && err < strstr(p, "</g>");

					CHECK(has_err == (s->configs[i].stat[ph][m].n > 1),
					      "%s: configuration %zu phase %d measure %d: error bar %d, n %u", what, i, ph,
					      m, has_err, s->configs[i].stat[ph][m].n);
				}
				p = next;
			}
			charts += any;
		}
	CHECK(p == NULL, "%s: more bars than values", what);
	CHECK(count(doc, "<rect class=\"bar\"") == bars, "%s: %zu bars, want %zu", what,
	      count(doc, "<rect class=\"bar\""), bars);
	CHECK(count(doc, "class=\"err\"") == errs, "%s: %zu error bars, want %zu", what,
	      count(doc, "class=\"err\""), errs);
	CHECK(count(doc, "<g class=\"chart\"") == charts, "%s: %zu charts, want %zu", what,
	      count(doc, "<g class=\"chart\""), charts);
	CHECK(count(doc, "</title></rect>") == bars, "%s: every bar has a tooltip", what);
}

static void svg_checks(const struct report_set *s)
{
	int r;
	char *svg = render(report_svg, s, &r);

	CHECK(r == 0 && svg, "report_svg = %d", r);
	if (!svg)
		return;
	well_formed("SVG", svg);
	CHECK(!strncmp(svg, "<?xml version=\"1.0\" encoding=\"UTF-8\"", 36), "SVG declaration");
	CHECK(strstr(svg, "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" viewBox=\"0 0 ") != NULL,
	      "SVG root with xmlns, version and viewBox");
	bars_match("SVG", svg, s);
	CHECK(strstr(svg, odd_escaped) != NULL, "SVG escapes the name");
	CHECK(!strstr(svg, "xfs & ") && !strstr(svg, "<tuned>"), "SVG has the name raw");
	CHECK(count(svg, "class=\"baseline\"") > 0, "SVG marks the baseline");
	CHECK(strstr(svg, "ext4 default (baseline)") != NULL, "legend names the baseline");
	/* 1.6e6 KiB/s is 1.53 GiB/s; 2400 seeks/s; CPU 0.0004 s per MiB is 400 us per MiB. */
	CHECK(strstr(svg, ">GiB/s, higher is better<") != NULL, "block write in GiB/s");
	CHECK(strstr(svg, ">seeks/s, higher is better<") != NULL, "seeks/s");
	CHECK(strstr(svg, ">CPU \xc2\xb5s per MiB, lower is better<") != NULL, "CPU us per MiB");
	CHECK(strstr(svg, ">CPU ms per 1000 files, lower is better<") != NULL, "CPU ms per 1000 files");
	CHECK(strstr(svg, ">ms, lower is better<") != NULL, "latency in ms");
	CHECK(strstr(svg, "Per-char write") == NULL, "no chart for a phase without values");
	CHECK(count(svg, "0.80?</text>") == 3, "seeks ratios of configuration 3 untested, got %zu",
	      count(svg, "0.80?</text>"));
	CHECK(strstr(svg, "median 1600000, min 1552000, max 1664000 KiB/s; 3 runs: 1552000, 1600000, 1664000")
	      != NULL, "tooltip has the exact numbers");
	nothing_external("SVG", svg);
	free(svg);
}

static void html_checks(const struct report_set *s)
{
	int r;
	char *html = render(report_html, s, &r);

	CHECK(r == 0 && html, "report_html = %d", r);
	if (!html)
		return;
	well_formed("HTML", html);
	CHECK(!strncmp(html, "<!DOCTYPE html>\n", 16), "HTML doctype");
	CHECK(strstr(html, "<meta charset=\"utf-8\"/>") != NULL, "HTML charset");
	CHECK(!strstr(html, "<?xml"), "no XML declaration inside the page");
	bars_match("HTML", html, s);
	CHECK(strstr(html, odd_escaped) != NULL, "HTML escapes the name");
	CHECK(!strstr(html, "xfs & ") && !strstr(html, "<tuned>"), "HTML has the name raw");
	CHECK(strstr(html, "Welch") && strstr(html, "p &lt; 0.05"), "HTML explains the noise mark");
	CHECK(count(html, "<table>") == 2, "two summary tables, got %zu", count(html, "<table>"));
	/* Rows: a header and 3 configurations per table. */
	CHECK(count(html, "<tr") == 8, "table rows %zu", count(html, "<tr"));
	CHECK(count(html, "<th>Geometric mean") == 1, "one geometric mean column");
	CHECK(strstr(html, "<span class=\"ratio worse\">\xc3\x97" "0.83</span>") != NULL,
	      "block write ratio of configuration 3 without a noise mark");
	CHECK(strstr(html, "<span class=\"ratio noise\">\xc3\x97" "1.15~</span>") != NULL,
	      "rewrite ratio of configuration 2 with a noise mark");
	CHECK(strstr(html, "<span class=\"ratio noise\">\xc3\x97" "0.80?</span>") != NULL,
	      "seeks ratio of configuration 3 (1 run) untested");
	CHECK(count(html, ">+++++</td>") == 1, "+++++ for a phase too short in every run");
	CHECK(strstr(html, "xfs&amp;more.json") != NULL, "sources listed, escaped");
	nothing_external("HTML", html);
	free(html);
}

static void edge_cases(void)
{
	struct report_set empty = { .baseline = -1 };
	struct report_set s;
	char *doc;
	int r;

	doc = render(report_svg, &empty, &r);
	CHECK(r == 0 && doc, "empty SVG = %d", r);
	if (doc)
		well_formed("empty SVG", doc);
	free(doc);
	doc = render(report_html, &empty, &r);
	CHECK(r == 0 && doc, "empty HTML = %d", r);
	if (doc) {
		well_formed("empty HTML", doc);
		CHECK(count(doc, "<rect class=\"bar\"") == 0, "no bars");
	}
	free(doc);

	/* A name that is not UTF-8, with a control character; no baseline. */
	build(&s);
	s.baseline = -1;
	snprintf(configs[2].name, sizeof(configs[2].name), "latin1 \xe9t\xe9\x01 \xed\xa0\x80 end");
	doc = render(report_html, &s, &r);
	CHECK(r == 0 && doc, "HTML without a baseline = %d", r);
	if (doc) {
		well_formed("HTML with a bad name", doc);
		CHECK(strstr(doc, "latin1 \xef\xbf\xbdt\xef\xbf\xbd\xef\xbf\xbd") != NULL, "U+FFFD for bad bytes");
		CHECK(!strstr(doc, "class=\"baseline\""), "no baseline line without a baseline");
		CHECK(!strstr(doc, "<th>Geometric mean"), "no geometric mean without a baseline");
	}
	free(doc);

	/* A write that fails is reported. */
	{
		FILE *full = fopen("/dev/full", "w");

		if (full) {
			setvbuf(full, NULL, _IONBF, 0);
			CHECK(report_svg(full, &s) == -EIO, "SVG to /dev/full");
			clearerr(full);
			CHECK(report_html(full, &s) == -EIO, "HTML to /dev/full");
			fclose(full);
		}
	}
}

static void display_checks(void)
{
	struct report_display d;

	report_display_pick(&d, PH_PUT_BLOCK, RM_RATE, 900);
	CHECK(!strcmp(d.unit, "MiB/s") && d.scale == 1 / 1024.0, "900 KiB/s in MiB/s");
	report_display_pick(&d, PH_PUT_BLOCK, RM_RATE, 2 * 1048576.0);
	CHECK(!strcmp(d.unit, "GiB/s"), "2 GiB/s");
	report_display_pick(&d, PH_SEQ_CREATE, RM_RATE, 50000);
	CHECK(!strcmp(d.unit, "files/s") && d.scale == 1, "files/s");
	report_display_pick(&d, PH_SEEKS, RM_CPU, 0.5);
	CHECK(!strcmp(d.unit, "CPU ms per 1000 seeks") && d.scale == 1e3, "CPU ms per 1000 seeks");
	report_display_pick(&d, PH_GET_BLOCK, RM_CPU, 0.0002);
	CHECK(!strcmp(d.unit, "CPU \xc2\xb5s per MiB") && d.scale == 1e6, "CPU us per MiB");
	report_display_pick(&d, PH_SEQ_STAT, RM_LATENCY, 120);
	CHECK(!strcmp(d.unit, "\xc2\xb5s"), "latency us");
	report_display_pick(&d, PH_SEQ_STAT, RM_LATENCY, 2.5e6);
	CHECK(!strcmp(d.unit, "s") && d.scale == 1e-6, "latency s");
}

/* The checker itself rejects what it must. */
static void checker_checks(void)
{
	static const char *const bad[] = {
		"<a><b></a></b>", "<a x=\"1\" x=\"2\"/>", "<a>&nbsp;</a>", "<a>x & y</a>",
		"<a x=1/>", "<a/><b/>", "<a>", "<a x=\"<\"/>", "text<a/>", "<a>\xe9</a>",
	};
	size_t where;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		CHECK(xml_check(bad[i], &where) != 0, "checker accepts %s", bad[i]);
	CHECK(xml_check("<!DOCTYPE html>\n<a x='&#39;&amp;'><!-- c --><b/>t&#x3c;</a>\n", &where) == 0,
	      "checker rejects a good document: %s", xml_err);
}

static void write_file(const char *dir, const char *name, int (*fn)(FILE *, const struct report_set *),
		       const struct report_set *s)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	CHECK(f != NULL, "cannot write %s", path);
	if (!f)
		return;
	CHECK(fn(f, s) == 0, "writing %s", path);
	CHECK(fclose(f) == 0, "closing %s", path);
}

int main(int argc, char **argv)
{
	struct report_set s;

	checker_checks();
	display_checks();
	build(&s);
	svg_checks(&s);
	html_checks(&s);
	if (argc > 1) {
		write_file(argv[1], "report.svg", report_svg, &s);
		write_file(argv[1], "report.html", report_html, &s);
	}
	edge_cases();
	return unit_verdict("unit_report_charts");
}
