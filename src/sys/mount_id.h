/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef CLYDE_MOUNT_ID_H
#define CLYDE_MOUNT_ID_H

#include <stdbool.h>
#include <stdint.h>

/*
 * Which mount a file lies on, beyond its st_dev: a bind mount of the same
 * file system keeps st_dev, so the remover (workdir_remove.c) also asks
 * the system for the mount itself where it can tell (mount_id_linux.c,
 * mount_id_bsd.c). Where it cannot (known false), st_dev alone tells
 * mounts apart.
 */
struct mount_id {
	uint64_t id;		/* Linux: statx's stx_mnt_id; DragonFly: fstatfs's f_fsid */
	bool known;		/* id was given: compare it */
	bool mount_root;	/* the file is the root of a mount (Linux: STATX_ATTR_MOUNT_ROOT) */
};

/* The mount of the file open at fd; 0 or -errno. */
int mount_id_fd(int fd, struct mount_id *id);

/*
 * The mount of the entry name in dirfd, never following it (Linux can
 * bind-mount a file: the walk asks this of every entry it would unlink).
 * 0 or -errno.
 */
int mount_id_at(int dirfd, const char *name, struct mount_id *id);

/* True when entry lies on another mount than root (st_dev is the caller's to compare). */
static inline bool mount_id_other(const struct mount_id *root, const struct mount_id *entry)
{
	if (entry->mount_root)
		return true;
	return root->known && entry->known && root->id != entry->id;
}

#endif
