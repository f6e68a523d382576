// SPDX-License-Identifier: BSD-2-Clause
/*
 * --profile on the BSDs, all read with sysctl; no perf_event_open.
 *
 * - CPU states (user, nice, system, interrupt, idle; no iowait, softirq
 *   or steal): FreeBSD kern.cp_times, CPUSTATES longs per CPU id up to
 *   mp_maxid (kern.cp_time, one row, where absent); NetBSD kern.cp_time
 *   given room for hw.ncpu rows (room for one gets the sum: sys/kern/
 *   init_sysctl.c sysctl_kern_cptime()); both in ticks of kern.clockrate's
 *   stathz (its hz when 0). DragonFly kern.cputime, a struct kinfo_cputime
 *   per CPU in microseconds (sys/kern/kern_clock.c statclock()).
 * - Processes, user + system time: FreeBSD kern.proc.proc, a struct
 *   kinfo_proc per process, ki_rusage.ru_utime + ru_stime in microseconds,
 *   which calcru() splits from the run time by the statclock's user,
 *   system and interrupt ticks: interrupt time stays out, as it does from
 *   CP_USER + CP_NICE + CP_SYS (ki_runtime keeps it). NetBSD kern.proc2,
 *   p_uticks + p_sticks, counted by statclock() with CP_USER/CP_NICE and
 *   CP_SYS, stathz ticks. DragonFly kern.proc.all_lwp, kl_uticks +
 *   kl_sticks in microseconds summed over a process's LWPs (kern.proc.all
 *   carries the first LWP only). Kernel threads: FreeBSD P_KPROC, NetBSD
 *   P_SYSTEM, DragonFly pid 0 and -1 (init has P_SYSTEM on FreeBSD and
 *   DragonFly). DragonFly's pure kernel threads all say pid -1: one task
 *   per name, with a negative pid made from it. Idle threads are charged
 *   system ticks while idle, so FreeBSD's "idle" process and DragonFly's
 *   "idle_N" threads are left out (NetBSD charges its idle LWPs nothing).
 * - Disk: FreeBSD and DragonFly kern.devstat.all (a long generation, then
 *   a struct devstat per device, named device_name + unit_number); NetBSD
 *   hw.iostats (a struct io_sysctl per device, sys/kern/subr_iostat.c).
 *   Busy time: devstat's busy_time, iostat's time_sec + time_usec.
 */
#include "config.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/param.h>
#include <sys/time.h>
#include <sys/resource.h>
#include <sys/mount.h>
#ifdef HAVE_SYS_SYSCTL_H
#include <sys/sysctl.h>
#endif
#if defined(__FreeBSD__)
#include <sys/user.h>
#include <sys/devicestat.h>
#elif defined(__DragonFly__)
#include <sys/user.h>
#include <sys/kinfo.h>
#include <sys/devicestat.h>
#elif defined(__NetBSD__)
#include <sys/sched.h>
#include <sys/iostat.h>
#include <sys/statvfs.h>
#endif

#include "lib/grow.h"
#include "lib/strutil.h"
#include "profile/profile.h"
#include "sys/fsinfo.h"
#include "sys/sysinfo.h"

#if defined(__FreeBSD__) || defined(__DragonFly__) || defined(__NetBSD__)
/*
 * A sysctl of any length into a new buffer (free it), by mib or by name;
 * 0 or -errno. Room is left for entries that appear between the size
 * query and the read. count_size: NetBSD's KERN_PROC2 takes the number of
 * entries wanted as the last mib element.
 */
static int sysctl_alloc(int *mib, u_int miblen, const char *name, size_t count_size,
			void **out, size_t *outlen)
{
	size_t len, room;
	void *buf;
	int tries, err;

	*out = NULL;
	for (tries = 0; tries < 4; tries++) {
		len = 0;
		if (mib ? sysctl(mib, miblen, NULL, &len, NULL, 0) :
			  sysctlbyname(name, NULL, &len, NULL, 0))
			return -errno;
		room = len + len / 4 + 4096;
		buf = malloc(room);
		if (!buf)
			return -ENOMEM;
		if (count_size)
			mib[miblen - 1] = (int)(room / count_size);
		len = room;
		if (!(mib ? sysctl(mib, miblen, buf, &len, NULL, 0) :
			    sysctlbyname(name, buf, &len, NULL, 0))) {
			*out = buf;
			*outlen = len;
			return 0;
		}
		err = errno;
		free(buf);
		if (err != ENOMEM && err != EBUSY)	/* EBUSY: devstat list changed */
			return -err;
	}
	return -ENOMEM;
}

/* n rows of zeros in c; -EIO for none. */
static int cpu_rows(struct prof_cpu_lines *c, size_t n)
{
	if (!n)
		return -EIO;
	if (array_reserve(&c->v, &c->cap, n, sizeof(*c->v)))
		return -ENOMEM;
	memset(c->v, 0, n * sizeof(*c->v));
	c->n = (unsigned)n;
	return 0;
}

static void cpu_row(uint64_t *v, uint64_t user, uint64_t nice, uint64_t sys, uint64_t intr,
		    uint64_t idle)
{
	v[CPU_USER] = user;
	v[CPU_NICE] = nice;
	v[CPU_SYSTEM] = sys;
	v[CPU_IRQ] = intr;
	v[CPU_IDLE] = idle;
}

static int tasks_reserve(struct prof_snapshot *s, size_t n)
{
	return array_reserve(&s->tasks, &s->cap, n, sizeof(*s->tasks)) ? -ENOMEM : 0;
}

/* Room for it was reserved; comm need not end within commlen. */
static void task_add(struct prof_snapshot *s, int pid, bool kthread, const char *comm,
		     size_t commlen, uint64_t ticks)
{
	struct prof_task *t = &s->tasks[s->ntasks++];
	size_t n = strnlen(comm, commlen < PROF_COMM_LEN ? commlen : PROF_COMM_LEN - 1);

	memcpy(t->comm, comm, n);
	t->comm[n] = '\0';
	t->pid = pid;
	t->kthread = kthread;
	t->ticks = ticks;
	t->start = 0;
}
#endif

#if defined(__FreeBSD__) || defined(__NetBSD__)
/* The statclock's rate: kern.clockrate's stathz, or hz where it has none; 0 unknown. */
static double clockrate_stathz(char *why, size_t len)
{
	struct clockinfo ci;
	size_t n = sizeof(ci);
	int err = sysctlbyname("kern.clockrate", &ci, &n, NULL, 0) ? errno : 0;

	if (!err && n != sizeof(ci))
		err = EINVAL;
	if (err) {
		snprintf(why, len, "kern.clockrate: %s", strerror(err));
		return 0;
	}
	return ci.stathz ? ci.stathz : ci.hz;
}
#endif

#if defined(__FreeBSD__)
static void os_clock(struct prof_sampler *p)
{
	p->hz = clockrate_stathz(p->machine_why, sizeof(p->machine_why));
	p->task_hz = 1e6;
}

static int os_cpu_read(struct prof_cpu_lines *c, const char **what)
{
	long *t, *r;
	size_t sz, i, n = 0;
	int err;

	*what = "kern.cp_times";
	err = sysctl_alloc(NULL, 0, *what, 0, (void **)&t, &sz);
	if (err == -ENOENT) {
		*what = "kern.cp_time";
		err = sysctl_alloc(NULL, 0, *what, 0, (void **)&t, &sz);
	}
	if (!err)
		err = cpu_rows(c, sz / (CPUSTATES * sizeof(long)));
	/* CPU ids up to mp_maxid that are absent count nothing, ever */
	for (i = 0, r = t; !err && i < c->n; i++, r += CPUSTATES)
		if (r[CP_USER] | r[CP_NICE] | r[CP_SYS] | r[CP_INTR] | r[CP_IDLE])
			cpu_row(c->v[n++], r[CP_USER], r[CP_NICE], r[CP_SYS], r[CP_INTR],
				r[CP_IDLE]);
	free(t);
	if (!err)
		c->n = (unsigned)n;
	return err ? err : n ? 0 : -EIO;
}

static uint64_t tv_us(const struct timeval *tv)
{
	return tv->tv_sec < 0 ? 0 : (uint64_t)tv->tv_sec * 1000000 + (uint64_t)tv->tv_usec;
}

static int os_tasks(struct prof_snapshot *s, const char **what)
{
	int mib[3] = { CTL_KERN, KERN_PROC, KERN_PROC_PROC };
	struct kinfo_proc *kp;
	size_t sz, n, i;
	int err;

	*what = "kern.proc.proc";
	err = sysctl_alloc(mib, 3, *what, 0, (void **)&kp, &sz);
	n = err ? 0 : sz / sizeof(*kp);
	if (n && kp[0].ki_structsize != (int)sizeof(*kp))
		err = -EPROTO;		/* another kernel's struct kinfo_proc */
	if (!err)
		err = tasks_reserve(s, n);
	for (i = 0; !err && i < n; i++) {
		bool kthread = kp[i].ki_flag & P_KPROC;	/* init has P_SYSTEM too */

		if (kthread && !strcmp(kp[i].ki_comm, "idle"))
			continue;
		task_add(s, kp[i].ki_pid, kthread, kp[i].ki_comm, sizeof(kp[i].ki_comm),
			 tv_us(&kp[i].ki_rusage.ru_utime) + tv_us(&kp[i].ki_rusage.ru_stime));
	}
	free(kp);
	return err;
}

static void devstat_counters(const struct devstat *d, struct prof_dev_counters *c)
{
	c->rd_ios = d->operations[DEVSTAT_READ];
	c->rd_bytes = d->bytes[DEVSTAT_READ];
	c->wr_ios = d->operations[DEVSTAT_WRITE];
	c->wr_bytes = d->bytes[DEVSTAT_WRITE];
	/* a bintime's frac counts 2^-64 s */
	c->busy_ms = (uint64_t)d->busy_time.sec * 1000 +
		     (((d->busy_time.frac >> 32) * 1000) >> 32);
}
#elif defined(__DragonFly__)
static void os_clock(struct prof_sampler *p)
{
	p->hz = 1e6;		/* kern.cputime counts microseconds */
	p->task_hz = 1e6;
}

static int os_cpu_read(struct prof_cpu_lines *c, const char **what)
{
	struct kinfo_cputime *t;
	size_t sz, i;
	int err;

	*what = "kern.cputime";
	err = sysctl_alloc(NULL, 0, *what, 0, (void **)&t, &sz);
	if (!err)
		err = cpu_rows(c, sz / sizeof(*t));
	for (i = 0; !err && i < c->n; i++)
		cpu_row(c->v[i], t[i].cp_user, t[i].cp_nice, t[i].cp_sys, t[i].cp_intr,
			t[i].cp_idle);
	free(t);
	return err;
}

/* A pure kernel thread's stand-in pid: negative, from its name (FNV-1a). */
static int kthread_pid(const char *comm, size_t len)
{
	uint32_t h = 2166136261u;
	size_t i;

	for (i = 0; i < len && comm[i]; i++)
		h = (h ^ (unsigned char)comm[i]) * 16777619u;
	return -2 - (int)(h % 0x3fffffff);
}

static int os_tasks(struct prof_snapshot *s, const char **what)
{
	int mib[3] = { CTL_KERN, KERN_PROC, KERN_PROC_ALL | KERN_PROC_FLAG_LWP };
	struct kinfo_proc *kp;
	size_t sz, n, i, j, kthreads = 0;
	int err;

	*what = "kern.proc.all_lwp";
	err = sysctl_alloc(mib, 3, *what, 0, (void **)&kp, &sz);
	n = err ? 0 : sz / sizeof(*kp);
	if (!err)
		err = tasks_reserve(s, n);
	for (i = 0; !err && i < n; i++) {
		const struct kinfo_proc *k = &kp[i];
		struct prof_task *t = NULL;
		int pid = k->kp_pid;

		if (pid == -1 && !strncmp(k->kp_comm, "idle_", 5))
			continue;
		if (pid == -1) {
			kthreads = kthreads ? kthreads : s->ntasks + 1;
			pid = kthread_pid(k->kp_comm, sizeof(k->kp_comm));
			for (j = kthreads - 1; j < s->ntasks && !t; j++)
				t = s->tasks[j].pid == pid ? &s->tasks[j] : NULL;
		} else if (s->ntasks && s->tasks[s->ntasks - 1].pid == pid) {
			t = &s->tasks[s->ntasks - 1];	/* a process's LWPs come together */
		}
		if (t)
			t->ticks += k->kp_lwp.kl_uticks + k->kp_lwp.kl_sticks;
		else
			task_add(s, pid, k->kp_pid <= 0, k->kp_comm, sizeof(k->kp_comm),
				 k->kp_lwp.kl_uticks + k->kp_lwp.kl_sticks);
	}
	free(kp);
	return err;
}

static void devstat_counters(const struct devstat *d, struct prof_dev_counters *c)
{
	c->rd_ios = d->num_reads;
	c->rd_bytes = d->bytes_read;
	c->wr_ios = d->num_writes;
	c->wr_bytes = d->bytes_written;
	c->busy_ms = (uint64_t)d->busy_time.tv_sec * 1000 + (uint64_t)d->busy_time.tv_usec / 1000;
}
#elif defined(__NetBSD__)
static void os_clock(struct prof_sampler *p)
{
	p->hz = clockrate_stathz(p->machine_why, sizeof(p->machine_why));
	p->task_hz = p->hz;	/* p_uticks and p_sticks are statclock ticks */
}

static int os_cpu_read(struct prof_cpu_lines *c, const char **what)
{
	int mib[2] = { CTL_HW, HW_NCPU }, ncpu = 0;
	size_t sz = sizeof(ncpu), i;
	uint64_t *t, *r;
	int err = 0;

	*what = "kern.cp_time";
	if (sysctl(mib, 2, &ncpu, &sz, NULL, 0) || ncpu < 1)
		ncpu = 1;
	sz = (size_t)ncpu * CPUSTATES * sizeof(*t);
	t = malloc(sz);
	if (!t)
		err = -ENOMEM;
	else if (sysctlbyname(*what, t, &sz, NULL, 0))
		err = -errno;
	if (!err)
		err = cpu_rows(c, sz / (CPUSTATES * sizeof(*t)));	/* the rows written */
	for (i = 0, r = t; !err && i < c->n; i++, r += CPUSTATES)
		cpu_row(c->v[i], r[CP_USER], r[CP_NICE], r[CP_SYS], r[CP_INTR], r[CP_IDLE]);
	free(t);
	return err;
}

static int os_tasks(struct prof_snapshot *s, const char **what)
{
	int mib[6] = { CTL_KERN, KERN_PROC2, KERN_PROC_ALL, 0, sizeof(struct kinfo_proc2), 0 };
	struct kinfo_proc2 *kp;
	size_t sz, n, i;
	int err;

	*what = "kern.proc2";
	err = sysctl_alloc(mib, 6, *what, sizeof(*kp), (void **)&kp, &sz);
	n = err ? 0 : sz / sizeof(*kp);
	if (!err)
		err = tasks_reserve(s, n);
	for (i = 0; !err && i < n; i++)
		task_add(s, kp[i].p_pid, kp[i].p_flag & P_SYSTEM, kp[i].p_comm,
			 sizeof(kp[i].p_comm), kp[i].p_uticks + kp[i].p_sticks);
	free(kp);
	return err;
}

int prof_os_dev_read(const char *name, struct prof_dev_counters *c)
{
	int mib[3] = { CTL_HW, HW_IOSTATS, sizeof(struct io_sysctl) };
	struct io_sysctl *io;
	size_t sz, n, i;
	int err;

	err = sysctl_alloc(mib, 3, "hw.iostats", 0, (void **)&io, &sz);
	n = err ? 0 : sz / sizeof(*io);
	for (i = 0, err = err ? err : -ENOENT; i < n && err; i++) {
		if (strlen(name) >= IOSTATNAMELEN || strncmp(io[i].name, name, IOSTATNAMELEN))
			continue;
		c->rd_ios = io[i].rxfer;
		c->rd_bytes = io[i].rbytes;
		c->wr_ios = io[i].wxfer;
		c->wr_bytes = io[i].wbytes;
		c->busy_ms = (uint64_t)io[i].time_sec * 1000 + io[i].time_usec / 1000;
		err = 0;
	}
	free(io);
	return err;
}
#else
static void os_clock(struct prof_sampler *p)
{
	p->hz = 0;
	p->task_hz = 0;
}

static int os_cpu_read(struct prof_cpu_lines *c, const char **what)
{
	(void)c;
	*what = "CPU states are not read on this system";
	return -ENOSYS;
}

static int os_tasks(struct prof_snapshot *s, const char **what)
{
	(void)s;
	*what = "per-process CPU is not read on this system";
	return -ENOSYS;
}

int prof_os_dev_read(const char *name, struct prof_dev_counters *c)
{
	(void)name;
	(void)c;
	return -ENOSYS;
}
#endif

#if defined(__FreeBSD__) || defined(__DragonFly__)
int prof_os_dev_read(const char *name, struct prof_dev_counters *c)
{
	struct devstat d;
	char *buf, dn[DEVSTAT_NAME_LEN + 16];
	size_t sz, i, n;
	int err;

	err = sysctl_alloc(NULL, 0, "kern.devstat.all", 0, (void **)&buf, &sz);
	n = err || sz < sizeof(long) ? 0 : (sz - sizeof(long)) / sizeof(d);
	for (i = 0, err = err ? err : -ENOENT; i < n && err; i++) {
		/* copied: after the generation's long it need not be aligned */
		memcpy(&d, buf + sizeof(long) + i * sizeof(d), sizeof(d));
		if (d.unit_number < 0)		/* GEOM providers, named by address */
			continue;
		snprintf(dn, sizeof(dn), "%.*s%d", DEVSTAT_NAME_LEN, d.device_name, d.unit_number);
		if (!strcmp(dn, name)) {
			devstat_counters(&d, c);
			err = 0;
		}
	}
	free(buf);
	return err;
}
#endif

/* "what: strerror", or what alone where the system has nothing to read. */
static int why_of(int err, const char *what, char *why, size_t len)
{
	if (err == -ENOSYS)
		str_copy(why, len, what);
	else if (err)
		snprintf(why, len, "%s: %s", what, strerror(-err));
	return err;
}

void prof_os_clock(struct prof_sampler *p)
{
	static const bool known[CPU_STATES] = {
		[CPU_USER] = true, [CPU_NICE] = true, [CPU_SYSTEM] = true,
		[CPU_IRQ] = true, [CPU_IDLE] = true,
	};

	memcpy(p->cpu_known, known, sizeof(known));
	os_clock(p);
}

int prof_os_machine(struct prof_snapshot *s, char *why, size_t len)
{
	const char *what = "";

	return why_of(os_cpu_read(&s->cpus, &what), what, why, len);
}

int prof_os_tasks(const struct prof_sampler *p, struct prof_snapshot *s, char *why, size_t len)
{
	const char *what = "";
	size_t i;
	int err;

	s->ntasks = 0;
	s->tasks_valid = false;
	s->self_ticks = 0;
	s->uring_ticks = 0;
	s->uring_valid = false;		/* no io_uring on the BSDs */
	err = why_of(os_tasks(s, &what), what, why, len);
	if (err)
		return err;
	for (i = 0; i < s->ntasks; i++)
		if (s->tasks[i].pid == p->self_pid)
			s->self_ticks = s->tasks[i].ticks;
	s->tasks_valid = true;
	return 0;
}

/* Filesystems with no block device under them, by the BSDs' type names. */
static const char *const no_device_types[] = {
	"tmpfs", "mfs", "nullfs", "null", "unionfs", "union", "nfs", "smbfs", "fdescfs",
	"fdesc", "procfs", "linprocfs", "linsysfs", "devfs", "kernfs", "ptyfs",
};

#if defined(__NetBSD__)
typedef struct statvfs mount_stat;
#else
typedef struct statfs mount_stat;
#endif

/* "ada0 also holds /usr, /var": the other mounts whose source is on disk. */
static void mounts_sharing(const char *disk, const char *self, char *out, size_t len)
{
	char other[PROF_DEV_LEN];
	mount_stat *m;
	size_t used;
	int n, i, w;

	out[0] = '\0';
	n = getmntinfo(&m, MNT_NOWAIT);
	for (i = 0; i < n; i++) {
		if (!strcmp(m[i].f_mntonname, self) ||
		    sysinfo_disk_of_source(m[i].f_mntfromname, other, sizeof(other)) ||
		    strcmp(other, disk))
			continue;
		used = strlen(out);
		if (used)
			w = snprintf(out + used, len - used, ", %s", m[i].f_mntonname);
		else
			w = snprintf(out, len, "%s also holds %s", disk, m[i].f_mntonname);
		if (w < 0 || (size_t)w >= len - used) {
			memcpy(out + len - 4, "...", 4);
			break;
		}
	}
}

void prof_os_devices(const char *dir, const struct fsinfo *fs, struct prof_devices *devs)
{
	char disk[PROF_DEV_LEN];
	struct prof_dev_counters c;
	size_t i;
	int err;

	(void)dir;
	memset(devs, 0, sizeof(*devs));
	devs->state = PROF_DEV_UNKNOWN;
	for (i = 0; i < sizeof(no_device_types) / sizeof(no_device_types[0]); i++) {
		if (!strcmp(fs->type, no_device_types[i])) {
			devs->state = PROF_DEV_NONE;
			snprintf(devs->why, sizeof(devs->why), "no block device (%s)", fs->type);
			return;
		}
	}
	if (!strcmp(fs->type, "zfs")) {
		str_copy(devs->why, sizeof(devs->why),
			 "ZFS pool members are not resolved: name them with --profile-dev");
		return;
	}
	if (sysinfo_disk_of_source(fs->source, disk, sizeof(disk)) || !disk[0]) {
		snprintf(devs->why, sizeof(devs->why), "mount source %.60s names no disk: %s",
			 fs->source, "name it with --profile-dev");
		return;
	}
	err = prof_os_dev_read(disk, &c);
	if (err) {
		snprintf(devs->why, sizeof(devs->why), "no I/O counters for %s: %s", disk,
			 err == -ENOENT ? "not in the kernel's disk statistics" : strerror(-err));
		return;
	}
	devs->state = PROF_DEV_MEASURED;
	devs->count = 1;
	str_copy(devs->name[0], sizeof(devs->name[0]), disk);
	str_copy(devs->via, sizeof(devs->via), "mount source");
	mounts_sharing(disk, fs->mountpoint, devs->shared, sizeof(devs->shared));
}

void prof_os_perf_open(struct prof_sampler *p)
{
	static const char why[] = "not available on this system (no perf_event_open)";
	int i;

	for (i = 0; i < PERF_COUNTERS; i++)
		p->perf_fd[i] = -1;
	str_copy(p->perf_sw_why, sizeof(p->perf_sw_why), why);
	str_copy(p->perf_hw_why, sizeof(p->perf_hw_why), why);
}

void prof_os_perf_read(const struct prof_sampler *p, uint64_t v[PERF_COUNTERS])
{
	(void)p;
	memset(v, 0, PERF_COUNTERS * sizeof(v[0]));
}

void prof_os_perf_close(struct prof_sampler *p)
{
	(void)p;
}
