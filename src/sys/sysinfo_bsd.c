// SPDX-License-Identifier: BSD-2-Clause
/*
 * The BSDs: CPU model, and the disk under a directory with its driver.
 * (OS, kernel and arch come from uname in sysinfo.c; RAM from topology.c's
 * sysconf(_SC_PHYS_PAGES): hw.availpages on FreeBSD and DragonFly,
 * hw.physmem64 on NetBSD, in each lib/libc/gen/sysconf.c.)
 *
 * - CPU: sysctl hw.model (FreeBSD sys/x86/x86/identcpu.c, DragonFly
 *   sys/platform/pc64/x86_64/identcpu.c, NetBSD sys/kern/init_sysctl_base.c).
 * - Disk: the mount source of the directory's filesystem (fsinfo_bsd.c)
 *   reduced to a disk name (sysinfo_disk_of_source()), reported only when
 *   the kernel's list of disks holds it: kern.disks on FreeBSD (sys/geom/
 *   geom_disk.c sysctl_disks(): the DISK class's geoms) and DragonFly
 *   (sys/kern/subr_disk.c sysctl_disks()), hw.disknames on NetBSD
 *   (sys/kern/subr_iostat.c sysctl_hw_disknames(): IOSTAT_DISK entries),
 *   all space-separated. The driver is the name's letters.
 * Rotation, scheduler and read-ahead are not reported.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#ifdef HAVE_SYS_SYSCTL_H
#include <sys/sysctl.h>
#endif

#include "lib/strutil.h"
#include "sys/fsinfo.h"
#include "sys/sysinfo.h"

#ifdef HAVE_SYSCTLBYNAME
/*
 * A string sysctl of any length, NUL-terminated, in *out (free it).
 * 0 or -errno. NetBSD's hw.disknames stops short without an error when
 * the buffer is small, so the buffer has room for a disk or two that
 * attach between the size query and the read.
 */
static int sysctl_string(const char *name, char **out)
{
	size_t len, room;
	char *buf;
	int tries, err;

	*out = NULL;
	for (tries = 0; tries < 4; tries++) {
		len = 0;
		if (sysctlbyname(name, NULL, &len, NULL, 0))
			return -errno;
		room = len + 256;
		buf = malloc(room + 1);
		if (!buf)
			return -ENOMEM;
		len = room;
		if (!sysctlbyname(name, buf, &len, NULL, 0)) {
			buf[len < room ? len : room] = '\0';
			*out = buf;
			return 0;
		}
		err = errno;
		free(buf);
		if (err != ENOMEM)
			return -err;
	}
	return -ENOMEM;
}
#else
static int sysctl_string(const char *name, char **out)
{
	(void)name;
	*out = NULL;
	return -ENOSYS;
}
#endif

void sysinfo_cpu_model(char *buf, size_t len)
{
	char *model;

	buf[0] = '\0';
	if (sysctl_string("hw.model", &model))
		return;
	str_copy_marked(buf, len, model);
	free(model);
}

/* FreeBSD and DragonFly list disks in kern.disks, NetBSD in hw.disknames. */
static const char *const disk_lists[] = { "kern.disks", "hw.disknames" };

void sysinfo_blockdev(const char *dir, struct sysinfo *si)
{
	struct fsinfo fs;
	char disk[sizeof(si->blockdev)];
	char *list = NULL;
	size_t i;

	if (fsinfo_get(dir, &fs) || sysinfo_disk_of_source(fs.source, disk, sizeof(disk)) ||
	    !disk[0])
		return;
	for (i = 0; i < sizeof(disk_lists) / sizeof(disk_lists[0]) && !list; i++)
		sysctl_string(disk_lists[i], &list);
	if (!list)
		return;
	if (sysinfo_disk_listed(list, disk)) {
		str_copy(si->blockdev, sizeof(si->blockdev), disk);
		sysinfo_disk_driver(disk, si->driver, sizeof(si->driver));
	}
	free(list);
}
