// SPDX-License-Identifier: BSD-2-Clause
/*
 * How full a file system is (sys/fsfill.h): statvfs is POSIX, so one file
 * serves every system; the sync is compat.h's fs_sync (syncfs on Linux,
 * sync elsewhere).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "sys/compat.h"
#include "sys/fsfill.h"

int fs_fill_read(int fd, bool sync, struct fs_fill *f)
{
	struct statvfs sv;

	memset(f, 0, sizeof(*f));
	if (sync)
		fs_sync(fd);
	if (fstatvfs(fd, &sv))
		return -errno;
	if (!sv.f_blocks || sv.f_bfree > sv.f_blocks)
		return -ENODATA;
	f->block = sv.f_frsize ? sv.f_frsize : sv.f_bsize;
	f->capacity = ((uint64_t)sv.f_blocks - sv.f_bfree + sv.f_bavail) * f->block;
	f->used = ((uint64_t)sv.f_blocks - sv.f_bfree) * f->block;
	return 0;
}

int fs_fill_read_path(const char *path, bool sync, struct fs_fill *f)
{
	int fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	int ret;

	if (fd < 0) {
		memset(f, 0, sizeof(*f));
		return -errno;
	}
	ret = fs_fill_read(fd, sync, f);
	close(fd);
	return ret;
}

double fs_fill_pct(const struct fs_fill *f)
{
	return f->capacity ? 100.0 * (double)f->used / (double)f->capacity : -1;
}
