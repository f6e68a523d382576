// SPDX-License-Identifier: BSD-2-Clause
/*
 * The proof that an engine needs nothing but its ops and a row: a "null"
 * engine, defined here only (every request completes at once and moves
 * nothing), is added to the table, chosen by --engine=null through the
 * options and the plan as any engine is, and run through clyde's own
 * runner on the block and seek phases. The work the phases count must be
 * the requests the engine saw, and the engine must have seen every one.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "clyde/options.h"
#include "clyde/plan.h"
#include "core/result.h"
#include "engines/engine.h"
#include "phases/bench.h"
#include "phases/runner.h"
#include "phases/stall_reader.h"
#include "unit.h"
#include "unit_run.h"

#define GIB (1024ull * 1024 * 1024)
#define FILE_MIB 4
#define CHUNK 8192
#define SEEKS 1000
#define SEEKERS 2
#define DEPTH 4
#define NCHUNKS ((uint64_t)FILE_MIB * 1024 * 1024 / CHUNK)

/* What the null engine saw, over every instance and thread (seekers run at once). */
static atomic_uint_fast64_t null_reads, null_writes, null_reaped, null_opens, null_closes;

/* One instance: the requests submitted and not yet reaped, in order. */
struct null_engine {
	unsigned head, count, cap;
	struct io_req *done[];
};

static int null_probe(unsigned depth, char *desc, size_t len)
{
	(void)depth;
	snprintf(desc, len, "no I/O");
	return 0;
}

static int null_setup(struct engine *e, const struct engine_params *p)
{
	struct null_engine *ne = calloc(1, sizeof(*ne) + e->depth * sizeof(ne->done[0]));

	(void)p;
	if (!ne)
		return -ENOMEM;
	ne->cap = e->depth;
	e->priv = ne;
	return 0;
}

/* A real descriptor: the phases fsync and the runner evicts the file by it. */
static int null_open(struct engine *e, const char *path, int flags, mode_t mode, int *fd)
{
	(void)e;
	*fd = open(path, flags, mode);
	if (*fd < 0)
		return -errno;
	atomic_fetch_add(&null_opens, 1);
	return 0;
}

/* Every request is complete as it is submitted: all of it, at once. */
static int null_submit(struct engine *e, struct io_req *const *reqs, unsigned n)
{
	struct null_engine *ne = e->priv;

	for (unsigned i = 0; i < n; i++) {
		if (ne->count == ne->cap)
			return -EBUSY;
		reqs[i]->res = (ssize_t)reqs[i]->len;
		atomic_fetch_add(reqs[i]->op == IO_READ ? &null_reads : &null_writes, 1);
		ne->done[(ne->head + ne->count++) % ne->cap] = reqs[i];
	}
	return 0;
}

static int null_reap(struct engine *e, unsigned min, struct io_req **done, unsigned max)
{
	struct null_engine *ne = e->priv;
	unsigned n = 0;

	(void)min;
	while (n < max && ne->count) {
		done[n++] = ne->done[ne->head];
		ne->head = (ne->head + 1) % ne->cap;
		ne->count--;
	}
	atomic_fetch_add(&null_reaped, n);
	return (int)n;
}

static int null_close(struct engine *e, int fd)
{
	(void)e;
	atomic_fetch_add(&null_closes, 1);
	return close(fd) ? -errno : 0;
}

static void null_teardown(struct engine *e)
{
	free(e->priv);
	e->priv = NULL;
}

static const struct engine_ops engine_null = {
	.name = "null",
	.flags = ENGINE_F_QUEUED,
	.unavailable = NULL,
	.tree_io = &tree_io_psync,
	.tree_depth = 1,
	.probe = null_probe,
	.setup = null_setup,
	.open = null_open,
	.submit = null_submit,
	.reap = null_reap,
	.close = null_close,
	.teardown = null_teardown,
};

/* clyde's command line, parsed as clyde parses it; 0 or -EINVAL with err. */
static int parse(struct clyde_options *o, char *err, size_t errlen, const char *dir,
		 const char *engine)
{
	char size[64], eng[32];
	char *argv[] = { "clyde", "-d", (char *)dir, "-s", size, "-n", "0", "-f", "--exact",
			 "-z", "7", eng, "--iodepth=4", NULL };

	snprintf(size, sizeof(size), "%u:%u:%u:%u", FILE_MIB, CHUNK, SEEKS, SEEKERS);
	snprintf(eng, sizeof(eng), "--engine=%s", engine);
	options_defaults(o);
	return options_parse(o, (int)(sizeof(argv) / sizeof(argv[0])) - 1, argv, err, errlen);
}

int main(void)
{
	char dir[] = "/tmp/clyde-unit-engine-null.XXXXXX", err[512] = "";
	static struct run_result res;
	struct clyde_options o;
	struct run_plan p;
	const struct phase_result *ph = res.phase;
	uint64_t updates;
	int ret;

	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}

	/* The row is all there is: --engine knows null only once it is added. */
	CHECK(parse(&o, err, sizeof(err), dir, "null") == -EINVAL &&
	      strstr(err, "must be psync, uring or auto"), "before the row: '%s'", err);
	CHECK(engine_register(&engine_null) == 0, "add the null row");
	CHECK(engine_register(&engine_null) == -EEXIST, "a name is added once");
	CHECK(parse(&o, err, sizeof(err), dir, "nul") == -EINVAL &&
	      strstr(err, "must be psync, uring, null or auto"), "the names from the table: '%s'",
	      err);
	ret = parse(&o, err, sizeof(err), dir, "null");
	CHECK(ret == 0, "--engine=null --iodepth=4: %d (%s)", ret, err);

	/* The plan finds it by name and asks its flags: queued, so the depth holds. */
	ret = plan_build_space(&p, &o, GIB, UINT64_MAX, err, sizeof(err));
	CHECK(ret == 0, "plan: %d (%s)", ret, err);
	if (ret || unit_failures)
		goto out;
	CHECK(p.engine == engine_find("null") && p.depth == DEPTH, "plan: %s at depth %u",
	      p.engine->name, p.depth);
	CHECK_STR(p.engine_desc, "QD 4; no I/O");
	for (int i = 0; i < PH_COUNT; i++)
		CHECK(p.run[i] == (i == PH_PUT_BLOCK || i == PH_REWRITE || i == PH_GET_BLOCK ||
				   i == PH_SEEKS), "plan runs phase %d: %d", i, p.run[i]);

	/*
	 * The stall reader is clyde started again with its helper argument:
	 * a program that has not said its main answers that argument (this
	 * one) gets none, or each copy of it would run this test again and
	 * spawn the next (a CI run grew such a chain past 600 processes).
	 */
	{
		struct stall_reader sr;
		int got = stall_reader_spawn(&sr, 16);

		CHECK(got == -ENOSYS && sr.pid == -1, "a stall reader in a test program: %d, pid %ld",
		      got, (long)sr.pid);
	}
	if (unit_bench_run(&p, dir, &res))
		goto out;

	/* Work counted by the phases: whole file each time, and the seeks asked for. */
	CHECK(ph[PH_PUT_BLOCK].amount == FILE_MIB * 1024.0, "block write %.0f KiB",
	      ph[PH_PUT_BLOCK].amount);
	CHECK(ph[PH_REWRITE].amount == FILE_MIB * 1024.0, "rewrite %.0f KiB", ph[PH_REWRITE].amount);
	CHECK(ph[PH_GET_BLOCK].amount == FILE_MIB * 1024.0, "block read %.0f KiB",
	      ph[PH_GET_BLOCK].amount);
	CHECK(ph[PH_SEEKS].amount == SEEKS, "seeks %.0f", ph[PH_SEEKS].amount);
	CHECK(ph[PH_PUT_BLOCK].latency_count == NCHUNKS && ph[PH_REWRITE].latency_count == NCHUNKS &&
	      ph[PH_GET_BLOCK].latency_count == NCHUNKS && ph[PH_SEEKS].latency_count == SEEKS,
	      "timed operations: %llu %llu %llu %llu",
	      (unsigned long long)ph[PH_PUT_BLOCK].latency_count,
	      (unsigned long long)ph[PH_REWRITE].latency_count,
	      (unsigned long long)ph[PH_GET_BLOCK].latency_count,
	      (unsigned long long)ph[PH_SEEKS].latency_count);

	/*
	 * What the engine saw: writes of block write, rewrite and the seeks'
	 * updates (exactly --seek-updates' percent of the tickets); reads of
	 * rewrite, block read and every seek. Nothing left unreaped.
	 */
	updates = (uint64_t)SEEKS * o.seek_updates / 100;
	CHECK(atomic_load(&null_writes) == 2 * NCHUNKS + updates, "null writes %llu, want %llu",
	      (unsigned long long)atomic_load(&null_writes),
	      (unsigned long long)(2 * NCHUNKS + updates));
	CHECK(atomic_load(&null_reads) == 2 * NCHUNKS + SEEKS, "null reads %llu, want %llu",
	      (unsigned long long)atomic_load(&null_reads),
	      (unsigned long long)(2 * NCHUNKS + SEEKS));
	CHECK(atomic_load(&null_reaped) == atomic_load(&null_reads) + atomic_load(&null_writes),
	      "reaped %llu", (unsigned long long)atomic_load(&null_reaped));
	/* block write, rewrite and block read open the file once each, every seeker once */
	CHECK(atomic_load(&null_opens) == 3 + SEEKERS &&
	      atomic_load(&null_closes) == atomic_load(&null_opens), "opens %llu closes %llu",
	      (unsigned long long)atomic_load(&null_opens),
	      (unsigned long long)atomic_load(&null_closes));
	run_result_release(&res);
out:
	CHECK(rmdir(dir) == 0, "rmdir %s: %s", dir, strerror(errno));
	return unit_verdict("unit_engine_null");
}
