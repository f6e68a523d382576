// SPDX-License-Identifier: BSD-2-Clause
/*
 * The placement OS layer on this machine: CPU binding and its read-back,
 * what threads made later inherit, memory policy, the node of a page and
 * the per-thread buffer note. Changes only this process's own threads.
 */
#include "config.h"

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "placement/placement.h"
#include "unit.h"

#ifdef __linux__
#include <sys/syscall.h>
#endif

static struct place_worker worker_on(unsigned cpu)
{
	struct place_worker pw;

	memset(&pw, 0, sizeof(pw));
	pw.bind = true;
	pw.core = -1;
	pw.node = -1;
	pw.mem = MEM_DEFAULT;
	place_mask_set(&pw.cpus, cpu);
	return pw;
}

static void *thread_take(void *arg)
{
	*(int *)arg = place_take_buffer_node();
	return NULL;
}

/* A CPU that cannot exist is refused, and the note says so. */
static void test_refused(void)
{
	struct place_worker pw = worker_on(1000);
	char note[128];
	int ret;

	ret = place_thread(&pw, note, sizeof(note));
	printf("CPU 1000: %d, \"%s\"\n", ret, note);
	CHECK(ret < 0, "CPU 1000 accepted");
	CHECK(!strncmp(note, "refused", 7) || ret == -ENOSYS, "note \"%s\"", note);
}

/* Noted per thread; taking forgets it; another thread has its own. */
static void test_buffer_note(void)
{
	long page = sysconf(_SC_PAGESIZE);
	char *buf = malloc((size_t)page);
	pthread_t t;
	int other = 0, node;

	CHECK(place_take_buffer_node() == -1, "a note before any");
	if (!buf)
		return;
	memset(buf, 1, (size_t)page);
	node = place_page_node(buf);
	place_note_buffer(buf);
	if (!pthread_create(&t, NULL, thread_take, &other)) {
		pthread_join(t, NULL);
		CHECK(other == -1, "another thread took %d", other);
	}
	CHECK(place_take_buffer_node() == node, "noted node");
	CHECK(place_take_buffer_node() == -1, "not reset");
	free(buf);
}

#ifdef __linux__

static void *thread_cpus(void *arg)
{
	return (void *)(long)place_thread_cpus(arg);
}

static unsigned first_cpu(const struct place_mask *m)
{
	unsigned cpu;

	for (cpu = 0; cpu < PLACE_MAX_PUS - 1; cpu++)
		if (place_mask_has(m, cpu))
			break;
	return cpu;
}

static unsigned last_cpu(const struct place_mask *m)
{
	unsigned cpu, last = 0;

	for (cpu = 0; cpu < PLACE_MAX_PUS; cpu++)
		if (place_mask_has(m, cpu))
			last = cpu;
	return last;
}

static void check_bound(unsigned cpu)
{
	struct place_worker pw = worker_on(cpu);
	struct place_mask got, want;
	char note[128] = "x";
	pthread_t t;
	void *res;
	int ret;

	memset(&want, 0, sizeof(want));
	place_mask_set(&want, cpu);
	ret = place_thread(&pw, note, sizeof(note));
	CHECK(ret == 0, "bind to CPU %u: %d (%s)", cpu, ret, note);
	CHECK(note[0] == '\0', "note \"%s\"", note);
	CHECK(place_thread_cpus(&got) == 0, "read back");
	CHECK(!memcmp(&got, &want, sizeof(got)) && place_mask_count(&got) == 1,
	      "CPU set is not {%u}", cpu);
	sched_yield();
	CHECK(place_current_cpu() == (int)cpu, "runs on CPU %d, not %u", place_current_cpu(), cpu);
	/* What a worker's seeker threads rely on. */
	memset(&got, 0, sizeof(got));
	if (!pthread_create(&t, NULL, thread_cpus, &got)) {
		pthread_join(t, &res);
		CHECK(res == NULL && !memcmp(&got, &want, sizeof(got)), "a new thread's CPUs differ");
	}
}

/* The kernel keeps the CPUs that exist: what place_thread reports. */
static void test_narrowed(unsigned cpu)
{
	struct place_worker pw = worker_on(cpu);
	char note[128], want[32];
	int ret;

	place_mask_set(&pw.cpus, 1000);
	ret = place_thread(&pw, note, sizeof(note));
	printf("CPUs %u,1000: %d, \"%s\"\n", cpu, ret, note);
	CHECK(ret == 0, "CPUs %u,1000: %d", cpu, ret);
	snprintf(want, sizeof(want), "narrowed to %u", cpu);
	CHECK_STR(note, want);
}

static int restore(const struct place_mask *all)
{
	struct place_worker pw = worker_on(0);
	char note[128];

	pw.cpus = *all;
	return place_thread(&pw, note, sizeof(note));
}

static void test_bind(void)
{
	struct place_mask all;
	char list[256];
	int ret;

	ret = place_thread_cpus(&all);
	CHECK(ret == 0 && place_mask_count(&all) > 0, "place_thread_cpus: %d", ret);
	if (ret)
		return;
	place_mask_format(&all, list, sizeof(list));
	printf("allowed CPUs: %s\n", list);
	/* CPU 0 where the cgroup allows it. */
	check_bound(first_cpu(&all));
	check_bound(last_cpu(&all));
	test_narrowed(first_cpu(&all));
	/* Back to every allowed CPU. */
	CHECK(restore(&all) == 0, "restore");
}

static void test_page_node(void)
{
	long page = sysconf(_SC_PAGESIZE);
	char *buf = malloc((size_t)page * 2);
	int node, mode;
	bool numa;

	if (!buf)
		return;
	/* A kernel without CONFIG_NUMA has no get_mempolicy: -1 then. */
	numa = !syscall(SYS_get_mempolicy, &mode, NULL, 0UL, NULL, 0UL);
	memset(buf, 1, (size_t)page * 2);
	node = place_page_node(buf + page);
	printf("page node: %d (get_mempolicy %s)\n", node, numa ? "works" : "fails");
	CHECK(numa ? node >= 0 && node < PLACE_MAX_NODES : node == -1, "node %d", node);
	free(buf);
}

#else

static void test_bind(void)
{
}

static void test_page_node(void)
{
	char c = 1;

	CHECK(place_page_node(&c) == -1, "a page node on this system");
}

#endif

#if defined(__linux__) && (defined(HAVE_HWLOC) || defined(HAVE_LIBNUMA))

/* The calling thread's policy mode (MPOL_*) and its first node word. */
static int policy_mode(unsigned long *nodes)
{
	unsigned long mask[PLACE_MAX_PUS / (8 * sizeof(long))];
	int mode = -1;

	memset(mask, 0, sizeof(mask));
	if (syscall(SYS_get_mempolicy, &mode, mask, (unsigned long)PLACE_MAX_PUS, NULL, 0UL))
		return -1;
	*nodes = mask[0];
	return mode;
}

/* MPOL_LOCAL 4, MPOL_DEFAULT 0, MPOL_BIND 2, MPOL_INTERLEAVE 3: kernel ABI. */
static void check_policies(const char *lib,
			   int (*set)(enum place_mem_policy, const struct place_mask *))
{
	struct place_mask node0, node63;
	unsigned long nodes;
	int ret, mode;

	memset(&node0, 0, sizeof(node0));
	place_mask_set(&node0, 0);
	memset(&node63, 0, sizeof(node63));
	place_mask_set(&node63, 63);
	ret = set(MEM_BIND, &node0);
	mode = policy_mode(&nodes);
	printf("%s bind 0: %d, mode %d nodes %#lx\n", lib, ret, mode, nodes);
	CHECK(ret == 0 && mode == 2 && nodes == 1, "%s bind", lib);
	ret = set(MEM_INTERLEAVE, &node0);
	mode = policy_mode(&nodes);
	printf("%s interleave 0: %d, mode %d nodes %#lx\n", lib, ret, mode, nodes);
	CHECK(ret == 0 && mode == 3 && nodes == 1, "%s interleave", lib);
	ret = set(MEM_BIND, &node63);
	printf("%s bind 63: %d\n", lib, ret);
	CHECK(ret < 0, "%s bind to node 63 accepted", lib);
	ret = set(MEM_LOCAL, &node0);
	mode = policy_mode(&nodes);
	printf("%s local: %d, mode %d\n", lib, ret, mode);
	CHECK(ret == 0 && (mode == 4 || mode == 0), "%s local", lib);
}

static void *thread_policy(void *arg)
{
	unsigned long nodes;

	*(int *)arg = policy_mode(&nodes);
	return NULL;
}

static void test_mem(void)
{
	struct place_worker pw = worker_on(0);
	char note[128];
	pthread_t t;
	int ret, mode = -1;

	pw.bind = false;
	pw.mem = MEM_LOCAL;
	place_mask_set(&pw.mem_nodes, 0);
	ret = place_thread(&pw, note, sizeof(note));
	CHECK(ret == 0 && !note[0], "MEM_LOCAL: %d (%s)", ret, note);
	pw.mem = MEM_BIND;
	ret = place_thread(&pw, note, sizeof(note));
	CHECK(ret == 0 && !note[0], "MEM_BIND: %d (%s)", ret, note);
	if (!pthread_create(&t, NULL, thread_policy, &mode)) {
		pthread_join(t, NULL);
		CHECK(mode == 2, "a new thread's policy is %d, not MPOL_BIND", mode);
	}
	memset(&pw.mem_nodes, 0, sizeof(pw.mem_nodes));
	place_mask_set(&pw.mem_nodes, 63);
	ret = place_thread(&pw, note, sizeof(note));
	printf("MEM_BIND node 63: %d, \"%s\"\n", ret, note);
	CHECK(ret < 0 && !strncmp(note, "memory policy refused", 21), "node 63");
	if (place_mem_hwloc(MEM_LOCAL, &pw.mem_nodes) != -ENOSYS)
		check_policies("hwloc", place_mem_hwloc);
	if (place_mem_libnuma(MEM_LOCAL, &pw.mem_nodes) != -ENOSYS)
		check_policies("libnuma", place_mem_libnuma);
}

#else

#ifdef HAVE_HWLOC
static const bool have_hwloc = true;
#else
static const bool have_hwloc = false;
#endif

/* hwloc may set a policy on a BSD; nothing else can. */
static void test_mem(void)
{
	struct place_worker pw = worker_on(0);
	char note[128];
	int ret;

	pw.bind = false;
	pw.mem = MEM_LOCAL;
	place_mask_set(&pw.mem_nodes, 0);
	ret = place_thread(&pw, note, sizeof(note));
	printf("MEM_LOCAL: %d, \"%s\"\n", ret, note);
	CHECK(have_hwloc || (ret == -ENOTSUP && note[0]), "MEM_LOCAL: %d (%s)", ret, note);
}

#endif

int main(void)
{
	test_refused();
	test_bind();
	test_mem();
	test_page_node();
	test_buffer_note();
	return unit_verdict("unit_place_os");
}
