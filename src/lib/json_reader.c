// SPDX-License-Identifier: BSD-2-Clause
/*
 * The JSON reader (json_reader.h): a recursive descent over a bounded
 * buffer. Every error names its first cause and line, and frees what was
 * built; depth and node count are bounded, so no input exhausts the stack
 * or the memory.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lib/json_reader.h"

void json_free(struct json_node *n)
{
	while (n) {
		struct json_node *next = n->next;

		json_free(n->child);
		free(n->string);
		free(n->key);
		free(n);
		n = next;
	}
}

static void *json_fail(struct json_parser *jp, const char *why)
{
	if (!jp->why) {
		jp->why = why;
		jp->why_line = jp->line;
	}
	return NULL;
}

static void json_space(struct json_parser *jp)
{
	while (jp->p < jp->end) {
		char c = *jp->p;

		if (c == '\n')
			jp->line++;
		else if (c != ' ' && c != '\t' && c != '\r')
			return;
		jp->p++;
	}
}

static struct json_node *json_new(struct json_parser *jp, enum json_type type)
{
	struct json_node *n;

	if (jp->nodes >= jp->max_nodes)
		return json_fail(jp, "too many values");
	n = calloc(1, sizeof(*n));
	if (!n) {
		jp->oom = true;
		return json_fail(jp, "out of memory");
	}
	jp->nodes++;
	n->type = type;
	n->line = jp->line;
	return n;
}

static int hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* Four hex digits after "\u"; -1 when they are not. */
static long json_hex4(const char *p, const char *end)
{
	long v = 0;

	if (end - p < 4)
		return -1;
	for (int i = 0; i < 4; i++) {
		int d = hex_digit(p[i]);

		if (d < 0)
			return -1;
		v = v * 16 + d;
	}
	return v;
}

static size_t utf8_put(char *out, unsigned long cp)
{
	if (cp < 0x80) {
		out[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800) {
		out[0] = (char)(0xc0 | (cp >> 6));
		out[1] = (char)(0x80 | (cp & 0x3f));
		return 2;
	}
	if (cp < 0x10000) {
		out[0] = (char)(0xe0 | (cp >> 12));
		out[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
		out[2] = (char)(0x80 | (cp & 0x3f));
		return 3;
	}
	out[0] = (char)(0xf0 | (cp >> 18));
	out[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
	out[2] = (char)(0x80 | ((cp >> 6) & 0x3f));
	out[3] = (char)(0x80 | (cp & 0x3f));
	return 4;
}

/*
 * A string at jp->p (on its opening quote), decoded. Decoding never
 * lengthens it (an escape of 6 or 12 bytes makes at most 3 or 4), so the
 * raw length bounds the buffer. NUL and lone surrogates become U+FFFD.
 */
static char *json_string(struct json_parser *jp)
{
	const char *p = jp->p + 1, *close = p;
	char *out, *o;

	while (close < jp->end && *close != '"') {
		if ((unsigned char)*close < 0x20)
			return json_fail(jp, "a control character in a string");
		close += *close == '\\' && close + 1 < jp->end ? 2 : 1;
	}
	if (close >= jp->end)
		return json_fail(jp, "a string without its closing quote");
	out = malloc((size_t)(close - p) + 1);
	if (!out) {
		jp->oom = true;
		return json_fail(jp, "out of memory");
	}
	for (o = out; p < close; p++) {
		unsigned long cp;
		long hi, lo;

		if (*p != '\\') {
			*o++ = *p;
			continue;
		}
		switch (*++p) {
		case '"': case '\\': case '/':
			*o++ = *p;
			continue;
		case 'b': *o++ = '\b'; continue;
		case 'f': *o++ = '\f'; continue;
		case 'n': *o++ = '\n'; continue;
		case 'r': *o++ = '\r'; continue;
		case 't': *o++ = '\t'; continue;
		case 'u':
			break;
		default:
			free(out);
			return json_fail(jp, "an unknown escape in a string");
		}
		hi = json_hex4(p + 1, close);
		if (hi < 0) {
			free(out);
			return json_fail(jp, "a \\u escape without four hex digits");
		}
		p += 4;
		cp = (unsigned long)hi;
		if (hi >= 0xd800 && hi <= 0xdbff && close - p >= 7 && p[1] == '\\' && p[2] == 'u' &&
		    (lo = json_hex4(p + 3, close)) >= 0xdc00 && lo <= 0xdfff) {
			cp = 0x10000 + (((unsigned long)hi - 0xd800) << 10) + ((unsigned long)lo - 0xdc00);
			p += 6;
		} else if ((hi >= 0xd800 && hi <= 0xdfff) || hi == 0) {
			cp = 0xfffd;
		}
		o += utf8_put(o, cp);
	}
	*o = '\0';
	jp->p = close + 1;
	return out;
}

static struct json_node *json_number(struct json_parser *jp)
{
	const char *p = jp->p, *start = p;
	struct json_node *n;
	char tmp[64], *end;
	size_t len;

	if (p < jp->end && *p == '-')
		p++;
	if (p < jp->end && *p == '0') {
		p++;
	} else {
		if (p >= jp->end || *p < '1' || *p > '9')
			return json_fail(jp, "a malformed number");
		while (p < jp->end && *p >= '0' && *p <= '9')
			p++;
	}
	if (p < jp->end && *p == '.') {
		if (++p >= jp->end || *p < '0' || *p > '9')
			return json_fail(jp, "a malformed number");
		while (p < jp->end && *p >= '0' && *p <= '9')
			p++;
	}
	if (p < jp->end && (*p == 'e' || *p == 'E')) {
		p++;
		if (p < jp->end && (*p == '+' || *p == '-'))
			p++;
		if (p >= jp->end || *p < '0' || *p > '9')
			return json_fail(jp, "a malformed number");
		while (p < jp->end && *p >= '0' && *p <= '9')
			p++;
	}
	len = (size_t)(p - start);
	if (len >= sizeof(tmp))
		return json_fail(jp, "a number too long");
	memcpy(tmp, start, len);
	tmp[len] = '\0';
	n = json_new(jp, JSON_NUMBER);
	if (!n)
		return NULL;
	n->number = strtod(tmp, &end);
	if (*end || !isfinite(n->number)) {
		free(n);
		return json_fail(jp, "a number out of range");
	}
	jp->p = p;
	return n;
}

static struct json_node *json_literal(struct json_parser *jp)
{
	static const struct {
		const char *text;
		enum json_type type;
		bool value;
	} literals[] = {
		{ "true", JSON_BOOL, true }, { "false", JSON_BOOL, false }, { "null", JSON_NULL, false },
	};

	for (size_t i = 0; i < sizeof(literals) / sizeof(literals[0]); i++) {
		size_t k = strlen(literals[i].text);
		struct json_node *n;

		if ((size_t)(jp->end - jp->p) < k || memcmp(jp->p, literals[i].text, k))
			continue;
		n = json_new(jp, literals[i].type);
		if (!n)
			return NULL;
		n->boolean = literals[i].value;
		jp->p += k;
		return n;
	}
	return json_fail(jp, "an unexpected character");
}

static struct json_node *json_value(struct json_parser *jp);

/* An array or object at jp->p; its elements or members in child, in order. */
static struct json_node *json_container(struct json_parser *jp, bool object)
{
	char close = object ? '}' : ']';
	struct json_node *n, **tail;

	if (jp->depth >= JSON_READ_MAX_DEPTH)
		return json_fail(jp, "nested too deep");
	n = json_new(jp, object ? JSON_OBJECT : JSON_ARRAY);
	if (!n)
		return NULL;
	tail = &n->child;
	jp->p++;
	jp->depth++;
	json_space(jp);
	if (jp->p < jp->end && *jp->p == close)
		goto done;
	for (;;) {
		struct json_node *v;
		char *key = NULL;

		json_space(jp);
		if (jp->p >= jp->end) {
			json_fail(jp, "the input ends inside it");
			goto fail;
		}
		if (object) {
			if (jp->p >= jp->end || *jp->p != '"') {
				json_fail(jp, "an object member without a name");
				goto fail;
			}
			key = json_string(jp);
			if (!key)
				goto fail;
			json_space(jp);
			if (jp->p >= jp->end || *jp->p != ':') {
				free(key);
				json_fail(jp, "a member name without ':'");
				goto fail;
			}
			jp->p++;
		}
		v = json_value(jp);
		if (!v) {
			free(key);
			goto fail;
		}
		v->key = key;
		*tail = v;
		tail = &v->next;
		json_space(jp);
		if (jp->p < jp->end && *jp->p == ',') {
			jp->p++;
			continue;
		}
		if (jp->p < jp->end && *jp->p == close)
			break;
		json_fail(jp, jp->p < jp->end ? "a missing ',' or closing bracket" : "the input ends inside it");
		goto fail;
	}
done:
	jp->p++;
	jp->depth--;
	return n;
fail:
	jp->depth--;
	json_free(n);
	return NULL;
}

static struct json_node *json_value(struct json_parser *jp)
{
	struct json_node *n;
	char *s;

	json_space(jp);
	if (jp->p >= jp->end)
		return json_fail(jp, "the input ends inside it");
	switch (*jp->p) {
	case '{':
		return json_container(jp, true);
	case '[':
		return json_container(jp, false);
	case '"':
		s = json_string(jp);
		if (!s)
			return NULL;
		n = json_new(jp, JSON_STRING);
		if (!n) {
			free(s);
			return NULL;
		}
		n->string = s;
		return n;
	case '-': case '0': case '1': case '2': case '3': case '4':
	case '5': case '6': case '7': case '8': case '9':
		return json_number(jp);
	default:
		return json_literal(jp);
	}
}

struct json_node *json_parse(struct json_parser *jp, const char *p, size_t len, unsigned line)
{
	memset(jp, 0, sizeof(*jp));
	jp->p = p;
	jp->end = p + len;
	jp->line = line;
	jp->max_nodes = len / JSON_READ_BYTES_PER_NODE > JSON_READ_MAX_NODES ?
			len / JSON_READ_BYTES_PER_NODE : JSON_READ_MAX_NODES;
	return json_value(jp);
}

const struct json_node *json_get(const struct json_node *obj, const char *key)
{
	if (!obj || obj->type != JSON_OBJECT)
		return NULL;
	for (const struct json_node *c = obj->child; c; c = c->next)
		if (!strcmp(c->key, key))
			return c;
	return NULL;
}

int json_get_number(const struct json_node *obj, const char *key, double min, double max,
		    bool whole, double *out)
{
	const struct json_node *n = json_get(obj, key);

	if (!n)
		return -ENOENT;
	if (n->type != JSON_NUMBER || n->number < min || n->number > max ||
	    (whole && n->number != floor(n->number)))
		return -EINVAL;
	*out = n->number;
	return 0;
}

int json_get_known(const struct json_node *obj, const char *key, double min, double max,
		   double *out)
{
	const struct json_node *n = json_get(obj, key);

	*out = NAN;
	if (!n || n->type == JSON_NULL)
		return 0;
	if (n->type != JSON_NUMBER || n->number < min || n->number > max)
		return -EINVAL;
	*out = n->number;
	return 0;
}

bool json_get_bool(const struct json_node *obj, const char *key, bool otherwise)
{
	const struct json_node *n = json_get(obj, key);

	return n && n->type == JSON_BOOL ? n->boolean : otherwise;
}
