// SPDX-License-Identifier: BSD-2-Clause
/*
 * The mount a file lies on, on Linux: statx(2)'s stx_mnt_id (5.8), which
 * every mount has of its own, a bind mount of the same file system
 * included, and STATX_ATTR_MOUNT_ROOT. AT_STATX_DONT_SYNC: the VFS fills
 * both itself, so a network or FUSE server is not asked (nor waited for).
 *
 * Where statx is missing (ENOSYS: before 4.11, or a seccomp filter that
 * answers so; EPERM: one that answers that, as no permission is needed to
 * stat an open descriptor), refuses the flags (EINVAL), or answers without
 * STATX_MNT_ID (before 5.8), the identity is not known and st_dev alone
 * tells mounts apart, as before.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>

#include "sys/mount_id.h"

/* glibc 2.28-2.31 has statx but not these two; the kernel's values */
#ifndef STATX_MNT_ID
#define STATX_MNT_ID 0x00001000U
#endif
#ifndef STATX_ATTR_MOUNT_ROOT
#define STATX_ATTR_MOUNT_ROOT 0x00002000
#endif

static int mount_id_statx(int dirfd, const char *name, int flags, struct mount_id *id)
{
	struct statx stx;

	id->id = 0;
	id->known = false;
	id->mount_root = false;
	if (statx(dirfd, name, flags | AT_STATX_DONT_SYNC, STATX_MNT_ID, &stx)) {
		if (errno == ENOSYS || errno == EINVAL || errno == EPERM)
			return 0;
		return -errno;
	}
	if (stx.stx_mask & STATX_MNT_ID) {
		id->id = stx.stx_mnt_id;
		id->known = true;
	}
	id->mount_root = (stx.stx_attributes_mask & stx.stx_attributes &
			  STATX_ATTR_MOUNT_ROOT) != 0;
	return 0;
}

int mount_id_fd(int fd, struct mount_id *id)
{
	return mount_id_statx(fd, "", AT_EMPTY_PATH, id);
}

int mount_id_at(int dirfd, const char *name, struct mount_id *id)
{
	return mount_id_statx(dirfd, name, AT_SYMLINK_NOFOLLOW | AT_NO_AUTOMOUNT, id);
}
