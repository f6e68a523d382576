/* SPDX-License-Identifier: BSD-2-Clause */
/* clyde's runner on a plan, as a unit test runs it: in a private directory, removed after. */
#ifndef CLYDE_UNIT_RUN_H
#define CLYDE_UNIT_RUN_H

#include "phases/bench.h"
#include "phases/runner.h"
#include "sys/workdir.h"
#include "unit.h"

/* bench_run on plan p in a private directory of dir, seed 7; 0 or bench_run's error. */
static inline int unit_bench_run(const struct run_plan *p, const char *dir, struct run_result *res)
{
	unsigned sync_count = 0;
	struct bench b;
	int ret, rr;

	memset(&b, 0, sizeof(b));
	memset(res, 0, sizeof(*res));
	b.plan = p;
	b.seed = 7;
	b.sync_count = &sync_count;
	ret = workdir_create(dir, b.workdir, sizeof(b.workdir));
	CHECK(ret == 0, "private directory in %s: %d", dir, ret);
	if (ret)
		return ret;
	ret = bench_run(&b, res);
	CHECK(ret == 0, "bench_run through %s: %d (%s)", p->engine->name, ret, b.errmsg);
	rr = workdir_remove(b.workdir);
	CHECK(rr == 0, "remove %s: %d", b.workdir, rr);
	return ret;
}

#endif
