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
	uint64_t range_offset;		/* the bytes measured: the range asked for, */
	uint64_t range_bytes;		/* clipped to the file */
	uint64_t resident_bytes;	/* page-cache bytes of that range */
	char why[128];			/* RES_UNKNOWN: the reason */
};

/* A range's length that means "to the end of the file". */
#define RESIDENCY_TO_END UINT64_MAX

/*
 * Measure how much of bytes [off, off + len) of path is resident in the
 * page cache now, without reading its data (a phase that reads only part
 * of a file is judged by that part). 0 or -errno (open or fstat failed); a
 * method that cannot tell is not an error: method RES_UNKNOWN with why
 * set. cachestat(2) where the kernel has it, else mincore(2).
 */
int residency_measure_range(const char *path, uint64_t off, uint64_t len, struct residency *r);

/* The whole file. */
int residency_measure(const char *path, struct residency *r);

/* The mincore(2) method alone (tests compare it with cachestat). */
int residency_measure_mincore_range(const char *path, uint64_t off, uint64_t len,
				    struct residency *r);
int residency_measure_mincore(const char *path, struct residency *r);

/*
 * The range arithmetic, pure: residency_clip sets r->range_offset and
 * r->range_bytes to [off, off + len) clipped to r->file_bytes (an offset
 * past the end leaves an empty range at the end).
 */
void residency_clip(struct residency *r, uint64_t off, uint64_t len);

/*
 * The page-aligned span [*map_off, *map_off + *map_len) that covers the
 * range [off, off + len), for mmap and mincore; empty for an empty range.
 */
void residency_page_span(uint64_t off, uint64_t len, uint64_t page,
			 uint64_t *map_off, uint64_t *map_len);

/*
 * How many bytes of the page at page_off lie inside [off, off + len)
 * (ranges inside a file, where neither end overflows).
 */
uint64_t residency_page_share(uint64_t page_off, uint64_t page, uint64_t off, uint64_t len);

/* "cachestat", "mincore", "unknown" */
const char *residency_method_name(enum residency_method m);

/* Resident fraction of the range in percent (0 for an empty one), or -1 when unknown. */
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
 * residency_os_measure: measure r's range of fd (a regular file) with the
 * OS's own method; 0 when r is filled, -ENOSYS when the caller should use
 * mincore.
 */
int residency_os_measure(int fd, struct residency *r);

/*
 * Does mincore(2) here report the page-cache residency of fd (opened from
 * path)? If not, why says so.
 */
bool residency_os_mincore_ok(const char *path, int fd, char *why, size_t len);

#endif
