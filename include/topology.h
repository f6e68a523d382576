/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef CLYDE_TOPOLOGY_H
#define CLYDE_TOPOLOGY_H

#include <errno.h>
#include <stdint.h>

/* What the report says about the machine's CPUs, memory and NUMA layout. */
struct topology {
	unsigned cpus;		/* online logical CPUs */
	unsigned cores;		/* physical cores; 0 when unknown */
	unsigned packages;	/* sockets; 0 when unknown */
	unsigned numa_nodes;	/* 0 when unknown */
	uint64_t ram_bytes;
	const char *source;	/* "hwloc", "libnuma" or "sysconf" */
};

void topology_get(struct topology *t);

/* Library-backed parts; stubs when configure left the library out. */
#ifdef HAVE_HWLOC
int topology_from_hwloc(struct topology *t);
#else
static inline int topology_from_hwloc(struct topology *t)
{
	(void)t;
	return -ENOSYS;
}
#endif

#ifdef HAVE_LIBNUMA
int topology_from_libnuma(struct topology *t);
#else
static inline int topology_from_libnuma(struct topology *t)
{
	(void)t;
	return -ENOSYS;
}
#endif

#endif
