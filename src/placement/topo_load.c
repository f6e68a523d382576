// SPDX-License-Identifier: BSD-2-Clause
/* This machine's topology model: hwloc, else Linux sysfs, else sysconf. */
#include "config.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#ifdef __linux__
#include <sched.h>
#endif

#include "placement/placement.h"

#define SYS_CPU		"/sys/devices/system/cpu"
#define SYS_NODE	"/sys/devices/system/node"

static void note_unknown(struct place_topology *m, const char *what)
{
	size_t n = strlen(m->unknown);

	snprintf(m->unknown + n, sizeof(m->unknown) - n, "%s%s", n ? ", " : "", what);
}

/* The first line of a small file, trailing space cut: 0 or -errno. */
static int read_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	size_t n;
	int err = 0;

	if (!f)
		return -errno;
	if (!fgets(buf, (int)len, f))
		err = -EIO;
	fclose(f);
	if (err)
		return err;
	n = strlen(buf);
	while (n && isspace((unsigned char)buf[n - 1]))
		buf[--n] = '\0';
	return 0;
}

static int read_long(const char *path, long *v)
{
	char buf[64], *end;
	int err = read_line(path, buf, sizeof(buf));

	if (err)
		return err;
	errno = 0;
	*v = strtol(buf, &end, 10);
	if (end == buf || *end || errno)
		return -EINVAL;
	return 0;
}

/* "cpu12" with prefix "cpu": true and 12. */
static bool name_index(const char *name, const char *prefix, unsigned *idx)
{
	size_t n = strlen(prefix);
	const char *p = name + n;

	if (strncmp(name, prefix, n) || !isdigit((unsigned char)*p))
		return false;
	*idx = 0;
	for (; isdigit((unsigned char)*p); p++) {
		if (*idx > PLACE_MAX_PUS)
			return false;
		*idx = *idx * 10 + (unsigned)(*p - '0');
	}
	return !*p;
}

/*
 * A kernel CPU list ("0-3,8", "" for none) into set[PLACE_MAX_PUS]; CPUs
 * past the model's limit set *cut. 0 or -EINVAL.
 */
static int parse_list(const char *s, bool *set, bool *cut)
{
	while (*s) {
		unsigned long lo, hi, i;
		char *end;

		lo = strtoul(s, &end, 10);
		if (end == s)
			return -EINVAL;
		hi = lo;
		s = end;
		if (*s == '-') {
			hi = strtoul(s + 1, &end, 10);
			if (end == s + 1 || hi < lo)
				return -EINVAL;
			s = end;
		}
		for (i = lo; i <= hi; i++) {
			if (i >= PLACE_MAX_PUS) {
				*cut = true;
				break;
			}
			set[i] = true;
		}
		if (*s == ',')
			s++;
		else if (*s)
			return -EINVAL;
	}
	return 0;
}

static int read_list(const char *path, bool *set, bool *cut)
{
	char buf[4096];
	int err = read_line(path, buf, sizeof(buf));

	memset(set, 0, PLACE_MAX_PUS * sizeof(*set));
	if (err)
		return err;
	return parse_list(buf, set, cut);
}

/* The online CPUs: the kernel's list, else the cpuN directories. */
static int sysfs_online(bool *online, bool *cut)
{
	struct dirent *de;
	DIR *d;
	unsigned cpu;
	int err = -ENOENT;

	if (!read_list(SYS_CPU "/online", online, cut))
		return 0;
	memset(online, 0, PLACE_MAX_PUS * sizeof(*online));
	d = opendir(SYS_CPU);
	if (!d)
		return -errno;
	while ((de = readdir(d))) {
		if (!name_index(de->d_name, "cpu", &cpu))
			continue;
		if (cpu >= PLACE_MAX_PUS) {
			*cut = true;
			continue;
		}
		online[cpu] = true;
		err = 0;
	}
	closedir(d);
	return err;
}

struct core_id {
	int package;	/* the model's package index */
	long id;	/* the kernel's core_id, unique within a package */
};

/*
 * Cores and packages from each CPU's topology directory. Packages are
 * numbered in order of their first CPU, cores by package and then by
 * their first CPU: the order hwloc's logical indexes give.
 */
static void sysfs_cores(struct place_topology *m)
{
	struct core_id core[PLACE_MAX_PUS];
	long pkg_id[PLACE_MAX_PUS];
	unsigned rank[PLACE_MAX_PUS];
	unsigned ncores = 0, npkgs = 0, i, k;
	bool known = true;
	char path[128];

	for (i = 0; i < m->npus; i++) {
		struct place_pu *p = &m->pu[i];
		long pkg = 0, id = p->os;

		snprintf(path, sizeof(path), SYS_CPU "/cpu%d/topology/physical_package_id", p->os);
		if (read_long(path, &pkg))
			known = false;
		snprintf(path, sizeof(path), SYS_CPU "/cpu%d/topology/core_id", p->os);
		if (read_long(path, &id)) {
			known = false;
			id = p->os;
		}
		for (k = 0; k < npkgs && pkg_id[k] != pkg; k++)
			;
		if (k == npkgs)
			pkg_id[npkgs++] = pkg;
		p->package = (int)k;
		for (k = 0; k < ncores; k++)
			if (core[k].package == p->package && core[k].id == id)
				break;
		if (k == ncores) {
			core[ncores].package = p->package;
			core[ncores++].id = id;
		}
		p->core = (int)k;
	}
	for (k = 0; k < ncores; k++) {
		rank[k] = 0;
		for (i = 0; i < ncores; i++)
			rank[k] += core[i].package < core[k].package ||
				   (core[i].package == core[k].package && i < k);
	}
	for (i = 0; i < m->npus; i++)
		m->pu[i].core = (int)rank[m->pu[i].core];
	m->ncores = ncores;
	m->npackages = npkgs;
	if (!known)
		note_unknown(m, "some CPUs' core or package unknown");
}

static uint64_t node_mem(unsigned node)
{
	char path[128], line[256];
	unsigned long long kb;
	uint64_t bytes = 0;
	FILE *f;

	snprintf(path, sizeof(path), SYS_NODE "/node%u/meminfo", node);
	f = fopen(path, "r");
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		const char *t = strstr(line, "MemTotal:");

		/* "Node 0 MemTotal:       16303548 kB" */
		if (t && sscanf(t, "MemTotal: %llu kB", &kb) == 1) {
			bytes = (uint64_t)kb * 1024;
			break;
		}
	}
	fclose(f);
	return bytes;
}

static int cmp_node(const void *a, const void *b)
{
	const struct place_numa_node *x = a, *y = b;

	return (x->os > y->os) - (x->os < y->os);
}

/*
 * NUMA nodes and each CPU's node. A node without CPUs is kept when it
 * has memory (CXL, PMEM, HBM): the memory-only nodes of the model. One
 * with neither can hold nothing and is left out.
 */
static void sysfs_nodes(struct place_topology *m, bool *cut)
{
	bool cpus[PLACE_MAX_PUS], has_mem[PLACE_MAX_PUS];
	bool mem_known, lost = false;
	struct dirent *de;
	unsigned node, i;
	char path[128];
	DIR *d;

	mem_known = !read_list(SYS_NODE "/has_memory", has_mem, &lost);
	d = opendir(SYS_NODE);
	if (!d) {
		note_unknown(m, "NUMA nodes unknown");
		return;
	}
	while ((de = readdir(d))) {
		struct place_numa_node *n;
		unsigned npus = 0;
		uint64_t mem;

		if (!name_index(de->d_name, "node", &node))
			continue;
		if (node >= PLACE_MAX_PUS || m->nnodes == PLACE_MAX_NODES) {
			*cut = true;
			continue;
		}
		snprintf(path, sizeof(path), SYS_NODE "/node%u/cpulist", node);
		if (read_list(path, cpus, cut))
			continue;
		for (i = 0; i < m->npus; i++) {
			if (!cpus[m->pu[i].os])
				continue;
			m->pu[i].node = (int)node;
			npus++;
		}
		mem = node_mem(node);
		if (!npus && (mem_known ? !has_mem[node] : !mem))
			continue;
		n = &m->node[m->nnodes++];
		n->os = (int)node;
		n->npus = npus;
		n->mem_bytes = mem;
	}
	closedir(d);
	qsort(m->node, m->nnodes, sizeof(m->node[0]), cmp_node);
	if (!m->nnodes)
		note_unknown(m, "NUMA nodes unknown");
}

/* "32K", "1024K", "8M" */
static uint64_t parse_size(const char *s)
{
	char *end;
	unsigned long long v = strtoull(s, &end, 10);

	switch (toupper((unsigned char)*end)) {
	case 'K':
		return (uint64_t)v << 10;
	case 'M':
		return (uint64_t)v << 20;
	case 'G':
		return (uint64_t)v << 30;
	default:
		return v;
	}
}

/* The first CPU's L1 data, L2 and L3 caches. */
static void sysfs_caches(struct place_topology *m)
{
	char path[160], type[32], size[32];
	unsigned k;
	long level;

	for (k = 0; m->ncaches < PLACE_MAX_CACHES; k++) {
		struct place_cpu_cache *c = &m->cache[m->ncaches];
		int cpu = m->pu[0].os;

		snprintf(path, sizeof(path), SYS_CPU "/cpu%d/cache/index%u/level", cpu, k);
		if (read_long(path, &level))
			break;
		snprintf(path, sizeof(path), SYS_CPU "/cpu%d/cache/index%u/type", cpu, k);
		if (read_line(path, type, sizeof(type)))
			continue;
		snprintf(path, sizeof(path), SYS_CPU "/cpu%d/cache/index%u/size", cpu, k);
		if (read_line(path, size, sizeof(size)))
			continue;
		if (level < 1 || level > 3 || !strcmp(type, "Instruction") ||
		    (level == 1 && strcmp(type, "Data")))
			continue;
		c->level = (int)level;
		c->type = strcmp(type, "Data") ? 'u' : 'd';
		c->size = parse_size(size);
		m->ncaches++;
	}
	if (!m->ncaches)
		note_unknown(m, "caches unknown");
}

static int load_sysfs(struct place_topology *m)
{
	bool online[PLACE_MAX_PUS], cut = false;
	unsigned cpu;
	int err;

	err = sysfs_online(online, &cut);
	if (err)
		return err;
	for (cpu = 0; cpu < PLACE_MAX_PUS; cpu++) {
		struct place_pu *p = &m->pu[m->npus];

		if (!online[cpu])
			continue;
		p->os = (int)cpu;
		p->node = -1;
		p->allowed = true;
		m->npus++;
	}
	if (!m->npus)
		return -ENOENT;
	sysfs_cores(m);
	sysfs_nodes(m, &cut);
	sysfs_caches(m);
	if (cut)
		note_unknown(m, "CPUs or nodes beyond the model's limits left out");
	m->source = "sysfs";
	return 0;
}

/* The count alone: each CPU its own core, one package, nodes unknown. */
static void load_sysconf(struct place_topology *m)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	unsigned i;

	if (n < 1)
		n = 1;
	if (n > PLACE_MAX_PUS)
		n = PLACE_MAX_PUS;
	for (i = 0; i < (unsigned)n; i++) {
		m->pu[i].os = (int)i;
		m->pu[i].core = (int)i;
		m->pu[i].package = 0;
		m->pu[i].node = -1;
		m->pu[i].allowed = true;
	}
	m->npus = (unsigned)n;
	m->source = "sysconf";
	note_unknown(m, "cores, packages and NUMA nodes unknown (no hwloc, no sysfs)");
	note_unknown(m, "caches unknown");
}

#ifdef __linux__
/* The CPUs this process may run on; false when the kernel will not say. */
static bool affinity_get(bool *in)
{
	cpu_set_t set;
	unsigned i;

	CPU_ZERO(&set);
	if (sched_getaffinity(0, sizeof(set), &set))
		return false;
	for (i = 0; i < PLACE_MAX_PUS; i++)
		in[i] = i < CPU_SETSIZE && CPU_ISSET(i, &set);
	return true;
}
#else
/* No portable call: every CPU counts as allowed. */
static bool affinity_get(bool *in)
{
	(void)in;
	return false;
}
#endif

static void model_reset(struct place_topology *m)
{
	memset(m, 0, sizeof(*m));
	m->device_node = -1;
}

void place_topology_load(struct place_topology *m)
{
	bool in[PLACE_MAX_PUS];
	unsigned i;

	model_reset(m);
	if (place_topology_from_hwloc(m)) {
		model_reset(m);
		if (load_sysfs(m)) {
			model_reset(m);
			load_sysconf(m);
		}
	}
	/* taskset narrows the set below what a cgroup cpuset allows. */
	if (!affinity_get(in))
		return;
	for (i = 0; i < m->npus; i++)
		m->pu[i].allowed = m->pu[i].allowed && in[m->pu[i].os];
}

__attribute__((format(printf, 3, 4)))
static void device_says(struct place_topology *m, int node, const char *fmt, ...)
{
	va_list ap;

	m->device_node = node;
	va_start(ap, fmt);
	vsnprintf(m->device_why, sizeof(m->device_why), fmt, ap);
	va_end(ap);
}

#ifdef __linux__
/* Cut the last component of a path: false at the root. */
static bool path_up(char *path)
{
	char *slash = strrchr(path, '/');

	if (!slash || slash == path)
		return false;
	*slash = '\0';
	return true;
}

/*
 * The disk's numa_node is on its bus device (the PCI function of a
 * virtio or NVMe disk, a SCSI host's adapter), some levels above the
 * block device: walk up until one says.
 */
static void device_node(struct place_topology *m, const char *name)
{
	char path[PATH_MAX + 32], real[PATH_MAX], dev[PATH_MAX];
	long node;

	snprintf(path, sizeof(path), "/sys/class/block/%s", name);
	if (strchr(name, '/') || name[0] == '.' || !realpath(path, real)) {
		device_says(m, -1, "%s: no such block device", name);
		return;
	}
	if (strstr(real, "/devices/virtual/")) {
		device_says(m, -1, "%s is virtual: no node", name);
		return;
	}
	/* A partition is on its disk's node. */
	snprintf(path, sizeof(path), "%s/partition", real);
	if (!access(path, F_OK))
		path_up(real);
	snprintf(path, sizeof(path), "%s/device", real);
	if (!realpath(path, dev)) {
		device_says(m, -1, "%s has no device in sysfs", name);
		return;
	}
	for (;;) {
		snprintf(path, sizeof(path), "%s/numa_node", dev);
		if (!read_long(path, &node))
			break;
		if (!path_up(dev) || strlen(dev) <= strlen("/sys/devices")) {
			device_says(m, -1, "%s: no numa_node above its device", name);
			return;
		}
	}
	if (node < 0)
		device_says(m, -1, "no NUMA node (the device says -1: %s)", path);
	else
		device_says(m, (int)node, "%s", path);
}
#else
static void device_node(struct place_topology *m, const char *name)
{
	device_says(m, -1, "%s: no device NUMA lookup on this system", name);
}
#endif

void place_topology_device_node(struct place_topology *m, const char *blockdev)
{
	const char *name = blockdev ? blockdev : "";

	if (!strncmp(name, "/dev/", 5))
		name += 5;
	if (!*name) {
		device_says(m, -1, "no block device");
		return;
	}
	device_node(m, name);
}
