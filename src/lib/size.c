// SPDX-License-Identifier: BSD-2-Clause
/* Size and integer parsing shared by the option parser; -Z's seed bytes. */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/size.h"

static int suffix_shift(char c, unsigned *shift)
{
	switch (tolower((unsigned char)c)) {
	case 'b':
		*shift = 0;
		return 0;
	case 'k':
		*shift = 10;
		return 0;
	case 'm':
		*shift = 20;
		return 0;
	case 'g':
		*shift = 30;
		return 0;
	case 't':
		*shift = 40;
		return 0;
	default:
		return -EINVAL;
	}
}

int size_parse(const char *text, uint64_t default_unit, uint64_t *out)
{
	const char *p = text;
	uint64_t value = 0, unit = default_unit;
	unsigned shift;

	if (!text || !isdigit((unsigned char)*p))
		return -EINVAL;
	while (isdigit((unsigned char)*p)) {
		unsigned digit = (unsigned)(*p - '0');

		if (value > (UINT64_MAX - digit) / 10)
			return -ERANGE;
		value = value * 10 + digit;
		p++;
	}
	if (*p) {
		if (suffix_shift(*p, &shift))
			return -EINVAL;
		unit = 1ull << shift;
		p++;
		/* Accept "64MB", "4GiB" as well as "64M". */
		if (*p == 'i' || *p == 'I')
			p++;
		if ((*p == 'b' || *p == 'B') && shift)
			p++;
		if (*p)
			return -EINVAL;
	}
	if (value && unit > UINT64_MAX / value)
		return -ERANGE;
	*out = value * unit;
	return 0;
}

int int_parse(const char *text, int64_t *out)
{
	char *end;
	long long v;

	if (!text || !*text || isspace((unsigned char)*text))
		return -EINVAL;
	errno = 0;
	v = strtoll(text, &end, 10);
	if (errno == ERANGE)
		return -ERANGE;
	if (*end)
		return -EINVAL;
	*out = v;
	return 0;
}

void size_label(char *buf, size_t len, uint64_t value, const char *units)
{
	size_t i = 0;

	while (value && value % 1024 == 0 && units[i + 1]) {
		value /= 1024;
		i++;
	}
	/* A space unit means "no letter", as for a 256-byte chunk. */
	if (units[i] == ' ')
		snprintf(buf, len, "%" PRIu64, value);
	else
		snprintf(buf, len, "%" PRIu64 "%c", value, units[i]);
}

void size_human(char *buf, size_t len, uint64_t bytes)
{
	static const char *const names[] = { "bytes", "KiB", "MiB", "GiB", "TiB" };
	double v = (double)bytes;
	size_t i = 0;

	while (v >= 1024 && i + 1 < sizeof(names) / sizeof(names[0])) {
		v /= 1024;
		i++;
	}
	if (i == 0)
		snprintf(buf, len, "%" PRIu64 " bytes", bytes);
	else
		snprintf(buf, len, "%.1f %s", v, names[i]);
}

int seed_from_bytes(const unsigned char *b, size_t n, uint32_t *seed)
{
	if (n < 4)
		return -EINVAL;
	*seed = (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 | (uint32_t)b[2] << 8 | b[3];
	return 0;
}
