/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef CLYDE_PIPELINE_H
#define CLYDE_PIPELINE_H

#include <stdbool.h>

#include "bench.h"
#include "engine.h"

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
	char *bufs;
	struct io_req *reqs;
	struct io_req **free;
	struct io_req **batch;
	struct io_req **done;
};

typedef bool (*pipeline_fill_fn)(void *ctx, struct io_req *r);
typedef int (*pipeline_complete_fn)(void *ctx, struct io_req *r);

int pipeline_open(struct pipeline *p, const struct bench *b, const char *path,
		  int flags, size_t len);
int pipeline_drive(struct pipeline *p, pipeline_fill_fn fill,
		   pipeline_complete_fn complete, void *ctx);
/* fsync first when sync is set; always releases everything. */
int pipeline_close(struct pipeline *p, bool sync);

#endif
