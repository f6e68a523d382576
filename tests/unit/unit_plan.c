// SPDX-License-Identifier: BSD-2-Clause
/*
 * The plan's calibrated counts and estimate, from made-up calibrations:
 * a slow device, a huge -s without -n, few free inodes, a 1 ms create,
 * a calibration that measured nothing; and the noisy-batch rule
 * (tests/unit_calibrate runs a real calibration).
 */
#include "config.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "clyde/calibrate.h"
#include "clyde/options.h"
#include "core/plan.h"
#include "unit.h"

#define GIB (1024.0 * 1024 * 1024)
#define MIB (1024.0 * 1024)

static int near(double got, double want)
{
	return fabs(got - want) <= 1e-6 * (fabs(want) + 1);
}

/* A plan for dir from the options, with the free space given. */
static void build(struct run_plan *p, const struct clyde_options *o, uint64_t free_bytes,
		  uint64_t free_inodes)
{
	char err[256] = "";
	int ret = plan_build_space(p, o, free_bytes, free_inodes, err, sizeof(err));

	CHECK(ret == 0, "plan_build_space: %d %s", ret, err);
}

static void defaults(struct clyde_options *o)
{
	options_defaults(o);
	o->dir = "/nonexistent-never-read";
	o->engine = "psync";
}

static struct calibration cal(double create_us, double stat_us, double delete_us,
			      double write_mbs, double read_mbs)
{
	struct calibration c = { 0 };

	c.create_s = create_us * 1e-6;
	c.stat_s = stat_us * 1e-6;
	c.delete_s = delete_us * 1e-6;
	c.sync_s = 0.01;
	c.write_bps = write_mbs * 1e6;
	c.read_bps = read_mbs * 1e6;
	c.syscall_s = 1e-6;
	c.seconds = 1.5;
	return c;
}

/* -s SIZE without -n: no time boxes, the I/O phases at the calibrated speed. */
static void huge_size(double gib)
{
	struct clyde_options o;
	struct run_plan p;
	struct calibration c = cal(100, 2, 10, 200, 200);
	double bytes = gib * GIB, io, est;

	defaults(&o);
	o.size_given = true;
	o.size_bytes = (uint64_t)(gib * 1024) << 20;
	build(&p, &o, (uint64_t)(4 * gib * GIB), 100000000);
	plan_calibrate(&p, &o, &c);
	CHECK(p.files >= 1 && p.files <= DEFAULT_FILES, "-s %gG: %u x 1024 files", gib, p.files);
	CHECK(strstr(p.files_note, "I/O phases take all the budget") != NULL,
	      "-s %gG: the note says why: %s", gib, p.files_note);
	CHECK(p.phase_box_s[PH_PUT_BLOCK] == 0, "-s given: no time box on the block write");
	/* perchar: 3 MiB of 1-byte writes, and of reads that also read the file */
	io = 3 * MIB * 1e-6 + 3 * MIB * (1e-6 + IO_SUSTAINED_COST / 200e6) +
	     WRITE_SUSTAINED_COST * bytes / 200e6 +
	     bytes * (READ_SUSTAINED_COST / 200e6 + WRITE_SUSTAINED_COST / 200e6) +
	     READ_SUSTAINED_COST * bytes / 200e6 +
	     SEEK_SECONDS + 6 * PHASE_OVERHEAD_S;
	CHECK(near(p.estimate_io_s, io), "-s %gG: I/O %.3f s, want %.3f", gib, p.estimate_io_s, io);
	CHECK(p.estimate_files_s > 0 && p.estimate_files_s <= FILE_MIN_BUDGET + 1e-9,
	      "-s %gG: the file tests %.2f s, at most %g", gib, p.estimate_files_s,
	      FILE_MIN_BUDGET);
	est = plan_estimate(&p, &c, 1);
	CHECK(est - io < 120, "-s %gG: %.0f s over the I/O phases' %.0f s", gib, est - io, io);
	CHECK(near(est, RUN_OVERHEAD_S + p.estimate_io_s + p.estimate_files_s),
	      "-s %gG: estimate %.3f is its parts", gib, est);
}

/*
 * A slow device without -s: each phase at the calibrated cost, capped at
 * its box; a write cut at its box shortens the file the later phases
 * find. Returns the I/O seconds the test computes for a file of size bytes.
 */
static double boxed_io(double bytes, double wbps, double rbps)
{
	double w = WRITE_SUSTAINED_COST * bytes / wbps, rw, r, pc;

	if (w > BOX_WRITE_S) {
		bytes *= BOX_WRITE_S / w;
		w = BOX_WRITE_S + BOX_FLUSH_S;
	}
	/* a rewrite cut at its box leaves the file as the write made it */
	rw = bytes * (READ_SUSTAINED_COST / rbps + WRITE_SUSTAINED_COST / wbps);
	if (rw > BOX_REWRITE_S)
		rw = BOX_REWRITE_S + BOX_FLUSH_S;
	r = READ_SUSTAINED_COST * bytes / rbps;
	if (r > BOX_READ_S)
		r = BOX_READ_S;
	pc = 3 * MIB * 1e-6;
	if (pc > BOX_PERCHAR_S)
		pc = BOX_PERCHAR_S;
	return 2 * pc + w + rw + r + SEEK_SECONDS + 6 * PHASE_OVERHEAD_S;
}

static void slow_device(void)
{
	struct clyde_options o;
	struct run_plan p;
	struct calibration c = cal(500, 5, 50, 10, 100);
	double io;

	defaults(&o);
	build(&p, &o, 100 * (uint64_t)GIB, 100000000);
	plan_calibrate(&p, &o, &c);
	/* a slow writer: the file is never cut, the write stops at its box */
	io = boxed_io(4 * GIB, 10e6, 100e6);
	CHECK(p.file_bytes == 4096ull << 20, "slow: file %llu MiB",
	      (unsigned long long)(p.file_bytes >> 20));
	CHECK(strstr(p.size_note, "stop at their time boxes") != NULL, "slow: %s", p.size_note);
	CHECK(plan_phase_limit(&p, PH_PUT_BLOCK) == BOX_WRITE_S, "slow: write box");
	CHECK(plan_phase_limit(&p, PH_GET_BLOCK) == BOX_READ_S, "slow: read box");
	CHECK(plan_phase_limit(&p, PH_SEEKS) == 0, "slow: seeks are timed, not boxed");
	CHECK(3 * MIB * 1e-6 > BOX_PERCHAR_S, "the test's per-char phases hit their box");
	CHECK(near(p.estimate_io_s, io), "slow: I/O %.3f s, want %.3f", p.estimate_io_s, io);
	CHECK(p.phase_est_s[PH_PUT_BLOCK] == BOX_WRITE_S + BOX_FLUSH_S + PHASE_OVERHEAD_S,
	      "slow: the write's estimate %.3f", p.phase_est_s[PH_PUT_BLOCK]);
	CHECK(p.estimate_seconds == 0, "plan_calibrate leaves the total to its caller");
	CHECK(plan_estimate(&p, &c, 1) < 90 - c.seconds, "slow: a default run under 90 s: %.1f",
	      plan_estimate(&p, &c, 1));

	/* cold reads twenty times slower than the writes: every box binds */
	c = cal(500, 5, 50, 100, 5);
	build(&p, &o, 100 * (uint64_t)GIB, 100000000);
	plan_calibrate(&p, &o, &c);
	CHECK(p.file_bytes == 4096ull << 20, "slow reads: file %llu MiB",
	      (unsigned long long)(p.file_bytes >> 20));
	io = boxed_io(4 * GIB, 100e6, 5e6);
	CHECK(near(p.estimate_io_s, io), "slow reads: I/O %.3f s, want %.3f", p.estimate_io_s, io);
	CHECK(p.phase_est_s[PH_GET_BLOCK] == BOX_READ_S + PHASE_OVERHEAD_S,
	      "slow reads: the read's estimate %.3f", p.phase_est_s[PH_GET_BLOCK]);
}

/* A 1 ms create in a default run: bonnie++'s count, the creates stop at their boxes. */
static void slow_create(void)
{
	struct clyde_options o;
	struct run_plan p;
	struct calibration c = cal(1000, 2, 10, 1000, 1000);
	double n = 16 * 1024.0, pass = n * 2e-6, stat, del, files;

	defaults(&o);
	build(&p, &o, 100 * (uint64_t)GIB, 100000000);
	plan_calibrate(&p, &o, &c);
	CHECK(p.files == DEFAULT_FILES, "1 ms create: %u x 1024 files", p.files);
	CHECK(p.files_calibrated, "1 ms create: calibrated");
	CHECK(p.stat_min_s == MIN_REPORT_SECONDS, "no -n: the stat phases last 0.5 s");
	CHECK(plan_phase_limit(&p, PH_SEQ_CREATE) == BOX_CREATE_S, "no -n: a create box");
	stat = ceil(MIN_REPORT_SECONDS / pass) * pass;
	del = n * 10e-6 + c.sync_s;
	files = 2 * (BOX_CREATE_S + PHASE_OVERHEAD_S) + 2 * (stat + PHASE_OVERHEAD_S) +
		2 * (del + PHASE_OVERHEAD_S);
	CHECK(near(p.estimate_files_s, files), "1 ms create: files %.4f s, want %.4f",
	      p.estimate_files_s, files);
	CHECK(near(p.phase_est_s[PH_SEQ_STAT], stat + PHASE_OVERHEAD_S),
	      "the stat phase's whole passes: %.4f", p.phase_est_s[PH_SEQ_STAT]);
}

/* -n given: nothing of the above. */
static void files_given(void)
{
	struct clyde_options o;
	struct run_plan p;
	struct calibration c = cal(1000, 2, 10, 1000, 1000);

	defaults(&o);
	o.files_given = true;
	o.files = 7;
	build(&p, &o, 100 * (uint64_t)GIB, 100000000);
	plan_calibrate(&p, &o, &c);
	CHECK(p.files == 7, "-n 7: %u", p.files);
	CHECK(!p.files_calibrated && p.stat_min_s == 0 && plan_phase_limit(&p, PH_SEQ_CREATE) == 0,
	      "-n: no passes, no boxes");
	CHECK(p.plus_when_short[PH_SEQ_STAT], "-n: bonnie++'s +++++");
}

static void few_inodes(void)
{
	struct clyde_options o;
	struct run_plan p;
	struct calibration c = cal(20, 2, 10, 1000, 1000);

	defaults(&o);
	build(&p, &o, 100 * (uint64_t)GIB, 5000);
	plan_calibrate(&p, &o, &c);
	CHECK(p.files == 2, "5000 free inodes: %u x 1024 files, want 2", p.files);
	CHECK(strstr(p.files_note, "half the free inodes") != NULL, "%s", p.files_note);
	build(&p, &o, 100 * (uint64_t)GIB, 1000);
	plan_calibrate(&p, &o, &c);
	CHECK(p.files == 0 && !p.run[PH_SEQ_CREATE] && !p.run[PH_RAN_DEL],
	      "1000 free inodes: no file tests (%u)", p.files);
	o.concurrency = 4;
	build(&p, &o, 100 * (uint64_t)GIB, 20000);
	plan_calibrate(&p, &o, &c);
	CHECK(p.files == 2, "4 workers, 20000 inodes: %u x 1024 each, want 2", p.files);
}

/* Nothing measured (zeros, NaN): a default count, never a wrapped one. */
static void nothing_measured(void)
{
	struct clyde_options o;
	struct run_plan p;
	struct calibration c = { 0 };

	defaults(&o);
	build(&p, &o, 100 * (uint64_t)GIB, UINT64_MAX);
	plan_calibrate(&p, &o, &c);
	CHECK(p.files == DEFAULT_FILES, "zeros: %u", p.files);
	c = cal(NAN, NAN, NAN, 100, 100);
	build(&p, &o, 100 * (uint64_t)GIB, UINT64_MAX);
	plan_calibrate(&p, &o, &c);
	CHECK(p.files == DEFAULT_FILES, "NaN: %u", p.files);
	/* a budget far below zero: 1 s a file */
	c = cal(1e6, 1e6, 1e6, 0.001, 0.001);
	o.size_given = true;
	o.size_bytes = 40ull << 30;
	build(&p, &o, 400 * (uint64_t)GIB, UINT64_MAX);
	plan_calibrate(&p, &o, &c);
	CHECK(p.files == 1, "a budget far below zero: %u x 1024 files, want 1", p.files);
}

static void noisy_batches(void)
{
	uint64_t even[16], spread[16], drift[16];
	double s;

	for (int i = 0; i < 16; i++) {
		even[i] = 1000000 + (uint64_t)(i % 3) * 10000;
		spread[i] = i % 2 ? 1000000 : 3000000;
		drift[i] = i < 8 ? 1000000 : 2000000;
	}
	CHECK(!calibrate_batches_noisy(even, 16, &s), "even batches are not noisy");
	CHECK(s >= 1 && s < 1.05, "even: spread %.3f", s);
	CHECK(calibrate_batches_noisy(spread, 16, &s), "spread batches are noisy (%.2f)", s);
	CHECK(calibrate_batches_noisy(drift, 16, &s), "a first half unlike the second is noisy");
	CHECK(calibrate_batches_noisy(even, 3, &s), "three batches are too few");
}

/* The space -d must hold: each worker's file and its file tests' files, 4 KiB each at least. */
static void space(void)
{
	struct clyde_options o;
	struct run_plan p;

	defaults(&o);
	o.size_given = true;
	o.size_bytes = 64ull << 20;
	o.files_given = true;
	o.files = 2;
	o.file_max = 8192;
	o.file_min = 4096;	/* 6 KiB on average: 8 KiB of blocks */
	o.concurrency = 3;
	build(&p, &o, 100 * (uint64_t)GIB, 100000000);
	CHECK(plan_space_bytes(&p) == (64ull << 20) * 3 + 8192ull * 2 * 1024 * 3,
	      "space: %llu", (unsigned long long)plan_space_bytes(&p));
	o.file_max = 0;
	build(&p, &o, 100 * (uint64_t)GIB, 100000000);
	CHECK(plan_space_bytes(&p) == (64ull << 20) * 3, "space of empty files");
}

int main(void)
{
	huge_size(12);
	huge_size(40);
	slow_device();
	slow_create();
	files_given();
	few_inodes();
	nothing_measured();
	noisy_batches();
	space();
	return unit_verdict("unit_plan");
}
