/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef CLYDE_PATTERN_H
#define CLYDE_PATTERN_H

#include <stddef.h>
#include <stdint.h>

#include "core/modes.h"
#include "lib/rng.h"

/* --data: fill a write buffer once; zeros, random, or P percent zeros. */
void pattern_fill(char *buf, size_t len, enum data_mode mode, unsigned zero_pct, struct rng *r);

/*
 * --verify: the I/O file is made of self-describing units of
 * min(chunk, 512) bytes: a 16-byte header (magic mixed with the run's key,
 * a version, the unit's file offset) and words that are a function of
 * key, offset and version. Every write of a chunk raises its version; the
 * version a chunk should hold is kept in memory by the writer (struct
 * worker), never read back from the data, so a write that was lost, or
 * undone behind clyde's back, is a mismatch.
 */
#define VERIFY_UNIT 512u

void verify_fill(char *buf, size_t len, uint64_t off, uint64_t key, uint32_t version);
/* 0, or -1 with *bad set to the file offset of the first wrong byte. */
int verify_check(const char *buf, size_t len, uint64_t off, uint64_t key, uint32_t version,
		 uint64_t *bad);

/* Small files are never rewritten: plain words of (key, offset). */
void verify_stream_fill(char *buf, size_t len, uint64_t off, uint64_t key);
int verify_stream_check(const char *buf, size_t len, uint64_t off, uint64_t key, uint64_t *bad);

#endif
