// SPDX-License-Identifier: BSD-2-Clause
/*
 * clyde-report's table of getc_putc's and clyde-getc-putc's records: one
 * row per machine name, each method's median KiB/s over its records
 * (what the CSV line and the JSON both carry), then the median CPU per
 * MiB of the JSON records. The text and the page show the same cells.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/report.h"

/* One machine's row: its records' count, and per method a cell. */
struct getc_row {
	const char *name;
	unsigned records, with_cpu;
	char rate[REPORT_GETC_METHODS][24];
	char cpu[REPORT_GETC_METHODS][24];
};

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Whether record i is the first of its name. */
static bool first_of_name(const struct report_set *s, size_t i)
{
	for (size_t j = 0; j < i; j++)
		if (!strcmp(s->getc[j].name, s->getc[i].name))
			return false;
	return true;
}

/*
 * The row of the records named as record first is: "-" where no record
 * measured a method, "+" where every one that did was under 0.5 s, else
 * the median KiB/s of the others (and CPU ms per MiB of the JSON ones).
 */
static int fill_row(const struct report_set *s, size_t first, struct getc_row *row, bool *threaded)
{
	double *v = malloc(s->ngetc * sizeof(*v)), *c = malloc(s->ngetc * sizeof(*c));

	if (!v || !c) {
		free(v);
		free(c);
		return -ENOMEM;
	}
	memset(row, 0, sizeof(*row));
	row->name = s->getc[first].name;
	for (int m = 0; m < REPORT_GETC_METHODS; m++) {
		unsigned nv = 0, nc = 0, hidden = 0;

		for (size_t i = first; i < s->ngetc; i++) {
			const struct report_getc *g = &s->getc[i];

			if (strcmp(g->name, row->name))
				continue;
			if (m == 0) {
				row->records++;
				row->with_cpu += !strcmp(g->format, "clyde-getc-putc-json");
			}
			if (!g->has[m])
				continue;
			if (!isnan(g->cpu_per_mib[m]))
				c[nc++] = g->cpu_per_mib[m];
			if (g->hidden[m])
				hidden++;
			else
				v[nv++] = g->rate[m];
		}
		if (m >= REPORT_GETC_CSV && (nv || hidden))
			*threaded = true;
		qsort(v, nv, sizeof(*v), cmp_double);
		qsort(c, nc, sizeof(*c), cmp_double);
		if (nv)
			snprintf(row->rate[m], sizeof(row->rate[m]), "%.0f", report_median(v, nv));
		else
			snprintf(row->rate[m], sizeof(row->rate[m]), "%s", hidden ? "+" : "-");
		if (nc)
			snprintf(row->cpu[m], sizeof(row->cpu[m]), "%.3g",
				 1000.0 * report_median(c, nc));
		else
			snprintf(row->cpu[m], sizeof(row->cpu[m]), "-");
	}
	free(v);
	free(c);
	return 0;
}

/* Every machine's row, in the order their first records were read: *n of them. */
static int fill_rows(const struct report_set *s, struct getc_row **rows, size_t *n,
		     bool *threaded, bool *cpu)
{
	int ret = 0;

	*n = 0;
	*threaded = *cpu = false;
	*rows = calloc(s->ngetc, sizeof(**rows));
	if (!*rows)
		return -ENOMEM;
	for (size_t i = 0; i < s->ngetc && !ret; i++) {
		if (!first_of_name(s, i))
			continue;
		ret = fill_row(s, i, &(*rows)[*n], threaded);
		*cpu |= (*rows)[*n].with_cpu > 0;
		(*n)++;
	}
	if (ret)
		free(*rows);
	return ret;
}

static void text_line(FILE *out, int name_w, const char *name, const char *count,
		      const char cells[][24], int methods)
{
	fprintf(out, "%-*s %5s", name_w, name, count);
	for (int m = 0; m < methods; m++)
		fprintf(out, " %8s", cells ? cells[m] : report_getc_columns[m]);
	fputc('\n', out);
}

int report_getc_text(FILE *out, const struct report_set *s)
{
	struct getc_row *rows;
	bool threaded, cpu;
	int name_w = 4, methods, ret;
	char count[16];
	size_t n;

	if (!s->ngetc)
		return 0;
	ret = fill_rows(s, &rows, &n, &threaded, &cpu);
	if (ret)
		return ret;
	methods = threaded ? REPORT_GETC_METHODS : REPORT_GETC_CSV;
	for (size_t k = 0; k < n; k++)
		if ((int)strlen(rows[k].name) > name_w)
			name_w = (int)strlen(rows[k].name) > 32 ? 32 : (int)strlen(rows[k].name);
	fprintf(out, "%sgetc_putc (bonnie++'s getc_putc, clyde-getc-putc): one byte at a time, KiB/s,\n"
		"the median of each machine's records. NT: putc/getc in a process without threads;\n"
		"U: the _unlocked calls; T: with an idle thread (clyde-getc-putc's JSON only).\n"
		"+: under 0.5 s in every record that has it; -: not measured.\n",
		s->nruns ? "\n" : "");
	text_line(out, name_w, "Name", "n", NULL, methods);
	for (size_t k = 0; k < n; k++) {
		snprintf(count, sizeof(count), "%u", rows[k].records);
		text_line(out, name_w, rows[k].name, count, rows[k].rate, methods);
	}
	if (cpu) {
		fputs("CPU ms per MiB (user + system of the process that ran the method; the JSON\n"
		      "records only, n of them):\n", out);
		text_line(out, name_w, "Name", "n", NULL, methods);
		for (size_t k = 0; k < n; k++) {
			if (!rows[k].with_cpu)
				continue;
			snprintf(count, sizeof(count), "%u", rows[k].with_cpu);
			text_line(out, name_w, rows[k].name, count, rows[k].cpu, methods);
		}
	}
	free(rows);
	return ferror(out) ? -EIO : 0;
}

static void html_table(FILE *out, const struct getc_row *rows, size_t n, bool cpu, int methods,
		       const char *caption)
{
	fprintf(out, "<table>\n<caption>%s</caption>\n<tr><th>Machine</th><th>n</th>", caption);
	for (int m = 0; m < methods; m++)
		fprintf(out, "<th>%s</th>", report_getc_columns[m]);
	fputs("</tr>\n", out);
	for (size_t k = 0; k < n; k++) {
		if (cpu && !rows[k].with_cpu)
			continue;
		fputs("<tr><td>", out);
		report_xml_text(out, rows[k].name);
		fprintf(out, "</td><td class=\"num\">%u</td>", cpu ? rows[k].with_cpu : rows[k].records);
		for (int m = 0; m < methods; m++)
			fprintf(out, "<td class=\"num\">%s</td>", cpu ? rows[k].cpu[m] : rows[k].rate[m]);
		fputs("</tr>\n", out);
	}
	fputs("</table>\n", out);
}

int report_getc_html(FILE *out, const struct report_set *s)
{
	struct getc_row *rows;
	bool threaded, cpu;
	int ret;
	size_t n;

	if (!s->ngetc)
		return 0;
	ret = fill_rows(s, &rows, &n, &threaded, &cpu);
	if (ret)
		return ret;
	fputs("<h2>One byte at a time (getc_putc)</h2>\n<p class=\"sub\">The records of bonnie++'s "
	      "<code>getc_putc</code> and of <code>clyde-getc-putc</code>: KiB/s per method, the median "
	      "of each machine's records. NT: <code>putc</code>/<code>getc</code> in a process without "
	      "threads; U: the <code>_unlocked</code> calls; T: with an idle thread, where the C "
	      "library takes the stream's lock (clyde-getc-putc's JSON only). +: under 0.5 s in every "
	      "record that has it; -: not measured.</p>\n", out);
	html_table(out, rows, n, false, threaded ? REPORT_GETC_METHODS : REPORT_GETC_CSV,
		   "KiB/s per method (median over the records)");
	if (cpu)
		html_table(out, rows, n, true, threaded ? REPORT_GETC_METHODS : REPORT_GETC_CSV,
			   "CPU ms per MiB (median over the JSON records)");
	free(rows);
	return ferror(out) ? -EIO : 0;
}
