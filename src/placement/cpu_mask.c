// SPDX-License-Identifier: BSD-2-Clause
/* CPU sets as text: "0-3,8,10-11" parsed and printed back, and counted. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "placement/placement.h"

unsigned place_mask_count(const struct place_mask *m)
{
	unsigned n = 0;

	for (unsigned i = 0; i < PLACE_MASK_WORDS; i++)
		n += (unsigned)__builtin_popcountll(m->w[i]);
	return n;
}

int place_mask_parse(const char *list, struct place_mask *m)
{
	const char *p = list;

	memset(m, 0, sizeof(*m));
	if (!*p)
		return -EINVAL;
	while (*p) {
		char *end;
		unsigned long a, b;

		if (*p < '0' || *p > '9')
			return -EINVAL;
		a = strtoul(p, &end, 10);
		b = a;
		if (*end == '-') {
			if (end[1] < '0' || end[1] > '9')
				return -EINVAL;
			b = strtoul(end + 1, &end, 10);
		}
		if (b < a || b >= PLACE_MAX_PUS)
			return -EINVAL;
		for (unsigned long c = a; c <= b; c++)
			place_mask_set(m, (unsigned)c);
		if (*end == ',' && end[1])
			end++;
		else if (*end)
			return -EINVAL;
		p = end;
	}
	return 0;
}

void place_mask_format(const struct place_mask *m, char *buf, size_t len)
{
	size_t used = 0;

	if (len)
		buf[0] = '\0';
	for (unsigned c = 0; c < PLACE_MAX_PUS && used < len; c++) {
		unsigned e = c;

		if (!place_mask_has(m, c))
			continue;
		while (e + 1 < PLACE_MAX_PUS && place_mask_has(m, e + 1))
			e++;
		if (e == c)
			used += (size_t)snprintf(buf + used, len - used, "%s%u", used ? "," : "", c);
		else
			used += (size_t)snprintf(buf + used, len - used, "%s%u-%u", used ? "," : "",
						 c, e);
		c = e;
	}
}
