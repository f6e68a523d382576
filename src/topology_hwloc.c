// SPDX-License-Identifier: BSD-2-Clause
/* Topology from hwloc: packages, cores, NUMA nodes. */
#include "config.h"

#include <errno.h>
#include <hwloc.h>

#include "topology.h"

static unsigned count_type(hwloc_topology_t topo, hwloc_obj_type_t type)
{
	int n = hwloc_get_nbobjs_by_type(topo, type);

	return n > 0 ? (unsigned)n : 0;
}

int topology_from_hwloc(struct topology *t)
{
	hwloc_topology_t topo;

	if (hwloc_topology_init(&topo))
		return -ENOMEM;
	if (hwloc_topology_load(topo)) {
		hwloc_topology_destroy(topo);
		return -EIO;
	}
	t->packages = count_type(topo, HWLOC_OBJ_PACKAGE);
	t->cores = count_type(topo, HWLOC_OBJ_CORE);
	t->numa_nodes = count_type(topo, HWLOC_OBJ_NUMANODE);
	if (count_type(topo, HWLOC_OBJ_PU))
		t->cpus = count_type(topo, HWLOC_OBJ_PU);
	t->source = "hwloc";
	hwloc_topology_destroy(topo);
	return 0;
}
