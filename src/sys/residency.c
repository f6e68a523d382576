// SPDX-License-Identifier: BSD-2-Clause
/*
 * Page-cache residency of a file, the portable part: mincore(2) over a
 * read-only shared mapping. Mapping a file and asking mincore reads no
 * data and faults nothing in, so measuring does not change the answer.
 * The OS part (residency_linux.c, residency_bsd.c) adds cachestat(2) and
 * says where mincore cannot be trusted.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/strutil.h"
#include "sys/residency.h"

/*
 * Map at most this much at a time: a huge file needs no huge vector, and
 * the window fits a 32-bit address space.
 */
#define MINCORE_WINDOW (256ULL << 20)

static void set_unknown(struct residency *r, const char *why)
{
	r->method = RES_UNKNOWN;
	r->resident_bytes = 0;
	str_copy(r->why, sizeof(r->why), why);
}

static void set_unknown_errno(struct residency *r, const char *what, int err)
{
	char why[sizeof(r->why)];

	snprintf(why, sizeof(why), "%s: %s", what, strerror(err));
	set_unknown(r, why);
}

void residency_clip(struct residency *r, uint64_t off, uint64_t len)
{
	r->range_offset = off < r->file_bytes ? off : r->file_bytes;
	r->range_bytes = r->file_bytes - r->range_offset;
	if (len < r->range_bytes)
		r->range_bytes = len;
}

void residency_page_span(uint64_t off, uint64_t len, uint64_t page,
			 uint64_t *map_off, uint64_t *map_len)
{
	uint64_t end;

	if (!len || !page) {
		*map_off = off;
		*map_len = 0;
		return;
	}
	*map_off = off - off % page;
	end = off + len;
	/* round up, saturating: a range that ends near 2^64 stays inside it */
	if (end % page)
		end = end > UINT64_MAX - page ? UINT64_MAX : end + page - end % page;
	*map_len = end - *map_off;
}

uint64_t residency_page_share(uint64_t page_off, uint64_t page, uint64_t off, uint64_t len)
{
	uint64_t lo = page_off > off ? page_off : off;
	uint64_t page_end = page_off + page, end = off + len;
	uint64_t hi = page_end < end ? page_end : end;

	return hi > lo ? hi - lo : 0;
}

/*
 * Resident bytes of r's range inside the window [off, off + len) of fd
 * (page-aligned); 0 or -errno.
 */
static int mincore_window(int fd, const struct residency *r, uint64_t off, size_t len,
			  size_t page, unsigned char *vec, uint64_t *resident, const char **what)
{
	size_t pages = (len + page - 1) / page;
	void *map;
	int ret = 0;

	*what = "mmap";
	map = mmap(NULL, len, PROT_READ, MAP_SHARED, fd, (off_t)off);
	if (map == MAP_FAILED)
		return -errno;
	/* void *: Linux declares the vector unsigned char *, the BSDs char *. */
	*what = "mincore";
	if (mincore(map, len, (void *)vec)) {
		ret = -errno;
		goto out_unmap;
	}
	for (size_t i = 0; i < pages; i++)
		if (vec[i] & 1)
			*resident += residency_page_share(off + i * page, page, r->range_offset,
							  r->range_bytes);
out_unmap:
	munmap(map, len);
	return ret;
}

static int mincore_fd(const char *path, int fd, struct residency *r)
{
	long pagesz = sysconf(_SC_PAGESIZE);
	uint64_t resident = 0, off, span_off, span_len, span_end;
	unsigned char *vec;
	size_t page, win;
	int ret = 0;

	if (!residency_os_mincore_ok(path, fd, r->why, sizeof(r->why))) {
		r->method = RES_UNKNOWN;
		r->resident_bytes = 0;
		return 0;
	}
	page = pagesz > 0 ? (size_t)pagesz : 4096;
	residency_page_span(r->range_offset, r->range_bytes, page, &span_off, &span_len);
	span_end = span_off + span_len;
	win = span_len < MINCORE_WINDOW ? (size_t)span_len : (size_t)MINCORE_WINDOW;
	r->method = RES_MINCORE;
	r->resident_bytes = 0;
	if (!win)
		return 0;
	vec = malloc((win + page - 1) / page);
	if (!vec)
		return -ENOMEM;
	for (off = span_off; off < span_end; off += win) {
		size_t len = span_end - off < win ? (size_t)(span_end - off) : win;
		const char *what;

		ret = mincore_window(fd, r, off, len, page, vec, &resident, &what);
		if (ret) {
			/* A file that cannot be mapped is unmeasured, not an error. */
			set_unknown_errno(r, what, -ret);
			ret = 0;
			goto out_free;
		}
	}
	r->resident_bytes = resident < r->range_bytes ? resident : r->range_bytes;
out_free:
	free(vec);
	return ret;
}

/* Open path, fill file_bytes and the range; the descriptor in *fdp, or -errno. */
static int open_file(const char *path, uint64_t off, uint64_t len, struct residency *r,
		     int *fdp, bool *regular)
{
	struct stat st;
	int fd;

	memset(r, 0, sizeof(*r));
	/*
	 * O_NONBLOCK: a path that names a FIFO now (a loop's backing file
	 * under a mount put over its directory) must not hold the run; it is
	 * then no regular file, and not measured.
	 */
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st)) {
		int err = errno;

		close(fd);
		return -err;
	}
	r->file_bytes = (uint64_t)st.st_size;
	residency_clip(r, off, len);
	*regular = S_ISREG(st.st_mode);
	if (!*regular)
		set_unknown(r, "not a regular file");
	*fdp = fd;
	return 0;
}

int residency_measure_range(const char *path, uint64_t off, uint64_t len, struct residency *r)
{
	bool regular;
	int fd, ret;

	ret = open_file(path, off, len, r, &fd, &regular);
	if (ret)
		return ret;
	if (regular) {
		ret = residency_os_measure(fd, r);
		if (ret == -ENOSYS)
			ret = mincore_fd(path, fd, r);
	}
	close(fd);
	return ret;
}

int residency_measure(const char *path, struct residency *r)
{
	return residency_measure_range(path, 0, RESIDENCY_TO_END, r);
}

int residency_measure_mincore_range(const char *path, uint64_t off, uint64_t len,
				    struct residency *r)
{
	bool regular;
	int fd, ret;

	ret = open_file(path, off, len, r, &fd, &regular);
	if (ret)
		return ret;
	if (regular)
		ret = mincore_fd(path, fd, r);
	close(fd);
	return ret;
}

int residency_measure_mincore(const char *path, struct residency *r)
{
	return residency_measure_mincore_range(path, 0, RESIDENCY_TO_END, r);
}

const char *residency_method_name(enum residency_method m)
{
	switch (m) {
	case RES_CACHESTAT:
		return "cachestat";
	case RES_MINCORE:
		return "mincore";
	default:
		return "unknown";
	}
}

double residency_percent(const struct residency *r)
{
	if (r->method == RES_UNKNOWN)
		return -1;
	if (!r->range_bytes)
		return 0;
	return 100.0 * (double)r->resident_bytes / (double)r->range_bytes;
}

/* "zfs" itself, or zfs under FUSE: "fuse.zfs", "fuse.zfs-fuse". */
bool fs_type_is_zfs(const char *type)
{
	static const char *const fuse[] = { "fuse.", "fuseblk." };

	if (!type)
		return false;
	for (size_t i = 0; i < sizeof(fuse) / sizeof(fuse[0]); i++) {
		size_t n = strlen(fuse[i]);

		if (!strncasecmp(type, fuse[i], n)) {
			type += n;
			break;
		}
	}
	if (strncasecmp(type, "zfs", 3))
		return false;
	return type[3] == '\0' || type[3] == '-' || type[3] == '_';
}
