/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef CLYDE_PLACEMENT_H
#define CLYDE_PLACEMENT_H

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * Where workers run: the machine's topology as one plain model (from
 * hwloc, else sysfs, else sysconf; or a test's synthetic
 * description), a pure planner from the model and the options to each
 * worker's CPUs and memory node, and the OS layer that applies a plan
 * to a thread and observes what really happened.
 */

#define PLACE_MAX_PUS	1024
#define PLACE_MAX_NODES	64
#define PLACE_MASK_WORDS	(PLACE_MAX_PUS / 64)
#define PLACE_MAX_CACHES	4

/* --- CPU sets and their text: cpu_mask.c --- */

/* A set of logical CPUs by OS index. */
struct place_mask {
	uint64_t w[PLACE_MASK_WORDS];
};

static inline void place_mask_set(struct place_mask *m, unsigned cpu)
{
	if (cpu < PLACE_MAX_PUS)
		m->w[cpu / 64] |= 1ull << (cpu % 64);
}

static inline bool place_mask_has(const struct place_mask *m, unsigned cpu)
{
	return cpu < PLACE_MAX_PUS && (m->w[cpu / 64] >> (cpu % 64)) & 1;
}

unsigned place_mask_count(const struct place_mask *m);
/* "0-3,8,10-11": 0, or -EINVAL for bad text or a CPU >= PLACE_MAX_PUS. */
int place_mask_parse(const char *list, struct place_mask *m);
/* The same form back; "" for an empty set. */
void place_mask_format(const struct place_mask *m, char *buf, size_t len);

/*
 * --- the topology model: topology.c (pure), topo_load.c and
 * topology_hwloc.c (this machine's) ---
 */

/* One logical CPU (hardware thread). */
struct place_pu {
	int os;		/* OS index: what sched_setaffinity takes */
	int core;	/* index of its core in the model, 0.. */
	int package;	/* index of its package, 0.. */
	int node;	/* OS index of its NUMA node, -1 unknown */
	bool allowed;	/* in this process's CPU set (cgroup cpuset, taskset, --cpus) */
};

struct place_numa_node {
	int os;			/* OS index */
	unsigned npus;		/* 0: a memory-only node */
	uint64_t mem_bytes;	/* 0 unknown */
};

struct place_cpu_cache {
	int level;		/* 1, 2, 3 */
	char type;		/* 'd' data, 'i' instruction, 'u' unified */
	uint64_t size;		/* bytes, of the first PU's cache at this level */
};

struct place_topology {
	const char *source;	/* "hwloc", "sysfs", "sysconf", "synthetic" */
	unsigned npus;		/* pu[] entries, sorted by os */
	unsigned ncores;	/* 0 unknown */
	unsigned npackages;	/* 0 unknown */
	unsigned nnodes;	/* node[] entries; 0 unknown */
	struct place_pu pu[PLACE_MAX_PUS];
	struct place_numa_node node[PLACE_MAX_NODES];
	unsigned ncaches;
	struct place_cpu_cache cache[PLACE_MAX_CACHES];
	int device_node;	/* the NUMA node of -d's block device, -1 unknown */
	char device_why[128];	/* how it was found, or why not */
	char unknown[160];	/* what the model could not tell, for the report */
};

/*
 * A test's machine, in the form of hwloc's synthetic descriptions:
 * "pack:2 numa:2 core:4 pu:2" (levels outermost first; numa may be
 * missing: one node). Extras for cases synthetic text cannot say:
 * "memnode:N" adds N memory-only nodes, "allowed:LIST" restricts the
 * process's CPU set. Pure; 0 or -EINVAL with err set.
 */
int place_topology_synthetic(const char *desc, struct place_topology *m, char *err, size_t errlen);

/*
 * One line for the report, no commas: "2 packages 4 NUMA nodes 16 cores
 * 32 threads; L1d 32 KiB L2 1 MiB L3 32 MiB; vda on node 0 (hwloc)".
 */
void place_topology_describe(const struct place_topology *m, char *buf, size_t len);

/* This machine: hwloc, else sysfs, else sysconf. Never fails. */
void place_topology_load(struct place_topology *m);
/* The NUMA node of a block device ("vda"): device_node and device_why. */
void place_topology_device_node(struct place_topology *m, const char *blockdev);

/* Library and sysfs loaders, stubs where not built. */
#ifdef HAVE_HWLOC
int place_topology_from_hwloc(struct place_topology *m);
/* For the tests: the same from hwloc's own synthetic or XML loaders. */
int place_topology_from_hwloc_synthetic(const char *hwloc_desc, struct place_topology *m);
int place_topology_from_hwloc_xml(const char *path, struct place_topology *m);
#else
static inline int place_topology_from_hwloc(struct place_topology *m)
{
	(void)m;
	return -ENOSYS;
}
static inline int place_topology_from_hwloc_synthetic(const char *d, struct place_topology *m)
{
	(void)d;
	(void)m;
	return -ENOSYS;
}
static inline int place_topology_from_hwloc_xml(const char *path, struct place_topology *m)
{
	(void)path;
	(void)m;
	return -ENOSYS;
}
#endif

/* --- the planner: placement_plan.c --- */

/* --bind, --cpus, --numa-node, --mem-policy. */
enum place_bind {
	BIND_NONE,
	BIND_CORE,	/* worker i on core i mod cores, all its hardware threads */
	BIND_NUMA,	/* worker i on node i mod nodes with CPUs, all its CPUs */
};

enum place_mem_policy {
	MEM_DEFAULT,	/* the system's: first touch */
	MEM_LOCAL,
	MEM_INTERLEAVE,	/* over the nodes the plan uses */
	MEM_BIND,	/* only mem_node */
};

#define PLACE_NUMA_NODE_NONE		-1
#define PLACE_NUMA_NODE_DEVICE	-2

struct place_opts {
	enum place_bind bind;
	const char *cpus;	/* --cpus=LIST, NULL: every allowed CPU */
	int numa_node;		/* N, PLACE_NUMA_NODE_NONE or PLACE_NUMA_NODE_DEVICE */
	enum place_mem_policy mem;
	int mem_node;		/* MEM_BIND's node */
};

/* What one worker (and its seekers) gets. */
struct place_worker {
	bool bind;		/* set its CPUs */
	struct place_mask cpus;
	int core;		/* BIND_CORE: the core's index; else -1 */
	int node;		/* the node its CPUs are on, -1 several or unknown */
	enum place_mem_policy mem;
	struct place_mask mem_nodes;	/* nodes of MEM_BIND / MEM_INTERLEAVE, by OS index */
};

struct place_plan {
	unsigned workers;
	bool any_binding;	/* some thread's CPUs or memory are set */
	struct place_worker w[256];	/* MAX_CONCURRENCY */
	char summary[256];	/* "core: 2 workers on cores 0 1; memory local" */
};

/*
 * The plan: a pure function of the model and the options. numa_capable
 * says whether this build can set memory policy (hwloc or libnuma).
 * 0, or -EINVAL (a request the model cannot meet: a node that does not
 * exist or has no allowed CPU, an empty --cpus) or -ENOTSUP (a NUMA
 * request in a build without hwloc and libnuma), with err set.
 */
int place_plan_make(const struct place_topology *m, const struct place_opts *o, unsigned workers,
		   bool numa_capable, struct place_plan *plan, char *err, size_t errlen);

/* Whether this build can set memory policy (hwloc or libnuma). */
bool place_numa_capable(void);

/*
 * Memory policy of the calling thread: hwloc preferred
 * (placement_hwloc.c), else libnuma (placement_numa.c).
 */
#ifdef HAVE_HWLOC
int place_mem_hwloc(enum place_mem_policy mem, const struct place_mask *nodes);
#else
static inline int place_mem_hwloc(enum place_mem_policy mem, const struct place_mask *nodes)
{
	(void)mem;
	(void)nodes;
	return -ENOSYS;
}
#endif
#ifdef HAVE_LIBNUMA
int place_mem_libnuma(enum place_mem_policy mem, const struct place_mask *nodes);
#else
static inline int place_mem_libnuma(enum place_mem_policy mem, const struct place_mask *nodes)
{
	(void)mem;
	(void)nodes;
	return -ENOSYS;
}
#endif

/* --- the OS layer: placement_linux.c, placement_bsd.c --- */

/*
 * Apply a worker's plan to the calling thread (threads it makes later
 * inherit it). 0, or -errno; note says what the kernel did instead
 * ("refused: EINVAL", "narrowed by the cpuset to 0-1").
 */
int place_thread(const struct place_worker *pw, char *note, size_t len);
/* The calling thread's CPU set now; -errno where it cannot be read. */
int place_thread_cpus(struct place_mask *m);
/*
 * What place_thread (placement_bind.c) asks of the OS layer: the calling
 * thread's CPUs set (-ENOSYS where the OS cannot), its memory policy set
 * by what this build has (-ENOSYS where nothing can), and the note for
 * that case.
 */
int place_os_affinity(const struct place_mask *m);
int place_os_mem(enum place_mem_policy mem, const struct place_mask *nodes);
extern const char place_os_mem_missing[];
/* The CPU the calling thread runs on, -1 unknown. */
int place_current_cpu(void);
/* The NUMA node of the page at addr, -1 unknown (no NUMA support). */
int place_page_node(const void *addr);

/* A request placement refuses (placement_note.c): its message in err, and -EINVAL. */
int place_fail(char *err, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Shared by the OS layers (placement_note.c): append to a note, "; " between parts. */
void place_note_add(char *note, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* "WHAT refused: Invalid argument (EINVAL)", err positive. */
void place_note_refused(char *note, size_t len, const char *what, int err);

/*
 * The node of the buffer a phase's worker thread filled last, noted by
 * the pipeline: kept per thread, read (and forgotten) by the runner
 * (placement_buffer.c).
 */
void place_note_buffer(const void *addr);
int place_take_buffer_node(void);

#endif
