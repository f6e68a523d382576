// SPDX-License-Identifier: BSD-2-Clause
/* NUMA node count from libnuma, when hwloc is not built in. */
#include "config.h"

#include <errno.h>
#include <numa.h>

#include "topology.h"

int topology_from_libnuma(struct topology *t)
{
	if (numa_available() < 0)
		return -ENOSYS;
	t->numa_nodes = (unsigned)numa_num_configured_nodes();
	t->source = "libnuma";
	return 0;
}
