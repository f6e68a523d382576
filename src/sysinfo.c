// SPDX-License-Identifier: BSD-2-Clause
/* Kernel, CPU model and block device: the environment line of a report. */
#include "config.h"

#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>

#include "strutil.h"
#include "sysinfo.h"

void sysinfo_get(const char *dir, struct sysinfo *si)
{
	struct utsname u;

	memset(si, 0, sizeof(*si));
	si->rotational = -1;
	si->read_ahead_kb = -1;
	if (!uname(&u)) {
		str_copy(si->os, sizeof(si->os), u.sysname);
		str_copy(si->kernel, sizeof(si->kernel), u.release);
		str_copy(si->arch, sizeof(si->arch), u.machine);
	}
	sysinfo_cpu_model(si->cpu_model, sizeof(si->cpu_model));
	sysinfo_blockdev(dir, si);
}
