/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef CLYDE_PROGRESS_H
#define CLYDE_PROGRESS_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

/*
 * The live progress line on a terminal: what phase, how far, the current
 * rate. Phases count their operations with progress_tick(); when stderr
 * is not a terminal, or with -q, that is one predictable branch.
 */
extern bool progress_live;
extern atomic_uint_fast64_t progress_ops;

static inline void progress_tick(void)
{
	if (progress_live)
		atomic_fetch_add_explicit(&progress_ops, 1, memory_order_relaxed);
}

/* Start showing label; total operations of unit_bytes each (0: a count). */
int progress_begin(const char *label, uint64_t total, uint64_t unit_bytes);
/* Stop the line and end it with result ("done", "failed"). */
void progress_end(const char *result);

#endif
