/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef CLYDE_CACHESTAT_H
#define CLYDE_CACHESTAT_H

/*
 * cachestat(2), Linux 6.5. glibc has no wrapper, and older kernel headers
 * (Debian 12's) lack both the structures and the syscall number.
 */
#include <linux/types.h>
#include <linux/mman.h>
#include <sys/syscall.h>

#ifndef HAVE_STRUCT_CACHESTAT_RANGE
struct cachestat_range {
	__u64 off;
	__u64 len;		/* 0: to the end of the file */
};

struct cachestat {
	__u64 nr_cache;		/* pages */
	__u64 nr_dirty;
	__u64 nr_writeback;
	__u64 nr_evicted;
	__u64 nr_recently_evicted;
};
#endif

/*
 * 451 in the common syscall table; alpha (561) and the MIPS ABIs (4451,
 * 5451, 6451) number it differently, so there an old header means "no
 * cachestat": syscall(-1) fails with ENOSYS.
 */
#if defined(__NR_cachestat)
#define CLYDE_NR_CACHESTAT __NR_cachestat
#elif defined(__alpha__) || defined(__mips__)
#define CLYDE_NR_CACHESTAT (-1)
#else
#define CLYDE_NR_CACHESTAT 451
#endif

#endif
