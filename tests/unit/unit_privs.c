// SPDX-License-Identifier: BSD-2-Clause
/*
 * -u and -g ids (src/sys/privs.c privs_resolve): a number above what
 * uid_t or gid_t holds, or equal to its (T)-1, is refused with the value
 * named, never wrapped to another id (a cast of 2^32 to a 32-bit uid_t is
 * 0, root); signs, spaces, hexadecimal and trailing junk are not ids. The
 * limits come from the types here, so the test holds whatever their width.
 * The same refusals as the programs print them: tests/cli/ids.sh.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/types.h>

#include "sys/privs.h"
#include "unit.h"

/* The decimal text of n + add, for n near the top of uintmax_t: written by hand past it. */
static void decimal_plus(char *out, size_t len, uintmax_t n, unsigned add)
{
	char digits[64];
	int i = 0, carry = (int)add;

	snprintf(digits, sizeof(digits), "%ju", n);
	for (i = (int)strlen(digits) - 1; i >= 0 && carry; i--) {
		int d = digits[i] - '0' + carry;

		digits[i] = (char)('0' + d % 10);
		carry = d / 10;
	}
	snprintf(out, len, "%s%s", carry ? "1" : "", digits);
}

/* text as -u's user, or as -g's group when as_group: privs_resolve's return, the id in *id. */
static int resolve_one(const char *text, bool as_group, uintmax_t *id, char *err, size_t errlen)
{
	uid_t uid = 12345;
	gid_t gid = 12345;
	int ret;

	err[0] = '\0';
	ret = privs_resolve("-u", as_group ? NULL : text, as_group ? text : NULL, &uid, &gid, err,
			    errlen);
	*id = as_group ? (uintmax_t)gid : (uintmax_t)uid;
	return ret;
}

static void refused(const char *text, bool as_group, int want_ret, const char *want)
{
	char err[256];
	uintmax_t id;
	int ret = resolve_one(text, as_group, &id, err, sizeof(err));

	CHECK(ret == want_ret, "%s '%s': got %d, want %d (%s)", as_group ? "-g" : "-u", text, ret,
	      want_ret, err);
	CHECK(strstr(err, want), "%s '%s': message '%s' lacks '%s'", as_group ? "-g" : "-u", text,
	      err, want);
}

static void taken(const char *text, bool as_group, uintmax_t want)
{
	char err[256];
	uintmax_t id;
	int ret = resolve_one(text, as_group, &id, err, sizeof(err));

	CHECK(ret == 0, "'%s': %s", text, err);
	CHECK(id == want, "'%s': got %ju, want %ju", text, id, want);
}

static void each_kind(bool as_group)
{
	uintmax_t all_ones = as_group ? (uintmax_t)(gid_t)-1 : (uintmax_t)(uid_t)-1;
	char text[80], top[80];

	/* the largest id there is, and one past: the type's -1, then what wraps to 0 */
	decimal_plus(top, sizeof(top), all_ones - 1, 0);
	taken(top, as_group, all_ones - 1);
	decimal_plus(text, sizeof(text), all_ones, 0);
	refused(text, as_group, -ERANGE, text);
	refused(text, as_group, -ERANGE, top);
	decimal_plus(text, sizeof(text), all_ones, 1);
	refused(text, as_group, -ERANGE, "out of range");
	decimal_plus(text, sizeof(text), all_ones, 2);
	refused(text, as_group, -ERANGE, text);
	/* past uintmax_t itself, where strtoul would saturate */
	decimal_plus(text, sizeof(text), UINTMAX_MAX, 1);
	refused(text, as_group, -ERANGE, text);
	refused("99999999999999999999999999999999999999999", as_group, -ERANGE, "out of range");
	/* not numbers: no name like these exists, and no id is read from them */
	refused("-1", as_group, -EINVAL, "'-1': neither");
	refused("0x10", as_group, -EINVAL, "'0x10': neither");
	refused(" 5", as_group, -EINVAL, "' 5': neither");
	refused("+5", as_group, -EINVAL, "'+5': neither");
	refused("5 ", as_group, -EINVAL, "'5 ': neither");
	refused("5x", as_group, -EINVAL, "'5x': neither");
	refused("", as_group, -EINVAL, "name is empty");
	/* what a number was always taken as */
	taken("0", as_group, 0);
	taken("65534", as_group, 65534);
	taken("0065534", as_group, 65534);
}

/*
 * An id longer than any buffer: 300 zeros then 1 is uid 1, never the 300
 * zeros a copy cut to 256 bytes would leave (uid 0, root); with a group
 * after its colon, that group is still read.
 */
static void long_ids(void)
{
	char text[400], err[256] = "";
	uid_t uid = 12345;
	gid_t gid = 12345;

	memset(text, '0', 300);
	strcpy(text + 300, "1");
	taken(text, false, 1);
	taken(text, true, 1);
	strcpy(text + 301, ":65534");
	CHECK(privs_resolve("-u", text, NULL, &uid, &gid, err, sizeof(err)) == 0, "%s", err);
	CHECK(uid == 1 && gid == 65534, "300 zeros, 1, :65534: got uid %u gid %u, want 1 65534",
	      (unsigned)uid, (unsigned)gid);
	/* a name past any buffer is looked up whole: no such user, not a cut one */
	memset(text, 'r', 300);
	strcpy(text + 300, "x");
	refused(text, false, -EINVAL, "no such user");
}

int main(void)
{
	char err[256] = "";
	uid_t uid;
	gid_t gid;

	long_ids();

	each_kind(false);
	each_kind(true);
	/* user:group: the group's number is checked the same way */
	CHECK(privs_resolve("-u", "65534:4294967296999", NULL, &uid, &gid, err, sizeof(err)) ==
	      -ERANGE, "user:group with a group past the range: %s", err);
	CHECK(strstr(err, "group id"), "%s", err);
	return unit_verdict("unit_privs");
}
