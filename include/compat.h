/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef CLYDE_COMPAT_H
#define CLYDE_COMPAT_H

#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

/* Platform differences live here, not in the middle of functions. */

#include <stdbool.h>

#ifdef O_DIRECT
static inline bool direct_io_supported(void)
{
	return true;
}
#else
#define O_DIRECT 0	/* no O_DIRECT: -D is refused in main */
static inline bool direct_io_supported(void)
{
	return false;
}
#endif

#ifndef ENODATA
#define ENODATA ENOENT
#endif

#ifdef HAVE_SYNCFS
/* Flush the filesystem that holds fd, and only that one. */
static inline int fs_sync(int fd)
{
	return syncfs(fd) ? -errno : 0;
}
#else
static inline int fs_sync(int fd)
{
	(void)fd;
	sync();
	return 0;
}
#endif

#endif
