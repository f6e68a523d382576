/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef CLYDE_FSINFO_H
#define CLYDE_FSINFO_H

#include <stddef.h>

/* The filesystem a directory lives on, for the report. */
struct fsinfo {
	char type[32];		/* "ext4", "tmpfs", "ufs", "zfs" */
	char source[256];	/* "/dev/vda1", "tank/home" */
	char mountpoint[512];
	char options[512];	/* "rw,relatime" */
};

/* 0 or -errno; platform code lives in fsinfo_linux.c / fsinfo_bsd.c. */
int fsinfo_get(const char *dir, struct fsinfo *fs);

#endif
