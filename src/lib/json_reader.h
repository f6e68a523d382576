/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef CLYDE_JSON_READER_H
#define CLYDE_JSON_READER_H

/*
 * A JSON reader for input nobody vouches for (clyde-report's documents,
 * and a fuzzer): json_parse reads one value (RFC 8259) from a buffer into
 * a tree of json_node, bounded in depth and in count, and says where it
 * stopped, so a caller can read the next document after it or skip a
 * broken one. Strings are decoded to UTF-8: NUL and lone surrogates
 * become U+FFFD, so every string is a C string. Numbers are doubles
 * (finite: one out of range is an error). The json_get functions look a
 * member up by name and check its type and range.
 */
#include <stdbool.h>
#include <stddef.h>

enum json_type {
	JSON_NULL,
	JSON_BOOL,
	JSON_NUMBER,
	JSON_STRING,
	JSON_ARRAY,
	JSON_OBJECT,
};

struct json_node {
	enum json_type type;
	unsigned line;
	bool boolean;
	double number;
	char *string;		/* JSON_STRING, decoded to UTF-8 */
	char *key;		/* a member of an object: its name */
	struct json_node *child, *next;	/* an array's elements, an object's members, in order */
};

struct json_parser {
	const char *p, *end;	/* after json_parse: just past the value read */
	unsigned line;		/* p's line, counted from json_parse's line */
	unsigned depth;
	size_t nodes;
	size_t max_nodes;	/* json_parse's bound for this input */
	const char *why;	/* the first error */
	unsigned why_line;
	bool oom;		/* the error was running out of memory */
};

/* Deep enough for any clyde document; bounded so that "[[[[..." cannot exhaust the stack. */
#define JSON_READ_MAX_DEPTH	64u
/*
 * The values one document may hold: JSON_READ_MAX_NODES, or one per
 * JSON_READ_BYTES_PER_NODE bytes of the input where that is more. A clyde
 * document's time series take 8 to 12 bytes a value, so -x 20 with the
 * default intervals (about 2.5 million values in 20 MB) is read; a node
 * is about 70 bytes with malloc's, so the tree stays under 9 times the
 * input, and a run of two-byte values ("0,0,0,...") is refused rather
 * than made 35 times larger.
 */
#define JSON_READ_MAX_NODES	(1u << 21)
#define JSON_READ_BYTES_PER_NODE	8u

/*
 * The value at the start of [p, p + len) (after any white space), whose
 * first line is line; what follows it is left unread, at jp->p. NULL on
 * error, with jp->why and jp->why_line (jp->oom: out of memory). Free the
 * tree with json_free.
 */
struct json_node *json_parse(struct json_parser *jp, const char *p, size_t len, unsigned line);
void json_free(struct json_node *n);

/* The member of obj named key; NULL when there is none or obj is not an object. */
const struct json_node *json_get(const struct json_node *obj, const char *key);
/* A number member within [min, max], whole when asked; -ENOENT when absent, -EINVAL when bad. */
int json_get_number(const struct json_node *obj, const char *key, double min, double max,
		    bool whole, double *out);
/* A number member that may be null or absent (*out NAN: not known); -EINVAL when bad. */
int json_get_known(const struct json_node *obj, const char *key, double min, double max,
		   double *out);
/* A boolean member, or otherwise when it is absent or not a boolean. */
bool json_get_bool(const struct json_node *obj, const char *key, bool otherwise);

#endif
