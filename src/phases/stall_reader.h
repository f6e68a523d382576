/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef CLYDE_STALL_READER_H
#define CLYDE_STALL_READER_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "sys/dirty.h"
#include "lib/timing.h"

/*
 * The stall reader: a process that reads the machine's dirty and
 * writeback pages at every interval's end of a phase, whether or not
 * anything completes, so that the intervals the workers' readings miss
 * (a stall's: the block write's closing fsync, a journal commit) have
 * their gauges. A process, not a thread: a second thread makes every
 * system call of the workers dearer (series_sampler.h).
 *
 * Started once per run, before any phase's clock, by posix_spawn of
 * clyde itself with STALL_READER_ARG (sys/helper_proc.h): nothing is
 * forked, nothing shared copy-on-write with the workers, nothing started
 * under the clock's lock. It opens its own sources and closes what it
 * inherits but its two descriptors: the board it writes (a memfd) and a
 * socket on which each phase's start and end reach it. Its CPU is its
 * own process's, apart from the phase's: it measures it per phase and
 * writes it on the board.
 */
#define STALL_READER_ARG "--stall-reader-helper"

struct stall_board;

struct stall_reader {
	pid_t pid;			/* -1: none */
	int sock;			/* the control socket; -1 */
	struct stall_board *board;	/* shared with the helper; NULL: none */
	size_t board_bytes;
	unsigned cap;			/* readings the board holds */
	bool in_phase;			/* a start sent, its end not yet */
};

/* What the reader read in one phase. */
struct stall_reading {
	uint64_t end_ns;		/* the interval's end it was read at */
	struct sys_dirty machine;
};

/*
 * The name clyde was run as (main's argv[0]): where to find it without
 * /proc/self/exe. Its call is also the program's word that its main
 * answers STALL_READER_ARG: only then is a reader spawned.
 */
void stall_reader_run_as(const char *argv0);

/*
 * Start the reader for a run whose series have at most cap rows; 0, or
 * -errno with sr->pid -1 (the phases then go without it). Never inside a
 * phase. -ENOSYS in a program that has not called stall_reader_run_as:
 * the reader is the program itself started again, and a test program
 * over clyde's runner would run its own main again, which runs the
 * runner again, each one spawning the next.
 */
int stall_reader_spawn(struct stall_reader *sr, unsigned cap);
/*
 * A phase's clock started at t0 (fixed_ns: --interval's width, 0
 * adaptive): the reader reads from t0 on. A write on a socket, nothing
 * more: called under the clock's lock. false: the reader is gone.
 */
bool stall_reader_begin(struct stall_reader *sr, uint64_t t0, uint64_t fixed_ns);
/*
 * The phase ended: the reader stops reading and says so. Its readings
 * (valid until the next begin; *n of them) and its CPU over the phase.
 * 0, or -errno (then nothing was read and the reader is stopped).
 */
int stall_reader_end(struct stall_reader *sr, const struct stall_reading **r, unsigned *n,
		     struct cpu_sample *cpu);
/* The run is over: the reader told, waited for (killed if it will not go) and reaped. */
void stall_reader_stop(struct stall_reader *sr);

/* The helper's life, from main when argv[1] is STALL_READER_ARG; its exit status. */
int stall_reader_main(void);

#endif
