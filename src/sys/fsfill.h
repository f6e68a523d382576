/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef CLYDE_FSFILL_H
#define CLYDE_FSFILL_H

#include <stdbool.h>
#include <stdint.h>

/*
 * How full a file system is, as an ordinary user sees it: statvfs's
 * blocks less the reserved ones (ext4's root reserve is not space a
 * benchmark's user may fill). capacity = (f_blocks - f_bfree + f_bavail)
 * * f_frsize, used = (f_blocks - f_bfree) * f_frsize.
 */
struct fs_fill {
	uint64_t capacity;
	uint64_t used;
	uint64_t block;		/* f_frsize */
};

/*
 * The figures of the file system holding fd, after a sync of it when
 * sync is set (btrfs updates them at a transaction's commit). 0 or -errno
 * (-ENODATA: it reports no size).
 */
int fs_fill_read(int fd, bool sync, struct fs_fill *f);
/* The same for a path. */
int fs_fill_read_path(const char *path, bool sync, struct fs_fill *f);
/* used over capacity, percent; -1 without a capacity. */
double fs_fill_pct(const struct fs_fill *f);

#endif
