// SPDX-License-Identifier: BSD-2-Clause
/*
 * One real calibrate() on a scratch tmpfs (/dev/shm): every figure
 * positive and within reason, its private directory gone after, and a
 * plan from it. A SKIP where there is no /dev/shm.
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "clyde/calibrate.h"
#include "clyde/options.h"
#include "clyde/plan.h"
#include "unit.h"

#define GIB (1024ull * 1024 * 1024)

/* One real calibration on a tmpfs: every figure positive and within reason. */
int main(void)
{
	char dir[] = "/dev/shm/clyde-unit-plan.XXXXXX", err[512] = "";
	struct clyde_options o;
	struct calibration c;
	struct run_plan p;
	int ret;

	if (access("/dev/shm", W_OK) || !mkdtemp(dir)) {
		printf("unit_calibrate: SKIP: no writable /dev/shm (a tmpfs) here\n");
		return 77;
	}
	options_defaults(&o);
	o.dir = dir;
	o.engine = "psync";
	ret = plan_build_space(&p, &o, GIB, UINT64_MAX, err, sizeof(err));
	CHECK(ret == 0, "plan_build_space: %d %s", ret, err);
	ret = calibrate(&p, true, true, &c, err, sizeof(err));
	CHECK(ret == 0, "calibrate: %d %s", ret, err);
	CHECK(c.create_s > 0 && c.create_s < 0.01, "create %.2f us", c.create_s * 1e6);
	CHECK(c.stat_s > 0 && c.stat_s < 0.01, "stat %.2f us", c.stat_s * 1e6);
	CHECK(c.delete_s > 0 && c.delete_s < 0.01, "delete %.2f us", c.delete_s * 1e6);
	CHECK(c.write_bps > 1e6 && c.read_bps > 1e6, "write %.0f, read %.0f B/s", c.write_bps,
	      c.read_bps);
	CHECK(c.syscall_s > 0 && c.syscall_s < 1e-3, "syscall %.2f us", c.syscall_s * 1e6);
	CHECK(c.create_batches >= 1 && c.create_batches <= 64, "%u batches", c.create_batches);
	CHECK(c.seconds > 0 && c.seconds < 30, "took %.2f s", c.seconds);
	CHECK(rmdir(dir) == 0, "the calibration left nothing in %s", dir);
	plan_calibrate(&p, &o, &c);
	CHECK(p.files >= 1 && p.files <= DEFAULT_FILES, "tmpfs: %u x 1024 files", p.files);
	CHECK(p.estimate_files_s > 0 && p.estimate_io_s > 0, "tmpfs: an estimate of each part");
	/*
	 * The seek trial is an estimate: where it fails (here its threads
	 * cannot start, as when pthread_create fails), the calibration
	 * stands, the seeks not measured and the note saying why; the run
	 * went on to fail with exit 2.
	 */
	/*
	 * On a tmpfs the trial never reads (the page cache is the file
	 * system): on the build tree's file system, where one can drop it.
	 */
	CHECK(mkdtemp(strcpy(dir, "clyde-unit-calibrate.XXXXXX")) != NULL, "mkdtemp");
	o.dir = dir;
	ret = plan_build_space(&p, &o, GIB, UINT64_MAX, err, sizeof(err));
	CHECK(ret == 0, "plan_build_space: %d %s", ret, err);
	setenv("CLYDE_TEST_SEEK_TRIAL_FAIL", "1", 1);
	ret = calibrate(&p, true, false, &c, err, sizeof(err));
	unsetenv("CLYDE_TEST_SEEK_TRIAL_FAIL");
	CHECK(ret == 0, "a failed seek trial: calibrate %d %s", ret, err);
	CHECK(c.write_bps > 1e6, "the block trial stands: write %.0f B/s", c.write_bps);
	if (strstr(c.seek_note, "page cache"))
		printf("unit_calibrate: the seek trial's failure not reached: %s\n", c.seek_note);
	else
		CHECK(c.seek_s == 0 && strstr(c.seek_note, "failed"), "not measured: %g s, "
		      "note '%s'", c.seek_s, c.seek_note);
	CHECK(rmdir(dir) == 0, "the failed trial left nothing in %s", dir);
	return unit_verdict("unit_calibrate");
}

