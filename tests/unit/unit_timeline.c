// SPDX-License-Identifier: BSD-2-Clause
/* The completions timeline: records, coarsening, merging, and reading back. */
#include "config.h"

#include <math.h>

#include "lib/timeline.h"
#include "unit.h"

#define MS 1000000ull

/* n operations evenly over [start, start + len) */
static void spread(struct timeline *t, uint64_t origin, uint64_t start, uint64_t len, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		timeline_record(t, origin, start + len * i / n);
}

int main(void)
{
	static struct timeline a, b, m, empty;
	double got;

	CHECK(timeline_ops_by(&empty, 5 * MS) == 0, "empty timeline has no operations");

	/* one second of work: 2^20 ns slots must have doubled to cover it */
	spread(&a, 1000 * MS, 1000 * MS, 1000 * MS, 10000);
	CHECK(a.total == 10000, "total %llu", (unsigned long long)a.total);
	CHECK(a.shift == TIMELINE_SHIFT0 + 1, "shift %u after 1 s", a.shift);
	got = timeline_ops_by(&a, 1500 * MS);
	CHECK(fabs(got - 5000) <= 10000.0 / 256, "half-way: %.1f of 10000", got);
	got = timeline_ops_by(&a, 1250 * MS);
	CHECK(fabs(got - 2500) <= 10000.0 / 256, "quarter: %.1f", got);
	CHECK(timeline_ops_by(&a, 999 * MS) == 0, "before the origin: none");
	CHECK(timeline_ops_by(&a, 9000 * MS) == 10000, "long after: all");

	/* a long phase: still 512 slots, still about 1/256 resolution */
	{
		static struct timeline l;

		spread(&l, 0, 0, 100000 * MS, 100000);
		CHECK(l.total == 100000, "long total %llu", (unsigned long long)l.total);
		got = timeline_ops_by(&l, 33333 * MS);
		CHECK(fabs(got - 33333) <= 100000.0 / 256, "a third: %.1f", got);
	}

	/* merging: a second worker that started 300 ms later and ran 200 ms */
	spread(&b, 1300 * MS, 1300 * MS, 200 * MS, 4000);
	m = a;
	timeline_merge(&m, &b);
	CHECK(m.total == 14000, "merged total %llu", (unsigned long long)m.total);
	for (uint64_t t = 1000; t <= 2100; t += 100) {
		double want = timeline_ops_by(&a, t * MS) + timeline_ops_by(&b, t * MS);

		got = timeline_ops_by(&m, t * MS);
		CHECK(fabs(got - want) <= 14000.0 / 128, "merged at %llu ms: %.1f, parts %.1f",
		      (unsigned long long)t, got, want);
	}
	/* the other way round: the later origin first, the earlier merged in */
	m = b;
	timeline_merge(&m, &a);
	CHECK(m.total == 14000 && m.origin_ns == 1000 * MS, "merged (earlier origin) %llu at %llu",
	      (unsigned long long)m.total, (unsigned long long)m.origin_ns);
	got = timeline_ops_by(&m, 1400 * MS);
	CHECK(fabs(got - 6000) <= 14000.0 / 128, "at 1400 ms: %.1f of 6000", got);
	/* merging nothing changes nothing */
	timeline_merge(&m, &empty);
	CHECK(m.total == 14000, "empty merge");
	return unit_verdict("unit_timeline");
}
