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

const char *cache_mode_name(enum cache_mode m)
{
	return m == CACHE_KEEP ? "keep" : "drop";
}

const char *cache_mode_description(enum cache_mode m)
{
	if (m == CACHE_KEEP)
		return "page cache kept, as bonnie++";
	return "fsync + fadvise DONTNEED after each I/O phase";
}
