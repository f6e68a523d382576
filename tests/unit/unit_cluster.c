// SPDX-License-Identifier: BSD-2-Clause
/*
 * The cluster run alone (not under mpirun): whichever implementation was
 * built, a single process, rank 0 of 1, meeting only itself.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "cluster/cluster.h"
#include "cluster/cluster_result.h"
#include "unit.h"

#define MS 1000000ull
#define T0 (5000 * 1000 * MS)	/* the phase's start on this clock: 5000 s */

/*
 * One rank's series of span_ms with an operation of 1000 work units at
 * every step_ms and a reading of 10 ms CPU at every 100 ms, merged as if
 * the phase's first rank started early_ms before it and the last ended
 * late_ms after it (offset_s: this rank's clock minus rank 0's).
 */
static void merged(uint64_t fixed_ns, uint64_t span_ms, uint64_t step_ms, double early_ms,
		   double late_ms, double offset_s, unsigned want_rows, uint64_t want_width)
{
	struct series *s = series_new(T0, fixed_ns, false), *m = series_new(T0, fixed_ns, true);
	struct phase_result pr = { .ran = true };
	struct series *out = NULL;
	uint64_t work = 0, ops = 0, rows_ops = 0, rows_work = 0, span;
	double first, last, cpu = 0, rows_cpu = 0, t0, t1, prev = 0;
	unsigned reads = 0, late_ops = 0;
	int r;

	CHECK(s && m, "series_new");
	if (!s || !m)
		return;
	for (uint64_t t = step_ms; t <= span_ms; t += step_ms) {
		series_record(s, T0 + t * MS - 1, 1000 + t, 1000);
		work += 1000;
		ops++;
	}
	/* every 100 ms, and the phase's end takes one */
	for (uint64_t t = 100, at = 0; at < span_ms; t += 100) {
		struct series_machine sm = { .set = true, .cpu_user = 0.01, .cpu_sys = 0.002,
					     .dirty_kib = (int64_t)t + 100, .writeback_kib = 1,
					     .file_dirty_kib = 2, .file_writeback_kib = 3,
					     .dev_read_bytes = 4096, .dev_write_bytes = 8192 };

		at = t < span_ms ? t : span_ms;
		series_machine_add(m, T0 + at * MS, &sm);
		cpu += 0.01;
	}
	r = series_merge(s, m) || series_close(s, T0 + span_ms * MS);
	CHECK(r == 0, "merge and close");
	pr.series = s;
	pr.t_start = (double)T0 / 1e9 + offset_s;
	pr.t_end = pr.t_start + (double)span_ms / 1e3;
	first = pr.t_start - offset_s - early_ms / 1e3;
	last = pr.t_end - offset_s + late_ms / 1e3;
	r = cluster_series(&pr, offset_s, first, last, &out);
	span = cluster_span_ns(first, last);
	CHECK(r == 0 && out, "cluster_series = %d", r);
	if (!out)
		goto out;
	CHECK(series_rows(out) == want_rows && out->width_ns == want_width,
	      "%u rows of %llu ns, want %u of %llu", series_rows(out),
	      (unsigned long long)out->width_ns, want_rows, (unsigned long long)want_width);
	CHECK(out->fixed == (fixed_ns > 0) && out->capped == (fixed_ns && want_width > fixed_ns),
	      "fixed %d capped %d", out->fixed, out->capped);
	for (unsigned i = 0; i < series_rows(out); i++) {
		const struct series_machine *gm = &out->mach[i];

		series_row_span(out, i, &t0, &t1);
		CHECK(t0 == prev && t1 > t0, "row %u: [%g, %g] after %g", i, t0, t1, prev);
		prev = t1;
		rows_ops += out->slot[i].ops;
		rows_work += out->slot[i].work;
		/* moved earlier by less than a row: none before the rank's start */
		if (t1 <= early_ms / 1e3 - (double)want_width / 1e9)
			late_ops += (unsigned)out->slot[i].ops;
		if (gm->set) {
			reads++;
			rows_cpu += gm->cpu_user;
			CHECK(gm->dirty_kib >= 100 && gm->file_dirty_kib == 2 &&
			      gm->dev_read_bytes >= 4096, "row %u: gauges %lld %lld %lld", i,
			      (long long)gm->dirty_kib, (long long)gm->file_dirty_kib,
			      (long long)gm->dev_read_bytes);
		}
	}
	CHECK(late_ops == 0, "%u operations a row or more before the rank started", late_ops);
	CHECK(prev == (double)span / 1e9, "the rows end at %.9f, the span %.9f", prev,
	      (double)span / 1e9);
	CHECK(rows_ops == ops && rows_work == work, "ops %llu of %llu, work %llu of %llu",
	      (unsigned long long)rows_ops, (unsigned long long)ops,
	      (unsigned long long)rows_work, (unsigned long long)work);
	CHECK(fabs(rows_cpu - cpu) < 1e-6, "CPU %.9f of %.9f", rows_cpu, cpu);
	/* the rank's last reading, at its end, in the row where it ended */
	CHECK(reads >= 1 && out->mach[series_rows(out) - 1].set ==
	      ((early_ms + (double)span_ms) * 1e6 > (double)((want_rows - 1) * want_width)),
	      "%u readings; the last row's: the rank's last when it ended in that row", reads);
out:
	series_free(out);
	series_free(s);
	series_free(m);
}

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

	/* one rank's series onto the phase's grid: shifted, extended, coarsened to fit */
	merged(0, 2000, 7, 0, 0, 0, 20, 100 * MS);
	merged(0, 2000, 7, 50, 130.5, 0.25, 22, 100 * MS);
	merged(0, 2000, 7, 250, 0, 0.1, 23, 100 * MS);
	merged(0, 51150, 50, 0, 0, -3, 512, 100 * MS);
	merged(0, 51150, 50, 120, 0, -3, 257, 200 * MS);
	merged(0, 60000, 50, 0, 300, 1, 302, 200 * MS);
	merged(100 * MS, 3000, 9, 10, 0, 0, 31, 100 * MS);
	merged(100 * MS, 400 * 1000, 1000, 0, 0, 0, 2000, 200 * MS);
	{
		/* a fixed width that fits alone, one row too many on the grid: doubled, capped */
		uint64_t most = series_max_rows(true, true);

		merged(100 * MS, most * 100 - 50, 1000, 0, 100, 0,
		       (unsigned)((most * 100 + 50 + 199) / 200), 200 * MS);
	}
	{
		struct phase_result none = { .ran = true }, idle = { .ran = false };
		struct series *out = (struct series *)1;

		r = cluster_series(&none, 0, 1, 2, &out);
		CHECK(r == 0 && !out, "a rank that ran without a series: none merged");
		out = (struct series *)1;
		r = cluster_series(&idle, 0, HUGE_VAL, -HUGE_VAL, &out);
		CHECK(r == 0 && !out, "no rank ran: none");
	}

	cluster_finish(0);
	CHECK(!cluster_active(), "still inactive after finish");
	return unit_verdict("unit_cluster");
}
