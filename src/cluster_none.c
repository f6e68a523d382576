// SPDX-License-Identifier: BSD-2-Clause
/*
 * The cluster without MPI (configure --with-mpi=no, or no Open MPI): one
 * process, rank 0 of 1. Every meeting is with itself.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cluster.h"

static char host[256];

int cluster_init(int *argc, char ***argv, char *why, size_t len)
{
	(void)argc;
	(void)argv;
	if (why && len)
		why[0] = '\0';
	return 0;
}

void cluster_finish(void)
{
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
	if (!host[0]) {
		if (gethostname(host, sizeof(host) - 1) || !host[0])
			snprintf(host, sizeof(host), "unknown");
		host[sizeof(host) - 1] = '\0';
	}
	return host;
}

int cluster_meet(int status, const char *msg, int *failed, int *failed_err,
		 char *failed_msg, size_t len)
{
	*failed = status ? 0 : -1;
	*failed_err = status;
	if (failed_msg && len)
		snprintf(failed_msg, len, "%s", status && msg ? msg : "");
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

int cluster_sum_u64(const uint64_t *mine, uint64_t *sum, size_t n)
{
	if (n)
		memmove(sum, mine, n * sizeof(*sum));
	return 0;
}

void cluster_abort(int status)
{
	exit(status);
}
