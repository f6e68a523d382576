// SPDX-License-Identifier: BSD-2-Clause
/*
 * The JSON reader: values of every type, escapes and \u surrogates,
 * nesting to its bound, numbers, where it stops, and malformed input
 * rejected with its reason and line.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lib/json_reader.h"
#include "unit.h"

static struct json_node *parse(struct json_parser *jp, const char *text)
{
	return json_parse(jp, text, strlen(text), 1);
}

/* text must be refused for why, found on line why_line. */
static void expect_error(const char *text, const char *why, unsigned why_line)
{
	struct json_parser jp;
	struct json_node *n = parse(&jp, text);

	CHECK(!n, "'%s' is refused", text);
	json_free(n);
	CHECK(jp.why && !strcmp(jp.why, why), "'%s': why '%s', want '%s'", text,
	      jp.why ? jp.why : "(none)", why);
	CHECK(jp.why_line == why_line, "'%s': on line %u, want %u", text, jp.why_line, why_line);
	CHECK(!jp.oom, "'%s': not out of memory", text);
}

/* The decoded string of a one-string document. */
static void expect_string(const char *text, const char *want)
{
	struct json_parser jp;
	struct json_node *n = parse(&jp, text);

	CHECK(n && n->type == JSON_STRING, "'%s' is a string", text);
	if (n && n->type == JSON_STRING)
		CHECK(!strcmp(n->string, want), "'%s' decodes to the %zu bytes wanted, not %zu",
		      text, strlen(want), strlen(n->string));
	json_free(n);
}

static void expect_number(const char *text, double want)
{
	struct json_parser jp;
	struct json_node *n = parse(&jp, text);

	CHECK(n && n->type == JSON_NUMBER && n->number == want, "'%s' is %g", text, want);
	if (n && want == 0)
		CHECK(!signbit(n->number) == !signbit(want), "'%s' keeps its sign", text);
	json_free(n);
}

static void document(void)
{
	const char *text = "{\n  \"name\": \"ext4\",\n  \"runs\": [1, -2.5, true, false, null],\n"
			   "  \"io\": {\"size_mib\": 512, \"empty\": {}, \"none\": []},\n"
			   "  \"name\": \"second\"\n} trailing";
	struct json_parser jp;
	struct json_node *doc = parse(&jp, text);
	const struct json_node *runs, *io, *e;
	double v = 0;

	CHECK(doc && doc->type == JSON_OBJECT, "the document is an object");
	if (!doc)
		return;
	CHECK(doc->line == 1, "the object starts on line 1, not %u", doc->line);
	CHECK_STR(jp.p, " trailing");
	CHECK(jp.line == 6, "the parser stops on line 6, not %u", jp.line);
	/* the first of two members of one name */
	CHECK(json_get(doc, "name") && !strcmp(json_get(doc, "name")->string, "ext4"), "name is ext4");
	CHECK(json_get(doc, "missing") == NULL, "no member missing");
	runs = json_get(doc, "runs");
	CHECK(runs && runs->type == JSON_ARRAY && runs->line == 3, "runs: an array on line 3");
	e = runs ? runs->child : NULL;
	CHECK(e && e->type == JSON_NUMBER && e->number == 1 && !e->key, "runs[0] is 1, without a key");
	e = e ? e->next : NULL;
	CHECK(e && e->type == JSON_NUMBER && e->number == -2.5, "runs[1] is -2.5");
	e = e ? e->next : NULL;
	CHECK(e && e->type == JSON_BOOL && e->boolean, "runs[2] is true");
	e = e ? e->next : NULL;
	CHECK(e && e->type == JSON_BOOL && !e->boolean, "runs[3] is false");
	e = e ? e->next : NULL;
	CHECK(e && e->type == JSON_NULL && !e->next, "runs[4] is null, the last");
	CHECK(json_get(runs, "0") == NULL, "an array has no members by name");
	io = json_get(doc, "io");
	CHECK(io && io->type == JSON_OBJECT && io->child && !strcmp(io->child->key, "size_mib"),
	      "io's first member is size_mib");
	CHECK(json_get(io, "empty") && json_get(io, "empty")->type == JSON_OBJECT &&
	      !json_get(io, "empty")->child, "an empty object");
	CHECK(json_get(io, "none") && json_get(io, "none")->type == JSON_ARRAY &&
	      !json_get(io, "none")->child, "an empty array");

	CHECK(json_get_number(io, "size_mib", 0, 1e6, true, &v) == 0 && v == 512, "size_mib 512");
	CHECK(json_get_number(io, "size_mib", 0, 100, false, &v) == -EINVAL, "over the maximum");
	CHECK(json_get_number(io, "size_mib", 1000, 1e6, false, &v) == -EINVAL, "under the minimum");
	CHECK(json_get_number(io, "absent", 0, 1, false, &v) == -ENOENT, "absent");
	CHECK(json_get_number(io, "empty", 0, 1, false, &v) == -EINVAL, "an object is not a number");
	CHECK(json_get_number(runs, "x", 0, 1, false, &v) == -ENOENT, "an array has no members");
	CHECK(json_get_number(doc, "name", 0, 1, false, &v) == -EINVAL, "a string is not a number");
	json_free(doc);
}

static void getters(void)
{
	const char *text = "{\"half\": 0.5, \"nothing\": null, \"word\": \"x\",\n"
			   "\"yes\": true, \"no\": false}";
	struct json_parser jp;
	struct json_node *doc = parse(&jp, text);
	double v = 0;

	CHECK(doc != NULL, "the getters' document parses");
	CHECK(json_get_number(doc, "half", 0, 1, true, &v) == -EINVAL, "0.5 is not whole");
	CHECK(json_get_number(doc, "half", 0, 1, false, &v) == 0 && v == 0.5, "0.5 as a fraction");
	CHECK(json_get_known(doc, "half", 0, 1, &v) == 0 && v == 0.5, "known: 0.5");
	CHECK(json_get_known(doc, "half", 0.75, 1, &v) == -EINVAL, "known: under the minimum");
	v = 0;
	CHECK(json_get_known(doc, "nothing", 0, 1, &v) == 0 && isnan(v), "known: null is NAN");
	v = 0;
	CHECK(json_get_known(doc, "absent", 0, 1, &v) == 0 && isnan(v), "known: absent is NAN");
	CHECK(json_get_known(doc, "word", 0, 1, &v) == -EINVAL, "known: a string is bad");
	CHECK(json_get_bool(doc, "yes", false), "yes is true");
	CHECK(!json_get_bool(doc, "no", true), "no is false");
	CHECK(json_get_bool(doc, "word", true) && !json_get_bool(doc, "word", false),
	      "a string is not a boolean: the default");
	CHECK(json_get_bool(doc, "absent", true), "absent: the default");
	CHECK(json_get(NULL, "half") == NULL, "nothing has no members");
	json_free(doc);
}

static void escapes(void)
{
	expect_string("\"plain\"", "plain");
	expect_string("\"\"", "");
	expect_string("\"\\\" \\\\ \\/ \\b \\f \\n \\r \\t\"", "\" \\ / \b \f \n \r \t");
	expect_string("\"caf\\u00e9\"", "caf\xc3\xa9");
	expect_string("\"\\u00E9\\u20ac\"", "\xc3\xa9\xe2\x82\xac");
	expect_string("\"\\u0041\"", "A");
	/* a surrogate pair is one code point, in four bytes */
	expect_string("\"\\ud83d\\ude00\"", "\xf0\x9f\x98\x80");
	expect_string("\"\\uD800\\uDC00\"", "\xf0\x90\x80\x80");
	/* a lone surrogate or NUL is U+FFFD: every string stays a C string */
	expect_string("\"\\ud800\"", "\xef\xbf\xbd");
	expect_string("\"\\udc00x\"", "\xef\xbf\xbdx");
	expect_string("\"\\ud800\\u0041\"", "\xef\xbf\xbd" "A");
	expect_string("\"a\\u0000b\"", "a\xef\xbf\xbd" "b");
	/* raw UTF-8 passes as it is */
	expect_string("\"\xc3\xa9\"", "\xc3\xa9");
	expect_error("\"\\x\"", "an unknown escape in a string", 1);
	expect_error("\"\\u12\"", "a \\u escape without four hex digits", 1);
	expect_error("\"\\u12g4\"", "a \\u escape without four hex digits", 1);
	expect_error("\"tab\there\"", "a control character in a string", 1);
	expect_error("\"open", "a string without its closing quote", 1);
	expect_error("\"ends in \\", "a string without its closing quote", 1);
}

static void numbers(void)
{
	expect_number("0", 0);
	expect_number("-0", -0.0);
	expect_number("42", 42);
	expect_number("-12.5e+2", -1250);
	expect_number("1E-2", 0.01);
	expect_number("0.5", 0.5);
	expect_number("1e308", 1e308);
	expect_number("18446744073709551615", 18446744073709551615.0);
	expect_error("1e309", "a number out of range", 1);
	expect_error("-", "a malformed number", 1);
	expect_error("1.", "a malformed number", 1);
	expect_error("1.e5", "a malformed number", 1);
	expect_error("1e", "a malformed number", 1);
	expect_error("1e+", "a malformed number", 1);
	expect_error("-x", "a malformed number", 1);
	expect_error(".5", "an unexpected character", 1);
	expect_error("+1", "an unexpected character", 1);
	expect_error("[01]", "a missing ',' or closing bracket", 1);
	expect_error("1234567890123456789012345678901234567890123456789012345678901234",
		     "a number too long", 1);
}

/* depth containers, each an array, nested in one another. */
static char *nested(unsigned depth)
{
	char *s = malloc(2 * depth + 1);

	if (!s)
		exit(1);
	memset(s, '[', depth);
	memset(s + depth, ']', depth);
	s[2 * depth] = '\0';
	return s;
}

static void nesting(void)
{
	struct json_parser jp;
	char *deepest = nested(JSON_READ_MAX_DEPTH), *over = nested(JSON_READ_MAX_DEPTH + 1);
	struct json_node *n = parse(&jp, deepest);
	unsigned depth = 0;

	for (const struct json_node *c = n; c; c = c->child)
		depth++;
	CHECK(depth == JSON_READ_MAX_DEPTH, "%u arrays deep read, not %u", JSON_READ_MAX_DEPTH, depth);
	json_free(n);
	expect_error(over, "nested too deep", 1);
	n = parse(&jp, "{\"a\": [{\"b\": [1, {\"c\": null}]}]}");
	CHECK(n && n->child && n->child->child && n->child->child->child &&
	      !strcmp(n->child->child->child->key, "b"), "a.0.b found through the children");
	json_free(n);
	free(deepest);
	free(over);
}

static void malformed(void)
{
	expect_error("", "the input ends inside it", 1);
	expect_error("  \n ", "the input ends inside it", 2);
	expect_error("[1,", "the input ends inside it", 1);
	expect_error("[1", "the input ends inside it", 1);
	expect_error("{\"a\": 1,\n", "the input ends inside it", 2);
	expect_error("[1 2]", "a missing ',' or closing bracket", 1);
	expect_error("[1,]", "an unexpected character", 1);
	expect_error("{\"a\" 1}", "a member name without ':'", 1);
	expect_error("{1: 2}", "an object member without a name", 1);
	expect_error("{\"a\": 1,}", "an object member without a name", 1);
	expect_error("{\"a\": }", "an unexpected character", 1);
	expect_error("tru", "an unexpected character", 1);
	expect_error("nul", "an unexpected character", 1);
	expect_error("'single'", "an unexpected character", 1);
	/* the first error, on its own line, and everything built so far freed */
	expect_error("{\n\"a\": [1, 2],\n\"b\": {\"c\": [true,\n,]}}", "an unexpected character", 4);
}

/* A document ends where its value does: the next one is read from there. */
static void documents_in_a_row(void)
{
	const char *text = "{\"n\": 1}\n{\"n\": 2}\n";
	struct json_parser jp;
	struct json_node *a = parse(&jp, text), *b;
	double n1 = 0, n2 = 0;
	size_t used = (size_t)(jp.p - text);

	CHECK(a && json_get_number(a, "n", 0, 9, true, &n1) == 0 && n1 == 1, "the first document");
	CHECK(used == 8, "the first document is 8 bytes, not %zu", used);
	b = json_parse(&jp, text + used, strlen(text) - used, jp.line);
	CHECK(b && json_get_number(b, "n", 0, 9, true, &n2) == 0 && n2 == 2, "the second document");
	CHECK(b && b->line == 2, "the second document starts on line 2");
	CHECK(jp.line == 2 && !strcmp(jp.p, "\n"), "the newline after it is left");
	json_free(a);
	json_free(b);
	/* the length is a bound: the same text cut short is a broken document */
	b = json_parse(&jp, "[1, 2]", 5, 1);
	CHECK(!b && jp.why && !strcmp(jp.why, "the input ends inside it"), "a value cut short at len");
	json_free(b);
}

/* An array of n copies of value (with its comma), e.g. "12345678," . */
static char *array_of(size_t n, const char *value, size_t *len)
{
	size_t vl = strlen(value);
	char *text = malloc(n * vl + 2), *q = text;

	if (!text)
		return NULL;
	*q++ = '[';
	for (size_t i = 0; i < n; i++, q += vl)
		memcpy(q, value, vl);
	q[-1] = ']';
	*q = '\0';
	*len = (size_t)(q - text);
	return text;
}

/*
 * The count bound grows with the input: past JSON_READ_MAX_NODES, values
 * of a series' size (9 bytes) are read; as many two-byte ones, in a
 * shorter input, are refused.
 */
static void many_values(void)
{
	size_t n = JSON_READ_MAX_NODES + JSON_READ_MAX_NODES / 8, len = 0;
	struct json_parser jp;
	struct json_node *doc;
	char *text = array_of(n, "12345678,", &len);
	size_t count = 0;

	CHECK(text != NULL, "%zu values in memory", n);
	if (!text)
		return;
	doc = json_parse(&jp, text, len, 1);
	for (const struct json_node *c = doc ? doc->child : NULL; c; c = c->next)
		count++;
	CHECK(doc && count == n, "%zu nine-byte values read (%zu bytes): %zu (%s)", n, len, count,
	      jp.why ? jp.why : "no error");
	json_free(doc);
	free(text);
	text = array_of(n, "0,", &len);
	if (!text)
		return;
	doc = json_parse(&jp, text, len, 1);
	CHECK(!doc && jp.why && !strcmp(jp.why, "too many values") && !jp.oom,
	      "%zu two-byte values (%zu bytes): refused, too many values (%s)", n, len,
	      jp.why ? jp.why : "read");
	json_free(doc);
	free(text);
}

int main(void)
{
	document();
	getters();
	escapes();
	numbers();
	nesting();
	malformed();
	documents_in_a_row();
	many_values();
	return unit_verdict("unit_json_reader");
}
