/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef CLYDE_CACHE_H
#define CLYDE_CACHE_H

#include "options.h"

/*
 * Push path's data to the device and out of the page cache (fsync, then
 * posix_fadvise DONTNEED) so the next phase reads from the device.
 * Returns 0 or -errno; -ENOSYS where the platform has no posix_fadvise.
 */
int cache_drop_file(const char *path);

/*
 * --cache=system: sync, then drop page cache, dentries and inodes for the
 * whole machine through /proc/sys/vm/drop_caches. 0 or -errno.
 */
int cache_drop_system(void);

/* Can this process use --cache=system? 0 or -errno. */
int cache_system_available(void);

const char *cache_mode_name(enum cache_mode m);
const char *cache_mode_description(enum cache_mode m);

#endif
