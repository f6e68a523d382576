// SPDX-License-Identifier: BSD-2-Clause
/* Topology from hwloc: packages, cores, NUMA nodes, caches. */
#include "config.h"

#include <errno.h>
#include <hwloc.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "placement/placement.h"

/*
 * The NUMA node a PU belongs to: of the nodes local to it, the one
 * with the fewest CPUs, then the lowest OS index. hwloc gives a
 * memory-only node (CXL, PMEM, HBM) the cpuset of the place it hangs
 * from, so its cpuset alone cannot tell it from the node the CPUs
 * really belong to.
 */
static int pu_node(hwloc_topology_t topo, hwloc_obj_t pu)
{
	hwloc_obj_t node = NULL, best = NULL;
	int best_weight = 0;

	while ((node = hwloc_get_next_obj_by_type(topo, HWLOC_OBJ_NUMANODE, node))) {
		int w;

		if (!hwloc_bitmap_isset(pu->nodeset, node->os_index))
			continue;
		w = hwloc_bitmap_weight(node->cpuset);
		if (!best || w < best_weight ||
		    (w == best_weight && node->os_index < best->os_index)) {
			best = node;
			best_weight = w;
		}
	}
	return best ? (int)best->os_index : -1;
}

static int ancestor_index(hwloc_topology_t topo, hwloc_obj_t pu, hwloc_obj_type_t type)
{
	hwloc_obj_t a = hwloc_get_ancestor_obj_by_type(topo, type, pu);

	return a ? (int)a->logical_index : -1;
}

/* L1 data, L2 and L3 above the PU, innermost first. */
static void model_caches(hwloc_obj_t pu, struct place_topology *m)
{
	hwloc_obj_t o;

	for (o = pu->parent; o && m->ncaches < PLACE_MAX_CACHES; o = o->parent) {
		struct place_cpu_cache *c = &m->cache[m->ncaches];

		if (o->type != HWLOC_OBJ_L1CACHE && o->type != HWLOC_OBJ_L2CACHE &&
		    o->type != HWLOC_OBJ_L3CACHE)
			continue;
		if (o->attr->cache.type == HWLOC_OBJ_CACHE_INSTRUCTION)
			continue;
		c->level = (int)o->attr->cache.depth;
		c->type = o->attr->cache.type == HWLOC_OBJ_CACHE_DATA ? 'd' : 'u';
		c->size = o->attr->cache.size;
		m->ncaches++;
	}
}

static int cmp_node(const void *a, const void *b)
{
	const struct place_numa_node *x = a, *y = b;

	return (x->os > y->os) - (x->os < y->os);
}

static void note_unknown(struct place_topology *m, const char *what)
{
	size_t n = strlen(m->unknown);

	snprintf(m->unknown + n, sizeof(m->unknown) - n, "%s%s", n ? ", " : "", what);
}

/*
 * A loaded topology into the model. Walking the complete cpuset gives
 * the PUs in OS index order; those beyond PLACE_MAX_PUS are left out,
 * and said so.
 */
static int model_from_topology(hwloc_topology_t topo, bool this_machine, struct place_topology *m)
{
	hwloc_const_cpuset_t allowed = hwloc_topology_get_allowed_cpuset(topo);
	hwloc_const_cpuset_t all = hwloc_topology_get_complete_cpuset(topo);
	hwloc_obj_t pu, first = NULL, node = NULL;
	unsigned os, npackages;
	bool cut = false;

	memset(m, 0, sizeof(*m));
	m->device_node = -1;
	hwloc_bitmap_foreach_begin(os, all) {
		struct place_pu *p;

		pu = hwloc_get_pu_obj_by_os_index(topo, os);
		if (!pu)
			continue;
		if (os >= PLACE_MAX_PUS) {
			cut = true;
			break;
		}
		if (!first)
			first = pu;
		p = &m->pu[m->npus++];
		p->os = (int)os;
		p->core = ancestor_index(topo, pu, HWLOC_OBJ_CORE);
		/* No core level: each PU is its own core. */
		if (p->core < 0)
			p->core = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_CORE) +
				  (int)pu->logical_index;
		p->package = ancestor_index(topo, pu, HWLOC_OBJ_PACKAGE);
		if (p->package < 0)
			p->package = 0;
		p->node = pu_node(topo, pu);
		p->allowed = !this_machine || hwloc_bitmap_isset(allowed, os);
		if ((unsigned)p->core + 1 > m->ncores)
			m->ncores = (unsigned)p->core + 1;
	} hwloc_bitmap_foreach_end();
	if (!m->npus)
		return -ENOENT;

	/* With no package level every PU is in package 0: one package. */
	npackages = (unsigned)hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_PACKAGE);
	m->npackages = npackages ? npackages : 1;

	while ((node = hwloc_get_next_obj_by_type(topo, HWLOC_OBJ_NUMANODE, node))) {
		struct place_numa_node *n;
		unsigned i;

		if (m->nnodes == PLACE_MAX_NODES || node->os_index >= PLACE_MAX_PUS) {
			cut = true;
			continue;
		}
		n = &m->node[m->nnodes];
		n->os = (int)node->os_index;
		n->npus = 0;
		for (i = 0; i < m->npus; i++)
			n->npus += m->pu[i].node == n->os;
		n->mem_bytes = node->attr->numanode.local_memory;
		/* Neither CPUs nor memory: nothing to place there (as sysfs). */
		if (n->npus || n->mem_bytes)
			m->nnodes++;
	}
	qsort(m->node, m->nnodes, sizeof(m->node[0]), cmp_node);

	model_caches(first, m);
	if (!m->ncaches)
		note_unknown(m, "caches unknown");
	if (!m->nnodes)
		note_unknown(m, "NUMA nodes unknown");
	if (cut)
		note_unknown(m, "CPUs or nodes beyond the model's limits left out");
	m->source = "hwloc";
	return 0;
}

static int setup_machine(hwloc_topology_t topo, const char *arg)
{
	(void)arg;
	/* Keep the CPUs a cgroup cpuset hides: the model marks them not allowed. */
	return hwloc_topology_set_flags(topo, HWLOC_TOPOLOGY_FLAG_INCLUDE_DISALLOWED);
}

static int setup_synthetic(hwloc_topology_t topo, const char *desc)
{
	return hwloc_topology_set_synthetic(topo, desc);
}

static int setup_xml(hwloc_topology_t topo, const char *path)
{
	return hwloc_topology_set_xml(topo, path);
}

/* A topology set up for this machine, a synthetic one or XML, into m. */
static int model_load(int (*setup)(hwloc_topology_t, const char *), const char *arg,
		      bool this_machine, struct place_topology *m)
{
	hwloc_topology_t topo;
	int err;

	if (hwloc_topology_init(&topo))
		return -ENOMEM;
	err = -EINVAL;
	if (setup(topo, arg))
		goto out;
	err = -EIO;
	if (hwloc_topology_load(topo))
		goto out;
	err = model_from_topology(topo, this_machine, m);
out:
	hwloc_topology_destroy(topo);
	return err;
}

int place_topology_from_hwloc(struct place_topology *m)
{
	return model_load(setup_machine, NULL, true, m);
}

int place_topology_from_hwloc_synthetic(const char *hwloc_desc, struct place_topology *m)
{
	return model_load(setup_synthetic, hwloc_desc, false, m);
}

int place_topology_from_hwloc_xml(const char *path, struct place_topology *m)
{
	return model_load(setup_xml, path, false, m);
}
