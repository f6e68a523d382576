// SPDX-License-Identifier: BSD-2-Clause
/*
 * The calibration behind clyde's default counts: a second or so of the
 * real operations on the real directory, so the file tests last long
 * enough to measure and a default run stays near a minute.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "clyde/calibrate.h"
#include "lib/timing.h"
#include "phases/bench.h"
#include "sys/cache.h"
#include "sys/compat.h"
#include "sys/dirty.h"
#include "sys/residency.h"
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
/*
 * Seek trial: reads of distinct chunks of the block trial's file, every
 * chunk or for this long, by as many threads as the phase has requests
 * in flight (at most CAL_SEEK_THREADS); then CAL_SEEK_WRITES chunks
 * written back and synced, as the phase's updates are, and four times as
 * many (seek_trial_updates). A trial that runs its whole time is timed over its second
 * half: a device's first moments may go faster than it can keep up (the
 * blkio throttle lets a tenth of a second's worth through at once).
 */
#define CAL_SEEK_NS	1000000000ull
#define CAL_SEEK_THREADS 64u
#define CAL_SEEK_WRITES	16u
/* More of the file than this still in the page cache after the drop: the trial would time it. */
#define CAL_SEEK_RESIDENT_PCT 1.0

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
	c->sync_files = made;
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

/* The seek trial's shared state: the next ticket, the deadline, the first error. */
struct seek_trial {
	int fd;			/* the reads': read-ahead off */
	int write_fd;
	uint32_t chunk;
	uint64_t nchunks;	/* a power of two: the file and the chunk are */
	unsigned most;
	uint64_t half_ns;	/* the trial's second half starts */
	uint64_t deadline_ns;
	atomic_uint next;
	atomic_uint done;
	atomic_uint half_done;	/* reads done when the first thread saw the second half */
	atomic_uint_fast64_t half_seen_ns;
	atomic_int err;
};

/*
 * Ticket t's chunk: t times an odd stride, modulo the power of two
 * nchunks, so no chunk is read twice (a second read would be a cache
 * hit) and neighbours are far apart.
 */
static uint64_t trial_chunk(const struct seek_trial *st, unsigned t)
{
	return (t * 0x9e3779b97f4a7c15ull) & (st->nchunks - 1);
}

static void *seek_trial_main(void *arg)
{
	struct seek_trial *st = arg;
	char *buf = malloc(st->chunk);
	unsigned t;

	if (!buf) {
		atomic_store(&st->err, -ENOMEM);
		return NULL;
	}
	while ((t = atomic_fetch_add(&st->next, 1)) < st->most && !atomic_load(&st->err)) {
		off_t off = (off_t)(trial_chunk(st, t) * st->chunk);

		if (t && now_ns() >= st->deadline_ns)
			break;
		unsigned zero = 0, done;
		uint64_t now;

		if (pread(st->fd, buf, st->chunk, off) != (ssize_t)st->chunk) {
			atomic_store(&st->err, errno ? -errno : -EIO);
			break;
		}
		done = atomic_fetch_add(&st->done, 1) + 1;
		now = now_ns();
		if (now >= st->half_ns && !atomic_load(&st->half_done) &&
		    atomic_compare_exchange_strong(&st->half_done, &zero, done))
			atomic_store(&st->half_seen_ns, now);
	}
	free(buf);
	return NULL;
}

/*
 * n chunks written back from ticket first on, as the phase's updates
 * are: buffered, then one fsync. Its seconds into *seconds; 0 or -errno.
 */
static int seek_trial_writes(const struct seek_trial *st, unsigned first, unsigned n,
			     double *seconds)
{
	char *buf = malloc(st->chunk);
	uint64_t t0 = now_ns();
	int ret = 0;

	if (!buf)
		return -ENOMEM;
	memset(buf, 0xa5, st->chunk);
	for (unsigned i = 0; i < n && !ret; i++) {
		off_t off = (off_t)(trial_chunk(st, first + i) * st->chunk);

		if (pwrite(st->write_fd, buf, st->chunk, off) != (ssize_t)st->chunk)
			ret = errno ? -errno : -ENOSPC;
	}
	if (!ret && fsync(st->write_fd))
		ret = -errno;
	*seconds = (double)(now_ns() - t0) / 1e9;
	free(buf);
	return ret;
}

/*
 * The cost of the updates: a few chunks synced, then four times as many:
 * the difference is the cost per chunk, what is left of the first the
 * sync's own (a journal commit, a cache flush), which the phase pays once
 * however many chunks it wrote. 0 or -errno.
 */
static int seek_trial_updates(struct seek_trial *st, struct calibration *c)
{
	unsigned first = atomic_load(&st->done);
	double few, more;
	int ret;

	ret = seek_trial_writes(st, first, CAL_SEEK_WRITES, &few);
	if (!ret)
		ret = seek_trial_writes(st, first + CAL_SEEK_WRITES, 4 * CAL_SEEK_WRITES, &more);
	if (ret)
		return ret;
	c->seek_write_s = more > few ? (more - few) / (3 * CAL_SEEK_WRITES) : 0;
	/* less than nothing where the first writes went faster (a throttle's first moments) */
	c->seek_sync_s = fmax(few - CAL_SEEK_WRITES * c->seek_write_s, 0);
	return 0;
}

/*
 * Random reads of chunks shown uncached: the file dropped from the page
 * cache and its residency measured (a cached read is many times faster
 * than the device's), with as many threads as the phase keeps requests
 * in flight. Leaves c->seek_s at 0 with c->seek_note saying why when it
 * cannot show the data uncached. 0 or -errno.
 */
static int seek_trial(const struct run_plan *p, const char *path, int fd, struct calibration *c)
{
	unsigned threads = p->seekers * (p->depth ? p->depth : 1), started = 0, half;
	struct seek_trial st = { .chunk = p->chunk };
	pthread_t tid[CAL_SEEK_THREADS];
	struct residency res;
	uint64_t t0, t1;
	int ret;

	if (!p->chunk || CAL_IO_BYTES % p->chunk || !threads)
		return 0;
	st.nchunks = CAL_IO_BYTES / p->chunk;
	st.most = (unsigned)st.nchunks;
	if (threads > CAL_SEEK_THREADS)
		threads = CAL_SEEK_THREADS;
	ret = cache_evict_file(path);
	if (!ret)
		ret = residency_measure(path, &res);
	if (ret) {
		snprintf(c->seek_note, sizeof(c->seek_note), "the trial file could not be dropped "
			 "from the page cache (%s)", strerror(-ret));
		return 0;
	}
	if (res.method == RES_UNKNOWN) {
		snprintf(c->seek_note, sizeof(c->seek_note), "the page cache's share of the "
			 "trial file cannot be measured here (%.80s)", res.why);
		return 0;
	}
	if (residency_percent(&res) > CAL_SEEK_RESIDENT_PCT) {
		snprintf(c->seek_note, sizeof(c->seek_note), "%.0f%% of the trial file stayed in "
			 "the page cache after the drop", residency_percent(&res));
		return 0;
	}
	/*
	 * The phase's seeks touch a few chunks in a hundred of a large file,
	 * where the kernel reads no more than asked; in the small trial file,
	 * read-ahead would fetch the chunks of later reads: turned off.
	 */
	st.fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (st.fd < 0)
		return -errno;
	ret = cache_advise_random(st.fd);
	if (ret) {
		snprintf(c->seek_note, sizeof(c->seek_note), "read-ahead cannot be turned off "
			 "for the trial (%s)", strerror(-ret));
		goto out_close;
	}
	atomic_init(&st.next, 0);
	atomic_init(&st.done, 0);
	atomic_init(&st.half_done, 0);
	atomic_init(&st.half_seen_ns, 0);
	atomic_init(&st.err, 0);
	t0 = now_ns();
	st.half_ns = t0 + CAL_SEEK_NS / 2;
	st.deadline_ns = t0 + CAL_SEEK_NS;
	/* for the tests: no thread starts, as when pthread_create fails */
	if (getenv("CLYDE_TEST_SEEK_TRIAL_FAIL"))
		threads = 0;
	for (; started < threads; started++)
		if (pthread_create(&tid[started], NULL, seek_trial_main, &st))
			break;
	for (unsigned i = 0; i < started; i++)
		pthread_join(tid[i], NULL);
	t1 = now_ns();
	ret = started ? atomic_load(&st.err) : -EAGAIN;
	if (ret)
		goto out_close;
	c->seeks_timed = atomic_load(&st.done);
	half = atomic_load(&st.half_done);
	if (half && c->seeks_timed > half)
		c->seek_s = per_op(t1 - atomic_load(&st.half_seen_ns), c->seeks_timed - half);
	else
		c->seek_s = per_op(t1 - t0, c->seeks_timed);
	c->seek_threads = started;
	c->seek_resident_pct = residency_percent(&res);
	if (!p->seek_updates)
		goto out_close;
	st.write_fd = fd;
	ret = seek_trial_updates(&st, c);
	if (ret)
		c->seek_s = 0;
out_close:
	close(st.fd);
	return ret;
}

/*
 * The seek trial is an estimate: where it fails (a thread, the file's
 * opening, a write-back), the seeks are not measured, c->seek_note says
 * why, and the plan falls back to its rule; the run goes on.
 */
static void calibrate_seeks(const struct run_plan *p, const char *path, int fd,
			    struct calibration *c)
{
	int ret = seek_trial(p, path, fd, c);

	if (!ret)
		return;
	c->seek_s = 0;
	if (!c->seek_note[0])
		snprintf(c->seek_note, sizeof(c->seek_note), "the trial failed (%s)",
			 strerror(-ret));
}

static int calibrate_io(const struct run_plan *p, const char *dir, struct calibration *c)
{
	char path[WORKPATH_MAX + 8];
	char *buf = calloc(1, CAL_IO_CHUNK);
	uint64_t t0, t1;
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
	t1 = now_ns();
	if (fsync(fd)) {
		ret = -errno;
		goto out_close;
	}
	c->write_bps = CAL_IO_BYTES / ((double)(now_ns() - t0) / 1e9);
	/* the device's rate at writing what the page cache held; a tmpfs holds it for good */
	c->flush_bps = CAL_IO_BYTES / fmax((double)(now_ns() - t1) / 1e9, 1e-6);
	/* What the drop leaves is what the reads of the run will see. */
	cache_evict_file(path);
	t0 = now_ns();
	for (off_t off = 0; off < CAL_IO_BYTES; off += CAL_IO_CHUNK)
		if (pread(fd, buf, CAL_IO_CHUNK, off) != CAL_IO_CHUNK) {
			ret = errno ? -errno : -EIO;
			goto out_close;
		}
	c->read_bps = CAL_IO_BYTES / ((double)(now_ns() - t0) / 1e9);
	calibrate_seeks(p, path, fd, c);
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
	if (sys_dirty_limit(&c->dirty_limit_bytes))
		c->dirty_limit_bytes = 0;
	if (!io && !files)
		return 0;
	ret = workdir_create(p->dir, dir, sizeof(dir));
	if (ret) {
		snprintf(err, errlen, "calibration: cannot create a private directory in %s: %s",
			 p->dir, strerror(-ret));
		return ret;
	}
	/*
	 * The block trial first: after the file trial, its sync would also
	 * commit and write back the metadata of thousands of creates and
	 * deletes (a device held to 50 writes a second then timed a 32 MiB
	 * write at 1 to 3 MiB/s, where it writes 50 MiB/s).
	 */
	if (io && (ret = calibrate_io(p, dir, c)))
		snprintf(err, errlen, "calibration: block test in %s: %s", dir, strerror(-ret));
	if (!ret && files && (ret = calibrate_files(dir, c)))
		snprintf(err, errlen, "calibration: file test in %s: %s", dir, strerror(-ret));
	rr = workdir_remove(dir);
	if (rr && !ret) {
		snprintf(err, errlen, "calibration: cannot remove %s: %s", dir, strerror(-rr));
		ret = rr;
	}
	c->seconds = (double)(now_ns() - t0) / 1e9;
	return ret;
}
