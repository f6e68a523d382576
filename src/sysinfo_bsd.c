// SPDX-License-Identifier: BSD-2-Clause
/* The BSDs: hw.model; block device queue settings are not reported. */
#include "config.h"

#include <stdio.h>
#include <string.h>
#include <sys/types.h>
#include <sys/sysctl.h>

#include "sysinfo.h"

void sysinfo_cpu_model(char *buf, size_t len)
{
	size_t n = len;

	buf[0] = '\0';
	if (sysctlbyname("hw.model", buf, &n, NULL, 0))
		buf[0] = '\0';
	else
		buf[len - 1] = '\0';
}

void sysinfo_blockdev(const char *dir, struct sysinfo *si)
{
	(void)dir;
	(void)si;
}
