/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef CLYDE_PHASES_CAPACITY_H
#define CLYDE_PHASES_CAPACITY_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "core/capacity.h"
#include "phases/bench.h"

/*
 * --latency-target and --open-loop after a phase: its operation (a seek,
 * a create, a stat, a delete, in the phase's order) issued by threads of
 * their own, closed loop over a concurrency search or open loop on a
 * schedule. The operations are capacity_ops.c's, one row a phase.
 */

/* Each thread's own: what the kind keeps per thread (a file, a buffer). */
struct cap_thread {
	int fd;
	void *buf;
};

struct cap_kind;

/* One phase's measurement: the kind and its state. */
struct cap_ctx {
	struct bench *b;
	struct worker *w;
	const struct phase_def *d;
	const struct cap_kind *kind;
	bool random;			/* the phase's order is random */
	/* seeks */
	uint64_t nchunks;
	uint64_t seed;
	/* the file kinds: their directory, and the names the step uses */
	int dirfd;
	int parentfd;
	char dir[WORKPATH_MAX];
	char dir_name[32];
	uint64_t base;			/* the step's first name */
	uint64_t pool;			/* stat and delete: the names there are */
	uint64_t *order;		/* stat and delete: the names in the phase's order */
	void *file_data;
	size_t file_bytes;
	char err[WORKPATH_MAX + 128];	/* what failed, when an operation does */
};

struct cap_kind {
	const char *what;		/* "seek", "create", ... for messages */
	/* Once, before the first step; undone by teardown whatever happened. */
	int (*setup)(struct cap_ctx *c);
	void (*teardown)(struct cap_ctx *c);
	int (*thread_init)(struct cap_ctx *c, struct cap_thread *t);
	void (*thread_fini)(struct cap_ctx *c, struct cap_thread *t);
	/* Untimed, before a step that may take n tickets (UINT64_MAX: no bound). */
	int (*step_begin)(struct cap_ctx *c, uint64_t n);
	/* Untimed, after a step that took taken tickets: put back what it left. */
	int (*step_end)(struct cap_ctx *c, uint64_t taken);
	/* Ticket k's operation: 0 or -errno (c->err may say where). */
	int (*op)(struct cap_ctx *c, struct cap_thread *t, uint64_t k);
	/* It uses up what a step's tickets name: a closed window must be given a bound. */
	bool consumes;
	/*
	 * Its operations are requests on the big file: with a queued engine
	 * (--engine=uring) the search's concurrency is one thread's queue depth.
	 */
	bool queued;
};

/* The seek kind's ticket k: its chunk, and whether it writes the chunk back. */
uint64_t capacity_seek_chunk(const struct cap_ctx *c, uint64_t k);
bool capacity_seek_writes(const struct cap_ctx *c, uint64_t k);

/* The phase's kind, NULL when capacity is not measured on it. */
const struct cap_kind *capacity_kind(enum phase_id id, bool *random);
/* Whether the plan measures some phase's capacity (one that runs). */
bool capacity_any_phase(const struct run_plan *p);
/* Whether a run's --open-loop sweep never saturated (exit 8). */
bool capacity_unsaturated(const struct run_result *runs, unsigned count);
/* Whether the plan asks for the phase's capacity. */
bool capacity_wanted(const struct run_plan *p, enum phase_id id);

/*
 * --open-loop-log's file, opened (truncated) once for the process before
 * the runs, each open-loop step's lines added to it: 0 with none asked;
 * -errno with err saying why (a symbolic link or hard-linked file at the
 * path is refused, never written through).
 */
int capacity_log_open(const struct capacity_spec *sp, char *err, size_t errlen);

/*
 * Measure the phase's capacity after it ran, into pr->capacity (allocated).
 * 0, or -errno with b->errmsg saying what failed; its files are removed
 * either way.
 */
int capacity_run(struct bench *b, struct worker *w, const struct phase_def *d,
		 struct phase_result *pr);

#endif
