/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef CLYDE_CLUSTER_H
#define CLYDE_CLUSTER_H

/*
 * Many clients at once: clyde started by
 * mpirun runs one client per rank. cluster_mpi.c when configure found
 * Open MPI, cluster_none.c otherwise: a single process, rank 0 of 1.
 * MPI is initialised only when the process was started by mpirun, so an
 * MPI build run alone behaves exactly as a build without MPI.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * Start: MPI_Init only under mpirun (its environment says so), then (up to
 * 512 ranks) every pair of ranks connected while the network is whole, for
 * --mpi-timeout's messages. 0 or -errno with why.
 */
int cluster_init(int *argc, char ***argv, char *why, size_t len);
/*
 * End: when every rank is here, MPI_Finalize. After a meeting that timed
 * out (--mpi-timeout) the ranks that came tell the lowest of them (the
 * speaker) that they have cleaned up; it waits for all of them, then
 * aborts the job with status (3 when 0): MPI_Abort, as the missing ones
 * cannot finalise. No other rank aborts before the speaker's limit.
 */
void cluster_finish(int status);

/* The default --mpi-timeout, in seconds. */
#define CLUSTER_TIMEOUT_DEFAULT	600.0

/*
 * The deadline of every meeting from the moment this rank came to it: past
 * it, the ranks that came name those that did not (rank and host: the
 * lowest rank that came prints it), every later meeting fails at once with
 * -ETIMEDOUT, and cluster_finish aborts the job. 0: wait forever.
 */
void cluster_set_timeout(double seconds);
/* A meeting timed out: every call since failed with -ETIMEDOUT. */
bool cluster_timed_out(void);

/* Under mpirun with MPI initialised. */
bool cluster_active(void);
int cluster_rank(void);
int cluster_size(void);
/* This rank's host name. */
const char *cluster_host(void);
/*
 * The distinct hosts (64 bytes each, in rank order of first appearance)
 * and each rank's index among them, as learned at cluster_init on every
 * rank: *hosts and *rank_host stay valid until cluster_finish. Returns the
 * number of hosts; a single process has one, its own.
 */
unsigned cluster_hosts(const char (**hosts)[64], const uint32_t **rank_host);

/* Who failed, as every rank learns it at a meeting. */
struct cluster_failure {
	int rank;		/* the lowest failing rank; -1 when none failed */
	int err;		/* its status: -errno or an exit code */
	char host[64];
	char msg[448];
};

/*
 * The meeting before and after every phase: every rank brings its own
 * status (0, -errno or an exit code) and message, and leaves knowing the
 * lowest failing rank, its host and message, broadcast from it. 0, or
 * -errno when MPI itself failed.
 */
int cluster_meet(int status, const char *msg, struct cluster_failure *f);

/*
 * CLOCK_MONOTONIC seconds of this rank minus rank 0's at the same moment,
 * measured by round trips to rank 0 (within half the quickest of them):
 * add to rank 0's clock to get this one's. 0 on a single process.
 * Collective.
 */
double cluster_clock_offset(void);

/*
 * Gather len bytes from every rank on rank 0 (all = size * len bytes on
 * rank 0, unused elsewhere); sum n uint64 counters onto rank 0
 * (histogram buckets). 0 or -errno.
 */
int cluster_gather(const void *mine, size_t len, void *all);
int cluster_sum_u64(const uint64_t *mine, uint64_t *sum, size_t n);
/* Every rank gets every rank's len bytes (all = size * len bytes). 0 or -errno. */
int cluster_allgather(const void *mine, size_t len, void *all);
/* Rank 0's len bytes to every rank. 0 or -errno. */
int cluster_bcast(void *buf, size_t len);
/* In place on every rank: the smallest of each value, the largest of each counter. */
int cluster_min_f64(double *v, size_t n);
int cluster_max_u64(uint64_t *v, size_t n);

/* Stop every rank now (mpirun kills the job), exit code status; for a failure past cleanup. */
void cluster_abort(int status);

/* The single process's part of each call (cluster_local.c): no MPI, or not under mpirun. */
const char *local_host(void);
void local_meet(int status, const char *msg, struct cluster_failure *f);

#endif
