/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef CLYDE_PROFILE_H
#define CLYDE_PROFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "profile/layers.h"
#include "sys/fsinfo.h"

struct stack_sampler;
struct stack_set;
struct layer_table;

/*
 * --profile: where a phase's CPU and device bytes went. Two snapshots
 * per phase, one just before its timed part and one just after, never
 * in the I/O path; everything here is a difference of counters the
 * kernel keeps. OS-specific sampling is in profile_linux.c and
 * profile_bsd.c; the arithmetic and the parsers of Linux's text files
 * are pure functions in profile.c, which the unit tests feed with
 * recorded snapshots.
 */

#define PROF_COMM_LEN	64
#define PROF_MAX_DEVS	8
#define PROF_DEV_LEN	32
#define PROF_TOP	6

struct stack_summary;

/* The machine's CPU states, as Linux's /proc/stat counts them. */
enum prof_cpu_state {
	CPU_USER,
	CPU_NICE,
	CPU_SYSTEM,
	CPU_IDLE,
	CPU_IOWAIT,
	CPU_IRQ,
	CPU_SOFTIRQ,
	CPU_STEAL,
	CPU_STATES,
};

/* What the CPU time of processes and kernel threads is grouped into. */
enum prof_group {
	PROF_CLYDE,		/* this process, its io_uring threads included */
	PROF_FS,		/* the filesystem's own threads: jbd2, xfs*, btrfs-*, z_*, zfs-fuse */
	PROF_WRITEBACK,		/* kworkers of the writeback workqueue */
	PROF_BLOCK,		/* block layer: kblockd, loop, dm, md, the drivers' threads */
	PROF_KWORKER,		/* other kworkers, and those whose name said nothing */
	PROF_KSWAPD,		/* page reclaim */
	PROF_KTHREAD,		/* other kernel threads: rcu, ksoftirqd, migration ... */
	PROF_OTHER,		/* other processes */
	PROF_GROUPS,
};

/* One process or kernel thread at one snapshot. */
struct prof_task {
	int pid;
	bool kthread;
	char comm[PROF_COMM_LEN];	/* a kworker's carries its workqueue */
	uint64_t ticks;			/* user + system, in the snapshot's ticks */
	uint64_t start;			/* start time, ticks since boot; 0 unknown */
};

/* A block device's counters: Linux's /sys/block/DEV/stat, FreeBSD's devstat. */
struct prof_dev_counters {
	uint64_t rd_ios;
	uint64_t rd_bytes;
	uint64_t wr_ios;
	uint64_t wr_bytes;
	uint64_t busy_ms;
	/* Discards (TRIM): Linux 4.18 and later; unknown on the BSDs. */
	bool discard_known;
	uint64_t discard_ios;
	uint64_t discard_bytes;
};

/* What the sampler measures: resolved once, before the first phase. */
struct prof_devices {
	enum { PROF_DEV_MEASURED, PROF_DEV_NONE, PROF_DEV_UNKNOWN } state;
	unsigned count;
	char name[PROF_MAX_DEVS][PROF_DEV_LEN];	/* whole disks or md/dm members */
	char via[96];		/* how they were found: "dm-0 members", "mount source" */
	char why[160];		/* PROF_DEV_NONE / _UNKNOWN: the reason */
	char shared[160];	/* other filesystems on them, empty when none found */
};

/* perf_event_open counters of the process, where the system has them. */
enum prof_perf_counter {
	PERF_TASK_CLOCK,	/* ns */
	PERF_CTX_SWITCHES,
	PERF_MIGRATIONS,
	PERF_PAGE_FAULTS,
	PERF_CYCLES,
	PERF_INSTRUCTIONS,
	PERF_COUNTERS,
};

#define PERF_FIRST_HW PERF_CYCLES

/* Per-CPU counters: n rows of CPU_STATES, allocated by whoever fills them. */
struct prof_cpu_lines {
	unsigned n;
	size_t cap;
	uint64_t (*v)[CPU_STATES];
};

/* One snapshot; owned by the phase clock, filled by prof_snapshot_take. */
struct prof_snapshot {
	double t;		/* CLOCK_MONOTONIC seconds at the machine counters' read */
	/* The machine: each CPU's counters, in ticks of the profiler's hz. */
	bool machine_valid;
	struct prof_cpu_lines cpus;
	/* Every process and kernel thread: NULL when the system cannot list them. */
	struct prof_task *tasks;
	size_t ntasks;
	size_t cap;
	bool tasks_valid;
	uint64_t self_ticks;	/* this process in the tasks' units */
	uint64_t uring_ticks;	/* this process's io_uring threads (iou-wrk, iou-sqp) */
	bool uring_valid;
	/* getrusage(RUSAGE_SELF). */
	double self_user;
	double self_sys;
	uint64_t nvcsw;
	uint64_t nivcsw;
	uint64_t minflt;
	uint64_t majflt;
	uint64_t perf[PERF_COUNTERS];
	struct prof_dev_counters dev[PROF_MAX_DEVS];
	bool dev_valid;
	/* What taking this snapshot cost this process. */
	double cost_cpu;
	double cost_wall;
	/* --profile=layers: the kernel's counts of the window, at its end (allocated). */
	struct layers_raw *layers;
};

/* The sampler: options and resources shared by every phase of a run. */
struct prof_sampler {
	double hz;			/* ticks per second of the machine's counters */
	double task_hz;			/* ticks per second of prof_task.ticks */
	bool cpu_known[CPU_STATES];	/* the states this system counts */
	int self_pid;
	char fs_type[FSINFO_TYPE_LEN];
	struct prof_devices devs;
	char machine_why[128];		/* why machine counters are unknown */
	char tasks_why[128];		/* why tasks are unknown */
	/* perf_event_open file descriptors, -1 where not open. */
	int perf_fd[PERF_COUNTERS];
	char perf_sw_why[128];		/* "" when the software counters are open */
	char perf_hw_why[128];		/* "not exposed (ENOENT)" and the like */
	/* --profile=layers: asked, and its BPF programs (NULL: not loaded, why says why). */
	bool layers_asked;
	struct layers_probe *layers;
	bool layers_queue;		/* every device has a request queue */
	char layers_devs[128];
	char layers_why[160];
	struct stack_sampler *stacks;	/* --profile=stacks, NULL without (stacks.h) */
	struct layer_table *stack_layers;	/* --profile=stacks: the layer table (stacks_layers.c) */
};

/* A busy task outside clyde; kworkers by their workqueue. */
struct prof_top {
	char name[PROF_COMM_LEN];
	enum prof_group group;
	double s;
};

/*
 * A file system's own background work, whose device I/O lands in a
 * phase's device columns though the phase did not cause it: one row
 * each (profile.c), told by a kernel thread's name or a kworker's
 * workqueue.
 */
struct prof_background {
	const char *name;	/* the thread's name or the workqueue's, a prefix */
	const char *what;	/* what it does */
	const char *avoid;	/* how a run keeps it out */
};

/* Row i, or NULL past the last (at most 32 rows: a bit each in a phase). */
const struct prof_background *prof_background_row(unsigned i);

/* The profile of one phase, in struct phase_result. Seconds of CPU throughout. */
struct prof_phase {
	bool valid;
	double window_s;		/* between the machine counters' reads */
	double sampler_cpu_s;		/* what the two snapshots cost */
	double sampler_wall_s;
	/* clyde's process (getrusage): its io_uring threads are a part of it */
	double self_user_s;
	double self_sys_s;
	double uring_s;			/* -1 unknown */
	uint64_t nvcsw, nivcsw, minflt, majflt;
	/* The machine over the same interval. */
	bool machine_valid;
	char machine_why[128];
	unsigned ncpu;
	double hz;			/* the machine counters' ticks per second */
	double cpu_s[CPU_STATES];
	bool cpu_known[CPU_STATES];	/* the BSDs count no iowait, softirq or steal */
	double machine_total_s;		/* all states */
	bool cpu_backwards;
	/* Processes and kernel threads grouped; unattributed closes the sum. */
	bool groups_valid;
	char groups_why[128];
	double group_s[PROF_GROUPS];
	double unattributed_s;		/* user+nice+system minus the tasks' deltas */
	unsigned tasks_new;		/* appeared during the phase: counted from 0 */
	unsigned tasks_exited;		/* gone at the end: counted up to their last sample */
	unsigned kworkers_unnamed;	/* kworkers whose name showed no workqueue */
	uint32_t background;		/* prof_background rows seen at the start or end */
	unsigned ntop;
	struct prof_top top[PROF_TOP];	/* the busiest tasks outside clyde */
	/* perf_event_open: valid[] false means not counted (why in *_why). */
	bool perf_valid[PERF_COUNTERS];
	uint64_t perf[PERF_COUNTERS];
	char perf_sw_why[128];
	char perf_hw_why[128];
	/* The device. */
	struct prof_devices devs;
	bool dev_valid;
	struct prof_dev_counters dev;	/* summed over devs */
	/* --profile=stacks: the phase's stacks by layer and function; NULL without (stacks_layers.h) */
	struct stack_summary *stacks;
	/* --profile=layers: the latency split (state LAYERS_OFF when not asked). */
	struct prof_layers layers;
	/* --profile=stacks: the samples themselves; NULL without; freed with the result (stacks.h) */
	struct stack_set *stack_set;
};

/* --- the sampler (profile_sample.c) --- */

/*
 * Resolve the devices (or take dev_list, --profile-dev's comma list) and
 * open the counters, once per invocation; 0, or -errno with err set.
 */
int prof_sampler_init(struct prof_sampler *p, const char *dir, const struct fsinfo *fs,
		  const char *dev_list, char *err, size_t errlen);
void prof_sampler_close(struct prof_sampler *p);
/*
 * --profile=layers, after prof_sampler_init and before root is dropped:
 * load the BPF programs for the devices it resolved and dir's own. A
 * failure is no error: the phases' split says why (p->layers_why).
 */
void prof_layers_init(struct prof_sampler *p, const char *dir);

/*
 * Take a snapshot. at_start reads the machine counters last, so that
 * they are as close as possible to the phase's start; at the end they
 * are read first.
 */
void prof_snapshot_take(struct prof_sampler *p, struct prof_snapshot *s, bool at_start);
void prof_snapshot_free(struct prof_snapshot *s);

/*
 * --profile=stacks (stacks_linux.c, stacks_bsd.c): open a sampling event
 * on every online CPU at hz samples a second; 0, or -errno with err set
 * (permissions, perf_event_paranoid, an OS without perf_event_open).
 */
int prof_stacks_open(struct prof_sampler *p, unsigned hz, char *err, size_t errlen);
/* At a phase's timed start and end; nothing without stacks. */
void prof_stacks_start(struct prof_sampler *p);
void prof_stacks_stop(struct prof_sampler *p);
/*
 * A worker between operations, a few times a second: a ring past half
 * full is read into the phase's set now, in the worker (its CPU counted),
 * so that a phase longer than a ring holds loses nothing; never waits.
 */
void prof_stacks_poll(struct prof_sampler *p);
/*
 * Read /proc/kallsyms again, once programs loaded after the sampler
 * opened (--profile=layers' BPF programs) have names there: their frames
 * by name, not by the last symbol before them. 0 or -errno (then kernel
 * frames are [unknown]).
 */
int prof_stacks_reload_symbols(struct prof_sampler *p);
/* The phase's samples into out (empty, the caller's); 0 or -ENOMEM (out partial). */
int prof_stacks_collect(struct prof_sampler *p, struct stack_set *out);
void prof_stacks_close(struct prof_sampler *p);
/*
 * --profile=stacks' layer table, $CLYDE_LAYERS or the installed one
 * (stacks_layers.c): read before the first phase, so that a bad table
 * stops the run with its file and line; 0 or -errno with err set.
 */
int prof_stack_layers_open(struct prof_sampler *p, char *err, size_t errlen);
void prof_stack_layers_close(struct prof_sampler *p);

/* --- the arithmetic and parsers (profile.c): pure --- */

/* The group of a task by its name; kworkers by the workqueue they name. */
enum prof_group prof_classify(const char *comm, bool kthread);
const char *prof_group_name(enum prof_group g);	/* "filesystem", "writeback" ... */
/* A kworker's name carries a workqueue ("kworker/u4:2-flush-7:0"). */
bool prof_kworker_named(const char *comm);

/* By pid, as prof_compute looks tasks up: the OS parts list them in any order. */
void prof_sort_tasks(struct prof_snapshot *s);

/* The difference of two snapshots of one phase. */
void prof_compute(const struct prof_sampler *p, const struct prof_snapshot *a,
		     const struct prof_snapshot *b, struct prof_phase *out);

/*
 * CPU seconds the phase caused: clyde's process, every kernel thread
 * and interrupt time; not other processes, steal or what no task's
 * counters explain. -1 when the machine split or the processes are
 * unknown.
 */
double prof_caused_s(const struct prof_phase *pp);
double prof_self_s(const struct prof_phase *pp);

/*
 * Linux's text, parsed: /proc/stat's per-CPU lines ("cpuN ..."), rows
 * grown as needed. Returns the number of CPUs, or -EINVAL / -ENOMEM.
 */
int prof_parse_proc_stat(const char *text, struct prof_cpu_lines *out);
/* /proc/PID/stat: 0, or -EINVAL for a line it cannot read. */
int prof_parse_task_stat(const char *line, struct prof_task *t);
/* /sys/block/DEV/stat: 0 or -EINVAL. */
int prof_parse_diskstat(const char *line, struct prof_dev_counters *c);

/* --- the OS parts (profile_linux.c, profile_bsd.c) --- */

/* The counters' clock rates and the CPU states counted: fills hz, task_hz, cpu_known. */
void prof_os_clock(struct prof_sampler *p);
/* Each CPU's counters into s->cpus; 0, or -errno with why. */
int prof_os_machine(struct prof_snapshot *s, char *why, size_t len);
/* Every process and kernel thread, in any order; self and its io_uring threads. */
int prof_os_tasks(const struct prof_sampler *p, struct prof_snapshot *s, char *why, size_t len);
/* The devices under dir: devs->state says whether there are any. */
void prof_os_devices(const char *dir, const struct fsinfo *fs, struct prof_devices *devs);
/* One device's counters; 0 or -errno. */
int prof_os_dev_read(const char *name, struct prof_dev_counters *c);
/* perf_event_open where the system has it; the why strings say what not. */
void prof_os_perf_open(struct prof_sampler *p);
void prof_os_perf_read(const struct prof_sampler *p, uint64_t v[PERF_COUNTERS]);
void prof_os_perf_close(struct prof_sampler *p);

#endif
