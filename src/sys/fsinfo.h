/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef CLYDE_FSINFO_H
#define CLYDE_FSINFO_H

#include <stdbool.h>
#include <stddef.h>

/*
 * Room for every BSD's names (FreeBSD's MNAMELEN and NetBSD's
 * _VFS_MNAMELEN are 1024 with the NUL, DragonFly's MNAMELEN 80) and for
 * Linux paths of up to 1024 bytes.
 */
#define FSINFO_TYPE_LEN	64
#define FSINFO_PATH_LEN	1025
#define FSINFO_OPTS_LEN	1025

/* The filesystem a directory lives on, for the report. */
struct fsinfo {
	char type[FSINFO_TYPE_LEN];		/* "ext4", "tmpfs", "ufs", "zfs" */
	char source[FSINFO_PATH_LEN];		/* "/dev/vda1", "tank/home" */
	char mountpoint[FSINFO_PATH_LEN];
	char options[FSINFO_OPTS_LEN];		/* the mount's: "rw,relatime" */
	/*
	 * The filesystem's own (Linux: mountinfo's super options, where
	 * ext4's data=journal and btrfs's compress=zstd:3 are); "" where the
	 * OS reports none apart from the mount's (the BSDs).
	 */
	char super_options[FSINFO_OPTS_LEN];	/* "rw,data=journal" */
	bool cut;	/* a field did not fit: it ends in "..." */
};

/* 0 or -errno; platform code lives in fsinfo_linux.c / fsinfo_bsd.c. */
int fsinfo_get(const char *dir, struct fsinfo *fs);

#endif
