// SPDX-License-Identifier: BSD-2-Clause
/* CPU, memory and NUMA layout: hwloc, then libnuma, then sysconf. */
#include "config.h"

#include <string.h>
#include <unistd.h>

#include "topology.h"

void topology_get(struct topology *t)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	long pages = sysconf(_SC_PHYS_PAGES);
	long page = sysconf(_SC_PAGESIZE);

	memset(t, 0, sizeof(*t));
	t->cpus = cpus > 0 ? (unsigned)cpus : 1;
	if (pages > 0 && page > 0)
		t->ram_bytes = (uint64_t)pages * (uint64_t)page;
	t->source = "sysconf";
	if (!topology_from_hwloc(t))
		return;
	topology_from_libnuma(t);
}
