// SPDX-License-Identifier: BSD-2-Clause
/*
 * The mount a file lies on, on the BSDs. Their bind mount is the null
 * layer (mount_nullfs), and what it shows was read in each kernel's source:
 *
 * - FreeBSD: nullfs_mount() (sys/fs/nullfs/null_vfsops.c) gives the layer
 *   an fsid of its own (vfs_getnewfsid()), and null_getattr() and
 *   null_stat() (sys/fs/nullfs/null_vnops.c) put it in st_dev: st_dev
 *   already changes at a null mount.
 * - NetBSD: nullfs_mount() (sys/miscfs/nullfs/null_vfsops.c) calls
 *   vfs_getnewfsid() too, and the layer's getattr, layer_getattr()
 *   (sys/miscfs/genfs/layer_vnops.c, null_vnodeop_entries in
 *   sys/miscfs/nullfs/null_vnops.c), puts it in va_fsid: st_dev changes.
 * - DragonFly: the null layer has no vnodes of its own, only namecache
 *   operations (null_vnode_vops in sys/vfs/nullfs/null_vnops.c has no
 *   getattr), so stat() answers from the lower file system's vnode and
 *   st_dev does not change. The mount has an fsid of its own
 *   (nullfs_mount() in sys/vfs/nullfs/null_vfsops.c: vfs_setfsid() or
 *   vfs_getnewfsid()), which fstatfs() gives for a descriptor opened
 *   through the layer (kern_fstatfs() in sys/kern/vfs_syscalls.c takes the
 *   mount from the file's namecache handle, and nullfs_statfs() copies the
 *   layer's own fsid) - but only to root: for anyone else kern_fstatfs()
 *   zeroes f_fsid, and then st_dev alone is compared, as on the others.
 *
 * On all three a mount covers only a directory (ENOTDIR otherwise:
 * FreeBSD vfs_domount_first() and NetBSD mount_domount(), both in
 * sys/kern/vfs_mount.c; DragonFly sys_mount() in sys/kern/vfs_syscalls.c),
 * so an entry that is not a directory is never a mount point:
 * mount_id_at() knows nothing more than st_dev.
 */
#include "config.h"

#include <errno.h>
#include <sys/types.h>
#include <sys/param.h>
#include <sys/mount.h>

#include "sys/mount_id.h"

static void mount_id_unknown(struct mount_id *id)
{
	id->id = 0;
	id->known = false;
	id->mount_root = false;
}

#if defined(__DragonFly__)
int mount_id_fd(int fd, struct mount_id *id)
{
	struct statfs sfs;

	mount_id_unknown(id);
	if (fstatfs(fd, &sfs))
		return -errno;
	id->id = (uint64_t)(uint32_t)sfs.f_fsid.val[0] << 32 | (uint32_t)sfs.f_fsid.val[1];
	id->known = true;
	return 0;
}
#else
int mount_id_fd(int fd, struct mount_id *id)
{
	(void)fd;
	mount_id_unknown(id);
	return 0;
}
#endif

int mount_id_at(int dirfd, const char *name, struct mount_id *id)
{
	(void)dirfd;
	(void)name;
	mount_id_unknown(id);
	return 0;
}
