// SPDX-License-Identifier: BSD-2-Clause
/*
 * clyde-report's CSV reader: a line of clyde's CSV or of bonnie++ 1.98,
 * 1.96/1.97 or 1.03 (bonnie++'s twelve phases, each in its slot) into a
 * report_run. The field count and the version field say which layout a
 * line has; its parameters are written the same whoever wrote them, so
 * the same configuration gets the same key.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/phase.h"
#include "lib/size.h"
#include "lib/strutil.h"
#include "report/read_private.h"
#include "report/report.h"

/* Per-phase CPU unit: CPU seconds per MiB (rates in KiB/s), per 1000 seeks or files. */
static double units_per_cpu_unit(enum phase_id ph)
{
	return phase_unit_names(ph)->amount_per_cpu;
}

static bool digits_only(const char *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (p[i] < '0' || p[i] > '9')
			return false;
	return n > 0;
}

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
	int version, name, concurrency, seed, size, chunk, seeks, seekers;
	int io;		/* putc: the first of six rate and CPU pairs */
	int files, max_size, min_size, dirs, file_chunk;
	int file_io;	/* seq_create: the first of six pairs */
	int latency;	/* putc_latency: the first of twelve */
	bool packed;	/* 1.03: "size:chunk" and "files:max:min/dirs" in one field each */
};

static const struct csv_layout layout_198 = {
	.format = "bonnie-1.98", .fields = 50, .version = 1, .name = 2, .concurrency = 3, .seed = 4,
	.size = 5, .chunk = 6, .seeks = 7, .seekers = 8, .io = 9,
	.files = 21, .max_size = 22, .min_size = 23, .dirs = 24, .file_chunk = 25,
	.file_io = 26, .latency = 38,
};

static const struct csv_layout layout_197 = {
	.format = "bonnie-1.97", .fields = 48, .version = 1, .name = 2, .concurrency = 3, .seed = 4,
	.size = 5, .chunk = 6, .seeks = -1, .seekers = -1, .io = 7,
	.files = 19, .max_size = 20, .min_size = 21, .dirs = 22, .file_chunk = 23,
	.file_io = 24, .latency = 36,
};

static const struct csv_layout layout_103 = {
	.format = "bonnie-1.03", .fields = 27, .version = -1, .name = 0, .concurrency = -1, .seed = -1,
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
	if (*end || !(*out <= REPORT_FIGURE_MAX))
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

	if (!reader_copy_param(r->size, sizeof(r->size), f->p, n))
		return false;
	if (!colon)
		return true;
	return reader_copy_param(r->chunk, sizeof(r->chunk), colon + 1, f->n - n - 1);
}

/* 1.03 packs "files[:max[:min]][/dirs]" into one field; max may be link or symlink. */
static bool unpack_103_files(struct report_run *r, const struct field *f)
{
	const char *slash = memchr(f->p, '/', f->n);
	size_t n = slash ? (size_t)(slash - f->p) : f->n;
	char *dst[3] = { r->files, r->max_size, r->min_size };
	size_t start = 0;
	unsigned part = 0;

	if (slash && !reader_copy_param(r->dirs, sizeof(r->dirs), slash + 1, f->n - n - 1))
		return false;
	for (size_t i = 0; i <= n; i++) {
		if (i < n && f->p[i] != ':')
			continue;
		if (part == 3 ||
		    !reader_copy_param(dst[part], sizeof(r->files), f->p + start, i - start))
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
	return i < 0 || reader_copy_param(dst, len, f[i].p, f[i].n);
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

	for (int s = 0; s < SLOT_COUNT; s++) {
		int i = s < SLOT_FIRST_FILE ? lay->io + 2 * s : lay->file_io + 2 * (s - SLOT_FIRST_FILE);
		enum phase_id ph = phase_in_slot((enum csv_slot)s);
		double us;

		if (ph == PH_COUNT)
			continue;
		if (read_pair(r, ph, &f[i], &f[i + 1], &what)) {
			snprintf(why, len, "field %d (%s%s) is not a %s", i + 1 + !!what[0],
				 phase_csv_name(ph), what, what[0] ? "CPU%" : "rate");
			return false;
		}
		if (lay->latency < 0 || !f[lay->latency + s].n)
			continue;
		if (parse_latency(&f[lay->latency + s], &us)) {
			snprintf(why, len, "field %d (%s_latency) is not a latency (NNus, NNms, NNs)",
				 lay->latency + s + 1, phase_csv_name(ph));
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

bool read_csv_header(const char *p, size_t n)
{
	struct field f[2];
	unsigned nf = split_csv(p, n, f, 2);

	/* bonnie++'s header lines (1.98/1.97 and 1.03), and clyde's */
	return field_is(&f[0], "format_version") ||
	       (nf > 1 && field_is(&f[0], "name") && field_is(&f[1], "file_size"));
}

int read_csv_line(struct reader *rd, const char *p, size_t n, unsigned line)
{
	struct field f[CSV_MAX_FIELDS];
	unsigned nf = split_csv(p, n, f, CSV_MAX_FIELDS);
	const struct csv_layout *lay;
	struct report_run r;
	const char *what;
	char why[128];

	lay = csv_layout_of(f, nf, why, sizeof(why));
	if (!lay) {
		reader_malformed(rd, line, "%s", why);
		return 0;
	}
	memset(&r, 0, sizeof(r));
	str_copy(r.source, sizeof(r.source), rd->source);
	r.line = line;
	str_copy(r.format, sizeof(r.format), lay->format);
	if (f[lay->name].n >= sizeof(r.name) || !reader_printable(f[lay->name].p, f[lay->name].n)) {
		reader_malformed(rd, line, "the name is longer than %zu bytes or not text", sizeof(r.name) - 1);
		return 0;
	}
	memcpy(r.name, f[lay->name].p, f[lay->name].n);
	if (lay->version >= 0) {
		const struct field *v = &f[lay->version];

		if (!reader_copy_param(r.version, sizeof(r.version), v->p, v->n)) {
			reader_malformed(rd, line, "the version field is not a version");
			return 0;
		}
		/* a 1.98 line whose version is not bonnie++'s is clyde's, with a seek count it may have timed */
		if (lay == &layout_198 && !bonnie_version(v)) {
			str_copy(r.format, sizeof(r.format), "clyde-csv");
			r.seeks_timed = true;
		}
	}
	if (!read_csv_params(&r, lay, f, &what)) {
		reader_malformed(rd, line, "%s", what);
		return 0;
	}
	if (!read_csv_results(&r, lay, f, why, sizeof(why))) {
		reader_malformed(rd, line, "%s", why);
		return 0;
	}
	if (lay->seed >= 0 && !copy_field_param(r.seed, sizeof(r.seed), f, lay->seed))
		r.seed[0] = 0;
	report_identity_csv(&r, p, n);
	report_key(&r);
	return reader_add_run(rd, &r);
}
