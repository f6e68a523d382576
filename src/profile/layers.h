/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef CLYDE_PROFILE_LAYERS_H
#define CLYDE_PROFILE_LAYERS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "profile/layers_hist.h"

/*
 * --profile=layers: where a phase's I/O latency went, per request sent
 * to the block devices under the test directory. BPF programs on the
 * block tracepoints time each request from its bio's queueing to its
 * issue (the block layer's queue) and from its issue to its completion
 * (the device), into histograms kept in the kernel and read at the
 * phase's edges. What is left of clyde's own per-operation latency lies
 * above the block layer: the system call, the file system, the page
 * cache, and a cgroup's blk-throttle, which holds a bio before
 * block_bio_queue fires.
 *
 * The BPF part is in layers_bpf_linux.c (built with libbpf, configure's
 * --with-bpf) or layers_none.c (the reason it is absent); the arithmetic
 * in layers.c is pure, fed by the unit tests with crafted histograms.
 */

/* One span's figures, seconds; count 0 when no request was timed. */
struct layers_span_stat {
	uint64_t count;
	double sum_s;
	double mean_s;
	double p50_s;
	double p99_s;
};

enum layers_state {
	LAYERS_OFF,		/* not asked */
	LAYERS_UNAVAILABLE,	/* asked, not measured: why says why */
	LAYERS_NO_QUEUE,	/* bio-based devices only (zram, ...): no request events */
	LAYERS_MEASURED,
};

/* The BPF programs, in the order of their run-time counters in struct layers_raw. */
enum layers_prog {
	LAYERS_PROG_BIO_QUEUE,
	LAYERS_PROG_RQ_ISSUE,
	LAYERS_PROG_RQ_COMPLETE,
	LAYERS_PROGS,
};

/* One program's run-time counters as the kernel keeps them (BPF_ENABLE_STATS). */
struct layers_prog_stats {
	uint64_t run_cnt;
	uint64_t run_time_ns;
};

/*
 * What the programs cost over a phase, from the kernel's own run-time
 * counters: their CPU time and runs, and their own part of how far a rate
 * whose I/O path runs them inline falls below an unprofiled run's (the
 * whole loss: 2.5 to 6 times it, formats/format_layers.c).
 */
struct layers_cost {
	bool measured;
	char why[128];				/* not measured: why */
	uint64_t events;			/* the programs' runs, summed */
	double cpu_s;				/* their run time, summed */
	double ns_per_event;			/* -1 with no event */
	double rate_share;			/* cpu_s over the phase's wall time; -1 unknown */
	uint64_t prog_events[LAYERS_PROGS];
	double prog_cpu_s[LAYERS_PROGS];
};

/* The split of one phase, in struct prof_phase. */
struct prof_layers {
	enum layers_state state;
	char why[160];
	uint64_t bios;				/* bios queued on the devices in the window */
	struct layers_span_stat span[LAYERS_SPANS];
	double busy_share;			/* the devices' busy time over the window; -1 unknown */
	/* clyde's own requests (their first bio queued by its process): count and seconds */
	uint64_t own_requests;
	double own_s[LAYERS_SPANS];
	/* clyde's own operations over the phase (its latency histogram) */
	uint64_t ops;
	double op_mean_s;			/* -1 unknown */
	/*
	 * Shares of clyde's summed operation time: its own requests' time in
	 * the queue, at the device, and above the block layer (the rest). -1 when unknown,
	 * or when the requests' time exceeds the operations' (writeback
	 * that no operation waited for): then above_why says so.
	 */
	double queue_share;
	double device_share;
	double above_share;
	double above_mean_s;			/* per operation; -1 as above */
	char above_why[96];
	struct layers_cost cost;		/* the programs' own time over the phase */
};

/* The raw counts one phase's window leaves in the kernel, copied out at its end. */
struct layers_raw {
	bool valid;
	uint64_t bios;
	uint64_t sum_ns[LAYERS_SPANS];
	/* the requests whose first bio clyde's process queued: the part its operations waited on */
	uint64_t own_count[LAYERS_SPANS];
	uint64_t own_sum_ns[LAYERS_SPANS];
	uint64_t hist[LAYERS_SPANS][LAYERS_BUCKETS];
	/*
	 * The programs' run-time counters at the window's start and end;
	 * stats_why empty when the kernel kept them (BPF_ENABLE_STATS held).
	 */
	char stats_why[96];
	struct layers_prog_stats prog_begin[LAYERS_PROGS];
	struct layers_prog_stats prog_end[LAYERS_PROGS];
};

/* Where a cgroup throttle's wait lands: the output and clyde(1) say the same. */
#define LAYERS_THROTTLE_NOTE "a cgroup's blk-throttle wait is above the block layer"

/* --- the arithmetic (layers.c): pure --- */

/* A bucket's bounds in nanoseconds: [low, low + width). */
void layers_bucket_bounds(unsigned int b, uint64_t *low, uint64_t *width);
/* count, sum (from sum_ns), mean, p50 and p99 of one histogram (bucket midpoints). */
void layers_span_summarise(const uint64_t hist[LAYERS_BUCKETS], uint64_t sum_ns,
			   struct layers_span_stat *out);
/* No split: state UNAVAILABLE, every figure unknown, why. */
void layers_unavailable(struct prof_layers *out, const char *why);
/* The phase's split from the raw counts: state MEASURED, or NO_QUEUE with its reason. */
void layers_summarise(const struct layers_raw *raw, bool request_queue, const char *devs,
		      struct prof_layers *out);
/* clyde's operations over the phase: ops and their mean latency; the shares follow. */
void layers_above(struct prof_layers *l, uint64_t ops, double op_mean_s);

/* The programs' names, as the JSON and the text give them. */
const char *layers_prog_name(enum layers_prog prog);
/*
 * The programs' cost over a window of window_s seconds from raw's
 * counters: not measured (why) when the counts are invalid, the kernel
 * kept no run-time statistics or a counter went backwards; the rate
 * share unknown when the window has no length.
 */
void layers_cost_compute(const struct layers_raw *raw, double window_s, struct layers_cost *out);

/* --- the BPF part (layers_bpf_linux.c, or layers_none.c) --- */

struct layers_probe;

/*
 * Load and attach the programs for the devices of dev_names (whole
 * disks, as --profile resolved them) and the file system's own device
 * (a partition is mapped to its disk). 0 with *out set, or -errno with
 * why filled (not built, not root, the kernel refused).
 */
int layers_probe_open(struct layers_probe **out, const char *const *dev_names, unsigned ndev,
		      uint64_t fs_dev, char *why, size_t whylen);
void layers_probe_close(struct layers_probe *lp);
/* Whether every device has a request queue (blk-mq); false for zram and the like. */
bool layers_probe_request_queue(const struct layers_probe *lp);
/* The devices' names, comma-separated, for the messages. */
const char *layers_probe_devs(const struct layers_probe *lp);
/* Start a phase's window: counts from now on. */
void layers_probe_begin(struct layers_probe *lp);
/* End it: the counts since layers_probe_begin into raw. */
void layers_probe_end(struct layers_probe *lp, struct layers_raw *raw);

#endif
