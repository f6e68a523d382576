// SPDX-License-Identifier: BSD-2-Clause
/* Filesystem of a directory on the BSDs: statfs(2) names it. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/param.h>
#include <sys/mount.h>

#include "fsinfo.h"

#ifdef HAVE_STRUCT_STATFS_F_FSTYPENAME
int fsinfo_get(const char *dir, struct fsinfo *fs)
{
	struct statfs sfs;

	memset(fs, 0, sizeof(*fs));
	if (statfs(dir, &sfs))
		return -errno;
	snprintf(fs->type, sizeof(fs->type), "%s", sfs.f_fstypename);
	snprintf(fs->source, sizeof(fs->source), "%s", sfs.f_mntfromname);
	snprintf(fs->mountpoint, sizeof(fs->mountpoint), "%s", sfs.f_mntonname);
	snprintf(fs->options, sizeof(fs->options), "%s%s",
		 (sfs.f_flags & MNT_RDONLY) ? "ro" : "rw",
		 (sfs.f_flags & MNT_NOATIME) ? ",noatime" : "");
	return 0;
}
#else
int fsinfo_get(const char *dir, struct fsinfo *fs)
{
	(void)dir;
	memset(fs, 0, sizeof(*fs));
	return -ENOSYS;
}
#endif
