// SPDX-License-Identifier: BSD-2-Clause
/*
 * Placement's pure parts: CPU sets as text, a test machine from a
 * synthetic description, and the planner that gives each worker its
 * CPUs and memory node from the model and the options.
 */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "placement/placement.h"

unsigned mask_count(const struct cpu_mask *m)
{
	unsigned n = 0;

	for (unsigned i = 0; i < TOPO_MASK_WORDS; i++)
		n += (unsigned)__builtin_popcountll(m->w[i]);
	return n;
}

int mask_parse(const char *list, struct cpu_mask *m)
{
	const char *p = list;

	memset(m, 0, sizeof(*m));
	if (!*p)
		return -EINVAL;
	while (*p) {
		char *end;
		unsigned long a, b;

		if (*p < '0' || *p > '9')
			return -EINVAL;
		a = strtoul(p, &end, 10);
		b = a;
		if (*end == '-') {
			if (end[1] < '0' || end[1] > '9')
				return -EINVAL;
			b = strtoul(end + 1, &end, 10);
		}
		if (b < a || b >= TOPO_MAX_PUS)
			return -EINVAL;
		for (unsigned long c = a; c <= b; c++)
			mask_set(m, (unsigned)c);
		if (*end == ',' && end[1])
			end++;
		else if (*end)
			return -EINVAL;
		p = end;
	}
	return 0;
}

void mask_format(const struct cpu_mask *m, char *buf, size_t len)
{
	size_t used = 0;

	if (len)
		buf[0] = '\0';
	for (unsigned c = 0; c < TOPO_MAX_PUS && used < len; c++) {
		unsigned e = c;

		if (!mask_has(m, c))
			continue;
		while (e + 1 < TOPO_MAX_PUS && mask_has(m, e + 1))
			e++;
		if (e == c)
			used += (size_t)snprintf(buf + used, len - used, "%s%u", used ? "," : "", c);
		else
			used += (size_t)snprintf(buf + used, len - used, "%s%u-%u", used ? "," : "",
						 c, e);
		c = e;
	}
}

__attribute__((format(printf, 3, 4)))
static int fail(char *err, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, len, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

/* --- a test machine --- */

static int level_count(const char *tok, const char *name, unsigned *out)
{
	size_t n = strlen(name);
	char *end;
	unsigned long v;

	if (strncmp(tok, name, n) || tok[n] != ':')
		return 0;
	v = strtoul(tok + n + 1, &end, 10);
	if (end == tok + n + 1 || *end || v == 0 || v > TOPO_MAX_PUS)
		return -EINVAL;
	*out = (unsigned)v;
	return 1;
}

int topo_model_synthetic(const char *desc, struct topo_model *m, char *err, size_t errlen)
{
	/* Levels outermost first: pack, numa, core, pu; each at most once. */
	static const char *const levels[] = { "pack", "numa", "core", "pu" };
	unsigned count[4] = { 1, 1, 1, 1 }, memnodes = 0, next = 0;
	struct cpu_mask allowed;
	bool restrict_cpus = false, numa_given = false, core_given = false;
	char copy[256], *save = NULL;

	memset(m, 0, sizeof(*m));
	m->source = "synthetic";
	m->device_node = -1;
	if (strlen(desc) >= sizeof(copy))
		return fail(err, errlen, "synthetic topology too long");
	strcpy(copy, desc);
	for (char *tok = strtok_r(copy, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
		int r = 0;
		unsigned i;

		for (i = next; i < 4 && !(r = level_count(tok, levels[i], &count[i])); i++)
			;
		if (r > 0) {
			numa_given |= i == 1;
			core_given |= i == 2;
			next = i + 1;
			continue;
		}
		if (r < 0 || (r = level_count(tok, "memnode", &memnodes)) < 0)
			return fail(err, errlen, "bad count in '%s'", tok);
		if (r > 0)
			continue;
		if (!strncmp(tok, "allowed:", 8)) {
			if (mask_parse(tok + 8, &allowed))
				return fail(err, errlen, "bad CPU list in '%s'", tok);
			restrict_cpus = true;
			continue;
		}
		return fail(err, errlen, "'%s' is not a level (pack, numa, core, pu in that "
			    "order), memnode:N or allowed:LIST", tok);
	}
	/*
	 * As hwloc: without a numa level one node holds the whole machine,
	 * without a core level each PU is a core of its own.
	 */
	if (!core_given) {
		count[2] = count[3];
		count[3] = 1;
	}
	m->npackages = count[0];
	m->nnodes = numa_given ? count[0] * count[1] : 1;
	m->ncores = count[0] * count[1] * count[2];
	m->npus = m->ncores * count[3];
	if (m->npus > TOPO_MAX_PUS || m->nnodes + memnodes > TOPO_MAX_NODES)
		return fail(err, errlen, "synthetic topology too large");
	for (unsigned i = 0; i < m->npus; i++) {
		struct topo_pu *pu = &m->pu[i];

		pu->os = (int)i;
		pu->core = (int)(i / count[3]);
		pu->node = numa_given ? (int)(pu->core / count[2]) : 0;
		pu->package = (int)(pu->core / count[2]) / (int)count[1];
		pu->allowed = !restrict_cpus || mask_has(&allowed, i);
	}
	for (unsigned n = 0; n < m->nnodes + memnodes; n++) {
		m->node[n].os = (int)n;
		m->node[n].npus = n < m->nnodes ? m->npus / m->nnodes : 0;
	}
	m->nnodes += memnodes;
	return 0;
}

static size_t add(char *buf, size_t len, size_t used, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static size_t add(char *buf, size_t len, size_t used, const char *fmt, ...)
{
	va_list ap;

	if (used >= len)
		return used;
	va_start(ap, fmt);
	used += (size_t)vsnprintf(buf + used, len - used, fmt, ap);
	va_end(ap);
	return used;
}

static const char *plural(unsigned n, const char *one, const char *many)
{
	return n == 1 ? one : many;
}

void topology_describe(const struct topo_model *m, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	if (m->npackages)
		used = add(buf, len, used, "%u %s ", m->npackages,
			   plural(m->npackages, "package", "packages"));
	if (m->nnodes)
		used = add(buf, len, used, "%u NUMA %s ", m->nnodes,
			   plural(m->nnodes, "node", "nodes"));
	if (m->ncores)
		used = add(buf, len, used, "%u %s ", m->ncores, plural(m->ncores, "core", "cores"));
	used = add(buf, len, used, "%u hardware %s", m->npus,
		   plural(m->npus, "thread", "threads"));
	for (unsigned i = 0; i < m->ncaches; i++) {
		const struct topo_cache *c = &m->cache[i];
		uint64_t kib = c->size >> 10;

		used = add(buf, len, used, "%s L%d%s %llu %s", i ? "" : ";", c->level,
			   c->type == 'd' ? "d" : c->type == 'i' ? "i" : "",
			   (unsigned long long)(kib >= 1024 && !(kib % 1024) ? kib >> 10 : kib),
			   kib >= 1024 && !(kib % 1024) ? "MiB" : "KiB");
	}
	if (m->device_node >= 0)
		used = add(buf, len, used, "; device on node %d", m->device_node);
	else if (m->device_why[0])
		used = add(buf, len, used, "; device node unknown: %s", m->device_why);
	if (m->unknown[0])
		used = add(buf, len, used, "; %s", m->unknown);
	add(buf, len, used, " (%s)", m->source ? m->source : "?");
	/* Context lines carry no commas. */
	for (char *c = buf; *c; c++)
		if (*c == ',')
			*c = ' ';
}

/* --- the planner --- */

static const struct topo_node *find_node(const struct topo_model *m, int os)
{
	for (unsigned i = 0; i < m->nnodes; i++)
		if (m->node[i].os == os)
			return &m->node[i];
	return NULL;
}

static void node_list(const struct topo_model *m, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (unsigned i = 0; i < m->nnodes && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s%d%s", i ? " " : "",
					 m->node[i].os, m->node[i].npus ? "" : " (memory only)");
}

/* The CPUs workers may use: allowed, in --cpus, on --numa-node. */
static int usable_cpus(const struct topo_model *m, const struct place_opts *o, int node,
		       struct cpu_mask *out, char *err, size_t errlen)
{
	struct cpu_mask want;
	char have[128];

	memset(out, 0, sizeof(*out));
	if (o->cpus && mask_parse(o->cpus, &want))
		return fail(err, errlen, "--cpus=%s: give CPU numbers and ranges such as 0-3,8 "
			    "(below %d)", o->cpus, TOPO_MAX_PUS);
	for (unsigned i = 0; i < m->npus; i++) {
		const struct topo_pu *pu = &m->pu[i];

		if (pu->allowed && (!o->cpus || mask_has(&want, (unsigned)pu->os)) &&
		    (node < 0 || pu->node == node))
			mask_set(out, (unsigned)pu->os);
	}
	if (mask_count(out))
		return 0;
	memset(&want, 0, sizeof(want));
	for (unsigned i = 0; i < m->npus; i++)
		if (m->pu[i].allowed)
			mask_set(&want, (unsigned)m->pu[i].os);
	mask_format(&want, have, sizeof(have));
	if (node >= 0)
		return fail(err, errlen, "no CPU of NUMA node %d is in this process's CPU set "
			    "(%s)%s%s", node, have, o->cpus ? " and --cpus=" : "",
			    o->cpus ? o->cpus : "");
	return fail(err, errlen, "--cpus=%s: none of these CPUs is in this process's CPU set "
		    "(%s)", o->cpus ? o->cpus : "", have);
}

static int plan_node(const struct topo_model *m, const struct place_opts *o, int *node,
		     char *err, size_t errlen)
{
	const struct topo_node *n;
	char nodes[160];

	*node = o->numa_node;
	if (o->numa_node == NUMA_NODE_DEVICE) {
		if (m->device_node < 0)
			return fail(err, errlen, "--numa-node=device: the device's NUMA node is "
				    "unknown (%s)", m->device_why[0] ? m->device_why : "not found");
		*node = m->device_node;
	}
	if (*node < 0)
		return 0;
	n = find_node(m, *node);
	node_list(m, nodes, sizeof(nodes));
	if (!n)
		return fail(err, errlen, "--numa-node=%d: no such NUMA node (this machine has %s)",
			    *node, m->nnodes ? nodes : "no known NUMA nodes");
	if (!n->npus)
		return fail(err, errlen, "--numa-node=%d: node %d has no CPUs (memory only): "
			    "use --mem-policy=bind:%d to put the buffers there", *node, *node,
			    *node);
	return 0;
}

/* The node all of a mask's CPUs are on, or -1. */
static int mask_node(const struct topo_model *m, const struct cpu_mask *c)
{
	int node = -2;

	for (unsigned i = 0; i < m->npus; i++) {
		if (!mask_has(c, (unsigned)m->pu[i].os))
			continue;
		if (node == -2)
			node = m->pu[i].node;
		else if (node != m->pu[i].node)
			return -1;
	}
	return node < 0 ? -1 : node;
}

/* Groups of usable CPUs, one per core (key 0) or node (key 1), in CPU order. */
static unsigned groups_of(const struct topo_model *m, const struct cpu_mask *usable, bool by_node,
			  struct cpu_mask *groups, int *ids, unsigned max)
{
	unsigned n = 0;

	for (unsigned i = 0; i < m->npus; i++) {
		const struct topo_pu *pu = &m->pu[i];
		int id = by_node ? pu->node : pu->core;
		unsigned g;

		if (!mask_has(usable, (unsigned)pu->os))
			continue;
		for (g = 0; g < n && ids[g] != id; g++)
			;
		if (g == n) {
			if (n == max)
				continue;
			memset(&groups[n], 0, sizeof(groups[n]));
			ids[n++] = id;
		}
		mask_set(&groups[g], (unsigned)pu->os);
	}
	return n;
}

static const char *mem_name(enum mem_policy p)
{
	static const char *const names[] = {
		[MEM_DEFAULT] = "first touch", [MEM_LOCAL] = "local",
		[MEM_INTERLEAVE] = "interleaved", [MEM_BIND] = "bound",
	};

	return names[p];
}

static int plan_memory(const struct topo_model *m, const struct place_opts *o, int node,
		       const struct cpu_mask *usable, struct place_plan *plan, char *err,
		       size_t errlen)
{
	enum mem_policy mem = o->mem;
	struct cpu_mask nodes = { { 0 } };

	if (mem == MEM_DEFAULT && node >= 0) {
		/* --numa-node keeps everything near one node: the memory too. */
		mem = MEM_BIND;
		mask_set(&nodes, (unsigned)node);
	} else if (mem == MEM_BIND) {
		if (!find_node(m, o->mem_node))
			return fail(err, errlen, "--mem-policy=bind:%d: no such NUMA node",
				    o->mem_node);
		mask_set(&nodes, (unsigned)o->mem_node);
	} else if (mem == MEM_INTERLEAVE) {
		/* Over the nodes the workers run on: all usable CPUs' when unbound. */
		for (unsigned i = 0; i < m->npus; i++) {
			const struct topo_pu *pu = &m->pu[i];
			bool used = false;

			for (unsigned k = 0; k < plan->workers && !used; k++)
				used = plan->w[k].bind ? mask_has(&plan->w[k].cpus, (unsigned)pu->os)
						       : mask_has(usable, (unsigned)pu->os);
			if (used && pu->node >= 0)
				mask_set(&nodes, (unsigned)pu->node);
		}
		if (!mask_count(&nodes))
			return fail(err, errlen, "--mem-policy=interleave: the NUMA nodes of the "
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
		mask_format(&w->cpus, cpus, sizeof(cpus));
		used += (size_t)snprintf(plan->summary + used, len - used, " w%u cpu %s", i, cpus);
	}
	if (used < len && plan->workers)
		snprintf(plan->summary + used, len - used, "; memory %s", mem_name(plan->w[0].mem));
}

int placement_plan(const struct topo_model *m, const struct place_opts *o, unsigned workers,
		   bool numa_capable, struct place_plan *plan, char *err, size_t errlen)
{
	unsigned max = sizeof(plan->w) / sizeof(plan->w[0]);
	struct cpu_mask usable, groups[TOPO_MAX_PUS > 256 ? 256 : TOPO_MAX_PUS];
	int ids[256], node, ret;
	unsigned ngroups = 0;

	memset(plan, 0, sizeof(*plan));
	if (!workers || workers > max)
		return fail(err, errlen, "placement: %u workers (1 to %u)", workers, max);
	plan->workers = workers;
	if (!numa_capable && (o->bind == BIND_NUMA || o->numa_node != NUMA_NODE_NONE ||
			      o->mem != MEM_DEFAULT)) {
		fail(err, errlen, "%s needs hwloc or libnuma, and this build has neither "
		     "(configure --with-hwloc or --with-libnuma)",
		     o->bind == BIND_NUMA ? "--bind=numa" :
		     o->numa_node != NUMA_NODE_NONE ? "--numa-node" : "--mem-policy");
		return -ENOTSUP;
	}
	ret = plan_node(m, o, &node, err, errlen);
	if (!ret)
		ret = usable_cpus(m, o, node, &usable, err, errlen);
	if (ret)
		return ret;
	if (o->bind == BIND_NUMA) {
		if (!m->nnodes || m->pu[0].node < 0)
			return fail(err, errlen, "--bind=numa: the NUMA nodes are unknown");
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
bool placement_numa_capable(void)
{
	return true;
}
#else
bool placement_numa_capable(void)
{
	return false;
}
#endif
