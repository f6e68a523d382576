/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The BSDs: a file's extents, one logical block at a time, where the kernel
 * maps blocks for userland and the filesystem answers with device blocks.
 *
 * FreeBSD: FIOBMAP2 (sys/sys/filio.h: "struct fiobmap2_arg { __daddr_t bn;
 * int runp; int runb; }", "Get the file's bmap info for the logical block
 * bn"). sys/kern/vfs_vnops.c, vn_ioctl(), case FIOBMAP2: VOP_BMAP(vp,
 * bmarg->bn, NULL, &bmarg->bn, &bmarg->runp, &bmarg->runb) on a regular
 * file. bn goes in as a logical block of the filesystem's block size
 * (f_iosize) and comes back in DEV_BSIZE (512-byte) device blocks, -1 for
 * a hole; runp is how many blocks after it follow contiguously (UFS:
 * ufs_bmaparray, capped by the mount's largest I/O). Honest only where the
 * filesystem's VOP_BMAP maps to the device: UFS and ext2fs. ZFS's
 * (zfs_freebsd_bmap) answers the logical block itself, and vop_stdbmap
 * the same scaled: there it is "not measured".
 *
 * NetBSD: FIOGETBMAP (sys/sys/filio.h: "#define FIOGETBMAP _IOWR('f', 122,
 * daddr_t) get underlying block no.", FIBMAP its alias). sys/kern/
 * vfs_vnops.c, vn_ioctl(), case FIOGETBMAP: VOP_BMAP(vp, *block, NULL,
 * block, NULL): one block a call, no run, the same units. Honest on FFS
 * and ext2fs.
 *
 * DragonFly: sys/sys/filio.h has no such ioctl (VOP_BMAP exists in the
 * kernel, sys/vfsops.h, but nothing hands it to userland): not measured.
 *
 * Free space: none of the three tells it for a mounted filesystem (UFS's
 * cylinder group maps are read from the raw device by dumpfs, not through
 * the mount): not measured.
 */
#include "config.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/types.h>
#include <sys/param.h>
#include <sys/ioctl.h>
#include <sys/filio.h>
#include <sys/mount.h>
#include <sys/stat.h>
#ifdef HAVE_SYS_STATVFS_H
#include <sys/statvfs.h>
#endif

#include "sys/extents.h"

#ifndef DEV_BSIZE
#define DEV_BSIZE 512
#endif

/* A file this many blocks long is mapped no further: a BSD has no batch call. */
#define BMAP_BLOCKS_MAX (16u << 20)

/* The filesystems whose VOP_BMAP answers device blocks. */
static bool bmap_honest(const char *type)
{
	return !strcmp(type, "ufs") || !strcmp(type, "ffs") || !strcmp(type, "ext2fs");
}

/*
 * One block's mapping from logical block lbn: its device byte (-1: a hole)
 * and how many blocks after it continue it; 0 or -errno.
 */
static int bmap_block(int fd, int64_t lbn, uint64_t bsize, int64_t *physical, uint64_t *run);

#if defined(FIOBMAP2)
#define BMAP_METHOD "FIOBMAP2"

static int fs_block(int fd, char *type, size_t type_len, uint64_t *bsize)
{
	struct statfs sfs;

	if (fstatfs(fd, &sfs))
		return -errno;
	snprintf(type, type_len, "%s", sfs.f_fstypename);
	*bsize = sfs.f_iosize;
	return 0;
}

static int bmap_block(int fd, int64_t lbn, uint64_t bsize, int64_t *physical, uint64_t *run)
{
	struct fiobmap2_arg arg = { .bn = lbn };

	(void)bsize;
	if (ioctl(fd, FIOBMAP2, &arg))
		return -errno;
	*physical = arg.bn < 0 ? -1 : (int64_t)arg.bn * DEV_BSIZE;
	*run = arg.runp > 0 ? (uint64_t)arg.runp : 0;
	return 0;
}
#elif defined(FIOGETBMAP)
#define BMAP_METHOD "FIOGETBMAP"

static int fs_block(int fd, char *type, size_t type_len, uint64_t *bsize)
{
	struct statvfs svfs;

	if (fstatvfs(fd, &svfs))
		return -errno;
	snprintf(type, type_len, "%s", svfs.f_fstypename);
	*bsize = svfs.f_iosize;
	return 0;
}

static int bmap_block(int fd, int64_t lbn, uint64_t bsize, int64_t *physical, uint64_t *run)
{
	daddr_t bn = (daddr_t)lbn;

	(void)bsize;
	if (ioctl(fd, FIOGETBMAP, &bn))
		return -errno;
	*physical = bn < 0 ? -1 : (int64_t)bn * DEV_BSIZE;
	*run = 0;
	return 0;
}
#else
#define BMAP_METHOD ""

static int fs_block(int fd, char *type, size_t type_len, uint64_t *bsize)
{
	(void)fd;
	snprintf(type, type_len, "?");
	*bsize = 0;
	return -EOPNOTSUPP;
}

static int bmap_block(int fd, int64_t lbn, uint64_t bsize, int64_t *physical, uint64_t *run)
{
	(void)fd;
	(void)lbn;
	(void)bsize;
	*physical = -1;
	*run = 0;
	return -EOPNOTSUPP;
}
#endif

int extents_os_walk(int fd, struct extent_file *x, char *method, size_t method_len, char *why,
		    size_t why_len)
{
	char type[64];
	uint64_t bsize, blocks;
	struct stat st;
	int ret;

	snprintf(method, method_len, "%s", BMAP_METHOD);
	ret = fs_block(fd, type, sizeof(type), &bsize);
	if (ret == -EOPNOTSUPP) {
		snprintf(why, why_len, "this BSD has no ioctl that maps a file's blocks");
		return ret;
	}
	if (ret)
		return ret;
	if (!bmap_honest(type)) {
		snprintf(why, why_len, "%s's block map is not the device's (%s)", type,
			 BMAP_METHOD);
		return -EOPNOTSUPP;
	}
	if (fstat(fd, &st))
		return -errno;
	if (!bsize)
		return -EINVAL;
	blocks = ((uint64_t)st.st_size + bsize - 1) / bsize;
	if (blocks > BMAP_BLOCKS_MAX) {
		snprintf(why, why_len,
			 "the file has more than %u blocks: not mapped block by block",
			 BMAP_BLOCKS_MAX);
		return -EOPNOTSUPP;
	}
	for (uint64_t lbn = 0; lbn < blocks;) {
		struct extent_piece p = { .logical = lbn * bsize };
		int64_t physical;
		uint64_t run;

		ret = bmap_block(fd, (int64_t)lbn, bsize, &physical, &run);
		if (ret)
			return ret;
		if (run > blocks - lbn - 1)
			run = blocks - lbn - 1;
		if (physical >= 0) {
			p.physical = (uint64_t)physical;
			p.length = (run + 1) * bsize;
			/* the last block may be a fragment: the file ends there */
			if (p.logical + p.length > (uint64_t)st.st_size)
				p.length = (uint64_t)st.st_size - p.logical;
			extent_file_piece(x, &p);
		}
		lbn += run + 1;
	}
	return 0;
}

int free_space_os_walk(int dirfd, struct free_space_walk *w, char *method, size_t method_len,
		       char *why, size_t why_len)
{
	(void)dirfd;
	(void)w;
	snprintf(method, method_len, "none");
	snprintf(why, why_len, "the BSDs tell no free-space map of a mounted filesystem");
	return -EOPNOTSUPP;
}
