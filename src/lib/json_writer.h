/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef CLYDE_JSON_WRITER_H
#define CLYDE_JSON_WRITER_H

/*
 * A streaming JSON writer: the caller names each value by key and the
 * writer places the commas, quotes, escapes and indentation, so a format
 * file reads as a list of keys. Keys are NULL inside arrays and for the
 * top-level value. The wrap_depth outermost levels of containers put each
 * member on its own line (0: the whole document on one line); deeper
 * containers stay on one line.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define JSON_MAX_DEPTH 32

struct json_writer {
	FILE *out;
	unsigned wrap_depth;
	unsigned depth;
	int error;				/* 0, or the first -errno */
	bool is_array[JSON_MAX_DEPTH];		/* per open container */
	bool has_members[JSON_MAX_DEPTH];
};

void json_writer_init(struct json_writer *w, FILE *out, unsigned wrap_depth);
/* 0 once every container is closed; -EINVAL when the nesting was wrong. */
int json_writer_finish(struct json_writer *w);

void json_obj_begin(struct json_writer *w, const char *key);
void json_obj_end(struct json_writer *w);
void json_arr_begin(struct json_writer *w, const char *key);
void json_arr_end(struct json_writer *w);

/* NULL is written as null. */
void json_add_str(struct json_writer *w, const char *key, const char *s);
void json_add_int(struct json_writer *w, const char *key, int64_t v);
void json_add_uint(struct json_writer *w, const char *key, uint64_t v);
/* Nine significant digits ("%.9g"); NaN and infinities are null. */
void json_add_double(struct json_writer *w, const char *key, double v);
/* A fixed number of decimals ("%.6f" for places 6); NaN and infinities are null. */
void json_add_fixed(struct json_writer *w, const char *key, double v, int places);
void json_add_bool(struct json_writer *w, const char *key, bool v);
void json_add_null(struct json_writer *w, const char *key);
/* A number (as json_add_double), or null where the figure is unknown. */
void json_known_or_null(struct json_writer *w, const char *key, bool known, double v);
/* A number, or null where the figure is unknown (negative). */
void json_known(struct json_writer *w, const char *key, double v);
/* A string, or null where it is empty (nothing was found) or NULL. */
void json_add_text(struct json_writer *w, const char *key, const char *s);
/* true or false, or null where it is not known (negative): a device's rotational flag. */
void json_add_tristate(struct json_writer *w, const char *key, int v);

#endif
