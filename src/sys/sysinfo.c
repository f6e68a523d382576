// SPDX-License-Identifier: BSD-2-Clause
/* Kernel, CPU model and block device: the environment line of a report. */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>

#include "lib/strutil.h"
#include "sys/sysinfo.h"

void sysinfo_get(const char *dir, struct sysinfo *si)
{
	struct utsname u;

	memset(si, 0, sizeof(*si));
	si->rotational = -1;
	si->read_ahead_kb = -1;
	si->loop_dio = -1;
	if (!uname(&u)) {
		str_copy(si->os, sizeof(si->os), u.sysname);
		str_copy(si->kernel, sizeof(si->kernel), u.release);
		str_copy(si->arch, sizeof(si->arch), u.machine);
	}
	sysinfo_cpu_model(si->cpu_model, sizeof(si->cpu_model));
	sysinfo_blockdev(dir, si);
}

/*
 * The disk under a BSD mount source. A BSD disk is named after its driver
 * and unit (FreeBSD sys/geom/geom_disk.c g_disk_create(): "%s%d" of d_name
 * and d_unit; DragonFly's dev_ops name and unit; NetBSD's device_xname),
 * and a partition, slice or label adds a suffix: "/dev/ada0p2" -> "ada0",
 * "/dev/nvd0s1a" -> "nvd0", "/dev/wd0a" -> "wd0", "/dev/dk3" -> "dk3",
 * "/dev/ada0p2.eli" -> "ada0". "" when the source names no disk: not under
 * /dev ("tank/home", "tmpfs", "host:/export"), no unit number, or under a
 * /dev subdirectory ("/dev/mirror/gm0", "/dev/gpt/root", "/dev/zvol/..."):
 * a GEOM class or a label, whose disks the name cannot tell (a mirror has
 * several). 0, or -ENAMETOOLONG when len has no room (disk is then "").
 */
int sysinfo_disk_of_source(const char *source, char *disk, size_t len)
{
	const char *name, *p;
	size_t n;

	if (len)
		disk[0] = '\0';
	if (!source || strncmp(source, "/dev/", 5))
		return 0;
	name = p = source + 5;
	while (isalpha((unsigned char)*p))
		p++;
	if (p == name || !isdigit((unsigned char)*p))
		return 0;
	while (isdigit((unsigned char)*p))
		p++;
	if (strchr(p, '/'))
		return 0;
	n = (size_t)(p - name);
	if (n >= len)
		return -ENAMETOOLONG;
	memcpy(disk, name, n);
	disk[n] = '\0';
	return 0;
}

/* Whether a kernel's space-separated list of disks names disk. */
bool sysinfo_disk_listed(const char *list, const char *disk)
{
	size_t n = strlen(disk);
	const char *p = list;

	if (!list || !n)
		return false;
	while (*p) {
		size_t w;

		while (isspace((unsigned char)*p))
			p++;
		w = strcspn(p, " \t\n");
		if (w == n && !strncmp(p, disk, n))
			return true;
		p += w;
	}
	return false;
}

/* The drivers behind BSD disk names, by the name's letters. */
static const struct {
	const char *letters;
	const char *what;
} disk_drivers[] = {
	{ "ada", "ATA direct access" },		/* FreeBSD CAM ada(4) */
	{ "ad", "ATA disk" },			/* DragonFly nata */
	{ "wd", "ATA disk" },			/* NetBSD wd(4) */
	{ "da", "SCSI direct access" },		/* CAM da(4): SCSI SAS USB; DragonFly AHCI */
	{ "sd", "SCSI disk" },			/* NetBSD sd(4): SCSI SAS USB */
	{ "nvd", "NVMe" },			/* FreeBSD nvd(4) */
	{ "nda", "NVMe" },			/* FreeBSD CAM nda(4) */
	{ "nvme", "NVMe" },			/* DragonFly nvme(4) */
	{ "ld", "logical disk" },		/* NetBSD ld(4): NVMe RAID virtio SD */
	{ "vtbd", "virtio block" },		/* FreeBSD virtio_blk(4) */
	{ "vbd", "virtio block" },		/* DragonFly virtio_blk(4) */
	{ "xbd", "Xen block" },
	{ "mmcsd", "MMC/SD card" },
	{ "sdda", "MMC/SD card" },		/* FreeBSD CAM MMC */
	{ "mfid", "MegaRAID volume" },
	{ "md", "memory disk" },
	{ "vn", "vnode disk" },			/* DragonFly */
	{ "vnd", "vnode disk" },		/* NetBSD */
	{ "dk", "disk wedge" },			/* NetBSD dk(4): a partition as a disk */
	{ "raid", "RAIDframe" },		/* NetBSD raid(4) */
	{ "cgd", "cryptographic disk" },	/* NetBSD cgd(4) */
	{ "ccd", "concatenated disk" },
	{ "cd", "optical disc" },
};

/* "ada0" -> "ada (ATA direct access)"; the letters alone when unknown. */
void sysinfo_disk_driver(const char *disk, char *buf, size_t len)
{
	size_t n = 0, i;

	while (isalpha((unsigned char)disk[n]))
		n++;
	for (i = 0; i < sizeof(disk_drivers) / sizeof(disk_drivers[0]); i++) {
		if (strlen(disk_drivers[i].letters) == n &&
		    !strncmp(disk, disk_drivers[i].letters, n)) {
			snprintf(buf, len, "%.*s (%s)", (int)n, disk, disk_drivers[i].what);
			return;
		}
	}
	snprintf(buf, len, "%.*s", (int)n, disk);
}
