// SPDX-License-Identifier: BSD-2-Clause
/*
 * Not a test on its own: tests/env/mpi.sh runs it under mpirun -np 4. Each
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

#include "cluster/cluster.h"
#include "cluster/cluster_result.h"
#include "lib/histogram.h"

#define HOST_LEN 64
#define WANT_SIZE 4

static int fails;

static void bad(const char *what);

/*
 * Rank r's block write, made up: it starts r/10 s after rank 0, runs 1 s
 * doing 1000 (r + 1) KiB evenly, 0.1 (r + 1) s of user CPU, and 100 (r + 1)
 * operations of 1000 (r + 1) ns plus one of 7 us.
 */
static void made_up_rank(struct histogram *h, struct timeline *t, int r, double base)
{
	uint64_t start = (uint64_t)((base + r / 10.0) * 1e9);

	memset(h, 0, sizeof(*h));
	memset(t, 0, sizeof(*t));
	for (int i = 0; i < 100 * (r + 1); i++) {
		hist_record(h, 1000 * (uint64_t)(r + 1));
		timeline_record(t, start, start + (uint64_t)1e9 * (uint64_t)i / (100u * (r + 1)));
	}
	hist_record(h, 7000);
}

/*
 * cluster_combine on made-up ranks: rank 0 must find the totals, the first
 * start to last end, the stonewall view, and percentiles equal to those of
 * one histogram holding every rank's operations.
 */
static void combine_check(int rank, int size)
{
	static struct histogram all, mine_h;
	static struct timeline mine_t;
	struct run_result res;
	struct phase_result *p = &res.phase[PH_PUT_BLOCK];
	double base = 1000.0, amount = 0, first_done = 0, cpu = 0;
	uint64_t count = 0;
	char line[256];

	memset(&res, 0, sizeof(res));
	res.params.concurrency = 2;
	made_up_rank(&mine_h, &mine_t, rank, base);
	p->ran = true;
	p->t_start = base + rank / 10.0;
	p->t_end = p->t_start + 1;
	p->elapsed = 1;
	p->amount = 1000.0 * (rank + 1);
	p->cpu_user = 0.1 * (rank + 1);
	p->at_deadline = -1;
	p->hist = malloc(sizeof(*p->hist));
	p->done = malloc(sizeof(*p->done));
	if (!p->hist || !p->done) {
		bad("malloc");
		return;
	}
	memcpy(p->hist, &mine_h, sizeof(mine_h));
	memcpy(p->done, &mine_t, sizeof(mine_t));
	if (cluster_combine(&res, 0)) {
		bad("cluster_combine");
		return;
	}
	if (rank != 0) {
		if (res.cluster)
			bad("a cluster result off rank 0");
		run_result_release(&res);
		return;
	}
	for (int r = 0; r < size; r++) {
		static struct histogram h;
		static struct timeline t;

		made_up_rank(&h, &t, r, base);
		hist_merge(&all, &h);
		amount += 1000.0 * (r + 1);
		cpu += 0.1 * (r + 1);
		count += h.count;
		/* by rank 0's end, base + 1 s, rank r had done 1 - r/10 of its work */
		first_done += 1000.0 * (r + 1) * (1 - r / 10.0);
	}
	if (!res.cluster || res.cluster->ranks != (unsigned)size || res.cluster->hosts != 1 ||
	    res.cluster->workers != 2)
		bad("combined: the cluster's ranks, hosts, workers");
	if (res.params.concurrency != 2u * (unsigned)size)
		bad("combined: concurrency ranks x -c");
	if (p->amount != amount || p->cpu_user < cpu - 1e-9 || p->cpu_user > cpu + 1e-9) {
		snprintf(line, sizeof(line), "combined: amount %g (want %g), cpu %g (want %g)",
			 p->amount, amount, p->cpu_user, cpu);
		bad(line);
	}
	if (p->elapsed < 1 + (size - 1) / 10.0 - 1e-6 || p->elapsed > 1 + (size - 1) / 10.0 + 1e-6) {
		snprintf(line, sizeof(line), "combined: first start to last end %g s", p->elapsed);
		bad(line);
	}
	if (p->latency_count != count)
		bad("combined: latency count");
	for (int q = 0; q < LAT_QUANTILES; q++) {
		double want = (double)hist_quantile(&all, latency_quantiles[q]) / 1e9;

		if (p->latency_q[q] != want) {
			snprintf(line, sizeof(line), "combined: %s %g s, the merged histogram's %g s",
				 latency_quantile_names[q], p->latency_q[q], want);
			bad(line);
		}
	}
	if (p->max_latency < 7e-6 - 1e-12 || p->max_latency > 7e-6 + 1e-12)
		bad("combined: max latency");
	{
		const struct aggregate *a = &res.cluster->phase[PH_PUT_BLOCK].agg;

		if (!a->stonewall_known || a->stonewall_amount < first_done * 0.99 ||
		    a->stonewall_amount > first_done * 1.01) {
			snprintf(line, sizeof(line), "combined: work at the first end %g, want %g",
				 a->stonewall_amount, first_done);
			bad(line);
		}
		if (a->sum_of_rates < amount - 1e-6 || a->sum_of_rates > amount + 1e-6)
			bad("combined: sum of rates");
	}
	printf("combined %g KiB over %.3f s, p50 %.0f ns, first done %.0f KiB\n", p->amount,
	       p->elapsed, p->latency_q[0] * 1e9, res.cluster->phase[PH_PUT_BLOCK].agg.stonewall_amount);
	run_result_release(&res);
}

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
	/* all 4 bytes of each word compared: the one after "rN"'s NUL too */
	memset(word, 0, sizeof(word));
	memset(want_all, 0, sizeof(want_all));
	snprintf(word, sizeof(word), "r%d", rank);
	for (i = 0; i < size && i < WANT_SIZE; i++)
		snprintf(want_all + 4 * i, 4, "r%d", i);
	if (size == WANT_SIZE &&
	    (cluster_allgather(word, 4, all) || memcmp(all, want_all, 4 * (size_t)WANT_SIZE)))
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
	combine_check(rank, size);
	if (!fails)
		printf("rank %d of %d host %s ok\n", rank, size, cluster_host());
	fflush(stdout);
	cluster_finish(0);
	return fails ? 1 : 0;
}
