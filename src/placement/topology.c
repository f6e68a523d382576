// SPDX-License-Identifier: BSD-2-Clause
/*
 * The topology model's pure parts: a test's machine from a synthetic
 * description, the model said in one line, and the CPUs and memory that
 * the context line and the size defaults need. Loading this machine's
 * model is topo_load.c's (and topology_hwloc.c's).
 */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "placement/placement.h"
#include "placement/topology.h"

static int level_count(const char *tok, const char *name, unsigned *out)
{
	size_t n = strlen(name);
	char *end;
	unsigned long v;

	if (strncmp(tok, name, n) || tok[n] != ':')
		return 0;
	v = strtoul(tok + n + 1, &end, 10);
	if (end == tok + n + 1 || *end || v == 0 || v > PLACE_MAX_PUS)
		return -EINVAL;
	*out = (unsigned)v;
	return 1;
}

int place_topology_synthetic(const char *desc, struct place_topology *m, char *err, size_t errlen)
{
	/* Levels outermost first: pack, numa, core, pu; each at most once. */
	static const char *const levels[] = { "pack", "numa", "core", "pu" };
	unsigned count[4] = { 1, 1, 1, 1 }, memnodes = 0, next = 0;
	struct place_mask allowed;
	bool restrict_cpus = false, numa_given = false, core_given = false;
	char copy[256], *save = NULL;

	memset(m, 0, sizeof(*m));
	m->source = "synthetic";
	m->device_node = -1;
	if (strlen(desc) >= sizeof(copy))
		return place_fail(err, errlen, "synthetic topology too long");
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
			return place_fail(err, errlen, "bad count in '%s'", tok);
		if (r > 0)
			continue;
		if (!strncmp(tok, "allowed:", 8)) {
			if (place_mask_parse(tok + 8, &allowed))
				return place_fail(err, errlen, "bad CPU list in '%s'", tok);
			restrict_cpus = true;
			continue;
		}
		return place_fail(err, errlen, "'%s' is not a level (pack, numa, core, pu in that "
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
	if (m->npus > PLACE_MAX_PUS || m->nnodes + memnodes > PLACE_MAX_NODES)
		return place_fail(err, errlen, "synthetic topology too large");
	for (unsigned i = 0; i < m->npus; i++) {
		struct place_pu *pu = &m->pu[i];

		pu->os = (int)i;
		pu->core = (int)(i / count[3]);
		pu->node = numa_given ? (int)(pu->core / count[2]) : 0;
		pu->package = (int)(pu->core / count[2]) / (int)count[1];
		pu->allowed = !restrict_cpus || place_mask_has(&allowed, i);
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

void place_topology_describe(const struct place_topology *m, char *buf, size_t len)
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
		const struct place_cpu_cache *c = &m->cache[i];
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

void place_machine_get(struct place_machine *t, const struct place_topology *m)
{
	long pages = sysconf(_SC_PHYS_PAGES);
	long page = sysconf(_SC_PAGESIZE);

	memset(t, 0, sizeof(*t));
	t->cpus = m->npus ? m->npus : 1;
	if (pages > 0 && page > 0)
		t->ram_bytes = (uint64_t)pages * (uint64_t)page;
}
