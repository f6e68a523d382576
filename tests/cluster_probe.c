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
	char why[256], line[700];
	struct cluster_failure f;
	double mins[2];
	uint64_t maxs[2];
	char all[WANT_SIZE * 4], want_all[WANT_SIZE * 4], word[4];
	char *hosts = NULL, mine[HOST_LEN];
	uint64_t counts[2], sums[2] = { 0, 0 };
	int rank, size, i;
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
	if (cluster_meet(0, NULL, &f) || f.rank != -1 || f.err || f.msg[0])
		bad("meet with no failure");

	/* rank 2 fails, rank 3 too: the lowest, 2, is named with its message */
	if (rank == 2)
		i = cluster_meet(-ENOSPC, "rank 2 full", &f);
	else if (rank == 3)
		i = cluster_meet(-EIO, "rank 3 broken", &f);
	else
		i = cluster_meet(0, NULL, &f);
	if (i || f.rank != 2 || f.err != -ENOSPC || strcmp(f.msg, "rank 2 full") ||
	    strcmp(f.host, cluster_host())) {
		snprintf(line, sizeof(line), "meet with rank 2 failing: %d, rank %d, err %d, '%s' on '%s'",
			 i, f.rank, f.err, f.msg, f.host);
		bad(line);
	}

	/* every rank learns every rank's word, rank 0's bytes, the least and the most */
	snprintf(word, sizeof(word), "r%d", rank);
	for (i = 0; i < size && i < WANT_SIZE; i++)
		snprintf(want_all + 4 * i, 4, "r%d", i);
	if (cluster_allgather(word, 4, all) || memcmp(all, want_all, 4 * (size_t)WANT_SIZE))
		bad("allgather");
	if (cluster_bcast(word, 4) || strcmp(word, "r0"))
		bad("bcast from rank 0");
	mins[0] = 10.0 + rank;
	mins[1] = -rank;
	maxs[0] = (uint64_t)rank;
	maxs[1] = 1ull << (40 + rank);
	if (cluster_min_f64(mins, 2) || mins[0] != 10.0 || mins[1] != 1 - size)
		bad("min over ranks");
	if (cluster_max_u64(maxs, 2) || maxs[0] != (uint64_t)size - 1 ||
	    maxs[1] != 1ull << (40 + size - 1))
		bad("max over ranks");

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
