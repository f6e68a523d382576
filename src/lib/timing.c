// SPDX-License-Identifier: BSD-2-Clause
/* Wall clock and process CPU time. */
#include "config.h"

#include <sys/resource.h>
#include <time.h>

#include "lib/timing.h"

uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

double thread_cpu_seconds(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts))
		return 0;
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static double tv_seconds(const struct timeval *tv)
{
	return (double)tv->tv_sec + (double)tv->tv_usec / 1e6;
}

void cpu_sample_take(struct cpu_sample *s)
{
	struct rusage ru;

	/* RUSAGE_SELF counts every thread once, io_uring workers included. */
	getrusage(RUSAGE_SELF, &ru);
	s->user = tv_seconds(&ru.ru_utime);
	s->sys = tv_seconds(&ru.ru_stime);
}
