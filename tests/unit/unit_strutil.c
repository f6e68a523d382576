// SPDX-License-Identifier: BSD-2-Clause
/*
 * str_escape (src/lib/strutil.c): what a terminal would obey becomes \xNN
 * (controls, DEL, bytes that are not UTF-8, the C1 controls' UTF-8), a
 * backslash doubles, valid UTF-8 and plain text stay, and a cut never
 * splits an escape or a character.
 */
#include "config.h"

#include <string.h>

#include "lib/strutil.h"
#include "unit.h"

static void escaped(const char *in, const char *want)
{
	char out[STR_ESCAPED_MAX(64)];
	bool cut = str_escape(out, sizeof(out), in);

	CHECK(!cut, "'%s' was cut", want);
	CHECK_STR(out, want);
}

int main(void)
{
	char small[8];

	escaped("clyde.abc123", "clyde.abc123");
	escaped("", "");
	/* what a planted marker put on root's terminal: a title, a bell, a clear */
	escaped("\x1b]0;owned\x07\x1b[2J", "\\x1b]0;owned\\x07\\x1b[2J");
	escaped("a\nb\rc\td\x7f", "a\\x0ab\\x0dc\\x09d\\x7f");
	escaped("back\\x1b", "back\\\\x1b");
	/* C1: CSI as a raw byte, and as UTF-8 (U+009B); U+00A0 is the first that stays */
	escaped("\x9b" "2J", "\\x9b2J");
	escaped("\xc2\x9b" "2J", "\\xc2\\x9b2J");
	escaped("\xc2\x80", "\\xc2\\x80");
	escaped("\xc2\xa0", "\xc2\xa0");
	/* valid UTF-8 stays, a continuation byte 0x9b inside it too */
	escaped("caf\xc3\xa9 \xc4\x9b \xe2\x82\xac \xf0\x9f\x98\x80",
		"caf\xc3\xa9 \xc4\x9b \xe2\x82\xac \xf0\x9f\x98\x80");
	/* not UTF-8: overlong, a surrogate, past U+10FFFF, cut short, a stray continuation */
	escaped("\xc0\x80", "\\xc0\\x80");
	escaped("\xe0\x80\xaf", "\\xe0\\x80\\xaf");
	escaped("\xed\xa0\x80", "\\xed\\xa0\\x80");
	escaped("\xf4\x90\x80\x80", "\\xf4\\x90\\x80\\x80");
	escaped("\xe2\x82", "\\xe2\\x82");
	escaped("\xe2\x82z", "\\xe2\\x82z");
	escaped("\x80", "\\x80");
	escaped("\xff\xfe", "\\xff\\xfe");

	/* cut: never inside an escape or a character, always terminated */
	CHECK(str_escape(small, sizeof(small), "ab\x1b" "cdef"), "cut reported");
	CHECK_STR(small, "ab\\x1bc");
	CHECK(str_escape(small, 6, "ab\x1b" "cd"), "cut reported");
	CHECK_STR(small, "ab");
	CHECK(str_escape(small, 4, "a\xe2\x82\xac"), "cut reported");
	CHECK_STR(small, "a");
	CHECK(!str_escape(small, sizeof(small), "abcdefg"), "seven fit in eight");
	CHECK(str_escape(small, sizeof(small), "abcdefgh"), "eight do not");
	CHECK_STR(small, "abcdefg");
	return unit_verdict("unit_strutil");
}
