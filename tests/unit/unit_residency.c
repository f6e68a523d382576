// SPDX-License-Identifier: BSD-2-Clause
/*
 * Page-cache residency on a real disk: a file pushed out of the cache
 * measures (nearly) empty, the same file read back measures (nearly) full,
 * and cachestat and mincore agree. Needs a disk-backed directory:
 * $CLYDE_TEST_DISK_DIR, else /var/tmp; skipped (77) on tmpfs or ZFS,
 * where "out of the page cache" means nothing.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "sys/cache.h"
#include "sys/fsinfo.h"
#include "sys/residency.h"
#include "unit.h"

#define FILE_BYTES (8u << 20)
#define CHUNK 65536
#define SKIP 77

static char buf[CHUNK];

static int write_file(const char *path, size_t len)
{
	int fd, ret = 0;

	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0)
		return -errno;
	for (size_t i = 0; i < sizeof(buf); i++)
		buf[i] = (char)(i * 131 + 7);
	for (size_t done = 0; done < len; done += sizeof(buf)) {
		if (write(fd, buf, sizeof(buf)) != (ssize_t)sizeof(buf)) {
			ret = errno ? -errno : -EIO;
			goto out_close;
		}
	}
	if (fsync(fd))
		ret = -errno;
out_close:
	close(fd);
	return ret;
}

static int read_file(const char *path)
{
	ssize_t n;
	int fd, ret = 0;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		;
	if (n < 0)
		ret = -errno;
	close(fd);
	return ret;
}

#ifdef HAVE_POSIX_FADVISE
/* Random access: Linux then reads ahead nothing, so only what is read is cached. */
static void no_readahead(int fd)
{
	(void)posix_fadvise(fd, 0, 0, POSIX_FADV_RANDOM);
}
#else
static void no_readahead(int fd)
{
	(void)fd;
}
#endif

/* Read the first len bytes of path (len a multiple of CHUNK). */
static int read_head(const char *path, size_t len)
{
	int fd, ret = 0;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	no_readahead(fd);
	for (size_t done = 0; done < len; done += sizeof(buf)) {
		if (read(fd, buf, sizeof(buf)) != (ssize_t)sizeof(buf)) {
			ret = errno ? -errno : -EIO;
			break;
		}
	}
	close(fd);
	return ret;
}

static bool on_linux(void)
{
	struct utsname u;

	return uname(&u) >= 0 && !strcmp(u.sysname, "Linux");
}

static void check_zfs_names(void)
{
	CHECK(fs_type_is_zfs("zfs"), "zfs");
	CHECK(fs_type_is_zfs("fuse.zfs"), "fuse.zfs");
	CHECK(fs_type_is_zfs("fuse.zfs-fuse"), "fuse.zfs-fuse");
	CHECK(!fs_type_is_zfs("ext4"), "ext4");
	CHECK(!fs_type_is_zfs("fuse.sshfs"), "fuse.sshfs");
	CHECK(!fs_type_is_zfs("tmpfs"), "tmpfs");
	CHECK(!fs_type_is_zfs("fuse"), "fuse");
	CHECK(!fs_type_is_zfs("zfsx"), "zfsx");
	CHECK(!fs_type_is_zfs(""), "empty");
	CHECK(!fs_type_is_zfs(NULL), "NULL");
}

static void check_names(void)
{
	struct residency r = { .method = RES_UNKNOWN, .file_bytes = 10, .range_bytes = 10 };

	CHECK_STR(residency_method_name(RES_CACHESTAT), "cachestat");
	CHECK_STR(residency_method_name(RES_MINCORE), "mincore");
	CHECK_STR(residency_method_name(RES_UNKNOWN), "unknown");
	CHECK(residency_percent(&r) == -1, "unknown is -1");
	r.method = RES_MINCORE;
	r.resident_bytes = 5;
	CHECK(residency_percent(&r) == 50, "5 of 10 is 50%%");
}

/* The range arithmetic, without a file. */
static void check_ranges(void)
{
	struct residency r = { .method = RES_MINCORE, .file_bytes = 10 << 20 };
	uint64_t off, len;

	residency_clip(&r, 0, 3 << 20);
	CHECK(r.range_offset == 0 && r.range_bytes == 3 << 20, "getc's 3 MiB of 10");
	residency_clip(&r, 0, RESIDENCY_TO_END);
	CHECK(r.range_offset == 0 && r.range_bytes == 10 << 20, "to the end is the file");
	residency_clip(&r, 8 << 20, 4 << 20);
	CHECK(r.range_offset == 8 << 20 && r.range_bytes == 2 << 20, "clipped at the end: %llu",
	      (unsigned long long)r.range_bytes);
	residency_clip(&r, 12 << 20, 1);
	CHECK(r.range_offset == 10 << 20 && r.range_bytes == 0, "past the end is empty");
	residency_clip(&r, 5, RESIDENCY_TO_END);
	CHECK(r.range_offset == 5 && r.range_bytes == (10 << 20) - 5, "from 5 to the end");

	/* percent of the range, not of the file */
	residency_clip(&r, 0, 3 << 20);
	r.resident_bytes = 3 << 20;
	CHECK(residency_percent(&r) == 100, "the whole range: %.1f%%", residency_percent(&r));
	r.resident_bytes = 3 << 19;
	CHECK(residency_percent(&r) == 50, "half the range: %.1f%%", residency_percent(&r));
	residency_clip(&r, 12 << 20, 1);
	r.resident_bytes = 0;
	CHECK(residency_percent(&r) == 0, "an empty range is 0%%");

	residency_page_span(0, 3 << 20, 4096, &off, &len);
	CHECK(off == 0 && len == 3 << 20, "aligned span");
	residency_page_span(5000, 100, 4096, &off, &len);
	CHECK(off == 4096 && len == 4096, "inside one page: %llu+%llu",
	      (unsigned long long)off, (unsigned long long)len);
	residency_page_span(4000, 200, 4096, &off, &len);
	CHECK(off == 0 && len == 8192, "across a page boundary: %llu+%llu",
	      (unsigned long long)off, (unsigned long long)len);
	residency_page_span(4096, 0, 4096, &off, &len);
	CHECK(len == 0, "empty range, empty span");
	residency_page_span(UINT64_MAX - 10, 5, 4096, &off, &len);
	CHECK(off % 4096 == 0 && off <= UINT64_MAX - 10 && len > 0 && len <= UINT64_MAX - off,
	      "no wrap near 2^64: %llu+%llu", (unsigned long long)off, (unsigned long long)len);

	CHECK(residency_page_share(0, 4096, 0, 3 << 20) == 4096, "a page inside");
	CHECK(residency_page_share(4096, 4096, 5000, 100) == 100, "a range inside the page");
	CHECK(residency_page_share(0, 4096, 4000, 200) == 96, "the range's head");
	CHECK(residency_page_share(4096, 4096, 4000, 200) == 104, "the range's tail");
	CHECK(residency_page_share(8192, 4096, 4000, 200) == 0, "a page after the range");
	CHECK(residency_page_share(0, 4096, 4096, 10) == 0, "a page before the range");
}

static double pct(const struct residency *r)
{
	return residency_percent(r);
}

/* Measure path both ways; the two must agree within a few percent. */
static void measure(const char *path, const char *when, struct residency *r)
{
	struct residency m;

	CHECK(residency_measure(path, r) == 0, "%s: measure", when);
	CHECK(r->file_bytes == FILE_BYTES, "%s: size %llu", when, (unsigned long long)r->file_bytes);
	CHECK(residency_measure_mincore(path, &m) == 0, "%s: mincore", when);
	CHECK(m.method == RES_MINCORE, "%s: mincore method %s (%s)", when,
	      residency_method_name(m.method), m.why);
	CHECK(pct(r) - pct(&m) < 3 && pct(&m) - pct(r) < 3, "%s: %s %.1f%% vs mincore %.1f%%",
	      when, residency_method_name(r->method), pct(r), pct(&m));
	printf("%s: %s %.1f%% (%llu of %llu bytes), mincore %.1f%%\n", when,
	       residency_method_name(r->method), pct(r), (unsigned long long)r->resident_bytes,
	       (unsigned long long)r->file_bytes, pct(&m));
}

static int run(const char *dir)
{
	char tmp[4096], big[4200], empty[4200], missing[4200];
	struct residency r;
	int ret = 0;

	snprintf(tmp, sizeof(tmp), "%s/clyde-residency-XXXXXX", dir);
	if (!mkdtemp(tmp)) {
		printf("cannot make a directory in %s (%s): skipped\n", dir, strerror(errno));
		return SKIP;
	}
	snprintf(big, sizeof(big), "%s/big", tmp);
	snprintf(empty, sizeof(empty), "%s/empty", tmp);
	snprintf(missing, sizeof(missing), "%s/missing", tmp);

	CHECK(write_file(big, FILE_BYTES) == 0, "write %s", big);
	CHECK(cache_evict_file(big) == 0, "evict (%s)", cache_evict_method());
	CHECK(residency_measure(big, &r) == 0, "measure");
	if (r.method == RES_UNKNOWN) {
		/* Where mincore cannot tell (FreeBSD, DragonFly by default). */
		CHECK(!on_linux(), "Linux always has a method: %s", r.why);
		printf("residency unknown here (%s): skipped\n", r.why);
		ret = SKIP;
		goto out_unlink;
	}
	measure(big, "after eviction", &r);
	CHECK(pct(&r) <= 5, "after eviction: %.1f%% resident", pct(&r));

	CHECK(read_file(big) == 0, "read back");
	measure(big, "after reading", &r);
	CHECK(pct(&r) >= 95, "after reading: %.1f%% resident", pct(&r));

	/*
	 * Ranges: with only the first MiB read back, that MiB measures full,
	 * the whole file is that MiB plus whatever was read ahead after it
	 * (none on Linux, told the access is random); both methods agree.
	 */
	CHECK(cache_evict_file(big) == 0, "evict again");
	CHECK(read_head(big, 1 << 20) == 0, "read the first MiB");
	for (int m = 0; m < 2; m++) {
		int (*fn)(const char *, uint64_t, uint64_t, struct residency *) =
			m ? residency_measure_mincore_range : residency_measure_range;
		const char *how = m ? "mincore" : "measure";
		uint64_t head, rest;

		CHECK(fn(big, 0, 1 << 20, &r) == 0 && pct(&r) >= 95 && r.range_bytes == 1 << 20,
		      "%s: the MiB read: %.1f%% of %llu", how, pct(&r),
		      (unsigned long long)r.range_bytes);
		head = r.resident_bytes;
		CHECK(fn(big, 1 << 20, RESIDENCY_TO_END, &r) == 0 &&
		      r.range_bytes == FILE_BYTES - (1 << 20) && pct(&r) <= (on_linux() ? 5 : 60),
		      "%s: the rest: %.1f%%", how, pct(&r));
		rest = r.resident_bytes;
		CHECK(fn(big, 0, RESIDENCY_TO_END, &r) == 0 && r.resident_bytes == head + rest &&
		      pct(&r) >= 11 && pct(&r) <= (on_linux() ? 17 : 70),
		      "%s: the whole file: %.1f%% = %llu + %llu", how, pct(&r),
		      (unsigned long long)head, (unsigned long long)rest);
		/* unaligned: 100 bytes inside the MiB, and 100 bytes across its end */
		CHECK(fn(big, 5000, 100, &r) == 0 && r.resident_bytes == 100,
		      "%s: 100 bytes inside: %llu resident", how, (unsigned long long)r.resident_bytes);
		CHECK(fn(big, (1 << 20) - 50, 100, &r) == 0 && r.resident_bytes <= 100 &&
		      r.resident_bytes >= 50, "%s: across the end: %llu resident", how,
		      (unsigned long long)r.resident_bytes);
		CHECK(fn(big, FILE_BYTES + 1, 10, &r) == 0 && r.range_bytes == 0 && pct(&r) == 0,
		      "%s: past the end: nothing", how);
	}

	CHECK(write_file(empty, 0) == 0, "write %s", empty);
	CHECK(residency_measure(empty, &r) == 0, "measure empty");
	CHECK(r.method != RES_UNKNOWN && r.file_bytes == 0 && r.resident_bytes == 0 && pct(&r) == 0,
	      "empty: %s %llu of %llu", residency_method_name(r.method),
	      (unsigned long long)r.resident_bytes, (unsigned long long)r.file_bytes);
	CHECK(residency_measure_mincore(empty, &r) == 0 && r.method == RES_MINCORE &&
	      r.resident_bytes == 0, "empty by mincore");

	CHECK(residency_measure(missing, &r) == -ENOENT, "missing file is -ENOENT");
	CHECK(residency_measure_mincore(missing, &r) == -ENOENT, "missing file by mincore");

	unlink(empty);
out_unlink:
	unlink(big);
	CHECK(rmdir(tmp) == 0, "remove %s: %s", tmp, strerror(errno));
	return ret;
}

int main(void)
{
	const char *dir = getenv("CLYDE_TEST_DISK_DIR");
	struct fsinfo fs;
	int ret;

	check_zfs_names();
	check_names();
	check_ranges();

	if (!dir || !*dir)
		dir = "/var/tmp";
	if (!fsinfo_get(dir, &fs) && (!strcmp(fs.type, "tmpfs") || !strcmp(fs.type, "ramfs") ||
				      fs_type_is_zfs(fs.type))) {
		printf("%s is %s, not a disk the page cache fronts: set CLYDE_TEST_DISK_DIR; skipped\n",
		       dir, fs.type);
		ret = SKIP;
	} else {
		ret = run(dir);
	}
	if (unit_failures || ret != SKIP)
		return unit_verdict("unit_residency");
	unit_verdict("unit_residency");
	return SKIP;
}
