/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef CLYDE_TIMING_H
#define CLYDE_TIMING_H

#include <stdint.h>

/* CLOCK_MONOTONIC in nanoseconds. */
uint64_t now_ns(void);

/* CPU time of the whole process (all threads): getrusage(RUSAGE_SELF). */
struct cpu_sample {
	double user;
	double sys;
};

void cpu_sample_take(struct cpu_sample *s);

/* CPU time of the calling thread, seconds; 0 where it cannot be read. */
double thread_cpu_seconds(void);

#endif
