// SPDX-License-Identifier: BSD-2-Clause
/*
 * The same-call ceiling of clyde's block phases on a tmpfs: the system
 * calls clyde's psync engine makes for them and nothing else. "write
 * FILE BYTES CHUNK" makes FILE afresh and fills it with pwrite(2) of
 * CHUNK bytes, as clyde's block write extends its new file, then
 * fsync(2)s it; "rewrite" preads each chunk, dirties it and pwrites it
 * back; "read" preads it. One pass, as clyde makes. Prints "SECONDS
 * KIB_PER_S USER_S SYSTEM_S CALLS" (bytes of the file per second; the
 * process's CPU over the pass, getrusage(2); pread and pwrite calls), so
 * that bench/ceilings sets clyde's rate against it and the kernel's
 * time per call against clyde's own (--engine=null). The chunk buffer is
 * touched before the clock.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static double tv_s(struct timeval tv)
{
	return (double)tv.tv_sec + (double)tv.tv_usec / 1e6;
}

/* One pass; op: 'w' write, 'r' read, 'R' rewrite. 0 or -errno; *calls counted. */
static int pass(int fd, size_t bytes, char *chunk, size_t chunk_size, int op,
		unsigned long long *calls)
{
	for (size_t off = 0; off + chunk_size <= bytes; off += chunk_size) {
		if (op != 'w') {
			if (pread(fd, chunk, chunk_size, (off_t)off) != (ssize_t)chunk_size)
				return errno ? -errno : -EIO;
			++*calls;
		}
		if (op == 'R')
			chunk[0]++;	/* the rewrite dirties what it read */
		if (op != 'r') {
			if (pwrite(fd, chunk, chunk_size, (off_t)off) != (ssize_t)chunk_size)
				return errno ? -errno : -EIO;
			++*calls;
		}
	}
	if (op == 'w' && fsync(fd))
		return -errno;
	return 0;
}

int main(int argc, char **argv)
{
	struct rusage ru0, ru1;
	unsigned long long calls = 0;
	size_t bytes, chunk_size;
	char *chunk;
	double t0, t;
	int op, fd, ret;

	if (argc != 5 || (strcmp(argv[1], "write") && strcmp(argv[1], "rewrite") &&
			  strcmp(argv[1], "read"))) {
		fprintf(stderr, "usage: block_loop write|rewrite|read FILE BYTES CHUNK\n");
		return 2;
	}
	op = !strcmp(argv[1], "write") ? 'w' : !strcmp(argv[1], "read") ? 'r' : 'R';
	bytes = strtoull(argv[3], NULL, 10);
	chunk_size = strtoull(argv[4], NULL, 10);
	if (!chunk_size || bytes < chunk_size) {
		fprintf(stderr, "block_loop: BYTES must hold at least one CHUNK of at least 1 byte\n");
		return 2;
	}
	bytes -= bytes % chunk_size;
	fd = open(argv[2], op == 'w' ? O_WRONLY | O_CREAT | O_TRUNC : op == 'r' ? O_RDONLY : O_RDWR,
		  0600);
	if (fd < 0) {
		fprintf(stderr, "block_loop: %s: %s\n", argv[2], strerror(errno));
		return 1;
	}
	chunk = malloc(chunk_size);
	if (!chunk) {
		fprintf(stderr, "block_loop: cannot allocate %zu bytes\n", chunk_size);
		close(fd);
		return 1;
	}
	memset(chunk, 2, chunk_size);
	getrusage(RUSAGE_SELF, &ru0);
	t0 = now_s();
	errno = 0;
	ret = pass(fd, bytes, chunk, chunk_size, op, &calls);
	t = now_s() - t0;
	getrusage(RUSAGE_SELF, &ru1);
	free(chunk);
	close(fd);
	if (ret) {
		fprintf(stderr, "block_loop: %s %s: %s\n", argv[1], argv[2], strerror(-ret));
		return 1;
	}
	printf("%.6f %.0f %.6f %.6f %llu\n", t, (double)bytes / 1024.0 / t,
	       tv_s(ru1.ru_utime) - tv_s(ru0.ru_utime), tv_s(ru1.ru_stime) - tv_s(ru0.ru_stime),
	       calls);
	return 0;
}
