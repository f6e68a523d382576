// SPDX-License-Identifier: BSD-2-Clause
/* CPUs from the topology model, memory from sysconf. */
#include "config.h"

#include <string.h>
#include <unistd.h>

#include "placement/placement.h"
#include "placement/topology.h"

void topology_get(struct topology *t, const struct topo_model *m)
{
	long pages = sysconf(_SC_PHYS_PAGES);
	long page = sysconf(_SC_PAGESIZE);

	memset(t, 0, sizeof(*t));
	t->cpus = m->npus ? m->npus : 1;
	if (pages > 0 && page > 0)
		t->ram_bytes = (uint64_t)pages * (uint64_t)page;
}
