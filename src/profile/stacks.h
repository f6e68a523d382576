/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef CLYDE_PROFILE_STACKS_H
#define CLYDE_PROFILE_STACKS_H

#include <stddef.h>
#include <stdint.h>

#include "profile/profile.h"

/*
 * --profile=stacks: the call stacks the machine's CPUs were sampled in
 * during one phase's timed window, every CPU, kernel and user frames.
 * The sampler (stacks_linux.c) fills a stack_set per phase; the layers
 * (stacks_layers.c) and the outputs read it and nothing else, so they
 * are pure functions that the unit tests feed with crafted sets.
 */

/* The suffix a kernel frame carries in a folded stack, as flame graph tools expect. */
#define STACK_KERNEL_SUFFIX	"_[k]"

/*
 * One distinct stack and how many samples landed in it. The folded text
 * is the task's name, then the frames from the outermost caller to the
 * function the sample hit, joined by ';': "clyde;main;...;vfs_read_[k];
 * _copy_to_iter_[k]". A user frame is a function name where it is
 * known, else the program or library it lies in ("[libc.so.6]").
 */
struct stack_entry {
	char *folded;
	uint64_t count;
	enum prof_group group;	/* whose task the samples were in (profile.h) */
};

struct stack_set {
	struct stack_entry *v;
	size_t n, cap;
	uint64_t samples;	/* the sum of the counts: idle not included */
	uint64_t idle;		/* samples in the idle task, counted apart */
	uint64_t lost;		/* samples the kernel dropped (ring full) */
	double period_s;	/* CPU time one sample stands for */
};

#endif
