/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef CLYDE_PIPELINE_H
#define CLYDE_PIPELINE_H

#include <stdbool.h>

#include "engines/engine.h"
#include "phases/bench.h"

/*
 * Up to depth chunk-sized requests in flight on one file through one
 * engine instance. The block and seek phases describe their work as a
 * fill callback (prepare the next request, false when there is none) and
 * a complete callback (0: the slot is free again, 1: submit it again,
 * as rewrite does after its read, or -errno).
 */
struct pipeline {
	struct engine eng;
	int fd;
	unsigned depth;
	unsigned inflight;
	unsigned nfree;
	unsigned nbatch;
	size_t len;
	char *bufs;		/* one chunk per slot: reads, rewrite, seeks */
	char *pool;		/* block write's source: distinct chunks for --data */
	size_t pool_len;
	struct io_req *reqs;
	struct io_req **free;
	struct io_req **batch;
	struct io_req **done;
};

typedef bool (*pipeline_fill_fn)(void *ctx, struct io_req *r);
typedef int (*pipeline_complete_fn)(void *ctx, struct io_req *r);

/*
 * Buffers and the engine instance, before any clock starts. with_pool:
 * block write's source of distinct data (see pipeline_use_pool).
 */
int pipeline_init(struct pipeline *p, const struct bench *b, size_t len, bool with_pool);
/* The same at a depth of the caller's (--latency-target's search over io_uring depth). */
int pipeline_init_depth(struct pipeline *p, const struct bench *b, size_t len, bool with_pool,
			unsigned depth);
/* Open the file through the engine (the seekers do this inside the timing). */
int pipeline_open_file(struct pipeline *p, const char *path, int flags);
/* Both of the above; nothing is left set up on failure. */
int pipeline_open(struct pipeline *p, const struct bench *b, const char *path,
		  int flags, size_t len, bool with_pool);
/*
 * Point r at the pool window of chunk k for a block write, so a random
 * pattern does not repeat within a compression record; windows of the
 * requests in flight never overlap.
 */
void pipeline_use_pool(struct pipeline *p, struct io_req *r, uint64_t k);

int pipeline_drive(struct pipeline *p, pipeline_fill_fn fill,
		   pipeline_complete_fn complete, void *ctx);
/*
 * The end of the timed part: fsync first when sync is set, timing it
 * into *flush_ns when not NULL, then close the file.
 */
int pipeline_finish(struct pipeline *p, bool sync, uint64_t *flush_ns);
/* Untimed: close the file if still open, free buffers and the engine. */
void pipeline_release(struct pipeline *p);

#endif
