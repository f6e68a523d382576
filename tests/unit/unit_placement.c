// SPDX-License-Identifier: BSD-2-Clause
/*
 * The placement planner on synthetic machines: two packages of two NUMA
 * nodes of four cores with two threads each, a single-node machine, a
 * machine with a memory-only node, and a CPU set that excludes cores;
 * which CPUs and node each worker gets in each mode, and what is refused.
 * Run in every build: numa_capable is the build's own answer, and the
 * NUMA cases expect the refusal where it is false.
 */
#include "config.h"

#include <errno.h>

#include "placement/placement.h"
#include "unit.h"

static struct place_topology model;
static struct place_plan plan;
static char err[256];

static void load(const char *desc)
{
	int r = place_topology_synthetic(desc, &model, err, sizeof(err));

	CHECK(r == 0, "%s: %d %s", desc, r, err);
}

static int plan_for(enum place_bind bind, const char *cpus, int node, enum place_mem_policy mem,
		    int mem_node, unsigned workers, bool numa)
{
	struct place_opts o = {
		.bind = bind, .cpus = cpus, .numa_node = node, .mem = mem, .mem_node = mem_node,
	};

	err[0] = '\0';
	return place_plan_make(&model, &o, workers, numa, &plan, err, sizeof(err));
}

static void worker_is(unsigned i, const char *cpus, int node, int core)
{
	char got[64];

	place_mask_format(&plan.w[i].cpus, got, sizeof(got));
	CHECK(plan.w[i].bind && !strcmp(got, cpus) && plan.w[i].node == node &&
	      plan.w[i].core == core, "worker %u: cpus %s node %d core %d, want %s %d %d", i,
	      got, plan.w[i].node, plan.w[i].core, cpus, node, core);
}

static void mem_is(unsigned i, enum place_mem_policy mem, const char *nodes)
{
	char got[64];

	place_mask_format(&plan.w[i].mem_nodes, got, sizeof(got));
	CHECK(plan.w[i].mem == mem && !strcmp(got, nodes), "worker %u: memory %d nodes '%s', "
	      "want %d '%s'", i, plan.w[i].mem, got, mem, nodes);
}

static void test_masks(void)
{
	struct place_mask m;
	char buf[64];

	CHECK(!place_mask_parse("0-3,8,10-11", &m) && place_mask_count(&m) == 7, "parse");
	place_mask_format(&m, buf, sizeof(buf));
	CHECK_STR(buf, "0-3,8,10-11");
	CHECK(place_mask_parse("", &m) == -EINVAL && place_mask_parse("3-1", &m) == -EINVAL &&
	      place_mask_parse("1,", &m) == -EINVAL && place_mask_parse("a", &m) == -EINVAL &&
	      place_mask_parse("1024", &m) == -EINVAL && place_mask_parse("0-", &m) == -EINVAL,
	      "bad lists");
}

static void test_model(void)
{
	load("pack:2 numa:2 core:4 pu:2");
	CHECK(model.npus == 32 && model.ncores == 16 && model.npackages == 2 && model.nnodes == 4,
	      "sizes %u %u %u %u", model.npus, model.ncores, model.npackages, model.nnodes);
	CHECK(model.pu[13].core == 6 && model.pu[13].node == 1 && model.pu[13].package == 0 &&
	      model.pu[17].node == 2 && model.pu[17].package == 1, "PU 13 and 17");
	CHECK(place_topology_synthetic("core:2 pack:2", &model, err, sizeof(err)) == -EINVAL,
	      "levels out of order: %s", err);
	CHECK(place_topology_synthetic("pack:0", &model, err, sizeof(err)) == -EINVAL, "zero");
	CHECK(place_topology_synthetic("socket:2", &model, err, sizeof(err)) == -EINVAL, "unknown");
}

/* Two packages of two NUMA nodes of four cores with two threads each. */
static void test_big(bool numa)
{
	load("pack:2 numa:2 core:4 pu:2");
	CHECK(!plan_for(BIND_CORE, NULL, PLACE_NUMA_NODE_NONE, MEM_DEFAULT, 0, 4, numa), "%s", err);
	worker_is(0, "0-1", 0, 0);
	worker_is(1, "2-3", 0, 1);
	worker_is(3, "6-7", 0, 3);
	mem_is(0, MEM_DEFAULT, "");
	CHECK(!plan_for(BIND_CORE, NULL, PLACE_NUMA_NODE_NONE, MEM_DEFAULT, 0, 17, numa), "%s", err);
	worker_is(15, "30-31", 3, 15);
	worker_is(16, "0-1", 0, 0);	/* more workers than cores: round robin */
	CHECK(!plan_for(BIND_NONE, NULL, PLACE_NUMA_NODE_NONE, MEM_DEFAULT, 0, 2, numa) &&
	      !plan.any_binding && !plan.w[1].bind, "none binds nothing");
	CHECK(!plan_for(BIND_CORE, "0-3,16", PLACE_NUMA_NODE_NONE, MEM_DEFAULT, 0, 3, numa), "%s", err);
	worker_is(2, "16", 2, 8);
	CHECK(plan_for(BIND_CORE, "40-41", PLACE_NUMA_NODE_NONE, MEM_DEFAULT, 0, 1, numa) == -EINVAL &&
	      strstr(err, "--cpus=40-41"), "CPUs that do not exist: %s", err);
	CHECK(plan_for(BIND_CORE, "x", PLACE_NUMA_NODE_NONE, MEM_DEFAULT, 0, 1, numa) == -EINVAL,
	      "a bad list");
	if (!numa) {
		CHECK(plan_for(BIND_NUMA, NULL, PLACE_NUMA_NODE_NONE, MEM_DEFAULT, 0, 2, numa) ==
		      -ENOTSUP && strstr(err, "--bind=numa needs hwloc or libnuma"), "%s", err);
		CHECK(plan_for(BIND_NONE, NULL, 1, MEM_DEFAULT, 0, 2, numa) == -ENOTSUP &&
		      strstr(err, "--numa-node"), "%s", err);
		CHECK(plan_for(BIND_NONE, NULL, PLACE_NUMA_NODE_NONE, MEM_LOCAL, 0, 2, numa) ==
		      -ENOTSUP && strstr(err, "--mem-policy"), "%s", err);
		return;
	}
	CHECK(!plan_for(BIND_NUMA, NULL, PLACE_NUMA_NODE_NONE, MEM_DEFAULT, 0, 5, numa), "%s", err);
	worker_is(0, "0-7", 0, -1);
	worker_is(1, "8-15", 1, -1);
	worker_is(3, "24-31", 3, -1);
	worker_is(4, "0-7", 0, -1);
	CHECK(!plan_for(BIND_NONE, NULL, 2, MEM_DEFAULT, 0, 2, numa), "%s", err);
	worker_is(1, "16-23", 2, -1);
	mem_is(1, MEM_BIND, "2");	/* --numa-node keeps the memory there too */
	CHECK(!plan_for(BIND_CORE, NULL, 2, MEM_DEFAULT, 0, 2, numa), "%s", err);
	worker_is(0, "16-17", 2, 8);
	worker_is(1, "18-19", 2, 9);
	CHECK(!plan_for(BIND_NUMA, NULL, PLACE_NUMA_NODE_NONE, MEM_INTERLEAVE, 0, 2, numa), "%s", err);
	mem_is(0, MEM_INTERLEAVE, "0-1");	/* the nodes the workers run on */
	CHECK(!plan_for(BIND_NONE, NULL, PLACE_NUMA_NODE_NONE, MEM_INTERLEAVE, 0, 2, numa), "%s", err);
	mem_is(1, MEM_INTERLEAVE, "0-3");
	CHECK(!plan_for(BIND_CORE, NULL, PLACE_NUMA_NODE_NONE, MEM_BIND, 3, 2, numa), "%s", err);
	mem_is(0, MEM_BIND, "3");
	worker_is(0, "0-1", 0, 0);
	CHECK(plan_for(BIND_NONE, NULL, PLACE_NUMA_NODE_NONE, MEM_BIND, 9, 1, numa) == -EINVAL &&
	      strstr(err, "bind:9"), "%s", err);
	CHECK(plan_for(BIND_NONE, NULL, 7, MEM_DEFAULT, 0, 1, numa) == -EINVAL &&
	      strstr(err, "no such NUMA node (this machine has 0 1 2 3)"), "%s", err);
	CHECK(plan_for(BIND_NONE, NULL, PLACE_NUMA_NODE_DEVICE, MEM_DEFAULT, 0, 1, numa) == -EINVAL &&
	      strstr(err, "device's NUMA node is unknown"), "%s", err);
	model.device_node = 3;
	CHECK(!plan_for(BIND_CORE, NULL, PLACE_NUMA_NODE_DEVICE, MEM_DEFAULT, 0, 1, numa), "%s", err);
	worker_is(0, "24-25", 3, 12);
	mem_is(0, MEM_BIND, "3");
}

static void test_single_node(bool numa)
{
	load("core:4 pu:1");
	CHECK(model.nnodes == 1 && model.npackages == 1, "one node");
	CHECK(!plan_for(BIND_CORE, NULL, PLACE_NUMA_NODE_NONE, MEM_DEFAULT, 0, 2, numa), "%s", err);
	worker_is(1, "1", 0, 1);
	if (!numa)
		return;
	CHECK(!plan_for(BIND_NUMA, NULL, PLACE_NUMA_NODE_NONE, MEM_DEFAULT, 0, 3, numa), "%s", err);
	worker_is(0, "0-3", 0, -1);
	worker_is(2, "0-3", 0, -1);
}

static void test_memory_only(bool numa)
{
	load("pack:1 numa:1 core:2 pu:2 memnode:1");
	CHECK(model.nnodes == 2 && model.node[1].npus == 0 && model.node[1].os == 1,
	      "memory-only node");
	if (!numa)
		return;
	CHECK(plan_for(BIND_NONE, NULL, 1, MEM_DEFAULT, 0, 1, numa) == -EINVAL &&
	      strstr(err, "has no CPUs (memory only)"), "%s", err);
	CHECK(!plan_for(BIND_NUMA, NULL, PLACE_NUMA_NODE_NONE, MEM_BIND, 1, 2, numa), "%s", err);
	worker_is(0, "0-3", 0, -1);
	worker_is(1, "0-3", 0, -1);	/* the memory node has no CPU to run on */
	mem_is(1, MEM_BIND, "1");
}

/* A cgroup cpuset that leaves out node 1 and 2. */
static void test_cpuset(bool numa)
{
	load("pack:2 numa:2 core:4 pu:2 allowed:0-7,24-31");
	CHECK(!plan_for(BIND_CORE, NULL, PLACE_NUMA_NODE_NONE, MEM_DEFAULT, 0, 6, numa), "%s", err);
	worker_is(3, "6-7", 0, 3);
	worker_is(4, "24-25", 3, 12);
	CHECK(plan_for(BIND_CORE, "8-15", PLACE_NUMA_NODE_NONE, MEM_DEFAULT, 0, 1, numa) == -EINVAL &&
	      strstr(err, "CPU set (0-7,24-31)"), "%s", err);
	if (!numa)
		return;
	CHECK(!plan_for(BIND_NUMA, NULL, PLACE_NUMA_NODE_NONE, MEM_DEFAULT, 0, 3, numa), "%s", err);
	worker_is(0, "0-7", 0, -1);
	worker_is(1, "24-31", 3, -1);
	worker_is(2, "0-7", 0, -1);
	CHECK(plan_for(BIND_NONE, NULL, 1, MEM_DEFAULT, 0, 1, numa) == -EINVAL &&
	      strstr(err, "no CPU of NUMA node 1"), "%s", err);
}

int main(void)
{
	bool numa = place_numa_capable();

	test_masks();
	test_model();
	/* Both answers in every build: the planner is pure. */
	for (int capable = 0; capable < 2; capable++) {
		test_big(capable);
		test_single_node(capable);
		test_memory_only(capable);
		test_cpuset(capable);
	}
	printf("this build %s set memory policy\n", numa ? "can" : "cannot");
	return unit_verdict("unit_placement");
}
