// SPDX-License-Identifier: BSD-2-Clause
/* Measuring the machine's ceilings: a system call and a memory copy. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/timing.h"
#include "sys/ceilings.h"

#define SYSCALLS	200000
#define COPY_BYTES	(64u << 20)
#define COPY_ROUNDS	8
#define TRIES		3

static double best_syscall_ns(int fd)
{
	double best = 0;
	char c = 'x';

	for (int t = 0; t < TRIES; t++) {
		uint64_t t0 = now_ns();

		for (int i = 0; i < SYSCALLS; i++)
			if (write(fd, &c, 1) != 1)
				return 0;
		double ns = (double)(now_ns() - t0) / SYSCALLS;

		if (!best || ns < best)
			best = ns;
	}
	return best;
}

static double best_copy_bps(char *src, char *dst)
{
	double best = 0;

	for (int t = 0; t < TRIES; t++) {
		uint64_t t0 = now_ns();

		for (int r = 0; r < COPY_ROUNDS; r++) {
			memcpy(dst, src, COPY_BYTES);
			/* Keep the compiler from dropping copies nobody reads. */
			__asm__ __volatile__("" : : "r"(dst) : "memory");
		}
		double bps = (double)COPY_BYTES * COPY_ROUNDS * 1e9 / (double)(now_ns() - t0);

		if (bps > best)
			best = bps;
	}
	return best;
}

int ceilings_measure(struct ceilings *c)
{
	char *src, *dst;
	int fd;

	memset(c, 0, sizeof(*c));
	fd = open("/dev/null", O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	c->syscall_ns = best_syscall_ns(fd);
	close(fd);
	src = malloc(COPY_BYTES);
	dst = malloc(COPY_BYTES);
	if (!src || !dst) {
		free(src);
		free(dst);
		return -ENOMEM;
	}
	/* Touch both first: the copy measures bandwidth, not page faults. */
	memset(src, 1, COPY_BYTES);
	memset(dst, 2, COPY_BYTES);
	c->copy_bytes_per_s = best_copy_bps(src, dst);
	free(src);
	free(dst);
	return 0;
}
