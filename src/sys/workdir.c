// SPDX-License-Identifier: BSD-2-Clause
/* The private directory clyde works in, and the checks made before it. */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "lib/size.h"
#include "sys/leftover_mark.h"
#include "sys/workdir.h"

uint64_t workdir_free_bytes(const char *dir)
{
	struct statvfs vfs;

	if (statvfs(dir, &vfs))
		return 0;
	/* ramfs and friends count no blocks at all: no limit we can see. */
	if (vfs.f_blocks == 0)
		return UINT64_MAX;
	return (uint64_t)vfs.f_bavail * (uint64_t)vfs.f_frsize;
}

uint64_t workdir_free_inodes(const char *dir)
{
	struct statvfs vfs;

	if (statvfs(dir, &vfs))
		return 0;
	/* btrfs, ZFS and others make inodes as needed and report none. */
	if (vfs.f_files == 0)
		return UINT64_MAX;
	return (uint64_t)vfs.f_favail;
}

int workdir_check(const char *dir, uint64_t need_bytes, char *err, size_t errlen)
{
	struct statvfs vfs;
	struct stat st;
	uint64_t avail;
	char need[32], have[32];

	if (stat(dir, &st)) {
		int e = errno;

		snprintf(err, errlen, "-d %s: %s", dir, strerror(e));
		return -e;
	}
	if (!S_ISDIR(st.st_mode)) {
		snprintf(err, errlen, "-d %s: not a directory", dir);
		return -ENOTDIR;
	}
	if (statvfs(dir, &vfs)) {
		int e = errno;

		snprintf(err, errlen, "-d %s: statvfs: %s", dir, strerror(e));
		return -e;
	}
	if (vfs.f_flag & ST_RDONLY) {
		snprintf(err, errlen, "-d %s: the filesystem is mounted read-only", dir);
		return -EROFS;
	}
	/* access() uses the real uid, which is who we are after -u. */
	if (access(dir, W_OK | X_OK)) {
		int e = errno;

		snprintf(err, errlen, "-d %s: not writable by uid %u: %s",
			 dir, (unsigned)getuid(), strerror(e));
		return e == EROFS ? -EROFS : -EACCES;
	}
	avail = vfs.f_blocks ? (uint64_t)vfs.f_bavail * (uint64_t)vfs.f_frsize : UINT64_MAX;
	if (need_bytes > avail) {
		size_human(need, sizeof(need), need_bytes);
		size_human(have, sizeof(have), avail);
		snprintf(err, errlen, "-d %s: too little free space: the run needs %s, %s is free",
			 dir, need, have);
		return -ENOSPC;
	}
	return 0;
}

int workdir_create(const char *dir, char *out, size_t outlen)
{
	return workdir_create_tagged(dir, "", out, outlen);
}

int workdir_create_tagged(const char *dir, const char *tag, char *out, size_t outlen)
{
	int n = snprintf(out, outlen, "%s/clyde.%sXXXXXX", dir, tag), ret;

	if (n < 0 || (size_t)n >= outlen)
		return -ENAMETOOLONG;
	if (!mkdtemp(out))
		return -errno;
	/* so that a later run can tell it was left behind, and --cleanup remove it */
	ret = leftover_mark(out);
	if (ret)
		rmdir(out);
	return ret;
}
