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

#include <sys/uio.h>

/* Uncached buffered I/O, Linux 6.14; Debian 12's headers predate it. */
#ifndef RWF_DONTCACHE
#define RWF_DONTCACHE 0x00000080
#endif

#if defined(HAVE_PREADV2) && defined(HAVE_PWRITEV2)
/* pread/pwrite with per-call RWF_* flags. */
static inline ssize_t pread_flags(int fd, void *buf, size_t len, off_t off, int flags)
{
	struct iovec iov = { .iov_base = buf, .iov_len = len };

	return flags ? preadv2(fd, &iov, 1, off, flags) : pread(fd, buf, len, off);
}

static inline ssize_t pwrite_flags(int fd, const void *buf, size_t len, off_t off, int flags)
{
	struct iovec iov = { .iov_base = (void *)buf, .iov_len = len };

	return flags ? pwritev2(fd, &iov, 1, off, flags) : pwrite(fd, buf, len, off);
}
#else
static inline ssize_t pread_flags(int fd, void *buf, size_t len, off_t off, int flags)
{
	if (flags) {
		errno = EOPNOTSUPP;
		return -1;
	}
	return pread(fd, buf, len, off);
}

static inline ssize_t pwrite_flags(int fd, const void *buf, size_t len, off_t off, int flags)
{
	if (flags) {
		errno = EOPNOTSUPP;
		return -1;
	}
	return pwrite(fd, buf, len, off);
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
