// SPDX-License-Identifier: BSD-2-Clause
/*
 * clyde-zcav on the BSDs: the identity says only what stat(2) does (no
 * sysfs; its JSON fields are null), and whether a disk is mounted,
 * swap or held is not asked here, so zcav_guard refuses every -w, on a
 * device or a regular file alike (a disk is a character device there).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "zcav/zcav.h"

void zcav_identity_read(struct zcav_identity *id, const struct stat *st)
{
	memset(id, 0, sizeof(*id));
	id->rotational = -1;
	snprintf(id->kind, sizeof(id->kind), "%s", S_ISBLK(st->st_mode) ? "block device" :
		 S_ISREG(st->st_mode) ? "regular file" : S_ISCHR(st->st_mode) ? "character device" :
		 "other");
	snprintf(id->of, sizeof(id->of), "%s", S_ISREG(st->st_mode) ? "file system" : "device");
}

int zcav_dev_mounted(const struct stat *st, char *what, size_t whatlen)
{
	(void)st;
	(void)what;
	(void)whatlen;
	return -ENOTSUP;
}

int zcav_dev_swap(const struct stat *st, char *what, size_t whatlen)
{
	(void)st;
	(void)what;
	(void)whatlen;
	return -ENOTSUP;
}

int zcav_dev_holders(const struct stat *st, char *what, size_t whatlen)
{
	(void)st;
	(void)what;
	(void)whatlen;
	return -ENOTSUP;
}

bool zcav_dev_checks_known(void)
{
	return false;
}

const char *zcav_dev_stdin_path(void)
{
	return "/dev/fd/0";
}

/* -w is refused here before any open (zcav_dev_checks_known): a plain open serves the rest. */
int zcav_dev_open_block(const char *path, int flags)
{
	int fd = open(path, flags);

	return fd < 0 ? -errno : fd;
}
