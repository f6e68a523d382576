// SPDX-License-Identifier: BSD-2-Clause
/*
 * Page-cache residency on Linux: cachestat(2) (6.5+), else mincore(2);
 * ZFS ARC counters from the SPL kstat file.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/strutil.h"
#include "sys/cachestat.h"
#include "sys/residency.h"

int residency_os_measure(int fd, struct residency *r)
{
	struct cachestat_range range = { .off = r->range_offset, .len = r->range_bytes };
	struct cachestat cs;
	long page = sysconf(_SC_PAGESIZE);

	/*
	 * Failures fall back to mincore: ENOSYS before 6.5 or under a seccomp
	 * filter, EPERM for a file this process may not write (mincore's
	 * rule is the same, and residency_os_mincore_ok says so), EOPNOTSUPP
	 * on hugetlbfs.
	 */
	memset(&cs, 0, sizeof(cs));
	if (!r->range_bytes) {
		/* cachestat's len 0 means "to the end": an empty range is simply empty */
		r->method = RES_CACHESTAT;
		r->resident_bytes = 0;
		return 0;
	}
	if (syscall(CLYDE_NR_CACHESTAT, fd, &range, &cs, 0))
		return -ENOSYS;
	r->method = RES_CACHESTAT;
	r->resident_bytes = (uint64_t)cs.nr_cache * (uint64_t)(page > 0 ? page : 4096);
	/*
	 * Whole pages: a range's partial first and last pages and the file's
	 * tail page overshoot it; growth after fstat too.
	 */
	if (r->resident_bytes > r->range_bytes)
		r->resident_bytes = r->range_bytes;
	return 0;
}

/*
 * mm/mincore.c can_do_mincore() (Linux 5.0, backported to stable kernels):
 * for a file the caller neither owns nor may write, mincore reports every
 * page resident rather than reveal the page cache. cachestat(2) has the
 * same rule (can_do_cachestat() in mm/filemap.c) but fails with EPERM.
 */
bool residency_os_mincore_ok(const char *path, int fd, char *why, size_t len)
{
	struct stat st;

	if (!fstat(fd, &st) && (st.st_uid == geteuid() || geteuid() == 0))
		return true;
	if (!faccessat(AT_FDCWD, path, W_OK, AT_EACCESS))
		return true;
	str_copy(why, len, "not owned or writable: Linux hides its page-cache state");
	return false;
}

#define ARCSTATS "/proc/spl/kstat/zfs/arcstats"

void arc_stats_read(struct arc_stats *a)
{
	bool hits = false, misses = false;
	char line[256], name[64];
	unsigned long long v;
	unsigned int type;
	FILE *f;

	memset(a, 0, sizeof(*a));
	f = fopen(ARCSTATS, "re");
	if (!f)
		return;
	/* Two header lines, then "name type data" rows. */
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%63s %u %llu", name, &type, &v) != 3)
			continue;
		if (!strcmp(name, "hits")) {
			a->hits = v;
			hits = true;
		} else if (!strcmp(name, "misses")) {
			a->misses = v;
			misses = true;
		}
	}
	fclose(f);
	a->available = hits && misses;
}
