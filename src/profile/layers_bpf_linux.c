// SPDX-License-Identifier: BSD-2-Clause
/*
 * --profile=layers through libbpf: the object built from layers.bpf.c
 * (embedded by bpftool's skeleton) loaded once per run, before the
 * first phase, for the devices --profile resolved; each phase's window
 * zeroes the counts in the object's .bss and copies them out at its end.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "lib/strutil.h"
#include "lib/timing.h"
#include "profile/layers.h"
#include "profile/layers.skel.h"

_Static_assert(LAYERS_BUCKETS <= LAYERS_SLOTS, "the kernel's histogram holds every bucket");

struct layers_probe {
	struct layers_bpf *skel;
	bool request_queue;
	char devs[128];
	/* BPF_ENABLE_STATS' descriptor: the kernel times every program while it is open */
	int stats_fd;
	char stats_why[96];
	struct layers_prog_stats begin[LAYERS_PROGS];
};

/* The kernel's dev_t, as the tracepoints print it: 12 bits of major, 20 of minor. */
static uint32_t kernel_dev(unsigned int maj, unsigned int min)
{
	return (uint32_t)maj << 20 | min;
}

/* "MAJ:MIN" of /sys/.../dev into a kernel dev_t; 0 or -errno. */
static int read_devno(const char *path, uint32_t *dev)
{
	unsigned int maj, min;
	FILE *f = fopen(path, "r");
	int n;

	if (!f)
		return -errno;
	n = fscanf(f, "%u:%u", &maj, &min);
	fclose(f);
	if (n != 2)
		return -EINVAL;
	*dev = kernel_dev(maj, min);
	return 0;
}

static int add_dev(struct layers_bpf *skel, uint32_t dev)
{
	unsigned int n = skel->rodata->ndevs;

	for (unsigned int i = 0; i < n; i++)
		if (skel->rodata->devs[i] == dev)
			return 0;
	if (n == LAYERS_MAX_DEVS)
		return -E2BIG;
	skel->rodata->devs[n] = dev;
	skel->rodata->ndevs = n + 1;
	return 0;
}

/* The whole disks by name; a bio-based one (no mq/ directory) has no request queue. */
static int add_disks(struct layers_probe *lp, const char *const *names, unsigned int n,
		     char *why, size_t whylen)
{
	char path[256];
	uint32_t dev;
	size_t len;
	int ret;

	lp->request_queue = true;
	for (unsigned int i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "/sys/block/%s/dev", names[i]);
		ret = read_devno(path, &dev);
		if (!ret)
			ret = add_dev(lp->skel, dev);
		if (ret) {
			snprintf(why, whylen, "%s: %s", path, strerror(-ret));
			return ret;
		}
		snprintf(path, sizeof(path), "/sys/block/%s/mq", names[i]);
		if (access(path, F_OK))
			lp->request_queue = false;
		len = strlen(lp->devs);
		snprintf(lp->devs + len, sizeof(lp->devs) - len, "%s%s", i ? "," : "", names[i]);
	}
	return 0;
}

/* The file system's own partition of one of the disks: its bios carry its number. */
static void add_partition(struct layers_probe *lp, uint64_t fs_dev)
{
	unsigned int maj = major((dev_t)fs_dev), min = minor((dev_t)fs_dev);
	uint32_t disk;
	char path[128];

	snprintf(path, sizeof(path), "/sys/dev/block/%u:%u/partition", maj, min);
	if (access(path, F_OK))
		return;
	snprintf(path, sizeof(path), "/sys/dev/block/%u:%u/../dev", maj, min);
	if (read_devno(path, &disk))
		return;
	for (unsigned int i = 0; i < lp->skel->rodata->ndevs; i++)
		if (lp->skel->rodata->devs[i] == disk) {
			add_dev(lp->skel, kernel_dev(maj, min));
			return;
		}
}

/*
 * The kernel's run-time statistics on while the probe lives: BPF_ENABLE_STATS
 * (Linux 5.8), or the sysctl already on; otherwise stats_why says why not.
 */
static void stats_open(struct layers_probe *lp)
{
	char on = '0';
	FILE *f;

	lp->stats_fd = bpf_enable_stats(BPF_STATS_RUN_TIME);
	if (lp->stats_fd >= 0)
		return;
	snprintf(lp->stats_why, sizeof(lp->stats_why), "BPF_ENABLE_STATS: %s",
		 strerror(errno));
	f = fopen("/proc/sys/kernel/bpf_stats_enabled", "r");
	if (f) {
		if (fread(&on, 1, 1, f) != 1)
			on = '0';
		fclose(f);
	}
	if (on == '1')
		lp->stats_why[0] = '\0';
}

/* Each program's run-time counters now; zero where the kernel would not say. */
static void stats_read(const struct layers_probe *lp, struct layers_prog_stats st[LAYERS_PROGS])
{
	const struct bpf_program *progs[LAYERS_PROGS] = {
		[LAYERS_PROG_BIO_QUEUE] = lp->skel->progs.bio_queue,
		[LAYERS_PROG_RQ_ISSUE] = lp->skel->progs.rq_issue,
		[LAYERS_PROG_RQ_COMPLETE] = lp->skel->progs.rq_complete,
	};

	for (int i = 0; i < LAYERS_PROGS; i++) {
		struct bpf_prog_info info;
		__u32 len = sizeof(info);

		memset(&info, 0, sizeof(info));
		memset(&st[i], 0, sizeof(st[i]));
		if (bpf_obj_get_info_by_fd(bpf_program__fd(progs[i]), &info, &len))
			continue;
		st[i].run_cnt = info.run_cnt;
		st[i].run_time_ns = info.run_time_ns;
	}
}

int layers_probe_open(struct layers_probe **out, const char *const *dev_names, unsigned ndev,
		      uint64_t fs_dev, char *why, size_t whylen)
{
	struct layers_probe *lp;
	int ret;

	if (!ndev) {
		snprintf(why, whylen, "no block device under the directory");
		return -ENODEV;
	}
	/* libbpf's own lines on stderr would say again, less plainly, what why says */
	libbpf_set_print(NULL);
	lp = calloc(1, sizeof(*lp));
	if (!lp) {
		snprintf(why, whylen, "%s", strerror(ENOMEM));
		return -ENOMEM;
	}
	lp->stats_fd = -1;
	lp->skel = layers_bpf__open();
	if (!lp->skel) {
		ret = -errno;
		snprintf(why, whylen, "the BPF object would not open: %s", strerror(-ret));
		goto free_probe;
	}
	ret = add_disks(lp, dev_names, ndev, why, whylen);
	if (ret)
		goto destroy_skel;
	add_partition(lp, fs_dev);
	lp->skel->rodata->self_tgid = (uint32_t)getpid();
	ret = layers_bpf__load(lp->skel);
	if (!ret)
		ret = layers_bpf__attach(lp->skel);
	if (ret) {
		snprintf(why, whylen, "the kernel refused the block tracepoints' BPF programs: "
			 "%s", strerror(-ret));
		if (geteuid())
			snprintf(why + strlen(why), whylen - strlen(why),
				 " (they need root; uid %u here: run as root without -u)",
				 (unsigned)geteuid());
		goto destroy_skel;
	}
	stats_open(lp);
	*out = lp;
	return 0;

destroy_skel:
	layers_bpf__destroy(lp->skel);
free_probe:
	free(lp);
	return ret;
}

void layers_probe_close(struct layers_probe *lp)
{
	if (!lp)
		return;
	if (lp->stats_fd >= 0)
		close(lp->stats_fd);
	layers_bpf__destroy(lp->skel);
	free(lp);
}

bool layers_probe_request_queue(const struct layers_probe *lp)
{
	return lp->request_queue;
}

const char *layers_probe_devs(const struct layers_probe *lp)
{
	return lp->devs;
}

void layers_probe_begin(struct layers_probe *lp)
{
	struct layers_bpf__bss *bss = lp->skel->bss;

	bss->enabled = 0;
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	memset(bss->hist, 0, sizeof(bss->hist));
	memset(bss->sum_ns, 0, sizeof(bss->sum_ns));
	memset(bss->own_count, 0, sizeof(bss->own_count));
	memset(bss->own_sum_ns, 0, sizeof(bss->own_sum_ns));
	bss->bios = 0;
	/* bpf_ktime_get_ns() is CLOCK_MONOTONIC, the clock of now_ns() */
	bss->window_start_ns = now_ns();
	stats_read(lp, lp->begin);
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	bss->enabled = 1;
}

void layers_probe_end(struct layers_probe *lp, struct layers_raw *raw)
{
	struct layers_bpf__bss *bss = lp->skel->bss;

	bss->enabled = 0;
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	stats_read(lp, raw->prog_end);
	memcpy(raw->prog_begin, lp->begin, sizeof(raw->prog_begin));
	str_copy(raw->stats_why, sizeof(raw->stats_why), lp->stats_why);
	raw->bios = bss->bios;
	memcpy(raw->sum_ns, bss->sum_ns, sizeof(raw->sum_ns));
	memcpy(raw->own_count, bss->own_count, sizeof(raw->own_count));
	memcpy(raw->own_sum_ns, bss->own_sum_ns, sizeof(raw->own_sum_ns));
	for (int span = 0; span < LAYERS_SPANS; span++)
		memcpy(raw->hist[span], bss->hist[span], sizeof(raw->hist[span]));
	raw->valid = true;
}
