/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef CLYDE_COMPAT_H
#define CLYDE_COMPAT_H

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Platform differences live here, in the OS room, not in the middle of functions. */

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

/* An open only to look up names below (Linux, FreeBSD 14); elsewhere a plain read open. */
#ifndef O_PATH
#define O_PATH 0
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

/*
 * The sync that closes the create and delete phases. fs_sync_waits()
 * says whether fs_sync(fd) returns only once the file system's data and
 * metadata are on the device; where it does not, the phases fsync what
 * they changed instead (phase_file.c).
 */
#ifdef HAVE_SYNCFS
/*
 * Flush the filesystem that holds fd, and only that one; Linux waits for
 * it (fs/sync.c: sync_filesystem(), a pass with wait set).
 */
static inline int fs_sync(int fd)
{
	return syncfs(fd) ? -errno : 0;
}

/* True, but CLYDE_TEST_NO_SYNCFS=1 (for tests) takes the other path. */
static inline bool fs_sync_waits(void)
{
	const char *e = getenv("CLYDE_TEST_NO_SYNCFS");

	return !e || strcmp(e, "1");
}
#else
static inline int fs_sync(int fd)
{
	(void)fd;
	sync();
	return 0;
}

/*
 * sync(2) does not wait on the BSDs: it calls VFS_SYNC(mp, MNT_NOWAIT) on
 * every file system (FreeBSD sys/kern/vfs_syscalls.c kern_sync(),
 * DragonFly's sys_sync() -> sync_callback(), NetBSD's do_sys_sync()), which
 * starts the writes and returns; and none of them has syncfs.
 */
static inline bool fs_sync_waits(void)
{
	return false;
}
#endif

#include <sys/types.h>

/*
 * Set the real, effective and saved group (user) id at once, so that
 * the old one cannot be taken back. Where setresgid/setresuid are missing
 * (NetBSD), setregid/setreuid with both ids set also set the saved one
 * (POSIX: an effective id other than the real one is saved); callers
 * check the result with privs_become's own test that root cannot return.
 */
#if HAVE_DECL_SETRESUID && HAVE_DECL_SETRESGID
static inline int set_all_gids(gid_t gid)
{
	return setresgid(gid, gid, gid);
}

static inline int set_all_uids(uid_t uid)
{
	return setresuid(uid, uid, uid);
}
#else
static inline int set_all_gids(gid_t gid)
{
	return setregid(gid, gid);
}

static inline int set_all_uids(uid_t uid)
{
	return setreuid(uid, uid);
}
#endif

#endif
