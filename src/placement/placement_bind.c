// SPDX-License-Identifier: BSD-2-Clause
/*
 * Applying a worker's plan to the calling thread, the same on every OS:
 * the CPUs set and read back (the kernel may keep fewer), then the memory
 * policy. The OS layer (placement_linux.c, placement_bsd.c) gives the two
 * primitives and the words for a build that cannot set memory policy.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "placement/placement.h"

static int bind_cpus(const struct place_mask *want, char *note, size_t len)
{
	struct place_mask got;
	char list[256];
	int ret;

	ret = place_os_affinity(want);
	if (ret == -ENOSYS) {
		place_note_add(note, len, "binding is not supported on this system");
		return ret;
	}
	if (ret) {
		place_note_refused(note, len, "", -ret);
		return ret;
	}
	/* A cpuset (Linux's cgroup, a BSD's cpuset or jail) may allow fewer CPUs than asked. */
	ret = place_thread_cpus(&got);
	if (ret) {
		place_note_add(note, len, "set, but not read back: %s", strerror(-ret));
		return 0;
	}
	if (memcmp(&got, want, sizeof(got))) {
		place_mask_format(&got, list, sizeof(list));
		place_note_add(note, len, "narrowed to %s", list);
	}
	return 0;
}

static int set_mem(enum place_mem_policy mem, const struct place_mask *nodes,
		   char *note, size_t len)
{
	int ret;

	ret = place_os_mem(mem, nodes);
	if (ret == -ENOSYS) {
		place_note_add(note, len, "%s", place_os_mem_missing);
		return -ENOTSUP;
	}
	if (ret)
		place_note_refused(note, len, "memory policy ", -ret);
	return ret;
}

int place_thread(const struct place_worker *pw, char *note, size_t len)
{
	int ret;

	if (len)
		note[0] = '\0';
	if (pw->bind) {
		ret = bind_cpus(&pw->cpus, note, len);
		if (ret)
			return ret;
	}
	if (pw->mem == MEM_DEFAULT)
		return 0;
	return set_mem(pw->mem, &pw->mem_nodes, note, len);
}
