// SPDX-License-Identifier: BSD-2-Clause
/*
 * The grammars of -s, -n, -f and -r: bonnie++'s colon-separated fields,
 * sizes with k/m/g/t suffixes, each field checked against its limit.
 * They record what the user typed (sizes in bytes); the plan (plan.c)
 * turns that into the counts a run uses and checks how they combine.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "clyde/option_sizes.h"
#include "clyde/options.h"
#include "lib/size.h"

#define MIB	(1ull << 20)

int options_fail(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

static bool is_pow2(uint64_t v)
{
	return v && !(v & (v - 1));
}

/* Split "a:b:c" in place into at most max fields; returns the count (max + 1: too many). */
static int split_fields(char *s, char **fields, int max)
{
	int n = 0;

	fields[n++] = s;
	for (char *p = s; *p; p++) {
		if (*p != ':')
			continue;
		if (n == max)
			return max + 1;
		*p = '\0';
		fields[n++] = p + 1;
	}
	return n;
}

int options_u32(const char *opt, const char *what, const char *text, uint32_t lo, uint32_t hi,
		uint32_t *out, char *err, size_t errlen)
{
	int64_t v;
	int r = int_parse(text, &v);

	if (r == -EINVAL)
		return options_fail(err, errlen, "%s: %s '%s' is not a number", opt, what, text);
	if (r || v < lo || v > hi)
		return options_fail(err, errlen, "%s: %s %s is out of range (%" PRIu32 " to %" PRIu32 ")",
				    opt, what, text, lo, hi);
	*out = (uint32_t)v;
	return 0;
}

/* -s's and -n's chunk field: a power of two from MIN_CHUNK to MAX_CHUNK bytes. */
static int parse_chunk(const char *opt, const char *text, uint32_t *out,
		       char *err, size_t errlen)
{
	uint64_t v;
	int r = size_parse(text, 1, &v);

	if (r == -EINVAL)
		return options_fail(err, errlen,
				    "%s: chunk size '%s' is not a size (examples: 8192, 16k, 1m)",
				    opt, text);
	if (r || v < MIN_CHUNK || v > MAX_CHUNK || !is_pow2(v))
		return options_fail(err, errlen,
				    "%s: chunk size %s must be a power of two from %u to %u bytes",
				    opt, text, MIN_CHUNK, MAX_CHUNK);
	*out = (uint32_t)v;
	return 0;
}

/* A size in MiB (no suffix) up to MAX_SIZE_MIB, a whole number of MiB: -s's first field. */
static int parse_file_bytes(const char *text, uint64_t *out, char *err, size_t errlen)
{
	uint64_t bytes;
	int r = size_parse(text, MIB, &bytes);

	if (r == -EINVAL)
		return options_fail(err, errlen,
				    "-s: size '%s' is not a size (examples: 512, 512M, 4G)", text);
	if (r || bytes / MIB > MAX_SIZE_MIB)
		return options_fail(err, errlen, "-s: size %s is out of range (at most %" PRIu64 "G)",
				    text, (uint64_t)MAX_SIZE_MIB >> 10);
	if (bytes % MIB)
		return options_fail(err, errlen, "-s: size %s is not a whole number of MiB", text);
	*out = bytes;
	return 0;
}

/* Empty fields keep their defaults; the plan checks the size against the chunk. */
int options_size_arg(void *ctx, const char *text, char *err, size_t errlen)
{
	struct clyde_options *o = ctx;
	char arg[256], *f[4];
	int n;

	if (strlen(text) >= sizeof(arg))
		return options_fail(err, errlen, "-s: argument too long");
	strcpy(arg, text);
	n = split_fields(arg, f, 4);
	if (n > 4)
		return options_fail(err, errlen,
				    "-s: expected size[:chunk[:seeks[:seekers]]], got too many fields");
	if (parse_file_bytes(f[0], &o->size_bytes, err, errlen))
		return -EINVAL;
	o->size_given = true;
	if (n > 1 && *f[1] && parse_chunk("-s", f[1], &o->chunk, err, errlen))
		return -EINVAL;
	if (n > 2 && *f[2] &&
	    options_u32("-s", "seeks", f[2], 1, MAX_SEEKS, &o->seeks, err, errlen))
		return -EINVAL;
	if (n > 2 && *f[2])
		o->seeks_given = true;
	if (n > 3 && *f[3] &&
	    options_u32("-s", "seekers", f[3], 1, MAX_SEEKERS, &o->seekers, err, errlen))
		return -EINVAL;
	return 0;
}

/* -n's max and min fields in bytes; max may be -1 (hard links) or -2 (symlinks). */
static int parse_file_size(const char *what, const char *text, bool allow_links,
			   int64_t *out, char *err, size_t errlen)
{
	uint64_t v;
	int r;

	if (allow_links && (!strcmp(text, "-1") || !strcmp(text, "-2"))) {
		*out = text[1] == '1' ? -1 : -2;
		return 0;
	}
	r = size_parse(text, 1, &v);
	if (r == -EINVAL)
		return options_fail(err, errlen, "-n: %s '%s' is not a size%s", what, text,
				    allow_links ? " (or -1 for hard links, -2 for symlinks)" : "");
	if (r || v > (uint64_t)MAX_FILE_SIZE)
		return options_fail(err, errlen, "-n: %s %s is out of range (0 to %lldm)", what, text,
				    (long long)(MAX_FILE_SIZE >> 20));
	*out = (int64_t)v;
	return 0;
}

int options_files_arg(void *ctx, const char *text, char *err, size_t errlen)
{
	struct clyde_options *o = ctx;
	char arg[256], *f[5];
	int n;

	if (strlen(text) >= sizeof(arg))
		return options_fail(err, errlen, "-n: argument too long");
	strcpy(arg, text);
	n = split_fields(arg, f, 5);
	if (n > 5)
		return options_fail(err, errlen,
				    "-n: expected number[:max[:min[:num_dirs[:chunk]]]], got too many fields");
	if (options_u32("-n", "number of files (x1024)", f[0], 0, MAX_FILES, &o->files, err, errlen))
		return -EINVAL;
	o->files_given = true;
	o->file_max = 0;
	o->file_min = 0;
	if (n > 1 && *f[1] && parse_file_size("max size", f[1], true, &o->file_max, err, errlen))
		return -EINVAL;
	if (n > 2 && *f[2]) {
		if (o->file_max < 0)
			return options_fail(err, errlen,
					    "-n: min size makes no sense with max %s (links)", f[1]);
		if (parse_file_size("min size", f[2], false, &o->file_min, err, errlen))
			return -EINVAL;
		if (o->file_min > o->file_max)
			return options_fail(err, errlen,
					    "-n: min size %s is larger than max size %s", f[2], f[1]);
	}
	if (n > 3 && *f[3] &&
	    options_u32("-n", "number of directories", f[3], 0, MAX_FILE_DIRS, &o->file_dirs,
			err, errlen))
		return -EINVAL;
	if (o->file_dirs == 0)
		o->file_dirs = 1;
	if (n > 4 && *f[4] && parse_chunk("-n", f[4], &o->file_chunk, err, errlen))
		return -EINVAL;
	return 0;
}

int options_perchar_arg(void *ctx, const char *text, char *err, size_t errlen)
{
	struct clyde_options *o = ctx;
	uint64_t v;
	int r;

	if (!text) {
		o->skip_perchar = true;
		return 0;
	}
	r = size_parse(text, MIB, &v);
	if (r == -EINVAL)
		return options_fail(err, errlen,
				    "-f: per-char size '%s' is not a size (examples: -f64k, -f3m)", text);
	if (r || v < MIN_PERCHAR_BYTES || v > MAX_PERCHAR_BYTES)
		return options_fail(err, errlen, "-f: per-char size %s is out of range (1k to 1t)", text);
	o->perchar_bytes = v;
	o->skip_perchar = false;
	return 0;
}

int options_ram_arg(void *ctx, const char *text, char *err, size_t errlen)
{
	struct clyde_options *o = ctx;
	uint64_t u;

	if (size_parse(text, MIB, &u) || u / MIB > MAX_SIZE_MIB || u % MIB)
		return options_fail(err, errlen,
				    "-r: RAM size '%s' must be a whole number of MiB (0 to %" PRIu64 "G)",
				    text, (uint64_t)MAX_SIZE_MIB >> 10);
	o->ram_bytes = u;
	o->ram_given = true;
	return 0;
}
