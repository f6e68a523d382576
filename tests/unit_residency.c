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

#include "cache.h"
#include "fsinfo.h"
#include "residency.h"
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
	struct residency r = { .method = RES_UNKNOWN, .file_bytes = 10 };

	CHECK_STR(residency_method_name(RES_CACHESTAT), "cachestat");
	CHECK_STR(residency_method_name(RES_MINCORE), "mincore");
	CHECK_STR(residency_method_name(RES_UNKNOWN), "unknown");
	CHECK(residency_percent(&r) == -1, "unknown is -1");
	r.method = RES_MINCORE;
	r.resident_bytes = 5;
	CHECK(residency_percent(&r) == 50, "5 of 10 is 50%%");
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
