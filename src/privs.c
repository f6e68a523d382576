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

#include "privs.h"

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

int privs_drop(const char *user, const char *group, char *err, size_t errlen)
{
	char name[256];
	const char *grp = group;
	struct passwd *pw = NULL;
	uid_t uid = getuid();
	gid_t gid = getgid();
	bool have_gid = false;
	char *colon;

	if (!user && !group)
		return 0;
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
			snprintf(err, errlen, "-u: no such user '%s'", name);
			return -EINVAL;
		}
		uid = pw ? pw->pw_uid : (uid_t)strtoul(name, NULL, 10);
		if (pw) {
			gid = pw->pw_gid;
			have_gid = true;
		}
	}
	if (grp) {
		if (resolve_group(grp, &gid, err, errlen))
			return -EINVAL;
		have_gid = true;
	} else if (user && !have_gid) {
		default_group(&gid);
	}
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
