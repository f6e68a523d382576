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
#include "sys/dirty.h"
#include "sys/leftover_mark.h"
#include "sys/workdir.h"

/*
 * What a run may fill on the file system vfs describes. One that reports
 * no size (f_blocks 0: ramfs, tmpfs size=0) holds what memory holds, and
 * writing on until it is "full" would take the machine's memory: then the
 * memory it may still fill (sys_memory_available), or 0 where the system
 * cannot tell; note says which ("" for an ordinary file system).
 */
static uint64_t space_of(const struct statvfs *vfs, char *note, size_t len)
{
	char source[64], have[32];
	uint64_t bytes;

	note[0] = '\0';
	if (vfs->f_blocks)
		return (uint64_t)vfs->f_bavail * (uint64_t)vfs->f_frsize;
	if (sys_memory_available(&bytes, source, sizeof(source))) {
		snprintf(note, len, "the file system reports no size, and this system does not "
			 "say how much memory it may fill");
		return 0;
	}
	size_human(have, sizeof(have), bytes);
	snprintf(note, len, "the file system reports no size: its free space taken as the "
		 "memory it may fill: %s (%s)", have, source);
	return bytes;
}

uint64_t workdir_free_bytes(const char *dir, char *note, size_t len)
{
	struct statvfs vfs;

	note[0] = '\0';
	if (statvfs(dir, &vfs))
		return 0;
	return space_of(&vfs, note, len);
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
	char need[32], have[32], note[192];

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
	avail = space_of(&vfs, note, sizeof(note));
	if (need_bytes > avail) {
		size_human(need, sizeof(need), need_bytes);
		size_human(have, sizeof(have), avail);
		snprintf(err, errlen, "-d %s: too little free space: the run needs %s, %s is "
			 "free%s%s%s", dir, need, have, note[0] ? " (" : "", note, note[0] ? ")" : "");
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
