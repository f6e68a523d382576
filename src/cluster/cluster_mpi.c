// SPDX-License-Identifier: BSD-2-Clause
/*
 * The cluster on MPI (Open MPI): one client per rank under mpirun. MPI is
 * initialised only when the environment shows that mpirun (or another
 * PMI/PMIx launcher) started this process; run alone, an MPI build is a
 * single process, rank 0 of 1, exactly as cluster_none.c.
 */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <mpi.h>

#include "cluster/cluster.h"
#include "lib/timing.h"

/* Barrier samples for the clock offset; the quickest is kept. */
#define CLOCK_ROUNDS 3

static bool active;
static int my_rank;
static int n_ranks = 1;

/* Started by mpirun (Open MPI sets OMPI_COMM_WORLD_SIZE) or a PMI(x) launcher. */
static bool launched(void)
{
	return getenv("OMPI_COMM_WORLD_SIZE") || getenv("PMIX_RANK") || getenv("PMI_RANK");
}

static int mpi_errno(int rc)
{
	return rc == MPI_SUCCESS ? 0 : -EIO;
}

/* Spin this long on a pending meeting, then sleep between looks. */
#define WAIT_SPIN_NS	200000ull
#define WAIT_NAP_NS	100000L

/*
 * Wait for a non-blocking collective without taking a CPU from the ranks
 * still at work: Open MPI's blocking calls poll, and with more ranks than
 * cores a rank that finished first would slow the last one down. A rank
 * leaves at most a nap after the last one arrived.
 */
static int wait_quietly(MPI_Request *req)
{
	uint64_t t0 = now_ns();
	int done = 0;

	for (;;) {
		if (MPI_Test(req, &done, MPI_STATUS_IGNORE) != MPI_SUCCESS)
			return -EIO;
		if (done)
			return 0;
		if (now_ns() - t0 > WAIT_SPIN_NS) {
			struct timespec nap = { 0, WAIT_NAP_NS };

			nanosleep(&nap, NULL);
		}
	}
}

int cluster_init(int *argc, char ***argv, char *why, size_t len)
{
	int provided, rc;

	if (why && len)
		why[0] = '\0';
	if (active || !launched())
		return 0;
	/* MPI is called from the main thread only; -c's threads never call it. */
	rc = MPI_Init_thread(argc, argv, MPI_THREAD_FUNNELED, &provided);
	if (rc != MPI_SUCCESS) {
		if (why && len)
			snprintf(why, len, "MPI_Init_thread failed (MPI error %d)", rc);
		return -EIO;
	}
	/* Errors come back as codes (cluster_meet reports them), not as aborts. */
	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
	if (MPI_Comm_rank(MPI_COMM_WORLD, &my_rank) != MPI_SUCCESS ||
	    MPI_Comm_size(MPI_COMM_WORLD, &n_ranks) != MPI_SUCCESS) {
		if (why && len)
			snprintf(why, len, "MPI_Comm_rank/MPI_Comm_size failed");
		MPI_Finalize();
		my_rank = 0;
		n_ranks = 1;
		return -EIO;
	}
	active = true;
	return 0;
}

void cluster_finish(void)
{
	if (!active)
		return;
	/*
	 * Every rank has removed its files before any leaves: mpirun aborts the
	 * job when the first rank exits non-zero, killing those still at work.
	 */
	{
		MPI_Request req;

		if (MPI_Ibarrier(MPI_COMM_WORLD, &req) == MPI_SUCCESS)
			wait_quietly(&req);
	}
	MPI_Finalize();
	active = false;
	my_rank = 0;
	n_ranks = 1;
}

bool cluster_active(void)
{
	return active;
}

int cluster_rank(void)
{
	return my_rank;
}

int cluster_size(void)
{
	return n_ranks;
}

const char *cluster_host(void)
{
	return local_host();
}

int cluster_meet(int status, const char *msg, struct cluster_failure *f)
{
	int key = status ? my_rank : INT_MAX;
	int low = key;
	int r;

	if (!active) {
		local_meet(status, msg, f);
		return 0;
	}
	memset(f, 0, sizeof(*f));
	f->rank = -1;
	/* the lowest failing rank; INT_MAX when every rank is well */
	{
		MPI_Request req;

		r = mpi_errno(MPI_Iallreduce(&key, &low, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD, &req));
		if (!r)
			r = wait_quietly(&req);
	}
	if (r || low == INT_MAX)
		return r;
	if (low == my_rank)
		local_meet(status, msg, f);
	/* its status, host and message in one piece */
	r = mpi_errno(MPI_Bcast(f, (int)sizeof(*f), MPI_BYTE, low, MPI_COMM_WORLD));
	f->rank = low;
	f->host[sizeof(f->host) - 1] = '\0';
	f->msg[sizeof(f->msg) - 1] = '\0';
	return r;
}

/*
 * Each round: a barrier, every rank reads its clock on leaving it, then a
 * second barrier whose length (the slowest rank's) bounds how far apart
 * the ranks left the first; rank 0's reading is broadcast. Every rank sees
 * the same lengths, so all keep the same round: the quickest.
 */
double cluster_clock_offset(void)
{
	double best_offset = 0;
	uint64_t best_len = UINT64_MAX;
	int i;

	if (!active || n_ranks < 2)
		return 0;
	for (i = 0; i < CLOCK_ROUNDS; i++) {
		uint64_t mine, zero, len, slowest;

		if (MPI_Barrier(MPI_COMM_WORLD) != MPI_SUCCESS)
			break;
		mine = now_ns();
		if (MPI_Barrier(MPI_COMM_WORLD) != MPI_SUCCESS)
			break;
		len = now_ns() - mine;
		zero = mine;
		if (MPI_Bcast(&zero, 1, MPI_UINT64_T, 0, MPI_COMM_WORLD) != MPI_SUCCESS ||
		    MPI_Allreduce(&len, &slowest, 1, MPI_UINT64_T, MPI_MAX,
				  MPI_COMM_WORLD) != MPI_SUCCESS)
			break;
		if (slowest < best_len) {
			best_len = slowest;
			best_offset = (double)(int64_t)(mine - zero) / 1e9;
		}
	}
	return best_offset;
}

/* Every rank's len bytes, on rank 0 alone or on every rank. */
static int gather_bytes(const void *mine, size_t len, void *all, bool everyone)
{
	if (!active) {
		if (len)
			memmove(all, mine, len);
		return 0;
	}
	if (len > INT_MAX)
		return -EOVERFLOW;
	if (everyone)
		return mpi_errno(MPI_Allgather(mine, (int)len, MPI_BYTE, all, (int)len, MPI_BYTE,
					       MPI_COMM_WORLD));
	return mpi_errno(MPI_Gather(mine, (int)len, MPI_BYTE, all, (int)len, MPI_BYTE, 0,
				    MPI_COMM_WORLD));
}

int cluster_gather(const void *mine, size_t len, void *all)
{
	return gather_bytes(mine, len, all, false);
}

int cluster_allgather(const void *mine, size_t len, void *all)
{
	return gather_bytes(mine, len, all, true);
}

int cluster_bcast(void *buf, size_t len)
{
	if (!active || !len)
		return 0;
	if (len > INT_MAX)
		return -EOVERFLOW;
	return mpi_errno(MPI_Bcast(buf, (int)len, MPI_BYTE, 0, MPI_COMM_WORLD));
}

int cluster_min_f64(double *v, size_t n)
{
	if (!active || !n)
		return 0;
	if (n > INT_MAX)
		return -EOVERFLOW;
	return mpi_errno(MPI_Allreduce(MPI_IN_PLACE, v, (int)n, MPI_DOUBLE, MPI_MIN,
				       MPI_COMM_WORLD));
}

int cluster_max_u64(uint64_t *v, size_t n)
{
	MPI_Request req;
	int r;

	if (!active || !n)
		return 0;
	if (n > INT_MAX)
		return -EOVERFLOW;
	/* --stonewall's decision: this rank's own workers may still be at work */
	r = mpi_errno(MPI_Iallreduce(MPI_IN_PLACE, v, (int)n, MPI_UINT64_T, MPI_MAX,
				     MPI_COMM_WORLD, &req));
	return r ? r : wait_quietly(&req);
}

int cluster_sum_u64(const uint64_t *mine, uint64_t *sum, size_t n)
{
	if (!active) {
		if (n)
			memmove(sum, mine, n * sizeof(*sum));
		return 0;
	}
	if (n > INT_MAX)
		return -EOVERFLOW;
	return mpi_errno(MPI_Reduce(mine, sum, (int)n, MPI_UINT64_T, MPI_SUM, 0, MPI_COMM_WORLD));
}

void cluster_abort(int status)
{
	if (active)
		MPI_Abort(MPI_COMM_WORLD, status);
	exit(status);
}
