// SPDX-License-Identifier: BSD-2-Clause
/* The parser of Linux's /proc/meminfo (see dirty.h): pure, so every OS's tests run it. */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "sys/dirty.h"

/* "Name:   1234 kB" at the start of a line: the number, or -1. */
static int64_t meminfo_field(const char *text, const char *name)
{
	size_t len = strlen(name);
	const char *p = text;

	while (p && *p) {
		if (!strncmp(p, name, len) && p[len] == ':') {
			char *end;
			long long v = strtoll(p + len + 1, &end, 10);

			return end != p + len + 1 && v >= 0 ? (int64_t)v : -1;
		}
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return -1;
}

int sys_parse_mem_available(const char *text, uint64_t *bytes)
{
	int64_t kib = meminfo_field(text, "MemAvailable");

	if (kib < 0 || (uint64_t)kib > UINT64_MAX / 1024)
		return -EINVAL;
	*bytes = (uint64_t)kib * 1024;
	return 0;
}

int sys_dirty_parse_meminfo(const char *text, struct sys_dirty *d)
{
	d->dirty_kib = meminfo_field(text, "Dirty");
	d->writeback_kib = meminfo_field(text, "Writeback");
	return d->dirty_kib < 0 && d->writeback_kib < 0 ? -EINVAL : 0;
}

int sys_dirty_limit_compute(uint64_t dirty_bytes, unsigned ratio, const char *meminfo,
			    uint64_t *bytes)
{
	int64_t free_kib = meminfo_field(meminfo, "MemFree");
	int64_t active_kib = meminfo_field(meminfo, "Active(file)");
	int64_t inactive_kib = meminfo_field(meminfo, "Inactive(file)");

	if (dirty_bytes) {
		*bytes = dirty_bytes;
		return 0;
	}
	if (free_kib < 0 || active_kib < 0 || inactive_kib < 0)
		return -EINVAL;
	*bytes = (uint64_t)(free_kib + active_kib + inactive_kib) * 1024 / 100 * ratio;
	return 0;
}
