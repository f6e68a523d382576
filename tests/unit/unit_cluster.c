// SPDX-License-Identifier: BSD-2-Clause
/*
 * The cluster run alone (not under mpirun): whichever implementation was
 * built, a single process, rank 0 of 1, meeting only itself.
 */
#include "config.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

#include "cluster/cluster.h"
#include "unit.h"

int main(int argc, char **argv)
{
	uint64_t counts[3] = { 1, 2, 1ull << 40 }, sums[3] = { 0 };
	char why[128] = "untouched", bytes[8] = { 0 }, all[8] = { 0 };
	struct cluster_failure f;
	double mins[2] = { 2.5, -1 };
	uint64_t maxs[2] = { 3, 1ull << 50 };
	int r;

	/* as tests/env/mpi.sh runs it under mpirun, not here */
	unsetenv("OMPI_COMM_WORLD_SIZE");
	unsetenv("PMIX_RANK");
	unsetenv("PMI_RANK");

	r = cluster_init(&argc, &argv, why, sizeof(why));
	CHECK(r == 0, "cluster_init = %d (%s)", r, why);
	CHECK(!cluster_active(), "active alone");
	CHECK(cluster_rank() == 0, "rank %d", cluster_rank());
	CHECK(cluster_size() == 1, "size %d", cluster_size());
	CHECK(cluster_host() && cluster_host()[0], "a host name");

	r = cluster_meet(0, "ignored", &f);
	CHECK(r == 0 && f.rank == -1 && f.err == 0, "meet(0) = %d, rank %d, err %d", r, f.rank, f.err);
	CHECK_STR(f.msg, "");

	r = cluster_meet(-EIO, "disk on fire", &f);
	CHECK(r == 0 && f.rank == 0 && f.err == -EIO, "meet(-EIO) = %d, rank %d, err %d", r, f.rank,
	      f.err);
	CHECK_STR(f.msg, "disk on fire");
	CHECK_STR(f.host, cluster_host());

	CHECK(cluster_clock_offset() == 0, "offset %g", cluster_clock_offset());

	r = cluster_gather("clyde", 6, bytes);
	CHECK(r == 0, "gather = %d", r);
	CHECK_STR(bytes, "clyde");
	r = cluster_sum_u64(counts, sums, 3);
	CHECK(r == 0 && sums[0] == 1 && sums[1] == 2 && sums[2] == 1ull << 40,
	      "sum = %d: %llu %llu %llu", r, (unsigned long long)sums[0],
	      (unsigned long long)sums[1], (unsigned long long)sums[2]);
	r = cluster_allgather("abc", 4, all);
	CHECK(r == 0, "allgather = %d", r);
	CHECK_STR(all, "abc");
	r = cluster_bcast(all, 4);
	CHECK(r == 0, "bcast = %d", r);
	CHECK_STR(all, "abc");
	r = cluster_min_f64(mins, 2) || cluster_max_u64(maxs, 2);
	CHECK(r == 0 && mins[0] == 2.5 && mins[1] == -1 && maxs[0] == 3 && maxs[1] == 1ull << 50,
	      "one rank's min and max are its own values");
	CHECK(cluster_gather(NULL, 0, NULL) == 0 && cluster_sum_u64(NULL, NULL, 0) == 0,
	      "nothing to gather or sum");

	cluster_finish();
	CHECK(!cluster_active(), "still inactive after finish");
	return unit_verdict("unit_cluster");
}
