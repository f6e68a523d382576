// SPDX-License-Identifier: BSD-2-Clause
/*
 * Placement on the BSDs: a thread's CPUs by cpuset_setaffinity(2)
 * (FreeBSD) or pthread_setaffinity_np(3) (DragonFly, NetBSD), read back
 * the same way. Memory policy only where hwloc can set it; no BSD tells
 * the node of a page.
 */
#include "config.h"

#include <sys/param.h>
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>

#if defined(__FreeBSD__)
#include <sys/cpuset.h>
#elif defined(__DragonFly__)
#include <pthread_np.h>
#endif

#include "placement/placement.h"

#if defined(__FreeBSD__) || defined(__DragonFly__)

/* cpuset_t: FreeBSD's own, DragonFly's compatible name for cpumask_t. */
static int mask_to_set(const struct place_mask *m, cpuset_t *set)
{
	unsigned cpu;

	CPU_ZERO(set);
	for (cpu = 0; cpu < PLACE_MAX_PUS; cpu++) {
		if (!place_mask_has(m, cpu))
			continue;
		if (cpu >= (unsigned)CPU_SETSIZE)
			return -EINVAL;
		CPU_SET(cpu, set);
	}
	return 0;
}

static void set_to_mask(const cpuset_t *set, struct place_mask *m)
{
	unsigned cpu;

	memset(m, 0, sizeof(*m));
	for (cpu = 0; cpu < PLACE_MAX_PUS && cpu < (unsigned)CPU_SETSIZE; cpu++)
		if (CPU_ISSET(cpu, set))
			place_mask_set(m, cpu);
}

/* FreeBSD 13.1 and later, DragonFly 4.8 and later. */
int place_current_cpu(void)
{
	int cpu = sched_getcpu();

	return cpu >= 0 ? cpu : -1;
}

#endif

#if defined(__FreeBSD__)

int place_os_affinity(const struct place_mask *m)
{
	cpuset_t set;
	int ret;

	ret = mask_to_set(m, &set);
	if (ret)
		return ret;
	/* -1 with CPU_WHICH_TID: the calling thread. */
	if (cpuset_setaffinity(CPU_LEVEL_WHICH, CPU_WHICH_TID, -1, sizeof(set), &set))
		return -errno;
	return 0;
}

int place_thread_cpus(struct place_mask *m)
{
	cpuset_t set;

	memset(m, 0, sizeof(*m));
	if (cpuset_getaffinity(CPU_LEVEL_WHICH, CPU_WHICH_TID, -1, sizeof(set), &set))
		return -errno;
	set_to_mask(&set, m);
	return 0;
}

#elif defined(__DragonFly__)

int place_os_affinity(const struct place_mask *m)
{
	cpu_set_t set;
	int ret;

	ret = mask_to_set(m, &set);
	if (ret)
		return ret;
	return -pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
}

int place_thread_cpus(struct place_mask *m)
{
	cpu_set_t set;
	int ret;

	memset(m, 0, sizeof(*m));
	ret = pthread_getaffinity_np(pthread_self(), sizeof(set), &set);
	if (ret)
		return -ret;
	set_to_mask(&set, m);
	return 0;
}

#elif defined(__NetBSD__)

/*
 * NetBSD sizes its cpuset_t at run time (cpuset_create). Setting affinity
 * needs root unless security.models.extensions.user_set_cpu_affinity is 1.
 */
int place_os_affinity(const struct place_mask *m)
{
	cpuset_t *set = cpuset_create();
	unsigned cpu;
	int ret = 0;

	if (!set)
		return -ENOMEM;
	cpuset_zero(set);
	for (cpu = 0; cpu < PLACE_MAX_PUS; cpu++) {
		if (place_mask_has(m, cpu) && cpuset_set(cpu, set) < 0) {
			ret = -EINVAL;
			goto out;
		}
	}
	ret = -pthread_setaffinity_np(pthread_self(), cpuset_size(set), set);
out:
	cpuset_destroy(set);
	return ret;
}

int place_thread_cpus(struct place_mask *m)
{
	cpuset_t *set = cpuset_create();
	unsigned cpu;
	int ret;

	memset(m, 0, sizeof(*m));
	if (!set)
		return -ENOMEM;
	ret = -pthread_getaffinity_np(pthread_self(), cpuset_size(set), set);
	if (ret)
		goto out;
	for (cpu = 0; cpu < PLACE_MAX_PUS; cpu++)
		if (cpuset_isset(cpu, set) > 0)
			place_mask_set(m, cpu);
out:
	cpuset_destroy(set);
	return ret;
}

/* NetBSD has no sched_getcpu. */
int place_current_cpu(void)
{
	return -1;
}

#else

int place_os_affinity(const struct place_mask *m)
{
	(void)m;
	return -ENOSYS;
}

int place_thread_cpus(struct place_mask *m)
{
	memset(m, 0, sizeof(*m));
	return -ENOSYS;
}

int place_current_cpu(void)
{
	return -1;
}

#endif

const char place_os_mem_missing[] = "memory policy is not supported on this system";

/* hwloc where built in (FreeBSD has some support), never libnuma. */
int place_os_mem(enum place_mem_policy mem, const struct place_mask *nodes)
{
	return place_mem_hwloc(mem, nodes);
}

int place_page_node(const void *addr)
{
	(void)addr;
	return -1;
}
