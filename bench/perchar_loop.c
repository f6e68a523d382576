// SPDX-License-Identifier: BSD-2-Clause
/*
 * The ceiling of clyde's per-char phases: the same system calls and
 * nothing else. "write FILE BYTES" creates FILE (O_EXCL, as the per-char
 * write does), writes BYTES one write(2) of one byte each, then fsync and
 * close, all timed; "read FILE BYTES" opens FILE before the clock, reads
 * BYTES one read(2) each and closes, timed. Prints "SECONDS KIB_PER_S".
 * bench/perchar-ceiling runs it beside clyde.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int write_loop(int fd, unsigned long long bytes)
{
	for (unsigned long long i = 0; i < bytes; i++) {
		unsigned char c = (unsigned char)i;

		if (write(fd, &c, 1) != 1)
			return -1;
	}
	return fsync(fd);
}

static int read_loop(int fd, unsigned long long bytes)
{
	unsigned char c;

	for (unsigned long long i = 0; i < bytes; i++) {
		if (read(fd, &c, 1) != 1)
			return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	unsigned long long bytes;
	int writing, fd, ret;
	double t0, t1;

	if (argc != 4 || (strcmp(argv[1], "write") && strcmp(argv[1], "read"))) {
		fprintf(stderr, "usage: perchar_loop write|read FILE BYTES\n");
		return 2;
	}
	writing = !strcmp(argv[1], "write");
	bytes = strtoull(argv[3], NULL, 10);
	fd = writing ? open(argv[2], O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600)
		     : open(argv[2], O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0) {
		fprintf(stderr, "perchar_loop: %s: %s\n", argv[2], strerror(errno));
		return 1;
	}
	t0 = now_s();
	ret = writing ? write_loop(fd, bytes) : read_loop(fd, bytes);
	if (close(fd))
		ret = -1;
	t1 = now_s();
	if (ret) {
		fprintf(stderr, "perchar_loop: %s %s: %s\n", argv[1], argv[2], strerror(errno));
		return 1;
	}
	printf("%.6f %.0f\n", t1 - t0, (double)bytes / 1024.0 / (t1 - t0));
	return 0;
}
