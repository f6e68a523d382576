/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef CLYDE_RESULT_H
#define CLYDE_RESULT_H

#include "core/capacity.h"
#include "core/clyde.h"
#include "core/run_params.h"
#include "lib/aggregate.h"
#include "lib/histogram.h"
#include "lib/series.h"
#include "lib/steady.h"
#include "lib/timeline.h"
#include "profile/profile.h"
#include "sys/extents.h"
#include "sys/fsinfo.h"
#include "tree/tree.h"

struct place_topology;
struct place_plan;

/* One worker's part of a phase, and where it really ran. */
struct worker_result {
	double t_start;		/* CLOCK_MONOTONIC seconds */
	double t_end;
	double amount;		/* KiB, seeks or files */
	double cpu_s;		/* its thread's and its seekers' CPU */
	double latency_q[4];	/* seconds at latency_quantiles[] */
	double max_latency;
	uint64_t latency_count;
	int cpu_first;		/* the CPU at the timed part's start and end, -1 unknown */
	int cpu_last;		/* (the seek phase: its first seeker's) */
	char ran_on[128];	/* "0-1,3": every CPU it (or its seekers) started or ended on */
	int buffer_node;	/* NUMA node of its I/O buffer's first page, -1 unknown */
	char cpus[64];		/* its CPU set as the kernel has it */
	char note[96];		/* what the kernel did with the placement asked for */
};

/* One kind of operation of a tree phase: how many, how many through the ring, how long. */
struct tree_op_result {
	uint64_t count;
	uint64_t via_ring;
	double latency_q[4];	/* seconds at latency_quantiles[] */
	double max_latency;
};

/* What a tree phase did, all workers together. */
struct phase_tree {
	bool valid;
	uint64_t files;		/* regular files handled */
	uint64_t dirs;		/* directories made, listed or removed */
	uint64_t entries;	/* walk: every entry stat'ed */
	uint64_t bytes;		/* file data written (extract), copied or read */
	struct tree_op_result op[TOP_KINDS];
	struct tree_op_result list;	/* walk: opendir, readdir to the end, closedir of one directory */
};

/* What one phase measured; formatters read only this and struct run_result. */
struct phase_result {
	bool ran;
	double elapsed;		/* seconds, first start to last end */
	double t_start;		/* CLOCK_MONOTONIC seconds: comparable across processes */
	double t_end;
	double cpu_user;	/* seconds, whole process */
	double cpu_sys;
	double cpu_window;	/* seconds the CPU was sampled over; >= elapsed */
	double stall_reader_cpu_s;	/* the stall reader's, apart from cpu_*; -1: none read */
	double max_latency;	/* seconds, slowest single operation */
	double latency_q[4];	/* seconds at latency_quantiles[] */
	uint64_t latency_count;	/* operations timed */
	double flush;		/* seconds of the fsync or sync that ends it */
	uint64_t mismatches;	/* --verify */
	double amount;		/* KiB for I/O phases, seeks or files otherwise */
	/* bonnie++'s +++++ when shorter than 0.5 s: set where the user gave the count. */
	bool plus_when_short;
	/*
	 * Page cache residency of what a phase reads, before it reads: the
	 * worst worker's percent, or -1 when it could not be told
	 * (residency_why says why); not measured at all when !residency_measured.
	 * The big file's phases measure the bytes they read: the per-char read
	 * its first perchar bytes, the others the whole file (that worker's
	 * range and file size below; range_bytes < file_bytes: a part).
	 */
	bool residency_measured;
	double resident_pct;
	uint64_t residency_range_offset;
	uint64_t residency_range_bytes;
	uint64_t residency_file_bytes;
	char residency_method[16];
	char residency_why[128];
	/*
	 * On a loop device without direct I/O, its backing file's residency
	 * before the phase (the whole file: where the loop's reads land is
	 * not known), -1 when it could not be told; not measured when
	 * !backing_measured.
	 */
	bool backing_measured;
	double backing_resident_pct;
	uint64_t backing_resident_bytes;
	uint64_t backing_file_bytes;
	char backing_method[16];
	char backing_why[128];
	/* ZFS's ARC over the phase, where the system exports it. */
	bool arc_valid;
	uint64_t arc_hits;
	uint64_t arc_misses;
	/* --profile: where the phase's CPU and device bytes went. */
	struct prof_phase profile;
	/* --tree phases only */
	struct phase_tree tree;
	/* Every operation's latency, all workers (allocated; for the ranks' merge). */
	struct histogram *hist;
	/* When they completed, all workers (allocated; for the stonewall view). */
	struct timeline *done;
	/* The phase's time series (allocated); NULL: --interval=off, or not kept. */
	struct series *series;
	/*
	 * --stonewall or the time box: the amount done when its deadline
	 * struck; -1 when the phase ended first.
	 */
	double at_deadline;
	double time_box_s;	/* a default run's time box of the phase; 0 none */
	bool limit_cut;		/* the box or --stonewall stopped it before its planned amount */
	double estimate_s;	/* the plan's estimate of it; 0 none */
	uint32_t passes;	/* the stat phases: times every file was stat'ed (1 elsewhere) */
	/* --latency-target, --open-loop: what they measured after it (allocated); NULL: not asked */
	struct capacity_result *capacity;
	/*
	 * --steady: how the phase ended. rate: the steady window's (what the
	 * table, the CSV and phase_rate give when settled); at_s: the
	 * window's end, seconds from the phase's start; -1: none.
	 */
	struct phase_steady {
		bool on;
		bool settled;
		char end[12];		/* settled, max_time, max_size, ended */
		double at_s;
		double window_s;
		double rate;		/* the phase's unit per second */
		double p99_s;
		double spread_pct;	/* the last check's, percent; -1 never checked */
		unsigned checks;
		double planned_amount;	/* without --steady's extension */
		/*
		 * the rewrite's and the read's passes after the first (all
		 * workers'), how many of them dropped the file's pages first and
		 * how ("" when none is dropped: --cache=keep, or no pass)
		 */
		unsigned start_overs;
		unsigned start_over_drops;
		char drop_method[64];
	} steady;
	/* Each worker's part; NULL when there is none to show (allocated, see run_result_release). */
	unsigned nworkers;
	struct worker_result *workers;
};

/* The tree of --tree, as generated; on is false without --tree. */
struct run_tree {
	bool on;
	char shape[16];
	double scale;
	uint64_t seed;
	uint32_t dirs;		/* below the root, as the listing counts them */
	uint32_t files;
	uint32_t max_depth;
	uint64_t bytes;
	uint64_t hash;		/* FNV-1a 64 of the listing (--tree-list) */
	char io[16];		/* "psync" or "uring" */
	unsigned depth;		/* operations in flight at most */
	char io_desc[256];	/* the ring's setup and which kinds go through it */
	char walk_cache[128];	/* what the walk found cached */
};

/* The test file's map is kept whole up to this many pieces; beyond, none is written. */
#define FRAG_MAP_MAX 4096

/*
 * Fragmentation measured (issue 44): the free space at the run's start
 * ("fresh"; with --age, before the aging, and "aged" after it, with the
 * aging's small files sampled), and the test file's extents after the
 * phase that laid it out (PF_LAYS_OUT_FILE), worker 0's with its map.
 */
struct run_fragmentation {
	struct frag_state fresh;
	struct frag_state aged;
	struct extent_figures test_file;
	struct extent_map test_map;	/* pieces allocated (FRAG_MAP_MAX); NULL: none */
};

/* Whether anything of f was looked at: the formatters write nothing without. */
bool frag_any(const struct run_fragmentation *f);

/* Where and how the run happened, for clyde's context lines. */
struct run_env {
	char engine[16];
	char engine_desc[256];	/* depth, setup flags, fallback */
	char cache[16];		/* "drop" or "keep" */
	char cache_note[192];
	bool direct;
	unsigned iodepth;
	bool perchar_stdio;
	char fs_type[FSINFO_TYPE_LEN];
	char fs_source[FSINFO_PATH_LEN];
	char fs_mountpoint[FSINFO_PATH_LEN];
	char fs_options[FSINFO_OPTS_LEN];
	char fs_super_options[FSINFO_OPTS_LEN];	/* the filesystem's own; "" unknown */
	unsigned cpus;
	uint64_t ram_bytes;
	char os[64];
	char kernel[128];
	char arch[32];
	char cpu_model[128];
	char blockdev[64];
	char driver[64];	/* the BSDs: the disk's driver; empty on Linux */
	int rotational;		/* -1 unknown */
	char scheduler[32];
	int read_ahead_kb;	/* -1 unknown */
	/* a loop device's backing file ("": not a loop device) and direct I/O: 1, 0, -1 unknown */
	char loop_backing[FSINFO_PATH_LEN];
	int loop_dio;
	/*
	 * loop_dio 0: the backing file's worst residency before a read (%,
	 * bytes; -1 unknown), where a read phase measured it
	 */
	bool loop_backing_measured;
	double loop_backing_worst;
	uint64_t loop_backing_worst_bytes;
	/*
	 * The seek rate on a device that says it is rotational, where above
	 * ROTATIONAL_SEEKS_MAX: served by a cache below clyde (a hypervisor's);
	 * 0 otherwise.
	 */
	double seeks_beyond_rotational;
	/*
	 * The block read's KiB/s where above ROTATIONAL_READ_MAX_KIBS on such a
	 * device, from a file clyde found uncached before it: 0 otherwise.
	 */
	double reads_beyond_rotational;
	bool stacked;		/* the device is made of others (md, dm): no ceiling of one disk */
	char data[32];		/* --data: zero, random, compressible:P */
	double ceil_syscall_ns;	/* --ceilings; 0 when not measured */
	double ceil_copy_bps;
	bool warmup;		/* an untimed run came first */
	bool verify;
	bool profiled;		/* --profile */
	char topology[256];	/* "1 package 1 NUMA node 2 cores 2 threads; L2 512 KiB" (hwloc) */
	char placement[256];	/* the plan's summary */
	const struct place_topology *topo;	/* the machine, for JSON; not owned */
	const struct place_plan *place;	/* the plan, for JSON; not owned */
	/* What the cache really was: the worst residency before a read, -1 unknown. */
	double resident_worst;
	bool resident_known;
	bool resident_worst_tree;	/* the worst was a tree's files, not the I/O file */
	/* what the worst measured: "the file", "the tree", "the per-char read's 3.0 MiB of the file" */
	char resident_worst_what[96];
	char cache_outcome[192];	/* "0.0% resident before reads", or the failure */
	double stonewall_s;	/* --stonewall; 0 off */
	struct steady_spec steady;	/* --steady; .on false without */
	/* How clyde chose the counts the user left open. */
	bool seeks_timed;
	bool files_calibrated;
	char size_note[384];
	char files_note[192];
};

/* Under mpirun: one rank's part of one phase, sent to rank 0 as it stands. */
/*
 * A rank's own latency and flush for ranks_detail: gathered only when the
 * ranks are at most cluster_detail_max(), since rank 0 would hold them
 * per rank; above, the aggregate's latency comes from the merged
 * histograms alone.
 */
struct rank_detail {
	double latency_q[4];	/* seconds at latency_quantiles[] */
	double max_latency;
	uint64_t latency_count;
	double flush;
};

/* Above this many ranks the JSON summarises the ranks (ranks_summary) instead of ranks_detail. */
#define CLUSTER_DETAIL_MAX 64

/*
 * Under mpirun: every rank's part of a phase and their aggregate. rank
 * is what must grow with ranks (times, amount, CPU: 64 bytes a rank);
 * detail is kept only up to the detail limit, else summary stands for it.
 */
struct cluster_phase {
	struct aggregate agg;
	struct rank_phase *rank;	/* one per rank (allocated); times in rank 0's clock */
	struct rank_detail *detail;	/* one per rank, or NULL: summarised (allocated) */
	struct ranks_summary summary;	/* when detail is NULL */
};

/* Under mpirun, on rank 0: who took part and what each did. */
struct cluster_run {
	unsigned ranks;
	unsigned hosts;
	char (*host)[64];	/* the distinct hosts, in rank order of first appearance */
	unsigned *rank_host;	/* each rank's index in host[] */
	double *offset;		/* each rank's clock minus rank 0's, seconds */
	unsigned workers;	/* -c of each rank */
	int read_other;		/* --mpi-read-other; 0 off */
	double stonewall_s;	/* --stonewall; 0 off */
	unsigned detail_max;	/* ranks_detail up to this many ranks, ranks_summary above */
	struct cluster_phase phase[PH_COUNT];
};

/* Why a run stopped before its end; failed is false for a run that finished. */
struct run_failure {
	bool failed;
	int phase;		/* enum phase_id, -1: before or between phases */
	char path[4400];	/* the file or name, "" when none */
	int64_t offset;		/* in that file, -1: none */
	int err;		/* -errno, 0 unknown */
	char message[1100];
	int exit_status;
};

/*
 * --age: what aging did before the runs (once per invocation, the same
 * in every run's result); on is false without --age.
 */
struct run_age {
	bool on;
	char spec[128];		/* "80:2:agrawal" */
	char profile[64];
	double target_pct, churn, churn_done;
	uint64_t seed, capacity_bytes;
	double fill_before_pct, fill_aged_pct;
	uint64_t written_bytes, correction_bytes, files_written, files_deleted;
	uint64_t live_files, live_bytes;
	double seconds;
	bool time_box_hit;
	char kept_dir[4200];	/* --age-only: the directory kept; empty otherwise */
};

/*
 * How full the file system was (sys/fsfill.h), percent: at the run's
 * start, at the start of the block read (or of the first phase that ran
 * without one), after the run's files were removed; -1 not measured.
 * measured is false when statvfs told nothing: then no "fill" key.
 */
struct run_fill {
	bool measured;
	uint64_t capacity_bytes;
	double before_pct, phases_pct, after_pct;
};

struct run_result {
	struct run_params params;
	struct run_env env;
	uint64_t mismatches;	/* --verify: bytes that differed */
	struct phase_result phase[PH_COUNT];
	struct run_tree tree;
	struct run_fragmentation frag;
	struct cluster_run *cluster;	/* under mpirun on rank 0; NULL otherwise (allocated) */
	struct run_failure failure;
	struct run_age age;
	struct run_fill fill;
};

/* A host's CPU seconds in a phase: the sum over its ranks. */
void cluster_host_cpu(const struct cluster_run *c, int phase, unsigned host, double *user,
		      double *sys);

/* More than this percent resident before a read: the drop failed. */
#define RESIDENT_TOLERANCE_PCT 5.0

/*
 * Random reads a second that no rotational device reaches: a 15,000 rpm
 * disk's 2 ms half turn and its shortest seek allow a few hundred, five
 * seekers' queued requests somewhat more. Faster seeks on a device that
 * says it is rotational were answered by a cache below clyde.
 */
#define ROTATIONAL_SEEKS_MAX 1000.0

/*
 * Sequential reads a second (KiB) that no rotational disk reaches: the
 * fastest 3.5" disks stream about 300 MB/s (286 MiB/s) on their outer
 * tracks, dual-actuator ones about 550 MB/s (525 MiB/s). Faster reads of
 * a file clyde found uncached, on a device that says it is rotational,
 * came from a cache below clyde.
 */
#define ROTATIONAL_READ_MAX_KIBS (600.0 * 1024)

/* The latency percentiles reported: p50, p90, p99, p99.9. */
#define LAT_QUANTILES 4
extern const double latency_quantiles[LAT_QUANTILES];
extern const char *const latency_quantile_names[LAT_QUANTILES];

/*
 * The one +++++ rule: a phase that ran but has no figure to print, as
 * bonnie++ prints none for phases under half a second (where the user set
 * the count, or exact is false and plus_when_short is set).
 */
/* Free what bench_run allocated in r (the workers' parts). */
void run_result_release(struct run_result *r);
/* One phase's sampled stacks (profile/stacks.h), its texts and itself; NULL is nothing. */
void stack_set_release(struct stack_set *set);

bool phase_hidden(const struct phase_result *p, bool exact);

/* Rate (KiB/s, seeks/s or files/s) and CPU percent of a phase. */
/* The rate the phase reports: --steady's window when it settled, else amount / elapsed. */
double phase_rate(const struct phase_result *p);
/* amount / elapsed, the whole phase's. */
double phase_whole_rate(const struct phase_result *p);
int phase_cpu_percent(const struct phase_result *p);
/* Wall minus user time: the "dead" time of the fsbench study. */
double phase_dead_time(const struct phase_result *p);

#endif
