/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef CLYDE_CACHE_H
#define CLYDE_CACHE_H

/* --cache: what happens to the page cache between phases */
enum cache_mode {
	CACHE_DROP,	/* fsync + posix_fadvise(DONTNEED) after each I/O phase */
	CACHE_KEEP,	/* as bonnie++: the page cache is left alone */
	CACHE_UNCACHED,	/* RWF_DONTCACHE on block and seek I/O, and drop */
	CACHE_SYSTEM,	/* sync + /proc/sys/vm/drop_caches after each phase */
};

/*
 * OS part: cache_linux.c or cache_bsd.c, one per family, each naming in
 * its comment the kernel functions it relies on.
 *
 * cache_evict_file: push path's data to the device and evict its pages
 * from the page cache with the strongest method this system has, so the
 * next phase reads from the device. 0 or -errno. Whether it worked is
 * measured separately (residency.h), never assumed.
 */
int cache_evict_file(const char *path);

/*
 * cache_advise_random: tell the kernel fd is read at random, so a read
 * brings in only what it asks for (Linux: POSIX_FADV_RANDOM turns the
 * file's read-ahead off); advice, where the system takes it. 0 or -errno.
 */
int cache_advise_random(int fd);

/*
 * What cache_evict_file does here, in a few words for the run's label:
 * "fsync + fadvise DONTNEED" on Linux.
 */
const char *cache_evict_method(void);

/*
 * --cache=system: sync, then drop page cache, dentries and inodes for the
 * whole machine through /proc/sys/vm/drop_caches. 0 or -errno; -ENOSYS
 * where the system has no such control.
 */
int cache_drop_system(void);

/* Can this process use --cache=system? 0 or -errno. */
int cache_system_available(void);

const char *cache_mode_name(enum cache_mode m);
const char *cache_mode_description(enum cache_mode m);

#endif
