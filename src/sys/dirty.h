/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef CLYDE_DIRTY_H
#define CLYDE_DIRTY_H

#include <stddef.h>
#include <stdint.h>

/*
 * Dirty and under-writeback page cache: the machine's (read once per
 * interval of a phase's series) and one file's. Per OS, what can be read:
 * - Linux (dirty_linux.c): /proc/meminfo's Dirty and Writeback, every
 *   filesystem's pages; cachestat(2) (6.5) for one file's nr_dirty and
 *   nr_writeback.
 * - FreeBSD, DragonFly (dirty_bsd.c): the buffer cache's counters only,
 *   blind to ZFS's ARC and to pages dirtied through mappings. FreeBSD's
 *   vfs.numdirtybuffers counts buffers, not bytes (sys/kern/vfs_bio.c:
 *   "Number of buffers that are dirty"), so its dirty bytes are not
 *   measured; vfs.runningbufspace is the bytes of asynchronous buffer
 *   writes in flight: its writeback. DragonFly's vfs.dirtybufspace is
 *   "Pending bytes of dirty buffers" and its vfs.runningbufspace the
 *   bytes in flight.
 * - NetBSD: neither: not measured. No OS but Linux tells one file's.
 */
struct sys_dirty {
	int64_t dirty_kib;	/* -1: not measured */
	int64_t writeback_kib;
};

struct sys_dirty_reader {
	int fd;			/* Linux: /proc/meminfo, kept open; -1 elsewhere */
	char source[160];	/* what is read, and what it misses; "" not measured */
};

/* Find what this system can tell; 0, or -ENOSYS with source "" (not measured). */
int sys_dirty_open(struct sys_dirty_reader *r);
/* The machine's now; 0 or -errno. */
int sys_dirty_read(struct sys_dirty_reader *r, struct sys_dirty *d);
void sys_dirty_close(struct sys_dirty_reader *r);

/* One open file's dirty and writeback KiB; 0, or -ENOSYS where not measured. */
int sys_file_dirty(int fd, struct sys_dirty *d);
/* The name of what sys_file_dirty reads ("cachestat"), or NULL where nothing can. */
const char *sys_file_dirty_source(void);

/* /proc/meminfo's text: Dirty and Writeback in KiB (-1 where absent); 0 or -EINVAL. */
int sys_dirty_parse_meminfo(const char *text, struct sys_dirty *d);

/*
 * The memory that a file system held in memory (ramfs, tmpfs without a
 * size) may still fill: its bytes, and what told them in source. Linux
 * (dirty_linux.c): /proc/meminfo's MemAvailable, the kernel's estimate
 * of what can be had without swapping. FreeBSD and DragonFly
 * (dirty_bsd.c): the free and inactive pages, vm.stats.vm.v_free_count
 * and v_inactive_count times v_page_size (sys/vm/vm_meter.c in both).
 * NetBSD has no such names: -ENOSYS, and the caller says it cannot tell.
 * 0 or -errno.
 */
int sys_memory_available(uint64_t *bytes, char *source, size_t len);

/* /proc/meminfo's text: MemAvailable in bytes; 0, or -EINVAL where absent. */
int sys_parse_mem_available(const char *text, uint64_t *bytes);

/*
 * The most dirty page cache the system lets writers hold before it makes
 * them wait for the device: what a write stopped early (a time box) can
 * still leave to flush. Linux: vm.dirty_bytes, or vm.dirty_ratio percent
 * of the memory the kernel counts as dirtyable (MemFree, Active(file) and
 * Inactive(file): global_dirtyable_memory() in mm/page-writeback.c). The
 * BSDs: not read (their buffer caches count buffers, ZFS its own
 * transaction groups): -ENOSYS. 0 or -errno.
 */
int sys_dirty_limit(uint64_t *bytes);

/*
 * The Linux rule, pure: dirty_bytes when not 0, else ratio percent of
 * what meminfo's text counts as dirtyable. 0, or -EINVAL when the text
 * lacks the fields.
 */
int sys_dirty_limit_compute(uint64_t dirty_bytes, unsigned ratio, const char *meminfo,
			    uint64_t *bytes);

#endif
