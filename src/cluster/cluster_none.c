// SPDX-License-Identifier: BSD-2-Clause
/*
 * The cluster without MPI (configure --with-mpi=no, or no Open MPI): one
 * process, rank 0 of 1. Every meeting is with itself.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cluster/cluster.h"

int cluster_init(int *argc, char ***argv, char *why, size_t len)
{
	(void)argc;
	(void)argv;
	if (why && len)
		why[0] = '\0';
	return 0;
}

void cluster_finish(int status)
{
	(void)status;
}

void cluster_set_timeout(double seconds)
{
	(void)seconds;
}

bool cluster_timed_out(void)
{
	return false;
}

bool cluster_active(void)
{
	return false;
}

int cluster_rank(void)
{
	return 0;
}

int cluster_size(void)
{
	return 1;
}

const char *cluster_host(void)
{
	return local_host();
}

unsigned cluster_hosts(const char (**hosts)[64], const uint32_t **rank_host)
{
	static char name[1][64];
	static const uint32_t zero[1];

	snprintf(name[0], sizeof(name[0]), "%s", local_host());
	*hosts = (const char (*)[64])name;
	*rank_host = zero;
	return 1;
}

int cluster_meet(int status, const char *msg, struct cluster_failure *f)
{
	local_meet(status, msg, f);
	return 0;
}

double cluster_clock_offset(void)
{
	return 0;
}

int cluster_gather(const void *mine, size_t len, void *all)
{
	if (len)
		memmove(all, mine, len);
	return 0;
}

int cluster_allgather(const void *mine, size_t len, void *all)
{
	return cluster_gather(mine, len, all);
}

int cluster_sum_u64(const uint64_t *mine, uint64_t *sum, size_t n)
{
	if (n)
		memmove(sum, mine, n * sizeof(*sum));
	return 0;
}

int cluster_bcast(void *buf, size_t len)
{
	(void)buf;
	(void)len;
	return 0;
}

int cluster_min_f64(double *v, size_t n)
{
	(void)v;
	(void)n;
	return 0;
}

int cluster_max_u64(uint64_t *v, size_t n)
{
	(void)v;
	(void)n;
	return 0;
}

void cluster_abort(int status)
{
	exit(status);
}
