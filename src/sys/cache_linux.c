// SPDX-License-Identifier: BSD-2-Clause
/*
 * Evicting a file from the page cache on Linux: fsync, then
 * posix_fadvise(POSIX_FADV_DONTNEED), which drops the clean pages of the
 * range (mm/fadvise.c generic_fadvise(): invalidate_mapping_pages(),
 * mapping_try_invalidate() in newer kernels). The fsync comes first
 * because dirty pages cannot be dropped. --cache=system
 * writes /proc/sys/vm/drop_caches.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

#include "sys/cache.h"

#ifdef HAVE_POSIX_FADVISE
static int fadvise_dontneed(int fd)
{
	return -posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
}

int cache_advise_random(int fd)
{
	return -posix_fadvise(fd, 0, 0, POSIX_FADV_RANDOM);
}
#else
static int fadvise_dontneed(int fd)
{
	(void)fd;
	return -ENOSYS;
}

int cache_advise_random(int fd)
{
	(void)fd;
	return -ENOSYS;
}
#endif

int cache_evict_file(const char *path)
{
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	int ret;

	if (fd < 0)
		return -errno;
	/* Dirty pages cannot be dropped: write them first. */
	ret = fsync(fd) ? -errno : 0;
	if (!ret)
		ret = fadvise_dontneed(fd);
	close(fd);
	return ret;
}

const char *cache_evict_method(void)
{
	return "fsync + fadvise DONTNEED";
}

#define DROP_CACHES "/proc/sys/vm/drop_caches"

int cache_system_available(void)
{
	return access(DROP_CACHES, W_OK) ? -errno : 0;
}

int cache_drop_system(void)
{
	int fd, ret = 0;

	sync();
	fd = open(DROP_CACHES, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	/* 3: the page cache, and the dentries and inodes fadvise leaves. */
	if (write(fd, "3\n", 2) != 2)
		ret = -errno;
	close(fd);
	return ret;
}
