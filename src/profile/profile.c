// SPDX-License-Identifier: BSD-2-Clause
/*
 * --profile's arithmetic: the difference of two snapshots, grouped. Pure
 * functions, with the parsers of Linux's text files, so that the unit
 * tests can feed recorded /proc and /sys contents on any system.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/grow.h"
#include "lib/strutil.h"
#include "profile/profile.h"

static const char *const group_names[PROF_GROUPS] = {
	[PROF_CLYDE] = "clyde",
	[PROF_FS] = "filesystem",
	[PROF_WRITEBACK] = "writeback",
	[PROF_BLOCK] = "block",
	[PROF_KWORKER] = "kworker",
	[PROF_KSWAPD] = "kswapd",
	[PROF_KTHREAD] = "kernel other",
	[PROF_OTHER] = "other processes",
};

const char *prof_group_name(enum prof_group g)
{
	return g < PROF_GROUPS ? group_names[g] : "?";
}

static bool starts(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

/*
 * A kworker's name is "kworker/CPU:ID" while idle and gains "-WQ" (or
 * "+WQ" while running) once it has run work of workqueue WQ: the name
 * tells what it did last, not everything it did.
 */
static const char *kworker_queue(const char *comm)
{
	const char *q;

	if (!starts(comm, "kworker/"))
		return NULL;
	q = strpbrk(comm + 8, "-+");
	return q && q[1] ? q + 1 : NULL;
}

bool prof_kworker_named(const char *comm)
{
	return kworker_queue(comm) != NULL;
}

/* Names that belong to a filesystem's own machinery, thread or workqueue. */
static bool fs_name(const char *n)
{
	static const char *const prefixes[] = {
		"jbd2", "ext4", "xfs", "btrfs", "z_", "txg_", "zfs", "spl_", "arc_",
		"dbu_", "dbuf_", "l2arc", "zthr", "nfsiod", "rpciod", "f2fs", "nilfs",
		"bch", "ocfs2", "gfs2", "dlm", "hfsplus", "fat", "reiserfs",
	};

	for (size_t i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++)
		if (starts(n, prefixes[i]))
			return true;
	return false;
}

static bool block_name(const char *n)
{
	static const char *const prefixes[] = {
		"kblockd", "loop", "dm-", "dm_", "kdmflush", "kcryptd", "md", "raid",
		"nvme", "scsi_", "ata_", "kintegrityd", "blkcg_punt_bio", "virtio",
		"mmc", "nbd", "zram", "bioset", "kverityd", "writeback_throttle",
	};

	for (size_t i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++)
		if (starts(n, prefixes[i]))
			return true;
	return false;
}

static const struct prof_background background_rows[] = {
	/* no comma in these: the notes go to stdout, where bonnie++'s tools take a comma's line for CSV */
	{ "ext4lazyinit", "ext4's lazy init: it zeroes a new file system's inode tables "
	  "after its mount", "mkfs.ext4 -E lazy_itable_init=0 -E lazy_journal_init=0 (or a wait "
	  "until the thread is gone)" },
	{ "btrfs-discard", "btrfs's asynchronous discard of freed extents",
	  "mount -o nodiscard (or discard=sync)" },
};

const struct prof_background *prof_background_row(unsigned i)
{
	return i < sizeof(background_rows) / sizeof(background_rows[0]) ? &background_rows[i] : NULL;
}

/* The background rows a task is: a kernel thread by its name, a kworker by its queue. */
static uint32_t background_of(const struct prof_task *t)
{
	const char *q = kworker_queue(t->comm);
	const char *name = q ? q : t->comm;
	const struct prof_background *b;
	uint32_t bits = 0;

	if (!t->kthread)
		return 0;
	for (unsigned i = 0; (b = prof_background_row(i)); i++)
		if (starts(name, b->name))
			bits |= UINT32_C(1) << i;
	return bits;
}

enum prof_group prof_classify(const char *comm, bool kthread)
{
	const char *q = kworker_queue(comm);

	if (!kthread)
		/* FUSE filesystems live in a daemon: zfs-fuse is ZFS's own. */
		return starts(comm, "zfs-fuse") || starts(comm, "zed") ? PROF_FS : PROF_OTHER;
	if (starts(comm, "kworker/")) {
		if (!q)
			return PROF_KWORKER;
		if (starts(q, "writeback") || starts(q, "flush-"))
			return PROF_WRITEBACK;
		if (fs_name(q))
			return PROF_FS;
		if (block_name(q))
			return PROF_BLOCK;
		return PROF_KWORKER;
	}
	if (starts(comm, "kswapd"))
		return PROF_KSWAPD;
	if (fs_name(comm))
		return PROF_FS;
	if (block_name(comm))
		return PROF_BLOCK;
	return PROF_KTHREAD;
}

/* --- Linux's text files --- */

int prof_parse_proc_stat(const char *text, struct prof_cpu_lines *out)
{
	const char *line = text;

	out->n = 0;
	while (line && *line) {
		const char *next = strchr(line, '\n');
		unsigned long long v[CPU_STATES] = { 0 };
		unsigned cpu;
		int fields;

		/* "cpuN user nice system idle iowait irq softirq steal guest guest_nice" */
		if (starts(line, "cpu") && line[3] >= '0' && line[3] <= '9') {
			fields = sscanf(line, "cpu%u %llu %llu %llu %llu %llu %llu %llu %llu",
					&cpu, &v[CPU_USER], &v[CPU_NICE], &v[CPU_SYSTEM],
					&v[CPU_IDLE], &v[CPU_IOWAIT], &v[CPU_IRQ],
					&v[CPU_SOFTIRQ], &v[CPU_STEAL]);
			/* Kernels before 2.6.11 have no steal, before 2.6 no iowait. */
			if (fields < 5)
				return -EINVAL;
			if (array_room(&out->v, &out->cap, out->n, sizeof(*out->v), 16))
				return -ENOMEM;
			for (int i = 0; i < CPU_STATES; i++)
				out->v[out->n][i] = v[i];
			out->n++;
		}
		line = next ? next + 1 : NULL;
	}
	return out->n ? (int)out->n : -EINVAL;
}

int prof_parse_task_stat(const char *line, struct prof_task *t)
{
	/* "pid (comm) state ppid ..."; comm may hold spaces and parentheses. */
	const char *open = strchr(line, '('), *close = strrchr(line, ')');
	unsigned long long utime, stime, start;
	unsigned long flags;
	char state;
	int pid;
	size_t len;

	if (!open || !close || close < open || sscanf(line, "%d", &pid) != 1)
		return -EINVAL;
	/*
	 * After comm: state(3) ppid pgrp session tty_nr tpgid flags(9)
	 * minflt cminflt majflt cmajflt utime(14) stime(15) cutime cstime
	 * priority nice num_threads itrealvalue starttime(22).
	 */
	if (sscanf(close + 1, " %c %*d %*d %*d %*d %*d %lu %*u %*u %*u %*u %llu %llu "
		   "%*d %*d %*d %*d %*d %*d %llu", &state, &flags, &utime, &stime, &start) != 5)
		return -EINVAL;
	len = (size_t)(close - open - 1);
	if (len >= sizeof(t->comm))
		len = sizeof(t->comm) - 1;
	memcpy(t->comm, open + 1, len);
	t->comm[len] = '\0';
	t->pid = pid;
	t->kthread = flags & 0x00200000;	/* PF_KTHREAD */
	t->ticks = utime + stime;
	t->start = start;
	return 0;
}

int prof_parse_diskstat(const char *line, struct prof_dev_counters *c)
{
	unsigned long long v[14];
	int n;

	/*
	 * reads merged sectors ticks writes merged sectors ticks in_flight
	 * io_ticks time_in_queue, then (Linux 4.18) discards merged sectors
	 * ticks; sectors are 512 bytes whatever the device's own.
	 */
	n = sscanf(line, "%llu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu",
		   &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7], &v[8], &v[9], &v[10],
		   &v[11], &v[12], &v[13]);
	if (n < 10)
		return -EINVAL;
	c->discard_known = n >= 14;
	c->discard_ios = c->discard_known ? v[11] : 0;
	c->discard_bytes = c->discard_known ? v[13] * 512 : 0;
	c->rd_ios = v[0];
	c->rd_bytes = v[2] * 512;
	c->wr_ios = v[4];
	c->wr_bytes = v[6] * 512;
	c->busy_ms = v[9];
	return 0;
}

/* --- the difference of two snapshots --- */

static uint64_t delta(uint64_t a, uint64_t b, bool *backwards)
{
	if (b >= a)
		return b - a;
	*backwards = true;
	return 0;
}

static int cmp_pid(const void *a, const void *b)
{
	const struct prof_task *x = a, *y = b;

	return (x->pid > y->pid) - (x->pid < y->pid);
}

void prof_sort_tasks(struct prof_snapshot *s)
{
	qsort(s->tasks, s->ntasks, sizeof(*s->tasks), cmp_pid);
}

static const struct prof_task *find_task(const struct prof_snapshot *s, int pid)
{
	struct prof_task key = { .pid = pid };

	return s->ntasks ? bsearch(&key, s->tasks, s->ntasks, sizeof(key), cmp_pid) : NULL;
}

static void machine_delta(const struct prof_sampler *p, const struct prof_snapshot *a,
			  const struct prof_snapshot *b, struct prof_phase *out)
{
	uint64_t sum[CPU_STATES] = { 0 };
	unsigned n = a->cpus.n < b->cpus.n ? a->cpus.n : b->cpus.n;

	if (!a->machine_valid || !b->machine_valid || !n) {
		str_copy(out->machine_why, sizeof(out->machine_why),
			 p->machine_why[0] ? p->machine_why : "the machine's counters were not read");
		return;
	}
	/* Per CPU: one CPU's counter going back (iowait may) spoils no other. */
	for (unsigned c = 0; c < n; c++)
		for (int i = 0; i < CPU_STATES; i++)
			sum[i] += delta(a->cpus.v[c][i], b->cpus.v[c][i], &out->cpu_backwards);
	out->machine_valid = true;
	out->ncpu = b->cpus.n;
	out->hz = p->hz;
	out->machine_total_s = 0;
	for (int i = 0; i < CPU_STATES; i++) {
		out->cpu_known[i] = p->cpu_known[i];
		out->cpu_s[i] = (double)sum[i] / p->hz;
		out->machine_total_s += out->cpu_s[i];
	}
}

static void note_top(struct prof_phase *out, const char *comm, enum prof_group g, double s)
{
	unsigned i;

	if (s <= 0)
		return;
	/* The same name in one group (four kworkers of btrfs-endio-write) adds up. */
	for (i = 0; i < out->ntop; i++) {
		if (out->top[i].group == g && !strcmp(out->top[i].name, comm)) {
			out->top[i].s += s;
			goto sort;
		}
	}
	if (out->ntop < PROF_TOP) {
		i = out->ntop++;
	} else {
		i = PROF_TOP - 1;
		if (out->top[i].s >= s)
			return;
	}
	str_copy(out->top[i].name, sizeof(out->top[i].name), comm);
	out->top[i].group = g;
	out->top[i].s = s;
sort:
	while (i > 0 && out->top[i - 1].s < out->top[i].s) {
		struct prof_top t = out->top[i - 1];

		out->top[i - 1] = out->top[i];
		out->top[i] = t;
		i--;
	}
}

/* A kworker's name after its workqueue, without the pool: "kworker btrfs-endio-write". */
static void top_name(const char *comm, char *buf, size_t len)
{
	const char *q = kworker_queue(comm);

	if (q)
		snprintf(buf, len, "kworker %s", q);
	else if (starts(comm, "kworker/"))
		snprintf(buf, len, "kworker (no queue named)");
	else
		str_copy(buf, len, comm);
}

static void task_deltas(const struct prof_sampler *p, const struct prof_snapshot *a,
			const struct prof_snapshot *b, struct prof_phase *out)
{
	uint64_t ticks[PROF_GROUPS] = { 0 }, all = 0;
	bool back = false;

	if (!a->tasks_valid || !b->tasks_valid) {
		str_copy(out->groups_why, sizeof(out->groups_why),
			 p->tasks_why[0] ? p->tasks_why : "processes were not listed");
		return;
	}
	for (size_t i = 0; i < b->ntasks; i++) {
		const struct prof_task *t = &b->tasks[i], *t0 = find_task(a, t->pid), *shown;
		enum prof_group g;
		char name[PROF_COMM_LEN];
		uint64_t d;

		/* A pid reused during the phase is a new task: its start time differs. */
		if (t0 && t0->start && t->start && t0->start != t->start)
			t0 = NULL;
		if (!t0)
			out->tasks_new++;
		d = t0 ? delta(t0->ticks, t->ticks, &back) : t->ticks;
		all += d;
		if (t->pid == p->self_pid) {
			ticks[PROF_CLYDE] += d;
			continue;
		}
		/*
		 * A kworker by the workqueue its name shows at the end, else at
		 * the start; one named at neither is counted as unnamed.
		 */
		shown = t0 && !prof_kworker_named(t->comm) && prof_kworker_named(t0->comm) ? t0 : t;
		g = prof_classify(shown->comm, shown->kthread);
		if (d && starts(shown->comm, "kworker/") && !prof_kworker_named(shown->comm))
			out->kworkers_unnamed++;
		ticks[g] += d;
		/* Other processes are load beside the phase, not its cost: reported apart. */
		if (g == PROF_OTHER)
			continue;
		top_name(shown->comm, name, sizeof(name));
		note_top(out, name, g, (double)d / p->task_hz);
	}
	for (size_t i = 0; i < a->ntasks; i++) {
		if (!find_task(b, a->tasks[i].pid))
			out->tasks_exited++;
		out->background |= background_of(&a->tasks[i]);
	}
	for (size_t i = 0; i < b->ntasks; i++)
		out->background |= background_of(&b->tasks[i]);
	out->groups_valid = true;
	for (int g = 0; g < PROF_GROUPS; g++)
		out->group_s[g] = (double)ticks[g] / p->task_hz;
	if (out->machine_valid) {
		double busy = out->cpu_s[CPU_USER] + out->cpu_s[CPU_NICE] + out->cpu_s[CPU_SYSTEM];

		out->unattributed_s = busy - (double)all / p->task_hz;
	}
}

/* --profile=layers: the split of the window's requests, or why there is none. */
static void prof_layers_compute(const struct prof_sampler *p, const struct prof_snapshot *b,
				double window_s, struct prof_layers *out)
{
	if (!p->layers || !b->layers) {
		layers_unavailable(out, p->layers ? "the kernel's counts could not be read"
					: p->layers_why);
		return;
	}
	layers_summarise(b->layers, p->layers_queue, p->layers_devs, out);
	layers_cost_compute(b->layers, window_s, &out->cost);
}

/* The devices' io_ticks over the window: their busy share, averaged over them. */
static double busy_share(const struct prof_phase *pp)
{
	if (!pp->dev_valid || pp->window_s <= 0 || !pp->devs.count)
		return -1;
	return (double)pp->dev.busy_ms / 1e3 / pp->window_s / pp->devs.count;
}

void prof_compute(const struct prof_sampler *p, const struct prof_snapshot *a,
		     const struct prof_snapshot *b, struct prof_phase *out)
{
	bool back = false;

	memset(out, 0, sizeof(*out));
	out->valid = true;
	out->window_s = b->t - a->t;
	out->sampler_cpu_s = a->cost_cpu + b->cost_cpu;
	out->sampler_wall_s = a->cost_wall + b->cost_wall;
	out->self_user_s = b->self_user - a->self_user;
	out->self_sys_s = b->self_sys - a->self_sys;
	out->uring_s = a->uring_valid && b->uring_valid
		       ? (double)delta(a->uring_ticks, b->uring_ticks, &back) / p->task_hz : -1;
	out->nvcsw = delta(a->nvcsw, b->nvcsw, &back);
	out->nivcsw = delta(a->nivcsw, b->nivcsw, &back);
	out->minflt = delta(a->minflt, b->minflt, &back);
	out->majflt = delta(a->majflt, b->majflt, &back);
	machine_delta(p, a, b, out);
	task_deltas(p, a, b, out);
	str_copy(out->perf_sw_why, sizeof(out->perf_sw_why), p->perf_sw_why);
	str_copy(out->perf_hw_why, sizeof(out->perf_hw_why), p->perf_hw_why);
	for (int i = 0; i < PERF_COUNTERS; i++) {
		out->perf_valid[i] = p->perf_fd[i] >= 0;
		out->perf[i] = out->perf_valid[i] ? delta(a->perf[i], b->perf[i], &back) : 0;
	}
	out->devs = p->devs;
	if (p->devs.state == PROF_DEV_MEASURED && a->dev_valid && b->dev_valid) {
		out->dev_valid = true;
		out->dev.discard_known = true;
		for (unsigned d = 0; d < p->devs.count; d++) {
			const struct prof_dev_counters *x = &a->dev[d], *y = &b->dev[d];

			out->dev.discard_known &= x->discard_known && y->discard_known;
			out->dev.discard_ios += delta(x->discard_ios, y->discard_ios, &back);
			out->dev.discard_bytes += delta(x->discard_bytes, y->discard_bytes, &back);

			out->dev.rd_ios += delta(x->rd_ios, y->rd_ios, &back);
			out->dev.rd_bytes += delta(x->rd_bytes, y->rd_bytes, &back);
			out->dev.wr_ios += delta(x->wr_ios, y->wr_ios, &back);
			out->dev.wr_bytes += delta(x->wr_bytes, y->wr_bytes, &back);
			out->dev.busy_ms += delta(x->busy_ms, y->busy_ms, &back);
		}
	}
	out->cpu_backwards |= back;
	if (p->layers_asked) {
		prof_layers_compute(p, b, out->window_s, &out->layers);
		out->layers.busy_share = busy_share(out);
	}
}

double prof_self_s(const struct prof_phase *pp)
{
	return pp->self_user_s + pp->self_sys_s;
}

double prof_caused_s(const struct prof_phase *pp)
{
	double caused = prof_self_s(pp);

	if (!pp->machine_valid || !pp->groups_valid)
		return -1;
	/*
	 * clyde's process, the kernel's threads and interrupt time: what
	 * the phase made the machine do. Other processes are load beside
	 * it; unattributed time is the uncertainty, reported apart.
	 */
	for (int g = 0; g < PROF_GROUPS; g++)
		if (g != PROF_CLYDE && g != PROF_OTHER)
			caused += pp->group_s[g];
	caused += pp->cpu_s[CPU_IRQ];
	if (pp->cpu_known[CPU_SOFTIRQ])
		caused += pp->cpu_s[CPU_SOFTIRQ];
	return caused;
}
