/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef CLYDE_SEMSYNC_H
#define CLYDE_SEMSYNC_H

#include <stddef.h>

/* -p N: create (or reset) the semaphore set for N processes; -p -1 removes it. */
int semsync_create(int procs, char *err, size_t errlen);
int semsync_remove(char *err, size_t errlen);

/* -y s: is there a semaphore to wait on? */
int semsync_check(char *err, size_t errlen);

/*
 * -y s: a barrier before each phase. Phase k waits until all N processes
 * have reached phase k. 0, -EINTR when a stop signal came, or -errno.
 */
int semsync_wait(unsigned phase_index, char *err, size_t errlen);

/* -y p: ask on stderr and wait for a line on stdin. */
int prompt_wait(const char *phase, char *err, size_t errlen);

#endif
