// SPDX-License-Identifier: BSD-2-Clause
/* Keeping the page cache out of the numbers. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

#include "cache.h"

#ifdef HAVE_POSIX_FADVISE
static int fadvise_dontneed(int fd)
{
	return -posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
}
#else
static int fadvise_dontneed(int fd)
{
	(void)fd;
	return -ENOSYS;
}
#endif

int cache_drop_file(const char *path)
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

const char *cache_mode_name(enum cache_mode m)
{
	switch (m) {
	case CACHE_KEEP:
		return "keep";
	case CACHE_UNCACHED:
		return "uncached";
	case CACHE_SYSTEM:
		return "system";
	default:
		return "drop";
	}
}

const char *cache_mode_description(enum cache_mode m)
{
	switch (m) {
	case CACHE_KEEP:
		return "page cache kept as bonnie++ keeps it";
	case CACHE_UNCACHED:
		return "RWF_DONTCACHE block and seek I/O; fsync + fadvise DONTNEED after each I/O phase";
	case CACHE_SYSTEM:
		return "sync + drop_caches after every phase: the whole machine's caches";
	default:
		return "fsync + fadvise DONTNEED after each I/O phase";
	}
}
