/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef CLYDE_READ_PRIVATE_H
#define CLYDE_READ_PRIVATE_H

/*
 * What clyde-report's readers share, and nothing else includes:
 * read_input.c cuts an input into lines and JSON documents and hands
 * each to the reader its tables pick (read_csv.c, read_json.c,
 * read_zcav.c, read_getc.c); they report what they skip and add what
 * they read through read_common.c, and never call one another.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "report/report.h"

/* One input being read: where its runs go and where its complaints go. */
/* A line of this input's runs, of one kind (read_input.c): its first run and how many so far. */
struct line_count {
	uint64_t hash;
	size_t run;		/* index in the set's runs */
	unsigned count;		/* 0: an empty slot */
};

struct reader {
	struct report_set *set;
	/* this input's lines, a hash table (a power of two of slots, at most half used) */
	struct line_count *lines;
	size_t lines_cap, lines_used;
	const char *source;
	FILE *errs;
	unsigned messages;	/* printed */
	unsigned unprinted;	/* over REPORT_MAX_MESSAGES */
	/* zcav's text (read_zcav.c): the sweep being read, and a "#loops: N" before its header */
	struct report_sweep *zcav;
	unsigned zcav_loops, zcav_passes;
};

/* A line or document skipped: counted, and printed as "source:line: why: skipped". */
__attribute__((format(printf, 3, 4)))
void reader_malformed(struct reader *rd, unsigned line, const char *fmt, ...);
/* A copy of r appended to the set, which then owns its series: 0 or -ENOMEM (r keeps them). */
int reader_add_run(struct reader *rd, const struct report_run *r);
/* A name, version or parameter: printable, no control bytes (they would reach a terminal). */
bool reader_printable(const char *p, size_t n);
/* Copies a parameter into dst (len bytes, NUL included); false when it is not one. */
bool reader_copy_param(char *dst, size_t len, const char *p, size_t n);

/*
 * The run's line identity (report_run.line_identity) from its CSV line,
 * n bytes: "csv:" and the line less trailing blanks; a line too long to
 * keep whole keeps its first bytes and a hash of all of it.
 */
void report_identity_csv(struct report_run *r, const char *p, size_t n);

/* read_csv.c: one line with a comma, n bytes without its newline; 0 or -ENOMEM. */
int read_csv_line(struct reader *rd, const char *p, size_t n, unsigned line);
/* A header line of bonnie++'s or clyde's CSV (read_input.c skips it). */
bool read_csv_header(const char *p, size_t n);
/*
 * read_json.c: a JSON document (doc, from line) that no other reader
 * takes: clyde-result/1 to /15, or said why not. 0 or -ENOMEM.
 */
struct json_node;
int read_json_result(struct reader *rd, const struct json_node *doc, unsigned line);
/*
 * read_getc.c: a getc_putc CSV line (nine fields, n bytes) and a
 * clyde-getc-putc/1 document: 0 or -ENOMEM, a bad one reported and skipped.
 */
int read_getc_csv_line(struct reader *rd, const char *p, size_t n, unsigned line);
int read_getc_json(struct reader *rd, const struct json_node *doc, unsigned line);

/*
 * read_zcav.c: whether a line of text (n bytes, no newline) is zcav's:
 * its header, a comment it writes or a block; read_zcav_line reads one:
 * 0 or -ENOMEM. read_zcav_end at the input's end. read_zcav_json: a
 * clyde-zcav/1 document; 0 or -ENOMEM.
 */
bool read_zcav_shape(const char *p, size_t n);
int read_zcav_line(struct reader *rd, const char *p, size_t n, unsigned line);
int read_zcav_end(struct reader *rd);
int read_zcav_json(struct reader *rd, const struct json_node *doc, unsigned line);

#endif
