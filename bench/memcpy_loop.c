// SPDX-License-Identifier: BSD-2-Clause
/*
 * The ceiling of clyde's block phases on a tmpfs: the memory copies they
 * make and nothing else. A tmpfs block write is one copy of each chunk
 * into the page cache, a block read one copy out of it, a rewrite both
 * (read a chunk, write it back). "write|rewrite|read BYTES CHUNK" copies
 * CHUNK bytes at a time between a chunk buffer and a buffer of BYTES (the
 * size of clyde's file, standing for its pages), both touched before the
 * clock so that page faults are not counted, and repeats the whole pass
 * until half a second has gone by. Prints "SECONDS KIB_PER_S" in bytes of
 * the file per second. bench/ceilings runs it beside clyde.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MIN_SECONDS	0.5

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* One pass over the file; op: 'w' write, 'r' read, 'R' rewrite. */
static void copy_pass(char *file, size_t bytes, char *chunk, size_t chunk_size, int op)
{
	for (size_t off = 0; off + chunk_size <= bytes; off += chunk_size) {
		if (op != 'w')
			memcpy(chunk, file + off, chunk_size);
		if (op == 'R')
			chunk[0]++;	/* the rewrite dirties what it read */
		if (op != 'r')
			memcpy(file + off, chunk, chunk_size);
		/* keep the compiler from dropping copies nobody reads */
		__asm__ __volatile__("" : : "r"(file), "r"(chunk) : "memory");
	}
}

int main(int argc, char **argv)
{
	size_t bytes, chunk_size;
	unsigned long long passes = 0;
	char *file, *chunk;
	double t0, t;
	int op;

	if (argc != 4 || (strcmp(argv[1], "write") && strcmp(argv[1], "rewrite") &&
			  strcmp(argv[1], "read"))) {
		fprintf(stderr, "usage: memcpy_loop write|rewrite|read BYTES CHUNK\n");
		return 2;
	}
	op = !strcmp(argv[1], "write") ? 'w' : !strcmp(argv[1], "read") ? 'r' : 'R';
	bytes = strtoull(argv[2], NULL, 10);
	chunk_size = strtoull(argv[3], NULL, 10);
	if (!chunk_size || bytes < chunk_size) {
		fprintf(stderr, "memcpy_loop: BYTES must hold at least one CHUNK of at least 1 byte\n");
		return 2;
	}
	bytes -= bytes % chunk_size;
	file = malloc(bytes);
	chunk = malloc(chunk_size);
	if (!file || !chunk) {
		fprintf(stderr, "memcpy_loop: cannot allocate %zu bytes\n", bytes);
		free(file);
		free(chunk);
		return 1;
	}
	memset(file, 1, bytes);
	memset(chunk, 2, chunk_size);
	t0 = now_s();
	do {
		copy_pass(file, bytes, chunk, chunk_size, op);
		passes++;
		t = now_s() - t0;
	} while (t < MIN_SECONDS);
	printf("%.6f %.0f\n", t, (double)bytes * (double)passes / 1024.0 / t);
	free(file);
	free(chunk);
	return 0;
}
