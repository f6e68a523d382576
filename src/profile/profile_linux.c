// SPDX-License-Identifier: BSD-2-Clause
/*
 * --profile on Linux: /proc/stat for the machine (per CPU, in USER_HZ
 * ticks), /proc/PID/stat for every process and kernel thread (a
 * process's figure holds its threads, the exited ones too), this
 * process's io_uring threads from /proc/self/task, /sys/block/DEV/stat
 * for the device, and perf_event_open for the process's counters.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "lib/grow.h"
#include "lib/strutil.h"
#include "profile/profile.h"

void prof_os_clock(struct prof_sampler *p)
{
	long hz = sysconf(_SC_CLK_TCK);

	p->hz = hz > 0 ? (double)hz : 100;
	p->task_hz = p->hz;
	for (int i = 0; i < CPU_STATES; i++)
		p->cpu_known[i] = true;
}

/* A whole small file into buf; its length, or -errno. */
static ssize_t read_at(int dirfd, const char *path, char *buf, size_t len)
{
	int fd = openat(dirfd, path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = read(fd, buf, len - 1);
	if (n < 0)
		n = -errno;
	else
		buf[n] = '\0';
	close(fd);
	return n;
}

int prof_os_machine(struct prof_snapshot *s, char *why, size_t len)
{
	/* /proc/stat grows with the CPUs and interrupts: about 150 bytes a CPU first. */
	size_t size = 1 << 16;
	char *buf = NULL;
	ssize_t n;
	int ret;

	for (;;) {
		char *nb = realloc(buf, size);

		if (!nb) {
			ret = -ENOMEM;
			goto out;
		}
		buf = nb;
		n = read_at(AT_FDCWD, "/proc/stat", buf, size);
		if (n < 0) {
			ret = (int)n;
			snprintf(why, len, "/proc/stat: %s", strerror(-ret));
			goto out;
		}
		/* The per-CPU lines come first: a cut after them loses nothing read. */
		if ((size_t)n < size - 1 || size >= (1 << 24))
			break;
		size *= 2;
	}
	ret = prof_parse_proc_stat(buf, &s->cpus);
	if (ret < 0)
		snprintf(why, len, "/proc/stat: no per-CPU lines read");
	else
		ret = 0;
out:
	free(buf);
	return ret;
}

static int add_task(struct prof_snapshot *s, const struct prof_task *t)
{
	int ret = array_room(&s->tasks, &s->cap, s->ntasks, sizeof(*s->tasks), 512);

	if (ret)
		return ret;
	s->tasks[s->ntasks++] = *t;
	return 0;
}

/* io_uring's workers and SQPOLL thread are threads of the process that made the ring. */
static void uring_threads(struct prof_snapshot *s)
{
	DIR *d = opendir("/proc/self/task");
	struct dirent *e;
	char buf[1024], path[64];

	s->uring_ticks = 0;
	s->uring_valid = d != NULL;
	while (d && (e = readdir(d))) {
		struct prof_task t;

		if (e->d_name[0] < '0' || e->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/self/task/%.20s/stat", e->d_name);
		if (read_at(AT_FDCWD, path, buf, sizeof(buf)) <= 0 || prof_parse_task_stat(buf, &t))
			continue;
		if (!strncmp(t.comm, "iou-wrk-", 8) || !strncmp(t.comm, "iou-sqp-", 8))
			s->uring_ticks += t.ticks;
	}
	if (d)
		closedir(d);
}

int prof_os_tasks(const struct prof_sampler *p, struct prof_snapshot *s, char *why, size_t len)
{
	int procfd = open("/proc", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *d = procfd >= 0 ? fdopendir(procfd) : NULL;
	struct dirent *e;
	char buf[1024], path[40];
	int ret = 0;

	s->ntasks = 0;
	if (!d) {
		ret = -errno;
		snprintf(why, len, "/proc: %s", strerror(-ret));
		if (procfd >= 0)
			close(procfd);
		return ret;
	}
	while ((e = readdir(d))) {
		struct prof_task t;

		if (e->d_name[0] < '0' || e->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "%.20s/stat", e->d_name);
		/* A process that exits while the list is read is simply not in it. */
		if (read_at(procfd, path, buf, sizeof(buf)) <= 0 || prof_parse_task_stat(buf, &t))
			continue;
		ret = add_task(s, &t);
		if (ret) {
			snprintf(why, len, "listing processes: %s", strerror(-ret));
			break;
		}
		if (t.pid == p->self_pid)
			s->self_ticks = t.ticks;
	}
	closedir(d);
	uring_threads(s);
	return ret;
}

/* --- the device --- */

/* /sys/dev/block/M:m to the whole disk's name: a partition's parent. */
static int disk_of_devnum(dev_t dev, char *name, size_t len)
{
	char link[64], real[PATH_MAX], path[PATH_MAX + 16];
	char *slash;

	snprintf(link, sizeof(link), "/sys/dev/block/%u:%u", major(dev), minor(dev));
	if (!realpath(link, real))
		return -errno;
	snprintf(path, sizeof(path), "%s/partition", real);
	if (!access(path, F_OK)) {
		slash = strrchr(real, '/');
		if (slash)
			*slash = '\0';
	}
	slash = strrchr(real, '/');
	str_copy(name, len, slash ? slash + 1 : real);
	return 0;
}

static bool listed(const struct prof_devices *d, const char *name)
{
	for (unsigned i = 0; i < d->count; i++)
		if (!strcmp(d->name[i], name))
			return true;
	return false;
}

/* An md or dm device's I/O is its members' (a mirror writes each twice): count those. */
static void add_disk(struct prof_devices *d, const char *name, int depth)
{
	char path[PATH_MAX];
	struct dirent *e;
	bool members = false;
	DIR *dir;

	snprintf(path, sizeof(path), "/sys/block/%s/slaves", name);
	dir = depth < 4 ? opendir(path) : NULL;
	while (dir && (e = readdir(dir))) {
		char member[PROF_DEV_LEN], mpath[PATH_MAX + 300];
		unsigned ma, mi;
		FILE *f;

		if (e->d_name[0] == '.')
			continue;
		/* The member may be a partition: its dev file names it by number. */
		snprintf(mpath, sizeof(mpath), "%s/%s/dev", path, e->d_name);
		f = fopen(mpath, "re");
		if (!f)
			continue;
		if (fscanf(f, "%u:%u", &ma, &mi) == 2 && !disk_of_devnum(makedev(ma, mi), member,
									 sizeof(member))) {
			members = true;
			add_disk(d, member, depth + 1);
		}
		fclose(f);
	}
	if (dir)
		closedir(dir);
	if (members) {
		if (!d->via[0] || depth == 0)
			snprintf(d->via, sizeof(d->via), "members of %s", name);
		return;
	}
	if (!listed(d, name) && d->count < PROF_MAX_DEVS)
		str_copy(d->name[d->count++], PROF_DEV_LEN, name);
}

static bool type_in(const char *type, const char *const *list)
{
	for (; *list; list++)
		if (!strcmp(type, *list))
			return true;
	return false;
}

static const char *const memory_types[] = { "tmpfs", "ramfs", "devtmpfs", "hugetlbfs", NULL };
static const char *const network_types[] = {
	"nfs", "nfs4", "cifs", "smb3", "smbfs", "9p", "ceph", "glusterfs", "virtiofs", "afs",
	"lustre", "gpfs", "fuse.sshfs", NULL,
};

/* Other filesystems on the same disks: their I/O lands in the same counters. */
static void find_sharers(struct prof_devices *d, dev_t own)
{
	FILE *f = fopen("/proc/self/mountinfo", "re");
	char line[4096];
	size_t used = 0;

	while (f && fgets(line, sizeof(line), f)) {
		unsigned ma, mi;
		char mnt[1024], disk[PROF_DEV_LEN];

		if (sscanf(line, "%*d %*d %u:%u %*s %1023s", &ma, &mi, mnt) != 3 || !ma)
			continue;
		if (makedev(ma, mi) == own || disk_of_devnum(makedev(ma, mi), disk, sizeof(disk)) ||
		    !listed(d, disk))
			continue;
		used += (size_t)snprintf(d->shared + used, sizeof(d->shared) - used, "%s%s",
					 used ? " " : "", mnt);
		if (used >= sizeof(d->shared))
			break;
	}
	if (f)
		fclose(f);
}

void prof_os_devices(const char *dir, const struct fsinfo *fs, struct prof_devices *d)
{
	char disk[PROF_DEV_LEN];
	struct stat st, src;
	dev_t dev = 0;

	memset(d, 0, sizeof(*d));
	if (!stat(dir, &st) && major(st.st_dev)) {
		dev = st.st_dev;
		str_copy(d->via, sizeof(d->via), "the directory's device");
	} else if (!strncmp(fs->source, "/dev/", 5) && !stat(fs->source, &src) &&
		   S_ISBLK(src.st_mode)) {
		/* btrfs gives its files an anonymous device: its mount source is the disk. */
		dev = src.st_rdev;
		str_copy(d->via, sizeof(d->via), "the mount source");
	}
	if (dev && !disk_of_devnum(dev, disk, sizeof(disk))) {
		add_disk(d, disk, 0);
		if (d->count) {
			d->state = PROF_DEV_MEASURED;
			find_sharers(d, dev);
			return;
		}
	}
	if (type_in(fs->type, memory_types)) {
		d->state = PROF_DEV_NONE;
		snprintf(d->why, sizeof(d->why), "no block device (%s keeps files in memory)",
			 fs->type);
	} else if (type_in(fs->type, network_types)) {
		d->state = PROF_DEV_NONE;
		snprintf(d->why, sizeof(d->why), "no block device (%s is a network filesystem)",
			 fs->type);
	} else if (strstr(fs->type, "zfs")) {
		d->state = PROF_DEV_UNKNOWN;
		snprintf(d->why, sizeof(d->why), "the ZFS pool's devices are not resolved: "
			 "name them with --profile-dev");
	} else {
		d->state = PROF_DEV_UNKNOWN;
		snprintf(d->why, sizeof(d->why), "no block device found for %.24s from %.48s: "
			 "name it with --profile-dev", fs->type[0] ? fs->type : "unknown type",
			 fs->source[0] ? fs->source : "?");
	}
}

int prof_os_dev_read(const char *name, struct prof_dev_counters *c)
{
	char path[PROF_DEV_LEN + 32], buf[512];
	ssize_t n;

	if (strchr(name, '/') || name[0] == '.')
		return -EINVAL;
	snprintf(path, sizeof(path), "/sys/block/%s/stat", name);
	n = read_at(AT_FDCWD, path, buf, sizeof(buf));
	if (n < 0)
		return (int)n;
	return prof_parse_diskstat(buf, c);
}

/* --- perf_event_open --- */

static const struct {
	uint32_t type;
	uint64_t config;
} perf_events[PERF_COUNTERS] = {
	[PERF_TASK_CLOCK] = { PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK },
	[PERF_CTX_SWITCHES] = { PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES },
	[PERF_MIGRATIONS] = { PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS },
	[PERF_PAGE_FAULTS] = { PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS },
	[PERF_CYCLES] = { PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES },
	[PERF_INSTRUCTIONS] = { PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS },
};

static void perf_why(char *buf, size_t len, int err)
{
	char paranoid[32] = "?";
	FILE *f;

	switch (err) {
	case ENOENT:
	case EOPNOTSUPP:
		snprintf(buf, len, "not exposed (%s)", err == ENOENT ? "ENOENT" : "EOPNOTSUPP");
		break;
	case EACCES:
	case EPERM:
		f = fopen("/proc/sys/kernel/perf_event_paranoid", "re");
		if (f) {
			if (!fgets(paranoid, sizeof(paranoid), f))
				paranoid[0] = '\0';
			paranoid[strcspn(paranoid, "\n")] = '\0';
			fclose(f);
		}
		snprintf(buf, len, "not permitted (%s; perf_event_paranoid %s)",
			 err == EACCES ? "EACCES" : "EPERM", paranoid);
		break;
	case ENOSYS:
		snprintf(buf, len, "no perf_event_open in this kernel (ENOSYS)");
		break;
	default:
		snprintf(buf, len, "cannot open: %s", strerror(err));
		break;
	}
}

void prof_os_perf_open(struct prof_sampler *p)
{
	/* For the tests: the path a system without perf events takes. */
	bool refuse = getenv("CLYDE_TEST_NO_PERF") != NULL;

	for (int i = 0; i < PERF_COUNTERS; i++) {
		struct perf_event_attr attr;
		char *why = i >= PERF_FIRST_HW ? p->perf_hw_why : p->perf_sw_why;
		long fd;

		memset(&attr, 0, sizeof(attr));
		attr.size = sizeof(attr);
		attr.type = perf_events[i].type;
		attr.config = perf_events[i].config;
		/* Threads made later (the workers, io_uring's) count with the process. */
		attr.inherit = 1;
		attr.exclude_hv = 1;
		errno = ENOSYS;
		fd = refuse ? -1 : syscall(SYS_perf_event_open, &attr, 0, -1, -1,
					   PERF_FLAG_FD_CLOEXEC);
		if (fd < 0) {
			if (!why[0])
				perf_why(why, sizeof(p->perf_sw_why), errno);
			continue;
		}
		p->perf_fd[i] = (int)fd;
	}
	/* Counters of one kind are all open or all reported as not. */
	for (int i = 0; i < PERF_COUNTERS; i++) {
		const char *why = i >= PERF_FIRST_HW ? p->perf_hw_why : p->perf_sw_why;

		if (why[0] && p->perf_fd[i] >= 0) {
			close(p->perf_fd[i]);
			p->perf_fd[i] = -1;
		}
	}
}

void prof_os_perf_read(const struct prof_sampler *p, uint64_t v[PERF_COUNTERS])
{
	for (int i = 0; i < PERF_COUNTERS; i++) {
		uint64_t x = 0;

		/* The count includes the live inherited threads' counts. */
		if (p->perf_fd[i] >= 0 && read(p->perf_fd[i], &x, sizeof(x)) != sizeof(x))
			x = 0;
		v[i] = x;
	}
}

void prof_os_perf_close(struct prof_sampler *p)
{
	for (int i = 0; i < PERF_COUNTERS; i++) {
		if (p->perf_fd[i] >= 0)
			close(p->perf_fd[i]);
		p->perf_fd[i] = -1;
	}
}
