// SPDX-License-Identifier: BSD-2-Clause OR GPL-2.0
/*
 * --profile=layers in the kernel: the block tracepoints of the devices
 * clyde tests, a request's time in the block layer's queue (its first
 * bio queued -> the request issued) and at the device (issued ->
 * completed) into histograms in this object's .bss, which clyde reads
 * through the skeleton's mapping at a phase's end.
 *
 * Raw tracepoints: they need no tracefs mounted (a classic tracepoint's
 * id is read from it) and give the bio and the request themselves, so a
 * request is known by its address from issue to completion, and its
 * queue time is its first bio's (a bio merged behind it is not timed;
 * its entry ages out of the LRU map). fentry and kprobes are not
 * available on every kernel clyde runs on. Requests without data
 * (flushes) are left out: their time is no transfer's.
 *
 * A request whose first bio clyde's own process queued (a thread of
 * its, io_uring's workers included) is counted apart as well: the part
 * of clyde's operation time spent in the queue and at the device is
 * its requests', not the journal's or write-back's beside them.
 */
#include "profile/vmlinux.h"
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#include "profile/layers_hist.h"

char LICENSE[] SEC("license") = "Dual BSD/GPL";

/* When a bio was queued or a request issued, and whether clyde's process queued it. */
struct stamp {
	__u64 ns;
	__u32 own;
	__u32 pad;
};

struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, 16384);
	__type(key, __u64);
	__type(value, struct stamp);
} queued SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, 16384);
	__type(key, __u64);
	__type(value, struct stamp);
} issued SEC(".maps");

/* Set before loading: the traced devices (kernel dev_t): the disks and the file system's partition. */
const volatile __u32 devs[LAYERS_MAX_DEVS];
const volatile __u32 ndevs;
/* clyde's process (its tgid), set before loading */
const volatile __u32 self_tgid;

/* Written by clyde at a phase's start: only what began at or after it counts. */
volatile __u64 window_start_ns;
volatile __u32 enabled;

/* The counts, read by clyde at the phase's end and zeroed at the next one's start. */
__u64 bios;
__u64 sum_ns[LAYERS_SPANS];
__u64 own_count[LAYERS_SPANS];
__u64 own_sum_ns[LAYERS_SPANS];
__u64 hist[LAYERS_SPANS][LAYERS_SLOTS];

static __always_inline int traced(__u32 dev)
{
	for (int i = 0; i < LAYERS_MAX_DEVS; i++) {
		if (i >= ndevs)
			break;
		if (devs[i] == dev)
			return 1;
	}
	return 0;
}

/* A request's disk: the whole device, whichever partition its bios were sent to. */
static __always_inline __u32 rq_disk(struct request *rq)
{
	return BPF_CORE_READ(rq, q, disk, part0, bd_dev);
}

static __always_inline void record(int span, __u64 ns, __u32 own)
{
	/* layers_bucket() is below LAYERS_BUCKETS; the mask says so to the verifier */
	unsigned int b = layers_bucket(ns) & (LAYERS_SLOTS - 1);

	__sync_fetch_and_add(&hist[span][b], 1);
	__sync_fetch_and_add(&sum_ns[span], ns);
	if (own) {
		__sync_fetch_and_add(&own_count[span], 1);
		__sync_fetch_and_add(&own_sum_ns[span], ns);
	}
}

SEC("raw_tp/block_bio_queue")
int BPF_PROG(bio_queue, struct bio *bio)
{
	struct stamp st = { 0 };
	__u64 key = (__u64)bio;

	if (!enabled || !traced(BPF_CORE_READ(bio, bi_bdev, bd_dev)))
		return 0;
	__sync_fetch_and_add(&bios, 1);
	st.ns = bpf_ktime_get_ns();
	st.own = (bpf_get_current_pid_tgid() >> 32) == self_tgid;
	bpf_map_update_elem(&queued, &key, &st, BPF_ANY);
	return 0;
}

SEC("raw_tp/block_rq_issue")
int BPF_PROG(rq_issue, struct request *rq)
{
	struct stamp st = { 0 }, *q;
	__u64 key;

	if (!enabled || !BPF_CORE_READ(rq, __data_len) || !traced(rq_disk(rq)))
		return 0;
	st.ns = bpf_ktime_get_ns();
	key = (__u64)BPF_CORE_READ(rq, bio);
	q = bpf_map_lookup_elem(&queued, &key);
	if (q) {
		st.own = q->own;
		if (q->ns >= window_start_ns && st.ns >= q->ns)
			record(LAYERS_QUEUE, st.ns - q->ns, q->own);
		bpf_map_delete_elem(&queued, &key);
	}
	key = (__u64)rq;
	bpf_map_update_elem(&issued, &key, &st, BPF_ANY);
	return 0;
}

SEC("raw_tp/block_rq_complete")
int BPF_PROG(rq_complete, struct request *rq)
{
	__u64 key = (__u64)rq, now;
	struct stamp *t;

	if (!enabled)
		return 0;
	t = bpf_map_lookup_elem(&issued, &key);
	if (!t)
		return 0;
	now = bpf_ktime_get_ns();
	if (t->ns >= window_start_ns && now >= t->ns)
		record(LAYERS_DEVICE, now - t->ns, t->own);
	bpf_map_delete_elem(&issued, &key);
	return 0;
}
