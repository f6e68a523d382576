// SPDX-License-Identifier: BSD-2-Clause
/*
 * clyde-report's reader of position sweeps: bonnie++ zcav's text (and
 * clyde-zcav's, the same) and clyde-zcav's JSON (clyde-zcav/1). zcav's
 * text is read as its gnuplot users read it, line by line: a block line
 * "G.GG R.RR S.SSS", a block under a second "#G.GG ++++ S.SSS" (no
 * rate), the header and "#loops: N" that start a sweep, "# Read ..."
 * that ends a pass. Only lines of exactly these shapes are zcav's; every
 * other line goes on to the CSV reader as before.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/grow.h"
#include "lib/json_reader.h"
#include "lib/strutil.h"
#include "report/read_private.h"
#include "report/report.h"

#define ZCAV_HEADER	"#block offset (GiB), MiB/s, time"
#define SWEEP_MAX_POINTS	(1u << 24)

static void sweep_free(struct report_sweep *sw)
{
	free(sw->pt);
	sw->pt = NULL;
	sw->n = sw->cap = 0;
}

void report_sweeps_free(struct report_set *s)
{
	for (size_t i = 0; i < s->nsweeps; i++)
		sweep_free(&s->sweeps[i]);
	free(s->sweeps);
	s->sweeps = NULL;
	s->nsweeps = s->sweeps_cap = 0;
}

/* Moves sw (its points) into the set; an empty one is dropped. 0 or -ENOMEM. */
static int sweep_add(struct report_set *s, struct report_sweep *sw)
{
	if (!sw->n) {
		sweep_free(sw);
		return 0;
	}
	if (array_room(&s->sweeps, &s->sweeps_cap, s->nsweeps, sizeof(*s->sweeps), 8)) {
		sweep_free(sw);
		return -ENOMEM;
	}
	s->sweeps[s->nsweeps++] = *sw;
	memset(sw, 0, sizeof(*sw));
	return 0;
}

static int sweep_point(struct report_sweep *sw, double gib, double mib_s, double seconds)
{
	if (sw->n >= SWEEP_MAX_POINTS)
		return -EFBIG;
	if (array_room(&sw->pt, &sw->cap, sw->n, sizeof(*sw->pt), 64))
		return -ENOMEM;
	sw->pt[sw->n++] = (struct report_sweep_point){ gib, mib_s, seconds };
	return 0;
}

/* ---- zcav's text ---- */

/* A number of exactly "D+.DD..." with decimals places at p; its length, 0 when not one. */
static size_t fixed_number(const char *p, size_t n, unsigned decimals, double *v)
{
	size_t i = 0, digits;
	char buf[32];

	while (i < n && p[i] >= '0' && p[i] <= '9')
		i++;
	if (!i || i + 1 + decimals > n || p[i] != '.')
		return 0;
	digits = i + 1;
	for (unsigned d = 0; d < decimals; d++)
		if (p[digits + d] < '0' || p[digits + d] > '9')
			return 0;
	i = digits + decimals;
	if (i >= sizeof(buf))
		return 0;
	memcpy(buf, p, i);
	buf[i] = '\0';
	*v = strtod(buf, NULL);
	return i;
}

/*
 * A block line: "G.GG R.RR S.SSS" or "#G.GG ++++ S.SSS". true with its
 * figures (rate NAN for ++++).
 */
static bool block_line(const char *p, size_t n, double *gib, double *rate, double *sec)
{
	bool comment = n && p[0] == '#';
	size_t i = comment, k;

	k = fixed_number(p + i, n - i, 2, gib);
	if (!k || i + k >= n || p[i + k] != ' ')
		return false;
	i += k + 1;
	if (comment) {
		if (n - i < 5 || memcmp(p + i, "++++ ", 5))
			return false;
		*rate = NAN;
		i += 5;
	} else {
		k = fixed_number(p + i, n - i, 2, rate);
		if (!k || i + k >= n || p[i + k] != ' ')
			return false;
		i += k + 1;
	}
	k = fixed_number(p + i, n - i, 3, sec);
	return k && i + k == n;
}

static bool starts(const char *p, size_t n, const char *text)
{
	size_t len = strlen(text);

	return n >= len && !memcmp(p, text, len);
}

static bool ends(const char *p, size_t n, const char *text)
{
	size_t len = strlen(text);

	return n >= len && !memcmp(p + n - len, text, len);
}

/* "#loops: N"'s N: digits to the line's end, 1 to 100000. */
static bool loops_count(const char *p, size_t n, unsigned *loops)
{
	unsigned v = 0;

	if (!n || n > 6)
		return false;
	for (size_t i = 0; i < n; i++) {
		if (p[i] < '0' || p[i] > '9')
			return false;
		v = v * 10 + (unsigned)(p[i] - '0');
	}
	*loops = v;
	return v > 0;
}

/* The sweep under way, made when there is none: labelled from the input and what came before. */
static struct report_sweep *current(struct reader *rd, unsigned line)
{
	struct report_sweep *sw = rd->zcav;

	if (sw)
		return sw;
	sw = calloc(1, sizeof(*sw));
	if (!sw)
		return NULL;
	str_copy(sw->source, sizeof(sw->source), rd->source);
	sw->line = line;
	sw->origin = "zcav text";
	if (rd->zcav_loops)
		snprintf(sw->label, sizeof(sw->label), "%.150s, mean of %u passes", rd->source,
			 rd->zcav_loops);
	else if (rd->zcav_passes)
		snprintf(sw->label, sizeof(sw->label), "%.150s, sweep %u", rd->source,
			 rd->zcav_passes + 1);
	else
		snprintf(sw->label, sizeof(sw->label), "%.150s", rd->source);
	rd->zcav = sw;
	return sw;
}

/* The sweep under way ends (into the set). */
static int finish(struct reader *rd)
{
	struct report_sweep *sw = rd->zcav;
	int ret;

	if (!sw)
		return 0;
	rd->zcav = NULL;
	ret = sweep_add(rd->set, sw);
	free(sw);
	return ret;
}

bool read_zcav_shape(const char *p, size_t n)
{
	double gib, rate, sec;
	unsigned loops;

	return (n == strlen(ZCAV_HEADER) && !memcmp(p, ZCAV_HEADER, n)) ||
	       (starts(p, n, "# Read ") && ends(p, n, " megabytes per second.")) ||
	       (starts(p, n, "#loops: ") && loops_count(p + 8, n - 8, &loops)) ||
	       block_line(p, n, &gib, &rate, &sec);
}

int read_zcav_line(struct reader *rd, const char *p, size_t n, unsigned line)
{
	double gib, rate, sec;
	unsigned loops;
	int ret;

	if (n == strlen(ZCAV_HEADER) && !memcmp(p, ZCAV_HEADER, n)) {
		ret = finish(rd);
		if (ret)
			return ret;
		return current(rd, line) ? 0 : -ENOMEM;
	}
	if (starts(p, n, "# Read ") && ends(p, n, " megabytes per second.")) {
		ret = finish(rd);
		rd->zcav_passes++;
		return ret;
	}
	if (starts(p, n, "#loops: ") && loops_count(p + 8, n - 8, &loops)) {
		ret = finish(rd);
		rd->zcav_loops = loops;
		return ret;
	}
	if (!block_line(p, n, &gib, &rate, &sec))
		return 0;
	if (!current(rd, line))
		return -ENOMEM;
	ret = sweep_point(rd->zcav, gib, rate, sec);
	if (ret == -EFBIG) {
		reader_malformed(rd, line, "a zcav sweep of more than %u blocks", SWEEP_MAX_POINTS);
		return 0;
	}
	return ret;
}

int read_zcav_end(struct reader *rd)
{
	rd->zcav_loops = rd->zcav_passes = 0;
	return finish(rd);
}

/* ---- clyde-zcav's JSON ---- */

/* One array of blocks (a pass's, or the means) as a sweep labelled label. */
static int json_blocks(struct reader *rd, const struct json_node *arr, const char *label,
		       unsigned line)
{
	struct report_sweep sw = { .line = line, .origin = "clyde-zcav JSON" };

	str_copy(sw.source, sizeof(sw.source), rd->source);
	str_copy(sw.label, sizeof(sw.label), label);
	for (const struct json_node *b = arr->child; b; b = b->next) {
		double off, rate, sec;
		int ret;

		if (json_get_number(b, "offset", 0, 9.0e18, true, &off) ||
		    json_get_known(b, "mib_s", 0, 1e12, &rate) ||
		    json_get_number(b, "seconds", 0, 1e9, false, &sec)) {
			reader_malformed(rd, b->line,
					 "a clyde-zcav block without offset, mib_s or seconds");
			sweep_free(&sw);
			return 0;
		}
		ret = sweep_point(&sw, off / (1024.0 * 1024.0 * 1024.0), rate, sec);
		if (ret) {
			sweep_free(&sw);
			return ret == -EFBIG ? 0 : ret;
		}
	}
	return sweep_add(rd->set, &sw);
}

int read_zcav_json(struct reader *rd, const struct json_node *doc, unsigned line)
{
	const struct json_node *targets = json_get(doc, "targets");
	int ret = 0;

	if (!targets || targets->type != JSON_ARRAY) {
		reader_malformed(rd, line, "a clyde-zcav document without a \"targets\" array");
		return 0;
	}
	for (const struct json_node *t = targets->child; t && !ret; t = t->next) {
		const struct json_node *path = json_get(t, "path"), *passes = json_get(t, "passes");
		const struct json_node *mean = json_get(t, "mean");
		char name[128] = "?", label[192];
		unsigned npasses = 0;

		if (path && path->type == JSON_STRING &&
		    reader_printable(path->string, strlen(path->string)))
			snprintf(name, sizeof(name), "%.127s", path->string);
		if (!passes || passes->type != JSON_ARRAY) {
			reader_malformed(rd, t->line,
					 "a clyde-zcav target without a \"passes\" array");
			continue;
		}
		for (const struct json_node *p = passes->child; p && !ret; p = p->next) {
			const struct json_node *blocks = json_get(p, "blocks");

			npasses++;
			if (!blocks || blocks->type != JSON_ARRAY) {
				reader_malformed(rd, p->line,
						 "a clyde-zcav pass without a \"blocks\" array");
				continue;
			}
			snprintf(label, sizeof(label), "%s, pass %u", name, npasses);
			ret = json_blocks(rd, blocks, label, p->line);
		}
		if (!ret && mean && mean->type == JSON_ARRAY) {
			snprintf(label, sizeof(label), "%s, mean of %u passes", name, npasses);
			ret = json_blocks(rd, mean, label, mean->line);
		}
	}
	return ret;
}
