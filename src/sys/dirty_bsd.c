// SPDX-License-Identifier: BSD-2-Clause
/*
 * Dirty buffers on the BSDs (see dirty.h for what each kernel counts):
 * the sysctls are tried by name, so one file serves the three systems.
 * FreeBSD sys/kern/vfs_bio.c: numdirtybuffers ("Number of buffers that
 * are dirty"), a count of B_DELWRI buffers of any size; runningbufspace
 * ("Amount of presently outstanding async buffer io"), bytes. DragonFly
 * sys/kern/vfs_bio.c: dirtybufspace ("Pending bytes of dirty buffers
 * (all)") and runningbufspace ("I/O bytes currently in progress due to
 * asynchronous writes"), bytes. Both are the buffer cache's: ZFS keeps
 * its dirty data in the ARC and its own transaction groups, unseen here.
 * NetBSD has neither. No BSD has cachestat: one file's dirty pages are
 * not measured.
 */
#include "config.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/types.h>
#ifdef HAVE_SYS_SYSCTL_H
#include <sys/sysctl.h>
#endif

#include "sys/dirty.h"

#ifdef HAVE_SYSCTLBYNAME
/* A numeric sysctl, in 4 bytes or 8 (an int or a long); 0 or -errno. */
static int sysctl_i64(const char *name, int64_t *v)
{
	union {
		int32_t i32;
		int64_t i64;
	} buf;
	size_t len = sizeof(buf);

	memset(&buf, 0, sizeof(buf));
	if (sysctlbyname(name, &buf, &len, NULL, 0))
		return -errno;
	*v = len == sizeof(buf.i32) ? buf.i32 : buf.i64;
	return 0;
}
#else
static int sysctl_i64(const char *name, int64_t *v)
{
	(void)name;
	(void)v;
	return -ENOSYS;
}
#endif

int sys_dirty_open(struct sys_dirty_reader *r)
{
	int64_t v;

	r->fd = -1;
	r->source[0] = '\0';
	if (!sysctl_i64("vfs.dirtybufspace", &v)) {
		snprintf(r->source, sizeof(r->source), "DragonFly vfs.dirtybufspace, "
			 "vfs.runningbufspace (the buffer cache only, blind to ZFS)");
		return 0;
	}
	if (!sysctl_i64("vfs.numdirtybuffers", &v) && !sysctl_i64("vfs.runningbufspace", &v)) {
		snprintf(r->source, sizeof(r->source), "FreeBSD vfs.runningbufspace as writeback "
			 "(the buffer cache only, blind to ZFS); vfs.numdirtybuffers counts "
			 "buffers, not bytes: dirty not measured");
		return 0;
	}
	return -ENOSYS;
}

int sys_dirty_read(struct sys_dirty_reader *r, struct sys_dirty *d)
{
	int64_t v;

	d->dirty_kib = d->writeback_kib = -1;
	if (!r->source[0])
		return -ENOSYS;
	if (!sysctl_i64("vfs.dirtybufspace", &v))
		d->dirty_kib = v / 1024;
	if (!sysctl_i64("vfs.runningbufspace", &v))
		d->writeback_kib = v / 1024;
	return 0;
}

void sys_dirty_close(struct sys_dirty_reader *r)
{
	r->fd = -1;
}

int sys_memory_available(uint64_t *bytes, char *source, size_t len)
{
	int64_t free_pages, inactive_pages, page;
	int ret;

	ret = sysctl_i64("vm.stats.vm.v_free_count", &free_pages);
	if (!ret)
		ret = sysctl_i64("vm.stats.vm.v_inactive_count", &inactive_pages);
	if (!ret)
		ret = sysctl_i64("vm.stats.vm.v_page_size", &page);
	if (ret)
		return ret == -ENOENT ? -ENOSYS : ret;
	if (free_pages < 0 || inactive_pages < 0 || page <= 0)
		return -EINVAL;
	*bytes = ((uint64_t)free_pages + (uint64_t)inactive_pages) * (uint64_t)page;
	snprintf(source, len, "free and inactive pages, vm.stats.vm");
	return 0;
}

int sys_file_dirty(int fd, struct sys_dirty *d)
{
	(void)fd;
	d->dirty_kib = d->writeback_kib = -1;
	return -ENOSYS;
}

const char *sys_file_dirty_source(void)
{
	return NULL;
}

int sys_dirty_limit(uint64_t *bytes)
{
	(void)bytes;
	return -ENOSYS;
}
