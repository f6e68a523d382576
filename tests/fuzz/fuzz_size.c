// SPDX-License-Identifier: BSD-2-Clause
/*
 * libFuzzer target for clyde's size and number parsers: the input, cut
 * at its first NUL or newline, as a NUL-terminated string (its own
 * allocation of exactly that size) through every parser of src/lib/size.h
 * and through the options built on them (-s size:chunk:seeks:seekers,
 * -n number:max:min:dirs:chunk, -f, -r, -z, -p, -c). A successful parse
 * must agree with a plain reading of the text, and its value must come
 * back unchanged from size_label() and print with size_human(); a
 * violation is reported and aborts. Built and run by .ci/fuzz-report.
 */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clyde/options.h"
#include "lib/size.h"

static const char *text;	/* the input, for the report */

static void violated(const char *what)
{
	fprintf(stderr, "fuzz_size: %s; text '%s'\n", what, text);
	abort();
}

#define INV(cond) do {				\
	if (!(cond))				\
		violated("invariant " #cond);	\
} while (0)

/*
 * What size_parse() documents, read the slow way: digits, then nothing
 * (times unit) or one of bkmgt, an optional i, and an optional b after
 * k, m, g or t. 0, -EINVAL or -ERANGE.
 */
static int model_size(const char *s, uint64_t unit, uint64_t *out)
{
	static const char suffixes[] = "bkmgt";
	unsigned __int128 v = 0;
	const char *p = s, *k;

	if (!isdigit((unsigned char)*p))
		return -EINVAL;
	/* a number too big for 64 bits is out of range, whatever follows it */
	for (; isdigit((unsigned char)*p); p++) {
		v = v * 10 + (unsigned)(*p - '0');
		if (v > UINT64_MAX)
			return -ERANGE;
	}
	if (*p) {
		k = strchr(suffixes, tolower((unsigned char)*p));
		if (!k)
			return -EINVAL;
		unit = 1ull << (10 * (k - suffixes));
		p++;
		if (*p == 'i' || *p == 'I')
			p++;
		if ((*p == 'b' || *p == 'B') && k != suffixes)
			p++;
		if (*p)
			return -EINVAL;
	}
	if (v * unit > UINT64_MAX)
		return -ERANGE;
	*out = (uint64_t)(v * unit);
	return 0;
}

/* size_label's letters; every value must read back from its label. */
static void round_trip(uint64_t v)
{
	static const char *const units[] = { "bkmgt", " kmgt", "bkm" };
	char buf[32], human[32], tiny[4];
	uint64_t back;

	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		size_label(buf, sizeof(buf), v, units[i]);
		INV(strlen(buf) < sizeof(buf) - 1);
		INV(size_parse(buf, 1, &back) == 0 && back == v);
	}
	size_label(tiny, sizeof(tiny), v, "MGT");
	INV(strlen(tiny) < sizeof(tiny));
	size_human(human, sizeof(human), v);
	INV(strlen(human) < sizeof(human) - 1 && (human[0] >= '0' && human[0] <= '9'));
	size_human(tiny, sizeof(tiny), v);
	INV(strlen(tiny) < sizeof(tiny));
	size_human(tiny, 0, v);	/* nothing written */
}

static void check_size_parse(const char *s)
{
	static const uint64_t units[] = { 1, 1024, 1ull << 20 };

	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		uint64_t got = 0xa5a5a5a5a5a5a5a5ull, want = 0;
		int r = size_parse(s, units[i], &got), m = model_size(s, units[i], &want);

		INV(r == m);
		INV(r ? got == 0xa5a5a5a5a5a5a5a5ull : got == want);
		if (!r)
			round_trip(got);
	}
}

static void check_int_parse(const char *s)
{
	int64_t v = 0x5a5a5a5a5a5a5a5all, back;
	char buf[32], *end;
	long long ref;
	int r = int_parse(s, &v);

	INV(r == 0 || r == -EINVAL || r == -ERANGE);
	if (r) {
		INV(v == 0x5a5a5a5a5a5a5a5all);
		return;
	}
	INV(*s && !isspace((unsigned char)*s));
	errno = 0;
	ref = strtoll(s, &end, 10);
	INV(!errno && !*end && ref == v);
	snprintf(buf, sizeof(buf), "%" PRId64, v);
	INV(int_parse(buf, &back) == 0 && back == v);
	if (v >= 0)
		round_trip((uint64_t)v);
}

static void check_seed(const char *s, size_t n)
{
	uint32_t seed = 7;
	int r = seed_from_bytes((const unsigned char *)s, n, &seed);

	INV(n < 4 ? r == -EINVAL && seed == 7 : r == 0);
}

/* clyde OPT TEXT: options_parse's own invariants are fuzz_options.c's; here the numbers. */
static void check_option(const char *opt, char *arg)
{
	char *argv[] = { "clyde", (char *)opt, arg, NULL };
	struct clyde_options o;
	char err[512];
	int r;

	options_defaults(&o);
	err[0] = '\0';
	r = options_parse(&o, 3, argv, err, sizeof(err));
	INV(r == 0 || (r == -EINVAL && err[0]));
	if (r)
		return;
	switch (opt[1]) {
	case 's':
		INV(o.size_given && o.size_bytes <= MAX_SIZE_MIB << 20 && !(o.size_bytes % (1ull << 20)));
		INV(o.chunk >= MIN_CHUNK && o.chunk <= MAX_CHUNK && !(o.chunk & (o.chunk - 1)));
				INV(o.seeks >= 1 && o.seeks <= MAX_SEEKS && o.seekers >= 1 && o.seekers <= MAX_SEEKERS);
		round_trip(o.size_bytes);
		round_trip(o.chunk);
		break;
	case 'n':
		INV(o.files_given && o.files <= MAX_FILES);
		INV(o.file_max >= -2 && o.file_max <= MAX_FILE_SIZE);
		INV(o.file_min >= 0 && (o.file_max < 0 ? !o.file_min : o.file_min <= o.file_max));
		INV(o.file_dirs >= 1 && o.file_dirs <= MAX_FILE_DIRS);
		INV(o.file_chunk >= MIN_CHUNK && o.file_chunk <= MAX_CHUNK &&
		    !(o.file_chunk & (o.file_chunk - 1)));
		if (o.file_max >= 0)
			round_trip((uint64_t)o.file_max);
		round_trip((uint64_t)o.file_min);
		break;
	case 'r':
		INV(o.ram_given && o.ram_bytes <= MAX_SIZE_MIB << 20 && !(o.ram_bytes % (1ull << 20)));
		round_trip(o.ram_bytes);
		break;
	case 'z':
		INV(o.seed_given);
		round_trip(o.seed);
		break;
	case 'p':
		INV(o.sem_procs == -1 || (o.sem_procs >= 1 && o.sem_procs <= MAX_SEM_PROCS));
		break;
	case 'c':
		INV(o.concurrency >= 1 && o.concurrency <= MAX_CONCURRENCY);
		break;
	}
}

/* -f's size is attached: -fTEXT */
static void check_perchar(const char *s, size_t n)
{
	char *arg = malloc(n + 3);
	char *argv[] = { "clyde", arg, NULL };
	struct clyde_options o;
	char err[512];

	if (!arg)
		return;
	memcpy(arg, "-f", 2);
	memcpy(arg + 2, s, n + 1);
	options_defaults(&o);
	if (!options_parse(&o, 2, argv, err, sizeof(err))) {
		INV(n ? !o.skip_perchar : o.skip_perchar);
		INV(o.perchar_bytes >= MIN_PERCHAR_BYTES && o.perchar_bytes <= MAX_PERCHAR_BYTES);
		round_trip(o.perchar_bytes);
	}
	free(arg);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const opts[] = { "-s", "-n", "-r", "-z", "-p", "-c" };
	size_t n = 0;
	char *s;

	while (n < size && data[n] != '\0' && data[n] != '\n')
		n++;
	s = malloc(n + 1);
	if (!s)
		return 0;
	memcpy(s, data, n);
	s[n] = '\0';
	text = s;
	check_size_parse(s);
	check_int_parse(s);
	check_seed((const char *)data, size);
	for (size_t i = 0; i < sizeof(opts) / sizeof(opts[0]); i++)
		check_option(opts[i], s);
	check_perchar(s, n);
	free(s);
	return 0;
}
