// SPDX-License-Identifier: BSD-2-Clause
/*
 * Keeping the page cache out of the numbers: the names and descriptions
 * of the cache modes. How a file is evicted is the OS part
 * (cache_linux.c, cache_bsd.c), and the description names its method.
 */
#include "config.h"

#include <stdio.h>

#include "sys/cache.h"

const char *cache_mode_name(enum cache_mode m)
{
	switch (m) {
	case CACHE_KEEP:
		return "keep";
	case CACHE_UNCACHED:
		return "uncached";
	case CACHE_SYSTEM:
		return "system";
	default:
		return "drop";
	}
}

/* "METHOD after each I/O phase", after prefix; made once per mode. */
static const char *evict_description(char *buf, size_t len, const char *prefix)
{
	if (!buf[0])
		snprintf(buf, len, "%s%s after each I/O phase", prefix, cache_evict_method());
	return buf;
}

const char *cache_mode_description(enum cache_mode m)
{
	static char drop[128], uncached[160];

	switch (m) {
	case CACHE_KEEP:
		return "page cache kept as bonnie++ keeps it";
	case CACHE_UNCACHED:
		return evict_description(uncached, sizeof(uncached),
					 "RWF_DONTCACHE block and seek I/O; ");
	case CACHE_SYSTEM:
		return "sync + drop_caches after every phase: the whole machine's caches";
	default:
		return evict_description(drop, sizeof(drop), "");
	}
}
