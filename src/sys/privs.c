// SPDX-License-Identifier: BSD-2-Clause
/* -u and -g: drop root before touching the directory. */
#include "config.h"

#include <ctype.h>
#include <stdbool.h>
#include <errno.h>
#include <grp.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/compat.h"
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

static int resolve_group(const char *name, gid_t *gid, char *err, size_t errlen)
{
	struct group *gr;

	if (all_digits(name)) {
		*gid = (gid_t)strtoul(name, NULL, 10);
		return 0;
	}
	gr = getgrnam(name);
	if (!gr) {
		snprintf(err, errlen, "-g/-u: no such group '%s'", name);
		return -EINVAL;
	}
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

int privs_resolve(const char *opt, const char *user, const char *group, uid_t *uid, gid_t *gid,
		  char *err, size_t errlen)
{
	char name[256];
	const char *grp = group;
	struct passwd *pw = NULL;
	bool have_gid = false;
	char *colon;

	*uid = getuid();
	*gid = getgid();
	if (user) {
		snprintf(name, sizeof(name), "%s", user);
		colon = strchr(name, ':');
		if (colon) {
			*colon = '\0';
			if (colon[1] && !grp)
				grp = user + (colon - name) + 1;
		}
		pw = all_digits(name) ? getpwuid((uid_t)strtoul(name, NULL, 10)) : getpwnam(name);
		if (!pw && !all_digits(name)) {
			snprintf(err, errlen, "%s: no such user '%s'", opt, name);
			return -EINVAL;
		}
		*uid = pw ? pw->pw_uid : (uid_t)strtoul(name, NULL, 10);
		if (pw) {
			*gid = pw->pw_gid;
			have_gid = true;
		}
	}
	if (grp) {
		if (resolve_group(grp, gid, err, errlen))
			return -EINVAL;
		have_gid = true;
	} else if (user && !have_gid) {
		default_group(gid);
	}
	return 0;
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
