// SPDX-License-Identifier: BSD-2-Clause
/*
 * The plan's calibrated counts and estimate, from made-up calibrations:
 * a slow device, a huge -s without -n, few free inodes, a 1 ms create,
 * a calibration that measured nothing; and the noisy-batch rule
 * (tests/unit_calibrate runs a real calibration).
 */
#include "config.h"

#include <ctype.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "clyde/calibrate.h"
#include "clyde/options.h"
#include "core/phase.h"
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

/*
 * Every phase's estimate, exactly, in plans that reach each branch of the
 * model: a write cut at its box or --stonewall (the file shortened, the
 * flush), no box (-s), no per-char (-D, a 1-byte write measured at 0 s),
 * a fixed seek count, a random create's directories, the stat passes, the
 * tree phases (none). The values are what plan.c gave when its models
 * moved into the phase rows; a deliberate change to the model changes
 * them, and the failure prints the case's new values to paste. Equal to
 * 1e-12 of the value, far past the JSON's 9 digits: a compiler that fuses
 * a multiply and an add (clang on arm64) may round the last bit otherwise.
 */
struct pinned {
	const char *args;	/* clyde's options after -d and --engine=psync */
	double create_us, stat_us, delete_us, write_mbs, read_mbs, syscall_s;
	uint32_t files;		/* the calibrated or given count, x 1024 */
	double io, file_tests, total;
	double est[PH_COUNT];
};

static const struct pinned pinned[] = {
	{ "", 500, 5, 50, 10, 100, 1e-6,
	  16, 25.600000000000001, 9.4052799999999994, 35.305280000000003,
	  {
		[PH_PUTC] = 3.1000000000000001, [PH_PUT_BLOCK] = 8.8499999999999996,
		[PH_REWRITE] = 8.8499999999999996, [PH_GETC] = 3.1000000000000001,
		[PH_GET_BLOCK] = 0.59999999999999998, [PH_SEEKS] = 1.1000000000000001,
		[PH_SEQ_CREATE] = 3.1000000000000001, [PH_SEQ_STAT] = 0.67343999999999993,
		[PH_SEQ_DEL] = 0.92919999999999991, [PH_RAN_CREATE] = 3.1000000000000001,
		[PH_RAN_STAT] = 0.67343999999999993, [PH_RAN_DEL] = 0.92919999999999991,
	  } },
	{ "-c 2", 500, 5, 50, 100, 5, 1e-6,
	  16, 31.100000000000001, 11.207520000000001, 42.607520000000001,
	  {
		[PH_PUTC] = 3.1000000000000001, [PH_PUT_BLOCK] = 8.8499999999999996,
		[PH_REWRITE] = 8.8499999999999996, [PH_GETC] = 3.1000000000000001,
		[PH_GET_BLOCK] = 6.0999999999999996, [PH_SEEKS] = 1.1000000000000001,
		[PH_SEQ_CREATE] = 3.1000000000000001, [PH_SEQ_STAT] = 0.75535999999999992,
		[PH_SEQ_DEL] = 1.7484, [PH_RAN_CREATE] = 3.1000000000000001,
		[PH_RAN_STAT] = 0.75535999999999992, [PH_RAN_DEL] = 1.7484,
	  } },
	{ "-s 12G", 100, 2, 10, 200, 200, 1e-6,
	  16, 845.43367167999997, 6.6446559999999995, 852.37832767999998,
	  {
		[PH_PUTC] = 3.2457280000000002, [PH_PUT_BLOCK] = 257.79803776,
		[PH_REWRITE] = 418.85931135999999, [PH_GETC] = 3.2693209599999995,
		[PH_GET_BLOCK] = 161.16127359999999, [PH_SEEKS] = 1.1000000000000001,
		[PH_SEQ_CREATE] = 1.7484, [PH_SEQ_STAT] = 0.62428799999999995,
		[PH_SEQ_DEL] = 0.27383999999999997, [PH_RAN_CREATE] = 3.1000000000000001,
		[PH_RAN_STAT] = 0.62428799999999995, [PH_RAN_DEL] = 0.27383999999999997,
	  } },
	{ "-s 256M -n 2 -c 3 --stonewall=1", 20, 2, 10, 50, 80, 1e-6,
	  2, 7.4906249999999996, 1.0470572032000001, 8.8376822032,
	  {
		[PH_PUTC] = 1.1000000000000001, [PH_PUT_BLOCK] = 1.8500000000000001,
		[PH_REWRITE] = 1.8500000000000001, [PH_GETC] = 1.1000000000000001,
		[PH_GET_BLOCK] = 0.49062499999999998, [PH_SEEKS] = 1.1000000000000001,
		[PH_SEQ_CREATE] = 0.23288, [PH_SEQ_STAT] = 0.112288,
		[PH_SEQ_DEL] = 0.17143999999999998, [PH_RAN_CREATE] = 0.24672120320000002,
		[PH_RAN_STAT] = 0.112288, [PH_RAN_DEL] = 0.17143999999999998,
	  } },
	{ "-D -s 1024:8192:4000", 20, 2, 10, 1000, 1000, 1e-6,
	  16, 15.358643712000001, 2.9668950015999993, 18.625538713600001,
	  {
		[PH_PUT_BLOCK] = 4.3949672959999999, [PH_REWRITE] = 7.079321856,
		[PH_GET_BLOCK] = 2.7843545600000001, [PH_SEEKS] = 1.1000000000000001,
		[PH_SEQ_CREATE] = 0.43767999999999996, [PH_SEQ_STAT] = 0.62428799999999995,
		[PH_SEQ_DEL] = 0.27383999999999997, [PH_RAN_CREATE] = 0.73295900159999994,
		[PH_RAN_STAT] = 0.62428799999999995, [PH_RAN_DEL] = 0.27383999999999997,
	  } },
	{ "-s 64M -n 300", 20, 2, 10, 1000, 1000, 1e-6,
	  300, 8.7685898239999993, 87.884799999999984, 96.953389823999984,
	  {
		[PH_PUTC] = 3.2457280000000002, [PH_PUT_BLOCK] = 0.36843545600000005,
		[PH_REWRITE] = 0.536207616, [PH_GETC] = 3.2504465919999999,
		[PH_GET_BLOCK] = 0.26777216000000004, [PH_SEEKS] = 1.1000000000000001,
		[PH_SEQ_CREATE] = 6.2539999999999987, [PH_SEQ_STAT] = 0.71439999999999992,
		[PH_SEQ_DEL] = 3.1819999999999995, [PH_RAN_CREATE] = 73.837999999999994,
		[PH_RAN_STAT] = 0.71439999999999992, [PH_RAN_DEL] = 3.1819999999999995,
	  } },
	{ "-s 64M -n 100:0:0:4 -c 2", 20, 2, 10, 1000, 1000, 1e-6,
	  100, 15.937179647999999, 19.514367999999997, 35.751547647999999,
	  {
		[PH_PUTC] = 6.3914559999999998, [PH_PUT_BLOCK] = 0.63687091200000001,
		[PH_REWRITE] = 0.97241523200000002, [PH_GETC] = 6.4008931839999992,
		[PH_GET_BLOCK] = 0.43554431999999998, [PH_SEEKS] = 1.1000000000000001,
		[PH_SEQ_CREATE] = 4.2059999999999995, [PH_SEQ_STAT] = 0.50959999999999994,
		[PH_SEQ_DEL] = 2.1579999999999999, [PH_RAN_CREATE] = 9.9731679999999976,
		[PH_RAN_STAT] = 0.50959999999999994, [PH_RAN_DEL] = 2.1579999999999999,
	  } },
	{ "", 20, 2, 10, 1000, 1000, 0,
	  16, 24.004718592, 2.9668950015999993, 27.271613593600001,
	  {
		[PH_PUT_BLOCK] = 8.8499999999999996, [PH_REWRITE] = 8.8499999999999996,
		[PH_GETC] = 0.104718592, [PH_GET_BLOCK] = 5.0999999999999988,
		[PH_SEEKS] = 1.1000000000000001, [PH_SEQ_CREATE] = 0.43767999999999996,
		[PH_SEQ_STAT] = 0.62428799999999995, [PH_SEQ_DEL] = 0.27383999999999997,
		[PH_RAN_CREATE] = 0.73295900159999994, [PH_RAN_STAT] = 0.62428799999999995,
		[PH_RAN_DEL] = 0.27383999999999997,
	  } },
	{ "--tree=ports:0.01 -c 2", 1000, 2, 10, 1000, 1000, 1e-6,
	  16, 30.099999999999998, 8.3239359999999998, 38.723935999999995,
	  {
		[PH_PUTC] = 3.1000000000000001, [PH_PUT_BLOCK] = 8.8499999999999996,
		[PH_REWRITE] = 8.8499999999999996, [PH_GETC] = 3.1000000000000001,
		[PH_GET_BLOCK] = 5.0999999999999988, [PH_SEEKS] = 1.1000000000000001,
		[PH_SEQ_CREATE] = 3.1000000000000001, [PH_SEQ_STAT] = 0.62428799999999995,
		[PH_SEQ_DEL] = 0.43767999999999996, [PH_RAN_CREATE] = 3.1000000000000001,
		[PH_RAN_STAT] = 0.62428799999999995, [PH_RAN_DEL] = 0.43767999999999996,
	  } },
	{ "-s 64M -n 1 --stonewall=2", 20, 2, 10, 1000, 1000, 1e-6,
	  1, 6.4724152319999995, 0.70668943360000003, 7.4791046655999995,
	  {
		[PH_PUTC] = 2.1000000000000001, [PH_PUT_BLOCK] = 0.36843545600000005,
		[PH_REWRITE] = 0.536207616, [PH_GETC] = 2.1000000000000001,
		[PH_GET_BLOCK] = 0.26777216000000004, [PH_SEEKS] = 1.1000000000000001,
		[PH_SEQ_CREATE] = 0.13048000000000001, [PH_SEQ_STAT] = 0.102048,
		[PH_SEQ_DEL] = 0.12024000000000001, [PH_RAN_CREATE] = 0.13163343360000002,
		[PH_RAN_STAT] = 0.102048, [PH_RAN_DEL] = 0.12024000000000001,
	  } },
	{ "--stonewall=20", 500, 5, 50, 10, 100, 1e-6,
	  16, 25.600000000000001, 9.4052799999999994, 35.305280000000003,
	  {
		[PH_PUTC] = 3.1000000000000001, [PH_PUT_BLOCK] = 8.8499999999999996,
		[PH_REWRITE] = 8.8499999999999996, [PH_GETC] = 3.1000000000000001,
		[PH_GET_BLOCK] = 0.59999999999999998, [PH_SEEKS] = 1.1000000000000001,
		[PH_SEQ_CREATE] = 3.1000000000000001, [PH_SEQ_STAT] = 0.67343999999999993,
		[PH_SEQ_DEL] = 0.92919999999999991, [PH_RAN_CREATE] = 3.1000000000000001,
		[PH_RAN_STAT] = 0.67343999999999993, [PH_RAN_DEL] = 0.92919999999999991,
	  } },
};

static bool pinned_equal(double got, double want)
{
	return fabs(got - want) <= 1e-12 * fabs(want);
}

static void pinned_print(const struct pinned *want, const struct run_plan *p, double total)
{
	fprintf(stderr, "\t{ \"%s\", %g, %g, %g, %g, %g, %g,\n\t  %u, %.17g, %.17g, %.17g,\n\t  {",
		want->args, want->create_us, want->stat_us, want->delete_us, want->write_mbs,
		want->read_mbs, want->syscall_s, p->files, p->estimate_io_s,
		p->estimate_files_s, total);
	for (int i = 0; i < PH_COUNT; i++) {
		char id[32];

		if (!p->phase_est_s[i])
			continue;
		snprintf(id, sizeof(id), "%s", phase_csv_name((enum phase_id)i));
		for (char *c = id; *c; c++)
			*c = (char)toupper((unsigned char)*c);
		fprintf(stderr, " [PH_%s] = %.17g,", id, p->phase_est_s[i]);
	}
	fprintf(stderr, " } },\n");
}

static void pinned_case(const struct pinned *want)
{
	char line[256], err[256] = "", *argv[32] = { "clyde", "-d", "/nonexistent-never-read",
						     "--engine=psync" };
	int argc = 4;
	bool bad = false;
	struct clyde_options o;
	struct run_plan p;
	struct calibration c = cal(want->create_us, want->stat_us, want->delete_us,
				   want->write_mbs, want->read_mbs);
	double total;

	snprintf(line, sizeof(line), "%s", want->args);
	for (char *a = strtok(line, " "); a && argc < 31; a = strtok(NULL, " "))
		argv[argc++] = a;
	argv[argc] = NULL;
	options_defaults(&o);
	CHECK(options_parse(&o, argc, argv, err, sizeof(err)) == 0, "'%s': %s", want->args, err);
	c.syscall_s = want->syscall_s;
	build(&p, &o, 100 * (uint64_t)GIB, 100000000);
	plan_calibrate(&p, &o, &c);
	total = plan_estimate(&p, &c, 1);
	CHECK(p.files == want->files, "'%s': %u x 1024 files, want %u", want->args, p.files,
	      want->files);
	CHECK(pinned_equal(p.estimate_io_s, want->io), "'%s': I/O phases %.17g s, want %.17g",
	      want->args, p.estimate_io_s, want->io);
	CHECK(pinned_equal(p.estimate_files_s, want->file_tests),
	      "'%s': file tests %.17g s, want %.17g", want->args, p.estimate_files_s,
	      want->file_tests);
	CHECK(pinned_equal(total, want->total), "'%s': estimate %.17g s, want %.17g", want->args,
	      total, want->total);
	for (int i = 0; i < PH_COUNT; i++) {
		bool same = pinned_equal(p.phase_est_s[i], want->est[i]);

		CHECK(same, "'%s': %s %.17g s, want %.17g", want->args,
		      phase_csv_name((enum phase_id)i), p.phase_est_s[i], want->est[i]);
		bad |= !same;
	}
	if (bad || !pinned_equal(p.estimate_io_s, want->io) ||
	    !pinned_equal(p.estimate_files_s, want->file_tests))
		pinned_print(want, &p, total);
}

static void pinned_estimates(void)
{
	for (size_t i = 0; i < sizeof(pinned) / sizeof(pinned[0]); i++)
		pinned_case(&pinned[i]);
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
	pinned_estimates();
	return unit_verdict("unit_plan");
}
