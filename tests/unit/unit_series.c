// SPDX-License-Identifier: BSD-2-Clause
/*
 * A phase's time series (lib/series.h): the sketch's buckets and
 * quantiles, adaptive and fixed widths, the memory cap, merging, the
 * close that makes rows tile the phase; and /proc/meminfo's parser.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <string.h>

#include "lib/series.h"
#include "sys/dirty.h"
#include "unit.h"

#define MS 1000000ull
#define T0 (5000 * MS)

static uint64_t total_work(const struct series *s)
{
	uint64_t w = 0;

	for (unsigned i = 0; i < s->used; i++)
		w += s->slot[i].work;
	return w;
}

static uint64_t total_ops(const struct series *s)
{
	uint64_t n = 0;

	for (unsigned i = 0; i < s->used; i++)
		n += s->slot[i].ops;
	return n;
}

int main(void)
{
	struct series *a, *b, *f;
	struct sys_dirty d;
	double t0, t1;
	unsigned prev = 0;

	/* buckets: below 64 ns, then two per power of two, never past the last */
	CHECK(series_bucket(0) == 0 && series_bucket(63) == 0, "below 64 ns");
	CHECK(series_bucket(64) == 1 && series_bucket(95) == 1 && series_bucket(96) == 2 &&
	      series_bucket(128) == 3, "64..127 in two halves");
	for (uint64_t ns = 1; ns < (1ull << 40); ns = ns * 3 / 2 + 1) {
		unsigned bk = series_bucket(ns);

		CHECK(bk >= prev && bk < SERIES_BUCKETS, "bucket of %llu: %u after %u",
		      (unsigned long long)ns, bk, prev);
		prev = bk;
	}
	CHECK(series_bucket(UINT64_MAX) == SERIES_BUCKETS - 1, "clamped at the top");

	/* adaptive: 100 ms slots from the origin; 10 ms of each interval's work */
	a = series_new(0, 0, false);
	CHECK(a != NULL, "allocated");
	series_start(a, T0);
	for (unsigned i = 0; i < 2000; i++)
		series_record(a, T0 + i * MS, 1000 + i, 4096);
	CHECK(a->width_ns == SERIES_MIN_NS && a->used == 20, "2 s: width %llu, %u slots",
	      (unsigned long long)a->width_ns, a->used);
	CHECK(a->slot[0].ops == 100 && a->slot[19].ops == 100, "100 per slot");
	CHECK(a->slot[3].max_ns == 1000 + 399, "slot 3's max %llu",
	      (unsigned long long)a->slot[3].max_ns);
	/* p50 within one bucket of the true median, never above the max */
	{
		uint64_t q = series_slot_quantile(&a->slot[3], 0.5), q99 = series_slot_quantile(&a->slot[3], 0.99);

		CHECK(q >= 1350 && q <= 1350 * 3 / 2, "p50 %llu near 1350", (unsigned long long)q);
		CHECK(q <= q99 && q99 <= a->slot[3].max_ns, "p50 %llu <= p99 %llu <= max",
		      (unsigned long long)q, (unsigned long long)q99);
	}
	/* past 512 slots the width doubles, the sums unchanged */
	for (unsigned i = 0; i < 100; i++)
		series_record(a, T0 + 60000 * MS + i * MS, 500, 4096);
	CHECK(a->width_ns == 2 * SERIES_MIN_NS, "60 s: width %llu", (unsigned long long)a->width_ns);
	CHECK(total_work(a) == 2100ull * 4096 && total_ops(a) == 2100, "sums kept: %llu",
	      (unsigned long long)total_work(a));
	CHECK(a->slot[0].ops == 200, "first two slots folded: %llu",
	      (unsigned long long)a->slot[0].ops);
	/* work without an operation goes to the last one's slot */
	series_add_work(a, 7);
	CHECK(total_work(a) == 2100ull * 4096 + 7, "added work");

	/* close: the rows tile [0, end], the last one shorter; a later record folds in */
	series_record(a, T0 + 61000 * MS, 10, 1);
	CHECK(series_close(a, T0 + 60950 * MS) == 0, "closed");
	CHECK(series_rows(a) == 305, "rows %u", series_rows(a));
	series_row_span(a, 0, &t0, &t1);
	CHECK(t0 == 0 && fabs(t1 - 0.2) < 1e-12, "row 0: %g..%g", t0, t1);
	series_row_span(a, series_rows(a) - 1, &t0, &t1);
	CHECK(fabs(t0 - 60.8) < 1e-9 && t1 == 60.95, "last row: %.12g..%.12g", t0, t1);
	CHECK(total_work(a) == 2100ull * 4096 + 8, "the late record folded into the last row");

	/* fixed 250 ms: grows past 64 slots, keeps its width */
	f = series_new(0, 250 * MS, false);
	series_start(f, T0);
	for (unsigned i = 0; i < 1000; i++)
		series_record(f, T0 + i * 100 * MS, 100, 1);
	CHECK(f->width_ns == 250 * MS && !f->capped && f->used == 400, "fixed: width %llu, %u slots",
	      (unsigned long long)f->width_ns, f->used);
	CHECK(f->peak_bytes <= SERIES_MAX_BYTES, "peak %zu", f->peak_bytes);
	/* 10 hours of 250 ms would pass 1 MiB: coarsened, said */
	series_record(f, T0 + 36000ull * 1000 * MS, 100, 1);
	CHECK(f->capped && f->width_ns > 250 * MS && f->peak_bytes <= SERIES_MAX_BYTES,
	      "capped: width %llu, %zu bytes", (unsigned long long)f->width_ns, f->peak_bytes);
	CHECK(total_ops(f) == 1001, "capped keeps every operation: %llu",
	      (unsigned long long)total_ops(f));

	/* merge: the coarser width wins, everything adds */
	b = series_new(0, 0, false);
	series_start(b, T0);
	series_record(b, T0 + 50 * MS, 100, 3);
	series_record(b, T0 + 250 * MS, 100, 5);
	CHECK(series_merge(b, a) == 0, "merged");
	CHECK(b->width_ns == a->width_ns, "merged width %llu", (unsigned long long)b->width_ns);
	CHECK(total_work(b) == total_work(a) + 8 && b->slot[0].work == a->slot[0].work + 3 &&
	      b->slot[1].work == a->slot[1].work + 5, "merged sums");
	CHECK(b->record_bytes == a->peak_bytes, "record_bytes: the recording's %zu",
	      b->record_bytes);

	/* the machine side: CPU adds, the gauges are the interval's end */
	{
		struct series *m = series_new(0, 0, true);
		struct series_machine s1 = { .set = true, .cpu_user = 0.01, .dirty_kib = 100,
					     .writeback_kib = 1, .dev_read_bytes = 10, .dev_write_bytes = 20 };
		struct series_machine s2 = s1;

		series_start(m, T0);
		s2.dirty_kib = 300;
		series_machine_add(m, T0 + 100 * MS, &s1);
		series_machine_add(m, T0 + 200 * MS, &s2);
		CHECK(m->mach[0].set && m->mach[1].set && m->mach[0].dirty_kib == 100,
		      "one sample per slot, the slot that ends at it");
		series_coarsen(m);
		CHECK(fabs(m->mach[0].cpu_user - 0.02) < 1e-12 && m->mach[0].dirty_kib == 300 &&
		      m->mach[0].dev_write_bytes == 40, "coarsened: CPU %g, dirty %lld",
		      m->mach[0].cpu_user, (long long)m->mach[0].dirty_kib);
		series_free(m);
	}

	/* /proc/meminfo */
	CHECK(sys_dirty_parse_meminfo("MemTotal:       24622252 kB\nDirty:              1234 kB\n"
				      "Writeback:             5 kB\nWritebackTmp:     99 kB\n", &d) == 0 &&
	      d.dirty_kib == 1234 && d.writeback_kib == 5, "meminfo: %lld %lld",
	      (long long)d.dirty_kib, (long long)d.writeback_kib);
	CHECK(sys_dirty_parse_meminfo("MemTotal: 1 kB\n", &d) == -EINVAL && d.dirty_kib == -1,
	      "meminfo without the fields");

	series_free(a);
	series_free(b);
	series_free(f);
	return unit_verdict("unit_series");
}
