// SPDX-License-Identifier: BSD-2-Clause
/*
 * clyde-report's reader of getc_putc's CSV line (bonnie++'s, and
 * clyde-getc-putc's, which is the same) and of clyde-getc-putc's JSON
 * document, into report_getc records. As the other readers: every field
 * checked, a bad one rejects its whole line or document.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lib/grow.h"
#include "lib/json_reader.h"
#include "lib/strutil.h"
#include "report/read_private.h"
#include "report/report.h"

const char *const report_getc_columns[REPORT_GETC_METHODS] = {
	"write", "read", "putcNT", "getcNT", "putc", "getc", "putcU", "getcU",
	"putcT", "getcT", "putcUT", "getcUT",
};

static int add_getc(struct reader *rd, const struct report_getc *g)
{
	struct report_set *s = rd->set;
	int ret = array_room(&s->getc, &s->getc_cap, s->ngetc, sizeof(*s->getc), 8);

	if (ret)
		return ret;
	s->getc[s->ngetc++] = *g;
	return 0;
}

static void getc_init(struct report_getc *g, const struct reader *rd, unsigned line,
		      const char *format)
{
	memset(g, 0, sizeof(*g));
	str_copy(g->source, sizeof(g->source), rd->source);
	g->line = line;
	str_copy(g->format, sizeof(g->format), format);
	g->size_kib = NAN;
	for (int i = 0; i < REPORT_GETC_METHODS; i++)
		g->cpu_per_mib[i] = NAN;
}

/* A cell: "" not measured, "++++++" hidden, else whole KiB/s. */
static bool read_cell(struct report_getc *g, int i, const char *p, size_t n)
{
	double v = 0;

	if (!n)
		return true;
	if (n == 6 && !memcmp(p, "++++++", 6)) {
		g->has[i] = g->hidden[i] = true;
		return true;
	}
	if (n > 15)
		return false;
	for (size_t k = 0; k < n; k++) {
		if (p[k] < '0' || p[k] > '9')
			return false;
		v = v * 10 + (p[k] - '0');
	}
	g->has[i] = true;
	g->rate[i] = v;
	return true;
}

int read_getc_csv_line(struct reader *rd, const char *p, size_t n, unsigned line)
{
	const char *end = p + n, *f = memchr(p, ',', n);
	struct report_getc g;

	getc_init(&g, rd, line, "getc_putc-csv");
	if (!f || f == p || (size_t)(f - p) >= sizeof(g.name) || !reader_printable(p, (size_t)(f - p))) {
		reader_malformed(rd, line, "a getc_putc line whose machine name is empty, longer "
				 "than %zu bytes or not text", sizeof(g.name) - 1);
		return 0;
	}
	memcpy(g.name, p, (size_t)(f - p));
	for (int i = 0; i < REPORT_GETC_CSV; i++) {
		const char *start = f + 1, *next = memchr(start, ',', (size_t)(end - start));

		f = next ? next : end;
		if (!read_cell(&g, i, start, (size_t)(f - start))) {
			reader_malformed(rd, line, "a getc_putc line whose %s field is not KiB/s, "
					 "++++++ or empty", report_getc_columns[i]);
			return 0;
		}
	}
	return add_getc(rd, &g);
}

static int method_index(const char *column)
{
	for (int i = 0; i < REPORT_GETC_METHODS; i++)
		if (!strcmp(column, report_getc_columns[i]))
			return i;
	return -1;
}

/* One element of "methods": false when it is not one. */
static bool json_method(struct report_getc *g, const struct json_node *m)
{
	const struct json_node *column = json_get(m, "column");
	double rate, cpu;
	int i;

	if (!column || column->type != JSON_STRING || (i = method_index(column->string)) < 0)
		return false;
	if (json_get_known(m, "kib_per_s", 0, 1e15, &rate) ||
	    json_get_known(m, "cpu_s_per_mib", 0, 1e9, &cpu))
		return false;
	if (isnan(rate))
		return true;
	g->has[i] = true;
	g->hidden[i] = json_get_bool(m, "under_min_time", false);
	g->rate[i] = rate;
	g->cpu_per_mib[i] = cpu;
	return true;
}

int read_getc_json(struct reader *rd, const struct json_node *doc, unsigned line)
{
	const struct json_node *machine = json_get(doc, "machine"), *methods = json_get(doc, "methods");
	const struct json_node *version = json_get(doc, "clyde_version");
	struct report_getc g;
	double size;

	getc_init(&g, rd, line, "clyde-getc-putc-json");
	if (!machine || machine->type != JSON_STRING || !machine->string[0] ||
	    strlen(machine->string) >= sizeof(g.name) ||
	    !reader_printable(machine->string, strlen(machine->string))) {
		reader_malformed(rd, line, "a clyde-getc-putc document without a \"machine\" name");
		return 0;
	}
	str_copy(g.name, sizeof(g.name), machine->string);
	if (version && version->type == JSON_STRING)
		reader_copy_param(g.version, sizeof(g.version), version->string,
				  strlen(version->string));
	if (!json_get_number(doc, "size_kib", 1, 1e15, true, &size))
		g.size_kib = size;
	if (!methods || methods->type != JSON_ARRAY) {
		reader_malformed(rd, line, "a clyde-getc-putc document without a \"methods\" array");
		return 0;
	}
	for (const struct json_node *m = methods->child; m; m = m->next) {
		if (!json_method(&g, m)) {
			reader_malformed(rd, m->line, "a clyde-getc-putc method without a known "
					 "\"column\" or with a bad figure");
			return 0;
		}
	}
	return add_getc(rd, &g);
}
