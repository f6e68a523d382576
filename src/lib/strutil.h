/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef CLYDE_STRUTIL_H
#define CLYDE_STRUTIL_H

#include <stdbool.h>
#include <stddef.h>
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

/* The most str_escape writes for n bytes of text: each may become \xNN; and the NUL. */
#define STR_ESCAPED_MAX(n) (4 * (n) + 1)

/*
 * Copy src into dst of len bytes as text a terminal shows and never
 * obeys: for a name or a field clyde did not write (a directory entry, a
 * marker another user may have planted). A control byte (below 0x20, and
 * 0x7f), a byte that is not part of valid UTF-8, and the UTF-8 of the C1
 * controls (U+0080 to U+009F, CSI among them) become \xNN; a backslash
 * becomes \\, so an escape shown is never one the name held. Valid UTF-8
 * otherwise stays as it is. Cut short at a whole character or escape,
 * always terminated; true when src did not fit (STR_ESCAPED_MAX always fits).
 */
bool str_escape(char *dst, size_t len, const char *src);

#endif
