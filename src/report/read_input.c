// SPDX-License-Identifier: BSD-2-Clause
/*
 * clyde-report's input: a stream or buffer cut into lines of text and
 * JSON documents (a line that starts with '{'), each handed to the reader
 * its tables below pick, by the line's shape or the document's schema.
 * No reader calls another: what they share is read_common.c's.
 */
#include "config.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/clyde.h"
#include "lib/json_reader.h"
#include "report/read_private.h"
#include "report/report.h"

void report_set_init(struct report_set *s)
{
	memset(s, 0, sizeof(*s));
	s->baseline = -1;
}

void report_set_free(struct report_set *s)
{
	report_sweeps_free(s);
	for (size_t i = 0; i < s->nruns; i++)
		report_run_free_series(&s->runs[i]);
	for (size_t i = 0; i < s->nconfigs; i++)
		for (int ph = 0; ph < PH_COUNT; ph++)
			for (int m = 0; m < RM_ALL; m++)
				free(s->configs[i].stat[ph][m].values);
	free(s->configs);
	free(s->runs);
	free(s->getc);
	report_set_init(s);
}

/* ---- the readers ---- */

/* A line of text around a table: counted, not read. */
static bool no_comma(const char *p, size_t n)
{
	return !memchr(p, ',', n);
}

static int text_line(struct reader *rd, const char *p, size_t n, unsigned line)
{
	(void)p;
	(void)n;
	(void)line;
	rd->set->text_lines++;
	return 0;
}

/* A CSV header line: skipped. */
static int header_line(struct reader *rd, const char *p, size_t n, unsigned line)
{
	(void)rd;
	(void)p;
	(void)n;
	(void)line;
	return 0;
}

/* getc_putc's CSV line: the machine and eight KiB/s. */
static bool getc_fields(const char *p, size_t n)
{
	size_t commas = 0;

	for (size_t i = 0; i < n; i++)
		commas += p[i] == ',';
	return commas == REPORT_GETC_CSV;
}

/* Any other line with a comma: bonnie++'s or clyde's CSV, or said why not. */
static bool any_line(const char *p, size_t n)
{
	(void)p;
	(void)n;
	return true;
}

/*
 * The lines a reader takes, by their shape; the first row whose shape
 * fits reads it. zcav's text first: its header has commas.
 */
struct line_reader {
	bool (*fits)(const char *p, size_t n);
	int (*read)(struct reader *rd, const char *p, size_t n, unsigned line);
};

static const struct line_reader line_readers[] = {
	{ read_zcav_shape, read_zcav_line },
	{ no_comma, text_line },
	{ read_csv_header, header_line },
	{ getc_fields, read_getc_csv_line },
	{ any_line, read_csv_line },
};

/*
 * The documents a reader takes, by their "schema"; the last row takes any
 * other, clyde's results, whose reader says what it cannot read.
 */
struct doc_reader {
	const char *schema;
	int (*read)(struct reader *rd, const struct json_node *doc, unsigned line);
};

static const struct doc_reader doc_readers[] = {
	{ "clyde-zcav/1", read_zcav_json },
	{ REPORT_GETC_SCHEMA, read_getc_json },
	{ NULL, read_json_result },
};

static const struct doc_reader *doc_reader(const struct json_node *doc)
{
	const struct json_node *schema = json_get(doc, "schema");
	size_t last = sizeof(doc_readers) / sizeof(doc_readers[0]) - 1;

	for (size_t i = 0; i < last; i++)
		if (schema && schema->type == JSON_STRING &&
		    !strcmp(schema->string, doc_readers[i].schema))
			return &doc_readers[i];
	return &doc_readers[last];
}

/* ---- lines and streams ---- */

/*
 * A JSON document at p (its '{', on line); *used and *lines say how far
 * it went. A broken document is skipped to the next line that starts
 * with '{', where clyde's next document would begin.
 */
static int read_document(struct reader *rd, const char *p, size_t len, unsigned line,
			 size_t *used, unsigned *lines)
{
	struct json_parser jp;
	struct json_node *doc = json_parse(&jp, p, len, line);
	const char *next;
	int ret = 0;

	*used = len;
	*lines = 0;
	if (doc) {
		*used = (size_t)(jp.p - p);
		*lines = jp.line - line;
		ret = doc_reader(doc)->read(rd, doc, line);
		json_free(doc);
		return ret;
	}
	if (jp.oom)
		return -ENOMEM;
	reader_malformed(rd, line, "JSON document: %s (line %u)", jp.why, jp.why_line);
	for (next = p; (next = memchr(next, '\n', len - (size_t)(next - p))); next++) {
		if ((size_t)(next + 1 - p) < len && next[1] == '{') {
			*used = (size_t)(next + 1 - p);
			break;
		}
	}
	for (size_t i = 0; i < *used; i++)
		*lines += p[i] == '\n';
	return 0;
}

/* A line that does not start a JSON document: its reader by its shape. */
static int read_line(struct reader *rd, const char *p, size_t n, unsigned line)
{
	size_t i;

	while (n && (p[n - 1] == '\r' || p[n - 1] == ' ' || p[n - 1] == '\t'))
		n--;
	if (!n)
		return 0;
	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)p[i];

		if ((c < 0x20 && c != '\t') || c == 0x7f) {
			reader_malformed(rd, line, "binary data, not a line of text");
			return 0;
		}
	}
	for (i = 0; !line_readers[i].fits(p, n); i++)
		;
	return line_readers[i].read(rd, p, n, line);
}

int report_read_buffer(struct report_set *s, const char *buf, size_t len,
		       const char *source, FILE *errs)
{
	struct reader rd = { .set = s, .source = source, .errs = errs };
	size_t pos = 0;
	unsigned line = 1;
	int ret = 0;

	if (len >= 3 && !memcmp(buf, "\xef\xbb\xbf", 3))
		pos = 3;	/* a UTF-8 byte order mark, as some editors save */
	while (pos < len && !ret) {
		const char *start = buf + pos;
		const char *nl = memchr(start, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - start) : len - pos;
		size_t lead = 0;

		while (lead < n && (start[lead] == ' ' || start[lead] == '\t' || start[lead] == '\r'))
			lead++;
		if (lead < n && start[lead] == '{') {
			size_t used;
			unsigned lines;

			ret = read_document(&rd, start + lead, len - pos - lead, line, &used, &lines);
			pos += lead + used;
			line += lines;
			continue;
		}
		ret = read_line(&rd, start, n, line);
		pos += n + (nl ? 1 : 0);
		line++;
	}
	if (!ret)
		ret = read_zcav_end(&rd);
	if (rd.unprinted)
		fprintf(errs, "%s: %u more malformed lines not shown\n", source, rd.unprinted);
	free(rd.lines);
	return ret;
}

int report_read_stream(struct report_set *s, FILE *in, const char *source, FILE *errs)
{
	size_t len = 0, cap = 0;
	char *buf = NULL;
	int ret = 0;

	for (;;) {
		size_t got;

		if (cap - len < 65536) {
			size_t ncap = cap ? cap * 2 : 65536;
			char *nbuf;

			if (cap >= REPORT_MAX_INPUT) {
				ret = -EFBIG;
				goto out;
			}
			nbuf = realloc(buf, ncap + 1);
			if (!nbuf) {
				ret = -ENOMEM;
				goto out;
			}
			buf = nbuf;
			cap = ncap;
		}
		got = fread(buf + len, 1, cap - len, in);
		len += got;
		if (got)
			continue;
		if (ferror(in)) {
			ret = errno ? -errno : -EIO;
			goto out;
		}
		break;
	}
	if (len > REPORT_MAX_INPUT) {
		ret = -EFBIG;
		goto out;
	}
	ret = report_read_buffer(s, buf ? buf : "", len, source, errs);
out:
	free(buf);
	return ret;
}
