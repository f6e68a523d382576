// SPDX-License-Identifier: BSD-2-Clause
/*
 * The shipped null engine (engines/engine_null.c: every request completes
 * at once and moves nothing) tested as an engine: full length, no data in
 * the file, the size its writes would have left. Then the proof that an
 * engine needs nothing but its ops and a row: "tally", null's functions
 * counting what they are asked, is added to the table by a test program,
 * chosen by --engine=tally through the options and the plan as any engine
 * is, and run through clyde's own runner on the block and seek phases. The
 * work the phases count must be the requests the engine saw, and the
 * engine must have seen every one.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
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

/* What the shipped null engine was asked, over every instance and thread (seekers run at once). */
static atomic_uint_fast64_t null_reads, null_writes, null_reaped, null_opens, null_closes;

/*
 * "tally": the shipped null engine under another name, counting what it is
 * asked. A row added by a test program, as any engine's row is added.
 */
static int tally_open(struct engine *e, const char *path, int flags, mode_t mode, int *fd)
{
	int ret = engine_null.open(e, path, flags, mode, fd);

	if (!ret)
		atomic_fetch_add(&null_opens, 1);
	return ret;
}

static int tally_submit(struct engine *e, struct io_req *const *reqs, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		atomic_fetch_add(reqs[i]->op == IO_READ ? &null_reads : &null_writes, 1);
	return engine_null.submit(e, reqs, n);
}

static int tally_reap(struct engine *e, unsigned min, struct io_req **done, unsigned max)
{
	int n = engine_null.reap(e, min, done, max);

	for (int i = 0; i < n; i++)
		CHECK(done[i]->res == (ssize_t)done[i]->len, "null completes all of it: %zd of %zu",
		      done[i]->res, done[i]->len);
	if (n > 0)
		atomic_fetch_add(&null_reaped, (unsigned)n);
	return n;
}

static int tally_close(struct engine *e, int fd)
{
	atomic_fetch_add(&null_closes, 1);
	return engine_null.close(e, fd);
}

static struct engine_ops engine_tally;

static void tally_row(void)
{
	engine_tally = engine_null;
	engine_tally.name = "tally";
	engine_tally.open = tally_open;
	engine_tally.submit = tally_submit;
	engine_tally.reap = tally_reap;
	engine_tally.close = tally_close;
}

/* One request through the engine, submitted and reaped: its res. */
static ssize_t one(struct engine *e, enum io_op op, int fd, char *buf, uint64_t off)
{
	struct io_req r = { .op = op, .fd = fd, .buf = buf, .len = CHUNK, .off = off, .res = -1 };
	struct io_req *batch[1] = { &r }, *done[DEPTH];
	int n;

	if (e->ops->submit(e, batch, 1))
		return -EIO;
	n = e->ops->reap(e, 1, done, DEPTH);
	return n == 1 && done[0] == &r ? r.res : -EIO;
}

/*
 * The shipped engine alone, as unit_engine tests psync: full length at
 * once, the buffer of a read left as it was, the file's size the farthest
 * write's end (set at close, never shrunk), and no block of data in it.
 */
static void engine_alone(const char *dir)
{
	char path[256], buf[CHUNK];
	struct engine_params params = { .depth = DEPTH };
	struct engine e;
	struct stat st;
	int fd = -1;

	snprintf(path, sizeof(path), "%s/alone", dir);
	CHECK(engine_setup(&e, &engine_null, &params) == 0, "null setup");
	CHECK(engine_null.open(&e, path, O_RDWR | O_CREAT | O_TRUNC, 0600, &fd) == 0, "null open");
	memset(buf, 'x', sizeof(buf));
	CHECK(one(&e, IO_WRITE, fd, buf, 0) == CHUNK, "write at 0");
	CHECK(one(&e, IO_WRITE, fd, buf, 99 * CHUNK) == CHUNK, "write at chunk 99");
	CHECK(one(&e, IO_WRITE, fd, buf, 5 * CHUNK) == CHUNK, "write at chunk 5");
	CHECK(fstat(fd, &st) == 0 && st.st_size == 0, "no size before close: %lld",
	      (long long)st.st_size);
	CHECK(engine_null.close(&e, fd) == 0, "null close");
	CHECK(stat(path, &st) == 0 && st.st_size == 100 * CHUNK,
	      "size after close: %lld, want %d", (long long)st.st_size, 100 * CHUNK);
	CHECK(st.st_blocks == 0, "no data written: %lld blocks", (long long)st.st_blocks);

	/* a rewrite inside the file leaves its size; a read past its end is whole too */
	CHECK(engine_null.open(&e, path, O_RDWR, 0600, &fd) == 0, "null open again");
	CHECK(one(&e, IO_READ, fd, buf, 500 * CHUNK) == CHUNK, "read past the end");
	CHECK(buf[0] == 'x' && buf[CHUNK - 1] == 'x', "a read leaves the buffer as it was");
	CHECK(one(&e, IO_WRITE, fd, buf, 3 * CHUNK) == CHUNK, "rewrite at chunk 3");
	CHECK(engine_null.close(&e, fd) == 0, "null close again");
	CHECK(stat(path, &st) == 0 && st.st_size == 100 * CHUNK && st.st_blocks == 0,
	      "after a rewrite: %lld bytes, %lld blocks", (long long)st.st_size,
	      (long long)st.st_blocks);
	engine_teardown(&e);
	CHECK(unlink(path) == 0, "unlink %s", path);
}

/* clyde's command line, parsed as clyde parses it; 0 or -EINVAL with err. */
static int parse(struct clyde_options *o, char *err, size_t errlen, const char *dir,
		 const char *engine)
{
	/* static: the options keep pointers into the arguments, as into argv */
	static char size[64], eng[32];
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

	engine_alone(dir);

	/* null is shipped; a row is all another engine needs: --engine knows it once added. */
	ret = parse(&o, err, sizeof(err), dir, "null");
	CHECK(ret == 0, "--engine=null --iodepth=4: %d (%s)", ret, err);
	tally_row();
	CHECK(parse(&o, err, sizeof(err), dir, "tally") == -EINVAL &&
	      strstr(err, "must be psync, uring, aio, null or auto"), "before the row: '%s'", err);
	CHECK(engine_register(&engine_tally) == 0, "add the tally row");
	CHECK(engine_register(&engine_tally) == -EEXIST, "a name is added once");
	CHECK(parse(&o, err, sizeof(err), dir, "tall") == -EINVAL &&
	      strstr(err, "must be psync, uring, aio, null, tally or auto"),
	      "the names from the table: '%s'", err);
	ret = parse(&o, err, sizeof(err), dir, "tally");
	CHECK(ret == 0, "--engine=tally --iodepth=4: %d (%s)", ret, err);

	/* The plan finds it by name and asks its flags: queued, so the depth holds. */
	ret = plan_build_space(&p, &o, GIB, UINT64_MAX, err, sizeof(err));
	CHECK(ret == 0, "plan: %d (%s)", ret, err);
	if (ret || unit_failures)
		goto out;
	CHECK(p.engine == engine_find("tally") && p.depth == DEPTH, "plan: %s at depth %u",
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
