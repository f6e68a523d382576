// SPDX-License-Identifier: BSD-2-Clause
/*
 * A helper process on the BSDs (see helper_proc.h): shm_open under a
 * name unlinked at once (FreeBSD 13 has memfd_create, DragonFly and
 * NetBSD do not), the program's path from the kernel (KERN_PROC_PATHNAME:
 * FreeBSD sys/kern/kern_proc.c sysctl_kern_proc_pathname, DragonFly's
 * the same, NetBSD under KERN_PROC_ARGS, sys/kern/kern_proc.c
 * fill_pathname), and no death signal: the helper watches its control
 * socket's end of file.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/types.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysctl.h>
#include <unistd.h>

#include "lib/timing.h"
#include "sys/helper_proc.h"

/* The name of the program's path; the process's id goes at SELF_PID_AT. */
#ifdef __NetBSD__
#define SELF_MIB	{ CTL_KERN, KERN_PROC_ARGS, 0, KERN_PROC_PATHNAME }
#define SELF_PID_AT	2
#else
#define SELF_MIB	{ CTL_KERN, KERN_PROC, KERN_PROC_PATHNAME, 0 }
#define SELF_PID_AT	3
#endif

int helper_shared_fd(const char *name, size_t bytes)
{
	char path[64];
	int fd = -1, ret;

	/* a name no other process guesses before it is gone: ours, and the clock's */
	for (int tries = 0; fd < 0 && tries < 16; tries++) {
		snprintf(path, sizeof(path), "/%s.%ld.%llx", name, (long)getpid(),
			 (unsigned long long)now_ns());
		fd = shm_open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
		if (fd < 0 && errno != EEXIST)
			return -errno;
	}
	if (fd < 0)
		return -EEXIST;
	shm_unlink(path);
	if (ftruncate(fd, (off_t)bytes)) {
		ret = -errno;
		close(fd);
		return ret;
	}
	return fd;
}

int helper_self_path(char *buf, size_t len)
{
	int mib[] = SELF_MIB;
	size_t got = len;

	mib[SELF_PID_AT] = (int)getpid();
	if (sysctl(mib, sizeof(mib) / sizeof(mib[0]), buf, &got, NULL, 0))
		return -errno;
	return got && got <= len && buf[got - 1] == '\0' ? 0 : -ENAMETOOLONG;
}

void helper_settle(const char *name)
{
	(void)name;
}
