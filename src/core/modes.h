/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef CLYDE_MODES_H
#define CLYDE_MODES_H

/*
 * The modes the options choose, apart from struct clyde_options so that
 * the parts that act on one (pattern.h) need not include the options; the
 * cache's mode is the cache's own (sys/cache.h).
 */

#include "sys/cache.h"

enum perchar_mode {
	PERCHAR_SYSCALL,	/* bonnie++ 2.00: one read/write per byte */
	PERCHAR_STDIO,		/* bonnie++ 1.03: putc/getc through stdio */
};

enum sync_mode {
	SYNC_NONE,
	SYNC_SEMAPHORE,		/* -y s */
	SYNC_PROMPT,		/* -y p */
};

/* --live: the status of the running phase on stderr. */
enum live_mode {
	LIVE_OFF,
	LIVE_TEXT,		/* --live: a line redrawn on a terminal, else one per interval */
	LIVE_CSV,		/* --live=csv: a CSV line per interval */
};

enum data_mode {
	DATA_ZERO,		/* bonnie++: zeros, one byte changed per chunk */
	DATA_RANDOM,		/* incompressible */
	DATA_COMPRESSIBLE,	/* data_zero_pct percent zeros, the rest random */
};

#endif
