// SPDX-License-Identifier: BSD-2-Clause
/*
 * What a run says of the caches once its phases ended (bench_cache_outcome):
 * seeks no rotational device reaches flagged as a cache below clyde, and
 * only there (not on a non-rotational device, a loop device, a device of
 * unknown kind, at the limit, or when the seeks did not run); a loop
 * device's backing file, its worst residency over the read phases, an
 * unknown one winning over every figure.
 */
#include "config.h"

#include <stdint.h>

#include "core/plan.h"
#include "core/result.h"
#include "engines/engine.h"
#include "phases/bench.h"
#include "phases/runner.h"
#include "unit.h"

static struct run_plan plan;
static struct run_result res;

/* A run whose seeks did amount seeks in one second on a device of that kind. */
static double seeks_on(int rotational, const char *loop, double amount, bool ran)
{
	memset(&res, 0, sizeof(res));
	res.env.rotational = rotational;
	snprintf(res.env.loop_backing, sizeof(res.env.loop_backing), "%s", loop);
	res.phase[PH_SEEKS].ran = ran;
	res.phase[PH_SEEKS].elapsed = 1.0;
	res.phase[PH_SEEKS].amount = amount;
	bench_cache_outcome(&plan, &res);
	return res.env.seeks_beyond_rotational;
}

/* Each read phase's backing residency (-2: not measured, -1: unknown); the run's worst. */
static void backing(const double *pct, int n, bool want_measured, double want_pct,
		    uint64_t want_bytes)
{
	memset(&res, 0, sizeof(res));
	for (int i = 0; i < n; i++) {
		struct phase_result *pr = &res.phase[PH_REWRITE + i];

		pr->ran = true;
		pr->backing_measured = pct[i] > -2;
		pr->backing_resident_pct = pct[i];
		pr->backing_resident_bytes = pct[i] > 0 ? (uint64_t)(pct[i] * 1000) : 0;
	}
	bench_cache_outcome(&plan, &res);
	CHECK(res.env.loop_backing_measured == want_measured &&
	      res.env.loop_backing_worst == want_pct &&
	      res.env.loop_backing_worst_bytes == want_bytes,
	      "measured %d worst %g bytes %llu; want %d %g %llu", res.env.loop_backing_measured,
	      res.env.loop_backing_worst, (unsigned long long)res.env.loop_backing_worst_bytes,
	      want_measured, want_pct, (unsigned long long)want_bytes);
}

int main(void)
{
	/* a run's plan always names the engine it ran through: the checks are off for null */
	plan.engine = engine_find("psync");
	CHECK(seeks_on(1, "", 40420, true) == 40420, "a rotational disk at 40420/s: flagged");
	CHECK(seeks_on(1, "", ROTATIONAL_SEEKS_MAX + 1, true) > 0, "just above the limit");
	CHECK(seeks_on(1, "", ROTATIONAL_SEEKS_MAX, true) == 0, "at the limit: not flagged");
	CHECK(seeks_on(1, "", 180, true) == 0, "a disk's own rate");
	CHECK(seeks_on(0, "", 40420, true) == 0, "non-rotational: any rate");
	CHECK(seeks_on(-1, "", 40420, true) == 0, "kind unknown: nothing said");
	CHECK(seeks_on(1, "/var/tmp/x.img", 40420, true) == 0, "a loop device's flag is no disk's");
	CHECK(seeks_on(1, "", 40420, false) == 0, "no seeks ran");
	plan.engine = engine_find("null");
	CHECK(seeks_on(1, "", 40420, true) == 0, "through --engine=null: no device answered");
	plan.engine = engine_find("psync");

	backing((const double[]){ -2, -2, -2, -2 }, 4, false, 0, 0);
	backing((const double[]){ 5, 20, 10, -2 }, 4, true, 20, 20000);
	backing((const double[]){ 0, 0 }, 2, true, 0, 0);
	backing((const double[]){ 30, -1, 40 }, 3, true, -1, 0);
	backing((const double[]){ -1, 40 }, 2, true, -1, 0);
	return unit_verdict("unit_cache_outcome");
}
