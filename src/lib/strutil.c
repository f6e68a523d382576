// SPDX-License-Identifier: BSD-2-Clause
/* Text helpers that need more than a line (see strutil.h). */
#include "config.h"

#include <stdint.h>
#include <stdio.h>

#include "lib/strutil.h"

/*
 * The length of the valid UTF-8 sequence at s (2 to 4 bytes) that is not a
 * C1 control, or 0: an overlong form, a surrogate, a code point past
 * U+10FFFF, a stray or missing continuation byte, or U+0080..U+009F.
 */
static size_t utf8_printable_len(const unsigned char *s)
{
	uint32_t cp, least;
	size_t n;

	if (s[0] >= 0xc2 && s[0] <= 0xdf) {
		n = 2;
		cp = s[0] & 0x1fu;
		least = 0xa0;	/* U+0080..U+009F are the C1 controls */
	} else if (s[0] >= 0xe0 && s[0] <= 0xef) {
		n = 3;
		cp = s[0] & 0x0fu;
		least = 0x800;
	} else if (s[0] >= 0xf0 && s[0] <= 0xf4) {
		n = 4;
		cp = s[0] & 0x07u;
		least = 0x10000;
	} else {
		return 0;
	}
	for (size_t i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3fu);
	}
	if (cp < least || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return n;
}

bool str_escape(char *dst, size_t len, const char *src)
{
	const unsigned char *s = (const unsigned char *)src;
	size_t used = 0;

	if (!len)
		return *src != '\0';
	while (*s) {
		char piece[5];
		size_t n, take = 1;	/* bytes written, bytes of src read */

		if (*s == '\\') {
			n = 2;
			memcpy(piece, "\\\\", 2);
		} else if (*s >= 0x20 && *s < 0x7f) {
			n = 1;
			piece[0] = (char)*s;
		} else if (*s >= 0x80 && (take = utf8_printable_len(s))) {
			n = take;
			memcpy(piece, s, n);
		} else {
			take = 1;
			n = 4;
			snprintf(piece, sizeof(piece), "\\x%02x", *s);
		}
		if (used + n >= len) {
			dst[used] = '\0';
			return true;
		}
		memcpy(dst + used, piece, n);
		used += n;
		s += take;
	}
	dst[used] = '\0';
	return false;
}
