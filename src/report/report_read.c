// SPDX-License-Identifier: BSD-2-Clause
/*
 * clyde-report's readers: CSV lines of clyde and of bonnie++ 1.98,
 * 1.96/1.97 and 1.03, and clyde's JSON documents (clyde-result/1 to /7:
 * /3's phases may carry a --profile, /4's runs a --tree and its five
 * phases, /6's failed runs are skipped; /5's cluster and /7's plan are
 * not read), into report_run. They are fed
 * whatever a user finds on disk, and a fuzzer: every field used is
 * checked, nothing is echoed back unfiltered, and a bad field rejects its
 * whole line or run rather than a guess.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/phase.h"
#include "lib/size.h"
#include "lib/strutil.h"
#include "report/report.h"
#include "tree/tree.h"

struct reader {
	struct report_set *set;
	const char *source;
	FILE *errs;
	unsigned messages;	/* printed */
	unsigned unprinted;	/* over REPORT_MAX_MESSAGES */
};

__attribute__((format(printf, 3, 4)))
static void malformed(struct reader *rd, unsigned line, const char *fmt, ...)
{
	va_list ap;

	rd->set->errors++;
	if (!rd->errs)
		return;
	if (rd->messages >= REPORT_MAX_MESSAGES) {
		rd->unprinted++;
		return;
	}
	rd->messages++;
	fprintf(rd->errs, "%s:%u: ", rd->source, line);
	va_start(ap, fmt);
	vfprintf(rd->errs, fmt, ap);
	va_end(ap);
	fputs(": skipped\n", rd->errs);
}

void report_set_init(struct report_set *s)
{
	memset(s, 0, sizeof(*s));
	s->baseline = -1;
}

void report_set_free(struct report_set *s)
{
	for (size_t i = 0; i < s->nconfigs; i++)
		for (int ph = 0; ph < PH_COUNT; ph++)
			for (int m = 0; m < RM_ALL; m++)
				free(s->configs[i].stat[ph][m].values);
	free(s->configs);
	free(s->runs);
	report_set_init(s);
}

static int add_run(struct report_set *s, const struct report_run *r)
{
	if (s->nruns == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 16;
		struct report_run *runs = realloc(s->runs, cap * sizeof(*runs));

		if (!runs)
			return -ENOMEM;
		s->runs = runs;
		s->cap = cap;
	}
	s->runs[s->nruns++] = *r;
	return 0;
}

/* Per-phase CPU unit: CPU seconds per MiB (rates in KiB/s), per 1000 seeks or files. */
static double units_per_cpu_unit(enum phase_id ph)
{
	return phase_unit_names(ph)->amount_per_cpu;
}

/* Characters of a parameter: what bonnie++ and clyde write there, and no separator of the key. */
static bool token_char(char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       c == '.' || c == '_' || c == '-' || c == '+';
}

static bool digits_only(const char *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (p[i] < '0' || p[i] > '9')
			return false;
	return n > 0;
}

/* A name, version or parameter: printable, no control bytes (they would reach a terminal). */
static bool printable(const char *p, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)p[i];

		if (c < 0x20 || c == 0x7f)
			return false;
	}
	return true;
}

/* ---- CSV ---- */

struct field {
	const char *p;
	size_t n;
};

#define CSV_MAX_FIELDS	50u

/* Splits at commas (bonnie++'s CSV has no quoting); returns the count, which may exceed max. */
static unsigned split_csv(const char *p, size_t n, struct field *f, unsigned max)
{
	unsigned nf = 0;
	size_t start = 0;

	for (size_t i = 0; i <= n; i++) {
		if (i < n && p[i] != ',')
			continue;
		if (nf < max) {
			f[nf].p = p + start;
			f[nf].n = i - start;
		}
		nf++;
		start = i + 1;
	}
	return nf;
}

static bool field_is(const struct field *f, const char *s)
{
	size_t n = strlen(s);

	return f->n == n && !memcmp(f->p, s, n);
}

/* Where each format keeps what a report needs; -1: the format has no such field. */
struct csv_layout {
	const char *format;
	unsigned fields;
	int version, name, concurrency, size, chunk, seeks, seekers;
	int io;		/* putc: the first of six rate and CPU pairs */
	int files, max_size, min_size, dirs, file_chunk;
	int file_io;	/* seq_create: the first of six pairs */
	int latency;	/* putc_latency: the first of twelve */
	bool packed;	/* 1.03: "size:chunk" and "files:max:min/dirs" in one field each */
};

static const struct csv_layout layout_198 = {
	.format = "bonnie-1.98", .fields = 50, .version = 1, .name = 2, .concurrency = 3,
	.size = 5, .chunk = 6, .seeks = 7, .seekers = 8, .io = 9,
	.files = 21, .max_size = 22, .min_size = 23, .dirs = 24, .file_chunk = 25,
	.file_io = 26, .latency = 38,
};

static const struct csv_layout layout_197 = {
	.format = "bonnie-1.97", .fields = 48, .version = 1, .name = 2, .concurrency = 3,
	.size = 5, .chunk = 6, .seeks = -1, .seekers = -1, .io = 7,
	.files = 19, .max_size = 20, .min_size = 21, .dirs = 22, .file_chunk = 23,
	.file_io = 24, .latency = 36,
};

static const struct csv_layout layout_103 = {
	.format = "bonnie-1.03", .fields = 27, .version = -1, .name = 0, .concurrency = -1,
	.size = 1, .chunk = -1, .seeks = -1, .seekers = -1, .io = 2,
	.files = 14, .max_size = -1, .min_size = -1, .dirs = -1, .file_chunk = -1,
	.file_io = 15, .latency = -1, .packed = true,
};

/* bonnie++'s versions are "1.03", "1.97", "2.00a"; clyde's are "0.1.0". */
static bool bonnie_version(const struct field *f)
{
	const char *p = f->p;

	if (f->n != 4 && f->n != 5)
		return false;
	if (!digits_only(p, 1) || p[1] != '.' || !digits_only(p + 2, 2))
		return false;
	return f->n == 4 || (p[4] >= 'a' && p[4] <= 'z');
}

/* A plain decimal, as bonnie++ and clyde print rates and CPU: digits and one point. */
static int parse_decimal(const char *p, size_t n, double *out)
{
	char tmp[48];
	unsigned digits = 0, points = 0;
	char *end;

	if (n == 0 || n >= sizeof(tmp))
		return -EINVAL;
	for (size_t i = 0; i < n; i++) {
		if (p[i] >= '0' && p[i] <= '9')
			digits++;
		else if (p[i] == '.')
			points++;
		else
			return -EINVAL;
	}
	if (!digits || points > 1)
		return -EINVAL;
	memcpy(tmp, p, n);
	tmp[n] = '\0';
	*out = strtod(tmp, &end);
	if (*end || !isfinite(*out))
		return -EINVAL;
	return 0;
}

/* "16824us", "491ms", "12s" in microseconds. */
static int parse_latency(const struct field *f, double *us)
{
	static const struct {
		const char *suffix;
		double scale;
	} units[] = { { "us", 1.0 }, { "ms", 1e3 }, { "s", 1e6 } };

	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		size_t k = strlen(units[i].suffix);

		if (f->n > k && !memcmp(f->p + f->n - k, units[i].suffix, k) &&
		    !parse_decimal(f->p, f->n - k, us)) {
			*us *= units[i].scale;
			return 0;
		}
	}
	return -EINVAL;
}

/*
 * A rate and its CPU%: empty (not run), +++++ (too short), or numbers;
 * -EINVAL names the bad one in *why.
 */
static int read_pair(struct report_run *r, enum phase_id ph, const struct field *rate,
		     const struct field *cpu, const char **why)
{
	double v, pct;

	if (rate->n == 0)
		return 0;
	if (field_is(rate, "+++++")) {
		r->hidden[ph] = true;
		return 0;
	}
	if (parse_decimal(rate->p, rate->n, &v)) {
		*why = "";
		return -EINVAL;
	}
	r->has[ph][RM_RATE] = true;
	r->v[ph][RM_RATE] = v;
	if (cpu->n == 0 || field_is(cpu, "+++"))
		return 0;
	if (parse_decimal(cpu->p, cpu->n, &pct)) {
		*why = "_cpu";
		return -EINVAL;
	}
	/* cpu_seconds_per_unit = (cpu% / 100) / rate * unit */
	if (v > 0) {
		r->has[ph][RM_CPU] = true;
		r->v[ph][RM_CPU] = pct / 100.0 / v * units_per_cpu_unit(ph);
	}
	return 0;
}

/* Copies a parameter field into dst (32 bytes); false when it is not one. */
static bool copy_param(char *dst, size_t len, const char *p, size_t n)
{
	if (n >= len)
		return false;
	for (size_t i = 0; i < n; i++)
		if (!token_char(p[i]))
			return false;
	memcpy(dst, p, n);
	dst[n] = '\0';
	return true;
}

/*
 * The same configuration reads the same whoever wrote it: chunk sizes
 * in bonnie++'s k-notation and empty at the default, file sizes in M/G.
 */
static void canonical_size(char *s, size_t len, uint64_t unit, uint64_t default_bytes,
			   const char *labels)
{
	uint64_t bytes;

	if (!s[0] || size_parse(s, unit, &bytes) || bytes % unit)
		return;
	if (bytes == default_bytes)
		s[0] = '\0';
	else
		size_label(s, len, bytes / unit, labels);
}

/* 1.03 packs "size[:chunk]" into one field. */
static bool unpack_103_size(struct report_run *r, const struct field *f)
{
	const char *colon = memchr(f->p, ':', f->n);
	size_t n = colon ? (size_t)(colon - f->p) : f->n;

	if (!copy_param(r->size, sizeof(r->size), f->p, n))
		return false;
	if (!colon)
		return true;
	return copy_param(r->chunk, sizeof(r->chunk), colon + 1, f->n - n - 1);
}

/* 1.03 packs "files[:max[:min]][/dirs]" into one field; max may be link or symlink. */
static bool unpack_103_files(struct report_run *r, const struct field *f)
{
	const char *slash = memchr(f->p, '/', f->n);
	size_t n = slash ? (size_t)(slash - f->p) : f->n;
	char *dst[3] = { r->files, r->max_size, r->min_size };
	size_t start = 0;
	unsigned part = 0;

	if (slash && !copy_param(r->dirs, sizeof(r->dirs), slash + 1, f->n - n - 1))
		return false;
	for (size_t i = 0; i <= n; i++) {
		if (i < n && f->p[i] != ':')
			continue;
		if (part == 3 || !copy_param(dst[part], sizeof(r->files), f->p + start, i - start))
			return false;
		part++;
		start = i + 1;
	}
	/* 1.03 writes min 0 where the CSV formats after it leave the field empty */
	if (!strcmp(r->min_size, "0"))
		r->min_size[0] = '\0';
	return true;
}

static bool copy_field_param(char *dst, size_t len, const struct field *f, int i)
{
	return i < 0 || copy_param(dst, len, f[i].p, f[i].n);
}

/* Parameters of a 1.98, 1.97 or 1.03 line; false with *why set when one is bad. */
static bool read_csv_params(struct report_run *r, const struct csv_layout *lay,
			    const struct field *f, const char **why)
{
	*why = "a size or count field holds something else";
	if (lay->packed) {
		if (!unpack_103_size(r, &f[lay->size]) || !unpack_103_files(r, &f[lay->files]))
			return false;
	} else if (!copy_field_param(r->size, sizeof(r->size), f, lay->size) ||
		   !copy_field_param(r->chunk, sizeof(r->chunk), f, lay->chunk) ||
		   !copy_field_param(r->seeks, sizeof(r->seeks), f, lay->seeks) ||
		   !copy_field_param(r->seekers, sizeof(r->seekers), f, lay->seekers) ||
		   !copy_field_param(r->files, sizeof(r->files), f, lay->files) ||
		   !copy_field_param(r->max_size, sizeof(r->max_size), f, lay->max_size) ||
		   !copy_field_param(r->min_size, sizeof(r->min_size), f, lay->min_size) ||
		   !copy_field_param(r->dirs, sizeof(r->dirs), f, lay->dirs) ||
		   !copy_field_param(r->file_chunk, sizeof(r->file_chunk), f, lay->file_chunk)) {
		return false;
	}
	if ((r->seeks[0] && !digits_only(r->seeks, strlen(r->seeks))) ||
	    (r->seekers[0] && !digits_only(r->seekers, strlen(r->seekers))) ||
	    (r->files[0] && !digits_only(r->files, strlen(r->files))) ||
	    (r->dirs[0] && !digits_only(r->dirs, strlen(r->dirs)))) {
		*why = "a count field (seeks, seekers, files, directories) is not a number";
		return false;
	}
	/* bonnie++ 2.00's own shift: num_dirs lands in file_chunk_size, as a bare count */
	if (!strncmp(r->version, "2.00", 4) && !r->dirs[0] &&
	    digits_only(r->file_chunk, strlen(r->file_chunk))) {
		str_copy(r->dirs, sizeof(r->dirs), r->file_chunk);
		r->file_chunk[0] = '\0';
	}
	if (!strcmp(r->dirs, "1"))
		r->dirs[0] = '\0';
	canonical_size(r->size, sizeof(r->size), 1u << 20, 0, "MGT");
	canonical_size(r->chunk, sizeof(r->chunk), 1, DEFAULT_CHUNK, " km");
	canonical_size(r->file_chunk, sizeof(r->file_chunk), 1, DEFAULT_FILE_CHUNK, " km");
	r->concurrency = 1;
	if (lay->concurrency >= 0 && f[lay->concurrency].n) {
		double c;

		if (!digits_only(f[lay->concurrency].p, f[lay->concurrency].n) ||
		    parse_decimal(f[lay->concurrency].p, f[lay->concurrency].n, &c) ||
		    c < 1 || c > 1e6) {
			*why = "the concurrency is not a count";
			return false;
		}
		r->concurrency = (unsigned)c;
	}
	return true;
}

static bool read_csv_results(struct report_run *r, const struct csv_layout *lay,
			     const struct field *f, char *why, size_t len)
{
	const char *what = NULL;

	for (int ph = 0; ph < PH_BONNIE_COUNT; ph++) {
		int i = ph < PH_FIRST_FILE ? lay->io + 2 * ph : lay->file_io + 2 * (ph - PH_FIRST_FILE);
		double us;

		if (read_pair(r, (enum phase_id)ph, &f[i], &f[i + 1], &what)) {
			snprintf(why, len, "field %d (%s%s) is not a %s", i + 1 + !!what[0],
				 phase_csv_name((enum phase_id)ph), what, what[0] ? "CPU%" : "rate");
			return false;
		}
		if (lay->latency < 0 || !f[lay->latency + ph].n)
			continue;
		if (parse_latency(&f[lay->latency + ph], &us)) {
			snprintf(why, len, "field %d (%s_latency) is not a latency (NNus, NNms, NNs)",
				 lay->latency + ph + 1, phase_csv_name((enum phase_id)ph));
			return false;
		}
		r->has[ph][RM_LATENCY] = true;
		r->v[ph][RM_LATENCY] = us;
	}
	return true;
}

static const struct csv_layout *csv_layout_of(const struct field *f, unsigned nf,
					      char *why, size_t len)
{
	const struct csv_layout *want = NULL;

	if (field_is(&f[0], "1.98"))
		want = &layout_198;
	else if (field_is(&f[0], "1.96") || field_is(&f[0], "1.97"))
		want = &layout_197;
	if (want && nf != want->fields) {
		snprintf(why, len, "a format %s line with %u fields, not %u", want->format + 7, nf, want->fields);
		return NULL;
	}
	if (!want && nf == layout_103.fields)
		want = &layout_103;
	if (!want)
		snprintf(why, len, "not a clyde or bonnie++ CSV line (%u fields, not 50, 48 or 27)", nf);
	return want;
}

static int read_csv_line(struct reader *rd, const char *p, size_t n, unsigned line)
{
	struct field f[CSV_MAX_FIELDS];
	unsigned nf = split_csv(p, n, f, CSV_MAX_FIELDS);
	const struct csv_layout *lay;
	struct report_run r;
	const char *what;
	char why[128];

	/* bonnie++'s header lines (1.98/1.97 and 1.03), and clyde's */
	if (field_is(&f[0], "format_version") ||
	    (nf > 1 && field_is(&f[0], "name") && field_is(&f[1], "file_size")))
		return 0;
	lay = csv_layout_of(f, nf, why, sizeof(why));
	if (!lay) {
		malformed(rd, line, "%s", why);
		return 0;
	}
	memset(&r, 0, sizeof(r));
	str_copy(r.source, sizeof(r.source), rd->source);
	r.line = line;
	str_copy(r.format, sizeof(r.format), lay->format);
	if (f[lay->name].n >= sizeof(r.name) || !printable(f[lay->name].p, f[lay->name].n)) {
		malformed(rd, line, "the name is longer than %zu bytes or not text", sizeof(r.name) - 1);
		return 0;
	}
	memcpy(r.name, f[lay->name].p, f[lay->name].n);
	if (lay->version >= 0) {
		const struct field *v = &f[lay->version];

		if (!copy_param(r.version, sizeof(r.version), v->p, v->n)) {
			malformed(rd, line, "the version field is not a version");
			return 0;
		}
		/* a 1.98 line whose version is not bonnie++'s is clyde's, with a seek count it may have timed */
		if (lay == &layout_198 && !bonnie_version(v)) {
			str_copy(r.format, sizeof(r.format), "clyde-csv");
			r.seeks_timed = true;
		}
	}
	if (!read_csv_params(&r, lay, f, &what)) {
		malformed(rd, line, "%s", what);
		return 0;
	}
	if (!read_csv_results(&r, lay, f, why, sizeof(why))) {
		malformed(rd, line, "%s", why);
		return 0;
	}
	report_key(&r);
	return add_run(rd->set, &r);
}

/* ---- JSON ---- */

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
	struct json_node *child, *next;
};

struct json_parser {
	const char *p, *end;
	unsigned line;
	unsigned depth;
	size_t nodes;
	const char *why;	/* the first error */
	unsigned why_line;
	bool oom;
};

/* Deep enough for any clyde document; bounded so that "[[[[..." cannot exhaust the stack. */
#define JSON_MAX_DEPTH	64u
/* A clyde document of 1000 runs has about 100 000 nodes. */
#define JSON_MAX_NODES	(1u << 21)

static void json_free(struct json_node *n)
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

	if (jp->nodes >= JSON_MAX_NODES)
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

	if (jp->depth >= JSON_MAX_DEPTH)
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

static const struct json_node *json_get(const struct json_node *obj, const char *key)
{
	if (!obj || obj->type != JSON_OBJECT)
		return NULL;
	for (const struct json_node *c = obj->child; c; c = c->next)
		if (!strcmp(c->key, key))
			return c;
	return NULL;
}

/* A number member within [min, max], whole when asked; -ENOENT when absent, -EINVAL when bad. */
static int json_get_number(const struct json_node *obj, const char *key, double min, double max,
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

/* A number member that may be null or absent (*out NAN: not known); -EINVAL when bad. */
static int json_get_known(const struct json_node *obj, const char *key, double min, double max,
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

static bool json_get_bool(const struct json_node *obj, const char *key, bool otherwise)
{
	const struct json_node *n = json_get(obj, key);

	return n && n->type == JSON_BOOL ? n->boolean : otherwise;
}

/* The parameters of a JSON run, written as clyde's CSV line writes them (format_csv.c). */
static const char *json_run_params(struct report_run *r, const struct json_node *run)
{
	const struct json_node *name = json_get(run, "name"), *io = json_get(run, "io");
	const struct json_node *files = json_get(run, "files");
	double conc = 1, size = 0, chunk = 0, seeks = 0, seekers = 0;
	double number = 0, max = 0, min = 0, dirs = 1, fchunk = DEFAULT_FILE_CHUNK;

	if (!name || name->type != JSON_STRING || strlen(name->string) >= sizeof(r->name) ||
	    !printable(name->string, strlen(name->string)))
		return "no name, or one that is not text or too long";
	str_copy(r->name, sizeof(r->name), name->string);
	if (json_get_number(run, "concurrency", 1, 1e6, true, &conc) == -EINVAL)
		return "a concurrency that is not a count";
	r->concurrency = (unsigned)conc;
	if (!io || io->type != JSON_OBJECT || json_get_number(io, "size_mib", 0, 1e12, true, &size) ||
	    json_get_number(io, "chunk", 0, 1e12, true, &chunk) ||
	    json_get_number(io, "seeks", 0, 1e12, true, &seeks) ||
	    json_get_number(io, "seekers", 0, 1e6, true, &seekers))
		return "no \"io\" object with size_mib, chunk, seeks and seekers";
	if (!files || files->type != JSON_OBJECT ||
	    json_get_number(files, "number", 0, 1e12, true, &number) ||
	    json_get_number(files, "max_size", -2, 1e18, true, &max) ||
	    json_get_number(files, "min_size", -2, 1e18, true, &min) ||
	    json_get_number(files, "dirs", 0, 1e12, true, &dirs) ||
	    json_get_number(files, "chunk", 0, 1e12, true, &fchunk))
		return "no \"files\" object with number, max_size, min_size, dirs and chunk";
	if (size > 0) {
		size_label(r->size, sizeof(r->size), (uint64_t)size, "MGT");
		if (chunk != DEFAULT_CHUNK)
			size_label(r->chunk, sizeof(r->chunk), (uint64_t)chunk, " km");
		snprintf(r->seeks, sizeof(r->seeks), "%.0f", seeks);
		snprintf(r->seekers, sizeof(r->seekers), "%.0f", seekers);
	}
	if (number > 0) {
		snprintf(r->files, sizeof(r->files), "%.0f", number);
		if (max == -1)
			str_copy(r->max_size, sizeof(r->max_size), "link");
		else if (max == -2)
			str_copy(r->max_size, sizeof(r->max_size), "symlink");
		else if (max > 0)
			snprintf(r->max_size, sizeof(r->max_size), "%.0f", max);
		if (max > 0 && min > 0)
			snprintf(r->min_size, sizeof(r->min_size), "%.0f", min);
		if (dirs > 1)
			snprintf(r->dirs, sizeof(r->dirs), "%.0f", dirs);
		if (fchunk != DEFAULT_FILE_CHUNK)
			size_label(r->file_chunk, sizeof(r->file_chunk), (uint64_t)fchunk, " km");
	}
	r->seeks_timed = json_get_bool(json_get(run, "counts"), "seeks_timed", false);
	return NULL;
}

const char *report_profile_unit(enum phase_id ph)
{
	/* the profile counts the byte phases' CPU per GiB, where their CPU column counts per MiB */
	return phase_get(ph)->unit == UNIT_KIB ? "GiB" : phase_unit_names(ph)->cpu_per;
}

/*
 * A phase's "profile" (clyde --profile): the figures per unit of work,
 * the share outside clyde and the device's amplification. Only what the
 * report shows is read, and so checked; the rest (groups, perf, the
 * machine) is left to other tools. The counters of a device that was
 * not measured are absent, and never read.
 */
static const char *json_run_profile(struct report_run *r, enum phase_id ph, const struct json_node *p)
{
	const struct json_node *per = json_get(p, "per_unit"), *dev = json_get(p, "device");
	struct report_profile *pr = &r->prof[ph];
	const struct json_node *unit, *state;

	if (p->type != JSON_OBJECT)
		return "has a profile that is not an object";
	pr->clyde_per_unit = pr->caused_per_unit = NAN;
	pr->write_amp = pr->read_amp = NAN;
	if (per && per->type != JSON_NULL) {
		unit = json_get(per, "unit");
		/* figures per some other unit would be compared as if they were per this one */
		if (per->type != JSON_OBJECT || !unit || unit->type != JSON_STRING ||
		    strcmp(unit->string, report_profile_unit(ph)))
			return "has a profile.per_unit without this phase's unit (GiB, 1000 seeks, 1000 files)";
		str_copy(pr->unit, sizeof(pr->unit), unit->string);
		if (json_get_known(per, "clyde_s", 0, 1e12, &pr->clyde_per_unit) ||
		    json_get_known(per, "caused_s", 0, 1e12, &pr->caused_per_unit))
			return "has a profile.per_unit CPU time that is not a number of seconds";
	}
	/* outside_s is the machine's ticks less clyde's getrusage: it may come out a little below 0 */
	if (json_get_known(p, "outside_fraction", -1, 1, &pr->outside_fraction))
		return "has a profile.outside_fraction that is not a fraction";
	if (dev && dev->type != JSON_NULL) {
		state = json_get(dev, "state");
		if (dev->type != JSON_OBJECT || !state || state->type != JSON_STRING)
			return "has a profile.device without a state";
		if (!strcmp(state->string, "measured")) {
			if (json_get_known(dev, "write_amplification", 0, 1e12, &pr->write_amp) ||
			    json_get_known(dev, "read_amplification", 0, 1e12, &pr->read_amp))
				return "has a profile.device amplification that is not a ratio";
		} else if (strcmp(state->string, "no block device") && strcmp(state->string, "unknown")) {
			return "has a profile.device.state that is not measured, no block device or unknown";
		}
	}
	pr->has = true;
	r->has_profile = true;
	return NULL;
}

/*
 * What a tree phase adds (clyde-result/4): its dead time (dead_s, wall
 * less user CPU) and the tree's bytes per second (tree.mib_per_s, where
 * the phase moved any: delete moves none).
 */
static const char *json_tree_phase(struct report_run *r, enum phase_id ph, const struct json_node *p)
{
	const struct json_node *t = json_get(p, "tree");
	double dead = 0, mibs = 0, bytes = 0;

	switch (json_get_number(p, "dead_s", 0, 1e12, false, &dead)) {
	case 0:
		r->has[ph][RM_DEAD] = true;
		r->v[ph][RM_DEAD] = dead;
		break;
	case -EINVAL:
		return "has a dead_s that is not a number of seconds";
	}
	if (!t || t->type == JSON_NULL)
		return NULL;
	if (t->type != JSON_OBJECT || json_get_number(t, "mib_per_s", 0, 1e15, false, &mibs) == -EINVAL ||
	    json_get_number(t, "bytes", 0, 1e18, false, &bytes) == -EINVAL)
		return "has a tree that is not an object, or a mib_per_s or bytes that is not a number";
	if (bytes > 0 && json_get(t, "mib_per_s")) {
		r->has[ph][RM_MIBS] = true;
		r->v[ph][RM_MIBS] = mibs;
	}
	return NULL;
}

/* One phase of a JSON run: rate, CPU seconds per unit from user + system over the amount, latency. */
static const char *json_run_phase(struct report_run *r, enum phase_id ph, const struct json_node *p)
{
	const char *why;
	double rate, amount = 0, user = 0, sys = 0, lat = 0;
	const struct json_node *prof;

	if (p->type != JSON_OBJECT)
		return "is not an object";
	if (!json_get_bool(p, "ran", false))
		return NULL;
	if (json_get_number(p, "max_latency_us", 0, 1e15, false, &lat) == -EINVAL)
		return "has a max_latency_us that is not a latency";
	/* 0: none measured, as bonnie++ leaves the CSV field empty */
	if (json_get(p, "max_latency_us") && lat > 0) {
		r->has[ph][RM_LATENCY] = true;
		r->v[ph][RM_LATENCY] = lat;
	}
	/*
	 * No +++++ here: JSON carries every phase's measured figures, as
	 * --exact prints them, and the runs' spread says how far to trust them.
	 */
	if (json_get_number(p, "rate", 0, 1e18, false, &rate))
		return "has no rate, or one that is not a number";
	r->has[ph][RM_RATE] = true;
	r->v[ph][RM_RATE] = rate;
	if (json_get_number(p, "amount", 0, 1e18, false, &amount) == -EINVAL ||
	    json_get_number(p, "cpu_user_s", 0, 1e12, false, &user) == -EINVAL ||
	    json_get_number(p, "cpu_sys_s", 0, 1e12, false, &sys) == -EINVAL)
		return "has an amount or CPU time that is not a number";
	if (json_get(p, "amount") && amount > 0 && json_get(p, "cpu_user_s") && json_get(p, "cpu_sys_s")) {
		r->has[ph][RM_CPU] = true;
		r->v[ph][RM_CPU] = (user + sys) / amount * (phase_get(ph)->unit == UNIT_KIB ? 1024.0 : 1000.0);
	}
	if (ph >= PH_FIRST_TREE && (why = json_tree_phase(r, ph, p)))
		return why;
	prof = json_get(p, "profile");
	return prof && prof->type != JSON_NULL ? json_run_profile(r, ph, prof) : NULL;
}

/*
 * The run's tree (clyde-result/4; null or absent: no --tree): shape,
 * scale and seed go into the key, since runs on different trees are not
 * the same configuration; its size is shown with the tree phases.
 */
static const char *json_run_tree(struct report_run *r, const struct json_node *run)
{
	const struct json_node *t = json_get(run, "tree"), *shape;
	double scale, seed;

	if (!t || t->type == JSON_NULL)
		return NULL;
	shape = json_get(t, "shape");
	/* a shape is a word, short enough to leave room for the scale */
	if (t->type != JSON_OBJECT || !shape || shape->type != JSON_STRING || strlen(shape->string) >= 32 ||
	    !copy_param(r->tree, sizeof(r->tree), shape->string, strlen(shape->string)) ||
	    json_get_number(t, "scale", 1e-9, 1e9, false, &scale) ||
	    json_get_number(t, "seed", 0, 18446744073709551615.0, true, &seed) ||
	    json_get_number(t, "files", 0, 1e15, true, &r->tree_files) ||
	    json_get_number(t, "dirs", 0, 1e15, true, &r->tree_dirs) ||
	    json_get_number(t, "bytes", 0, 1e18, true, &r->tree_bytes))
		return "a \"tree\" that is not an object with shape, scale, seed, files, dirs and bytes";
	snprintf(r->tree + strlen(r->tree), sizeof(r->tree) - strlen(r->tree), ":%g", scale);
	snprintf(r->tree_seed, sizeof(r->tree_seed), "%.0f", seed);
	return NULL;
}

static int json_run(struct reader *rd, const struct json_node *run, const char *version)
{
	const struct json_node *phases = json_get(run, "phases");
	struct report_run r;
	const char *why;

	memset(&r, 0, sizeof(r));
	str_copy(r.source, sizeof(r.source), rd->source);
	r.line = run->line;
	str_copy(r.format, sizeof(r.format), "clyde-json");
	str_copy(r.version, sizeof(r.version), version);
	if (run->type != JSON_OBJECT) {
		malformed(rd, run->line, "a run that is not an object");
		return 0;
	}
	why = json_run_params(&r, run);
	if (!why)
		why = json_run_tree(&r, run);
	if (!why && (!phases || phases->type != JSON_OBJECT))
		why = "no \"phases\" object";
	if (why) {
		malformed(rd, run->line, "run: %s", why);
		return 0;
	}
	for (int ph = 0; ph < PH_COUNT; ph++) {
		const struct json_node *p = json_get(phases, phase_csv_name((enum phase_id)ph));

		why = p ? json_run_phase(&r, (enum phase_id)ph, p) : NULL;
		if (why) {
			malformed(rd, p->line, "phase %s %s", phase_csv_name((enum phase_id)ph), why);
			return 0;
		}
		/* a tree phase's figures mean nothing without the tree they were measured on */
		if (ph >= PH_FIRST_TREE && !r.tree[0] && r.has[ph][RM_RATE]) {
			malformed(rd, p->line, "phase %s ran, but the run has no \"tree\"",
				  phase_csv_name((enum phase_id)ph));
			return 0;
		}
	}
	report_key(&r);
	return add_run(rd->set, &r);
}

static bool known_schema(const char *schema)
{
	static const char *const known[] = {
		"clyde-result/1", "clyde-result/2", "clyde-result/3", "clyde-result/4",
		"clyde-result/5", "clyde-result/6", "clyde-result/7",
	};

	for (size_t i = 0; i < sizeof(known) / sizeof(known[0]); i++)
		if (!strcmp(schema, known[i]))
			return true;
	return false;
}

static int json_document(struct reader *rd, const struct json_node *doc, unsigned line)
{
	const struct json_node *schema = json_get(doc, "schema"), *runs = json_get(doc, "runs");
	const struct json_node *version = json_get(doc, "clyde_version");
	char ver[32] = "";
	int ret = 0;

	if (!schema || schema->type != JSON_STRING || !known_schema(schema->string)) {
		malformed(rd, line, "a JSON document whose schema is not clyde-result/1 to /7");
		return 0;
	}
	if (!runs || runs->type != JSON_ARRAY) {
		malformed(rd, line, "a clyde-result document without a \"runs\" array");
		return 0;
	}
	if (version && version->type == JSON_STRING)
		copy_param(ver, sizeof(ver), version->string, strlen(version->string));
	for (const struct json_node *run = runs->child; run && !ret; run = run->next) {
		const struct json_node *failure = json_get(run, "failure");

		/* clyde-result/6: a run that stopped has no figures to compare */
		if (failure && failure->type != JSON_NULL) {
			malformed(rd, line, "a run that failed (its \"failure\" is not null): skipped");
			continue;
		}
		ret = json_run(rd, run, ver);
	}
	return ret;
}

/*
 * A JSON document at p (its '{', on line); *used and *lines say how far
 * it went. A broken document is skipped to the next line that starts
 * with '{', where clyde's next document would begin.
 */
static int read_json(struct reader *rd, const char *p, size_t len, unsigned line,
		     size_t *used, unsigned *lines)
{
	struct json_parser jp = { .p = p, .end = p + len, .line = line };
	struct json_node *doc = json_value(&jp);
	const char *next;
	int ret = 0;

	*used = len;
	*lines = 0;
	if (doc) {
		*used = (size_t)(jp.p - p);
		*lines = jp.line - line;
		ret = json_document(rd, doc, line);
		json_free(doc);
		return ret;
	}
	if (jp.oom)
		return -ENOMEM;
	malformed(rd, line, "JSON document: %s (line %u)", jp.why, jp.why_line);
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

/* ---- lines and streams ---- */

static int read_line(struct reader *rd, const char *p, size_t n, unsigned line)
{
	while (n && (p[n - 1] == '\r' || p[n - 1] == ' ' || p[n - 1] == '\t'))
		n--;
	if (!n)
		return 0;
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)p[i];

		if ((c < 0x20 && c != '\t') || c == 0x7f) {
			malformed(rd, line, "binary data, not a line of text");
			return 0;
		}
	}
	if (!memchr(p, ',', n)) {
		rd->set->text_lines++;
		return 0;
	}
	return read_csv_line(rd, p, n, line);
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

			ret = read_json(&rd, start + lead, len - pos - lead, line, &used, &lines);
			pos += lead + used;
			line += lines;
			continue;
		}
		ret = read_line(&rd, start, n, line);
		pos += n + (nl ? 1 : 0);
		line++;
	}
	if (rd.unprinted)
		fprintf(errs, "%s: %u more malformed lines not shown\n", source, rd.unprinted);
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

/* ---- keys ---- */

/* "a:b:c" of the non-empty prefix of parts: trailing empty parts are left out. */
static void join_parts(char *buf, size_t len, const char *const *parts, int count)
{
	int last = count - 1;
	size_t used = 0;

	buf[0] = '\0';
	while (last >= 0 && !parts[last][0])
		last--;
	for (int i = 0; i <= last && used < len; i++) {
		int n = snprintf(buf + used, len - used, "%s%s", i ? ":" : "", parts[i]);

		if (n < 0)
			return;
		used += (size_t)n;
	}
}

void report_key(struct report_run *r)
{
	const char *seeks = r->seeks_timed && r->seeks[0] ? "*" : r->seeks;
	const char *io[] = { r->size, r->chunk, seeks, r->seekers };
	const char *files[] = { r->files, r->max_size, r->min_size, r->dirs, r->file_chunk };
	/* four and five parameters of at most 31 bytes, with their colons, and the tree: the key always fits */
	char io_spec[128] = "", files_spec[160] = "", conc[16] = "", tree[96] = "", seed[24];

	snprintf(seed, sizeof(seed), "%u", TREE_DEFAULT_SEED);
	if (r->tree[0] && !strcmp(r->tree_seed, seed))
		snprintf(tree, sizeof(tree), " --tree=%s", r->tree);
	else if (r->tree[0])
		snprintf(tree, sizeof(tree), " --tree=%s --tree-seed=%s", r->tree, r->tree_seed);
	if (r->size[0])
		join_parts(io_spec, sizeof(io_spec), io, 4);
	if (r->files[0])
		join_parts(files_spec, sizeof(files_spec), files, 5);
	if (r->concurrency > 1)
		snprintf(conc, sizeof(conc), " -c %u", r->concurrency);
	snprintf(r->key, sizeof(r->key), "%s%s%s%s%s%s%s", r->name[0] ? r->name : "(no name)",
		 io_spec[0] ? " -s " : "", io_spec, conc, files_spec[0] ? " -n " : "", files_spec, tree);
}

void report_run_origin(char *buf, size_t len, const struct report_run *r)
{
	if (!strcmp(r->format, "clyde-csv"))
		snprintf(buf, len, "clyde %s CSV", r->version);
	else if (!strcmp(r->format, "clyde-json"))
		snprintf(buf, len, "clyde %s JSON", r->version[0] ? r->version : "?");
	else if (!strcmp(r->format, "bonnie-1.03"))
		snprintf(buf, len, "bonnie++ 1.03");
	else
		snprintf(buf, len, "bonnie++ %s", r->version);
}
