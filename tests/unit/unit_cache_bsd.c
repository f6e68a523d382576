// SPDX-License-Identifier: BSD-2-Clause
/*
 * The BSDs' eviction (src/sys/cache_bsd.c), run wherever the tests run: built
 * on its own with a 64 KiB window, so that a file of a few windows and a
 * partial one goes through every step (fsync, DONTNEED, one mapping and
 * msync(MS_SYNC | MS_INVALIDATE) per window). What the kernel then frees
 * is the BSD kernels' business (see cache_bsd.c) and is measured by
 * unit_residency on a BSD; here: every call succeeds, data written and
 * not yet synced survive, and the errors are errnos.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sys/cache.h"
#include "unit.h"

#define FILE_BYTES (4 * 65536 + 4097)

static unsigned char byte_at(size_t i)
{
	return (unsigned char)(i * 131 + (i >> 12));
}

/* Write FILE_BYTES of the pattern, without syncing. 0 or -errno. */
static int write_file(const char *path, size_t bytes)
{
	unsigned char *buf = malloc(bytes ? bytes : 1);
	int fd, ret = 0;

	if (!buf)
		return -ENOMEM;
	for (size_t i = 0; i < bytes; i++)
		buf[i] = byte_at(i);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0) {
		ret = -errno;
		goto out_free;
	}
	if (write(fd, buf, bytes) != (ssize_t)bytes)
		ret = -EIO;
	close(fd);
out_free:
	free(buf);
	return ret;
}

/* Does path still hold the pattern, all of it? */
static bool intact(const char *path)
{
	unsigned char *buf = malloc(FILE_BYTES + 1);
	bool ok = false;
	ssize_t n;
	int fd;

	if (!buf)
		return false;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		n = read(fd, buf, FILE_BYTES + 1);
		ok = n == FILE_BYTES;
		for (size_t i = 0; ok && i < FILE_BYTES; i++)
			ok = buf[i] == byte_at(i);
		close(fd);
	}
	free(buf);
	return ok;
}

int main(void)
{
	const char *tmpdir = getenv("TMPDIR");
	char dir[4096], big[4200], empty[4200], missing[4200];

	snprintf(dir, sizeof(dir), "%s/clyde-cache-XXXXXX", tmpdir && *tmpdir ? tmpdir : "/tmp");
	if (!mkdtemp(dir)) {
		printf("cannot make a directory (%s): skipped\n", strerror(errno));
		return 77;
	}
	snprintf(big, sizeof(big), "%s/big", dir);
	snprintf(empty, sizeof(empty), "%s/empty", dir);
	snprintf(missing, sizeof(missing), "%s/missing", dir);

	CHECK_STR(cache_evict_method(), "fsync + fadvise DONTNEED + msync MS_INVALIDATE");
	CHECK(write_file(big, FILE_BYTES) == 0, "write %s", big);
	CHECK(cache_evict_file(big) == 0, "evict five windows");
	CHECK(intact(big), "the data survive the eviction");
	CHECK(cache_evict_file(big) == 0, "evict again (nothing dirty)");
	CHECK(intact(big), "and again");
	CHECK(write_file(empty, 0) == 0, "write %s", empty);
	CHECK(cache_evict_file(empty) == 0, "an empty file maps nothing");
	CHECK(cache_evict_file(missing) == -ENOENT, "missing: %d", cache_evict_file(missing));
	CHECK(cache_system_available() == -ENOSYS, "no drop_caches");
	CHECK(cache_drop_system() == -ENOSYS, "no drop_caches");

	unlink(big);
	unlink(empty);
	rmdir(dir);
	return unit_verdict("unit_cache_bsd");
}
