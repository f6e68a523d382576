// SPDX-License-Identifier: BSD-2-Clause
/* Dirty pages on Linux: /proc/meminfo for the machine, cachestat(2) for a file (see dirty.h). */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "sys/cachestat.h"
#include "sys/dirty.h"

int sys_dirty_open(struct sys_dirty_reader *r)
{
	struct sys_dirty d;

	r->source[0] = '\0';
	r->fd = open("/proc/meminfo", O_RDONLY | O_CLOEXEC);
	if (r->fd < 0)
		return -ENOSYS;
	if (sys_dirty_read(r, &d)) {
		sys_dirty_close(r);
		return -ENOSYS;
	}
	snprintf(r->source, sizeof(r->source), "Linux /proc/meminfo Dirty, Writeback");
	return 0;
}

/* /proc/meminfo's text from fd, about 1.5 KiB on today's kernels; 0 or -errno. */
static int read_meminfo(int fd, char *buf, size_t len)
{
	ssize_t n = pread(fd, buf, len - 1, 0);

	if (n <= 0)
		return n ? -errno : -EIO;
	buf[n] = '\0';
	return 0;
}

int sys_dirty_read(struct sys_dirty_reader *r, struct sys_dirty *d)
{
	char buf[8192];
	int ret;

	if (r->fd < 0)
		return -ENOSYS;
	ret = read_meminfo(r->fd, buf, sizeof(buf));
	return ret ? ret : sys_dirty_parse_meminfo(buf, d);
}

int sys_memory_available(uint64_t *bytes, char *source, size_t len)
{
	int fd = open("/proc/meminfo", O_RDONLY | O_CLOEXEC), ret;
	char buf[8192];

	if (fd < 0)
		return -errno;
	ret = read_meminfo(fd, buf, sizeof(buf));
	close(fd);
	if (!ret)
		ret = sys_parse_mem_available(buf, bytes);
	if (!ret)
		snprintf(source, len, "MemAvailable in /proc/meminfo");
	return ret;
}

void sys_dirty_close(struct sys_dirty_reader *r)
{
	if (r->fd >= 0)
		close(r->fd);
	r->fd = -1;
}

int sys_file_dirty(int fd, struct sys_dirty *d)
{
	struct cachestat_range range = { 0, 0 };
	struct cachestat cs;
	long page = sysconf(_SC_PAGESIZE);
	int64_t kib = (page > 0 ? page : 4096) / 1024;

	memset(&cs, 0, sizeof(cs));
	if (syscall(CLYDE_NR_CACHESTAT, fd, &range, &cs, 0))
		return -ENOSYS;
	d->dirty_kib = (int64_t)cs.nr_dirty * kib;
	d->writeback_kib = (int64_t)cs.nr_writeback * kib;
	return 0;
}

const char *sys_file_dirty_source(void)
{
	return "cachestat";
}

/* A number alone in a file of /proc/sys; 0 or -errno. */
static int proc_number(const char *path, unsigned long long *v)
{
	FILE *f = fopen(path, "re");
	int ret;

	if (!f)
		return -errno;
	ret = fscanf(f, "%llu", v) == 1 ? 0 : -EINVAL;
	fclose(f);
	return ret;
}

int sys_dirty_limit(uint64_t *bytes)
{
	struct sys_dirty_reader r;
	unsigned long long dirty_bytes, ratio;
	char meminfo[8192];
	int ret;

	ret = proc_number("/proc/sys/vm/dirty_bytes", &dirty_bytes);
	if (!ret)
		ret = proc_number("/proc/sys/vm/dirty_ratio", &ratio);
	if (!ret)
		ret = sys_dirty_open(&r);
	if (ret)
		return ret;
	ret = read_meminfo(r.fd, meminfo, sizeof(meminfo));
	sys_dirty_close(&r);
	if (ret)
		return ret;
	return sys_dirty_limit_compute(dirty_bytes, ratio > 100 ? 100 : (unsigned)ratio, meminfo,
				       bytes);
}
