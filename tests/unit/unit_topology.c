// SPDX-License-Identifier: BSD-2-Clause
/* The topology model: this machine's, hwloc's synthetic and XML ones, and the parser's. */
#include "config.h"

#include <stdio.h>
#include <string.h>
#ifdef __linux__
#include <sched.h>
#endif

#include "placement/placement.h"
#include "unit.h"

/* Large: not on the stack. */
static struct place_topology model;

static void print_model(const struct place_topology *m)
{
	unsigned i;

	printf("model: source %s, %u PUs, %u cores, %u packages, %u nodes\n",
	       m->source, m->npus, m->ncores, m->npackages, m->nnodes);
	for (i = 0; i < m->nnodes; i++)
		printf("  node %d: %u PUs, %llu MiB\n", m->node[i].os, m->node[i].npus,
		       (unsigned long long)(m->node[i].mem_bytes >> 20));
	for (i = 0; i < m->ncaches; i++)
		printf("  L%d%s %llu KiB\n", m->cache[i].level, m->cache[i].type == 'd' ? "d" : "",
		       (unsigned long long)(m->cache[i].size >> 10));
	for (i = 0; i < m->npus; i++)
		printf("  PU %d: core %d, package %d, node %d%s\n", m->pu[i].os, m->pu[i].core,
		       m->pu[i].package, m->pu[i].node, m->pu[i].allowed ? "" : ", not allowed");
	printf("  unknown: '%s'\n", m->unknown);
}

/* What any model must hold, whatever its source. */
static void check_consistent(const struct place_topology *m, const char *what)
{
	unsigned i, j, sum = 0;

	CHECK(m->npus >= 1 && m->npus <= PLACE_MAX_PUS, "%s: %u PUs", what, m->npus);
	CHECK(m->nnodes <= PLACE_MAX_NODES, "%s: %u nodes", what, m->nnodes);
	for (i = 0; i < m->npus; i++) {
		const struct place_pu *p = &m->pu[i];
		bool found = p->node < 0;

		CHECK(i == 0 || m->pu[i - 1].os < p->os, "%s: PU %u (os %d) out of order", what, i,
		      p->os);
		CHECK(!m->ncores || (p->core >= 0 && (unsigned)p->core < m->ncores),
		      "%s: PU %d core %d of %u", what, p->os, p->core, m->ncores);
		CHECK(!m->npackages || (p->package >= 0 && (unsigned)p->package < m->npackages),
		      "%s: PU %d package %d of %u", what, p->os, p->package, m->npackages);
		for (j = 0; j < m->nnodes; j++)
			found |= m->node[j].os == p->node;
		CHECK(found, "%s: PU %d on node %d, not in the model", what, p->os, p->node);
	}
	for (j = 0; j < m->nnodes; j++) {
		CHECK(j == 0 || m->node[j - 1].os < m->node[j].os, "%s: node %u out of order", what,
		      j);
		sum += m->node[j].npus;
	}
	CHECK(sum <= m->npus, "%s: nodes hold %u PUs of %u", what, sum, m->npus);
}

#ifdef HAVE_HWLOC
static const char *expected_source(void)
{
	return "hwloc";
}
#elif defined(__linux__)
static const char *expected_source(void)
{
	return "sysfs";
}
#else
static const char *expected_source(void)
{
	return "sysconf";
}
#endif

#ifdef __linux__
/* The allowed PUs are those sched_getaffinity gives, all of them online. */
static void check_allowed(const struct place_topology *m)
{
	unsigned i, allowed = 0;
	cpu_set_t set;

	CPU_ZERO(&set);
	if (sched_getaffinity(0, sizeof(set), &set)) {
		printf("unit_topology: sched_getaffinity failed: allowed not checked\n");
		return;
	}
	for (i = 0; i < m->npus; i++) {
		CHECK(m->pu[i].allowed == !!CPU_ISSET(m->pu[i].os, &set), "PU %d allowed %d",
		      m->pu[i].os, m->pu[i].allowed);
		allowed += m->pu[i].allowed;
	}
	CHECK(allowed == (unsigned)CPU_COUNT(&set), "%u allowed, affinity has %d", allowed,
	      CPU_COUNT(&set));
}

static void check_virtual_device(struct place_topology *m)
{
	FILE *f = fopen("/sys/class/block/loop0/dev", "r");

	if (!f)
		return;
	fclose(f);
	place_topology_device_node(m, "loop0");
	CHECK(m->device_node == -1, "loop0 on node %d", m->device_node);
	CHECK_STR(m->device_why, "loop0 is virtual: no node");
}
#else
static void check_allowed(const struct place_topology *m)
{
	unsigned i, allowed = 0;

	for (i = 0; i < m->npus; i++)
		allowed += m->pu[i].allowed;
	CHECK(allowed >= 1, "no PU allowed");
}

static void check_virtual_device(struct place_topology *m)
{
	(void)m;
}
#endif

static void test_this_machine(void)
{
	struct place_topology *m = &model;
	static const char *const devs[] = { "vda", "sda", "nvme0n1" };
	unsigned i;

	place_topology_load(m);
	check_consistent(m, "this machine");
	CHECK_STR(m->source, expected_source());
	check_allowed(m);
	CHECK(m->device_node == -1, "device node %d before asking", m->device_node);

	place_topology_device_node(m, "");
	CHECK(m->device_node == -1, "no device: node %d", m->device_node);
	CHECK_STR(m->device_why, "no block device");
	place_topology_device_node(m, "clyde-no-such-disk");
	CHECK(m->device_node == -1, "no such disk: node %d", m->device_node);
	CHECK(m->device_why[0], "no such disk: no why");
	place_topology_device_node(m, "../../etc");
	CHECK(m->device_node == -1, "a path: node %d", m->device_node);
	check_virtual_device(m);

	print_model(m);
	for (i = 0; i < sizeof(devs) / sizeof(devs[0]); i++) {
		place_topology_device_node(m, devs[i]);
		CHECK(m->device_why[0], "%s: no why", devs[i]);
		printf("  device %s: node %d (%s)\n", devs[i], m->device_node, m->device_why);
	}
}

#ifdef HAVE_HWLOC
static struct place_topology other;

/* Two packages of two nodes of four cores of two threads. */
static void test_hwloc_two_packages(void)
{
	struct place_topology *m = &model;
	unsigned i;

	CHECK(!place_topology_from_hwloc_synthetic("pack:2 numa:2 core:4 pu:2", m), "load");
	check_consistent(m, "pack:2 numa:2 core:4 pu:2");
	CHECK_STR(m->source, "hwloc");
	CHECK(m->npus == 32, "%u PUs", m->npus);
	CHECK(m->ncores == 16, "%u cores", m->ncores);
	CHECK(m->npackages == 2, "%u packages", m->npackages);
	CHECK(m->nnodes == 4, "%u nodes", m->nnodes);
	for (i = 0; i < m->nnodes; i++) {
		CHECK(m->node[i].os == (int)i, "node %u os %d", i, m->node[i].os);
		CHECK(m->node[i].npus == 8, "node %u: %u PUs", i, m->node[i].npus);
	}
	for (i = 0; i < m->npus; i++) {
		const struct place_pu *p = &m->pu[i];

		CHECK(p->os == (int)i, "PU %u os %d", i, p->os);
		CHECK(p->core == (int)i / 2, "PU %u core %d", i, p->core);
		CHECK(p->package == (int)i / 16, "PU %u package %d", i, p->package);
		CHECK(p->node == (int)i / 8, "PU %u node %d", i, p->node);
		CHECK(p->allowed, "PU %u not allowed", i);
	}
	CHECK(m->device_node == -1, "device node %d", m->device_node);
}

static void test_hwloc_one_node(void)
{
	struct place_topology *m = &model;
	unsigned i;

	CHECK(!place_topology_from_hwloc_synthetic("pack:1 core:2 pu:1", m), "load");
	check_consistent(m, "pack:1 core:2 pu:1");
	CHECK(m->npus == 2 && m->ncores == 2 && m->npackages == 1 && m->nnodes == 1,
	      "%u PUs %u cores %u packages %u nodes", m->npus, m->ncores, m->npackages, m->nnodes);
	CHECK(m->node[0].os == 0 && m->node[0].npus == 2, "node %d: %u PUs", m->node[0].os,
	      m->node[0].npus);

	/* No package level: one package, every PU in it. */
	CHECK(!place_topology_from_hwloc_synthetic("core:4 pu:2", m), "load");
	check_consistent(m, "core:4 pu:2");
	CHECK(m->npus == 8 && m->ncores == 4 && m->npackages == 1 && m->nnodes == 1,
	      "%u PUs %u cores %u packages %u nodes", m->npus, m->ncores, m->npackages, m->nnodes);
	for (i = 0; i < m->npus; i++)
		CHECK(m->pu[i].core == (int)i / 2 && !m->pu[i].package && !m->pu[i].node,
		      "PU %u: core %d package %d node %d", i, m->pu[i].core, m->pu[i].package,
		      m->pu[i].node);

	/* No core level: each PU is its own core. */
	CHECK(!place_topology_from_hwloc_synthetic("pack:2 pu:2", m), "load");
	check_consistent(m, "pack:2 pu:2");
	CHECK(m->npus == 4 && m->ncores == 4 && m->npackages == 2, "%u PUs %u cores %u packages",
	      m->npus, m->ncores, m->npackages);

	CHECK(place_topology_from_hwloc_synthetic("pack:2 bogus:3", m), "bad description loaded");
}

static void test_hwloc_caches(void)
{
	struct place_topology *m = &model;
	const char *desc = "pack:1 l3:1(size=8MiB) core:2 l2:1(size=1MiB) "
			   "l1d:1(size=48KiB) l1i:1(size=32KiB) pu:2";

	CHECK(!place_topology_from_hwloc_synthetic(desc, m), "load");
	CHECK(m->ncaches == 3, "%u caches", m->ncaches);
	if (m->ncaches != 3)
		return;
	CHECK(m->cache[0].level == 1 && m->cache[0].type == 'd' && m->cache[0].size == 48 << 10,
	      "L%d %c %llu", m->cache[0].level, m->cache[0].type,
	      (unsigned long long)m->cache[0].size);
	CHECK(m->cache[1].level == 2 && m->cache[1].type == 'u' && m->cache[1].size == 1 << 20,
	      "L%d %c %llu", m->cache[1].level, m->cache[1].type,
	      (unsigned long long)m->cache[1].size);
	CHECK(m->cache[2].level == 3 && m->cache[2].size == 8 << 20, "L%d %llu",
	      m->cache[2].level, (unsigned long long)m->cache[2].size);
	CHECK(!strstr(m->unknown, "caches"), "unknown: %s", m->unknown);
}

/* Node 2 has memory and no CPUs, and hwloc gives it the machine's cpuset. */
static void test_hwloc_memory_only(void)
{
	struct place_topology *m = &model;
	const char *srcdir = getenv("srcdir");
	char path[4096];
	unsigned i;

	snprintf(path, sizeof(path), "%s/tests/data/topo_memonly.xml", srcdir ? srcdir : ".");
	if (place_topology_from_hwloc_xml(path, m)) {
		CHECK(0, "cannot load %s (srcdir %s)", path, srcdir ? srcdir : "unset");
		return;
	}
	check_consistent(m, path);
	CHECK(m->npus == 4 && m->ncores == 4 && m->npackages == 2 && m->nnodes == 3,
	      "%u PUs %u cores %u packages %u nodes", m->npus, m->ncores, m->npackages, m->nnodes);
	for (i = 0; i < m->nnodes && i < 3; i++) {
		CHECK(m->node[i].os == (int)i, "node %u os %d", i, m->node[i].os);
		CHECK(m->node[i].npus == (i < 2 ? 2u : 0u), "node %u: %u PUs", i, m->node[i].npus);
		CHECK(m->node[i].mem_bytes == (i < 2 ? 4ull : 8ull) << 30, "node %u: %llu bytes", i,
		      (unsigned long long)m->node[i].mem_bytes);
	}
	for (i = 0; i < m->npus; i++)
		CHECK(m->pu[i].package == (int)i / 2 && m->pu[i].node == (int)i / 2 &&
		      m->pu[i].allowed, "PU %u: package %d node %d", i, m->pu[i].package,
		      m->pu[i].node);

	CHECK(place_topology_from_hwloc_xml("clyde-no-such.xml", m), "a missing file loaded");
}

static void compare_models(const char *desc, const struct place_topology *h,
			   const struct place_topology *p)
{
	unsigned i;

	CHECK(h->npus == p->npus && h->ncores == p->ncores && h->npackages == p->npackages &&
	      h->nnodes == p->nnodes,
	      "%s: hwloc %u PUs %u cores %u packages %u nodes, parser %u %u %u %u", desc, h->npus,
	      h->ncores, h->npackages, h->nnodes, p->npus, p->ncores, p->npackages, p->nnodes);
	for (i = 0; i < h->npus && i < p->npus; i++) {
		const struct place_pu *a = &h->pu[i], *b = &p->pu[i];

		CHECK(a->os == b->os && a->core == b->core && a->package == b->package &&
		      a->node == b->node && a->allowed == b->allowed,
		      "%s: PU %u: hwloc os %d core %d package %d node %d allowed %d, "
		      "parser %d %d %d %d %d", desc, i, a->os, a->core, a->package, a->node,
		      a->allowed, b->os, b->core, b->package, b->node, b->allowed);
	}
	for (i = 0; i < h->nnodes && i < p->nnodes; i++)
		CHECK(h->node[i].os == p->node[i].os && h->node[i].npus == p->node[i].npus,
		      "%s: node %u: hwloc os %d %u PUs, parser os %d %u PUs", desc, i,
		      h->node[i].os, h->node[i].npus, p->node[i].os, p->node[i].npus);
}

/*
 * place_topology_synthetic reads hwloc's synthetic form: where both read a
 * description they must build the same machine. The first list is the
 * form placement.h promises; the second is compared when the parser
 * takes it.
 */
static void test_parser_matches_hwloc(void)
{
	static const char *const both[] = {
		"pack:2 numa:2 core:4 pu:2",
		"pack:1 core:2 pu:1",
		"pack:2 core:2 pu:1",
		"pack:2 numa:1 core:2 pu:2",
		"pack:1 numa:2 core:3 pu:1",
		"pack:4 numa:2 core:1 pu:4",
	};
	static const char *const maybe[] = {
		"core:4 pu:2",
		"numa:2 core:2 pu:2",
		"pack:2 pu:2",
	};
	char err[256];
	unsigned i;

	for (i = 0; i < sizeof(both) / sizeof(both[0]); i++) {
		err[0] = '\0';
		CHECK(!place_topology_from_hwloc_synthetic(both[i], &model), "hwloc: %s", both[i]);
		CHECK(!place_topology_synthetic(both[i], &other, err, sizeof(err)), "parser: %s: %s",
		      both[i], err);
		compare_models(both[i], &model, &other);
	}
	for (i = 0; i < sizeof(maybe) / sizeof(maybe[0]); i++) {
		err[0] = '\0';
		CHECK(!place_topology_from_hwloc_synthetic(maybe[i], &model), "hwloc: %s", maybe[i]);
		if (place_topology_synthetic(maybe[i], &other, err, sizeof(err))) {
			printf("unit_topology: the parser does not take '%s' (%s): not compared\n",
			       maybe[i], err);
			continue;
		}
		compare_models(maybe[i], &model, &other);
	}
}

static void test_hwloc(void)
{
	test_hwloc_two_packages();
	test_hwloc_one_node();
	test_hwloc_caches();
	test_hwloc_memory_only();
	test_parser_matches_hwloc();
}
#else
static void test_hwloc(void)
{
	printf("unit_topology: no hwloc in this build: synthetic, XML and parser checks skipped\n");
}
#endif

int main(void)
{
	test_this_machine();
	test_hwloc();
	return unit_verdict("unit_topology");
}
