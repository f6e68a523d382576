// SPDX-License-Identifier: BSD-2-Clause
/*
 * The planner: each worker's CPUs and memory node, a pure function of
 * the topology model and the options (--bind, --cpus, --numa-node,
 * --mem-policy). Applying a plan is the OS layer's (placement_linux.c,
 * placement_bsd.c).
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "placement/placement.h"

static const struct place_numa_node *find_node(const struct place_topology *m, int os)
{
	for (unsigned i = 0; i < m->nnodes; i++)
		if (m->node[i].os == os)
			return &m->node[i];
	return NULL;
}

static void node_list(const struct place_topology *m, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (unsigned i = 0; i < m->nnodes && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s%d%s", i ? " " : "",
					 m->node[i].os, m->node[i].npus ? "" : " (memory only)");
}

/* The CPUs workers may use: allowed, in --cpus, on --numa-node. */
static int usable_cpus(const struct place_topology *m, const struct place_opts *o, int node,
		       struct place_mask *out, char *err, size_t errlen)
{
	struct place_mask want;
	char have[128];

	memset(out, 0, sizeof(*out));
	if (o->cpus && place_mask_parse(o->cpus, &want))
		return place_fail(err, errlen, "--cpus=%s: give CPU numbers and ranges such as 0-3,8 "
				  "(below %d)", o->cpus, PLACE_MAX_PUS);
	for (unsigned i = 0; i < m->npus; i++) {
		const struct place_pu *pu = &m->pu[i];

		if (pu->allowed && (!o->cpus || place_mask_has(&want, (unsigned)pu->os)) &&
		    (node < 0 || pu->node == node))
			place_mask_set(out, (unsigned)pu->os);
	}
	if (place_mask_count(out))
		return 0;
	memset(&want, 0, sizeof(want));
	for (unsigned i = 0; i < m->npus; i++)
		if (m->pu[i].allowed)
			place_mask_set(&want, (unsigned)m->pu[i].os);
	place_mask_format(&want, have, sizeof(have));
	if (node >= 0)
		return place_fail(err, errlen, "no CPU of NUMA node %d is in this process's CPU set "
				  "(%s)%s%s", node, have, o->cpus ? " and --cpus=" : "",
				  o->cpus ? o->cpus : "");
	return place_fail(err, errlen, "--cpus=%s: none of these CPUs is in this process's CPU set "
			  "(%s)", o->cpus ? o->cpus : "", have);
}

static int plan_node(const struct place_topology *m, const struct place_opts *o, int *node,
		     char *err, size_t errlen)
{
	const struct place_numa_node *n;
	char nodes[160];

	*node = o->numa_node;
	if (o->numa_node == PLACE_NUMA_NODE_DEVICE) {
		if (m->device_node < 0)
			return place_fail(err, errlen, "--numa-node=device: the device's NUMA node is "
					  "unknown (%s)", m->device_why[0] ? m->device_why : "not found");
		*node = m->device_node;
	}
	if (*node < 0)
		return 0;
	n = find_node(m, *node);
	node_list(m, nodes, sizeof(nodes));
	if (!n)
		return place_fail(err, errlen, "--numa-node=%d: no such NUMA node (this machine has %s)",
				  *node, m->nnodes ? nodes : "no known NUMA nodes");
	if (!n->npus)
		return place_fail(err, errlen, "--numa-node=%d: node %d has no CPUs (memory only): "
				  "use --mem-policy=bind:%d to put the buffers there", *node, *node,
				  *node);
	return 0;
}

/* The node all of a mask's CPUs are on, or -1. */
static int mask_node(const struct place_topology *m, const struct place_mask *c)
{
	int node = -2;

	for (unsigned i = 0; i < m->npus; i++) {
		if (!place_mask_has(c, (unsigned)m->pu[i].os))
			continue;
		if (node == -2)
			node = m->pu[i].node;
		else if (node != m->pu[i].node)
			return -1;
	}
	return node < 0 ? -1 : node;
}

/* Groups of usable CPUs, one per core (key 0) or node (key 1), in CPU order. */
static unsigned groups_of(const struct place_topology *m, const struct place_mask *usable,
			  bool by_node, struct place_mask *groups, int *ids, unsigned max)
{
	unsigned n = 0;

	for (unsigned i = 0; i < m->npus; i++) {
		const struct place_pu *pu = &m->pu[i];
		int id = by_node ? pu->node : pu->core;
		unsigned g;

		if (!place_mask_has(usable, (unsigned)pu->os))
			continue;
		for (g = 0; g < n && ids[g] != id; g++)
			;
		if (g == n) {
			if (n == max)
				continue;
			memset(&groups[n], 0, sizeof(groups[n]));
			ids[n++] = id;
		}
		place_mask_set(&groups[g], (unsigned)pu->os);
	}
	return n;
}

static const char *mem_name(enum place_mem_policy p)
{
	static const char *const names[] = {
		[MEM_DEFAULT] = "first touch", [MEM_LOCAL] = "local",
		[MEM_INTERLEAVE] = "interleaved", [MEM_BIND] = "bound",
	};

	return names[p];
}

static int plan_memory(const struct place_topology *m, const struct place_opts *o, int node,
		       const struct place_mask *usable, struct place_plan *plan, char *err,
		       size_t errlen)
{
	enum place_mem_policy mem = o->mem;
	struct place_mask nodes = { { 0 } };

	if (mem == MEM_DEFAULT && node >= 0) {
		/* --numa-node keeps everything near one node: the memory too. */
		mem = MEM_BIND;
		place_mask_set(&nodes, (unsigned)node);
	} else if (mem == MEM_BIND) {
		if (!find_node(m, o->mem_node))
			return place_fail(err, errlen, "--mem-policy=bind:%d: no such NUMA node",
					  o->mem_node);
		place_mask_set(&nodes, (unsigned)o->mem_node);
	} else if (mem == MEM_INTERLEAVE) {
		/* Over the nodes the workers run on: all usable CPUs' when unbound. */
		for (unsigned i = 0; i < m->npus; i++) {
			const struct place_pu *pu = &m->pu[i];
			bool used = false;

			for (unsigned k = 0; k < plan->workers && !used; k++)
				used = plan->w[k].bind ? place_mask_has(&plan->w[k].cpus, (unsigned)pu->os)
						       : place_mask_has(usable, (unsigned)pu->os);
			if (used && pu->node >= 0)
				place_mask_set(&nodes, (unsigned)pu->node);
		}
		if (!place_mask_count(&nodes))
			return place_fail(err, errlen, "--mem-policy=interleave: the NUMA nodes of the "
					  "CPUs are unknown");
	}
	for (unsigned i = 0; i < plan->workers; i++) {
		plan->w[i].mem = mem;
		plan->w[i].mem_nodes = nodes;
	}
	if (mem != MEM_DEFAULT)
		plan->any_binding = true;
	return 0;
}

static void plan_summary(const struct place_opts *o, struct place_plan *plan)
{
	static const char *const modes[] = { "none", "core", "numa" };
	size_t used, len = sizeof(plan->summary);
	char cpus[64];

	used = (size_t)snprintf(plan->summary, len, "bind %s:", modes[o->bind]);
	for (unsigned i = 0; i < plan->workers && used < len; i++) {
		const struct place_worker *w = &plan->w[i];

		if (!w->bind) {
			used += (size_t)snprintf(plan->summary + used, len - used, " %s",
						 i ? "" : "workers unbound");
			break;
		}
		place_mask_format(&w->cpus, cpus, sizeof(cpus));
		used += (size_t)snprintf(plan->summary + used, len - used, " w%u cpu %s", i, cpus);
	}
	if (used < len && plan->workers)
		snprintf(plan->summary + used, len - used, "; memory %s", mem_name(plan->w[0].mem));
}

int place_plan_make(const struct place_topology *m, const struct place_opts *o, unsigned workers,
		   bool numa_capable, struct place_plan *plan, char *err, size_t errlen)
{
	unsigned max = sizeof(plan->w) / sizeof(plan->w[0]);
	struct place_mask usable, groups[PLACE_MAX_PUS > 256 ? 256 : PLACE_MAX_PUS];
	int ids[256], node, ret;
	unsigned ngroups = 0;

	memset(plan, 0, sizeof(*plan));
	if (!workers || workers > max)
		return place_fail(err, errlen, "placement: %u workers (1 to %u)", workers, max);
	plan->workers = workers;
	if (!numa_capable && (o->bind == BIND_NUMA || o->numa_node != PLACE_NUMA_NODE_NONE ||
			      o->mem != MEM_DEFAULT)) {
		place_fail(err, errlen, "%s needs hwloc or libnuma, and this build has neither "
			   "(configure --with-hwloc or --with-libnuma)",
			   o->bind == BIND_NUMA ? "--bind=numa" :
			   o->numa_node != PLACE_NUMA_NODE_NONE ? "--numa-node" : "--mem-policy");
		return -ENOTSUP;
	}
	ret = plan_node(m, o, &node, err, errlen);
	if (!ret)
		ret = usable_cpus(m, o, node, &usable, err, errlen);
	if (ret)
		return ret;
	if (o->bind == BIND_NUMA) {
		if (!m->nnodes || m->pu[0].node < 0)
			return place_fail(err, errlen, "--bind=numa: the NUMA nodes are unknown");
		ngroups = groups_of(m, &usable, true, groups, ids, 256);
	} else if (o->bind == BIND_CORE) {
		ngroups = groups_of(m, &usable, false, groups, ids, 256);
	}
	for (unsigned i = 0; i < workers; i++) {
		struct place_worker *w = &plan->w[i];

		w->core = -1;
		if (ngroups) {
			w->bind = true;
			w->cpus = groups[i % ngroups];
			if (o->bind == BIND_CORE)
				w->core = ids[i % ngroups];
		} else if (o->cpus || node >= 0) {
			w->bind = true;
			w->cpus = usable;
		}
		w->node = w->bind ? mask_node(m, &w->cpus) : -1;
		if (w->bind)
			plan->any_binding = true;
	}
	ret = plan_memory(m, o, node, &usable, plan, err, errlen);
	if (ret)
		return ret;
	plan_summary(o, plan);
	return 0;
}

#if defined(HAVE_HWLOC) || defined(HAVE_LIBNUMA)
bool place_numa_capable(void)
{
	return true;
}
#else
bool place_numa_capable(void)
{
	return false;
}
#endif
