// SPDX-License-Identifier: BSD-2-Clause
/*
 * Not a test on its own: tests/mpi.sh runs it under mpirun -np 4. Each
 * rank checks the cluster's calls and prints one line,
 *   rank R of N host H ok
 * or "rank R of N FAIL: why" lines; rank 0 then prints the sums and hosts
 * gathered. Exits 0 when every check passed on this rank.
 */
#include "config.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cluster.h"

#define HOST_LEN 64
#define WANT_SIZE 4

static int fails;

static void bad(const char *what)
{
	printf("rank %d of %d FAIL: %s\n", cluster_rank(), cluster_size(), what);
	fails++;
}

int main(int argc, char **argv)
{
	char why[256], msg[128], line[320];
	char *hosts = NULL, mine[HOST_LEN];
	uint64_t counts[2], sums[2] = { 0, 0 };
	int failed, err, rank, size, i;
	double offset;

	if (cluster_init(&argc, &argv, why, sizeof(why))) {
		printf("rank ? FAIL: cluster_init: %s\n", why);
		return 1;
	}
	rank = cluster_rank();
	size = cluster_size();
	if (!cluster_active())
		bad("not active under mpirun");
	if (size != WANT_SIZE || rank < 0 || rank >= size)
		bad("rank or size");

	/* every rank well: nobody failed */
	if (cluster_meet(0, NULL, &failed, &err, msg, sizeof(msg)) || failed != -1 || err || msg[0])
		bad("meet with no failure");

	/* rank 2 fails, rank 3 too: the lowest, 2, is named with its message */
	if (rank == 2)
		i = cluster_meet(-ENOSPC, "rank 2 full", &failed, &err, msg, sizeof(msg));
	else if (rank == 3)
		i = cluster_meet(-EIO, "rank 3 broken", &failed, &err, msg, sizeof(msg));
	else
		i = cluster_meet(0, NULL, &failed, &err, msg, sizeof(msg));
	if (i || failed != 2 || err != -ENOSPC || strcmp(msg, "rank 2 full")) {
		snprintf(line, sizeof(line), "meet with rank 2 failing: %d, failed %d, err %d, '%s'",
			 i, failed, err, msg);
		bad(line);
	}

	offset = cluster_clock_offset();
	/* one machine, one CLOCK_MONOTONIC: the ranks agree to within a second */
	if (offset < -1 || offset > 1 || (rank == 0 && offset != 0))
		bad("clock offset");

	counts[0] = 1;
	counts[1] = (uint64_t)rank << 32;
	if (cluster_sum_u64(counts, sums, 2))
		bad("sum");

	memset(mine, 0, sizeof(mine));
	snprintf(mine, sizeof(mine), "%s", cluster_host());
	if (rank == 0) {
		hosts = calloc((size_t)size, HOST_LEN);
		if (!hosts)
			bad("calloc");
	}
	if (cluster_gather(mine, HOST_LEN, hosts))
		bad("gather");
	if (rank == 0 && hosts) {
		uint64_t want = 0;

		for (i = 0; i < size; i++)
			want += (uint64_t)i << 32;
		if (sums[0] != (uint64_t)size || sums[1] != want)
			bad("sums on rank 0");
		for (i = 0; i < size; i++)
			if (strncmp(hosts + (size_t)i * HOST_LEN, mine, HOST_LEN))
				bad("gathered host names");
		printf("sum %llu %llu hosts %d\n", (unsigned long long)sums[0],
		       (unsigned long long)sums[1], size);
	}
	free(hosts);
	if (!fails)
		printf("rank %d of %d host %s ok\n", rank, size, cluster_host());
	fflush(stdout);
	cluster_finish();
	return fails ? 1 : 0;
}
