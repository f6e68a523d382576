// SPDX-License-Identifier: BSD-2-Clause
/*
 * Aging on the BSDs: no pinning. UFS, HAMMER2 and FFS place blocks by
 * cylinder group and inode, not per CPU, so the CPU that ages does not
 * change where files land.
 */
#include "config.h"

#include <stddef.h>

#include "age/age.h"

int age_cpu_pin(void **saved)
{
	*saved = NULL;
	return 0;
}

void age_cpu_restore(void *saved)
{
	(void)saved;
}
