// SPDX-License-Identifier: BSD-2-Clause
/*
 * Placement on Linux: a thread's CPUs by sched_setaffinity(2), its memory
 * policy through hwloc or libnuma, and what the kernel really did: the CPU
 * set read back, the running CPU, the node of a page (get_mempolicy(2)).
 */
#include "config.h"

#include <errno.h>
#include <linux/mempolicy.h>
#include <sched.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "placement/placement.h"

/* Kernel ABI values, for kernel headers that predate them. */
#ifndef MPOL_F_NODE
#define MPOL_F_NODE	(1 << 0)
#endif
#ifndef MPOL_F_ADDR
#define MPOL_F_ADDR	(1 << 1)
#endif

/* A kernel built for more CPUs than this refuses smaller masks. */
#define AFFINITY_MAX_CPUS	(1 << 16)

int place_os_affinity(const struct place_mask *m)
{
	size_t size = CPU_ALLOC_SIZE(PLACE_MAX_PUS);
	cpu_set_t *set = CPU_ALLOC(PLACE_MAX_PUS);
	unsigned cpu;
	int ret = 0;

	if (!set)
		return -ENOMEM;
	CPU_ZERO_S(size, set);
	for (cpu = 0; cpu < PLACE_MAX_PUS; cpu++)
		if (place_mask_has(m, cpu))
			CPU_SET_S(cpu, size, set);
	if (sched_setaffinity(0, size, set))
		ret = -errno;
	CPU_FREE(set);
	return ret;
}

int place_thread_cpus(struct place_mask *m)
{
	cpu_set_t *set = NULL;
	unsigned cpu, n;
	size_t size = 0;
	int ret = -EINVAL;

	memset(m, 0, sizeof(*m));
	/* EINVAL: the mask is smaller than the kernel's; try a larger one. */
	for (n = PLACE_MAX_PUS; n <= AFFINITY_MAX_CPUS && ret == -EINVAL; n *= 2) {
		CPU_FREE(set);
		set = CPU_ALLOC(n);
		if (!set)
			return -ENOMEM;
		size = CPU_ALLOC_SIZE(n);
		CPU_ZERO_S(size, set);
		ret = sched_getaffinity(0, size, set) ? -errno : 0;
	}
	if (ret)
		goto out;
	for (cpu = 0; cpu < PLACE_MAX_PUS; cpu++)
		if (CPU_ISSET_S(cpu, size, set))
			place_mask_set(m, cpu);
out:
	CPU_FREE(set);
	return ret;
}

const char place_os_mem_missing[] = "memory policy needs hwloc or libnuma";

int place_os_mem(enum place_mem_policy mem, const struct place_mask *nodes)
{
	int ret = place_mem_hwloc(mem, nodes);

	return ret == -ENOSYS ? place_mem_libnuma(mem, nodes) : ret;
}

int place_current_cpu(void)
{
	int cpu = sched_getcpu();

	return cpu >= 0 ? cpu : -1;
}

int place_page_node(const void *addr)
{
	int node = -1;

	/* Raw syscall: no libnuma needed. ENOSYS on a kernel without NUMA. */
	if (syscall(SYS_get_mempolicy, &node, NULL, 0UL, (void *)addr, MPOL_F_NODE | MPOL_F_ADDR))
		return -1;
	return node;
}
