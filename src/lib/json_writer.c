// SPDX-License-Identifier: BSD-2-Clause
/*
 * The streaming JSON writer (json_writer.h): one place that knows where
 * commas, quotes and escapes go.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>

#include "lib/json_writer.h"

void json_writer_init(struct json_writer *w, FILE *out, unsigned wrap_depth)
{
	w->out = out;
	w->wrap_depth = wrap_depth;
	w->depth = 0;
	w->error = 0;
}

int json_writer_finish(struct json_writer *w)
{
	if (w->depth && !w->error)
		w->error = -EINVAL;
	return w->error;
}

static void json_string(FILE *out, const char *s)
{
	fputc('"', out);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			fprintf(out, "\\%c", c);
		else if (c < 0x20)
			fprintf(out, "\\u%04x", c);
		else
			fputc(c, out);	/* UTF-8 passes through */
	}
	fputc('"', out);
}

static bool wraps(const struct json_writer *w, unsigned depth)
{
	return depth <= w->wrap_depth;
}

static void indent(const struct json_writer *w, unsigned levels)
{
	fputc('\n', w->out);
	for (unsigned i = 0; i < levels; i++)
		fputs("  ", w->out);
}

/* The separator and the key before a value in the innermost container. */
static void json_member(struct json_writer *w, const char *key)
{
	unsigned d = w->depth;

	if (!d) {
		if (key && !w->error)
			w->error = -EINVAL;
		return;
	}
	if (w->has_members[d - 1])
		fputc(',', w->out);
	if (wraps(w, d))
		indent(w, d);
	else if (w->has_members[d - 1])
		fputc(' ', w->out);
	w->has_members[d - 1] = true;
	if (w->is_array[d - 1] == (key != NULL) && !w->error)
		w->error = -EINVAL;	/* a key in an array, or none in an object */
	if (key) {
		json_string(w->out, key);
		fputs(": ", w->out);
	}
}

/* After a value: a finished document ends its line. */
static void json_value_done(struct json_writer *w)
{
	if (!w->depth)
		fputc('\n', w->out);
}

static void json_begin(struct json_writer *w, const char *key, bool array)
{
	json_member(w, key);
	fputc(array ? '[' : '{', w->out);
	if (w->depth == JSON_MAX_DEPTH) {
		if (!w->error)
			w->error = -E2BIG;
		return;
	}
	w->is_array[w->depth] = array;
	w->has_members[w->depth] = false;
	w->depth++;
}

static void json_end(struct json_writer *w, bool array)
{
	unsigned d = w->depth;

	if (!d || w->is_array[d - 1] != array) {
		if (!w->error)
			w->error = -EINVAL;
		return;
	}
	if (w->has_members[d - 1] && wraps(w, d))
		indent(w, d - 1);
	fputc(array ? ']' : '}', w->out);
	w->depth--;
	json_value_done(w);
}

void json_obj_begin(struct json_writer *w, const char *key)
{
	json_begin(w, key, false);
}

void json_obj_end(struct json_writer *w)
{
	json_end(w, false);
}

void json_arr_begin(struct json_writer *w, const char *key)
{
	json_begin(w, key, true);
}

void json_arr_end(struct json_writer *w)
{
	json_end(w, true);
}

void json_add_str(struct json_writer *w, const char *key, const char *s)
{
	json_member(w, key);
	if (s)
		json_string(w->out, s);
	else
		fputs("null", w->out);
	json_value_done(w);
}

void json_add_int(struct json_writer *w, const char *key, int64_t v)
{
	json_member(w, key);
	fprintf(w->out, "%" PRId64, v);
	json_value_done(w);
}

void json_add_uint(struct json_writer *w, const char *key, uint64_t v)
{
	json_member(w, key);
	fprintf(w->out, "%" PRIu64, v);
	json_value_done(w);
}

void json_add_double(struct json_writer *w, const char *key, double v)
{
	json_member(w, key);
	if (isfinite(v))
		fprintf(w->out, "%.9g", v);	/* a microsecond of a day; counts without exponents */
	else
		fputs("null", w->out);	/* JSON has no NaN or infinity */
	json_value_done(w);
}

void json_add_fixed(struct json_writer *w, const char *key, double v, int places)
{
	json_member(w, key);
	if (isfinite(v))
		fprintf(w->out, "%.*f", places, v);
	else
		fputs("null", w->out);
	json_value_done(w);
}

void json_add_bool(struct json_writer *w, const char *key, bool v)
{
	json_member(w, key);
	fputs(v ? "true" : "false", w->out);
	json_value_done(w);
}

void json_add_null(struct json_writer *w, const char *key)
{
	json_member(w, key);
	fputs("null", w->out);
	json_value_done(w);
}

void json_known_or_null(struct json_writer *w, const char *key, bool known, double v)
{
	if (known)
		json_add_double(w, key, v);
	else
		json_add_null(w, key);
}

void json_known(struct json_writer *w, const char *key, double v)
{
	json_known_or_null(w, key, v >= 0, v);
}

void json_add_text(struct json_writer *w, const char *key, const char *s)
{
	json_add_str(w, key, s && s[0] ? s : NULL);
}

void json_add_tristate(struct json_writer *w, const char *key, int v)
{
	if (v < 0)
		json_add_null(w, key);
	else
		json_add_bool(w, key, v);
}
