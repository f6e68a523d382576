/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef CLYDE_STRUTIL_H
#define CLYDE_STRUTIL_H

#include <string.h>

/* Copy src into dst of len bytes, cut short if need be, always terminated. */
static inline void str_copy(char *dst, size_t len, const char *src)
{
	size_t n = strnlen(src, len - 1);

	memcpy(dst, src, n);
	dst[n] = '\0';
}

#endif
