// SPDX-License-Identifier: BSD-2-Clause
/*
 * Evicting a file from the page cache on FreeBSD, DragonFly and NetBSD:
 * fsync, then posix_fadvise(POSIX_FADV_DONTNEED), then
 * msync(MS_SYNC | MS_INVALIDATE) over a shared mapping of the file, a
 * window at a time. What each step does there (read in the sources):
 *
 * - DONTNEED alone evicts nothing. FreeBSD sys/kern/vfs_default.c
 *   vop_stdadvise() moves the pages to the inactive queue
 *   (vm_object_page_noreuse()) and releases the file's buffers
 *   (bnoreuselist()), which unwires the pages they held; NetBSD
 *   sys/kern/sys_descrip.c do_posix_fadvise() cleans and deactivates
 *   (VOP_PUTPAGES with PGO_CLEANIT | PGO_DEACTIVATE); DragonFly's
 *   lib/libc/stdlib/posix_fadvise.c does nothing. It is kept for
 *   FreeBSD: it unwires what the buffer cache holds, so that the msync
 *   below can free it.
 * - msync with MS_INVALIDATE frees the clean pages of the file's VM
 *   object. FreeBSD sys/vm/vm_mmap.c kern_msync() -> sys/vm/vm_map.c
 *   vm_map_sync(invalidate) -> sys/vm/vm_object.c vm_object_sync(), which
 *   calls vm_object_page_remove(OBJPR_CLEANONLY) on a vnode object: each
 *   clean page that is not wired is vm_page_free()d; dirty ones (none,
 *   after the fsync) and wired ones (held by a buffer) stay.
 *   DragonFly sys/vm/vm_mmap.c sys_msync() -> sys/vm/vm_map.c
 *   vm_map_clean(invalidate) -> sys/vm/vm_object.c
 *   vm_object_page_remove(clean_only), the same rule, and DragonFly has
 *   no DONTNEED to unwire the buffer cache's pages first.
 *   NetBSD sys/uvm/uvm_mmap.c sys___msync13() turns MS_INVALIDATE into
 *   PGO_FREE; sys/uvm/uvm_map.c uvm_map_clean() hands it to the vnode's
 *   pager (genfs_do_putpages() in sys/miscfs/genfs/genfs_io.c), which
 *   cleans and uvm_pagefree()s every page of the range.
 * - MS_SYNC: MS_ASYNC | MS_INVALIDATE is EINVAL on FreeBSD; with MS_SYNC
 *   the pages the fsync missed are written before they are freed.
 * - Closing and reopening the file evicts nothing (the pages belong to
 *   the vnode, which stays cached); O_DIRECT reads bypass cached pages
 *   only in FreeBSD kernels built with options DIRECTIO (ffs_read() ->
 *   sys/ufs/ffs/ffs_rawread.c ffs_rawread()), and evict nothing.
 *
 * What this cannot reach: pages wired by the buffer cache (DragonFly,
 * and on FreeBSD whatever a buffer holds again), and ZFS's ARC, which
 * is not the page cache. Whether it worked is measured, not assumed.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sys/cache.h"

/* Map at most this much at a time; it fits a 32-bit address space. */
#ifndef EVICT_WINDOW
#define EVICT_WINDOW (256ULL << 20)
#endif

#ifdef HAVE_POSIX_FADVISE
static void fadvise_dontneed(int fd)
{
	/* Advice: what it does not do, the msync does. */
	(void)posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
}

int cache_advise_random(int fd)
{
	return -posix_fadvise(fd, 0, 0, POSIX_FADV_RANDOM);
}
#else
static void fadvise_dontneed(int fd)
{
	(void)fd;
}

int cache_advise_random(int fd)
{
	(void)fd;
	return -ENOSYS;
}
#endif

/* Write back and free the clean pages of [off, off + len) of fd. 0 or -errno. */
static int msync_invalidate(int fd, uint64_t off, size_t len)
{
	void *map = mmap(NULL, len, PROT_READ, MAP_SHARED, fd, (off_t)off);
	int ret;

	if (map == MAP_FAILED)
		return -errno;
	ret = msync(map, len, MS_SYNC | MS_INVALIDATE) ? -errno : 0;
	munmap(map, len);
	return ret;
}

int cache_evict_file(const char *path)
{
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	struct stat st;
	uint64_t off, size;
	int ret;

	if (fd < 0)
		return -errno;
	if (fstat(fd, &st)) {
		ret = -errno;
		goto out_close;
	}
	/* Dirty pages are never freed: write them first. */
	if (fsync(fd)) {
		ret = -errno;
		goto out_close;
	}
	fadvise_dontneed(fd);
	ret = 0;
	size = S_ISREG(st.st_mode) ? (uint64_t)st.st_size : 0;
	for (off = 0; off < size && !ret; off += EVICT_WINDOW) {
		uint64_t left = size - off;

		ret = msync_invalidate(fd, off, left < EVICT_WINDOW ? (size_t)left
								    : (size_t)EVICT_WINDOW);
	}
out_close:
	close(fd);
	return ret;
}

const char *cache_evict_method(void)
{
	return "fsync + fadvise DONTNEED + msync MS_INVALIDATE";
}

/* No drop_caches here: --cache=system is refused. */
int cache_system_available(void)
{
	return -ENOSYS;
}

int cache_drop_system(void)
{
	return -ENOSYS;
}
