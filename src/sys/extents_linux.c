/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Linux: a file's extents by FIEMAP, the free space by GETFSMAP.
 *
 * FIEMAP (include/uapi/linux/fiemap.h, Documentation/filesystems/fiemap.rst):
 * the caller gives a logical range and room for fm_extent_count extents; the
 * kernel fills fm_mapped_extents of them in logical order, the last one of
 * the file flagged FIEMAP_EXTENT_LAST, so a long file is read in batches,
 * each starting where the previous batch's last extent ended.
 * FIEMAP_FLAG_SYNC writes the file's dirty pages first, so delayed
 * allocation has placed them. tmpfs, procfs and FUSE have no fiemap:
 * EOPNOTSUPP (ioctl_fiemap() without ->fiemap) or ENOTTY.
 *
 * GETFSMAP (include/uapi/linux/fsmap.h; ext4 since 4.12, XFS with rmapbt or
 * without): a query is two keys, the lowest and highest mapping wanted,
 * and the kernel returns the records between them in physical order,
 * FMR_OF_LAST on the last; the next query starts from the last record
 * returned (fsmap_advance). Free space is fmr_owner == FMR_OWN_FREE, in
 * bytes. btrfs has no GETFSMAP (ENOTTY): its free space is not measured.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/vfs.h>
#include <linux/fiemap.h>
#include <linux/fs.h>
#include <linux/fsmap.h>

#include "sys/extents.h"

/* Extents asked for per FIEMAP call; a fragmented 1 GiB file takes a few calls. */
#define FIEMAP_BATCH 512
/* Records per GETFSMAP call. */
#define FSMAP_BATCH 1024

#define BTRFS_MAGIC	0x9123683EU
#define TMPFS_MAGIC	0x01021994U

/* The filesystem's name for a reason, by its magic; "this filesystem" when unknown. */
static const char *fs_name(int fd)
{
	struct statfs sfs;

	if (fstatfs(fd, &sfs))
		return "this filesystem";
	switch ((unsigned)sfs.f_type) {
	case BTRFS_MAGIC:
		return "btrfs";
	case TMPFS_MAGIC:
		return "tmpfs";
	case 0xEF53U:
		return "ext4";
	case 0x58465342U:
		return "xfs";
	case 0x65735546U:
		return "fuse";
	case 0x2fc12fc1U:
		return "zfs";
	case 0x6969U:
		return "nfs";
	default:
		return "this filesystem";
	}
}

/* What a filesystem without the ioctl answers (ioctl_fiemap() without ->fiemap, FUSE, ...). */
static bool no_ioctl(int ret)
{
	return ret == -EOPNOTSUPP || ret == -ENOTTY || ret == -ENOSYS || ret == -EINVAL;
}

static unsigned piece_flags(uint32_t fe)
{
	unsigned flags = 0;

	if (fe & FIEMAP_EXTENT_UNWRITTEN)
		flags |= EXTENT_UNWRITTEN;
	if (fe & (FIEMAP_EXTENT_UNKNOWN | FIEMAP_EXTENT_DELALLOC))
		flags |= EXTENT_UNKNOWN;
	if (fe & (FIEMAP_EXTENT_DATA_INLINE | FIEMAP_EXTENT_DATA_TAIL | FIEMAP_EXTENT_NOT_ALIGNED))
		flags |= EXTENT_INLINE;
	if (fe & (FIEMAP_EXTENT_ENCODED | FIEMAP_EXTENT_DATA_ENCRYPTED))
		flags |= EXTENT_ENCODED;
	if (fe & FIEMAP_EXTENT_SHARED)
		flags |= EXTENT_SHARED;
	return flags;
}

/* What the flagged pieces mean for a read, said once. */
static void flag_caveat(const struct extent_figures *f, char *why, size_t len)
{
	if (f->unknown)
		snprintf(why, len, "%llu extents without a place (delayed allocation)",
			 (unsigned long long)f->unknown);
	else if (f->encoded)
		snprintf(why, len, "%llu extents encoded (compressed or encrypted): their "
			 "device bytes differ from their length", (unsigned long long)f->encoded);
	else if (f->unwritten)
		snprintf(why, len, "%llu extents unwritten (preallocated): reading them costs "
			 "no I/O", (unsigned long long)f->unwritten);
	else if (f->inline_data)
		snprintf(why, len, "%llu extents inline with the metadata",
			 (unsigned long long)f->inline_data);
	else if (f->shared)
		snprintf(why, len, "%llu extents shared with other files",
			 (unsigned long long)f->shared);
}

int extents_os_walk(int fd, struct extent_file *x, char *method, size_t method_len, char *why,
		    size_t why_len)
{
	size_t size = sizeof(struct fiemap) + FIEMAP_BATCH * sizeof(struct fiemap_extent);
	struct fiemap *fm = calloc(1, size);
	uint64_t start = 0;
	bool last = false;
	int ret = 0;

	snprintf(method, method_len, "FIEMAP");
	if (!fm)
		return -ENOMEM;
	while (!last) {
		memset(fm, 0, size);
		fm->fm_start = start;
		fm->fm_length = FIEMAP_MAX_OFFSET - start;
		fm->fm_flags = FIEMAP_FLAG_SYNC;
		fm->fm_extent_count = FIEMAP_BATCH;
		if (ioctl(fd, FS_IOC_FIEMAP, fm)) {
			ret = -errno;
			if (no_ioctl(ret)) {
				snprintf(why, why_len, "%s has no FIEMAP (%s)", fs_name(fd),
					 strerror(-ret));
				ret = -EOPNOTSUPP;
			}
			goto free_map;
		}
		if (!fm->fm_mapped_extents)
			break;
		for (unsigned i = 0; i < fm->fm_mapped_extents; i++) {
			const struct fiemap_extent *e = &fm->fm_extents[i];
			struct extent_piece p = {
				.logical = e->fe_logical,
				.physical = e->fe_physical,
				.length = e->fe_length,
				.flags = piece_flags(e->fe_flags),
			};

			extent_file_piece(x, &p);
			start = e->fe_logical + e->fe_length;
			if (e->fe_flags & FIEMAP_EXTENT_LAST)
				last = true;
		}
	}
	flag_caveat(x->f, why, why_len);
free_map:
	free(fm);
	return ret;
}

int free_space_os_walk(int dirfd, struct free_space_walk *w, char *method, size_t method_len,
		       char *why, size_t why_len)
{
	struct fsmap_head *head = calloc(1, fsmap_sizeof(FSMAP_BATCH));
	int ret = 0;

	snprintf(method, method_len, "GETFSMAP");
	if (!head)
		return -ENOMEM;
	/* from the lowest key (all zero) to the highest (all ones) */
	head->fmh_keys[1].fmr_device = UINT32_MAX;
	head->fmh_keys[1].fmr_flags = UINT32_MAX;
	head->fmh_keys[1].fmr_physical = UINT64_MAX;
	head->fmh_keys[1].fmr_owner = UINT64_MAX;
	head->fmh_keys[1].fmr_offset = UINT64_MAX;
	for (;;) {
		head->fmh_count = FSMAP_BATCH;
		head->fmh_entries = 0;
		if (ioctl(dirfd, FS_IOC_GETFSMAP, head)) {
			ret = -errno;
			if (no_ioctl(ret)) {
				snprintf(why, why_len, "%s has no GETFSMAP", fs_name(dirfd));
				ret = -EOPNOTSUPP;
			}
			goto free_head;
		}
		if (!head->fmh_entries)
			break;
		for (unsigned i = 0; i < head->fmh_entries; i++) {
			const struct fsmap *r = &head->fmh_recs[i];

			if (r->fmr_owner == FMR_OWN_FREE)
				free_space_record(w, r->fmr_physical, r->fmr_length);
		}
		if (head->fmh_recs[head->fmh_entries - 1].fmr_flags & FMR_OF_LAST)
			break;
		fsmap_advance(head);
	}
free_head:
	free(head);
	return ret;
}
