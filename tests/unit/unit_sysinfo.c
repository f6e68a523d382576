// SPDX-License-Identifier: BSD-2-Clause
/*
 * The BSD disk under a mount source, its driver, and visible cuts; the
 * memory a file system without a size may fill (MemAvailable's parser,
 * and on this system whatever it can tell).
 */
#include "config.h"

#include <errno.h>
#include <stdint.h>

#include "lib/strutil.h"
#include "sys/dirty.h"
#include "sys/sysinfo.h"
#include "unit.h"

static void disk(const char *source, const char *want)
{
	char got[64] = "unset";
	int r = sysinfo_disk_of_source(source, got, sizeof(got));

	CHECK(r == 0 && !strcmp(got, want), "%s: %d '%s', want '%s'", source ? source : "(null)",
	      r, got, want);
}

static void driver(const char *name, const char *want)
{
	char got[64];

	sysinfo_disk_driver(name, got, sizeof(got));
	CHECK_STR(got, want);
}

static void marked(size_t len, const char *src, const char *want, bool want_cut)
{
	char got[16];
	bool cut = str_copy_marked(got, len, src);

	CHECK(cut == want_cut && !strcmp(got, want), "str_copy_marked(%zu, %s) = %d '%s'", len,
	      src, cut, got);
}

int main(void)
{
	char source[64];
	uint64_t bytes;
	int ret;
	char small[4];

	/* FreeBSD: GPT partitions, MBR slices, GELI, NVMe, virtio, CAM. */
	disk("/dev/ada0p2", "ada0");
	disk("/dev/nvd0s1a", "nvd0");
	disk("/dev/nda1p3", "nda1");
	disk("/dev/da1", "da1");
	disk("/dev/vtbd0p3", "vtbd0");
	disk("/dev/ada0p2.eli", "ada0");
	disk("/dev/mmcsd0s2a", "mmcsd0");
	disk("/dev/ada12p1", "ada12");
	/* NetBSD: disklabel partitions and wedges; DragonFly. */
	disk("/dev/wd0a", "wd0");
	disk("/dev/dk3", "dk3");
	disk("/dev/ld0e", "ld0");
	disk("/dev/raid0a", "raid0");
	disk("/dev/da0s1d", "da0");
	disk("/dev/nvme0s1a", "nvme0");
	/* No disk in the name: GEOM classes, labels, pools, pseudo-filesystems. */
	disk("/dev/mirror/gm0", "");
	disk("/dev/gpt/rootfs", "");
	disk("/dev/zvol/tank/vol", "");
	disk("/dev/serno/S3Z1NB0K.s1a", "");
	disk("tank/home", "");
	disk("zroot/ROOT/default", "");
	disk("tmpfs", "");
	disk("devfs", "");
	disk("host:/export", "");
	disk("/dev/", "");
	disk("/dev/root", "");
	disk("/dev/0a", "");
	disk("", "");
	disk(NULL, "");
	CHECK(sysinfo_disk_of_source("/dev/vtbd0p3", small, sizeof(small)) == -ENAMETOOLONG &&
	      !small[0], "no room: -ENAMETOOLONG and ''");

	/* kern.disks and hw.disknames are space-separated. */
	CHECK(sysinfo_disk_listed("ada0 nvd0 da1", "da1"), "last");
	CHECK(sysinfo_disk_listed("ada0 nvd0 da1", "ada0"), "first");
	CHECK(sysinfo_disk_listed("wd0 dk0 dk3 cd0", "dk3"), "middle");
	CHECK(!sysinfo_disk_listed("ada0 da10", "da1"), "prefix of a name");
	CHECK(!sysinfo_disk_listed("ada0 da1", "da"), "part of a name");
	CHECK(!sysinfo_disk_listed("md0", "ada0"), "absent");
	CHECK(!sysinfo_disk_listed("", "ada0"), "empty list");
	CHECK(!sysinfo_disk_listed(NULL, "ada0"), "no list");
	CHECK(!sysinfo_disk_listed("ada0", ""), "empty name");

	driver("ada0", "ada (ATA direct access)");
	driver("nvd0", "nvd (NVMe)");
	driver("nda1", "nda (NVMe)");
	driver("da1", "da (SCSI direct access)");
	driver("wd0", "wd (ATA disk)");
	driver("vtbd0", "vtbd (virtio block)");
	driver("ld0", "ld (logical disk)");
	driver("dk3", "dk (disk wedge)");
	driver("foo7", "foo");

	marked(8, "ufs", "ufs", false);
	marked(4, "abc", "abc", false);
	marked(4, "abcd", "...", true);
	marked(8, "/dev/ada0p2", "/dev...", true);
	marked(3, "abcdef", "ab", true);

	/* MemAvailable, in KiB in the text, as bytes */
	bytes = 1;
	CHECK(!sys_parse_mem_available("MemTotal:       24622252 kB\nMemFree:  1 kB\n"
				       "MemAvailable:   23821140 kB\nBuffers: 2 kB\n", &bytes) &&
	      bytes == 23821140ull * 1024, "MemAvailable: %ju", (uintmax_t)bytes);
	CHECK(sys_parse_mem_available("MemTotal: 1 kB\nMemFree: 1 kB\n", &bytes) == -EINVAL,
	      "no MemAvailable (kernels before 3.14): refused");
	CHECK(sys_parse_mem_available("MemAvailable: 99999999999999999999 kB\n", &bytes) ==
	      -EINVAL, "past what a byte count holds: refused");
	/* this system: Linux says, FreeBSD and DragonFly say, NetBSD cannot */
	ret = sys_memory_available(&bytes, source, sizeof(source));
	CHECK(ret == 0 || ret == -ENOSYS, "sys_memory_available: %d", ret);
	CHECK(ret || (bytes > 0 && source[0]), "some memory, and what told it: %ju '%s'",
	      (uintmax_t)bytes, source);
	return unit_verdict("unit_sysinfo");
}
