/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef CLYDE_RESIDENCY_H
#define CLYDE_RESIDENCY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * How much of a file is in the page cache, measured without touching its
 * data, so a run can prove that a phase read from the device.
 */
enum residency_method { RES_UNKNOWN, RES_CACHESTAT, RES_MINCORE };

struct residency {
	enum residency_method method;	/* RES_UNKNOWN: could not tell */
	uint64_t file_bytes;		/* size of the file at the time */
	uint64_t resident_bytes;	/* page-cache bytes of it */
	char why[128];			/* RES_UNKNOWN: the reason */
};

/*
 * Measure how much of path is resident in the page cache now, without
 * reading its data. 0 or -errno (open or fstat failed); a method that
 * cannot tell is not an error: method RES_UNKNOWN with why set.
 * cachestat(2) where the kernel has it, else mincore(2).
 */
int residency_measure(const char *path, struct residency *r);

/* The mincore(2) method alone (tests compare it with cachestat). */
int residency_measure_mincore(const char *path, struct residency *r);

/* "cachestat", "mincore", "unknown" */
const char *residency_method_name(enum residency_method m);

/* Resident fraction in percent (0 for an empty file), or -1 when unknown. */
double residency_percent(const struct residency *r);

/*
 * Is this filesystem type ZFS? Its ARC is outside the page cache, so both
 * methods see nothing there. type as mountinfo or statfs names it: "zfs",
 * "fuse.zfs", "fuse.zfs-fuse".
 */
bool fs_type_is_zfs(const char *type);

/*
 * ZFS ARC counters where the system exports them (Linux
 * /proc/spl/kstat/zfs/arcstats, FreeBSD kstat.zfs.misc.arcstats.*);
 * available is false elsewhere (zfs-fuse exports none).
 */
struct arc_stats {
	bool available;
	uint64_t hits, misses;
};
void arc_stats_read(struct arc_stats *a);

/*
 * OS part: residency_linux.c or residency_bsd.c.
 *
 * residency_os_measure: measure fd (a regular file) with the OS's own
 * method; 0 when r is filled, -ENOSYS when the caller should use mincore.
 */
int residency_os_measure(int fd, struct residency *r);

/*
 * Does mincore(2) here report the page-cache residency of fd (opened from
 * path)? If not, why says so.
 */
bool residency_os_mincore_ok(const char *path, int fd, char *why, size_t len);

#endif
