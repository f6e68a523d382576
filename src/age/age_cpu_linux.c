// SPDX-License-Identifier: BSD-2-Clause
/*
 * Aging on one CPU (Linux): ext4's block allocator keeps per-CPU
 * preallocations, so two agings on two CPU sets would place files apart.
 * The first CPU of the process's set, for the aging's time only.
 */
#include "config.h"

#include <errno.h>
#include <sched.h>
#include <stdlib.h>

#include "age/age.h"

int age_cpu_pin(void **saved)
{
	cpu_set_t *old = malloc(sizeof(*old)), one;
	int ret;

	*saved = NULL;
	if (!old)
		return -ENOMEM;
	if (sched_getaffinity(0, sizeof(*old), old)) {
		ret = -errno;
		goto free_old;
	}
	CPU_ZERO(&one);
	for (int c = 0; c < CPU_SETSIZE; c++) {
		if (CPU_ISSET(c, old)) {
			CPU_SET(c, &one);
			break;
		}
	}
	if (sched_setaffinity(0, sizeof(one), &one)) {
		ret = -errno;
		goto free_old;
	}
	*saved = old;
	return 0;
free_old:
	free(old);
	return ret;
}

void age_cpu_restore(void *saved)
{
	if (!saved)
		return;
	sched_setaffinity(0, sizeof(cpu_set_t), saved);
	free(saved);
}
