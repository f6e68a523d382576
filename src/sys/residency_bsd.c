// SPDX-License-Identifier: BSD-2-Clause
/*
 * Page-cache residency on the BSDs: mincore(2) only, where it tells.
 *
 * What the kernels do (read in their sources):
 * - FreeBSD sys/vm/vm_mmap.c kern_mincore(): with sysctl vm.mincore_mapped
 *   at its default 1 it reports only pages mapped in the caller's pmap
 *   (pmap_mincore()); only at 0 does it look the page up in the file's VM
 *   object (vm_page_lookup()). mmap prefaults at most MAX_INIT_PT resident
 *   pages (vm_map_pmap_enter(), MAP_PREFAULT_PARTIAL), so a fresh mapping
 *   shows a few pages or none: no measure at all.
 * - DragonFly sys/vm/vm_mmap.c sys_mincore(): the same sysctl, the same
 *   default, the same rule.
 * - NetBSD sys/uvm/uvm_mmap.c sys_mincore(): looks every page up in the
 *   object (uvm_pagelookup()), mapped or not: a true measure. No sysctl.
 * So: mincore is trusted unless vm.mincore_mapped exists and is not 0.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/types.h>
#include <sys/utsname.h>
#ifdef HAVE_SYS_SYSCTL_H
#include <sys/sysctl.h>
#endif

#include "sys/residency.h"

#ifdef HAVE_SYSCTLBYNAME
/* A numeric sysctl, whether the kernel keeps it in 4 bytes or 8. 0 or -errno. */
static int sysctl_u64(const char *name, uint64_t *v)
{
	union {
		uint32_t u32;
		uint64_t u64;
	} buf;
	size_t len = sizeof(buf);

	if (sysctlbyname(name, &buf, &len, NULL, 0))
		return -errno;
	if (len == sizeof(buf.u64))
		*v = buf.u64;
	else if (len == sizeof(buf.u32))
		*v = buf.u32;
	else
		return -EINVAL;
	return 0;
}
#else
static int sysctl_u64(const char *name, uint64_t *v)
{
	(void)name;
	(void)v;
	return -ENOSYS;
}
#endif

/* No cachestat here: the portable mincore method is all there is. */
int residency_os_measure(int fd, struct residency *r)
{
	(void)fd;
	(void)r;
	return -ENOSYS;
}

bool residency_os_mincore_ok(const char *path, int fd, char *why, size_t len)
{
	struct utsname u;
	uint64_t mapped;

	(void)path;
	(void)fd;
	if (sysctl_u64("vm.mincore_mapped", &mapped) || !mapped)
		return true;
	snprintf(why, len, "%s's mincore reports mappings (vm.mincore_mapped=%llu)",
		 uname(&u) < 0 ? "this system" : u.sysname, (unsigned long long)mapped);
	return false;
}

/* OpenZFS on FreeBSD exports its kstats as sysctls. */
void arc_stats_read(struct arc_stats *a)
{
	memset(a, 0, sizeof(*a));
	a->available = !sysctl_u64("kstat.zfs.misc.arcstats.hits", &a->hits) &&
		       !sysctl_u64("kstat.zfs.misc.arcstats.misses", &a->misses);
	if (!a->available)
		a->hits = a->misses = 0;
}
