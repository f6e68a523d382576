// SPDX-License-Identifier: BSD-2-Clause
/*
 * Filesystem of a directory on Linux: /proc/self/mountinfo, whose line is
 * "ID PARENT MAJ:MIN ROOT MOUNTPOINT MOUNT-OPTIONS [OPTIONAL...] - TYPE
 * SOURCE SUPER-OPTIONS": the mount's options (ro, noatime) and, after the
 * source, the filesystem's own (ext4's data=journal, btrfs's compress).
 */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/strutil.h"
#include "sys/fsinfo.h"

/* mountinfo escapes space, tab, newline and backslash as \ooo. */
static void unescape(char *s)
{
	char *out = s;

	while (*s) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '7' &&
		    s[2] >= '0' && s[2] <= '7' && s[3] >= '0' && s[3] <= '7') {
			*out++ = (char)((s[1] - '0') * 64 + (s[2] - '0') * 8 + (s[3] - '0'));
			s += 4;
		} else {
			*out++ = *s++;
		}
	}
	*out = '\0';
}

static size_t mount_prefix_len(const char *mnt, const char *path)
{
	size_t n = strlen(mnt);

	if (!strcmp(mnt, "/"))
		return 1;
	if (strncmp(mnt, path, n) || (path[n] != '/' && path[n] != '\0'))
		return 0;
	return n;
}

/* Lines are read whole (getline): a long one is never split or cut. */
int fsinfo_get(const char *dir, struct fsinfo *fs)
{
	char real[PATH_MAX], *line = NULL;
	size_t best = 0, cap = 0;
	FILE *f;

	memset(fs, 0, sizeof(*fs));
	if (!realpath(dir, real))
		return -errno;
	f = fopen("/proc/self/mountinfo", "re");
	if (!f)
		return -errno;
	while (getline(&line, &cap, f) > 0) {
		char *field[10] = { 0 }, *save = NULL, *tok, *dash;
		int n = 0;
		size_t len;

		dash = strstr(line, " - ");
		if (!dash)
			continue;
		*dash = '\0';
		for (tok = strtok_r(line, " ", &save); tok && n < 6; tok = strtok_r(NULL, " ", &save))
			field[n++] = tok;
		if (n < 6)
			continue;
		unescape(field[4]);
		len = mount_prefix_len(field[4], real);
		/* Later lines mount over earlier ones: take ties too. */
		if (!len || len < best)
			continue;
		best = len;
		fs->cut = str_copy_marked(fs->mountpoint, sizeof(fs->mountpoint), field[4]);
		fs->cut |= str_copy_marked(fs->options, sizeof(fs->options), field[5]);
		save = NULL;
		tok = strtok_r(dash + 3, " \n", &save);
		fs->cut |= str_copy_marked(fs->type, sizeof(fs->type), tok ? tok : "");
		tok = strtok_r(NULL, " \n", &save);
		if (tok)
			unescape(tok);
		fs->cut |= str_copy_marked(fs->source, sizeof(fs->source), tok ? tok : "");
		tok = tok ? strtok_r(NULL, " \n", &save) : NULL;
		if (tok)
			unescape(tok);
		fs->cut |= str_copy_marked(fs->super_options, sizeof(fs->super_options),
					   tok ? tok : "");
	}
	free(line);
	fclose(f);
	return best ? 0 : -ENOENT;
}
