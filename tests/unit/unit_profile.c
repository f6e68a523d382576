// SPDX-License-Identifier: BSD-2-Clause
/*
 * --profile's arithmetic on recorded snapshots: Linux's /proc and /sys
 * text as this machine wrote it, the groups, the deltas of tasks that
 * appear, exit or reuse a pid, counters that go back, and the sums that
 * must close: groups plus unattributed time equal the machine's user,
 * nice and system time, and the states add up to the machine's total.
 */
#include "config.h"

#include <errno.h>
#include <math.h>

#include "profile/profile.h"
#include "unit.h"

#define NEAR(a, b) (fabs((a) - (b)) < 1e-9)

/* Recorded from Linux 6.18 (/proc/PID/stat of a kworker, a shell). */
static const char *const kworker_line =
	"6226 (kworker/u8:0-btrfs-endio-write) I 2 0 0 0 -1 69238880 0 0 0 0 0 24 0 0 20 0 1 0 "
	"986230 0 0 18446744073709551615 0 0 0 0 0 0 0 2147483647 0 1 0 0 17 1 0 0 0 0 0 0 0 0 0 "
	"0 0 0 0\n";
static const char *const bash_line =
	"27223 (bash) S 27222 27223 27223 0 -1 4194560 13988 899044 1 382 22 48 3813 4926 20 0 1 "
	"0 955534 5382144 1023 18446744073709551615 94547315388416 94547316177821 140732772910064 "
	"0 0 0 65536 4 1132560123 1 0 0 17 1 0 0 0 0 0 94547316411120 94547316459364 "
	"94547764752384 140732772916025 140732772916040 140732772916040 140732772917226 0\n";
/* A process may name itself with spaces and parentheses. */
static const char *const odd_line =
	"4242 (a) b (c) S 1 4242 4242 0 -1 4194304 0 0 0 0 7 5 0 0 20 0 1 0 1234 0 0\n";

static void test_parse_task(void)
{
	struct prof_task t;

	CHECK(!prof_parse_task_stat(kworker_line, &t), "kworker line");
	CHECK(t.pid == 6226 && t.kthread && t.ticks == 24 && t.start == 986230,
	      "pid %d kthread %d ticks %llu start %llu", t.pid, t.kthread,
	      (unsigned long long)t.ticks, (unsigned long long)t.start);
	CHECK_STR(t.comm, "kworker/u8:0-btrfs-endio-write");
	CHECK(!prof_parse_task_stat(bash_line, &t), "bash line");
	CHECK(t.pid == 27223 && !t.kthread && t.ticks == 22 + 48 && t.start == 955534,
	      "bash: pid %d kthread %d ticks %llu", t.pid, t.kthread, (unsigned long long)t.ticks);
	CHECK(!prof_parse_task_stat(odd_line, &t), "odd comm");
	CHECK_STR(t.comm, "a) b (c");
	CHECK(t.ticks == 12 && t.start == 1234, "odd: ticks %llu", (unsigned long long)t.ticks);
	CHECK(prof_parse_task_stat("garbage", &t) == -EINVAL, "garbage refused");
	CHECK(prof_parse_task_stat("12 (x) S 1 2", &t) == -EINVAL, "a cut line refused");
}

static void test_parse_stat(void)
{
	struct prof_cpu_lines l = { 0 };
	const char *text =
		"cpu  342134 106349 608118 818557 37996 0 8231 0 0 0\n"
		"cpu0 159156 55337 283371 445345 14193 0 3140 0 0 0\n"
		"cpu1 182977 51012 324746 373212 23802 0 5091 7 0 0\n"
		"intr 1 2 3\nctxt 99\nbtime 1700000000\n";

	CHECK(prof_parse_proc_stat(text, &l) == 2, "two CPUs, got %u", l.n);
	CHECK(l.v[0][CPU_USER] == 159156 && l.v[1][CPU_SOFTIRQ] == 5091 && l.v[1][CPU_STEAL] == 7,
	      "values");
	/* Kernels without steal: the missing states read as 0. */
	CHECK(prof_parse_proc_stat("cpu0 1 2 3 4 5 6 7\n", &l) == 1 && l.v[0][CPU_STEAL] == 0 &&
	      l.v[0][CPU_SOFTIRQ] == 7, "seven fields");
	CHECK(prof_parse_proc_stat("cpu 1 2 3 4\n", &l) == -EINVAL, "no per-CPU line");
	CHECK(prof_parse_proc_stat("cpu0 1 2\n", &l) == -EINVAL, "too few fields");
	free(l.v);
}

static void test_parse_disk(void)
{
	struct prof_dev_counters c;

	CHECK(!prof_parse_diskstat(" 1208843   187925 487867804   376865   694633   614073 "
				   "597066149  2613286        0   430056  3174785   126735 51 "
				   "173495304    49438    21539   135195\n", &c), "diskstat");
	CHECK(c.rd_ios == 1208843 && c.rd_bytes == 487867804ull * 512 && c.wr_ios == 694633 &&
	      c.wr_bytes == 597066149ull * 512 && c.busy_ms == 430056, "fields");
	/* fields 12 to 15: discards, merged, sectors, ticks (Linux 4.18) */
	CHECK(c.discard_known && c.discard_ios == 126735 && c.discard_bytes == 173495304ull * 512,
	      "discards: %d %llu %llu", c.discard_known, (unsigned long long)c.discard_ios,
	      (unsigned long long)c.discard_bytes);
	/* a kernel before 4.18: eleven fields, discards unknown, not 0 */
	CHECK(!prof_parse_diskstat("10 0 80 5 20 0 160 9 0 14 14\n", &c) && !c.discard_known &&
	      c.rd_bytes == 80 * 512 && c.busy_ms == 14, "eleven fields");
	CHECK(prof_parse_diskstat("1 2 3\n", &c) == -EINVAL, "short line refused");
}

static void test_classify(void)
{
	CHECK(prof_classify("jbd2/loop0-8", true) == PROF_FS, "jbd2");
	CHECK(prof_classify("xfsaild/loop1", true) == PROF_FS, "xfsaild");
	CHECK(prof_classify("btrfs-transaction", true) == PROF_FS, "btrfs thread");
	CHECK(prof_classify("z_wr_iss", true) == PROF_FS, "z_wr_iss");
	CHECK(prof_classify("txg_sync", true) == PROF_FS, "txg_sync");
	CHECK(prof_classify("zfs-fuse", false) == PROF_FS, "the zfs-fuse daemon");
	CHECK(prof_classify("kworker/u8:0-btrfs-endio-write", true) == PROF_FS, "btrfs kworker");
	CHECK(prof_classify("kworker/u8:2+flush-7:0", true) == PROF_WRITEBACK, "running flush");
	CHECK(prof_classify("kworker/R-writeback", true) == PROF_WRITEBACK, "writeback rescuer");
	CHECK(prof_classify("kworker/0:1H-kblockd", true) == PROF_BLOCK, "kblockd");
	CHECK(prof_classify("kworker/u8:3-loop0", true) == PROF_BLOCK, "loop");
	CHECK(prof_classify("kworker/1:2-events", true) == PROF_KWORKER, "events");
	CHECK(prof_classify("kworker/1:2", true) == PROF_KWORKER, "unnamed");
	CHECK(!prof_kworker_named("kworker/1:2") && prof_kworker_named("kworker/1:2-events"),
	      "named or not");
	CHECK(prof_classify("kswapd0", true) == PROF_KSWAPD, "kswapd");
	CHECK(prof_classify("rcu_preempt", true) == PROF_KTHREAD, "rcu");
	CHECK(prof_classify("bash", false) == PROF_OTHER, "a shell");
	CHECK(prof_classify("xfs_io", false) == PROF_OTHER, "a user process named like xfs");
}

static struct prof_task task(int pid, bool kthread, const char *comm, uint64_t ticks,
			     uint64_t start)
{
	struct prof_task t = { .pid = pid, .kthread = kthread, .ticks = ticks, .start = start };

	snprintf(t.comm, sizeof(t.comm), "%s", comm);
	return t;
}

/* Two snapshots of a 2-CPU machine one second apart (100 ticks a second). */
static void test_compute(void)
{
	struct prof_sampler p = { .hz = 100, .task_hz = 100, .self_pid = 500 };
	uint64_t c0[2][CPU_STATES] = {
		{ 1000, 10, 500, 9000, 40, 3, 20, 0 },
		{ 1100, 0, 400, 9100, 50, 2, 10, 0 },
	};
	/* CPU0: user 40 system 30 idle 20 iowait 5 irq 1 softirq 4 = 100 ticks. */
	/* CPU1: user 30 system 20 idle 45 iowait -10 (back: 0) softirq 5 = 100. */
	uint64_t c1[2][CPU_STATES] = {
		{ 1040, 10, 530, 9020, 45, 4, 24, 0 },
		{ 1130, 0, 420, 9145, 40, 2, 15, 0 },
	};
	struct prof_task t0[] = {
		task(2, true, "kthreadd", 5, 1),
		task(40, true, "jbd2/loop0-8", 100, 50),
		task(41, true, "kworker/u8:0-btrfs-endio-write", 10, 60),
		task(42, true, "kworker/1:2", 0, 61),	/* named at the end only */
		task(43, true, "kworker/0:0-events", 3, 62),	/* named at the start only */
		task(77, false, "cron", 1000, 70),	/* exits */
		task(88, false, "old88", 50, 80),	/* pid reused */
		task(500, false, "clyde", 200, 90),
	};
	struct prof_task t1[] = {
		task(2, true, "kthreadd", 5, 1),
		task(40, true, "jbd2/loop0-8", 115, 50),			/* fs 15 */
		task(41, true, "kworker/u8:0-btrfs-endio-write", 30, 60),	/* fs 20 */
		task(42, true, "kworker/1:2+flush-7:0", 7, 61),		/* writeback 7 */
		task(43, true, "kworker/0:0", 5, 62),			/* events: kworker 2 */
		task(88, false, "new88", 4, 150),			/* other 4, new */
		task(99, false, "bash", 6, 120),			/* other 6, new */
		task(500, false, "clyde", 260, 90),			/* clyde 60 */
	};
	struct prof_snapshot a = { 0 }, b = { 0 };
	struct prof_phase out;
	double busy, groups = 0, total_states = 0;

	for (int i = 0; i < CPU_STATES; i++)
		p.cpu_known[i] = true;
	p.devs.state = PROF_DEV_MEASURED;
	p.devs.count = 1;
	for (int i = 0; i < PERF_COUNTERS; i++)
		p.perf_fd[i] = i < PERF_FIRST_HW ? 3 : -1;
	snprintf(p.perf_hw_why, sizeof(p.perf_hw_why), "not exposed (ENOENT)");
	a.t = 10.0;
	b.t = 11.0;
	a.machine_valid = b.machine_valid = true;
	a.cpus.n = b.cpus.n = 2;
	a.cpus.v = c0;
	b.cpus.v = c1;
	a.tasks_valid = b.tasks_valid = true;
	a.tasks = t0;
	a.ntasks = sizeof(t0) / sizeof(t0[0]);
	b.tasks = t1;
	b.ntasks = sizeof(t1) / sizeof(t1[0]);
	a.self_user = 1.0;
	a.self_sys = 1.0;
	b.self_user = 1.25;
	b.self_sys = 1.35;
	a.uring_valid = b.uring_valid = true;
	a.uring_ticks = 3;
	b.uring_ticks = 13;
	a.perf[PERF_TASK_CLOCK] = 1000;
	b.perf[PERF_TASK_CLOCK] = 600001000;
	a.dev_valid = b.dev_valid = true;
	a.dev[0] = (struct prof_dev_counters){ .rd_ios = 1, .rd_bytes = 512, .wr_ios = 10,
					       .wr_bytes = 1 << 20, .busy_ms = 5 };
	b.dev[0] = (struct prof_dev_counters){ .rd_ios = 1, .rd_bytes = 512, .wr_ios = 30,
					       .wr_bytes = 3 << 20, .busy_ms = 505 };
	a.cost_cpu = 0.001;
	b.cost_cpu = 0.002;

	prof_compute(&p, &a, &b, &out);
	CHECK(out.valid && out.machine_valid && out.groups_valid, "valid");
	CHECK(NEAR(out.window_s, 1.0), "window %g", out.window_s);
	CHECK(NEAR(out.sampler_cpu_s, 0.003), "sampler %g", out.sampler_cpu_s);
	CHECK(NEAR(out.self_user_s, 0.25) && NEAR(out.self_sys_s, 0.35), "rusage deltas");
	CHECK(NEAR(out.uring_s, 0.10), "io_uring threads %g", out.uring_s);
	CHECK(NEAR(out.cpu_s[CPU_USER], 0.70) && NEAR(out.cpu_s[CPU_SYSTEM], 0.50),
	      "user %g system %g", out.cpu_s[CPU_USER], out.cpu_s[CPU_SYSTEM]);
	/* CPU1's iowait went from 50 to 40: clamped at 0 and said, CPU0's 5 kept. */
	CHECK(out.cpu_backwards && NEAR(out.cpu_s[CPU_IOWAIT], 0.05), "iowait %g",
	      out.cpu_s[CPU_IOWAIT]);
	CHECK(NEAR(out.cpu_s[CPU_SOFTIRQ], 0.09) && NEAR(out.cpu_s[CPU_IRQ], 0.01), "irq");
	for (int i = 0; i < CPU_STATES; i++)
		total_states += out.cpu_s[i];
	CHECK(NEAR(total_states, out.machine_total_s), "states add up to the total");
	/* 2 CPUs for 1 s. */
	CHECK(NEAR(out.machine_total_s, 2.0), "total %g", out.machine_total_s);
	CHECK(NEAR(out.group_s[PROF_CLYDE], 0.60), "clyde %g", out.group_s[PROF_CLYDE]);
	CHECK(NEAR(out.group_s[PROF_FS], 0.35), "fs %g", out.group_s[PROF_FS]);
	CHECK(NEAR(out.group_s[PROF_WRITEBACK], 0.07), "writeback %g", out.group_s[PROF_WRITEBACK]);
	CHECK(NEAR(out.group_s[PROF_KWORKER], 0.02), "kworker by its start name %g",
	      out.group_s[PROF_KWORKER]);
	CHECK(NEAR(out.group_s[PROF_OTHER], 0.10), "other %g", out.group_s[PROF_OTHER]);
	CHECK(out.tasks_new == 2 && out.tasks_exited == 1, "new %u exited %u", out.tasks_new,
	      out.tasks_exited);
	/* The sum that must close: groups + unattributed = user + nice + system. */
	busy = out.cpu_s[CPU_USER] + out.cpu_s[CPU_NICE] + out.cpu_s[CPU_SYSTEM];
	for (int g = 0; g < PROF_GROUPS; g++)
		groups += out.group_s[g];
	CHECK(NEAR(groups + out.unattributed_s, busy), "groups %g + unattributed %g != busy %g",
	      groups, out.unattributed_s, busy);
	/* 1.20 s busy, 1.14 s in the tasks seen twice: cron ran 0.06 s and exited. */
	CHECK(NEAR(out.unattributed_s, 0.06), "unattributed %g", out.unattributed_s);
	/* Caused: clyde's rusage 0.60 + kernel groups 0.44 + irq 0.01 + softirq 0.09. */
	CHECK(NEAR(prof_caused_s(&out), 1.14), "caused %g", prof_caused_s(&out));
	CHECK(NEAR(prof_self_s(&out), 0.60), "self %g", prof_self_s(&out));
	CHECK(out.ntop >= 3 && !strcmp(out.top[0].name, "kworker btrfs-endio-write") &&
	      out.top[0].group == PROF_FS && NEAR(out.top[0].s, 0.20),
	      "top: %s %g", out.ntop ? out.top[0].name : "-", out.ntop ? out.top[0].s : 0);
	for (unsigned k = 0; k < out.ntop; k++)
		CHECK(out.top[k].group != PROF_OTHER, "other processes are not in the top");
	CHECK(out.perf_valid[PERF_TASK_CLOCK] && out.perf[PERF_TASK_CLOCK] == 600000000,
	      "task clock");
	CHECK(!out.perf_valid[PERF_CYCLES] && !strcmp(out.perf_hw_why, "not exposed (ENOENT)"),
	      "cycles not exposed");
	CHECK(out.dev_valid && out.dev.wr_bytes == 2 << 20 && out.dev.wr_ios == 20 &&
	      out.dev.busy_ms == 500 && out.dev.rd_bytes == 0, "device deltas");
	/* counters without the discard fields: the phase's discards are unknown, not 0 */
	CHECK(!out.dev.discard_known, "discards unknown");

	/* Without the process list: caused is unknown, never a guess. */
	b.tasks_valid = false;
	snprintf(p.tasks_why, sizeof(p.tasks_why), "per-process CPU is not read on this system");
	prof_compute(&p, &a, &b, &out);
	CHECK(!out.groups_valid && prof_caused_s(&out) < 0, "caused unknown");
	CHECK_STR(out.groups_why, "per-process CPU is not read on this system");
	b.machine_valid = false;
	prof_compute(&p, &a, &b, &out);
	CHECK(!out.machine_valid && out.machine_why[0], "machine unknown");
}

/* The bit of the background row of this name; 0 if there is none. */
static uint32_t background_bit(const char *name)
{
	const struct prof_background *b;

	for (unsigned i = 0; (b = prof_background_row(i)); i++)
		if (!strcmp(b->name, name))
			return UINT32_C(1) << i;
	return 0;
}

/* prof_compute's background over the tasks of two snapshots */
static uint32_t background_over(struct prof_task *ta, size_t na, struct prof_task *tb, size_t nb)
{
	struct prof_sampler p = { .hz = 100, .task_hz = 100, .self_pid = 500 };
	struct prof_snapshot a = { .t = 1.0, .tasks_valid = true, .tasks = ta, .ntasks = na };
	struct prof_snapshot b = { .t = 2.0, .tasks_valid = true, .tasks = tb, .ntasks = nb };
	struct prof_phase out;

	prof_compute(&p, &a, &b, &out);
	return out.background;
}

/*
 * A file system's background work, whose device I/O no phase caused
 * (issue 41): a kernel thread by its name at the start or the end, a
 * kworker by its workqueue; a user process of the same name is not it.
 */
static void test_background(void)
{
	const uint32_t lazy = background_bit("ext4lazyinit"), discard = background_bit("btrfs-discard");
	struct prof_task start[] = {
		task(60, true, "ext4lazyinit", 3, 10),			/* gone at the end */
		task(61, false, "ext4lazyinit", 1, 11),			/* a user's process */
		task(62, true, "kworker/u8:1-btrfs-endio-write", 5, 12),
	};
	struct prof_task end[] = {
		task(61, false, "ext4lazyinit", 2, 11),
		task(62, true, "kworker/u8:1-btrfs-discard", 9, 12),	/* its queue at the end */
	};

	CHECK(lazy && discard && lazy != discard, "the rows: %#x %#x", lazy, discard);
	CHECK(background_over(start, 3, end, 2) == (lazy | discard), "both: %#x",
	      background_over(start, 3, end, 2));
	CHECK(background_over(start + 1, 2, end, 1) == 0, "a user's ext4lazyinit, endio: %#x",
	      background_over(start + 1, 2, end, 1));
	CHECK(background_over(start + 1, 1, end + 1, 1) == discard, "discard at the end: %#x",
	      background_over(start + 1, 1, end + 1, 1));
	CHECK(background_over(start, 1, end, 0) == lazy, "lazy init at the start: %#x",
	      background_over(start, 1, end, 0));
	CHECK(!prof_background_row(32), "at most 32 rows");
}

int main(void)
{
	test_parse_task();
	test_parse_stat();
	test_parse_disk();
	test_classify();
	test_compute();
	test_background();
	return unit_verdict("unit_profile");
}
