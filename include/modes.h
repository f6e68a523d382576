/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef CLYDE_MODES_H
#define CLYDE_MODES_H

/*
 * The modes the options choose, apart from struct clyde_options so that
 * the parts that act on one (cache.h, pattern.h) need not include the
 * options.
 */

enum cache_mode {
	CACHE_DROP,	/* fsync + posix_fadvise(DONTNEED) after each I/O phase */
	CACHE_KEEP,	/* as bonnie++: the page cache is left alone */
	CACHE_UNCACHED,	/* RWF_DONTCACHE on block and seek I/O, and drop */
	CACHE_SYSTEM,	/* sync + /proc/sys/vm/drop_caches after each phase */
};

enum perchar_mode {
	PERCHAR_SYSCALL,	/* bonnie++ 2.00: one read/write per byte */
	PERCHAR_STDIO,		/* bonnie++ 1.03: putc/getc through stdio */
};

enum sync_mode {
	SYNC_NONE,
	SYNC_SEMAPHORE,		/* -y s */
	SYNC_PROMPT,		/* -y p */
};

enum data_mode {
	DATA_ZERO,		/* bonnie++: zeros, one byte changed per chunk */
	DATA_RANDOM,		/* incompressible */
	DATA_COMPRESSIBLE,	/* data_zero_pct percent zeros, the rest random */
};

#endif
