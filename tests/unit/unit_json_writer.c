// SPDX-License-Identifier: BSD-2-Clause
/* The JSON writer: commas, nesting, layout, escaping and numbers, against text written by hand. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "lib/json_writer.h"
#include "unit.h"

struct capture {
	FILE *f;
	char *text;
	size_t len;
	struct json_writer w;
};

static void capture_start(struct capture *c, unsigned wrap_depth)
{
	c->text = NULL;
	c->len = 0;
	c->f = open_memstream(&c->text, &c->len);
	if (!c->f) {
		perror("open_memstream");
		exit(1);
	}
	json_writer_init(&c->w, c->f, wrap_depth);
}

/* Checks the text and the writer's verdict, then frees the capture. */
static void capture_check(struct capture *c, const char *want, int want_error, int line)
{
	int error = json_writer_finish(&c->w);

	fclose(c->f);
	CHECK(!strcmp(c->text, want), "line %d: got\n%s\nwant\n%s", line, c->text, want);
	CHECK(error == want_error, "line %d: error %d, want %d", line, error, want_error);
	free(c->text);
}

static void inline_nesting(void)
{
	struct capture c;

	capture_start(&c, 0);
	json_obj_begin(&c.w, NULL);
	json_add_int(&c.w, "a", -3);
	json_arr_begin(&c.w, "list");
	json_add_uint(&c.w, NULL, 18446744073709551615ull);
	json_obj_begin(&c.w, NULL);
	json_add_bool(&c.w, "yes", true);
	json_add_bool(&c.w, "no", false);
	json_obj_end(&c.w);
	json_add_null(&c.w, NULL);
	json_arr_end(&c.w);
	json_obj_begin(&c.w, "empty");
	json_obj_end(&c.w);
	json_arr_begin(&c.w, "none");
	json_arr_end(&c.w);
	json_add_str(&c.w, "s", "x");
	json_add_str(&c.w, "missing", NULL);
	json_obj_end(&c.w);
	capture_check(&c, "{\"a\": -3, \"list\": [18446744073709551615, {\"yes\": true, \"no\": false}, "
		      "null], \"empty\": {}, \"none\": [], \"s\": \"x\", \"missing\": null}\n", 0,
		      __LINE__);
}

static void wrapped_layout(void)
{
	struct capture c;

	capture_start(&c, 2);
	json_obj_begin(&c.w, NULL);
	json_add_int(&c.w, "n", 1);
	json_arr_begin(&c.w, "runs");
	json_obj_begin(&c.w, NULL);
	json_add_int(&c.w, "x", 2);
	json_add_int(&c.w, "y", 3);
	json_obj_end(&c.w);
	json_add_int(&c.w, NULL, 4);
	json_arr_end(&c.w);
	json_obj_begin(&c.w, "empty");
	json_obj_end(&c.w);
	json_obj_end(&c.w);
	capture_check(&c, "{\n  \"n\": 1,\n  \"runs\": [\n    {\"x\": 2, \"y\": 3},\n    4\n  ],\n"
		      "  \"empty\": {}\n}\n", 0, __LINE__);
}

static void escaping(void)
{
	struct capture c;
	char all_controls[32];
	char want[32 * 6 + 16] = "[\"";

	capture_start(&c, 0);
	json_arr_begin(&c.w, NULL);
	json_add_str(&c.w, NULL, "say \"hi\" \\ back\\slash/");
	json_add_str(&c.w, NULL, "tab\there\nnew\x01\x1f\x7f");
	json_add_str(&c.w, NULL, "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x93\x81");
	json_add_str(&c.w, NULL, "");
	json_arr_end(&c.w);
	capture_check(&c, "[\"say \\\"hi\\\" \\\\ back\\\\slash/\", "
		      "\"tab\\u0009here\\u000anew\\u0001\\u001f\x7f\", "
		      "\"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x93\x81\", \"\"]\n", 0, __LINE__);

	/* every control character, 1 to 31, as \u00XX in lower-case hex */
	for (int ch = 1; ch < 32; ch++) {
		all_controls[ch - 1] = (char)ch;
		snprintf(want + strlen(want), sizeof(want) - strlen(want), "\\u%04x", ch);
	}
	all_controls[31] = '\0';
	strcat(want, "\"]\n");
	CHECK(!strncmp(want, "[\"\\u0001\\u0002", 14) && strstr(want, "\\u000d\\u000e") &&
	      strstr(want, "\\u001e\\u001f\"]"), "the expected text itself: %s", want);
	capture_start(&c, 0);
	json_arr_begin(&c.w, NULL);
	json_add_str(&c.w, NULL, all_controls);
	json_arr_end(&c.w);
	capture_check(&c, want, 0, __LINE__);

	/* keys are escaped the same way */
	capture_start(&c, 0);
	json_obj_begin(&c.w, NULL);
	json_add_int(&c.w, "a\"b\n", 1);
	json_obj_end(&c.w);
	capture_check(&c, "{\"a\\\"b\\u000a\": 1}\n", 0, __LINE__);
}

static void numbers(void)
{
	struct capture c;

	capture_start(&c, 0);
	json_arr_begin(&c.w, NULL);
	json_add_double(&c.w, NULL, 0.1);
	json_add_double(&c.w, NULL, 123456789.0);
	json_add_double(&c.w, NULL, 1234567890.0);
	json_add_double(&c.w, NULL, -2.5e-7);
	json_add_double(&c.w, NULL, NAN);
	json_add_double(&c.w, NULL, INFINITY);
	json_add_double(&c.w, NULL, -INFINITY);
	json_add_fixed(&c.w, NULL, 1.5, 6);
	json_add_fixed(&c.w, NULL, 0.0000004, 9);
	json_add_fixed(&c.w, NULL, NAN, 6);
	json_add_int(&c.w, NULL, INT64_MIN);
	json_arr_end(&c.w);
	capture_check(&c, "[0.1, 123456789, 1.23456789e+09, -2.5e-07, null, null, null, "
		      "1.500000, 0.000000400, null, -9223372036854775808]\n", 0, __LINE__);
}

/* Known or null: a figure not measured is null, never a made-up number; 0 is known. */
static void known_or_null(void)
{
	struct capture c;

	capture_start(&c, 0);
	json_obj_begin(&c.w, NULL);
	json_known_or_null(&c.w, "a", true, 2.5);
	json_known_or_null(&c.w, "b", false, 2.5);
	json_known(&c.w, "c", 0);
	json_known(&c.w, "d", -1);
	json_known(&c.w, "e", NAN);
	json_obj_end(&c.w);
	capture_check(&c, "{\"a\": 2.5, \"b\": null, \"c\": 0, \"d\": null, \"e\": null}\n", 0,
		      __LINE__);
	/* text: an empty or absent string is null; a tristate: negative is null */
	capture_start(&c, 0);
	json_obj_begin(&c.w, NULL);
	json_add_text(&c.w, "a", "x");
	json_add_text(&c.w, "b", "");
	json_add_text(&c.w, "c", NULL);
	json_add_tristate(&c.w, "d", 1);
	json_add_tristate(&c.w, "e", 0);
	json_add_tristate(&c.w, "f", -1);
	json_obj_end(&c.w);
	capture_check(&c, "{\"a\": \"x\", \"b\": null, \"c\": null, \"d\": true, "
		      "\"e\": false, \"f\": null}\n", 0, __LINE__);
}

static void misuse(void)
{
	struct capture c;

	/* a key inside an array */
	capture_start(&c, 0);
	json_arr_begin(&c.w, NULL);
	json_add_int(&c.w, "k", 1);
	json_arr_end(&c.w);
	capture_check(&c, "[\"k\": 1]\n", -EINVAL, __LINE__);

	/* a container left open */
	capture_start(&c, 0);
	json_obj_begin(&c.w, NULL);
	capture_check(&c, "{", -EINVAL, __LINE__);

	/* an array closed as an object */
	capture_start(&c, 0);
	json_arr_begin(&c.w, NULL);
	json_obj_end(&c.w);
	capture_check(&c, "[", -EINVAL, __LINE__);

	/* deeper than the writer keeps */
	capture_start(&c, 0);
	for (int i = 0; i <= JSON_MAX_DEPTH; i++)
		json_arr_begin(&c.w, NULL);
	CHECK(c.w.error == -E2BIG, "error %d", c.w.error);
	fclose(c.f);
	free(c.text);
}

int main(void)
{
	inline_nesting();
	wrapped_layout();
	escaping();
	numbers();
	known_or_null();
	misuse();
	return unit_verdict("unit_json_writer");
}
