// SPDX-License-Identifier: BSD-2-Clause
/*
 * --profile=stacks on Linux: perf_event_open's software cpu-clock on every
 * online CPU, each sample the task's ids and its call chain, kernel and
 * user frames, into a ring per CPU mapped once. The rings are enabled at a
 * phase's timed start and disabled at its end; a worker that completes
 * an operation glances at the rings' heads a few times a second
 * (prof_stacks_poll) and folds a ring past half full into the phase's
 * set then and there, and the rest is read at the phase's end (stacks.h
 * says why in the worker and not in a thread). Kernel frames are named
 * from /proc/kallsyms, read once, user frames by the program or library
 * they lie in (/proc/PID/maps, read once a phase for each process, when
 * its first sample is folded), and each sample's task by its name and
 * whether it is a kernel thread, as --profile groups them.
 */
#include "config.h"

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <linux/perf_event.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "lib/grow.h"
#include "lib/strutil.h"
#include "lib/timing.h"
#include "profile/profile.h"
#include "profile/stacks.h"

/* The rings of all CPUs together at most, and one CPU's bounds. */
#define RING_BUDGET	(64u << 20)
#define RING_MAX	(8u << 20)
#define RING_MIN	(256u << 10)
#define KALLSYMS_MAX	(256u << 20)
#define TASK_SLOTS	8192u	/* distinct threads a phase names; more are [unknown] */
#define PF_KTHREAD_FLAG	0x00200000u	/* task_struct's PF_KTHREAD, /proc/PID/stat field 9 */
/* Tests only: each CPU's ring this many bytes (a power of 2 of pages), for a ring that fills. */
#define RING_BYTES_ENV	"CLYDE_TEST_STACK_RING_BYTES"

struct cpu_ring {
	int fd;
	int cpu;
	struct perf_event_mmap_page *meta;
	size_t map_bytes;
	unsigned char *data;
	uint64_t data_size;
	uint64_t lost0;		/* PERF_FORMAT_LOST's count at the phase's start */
};

/* One task a phase's samples were in: its name and group, found once. */
struct task_seen {
	uint32_t tid;		/* 0: an empty slot (the idle task is counted apart) */
	bool known;		/* read from /proc, or found gone */
	bool exited;
	bool gone;		/* its process too: no snapshot counted it (stack_entry.unseen) */
	enum prof_group group;
	char comm[PROF_COMM_LEN];
};

/* A mapping of a process: user frames are named by the file they lie in. */
struct map_area {
	uint64_t start, end;
	uint64_t base;		/* where the file's offset 0 is mapped */
	char name[64];
};

struct proc_maps {
	uint32_t pid;
	bool gone;
	struct map_area *v;
	size_t n;
};

struct stack_sampler {
	struct cpu_ring *ring;
	unsigned nring;
	unsigned skipped;	/* CPUs offline when the events were opened */
	bool lost_format;	/* the kernel counts lost samples per event (6.0 on) */
	double period_s;
	int self_pid;
	struct stack_ksyms ksyms;
	bool ksyms_ok;
	/* clyde's own functions (its ELF .symtab) and where its image is mapped */
	struct stack_ksyms own;
	uint64_t own_vaddr;	/* the first PT_LOAD's page: the image's link-time base */
	char own_frame[64];	/* "[clyde]": the maps' name of the image */
	/* per phase */
	struct task_seen *tasks;
	size_t tasks_cap;
	struct proc_maps *maps;
	size_t nmaps, maps_cap;
	unsigned char wrap[65536];	/* a record that runs past the ring's end, whole */
	struct stack_line line;
	/*
	 * lock guards the rings' tails, the phase's set and the caches above:
	 * a worker holds it while it folds (it never waits for it: another
	 * worker folding is enough), the phase's ends while they reset the
	 * rings and take the set.
	 */
	pthread_mutex_t lock;
	bool in_phase;		/* the rings hold the phase's samples: fold them */
	struct stack_set set;	/* the phase's samples so far */
	struct stack_index ix;
	int fold_err;		/* the first failure to fold this phase */
	double drain_cpu_s;	/* the workers' CPU in their folds this phase */
	uint64_t drain_wakeups;	/* folds during the phase */
};

static int perf_open(struct perf_event_attr *attr, int cpu)
{
	return (int)syscall(SYS_perf_event_open, attr, -1, cpu, -1, PERF_FLAG_FD_CLOEXEC);
}

static void sampling_attr(struct perf_event_attr *attr, unsigned hz, bool lost_format)
{
	memset(attr, 0, sizeof(*attr));
	attr->size = sizeof(*attr);
	attr->type = PERF_TYPE_SOFTWARE;
	attr->config = PERF_COUNT_SW_CPU_CLOCK;
	/* cpu-clock counts nanoseconds: a fixed period is exactly 1/hz of CPU time */
	attr->sample_period = 1000000000ull / hz;
	attr->sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_CALLCHAIN;
	attr->read_format = lost_format ? PERF_FORMAT_LOST : 0;
	attr->disabled = 1;
	attr->comm = 1;
}

static size_t ring_bytes(unsigned ncpu)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE), want = RING_BUDGET / (ncpu ? ncpu : 1);
	const char *env = getenv(RING_BYTES_ENV);
	size_t bytes = RING_MIN;

	if (env && *env) {
		unsigned long long asked = strtoull(env, NULL, 0);

		/* the kernel maps a power of 2 of pages: the largest not above what was asked */
		for (bytes = page; bytes * 2 <= asked && bytes * 2 <= RING_MAX; bytes *= 2)
			;
		return bytes;
	}

	while (bytes * 2 <= want && bytes * 2 <= RING_MAX)
		bytes *= 2;
	return bytes < page ? page : bytes;
}

static void say_refused(int err_no, char *err, size_t errlen)
{
	char paranoid[32] = "?";
	FILE *f = fopen("/proc/sys/kernel/perf_event_paranoid", "re");

	if (f) {
		if (!fgets(paranoid, sizeof(paranoid), f))
			snprintf(paranoid, sizeof(paranoid), "?");
		paranoid[strcspn(paranoid, "\n")] = '\0';
		fclose(f);
	}
	if (err_no == EACCES || err_no == EPERM)
		snprintf(err, errlen, "--profile=stacks: perf_event_open refused system-wide "
			 "sampling (%s): it needs root or CAP_PERFMON, or "
			 "kernel.perf_event_paranoid at most 0 (it is %s)", strerror(err_no),
			 paranoid);
	else if (err_no == ENOSYS || err_no == ENOENT || err_no == EOPNOTSUPP)
		snprintf(err, errlen, "--profile=stacks: this kernel has no software cpu-clock "
			 "sampling through perf_event_open (%s)", strerror(err_no));
	else
		snprintf(err, errlen, "--profile=stacks: perf_event_open: %s", strerror(err_no));
}

/* /proc/kallsyms whole: it has no size until read. */
static int load_kallsyms(struct stack_sampler *s)
{
	size_t cap = 8u << 20, len = 0;
	char *buf = malloc(cap);
	int fd, ret = 0;

	if (!buf)
		return -ENOMEM;
	fd = open("/proc/kallsyms", O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		ret = -errno;
		goto free_buf;
	}
	for (;;) {
		ssize_t n;

		if (len + 1 == cap) {
			char *more = cap * 2 <= KALLSYMS_MAX ? realloc(buf, cap * 2) : NULL;

			if (!more) {
				ret = -ENOMEM;
				goto close_fd;
			}
			buf = more;
			cap *= 2;
		}
		n = read(fd, buf + len, cap - 1 - len);
		if (n < 0) {
			ret = -errno;
			goto close_fd;
		}
		if (!n)
			break;
		len += (size_t)n;
	}
	buf[len] = '\0';
	ret = stack_ksyms_parse(&s->ksyms, buf);
close_fd:
	close(fd);
free_buf:
	free(buf);
	return ret;
}

int prof_stacks_reload_symbols(struct prof_sampler *p)
{
	struct stack_sampler *s = p ? p->stacks : NULL;
	int ret;

	if (!s || !s->ksyms_ok)
		return 0;
	stack_ksyms_free(&s->ksyms);
	ret = load_kallsyms(s);
	s->ksyms_ok = !ret;
	return ret;
}

static int map_ring(struct cpu_ring *r, size_t bytes)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	void *m;

	r->map_bytes = page + bytes;
	m = mmap(NULL, r->map_bytes, PROT_READ | PROT_WRITE, MAP_SHARED, r->fd, 0);
	if (m == MAP_FAILED)
		return -errno;
	r->meta = m;
	r->data_size = r->meta->data_size ? r->meta->data_size : bytes;
	r->data = (unsigned char *)m + (r->meta->data_offset ? r->meta->data_offset : page);
	return 0;
}

static void close_rings(struct stack_sampler *s)
{
	for (unsigned i = 0; i < s->nring; i++) {
		if (s->ring[i].meta)
			munmap(s->ring[i].meta, s->ring[i].map_bytes);
		close(s->ring[i].fd);
	}
	s->nring = 0;
}

static bool cpu_offline(int cpu)
{
	char path[64], c = '1';
	int fd;

	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/online", cpu);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;	/* cpu0 often has no such file: it cannot go offline */
	if (read(fd, &c, 1) != 1)
		c = '1';
	close(fd);
	return c == '0';
}

static int open_rings(struct stack_sampler *s, unsigned hz, char *err, size_t errlen)
{
	long conf = sysconf(_SC_NPROCESSORS_CONF);
	unsigned ncpu = conf > 0 ? (unsigned)conf : 1;
	size_t bytes = ring_bytes(ncpu);
	struct perf_event_attr attr;
	int ret;

	s->ring = calloc(ncpu, sizeof(*s->ring));
	if (!s->ring)
		return -ENOMEM;
	s->lost_format = true;
	for (unsigned cpu = 0; cpu < ncpu; cpu++) {
		struct cpu_ring *r = &s->ring[s->nring];

		sampling_attr(&attr, hz, s->lost_format);
		r->fd = perf_open(&attr, (int)cpu);
		if (r->fd < 0 && errno == EINVAL && s->lost_format && !s->nring) {
			/* before 6.0: no lost count per event; the rings' records say it */
			s->lost_format = false;
			sampling_attr(&attr, hz, false);
			r->fd = perf_open(&attr, (int)cpu);
		}
		if (r->fd < 0 && errno == ENODEV && cpu_offline((int)cpu)) {
			s->skipped++;
			continue;
		}
		if (r->fd < 0) {
			ret = -errno;
			say_refused(errno, err, errlen);
			goto close;
		}
		r->cpu = (int)cpu;
		s->nring++;
		ret = map_ring(r, bytes);
		if (ret) {
			snprintf(err, errlen, "--profile=stacks: cannot map CPU %u's ring of "
				 "%zu KiB: %s", cpu, bytes >> 10, strerror(-ret));
			goto close;
		}
	}
	if (!s->nring) {
		snprintf(err, errlen, "--profile=stacks: no CPU online to sample");
		ret = -ENODEV;
		goto close;
	}
	return 0;
close:
	close_rings(s);
	return ret;
}

static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

/* The function symbols of an ELF64 image in memory, and its first PT_LOAD's page. */
static int elf_functions(const unsigned char *img, size_t len, struct stack_ksyms *out,
			 uint64_t *vaddr)
{
	const Elf64_Ehdr *eh = (const void *)img;
	const Elf64_Shdr *sh;
	uint64_t lowest = UINT64_MAX;

	if (len < sizeof(*eh) || memcmp(eh->e_ident, ELFMAG, SELFMAG) ||
	    eh->e_ident[EI_CLASS] != ELFCLASS64 || eh->e_shentsize != sizeof(*sh) ||
	    eh->e_shoff > len || eh->e_shnum > (len - eh->e_shoff) / sizeof(*sh) ||
	    eh->e_phentsize != sizeof(Elf64_Phdr) || eh->e_phoff > len ||
	    eh->e_phnum > (len - eh->e_phoff) / sizeof(Elf64_Phdr))
		return -ENOEXEC;
	for (unsigned i = 0; i < eh->e_phnum; i++) {
		const Elf64_Phdr *ph = (const Elf64_Phdr *)(img + eh->e_phoff) + i;

		if (ph->p_type == PT_LOAD && ph->p_vaddr < lowest)
			lowest = ph->p_vaddr;
	}
	*vaddr = lowest == UINT64_MAX ? 0 : lowest & ~(uint64_t)4095;
	sh = (const void *)(img + eh->e_shoff);
	for (unsigned i = 0; i < eh->e_shnum; i++) {
		const Elf64_Shdr *strs;
		const Elf64_Sym *sym;

		if (sh[i].sh_type != SHT_SYMTAB || sh[i].sh_link >= eh->e_shnum)
			continue;
		strs = &sh[sh[i].sh_link];
		if (sh[i].sh_offset > len || sh[i].sh_size > len - sh[i].sh_offset ||
		    strs->sh_offset > len || strs->sh_size > len - strs->sh_offset ||
		    !strs->sh_size)
			return -ENOEXEC;
		sym = (const void *)(img + sh[i].sh_offset);
		for (size_t j = 0; j < sh[i].sh_size / sizeof(*sym); j++) {
			const char *name;
			int ret;

			if (ELF64_ST_TYPE(sym[j].st_info) != STT_FUNC || !sym[j].st_value ||
			    sym[j].st_name >= strs->sh_size)
				continue;
			name = (const char *)img + strs->sh_offset + sym[j].st_name;
			ret = stack_ksyms_add(out, sym[j].st_value, name,
					      strnlen(name, strs->sh_size - sym[j].st_name));
			if (ret)
				return ret;
		}
	}
	stack_ksyms_sort(out);
	return out->n ? 0 : -ENOENT;
}

/* clyde's own functions: a stripped clyde names its frames by the program alone. */
static void load_own_symbols(struct stack_sampler *s)
{
	int fd = open("/proc/self/exe", O_RDONLY | O_CLOEXEC);
	char path[4096];
	struct stat st;
	ssize_t n;
	void *img;

	if (fd < 0)
		return;
	n = readlink("/proc/self/exe", path, sizeof(path) - 1);
	path[n > 0 ? n : 0] = '\0';
	snprintf(s->own_frame, sizeof(s->own_frame), "[%.60s]", base_name(path));
	if (fstat(fd, &st) || st.st_size <= 0) {
		close(fd);
		return;
	}
	img = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (img == MAP_FAILED)
		return;
	if (elf_functions(img, (size_t)st.st_size, &s->own, &s->own_vaddr))
		stack_ksyms_free(&s->own);
	munmap(img, (size_t)st.st_size);
}

int prof_stacks_open(struct prof_sampler *p, unsigned hz, char *err, size_t errlen)
{
	struct stack_sampler *s = calloc(1, sizeof(*s));
	int ret;

	if (!s)
		return -ENOMEM;
	s->period_s = (double)(1000000000ull / hz) / 1e9;
	s->self_pid = (int)getpid();
	ret = open_rings(s, hz, err, errlen);
	if (ret)
		goto free_s;
	/* without the symbols each kernel frame is "[unknown]": said, not refused */
	ret = load_kallsyms(s);
	s->ksyms_ok = !ret;
	if (ret == -ENOMEM)
		goto close_rings;
	if (ret)
		fprintf(stderr, "clyde: note: --profile=stacks: /proc/kallsyms names no kernel "
			"function (%s): kernel frames are [unknown]\n",
			ret == -ENOENT ? "kptr_restrict hides the addresses" : strerror(-ret));
	if (s->skipped)
		fprintf(stderr, "clyde: note: --profile=stacks: %u CPU(s) offline, not sampled\n",
			s->skipped);
	load_own_symbols(s);
	ret = -pthread_mutex_init(&s->lock, NULL);
	if (ret) {
		snprintf(err, errlen, "--profile=stacks: %s", strerror(-ret));
		goto free_syms;
	}
	p->stacks = s;
	return 0;
close_rings:
	snprintf(err, errlen, "--profile=stacks: out of memory for the kernel's symbols");
free_syms:
	close_rings(s);
	stack_ksyms_free(&s->ksyms);
	stack_ksyms_free(&s->own);
free_s:
	free(s->ring);
	free(s);
	return ret;
}

static uint64_t ring_lost_count(const struct cpu_ring *r)
{
	uint64_t v[2];

	return read(r->fd, v, sizeof(v)) == (ssize_t)sizeof(v) ? v[1] : 0;
}

void prof_stacks_start(struct prof_sampler *p)
{
	struct stack_sampler *s = p ? p->stacks : NULL;

	if (!s)
		return;
	pthread_mutex_lock(&s->lock);
	for (unsigned i = 0; i < s->nring; i++) {
		struct cpu_ring *r = &s->ring[i];

		/* what an earlier phase left unread is not this phase's */
		__atomic_store_n(&r->meta->data_tail,
				 __atomic_load_n(&r->meta->data_head, __ATOMIC_ACQUIRE),
				 __ATOMIC_RELEASE);
		r->lost0 = s->lost_format ? ring_lost_count(r) : 0;
	}
	__atomic_store_n(&s->in_phase, true, __ATOMIC_RELEASE);
	pthread_mutex_unlock(&s->lock);
	for (unsigned i = 0; i < s->nring; i++)
		ioctl(s->ring[i].fd, PERF_EVENT_IOC_ENABLE, 0);
}

void prof_stacks_stop(struct prof_sampler *p)
{
	struct stack_sampler *s = p ? p->stacks : NULL;

	for (unsigned i = 0; s && i < s->nring; i++)
		ioctl(s->ring[i].fd, PERF_EVENT_IOC_DISABLE, 0);
}

/* --- naming a sample's task and frames --- */

static struct task_seen *task_slot(struct stack_sampler *s, uint32_t tid)
{
	size_t at;

	if (!s->tasks_cap) {
		s->tasks = calloc(TASK_SLOTS, sizeof(*s->tasks));
		if (!s->tasks)
			return NULL;
		s->tasks_cap = TASK_SLOTS;
	}
	at = (tid * 2654435761u) & (s->tasks_cap - 1);
	for (size_t probes = 0; probes < s->tasks_cap; probes++) {
		struct task_seen *t = &s->tasks[at];

		if (t->tid == tid || !t->tid)
			return t;
		at = (at + 1) & (s->tasks_cap - 1);
	}
	return NULL;	/* full: the caller names the task by its pid */
}

/* Its name and whether it is a kernel thread, from /proc/TID/stat. */
static void task_learn(struct task_seen *t, uint32_t pid, uint32_t tid, int self_pid)
{
	char path[64], buf[1024];
	unsigned flags = 0;
	const char *open_p, *close_p;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%" PRIu32 "/task/%" PRIu32 "/stat", pid, tid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	n = fd < 0 ? -1 : read(fd, buf, sizeof(buf) - 1);
	if (fd >= 0)
		close(fd);
	open_p = n > 0 ? (buf[n] = '\0', strchr(buf, '(')) : NULL;
	close_p = open_p ? strrchr(open_p, ')') : NULL;
	if (!close_p) {
		/* gone before the phase's end: the name its comm event gave, if any */
		t->exited = true;
		if (!t->comm[0])
			snprintf(t->comm, sizeof(t->comm), "[exited]");
		/* a thread of a process still there: the process's counters keep its time */
		snprintf(path, sizeof(path), "/proc/%" PRIu32 "/stat", pid);
		t->gone = (int)pid != self_pid && access(path, F_OK);
	} else {
		size_t len = (size_t)(close_p - open_p - 1);

		if (len >= sizeof(t->comm))
			len = sizeof(t->comm) - 1;
		memcpy(t->comm, open_p + 1, len);
		t->comm[len] = '\0';
		/* after ")": state ppid pgrp session tty_nr tpgid flags */
		if (sscanf(close_p + 1, " %*c %*d %*d %*d %*d %*d %u", &flags) != 1)
			flags = 0;
	}
	t->group = (int)pid == self_pid ? PROF_CLYDE
					 : prof_classify(t->comm, flags & PF_KTHREAD_FLAG);
}

static void remember_comm(struct stack_sampler *s, uint32_t tid, const char *comm)
{
	struct task_seen *t = task_slot(s, tid);

	/* the name an exec gave: what names the task if it is gone when the rings are read */
	if (t && !t->known) {
		t->tid = tid;
		str_copy(t->comm, sizeof(t->comm), comm);
	}
}

static const struct task_seen *task_find(struct stack_sampler *s, uint32_t pid, uint32_t tid)
{
	static struct task_seen unknown = { .group = PROF_OTHER, .comm = "[unknown]" };
	struct task_seen *t = task_slot(s, tid);

	if (!t)
		return &unknown;
	t->tid = tid;
	if (!t->known) {
		task_learn(t, pid, tid, s->self_pid);
		t->known = true;
	}
	return t;
}

static int maps_read(struct proc_maps *m)
{
	char path[64], line[4352];
	size_t cap = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%" PRIu32 "/maps", m->pid);
	f = fopen(path, "re");
	if (!f) {
		m->gone = true;
		return 0;
	}
	while (fgets(line, sizeof(line), f)) {
		unsigned long long lo, hi, off;
		char perms[8];
		int name_at = 0;

		if (sscanf(line, "%llx-%llx %7s %llx %*s %*s %n", &lo, &hi, perms, &off,
			   &name_at) < 4 ||
		    !name_at || perms[2] != 'x')
			continue;
		if (array_room(&m->v, &cap, m->n, sizeof(*m->v), 64)) {
			fclose(f);
			return -ENOMEM;
		}
		line[strcspn(line, "\n")] = '\0';
		m->v[m->n].start = lo;
		m->v[m->n].end = hi;
		m->v[m->n].base = lo - off;
		snprintf(m->v[m->n].name, sizeof(m->v[m->n].name), "[%s]",
			 line[name_at] ? base_name(line + name_at) : "anon");
		m->n++;
	}
	fclose(f);
	return 0;
}

static struct proc_maps *maps_of(struct stack_sampler *s, uint32_t pid)
{
	struct proc_maps *m;

	for (size_t i = 0; i < s->nmaps; i++)
		if (s->maps[i].pid == pid)
			return &s->maps[i];
	if (array_room(&s->maps, &s->maps_cap, s->nmaps, sizeof(*s->maps), 32))
		return NULL;
	m = &s->maps[s->nmaps];
	memset(m, 0, sizeof(*m));
	m->pid = pid;
	if (maps_read(m))
		return NULL;
	s->nmaps++;
	return m;
}

/* A user frame: clyde's own function by name where its symbols say, else the file. */
static const char *user_frame(const struct stack_sampler *s, const struct proc_maps *m,
			      uint32_t pid, uint64_t ip)
{
	for (size_t i = 0; m && i < m->n; i++) {
		const struct map_area *a = &m->v[i];
		const char *fn;

		if (ip < a->start || ip >= a->end)
			continue;
		if ((int)pid == s->self_pid && s->own.n && !strcmp(a->name, s->own_frame)) {
			/* the file's offset 0 is its first PT_LOAD's page */
			fn = stack_ksyms_find(&s->own, ip - a->base + s->own_vaddr);
			if (fn)
				return fn;
		}
		return a->name;
	}
	return "[unknown]";
}

static void forget_phase(struct stack_sampler *s)
{
	for (size_t i = 0; i < s->nmaps; i++)
		free(s->maps[i].v);
	s->nmaps = 0;
	if (s->tasks)
		memset(s->tasks, 0, s->tasks_cap * sizeof(*s->tasks));
}

/* --- reading the rings --- */

/*
 * One sample's folded text: the task, its user frames from the outermost
 * (a run of frames in one library is one frame: they name no function),
 * then its kernel frames from the outermost, each with the suffix.
 */
static void fold_sample(struct stack_sampler *s, const struct task_seen *t, uint32_t pid,
			const uint64_t *ip, uint64_t nr)
{
	uint64_t kbeg = nr, kend = nr, ubeg = nr, uend = nr;
	const struct proc_maps *m = NULL;
	const char *last = NULL;
	uint64_t ctx = 0;

	/* the chain: [KERNEL] leaf..root [USER] leaf..root, innermost first; each a block */
	for (uint64_t i = 0; i < nr; i++) {
		if (ip[i] >= (uint64_t)PERF_CONTEXT_MAX) {
			ctx = ip[i];
		} else if (ctx == (uint64_t)PERF_CONTEXT_KERNEL) {
			kbeg = kbeg == nr ? i : kbeg;
			kend = i + 1;
		} else if (ctx == (uint64_t)PERF_CONTEXT_USER) {
			ubeg = ubeg == nr ? i : ubeg;
			uend = i + 1;
		}
	}
	stack_line_reset(&s->line);
	stack_line_frame(&s->line, t->comm, NULL);
	if (ubeg < uend && !t->exited)
		m = maps_of(s, pid);
	for (uint64_t i = uend; m && i > ubeg; i--) {
		const char *name = user_frame(s, m, pid, ip[i - 1]);

		/* a run of one library's frames is one: a function repeated is recursion */
		if (last && name[0] == '[' && !strcmp(last, name))
			continue;
		stack_line_frame(&s->line, name, NULL);
		last = name;
	}
	for (uint64_t i = kend; i > kbeg; i--) {
		const char *name = s->ksyms_ok ? stack_ksyms_find(&s->ksyms, ip[i - 1]) : NULL;

		stack_line_frame(&s->line, name ? name : "[unknown]", STACK_KERNEL_SUFFIX);
	}
}

struct sample_head {
	struct perf_event_header h;
	uint32_t pid, tid;
	uint64_t nr;
	uint64_t ip[];
};

struct comm_head {
	struct perf_event_header h;
	uint32_t pid, tid;
	char comm[];
};

/* Whether a sample's chain has user frames: a kernel thread's never has. */
static bool user_chain(const uint64_t *ip, uint64_t nr)
{
	for (uint64_t i = 0; i < nr; i++)
		if (ip[i] == (uint64_t)PERF_CONTEXT_USER)
			return true;
	return false;
}

static int take_sample(struct stack_sampler *s, const unsigned char *rec, size_t size,
		       struct stack_set *out, struct stack_index *ix)
{
	const struct sample_head *sh = (const void *)rec;
	const struct task_seen *t;
	enum prof_group group;

	if (size < sizeof(*sh) || sh->nr > (size - sizeof(*sh)) / sizeof(uint64_t))
		return 0;
	if (sh->pid == 0 && sh->tid == 0) {
		out->idle++;
		return 0;
	}
	t = task_find(s, sh->pid, sh->tid);
	fold_sample(s, t, sh->pid, sh->ip, sh->nr);
	if (s->line.err)
		return s->line.err;
	/*
	 * A task gone before the rings were read showed no flags: a sample
	 * without user frames was in a kernel thread (a kworker that came and
	 * went), which is no other process.
	 */
	group = t->group;
	if (t->exited && (int)sh->pid != s->self_pid)
		group = prof_classify(t->comm, !user_chain(sh->ip, sh->nr));
	return stack_set_add_task(out, ix, s->line.s, group, t->gone, 1);
}

static int drain_ring(struct stack_sampler *s, struct cpu_ring *r, struct stack_set *out,
		      struct stack_index *ix)
{
	uint64_t head = __atomic_load_n(&r->meta->data_head, __ATOMIC_ACQUIRE);
	uint64_t tail = r->meta->data_tail;
	int ret = 0;

	while (!ret && tail + sizeof(struct perf_event_header) <= head) {
		size_t at = (size_t)(tail % r->data_size);
		const unsigned char *rec = r->data + at;
		struct perf_event_header h;
		size_t first;

		memcpy(&h, rec, sizeof(h));
		if (!h.size || tail + h.size > head)
			break;
		if (at + h.size > r->data_size) {
			first = r->data_size - at;
			memcpy(s->wrap, rec, first);
			memcpy(s->wrap + first, r->data, h.size - first);
			rec = s->wrap;
		}
		if (h.type == PERF_RECORD_SAMPLE) {
			ret = take_sample(s, rec, h.size, out, ix);
		} else if (h.type == PERF_RECORD_LOST && !s->lost_format && h.size >= 24) {
			uint64_t lost;

			memcpy(&lost, rec + 16, sizeof(lost));
			out->lost += lost;
		} else if (h.type == PERF_RECORD_COMM && h.size > sizeof(struct comm_head)) {
			const struct comm_head *c = (const void *)rec;
			char comm[PROF_COMM_LEN];
			size_t room = h.size - sizeof(*c);

			snprintf(comm, sizeof(comm), "%.*s", (int)(room < sizeof(comm) ? room :
								   sizeof(comm) - 1), c->comm);
			remember_comm(s, c->tid, comm);
		}
		tail += h.size;
	}
	__atomic_store_n(&r->meta->data_tail, tail, __ATOMIC_RELEASE);
	return ret;
}

/*
 * Every ring's records, while the phase's samples are wanted; lock held.
 * 0 or the first -ENOMEM (then the set lacks a stack: its samples stay counted nowhere).
 */
static int drain_all(struct stack_sampler *s)
{
	int ret = 0;

	for (unsigned i = 0; i < s->nring && s->in_phase; i++) {
		int one = drain_ring(s, &s->ring[i], &s->set, &s->ix);

		ret = ret ? ret : one;
	}
	return ret;
}

/*
 * A worker's glance, a few times a second (bench.h, sample_latency):
 * a ring past half full is folded now, in the worker, so that a phase
 * longer than a ring holds loses no sample; the fold's CPU is the
 * phase's and is counted (drain_cpu_s). A worker never waits here:
 * when another holds the lock, the rings are being read.
 */
void prof_stacks_poll(struct prof_sampler *p)
{
	struct stack_sampler *s = p ? p->stacks : NULL;
	bool due = false;
	double cpu0;
	int ret;

	if (!s || !__atomic_load_n(&s->in_phase, __ATOMIC_ACQUIRE))
		return;
	for (unsigned i = 0; i < s->nring && !due; i++) {
		const struct cpu_ring *r = &s->ring[i];
		uint64_t head = __atomic_load_n(&r->meta->data_head, __ATOMIC_ACQUIRE);

		due = head - __atomic_load_n(&r->meta->data_tail, __ATOMIC_RELAXED) >=
		      r->data_size / 2;
	}
	if (!due || pthread_mutex_trylock(&s->lock))
		return;
	if (s->in_phase) {
		cpu0 = thread_cpu_seconds();
		ret = drain_all(s);
		s->fold_err = s->fold_err ? s->fold_err : ret;
		s->drain_wakeups++;
		s->drain_cpu_s += thread_cpu_seconds() - cpu0;
	}
	pthread_mutex_unlock(&s->lock);
}

int prof_stacks_collect(struct prof_sampler *p, struct stack_set *out)
{
	struct stack_sampler *s = p->stacks;
	int ret;

	pthread_mutex_lock(&s->lock);
	/* what the workers left: less than half a ring each, or all with no glance */
	ret = drain_all(s);
	ret = s->fold_err ? s->fold_err : ret;
	for (unsigned i = 0; i < s->nring && s->lost_format; i++)
		s->set.lost += ring_lost_count(&s->ring[i]) - s->ring[i].lost0;
	__atomic_store_n(&s->in_phase, false, __ATOMIC_RELEASE);
	*out = s->set;
	out->period_s = s->period_s;
	out->drain_cpu_s = s->drain_cpu_s;
	out->drain_wakeups = s->drain_wakeups;
	memset(&s->set, 0, sizeof(s->set));
	stack_index_free(&s->ix);
	s->fold_err = 0;
	s->drain_cpu_s = 0;
	s->drain_wakeups = 0;
	forget_phase(s);
	pthread_mutex_unlock(&s->lock);
	return ret;
}

void prof_stacks_close(struct prof_sampler *p)
{
	struct stack_sampler *s = p->stacks;

	if (!s)
		return;
	pthread_mutex_destroy(&s->lock);
	for (size_t i = 0; i < s->set.n; i++)
		free(s->set.v[i].folded);
	free(s->set.v);
	stack_index_free(&s->ix);
	close_rings(s);
	forget_phase(s);
	free(s->maps);
	free(s->tasks);
	stack_line_free(&s->line);
	stack_ksyms_free(&s->ksyms);
	stack_ksyms_free(&s->own);
	free(s->ring);
	free(s);
	p->stacks = NULL;
}
