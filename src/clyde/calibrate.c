// SPDX-License-Identifier: BSD-2-Clause
/*
 * The calibration behind clyde's default counts: a second or so of the
 * real operations on the real directory, so the file tests last long
 * enough to measure and a default run stays near a minute.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "clyde/calibrate.h"
#include "lib/compat.h"
#include "lib/timing.h"
#include "phases/bench.h"
#include "sys/cache.h"
#include "sys/workdir.h"

/* At most this many files, made in batches; stop creating after this long. */
#define CAL_FILES	4096u
#define CAL_BATCH	256u
#define CAL_CREATE_NS	400000000ull
/*
 * A noisy trial measures again, up to these: batches that spread (the
 * slowest quarter over CAL_SPREAD times the fastest), or whose first half
 * and second half differ by CAL_DRIFT, or fewer than CAL_MIN_BATCHES.
 */
#define CAL_FILES_MORE	16384u
#define CAL_CREATE_MORE_NS 1500000000ull
#define CAL_SPREAD	1.5
#define CAL_DRIFT	1.3
#define CAL_MIN_BATCHES	4u
/* Block trial: this much data, in this size of writes. */
#define CAL_IO_BYTES	(32u << 20)
#define CAL_IO_CHUNK	(1u << 20)
#define CAL_SYSCALLS	4096u

static double per_op(uint64_t ns, unsigned n)
{
	return n ? (double)ns / 1e9 / n : 0;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static uint64_t median_ns(uint64_t *v, unsigned n)
{
	qsort(v, n, sizeof(*v), cmp_u64);
	return n ? v[n / 2] : 0;
}

/*
 * The closing sync of a create phase as the phases do it (phase_file.c):
 * fs_sync where it waits; elsewhere an fsync of each of the made files,
 * whose cost is per file and goes into *per_file_s, then of the directory.
 * 0 or -errno.
 */
static int calibrate_sync(int dfd, unsigned made, double *per_file_s)
{
	uint64_t t0 = now_ns();
	char name[32];
	int fd, ret = 0;

	*per_file_s = 0;
	if (fs_sync_waits())
		return fs_sync(dfd);
	for (unsigned i = 0; i < made && !ret; i++) {
		snprintf(name, sizeof(name), "%010x", i);
		fd = openat(dfd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
		if (fd < 0)
			return -errno;
		ret = fsync(fd) ? -errno : 0;
		close(fd);
	}
	*per_file_s = per_op(now_ns() - t0, made);
	if (!ret && fsync(dfd))
		ret = -errno;
	return ret;
}

/* The median of n values, v left as it was. */
static uint64_t median_of(const uint64_t *v, unsigned n)
{
	uint64_t tmp[CAL_FILES_MORE / CAL_BATCH];

	memcpy(tmp, v, n * sizeof(*v));
	return median_ns(tmp, n);
}

/* A first half unlike the second: a cache or the file system's state changed under the trial. */
bool calibrate_batches_noisy(const uint64_t *ns, unsigned n, double *spread)
{
	uint64_t tmp[CAL_FILES_MORE / CAL_BATCH];
	double first, second;

	*spread = 0;
	if (n < CAL_MIN_BATCHES)
		return true;
	if (n > CAL_FILES_MORE / CAL_BATCH)
		n = CAL_FILES_MORE / CAL_BATCH;
	memcpy(tmp, ns, n * sizeof(*ns));
	qsort(tmp, n, sizeof(*tmp), cmp_u64);
	*spread = tmp[n / 4] ? (double)tmp[n - 1 - n / 4] / (double)tmp[n / 4] : 0;
	first = (double)median_of(ns, n / 2);
	second = (double)median_of(ns + n / 2, n - n / 2);
	return *spread > CAL_SPREAD || !(first > 0) || second / first > CAL_DRIFT ||
	       first / second > CAL_DRIFT;
}

static int calibrate_files(const char *dir, struct calibration *c)
{
	uint64_t batch_ns[CAL_FILES_MORE / CAL_BATCH];
	unsigned batches = 0, most = CAL_FILES;
	uint64_t limit_ns = CAL_CREATE_NS;
	char name[32];
	unsigned made = 0;
	uint64_t t0, t1;
	double fsync_s;
	struct stat st;
	int dfd, ret = 0;

	dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0)
		return -errno;
	t0 = now_ns();
	for (;;) {
		uint64_t b0;
		int fd;

		if (made >= most || now_ns() - t0 >= limit_ns) {
			/* a noisy machine: measure again, longer, and take the median of all */
			if (c->remeasured ||
			    !calibrate_batches_noisy(batch_ns, batches, &c->create_spread))
				break;
			c->remeasured = true;
			most = CAL_FILES_MORE;
			limit_ns = CAL_CREATE_MORE_NS;
			continue;
		}
		b0 = now_ns();
		for (unsigned k = 0; k < CAL_BATCH; k++, made++) {
			snprintf(name, sizeof(name), "%010x", made);
			fd = openat(dfd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
				    0600);
			if (fd < 0) {
				ret = -errno;
				goto out;
			}
			close(fd);
		}
		batch_ns[batches++] = now_ns() - b0;
	}
	t1 = now_ns();
	if (c->remeasured)
		calibrate_batches_noisy(batch_ns, batches, &c->create_spread);
	c->create_batches = batches;
	/* The median batch: a stall of the machine's write-back is not the file system's cost. */
	c->create_s = per_op(median_ns(batch_ns, batches), CAL_BATCH);
	/* The closing sync is a cost per phase, not per file (but its fsyncs are). */
	ret = calibrate_sync(dfd, made, &fsync_s);
	c->sync_s = (double)(now_ns() - t1) / 1e9 - fsync_s * made;
	if (c->sync_s < 0)
		c->sync_s = 0;
	c->create_s += fsync_s;
	if (ret)
		goto out;
	t0 = now_ns();
	for (unsigned i = 0; i < made; i++) {
		snprintf(name, sizeof(name), "%010x", i);
		if (fstatat(dfd, name, &st, 0)) {
			ret = -errno;
			goto out;
		}
	}
	c->stat_s = per_op(now_ns() - t0, made);
	t0 = now_ns();
	for (unsigned i = 0; i < made; i++) {
		snprintf(name, sizeof(name), "%010x", i);
		if (unlinkat(dfd, name, 0)) {
			ret = -errno;
			goto out;
		}
	}
	c->delete_s = per_op(now_ns() - t0, made);
	t1 = now_ns();
	if (fs_sync_waits())
		ret = fs_sync(dfd);
	else
		ret = fsync(dfd) ? -errno : 0;
	if ((double)(now_ns() - t1) / 1e9 > c->sync_s)
		c->sync_s = (double)(now_ns() - t1) / 1e9;
out:
	close(dfd);
	return ret;
}

static int calibrate_io(const char *dir, struct calibration *c)
{
	char path[WORKPATH_MAX + 8];
	char *buf = calloc(1, CAL_IO_CHUNK);
	uint64_t t0;
	int fd, ret = 0;

	if (!buf)
		return -ENOMEM;
	snprintf(path, sizeof(path), "%s/io", dir);
	fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0) {
		ret = -errno;
		goto out_free;
	}
	t0 = now_ns();
	for (unsigned i = 0; i < CAL_SYSCALLS; i++)
		if (write(fd, buf, 1) != 1) {
			ret = -errno;
			goto out_close;
		}
	c->syscall_s = per_op(now_ns() - t0, CAL_SYSCALLS);
	memset(buf, 0x5a, CAL_IO_CHUNK);
	t0 = now_ns();
	for (off_t off = 0; off < CAL_IO_BYTES; off += CAL_IO_CHUNK)
		if (pwrite(fd, buf, CAL_IO_CHUNK, off) != CAL_IO_CHUNK) {
			ret = errno ? -errno : -ENOSPC;
			goto out_close;
		}
	if (fsync(fd)) {
		ret = -errno;
		goto out_close;
	}
	c->write_bps = CAL_IO_BYTES / ((double)(now_ns() - t0) / 1e9);
	/* What the drop leaves is what the reads of the run will see. */
	cache_evict_file(path);
	t0 = now_ns();
	for (off_t off = 0; off < CAL_IO_BYTES; off += CAL_IO_CHUNK)
		if (pread(fd, buf, CAL_IO_CHUNK, off) != CAL_IO_CHUNK) {
			ret = errno ? -errno : -EIO;
			goto out_close;
		}
	c->read_bps = CAL_IO_BYTES / ((double)(now_ns() - t0) / 1e9);
out_close:
	close(fd);
	unlink(path);
out_free:
	free(buf);
	return ret;
}

int calibrate(const struct run_plan *p, bool io, bool files, struct calibration *c,
	      char *err, size_t errlen)
{
	char dir[WORKPATH_MAX];
	uint64_t t0 = now_ns();
	int ret = 0, rr;

	memset(c, 0, sizeof(*c));
	if (!io && !files)
		return 0;
	ret = workdir_create(p->dir, dir, sizeof(dir));
	if (ret) {
		snprintf(err, errlen, "calibration: cannot create a private directory in %s: %s",
			 p->dir, strerror(-ret));
		return ret;
	}
	if (files && (ret = calibrate_files(dir, c)))
		snprintf(err, errlen, "calibration: file test in %s: %s", dir, strerror(-ret));
	if (!ret && io && (ret = calibrate_io(dir, c)))
		snprintf(err, errlen, "calibration: block test in %s: %s", dir, strerror(-ret));
	rr = workdir_remove(dir);
	if (rr && !ret) {
		snprintf(err, errlen, "calibration: cannot remove %s: %s", dir, strerror(-rr));
		ret = rr;
	}
	c->seconds = (double)(now_ns() - t0) / 1e9;
	return ret;
}
