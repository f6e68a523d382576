/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef CLYDE_PROFILE_STACKS_H
#define CLYDE_PROFILE_STACKS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

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
/*
 * A frame that names a function: a kernel function or a named user one.
 * A user frame that is only its library or "[unknown]" ("[libc.so.6]"),
 * or a kernel frame without its symbol ("[unknown]_[k]"), names a place
 * and no function: it sits at the bottom of nearly every stack, and a
 * ranking by total time would put it first and say nothing.
 */
static inline bool stack_frame_named(const char *frame)
{
	return frame[0] != '[';
}

struct stack_entry {
	char *folded;
	uint64_t count;
	enum prof_group group;	/* whose task the samples were in (profile.h) */
	/*
	 * Its process was gone when the phase's samples were read: it exited
	 * during the phase or came and went inside it, so clyde's snapshots,
	 * which count a process from its two readings, could not count this
	 * CPU (profile.groups.unattributed_s holds it). A thread that ended in
	 * a process still there is no such task: its process's counters keep
	 * its time.
	 */
	bool unseen;
};

struct stack_set {
	struct stack_entry *v;
	size_t n, cap;
	uint64_t samples;	/* the sum of the counts: idle and other not in it */
	uint64_t idle;		/* samples in the idle task, counted apart */
	uint64_t other;		/* samples in other programs' tasks (PROF_OTHER): apart too */
	uint64_t lost;		/* samples the kernel dropped (ring full) */
	double period_s;	/* CPU time one sample stands for */
	/* the workers' folds in the phase: a part of clyde's process CPU (getrusage) */
	double drain_cpu_s;
	uint64_t drain_wakeups;
};

/*
 * The sampler (stacks_linux.c; stacks_bsd.c refuses): one perf event per
 * online CPU, each with its ring, opened once per invocation by
 * prof_stacks_open (profile.h), before -u drops root. A ring holds a
 * minute or so at 99 Hz (a sample with both stacks is up to ~2 KiB), a
 * phase can last far longer: the workers glance at the rings' heads
 * every STACKS_POLL_NS between operations (phases/bench.h,
 * prof_stacks_poll), a few loads, and the one that finds a ring past half
 * full folds the rings into the phase's set then and there, a few times
 * a minute at 99 Hz; what is left is read at the phase's end, outside its
 * timed part. A sample that still finds a ring full (no operation ended
 * for half a ring's time, as in one long fsync) is counted in lost, never
 * guessed. The folds' CPU in the phase is measured
 * (CLOCK_THREAD_CPUTIME_ID around them) and reported with the stacks: it
 * is a part of clyde's process CPU, the phase's %CPU. Not a thread of its
 * own: a single worker's phase runs without one (series_sampler.h), and a
 * thread beside it made the per-char read 15% slower (glibc's cancellable
 * calls take their slower path once a thread exists, and Linux counts a
 * reference on the file at each call while a table is shared).
 */
struct stack_sampler;

/* --- what the sampler and its tests share (stacks.c): pure --- */

/* A symbol table sorted by address: /proc/kallsyms's text symbols, or clyde's own functions. */
struct stack_ksym {
	uint64_t addr;
	char *name;		/* "vfs_write", a module's "zstd_compress_[k]" without the suffix */
};

struct stack_ksyms {
	struct stack_ksym *v;
	size_t n, cap;
};

/* Parse kallsyms text (modules included); 0, -ENOMEM, or -ENOENT when no address is shown. */
int stack_ksyms_parse(struct stack_ksyms *k, const char *text);
/* One more symbol (name: len bytes), and the table sorted once all are in; 0 or -ENOMEM. */
int stack_ksyms_add(struct stack_ksyms *k, uint64_t addr, const char *name, size_t len);
void stack_ksyms_sort(struct stack_ksyms *k);
/* The function ip lies in, or NULL below the first symbol. */
const char *stack_ksyms_find(const struct stack_ksyms *k, uint64_t ip);
void stack_ksyms_free(struct stack_ksyms *k);

/*
 * A folded stack being built, frame by frame from the outermost: a name
 * with ';', spaces, control characters or nothing in it gets '_' there,
 * so that one line stays one stack in the folded format.
 */
struct stack_line {
	char *s;
	size_t len, cap;
	int err;		/* -ENOMEM once, then every append is dropped */
};

void stack_line_reset(struct stack_line *l);
void stack_line_frame(struct stack_line *l, const char *name, const char *suffix);
void stack_line_free(struct stack_line *l);

/* The distinct stacks of a set, found by their text while samples are added. */
struct stack_index {
	uint32_t *slot;		/* entry + 1, 0 empty */
	size_t cap;		/* a power of 2 */
};

/* count samples of the folded stack in group; 0 or -ENOMEM (the set unchanged). */
int stack_set_add(struct stack_set *set, struct stack_index *ix, const char *folded,
		  enum prof_group group, uint64_t count);
/* The same, of a task the snapshots saw or not (stack_entry.unseen): two entries where both. */
int stack_set_add_task(struct stack_set *set, struct stack_index *ix, const char *folded,
		       enum prof_group group, bool unseen, uint64_t count);
void stack_index_free(struct stack_index *ix);

/* The folded format: "frame;frame;... count" a line, in the set's order. */
int stack_set_write_folded(FILE *out, const struct stack_set *set);

#endif
