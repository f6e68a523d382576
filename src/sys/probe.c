// SPDX-License-Identifier: BSD-2-Clause
/* Asking the filesystem, once, whether it takes the I/O modes asked for. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sys/compat.h"
#include "sys/probe.h"
#include "sys/workdir.h"

#define PROBE_LEN 4096

int probe_io_modes(const char *workdir, bool direct, bool uncached, char *err, size_t errlen)
{
	char path[WORKPATH_MAX];
	void *buf = NULL;
	int fd, ret = 0;

	if (!direct && !uncached)
		return 0;
	snprintf(path, sizeof(path), "%s/probe", workdir);
	fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC | (direct ? O_DIRECT : 0), 0600);
	if (fd < 0) {
		ret = -errno;
		if (direct && ret == -EINVAL)
			snprintf(err, errlen, "-D: the filesystem refuses O_DIRECT (%s)", strerror(-ret));
		else
			snprintf(err, errlen, "cannot create %s: %s", path, strerror(-ret));
		return ret;
	}
	if (posix_memalign(&buf, PROBE_LEN, PROBE_LEN)) {
		ret = -ENOMEM;
		snprintf(err, errlen, "out of memory");
		goto out_close;
	}
	memset(buf, 0, PROBE_LEN);
	if (pwrite_flags(fd, buf, PROBE_LEN, 0, uncached ? RWF_DONTCACHE : 0) != PROBE_LEN) {
		ret = errno ? -errno : -EIO;
		if (uncached && (ret == -EOPNOTSUPP || ret == -EINVAL))
			snprintf(err, errlen, "--cache=uncached: the kernel or the filesystem refuses "
				 "RWF_DONTCACHE (%s); it needs Linux 6.14 or later and a filesystem "
				 "that supports it", strerror(-ret));
		else
			snprintf(err, errlen, "%s: a %s write fails: %s", path,
				 direct ? "direct" : "test", strerror(-ret));
	}
	free(buf);
out_close:
	close(fd);
	unlink(path);
	return ret;
}
