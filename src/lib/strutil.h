/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef CLYDE_STRUTIL_H
#define CLYDE_STRUTIL_H

#include <stdbool.h>
#include <string.h>

/* Copy src into dst of len bytes, cut short if need be, always terminated. */
static inline void str_copy(char *dst, size_t len, const char *src)
{
	size_t n = strnlen(src, len - 1);

	memcpy(dst, src, n);
	dst[n] = '\0';
}

/*
 * Copy like str_copy, but a copy cut short ends in "..." so that the cut
 * shows. True when src did not fit.
 */
static inline bool str_copy_marked(char *dst, size_t len, const char *src)
{
	bool cut = strnlen(src, len) == len;

	str_copy(dst, len, src);
	if (cut && len > 3)
		memcpy(dst + len - 4, "...", 4);
	return cut;
}

#endif
