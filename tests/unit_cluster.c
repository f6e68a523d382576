// SPDX-License-Identifier: BSD-2-Clause
/*
 * The cluster run alone (not under mpirun): whichever implementation was
 * built, a single process, rank 0 of 1, meeting only itself.
 */
#include "config.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

#include "cluster.h"
#include "unit.h"

int main(int argc, char **argv)
{
	uint64_t counts[3] = { 1, 2, 1ull << 40 }, sums[3] = { 0 };
	char why[128] = "untouched", msg[64] = "untouched", bytes[8] = { 0 };
	int failed = 7, err = 7, r;

	/* as tests/mpi.sh runs it under mpirun, not here */
	unsetenv("OMPI_COMM_WORLD_SIZE");
	unsetenv("PMIX_RANK");
	unsetenv("PMI_RANK");

	r = cluster_init(&argc, &argv, why, sizeof(why));
	CHECK(r == 0, "cluster_init = %d (%s)", r, why);
	CHECK(!cluster_active(), "active alone");
	CHECK(cluster_rank() == 0, "rank %d", cluster_rank());
	CHECK(cluster_size() == 1, "size %d", cluster_size());
	CHECK(cluster_host() && cluster_host()[0], "a host name");

	r = cluster_meet(0, "ignored", &failed, &err, msg, sizeof(msg));
	CHECK(r == 0 && failed == -1 && err == 0, "meet(0) = %d, failed %d, err %d", r, failed, err);
	CHECK_STR(msg, "");

	r = cluster_meet(-EIO, "disk on fire", &failed, &err, msg, sizeof(msg));
	CHECK(r == 0 && failed == 0 && err == -EIO, "meet(-EIO) = %d, failed %d, err %d", r, failed,
	      err);
	CHECK_STR(msg, "disk on fire");
	/* a short buffer gets the message cut, terminated */
	r = cluster_meet(-EIO, "disk on fire", &failed, &err, msg, 5);
	CHECK(r == 0 && failed == 0, "meet(-EIO) short = %d, failed %d", r, failed);
	CHECK_STR(msg, "disk");

	CHECK(cluster_clock_offset() == 0, "offset %g", cluster_clock_offset());

	r = cluster_gather("clyde", 6, bytes);
	CHECK(r == 0, "gather = %d", r);
	CHECK_STR(bytes, "clyde");
	r = cluster_sum_u64(counts, sums, 3);
	CHECK(r == 0 && sums[0] == 1 && sums[1] == 2 && sums[2] == 1ull << 40,
	      "sum = %d: %llu %llu %llu", r, (unsigned long long)sums[0],
	      (unsigned long long)sums[1], (unsigned long long)sums[2]);
	CHECK(cluster_gather(NULL, 0, NULL) == 0 && cluster_sum_u64(NULL, NULL, 0) == 0,
	      "nothing to gather or sum");

	cluster_finish();
	CHECK(!cluster_active(), "still inactive after finish");
	return unit_verdict("unit_cluster");
}
