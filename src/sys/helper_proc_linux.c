// SPDX-License-Identifier: BSD-2-Clause
/* A helper process on Linux: memfd, /proc/self/exe, PR_SET_PDEATHSIG (see helper_proc.h). */
#include "config.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "sys/helper_proc.h"

int helper_shared_fd(const char *name, size_t bytes)
{
	int fd = memfd_create(name, MFD_CLOEXEC);

	if (fd < 0)
		return -errno;
	if (ftruncate(fd, (off_t)bytes)) {
		int ret = -errno;

		close(fd);
		return ret;
	}
	return fd;
}

int helper_self_path(char *buf, size_t len)
{
	/* the link itself: it starts this image even if its file was replaced since */
	return snprintf(buf, len, "/proc/self/exe") < (int)len ? 0 : -ENAMETOOLONG;
}

/*
 * SIGKILL when the thread that spawned us ends: clyde spawns from its
 * main thread, which lives until the process exits.
 */
void helper_settle(const char *name)
{
	prctl(PR_SET_NAME, name);
	prctl(PR_SET_PDEATHSIG, SIGKILL);
}
