// SPDX-License-Identifier: BSD-2-Clause
/* -u and -g: drop root before touching the directory. */
#include "config.h"

#include <ctype.h>
#include <stdbool.h>
#include <errno.h>
#include <grp.h>
#include <stdint.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sys/compat.h"
#include "sys/privs.h"

static bool all_digits(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!isdigit((unsigned char)*s))
			return false;
	return true;
}

/* A name no lookup found that was meant as a number: a sign, a space, a digit first. */
static bool number_like(const char *s)
{
	return isdigit((unsigned char)s[0]) || isspace((unsigned char)s[0]) || s[0] == '-' ||
	       s[0] == '+';
}

enum id_kind { ID_USER, ID_GROUP };

/* uid_t and gid_t are unsigned on every system clyde builds on: (T)-1 is the largest. */
_Static_assert((uid_t)-1 > 0 && (gid_t)-1 > 0, "uid_t and gid_t are unsigned");

/* (uid_t)-1 or (gid_t)-1: one past the largest id clyde takes. */
static uintmax_t id_all_ones(enum id_kind kind)
{
	return kind == ID_USER ? (uintmax_t)(uid_t)-1 : (uintmax_t)(gid_t)-1;
}

/* The message for text that is neither a name found nor an id. */
static int not_an_id(const char *opt, enum id_kind kind, const char *text, char *err,
		     size_t errlen)
{
	const char *what = kind == ID_USER ? "user" : "group";

	if (!*text)
		snprintf(err, errlen, "%s: the %s name is empty", opt, what);
	else if (number_like(text))
		snprintf(err, errlen, "%s '%s': neither a %s's name nor a %s id (a decimal "
			 "number from 0 to %ju)", opt, text, what, what, id_all_ones(kind) - 1);
	else
		snprintf(err, errlen, "%s: no such %s '%s'", opt, what, text);
	return -EINVAL;
}

/*
 * The id in text, all decimal digits: refused, never cut or wrapped, above
 * what the type holds (a cast of 4294967296 to a 32-bit uid_t is 0, root)
 * and at its all-ones value, which setuid, setgid and chown take as "no
 * change". 0, or -ERANGE with err naming the value.
 */
static int parse_id(const char *opt, enum id_kind kind, const char *text, uintmax_t *id,
		    char *err, size_t errlen)
{
	uintmax_t all_ones = id_all_ones(kind), v = 0;

	for (const char *c = text; *c && v < all_ones; c++) {
		unsigned digit = (unsigned)(*c - '0');

		v = v > (all_ones - digit) / 10 ? all_ones : v * 10 + digit;
	}
	if (v >= all_ones) {
		snprintf(err, errlen, "%s %s: out of range: a %s id is a number from 0 to %ju "
			 "(%ju, (%s)-1, means \"no change\" to %s and chown)", opt, text,
			 kind == ID_USER ? "user" : "group", all_ones - 1, all_ones,
			 kind == ID_USER ? "uid_t" : "gid_t",
			 kind == ID_USER ? "setuid" : "setgid");
		return -ERANGE;
	}
	*id = v;
	return 0;
}

static int resolve_group(const char *opt, const char *name, gid_t *gid, char *err,
			 size_t errlen)
{
	struct group *gr;
	uintmax_t id;
	int ret;

	if (all_digits(name)) {
		ret = parse_id(opt, ID_GROUP, name, &id, err, errlen);
		if (!ret)
			*gid = (gid_t)id;
		return ret;
	}
	gr = getgrnam(name);
	if (!gr)
		return not_an_id(opt, ID_GROUP, name, err, errlen);
	*gid = gr->gr_gid;
	return 0;
}

static int default_group(gid_t *gid)
{
	struct group *gr = getgrnam("nogroup");

	if (!gr)
		gr = getgrnam("nobody");
	*gid = gr ? gr->gr_gid : (gid_t)65534;
	return 0;
}

/* The user name or id text: its uid, and its passwd entry where it has one. */
static int resolve_user(const char *opt, const char *text, uid_t *uid, struct passwd **pw,
			char *err, size_t errlen)
{
	uintmax_t id;
	int ret;

	if (all_digits(text)) {
		ret = parse_id(opt, ID_USER, text, &id, err, errlen);
		if (ret)
			return ret;
		*uid = (uid_t)id;
		*pw = getpwuid(*uid);
		return 0;
	}
	*pw = getpwnam(text);
	if (!*pw)
		return not_an_id(opt, ID_USER, text, err, errlen);
	*uid = (*pw)->pw_uid;
	return 0;
}

int privs_resolve(const char *opt, const char *user, const char *group, uid_t *uid, gid_t *gid,
		  char *err, size_t errlen)
{
	const char *grp = group, *grp_opt = group ? "-g" : opt;
	struct passwd *pw = NULL;
	bool have_gid = false;
	const char *colon;
	char *name = NULL;
	int ret = 0;

	*uid = getuid();
	*gid = getgid();
	if (user) {
		/*
		 * The user part whole, however long: a copy cut to a buffer's
		 * size changes the id it names (300 zeros and a 1, cut before
		 * the 1, is uid 0, root).
		 */
		colon = strchr(user, ':');
		name = strndup(user, colon ? (size_t)(colon - user) : strlen(user));
		if (!name) {
			snprintf(err, errlen, "%s: out of memory", opt);
			return -ENOMEM;
		}
		if (colon && colon[1] && !grp)
			grp = colon + 1;
		ret = resolve_user(opt, name, uid, &pw, err, errlen);
		if (ret)
			goto free_name;
		if (pw) {
			*gid = pw->pw_gid;
			have_gid = true;
		}
	}
	if (grp) {
		ret = resolve_group(grp_opt, grp, gid, err, errlen);
		if (ret)
			goto free_name;
		have_gid = true;
	} else if (user && !have_gid) {
		default_group(gid);
	}
free_name:
	free(name);
	return ret;
}

int privs_drop(const char *user, const char *group, char *err, size_t errlen)
{
	uid_t uid;
	gid_t gid;
	int ret;

	if (!user && !group)
		return 0;
	ret = privs_resolve("-u", user, group, &uid, &gid, err, errlen);
	if (ret)
		return ret;
	if (geteuid() != 0) {
		if (uid == geteuid() && gid == getegid())
			return 0;
		snprintf(err, errlen, "-u/-g: only root can change user or group");
		return -EPERM;
	}
	if (setgroups(0, NULL) || setgid(gid) || setuid(uid)) {
		int e = errno;

		snprintf(err, errlen, "-u/-g: cannot become uid %u gid %u: %s",
			 (unsigned)uid, (unsigned)gid, strerror(e));
		return -e;
	}
	return 0;
}

int privs_become(uid_t uid, gid_t gid, char *err, size_t errlen)
{
	const char *step;

	/* groups first: once the uid is not root, they can no longer change */
	step = "setgroups";
	if (setgroups(1, &gid))
		goto failed;
	step = "setresgid";
	if (set_all_gids(gid))
		goto failed;
	step = "setresuid";
	if (set_all_uids(uid))
		goto failed;
	step = "the check of the new ids";
	errno = EPERM;
	if (getuid() != uid || geteuid() != uid || getgid() != gid || getegid() != gid)
		goto failed;
	/* a saved root id would let root come back: it must not */
	if (uid != 0 && (setuid(0) == 0 || seteuid(0) == 0))
		goto failed;
	return 0;
failed:
	snprintf(err, errlen, "cannot become uid %u gid %u: %s: %s", (unsigned)uid,
		 (unsigned)gid, step, strerror(errno));
	return -errno;
}
