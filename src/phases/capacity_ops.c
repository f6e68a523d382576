// SPDX-License-Identifier: BSD-2-Clause
/*
 * What --latency-target and --open-loop do after each phase they measure:
 * one row a phase. A seek reads a chunk the seed and the ticket choose
 * (and writes it back as often as --seek-updates says), on the big file
 * the phase used; a create makes a file of -n's smallest size, a stat
 * stats one, a delete removes one, all in a directory of their own
 * (capacity.N, removed after) and in the phase's order: names in order,
 * or in an order the seed shuffles.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/rng.h"
#include "lib/signals.h"
#include "phases/capacity.h"
#include "sys/compat.h"

/* A bijection of 64 bits (splitmix64's finish): distinct names stay distinct. */
static uint64_t mix64(uint64_t x)
{
	x ^= x >> 30;
	x *= 0xbf58476d1ce4e5b9ull;
	x ^= x >> 27;
	x *= 0x94d049bb133111ebull;
	x ^= x >> 31;
	return x;
}

/* --- seeks --- */

static int seek_setup(struct cap_ctx *c)
{
	const struct run_plan *p = c->b->plan;

	c->nchunks = c->w->file_bytes / p->chunk;
	c->seed = ((uint64_t)c->b->seed << 32) ^ 0x5eedca9aull;
	if (!c->nchunks) {
		snprintf(c->err, sizeof(c->err), "%s holds no whole chunk to seek to", c->w->io_path);
		return -EINVAL;
	}
	return 0;
}

static void seek_teardown(struct cap_ctx *c)
{
	(void)c;
}

static int seek_thread_init(struct cap_ctx *c, struct cap_thread *t)
{
	int ret;

	ret = posix_memalign(&t->buf, 4096, c->b->plan->chunk);
	if (ret) {
		t->buf = NULL;
		return -ret;
	}
	memset(t->buf, 0x5a, c->b->plan->chunk);
	t->fd = open(c->w->io_path, io_open_flags(c->b, O_RDWR));
	if (t->fd < 0) {
		ret = -errno;
		snprintf(c->err, sizeof(c->err), "open %s", c->w->io_path);
		return ret;
	}
	return 0;
}

static void seek_thread_fini(struct cap_ctx *c, struct cap_thread *t)
{
	(void)c;
	if (t->fd >= 0)
		close(t->fd);
	free(t->buf);
}

static int seek_step_begin(struct cap_ctx *c, uint64_t n)
{
	(void)c;
	(void)n;
	return 0;
}

static int seek_step_end(struct cap_ctx *c, uint64_t taken)
{
	(void)taken;
	c->seed = mix64(c->seed);
	return 0;
}

uint64_t capacity_seek_chunk(const struct cap_ctx *c, uint64_t k)
{
	return mix64(c->seed ^ (k * 0x9e3779b97f4a7c15ull)) % c->nchunks;
}

bool capacity_seek_writes(const struct cap_ctx *c, uint64_t k)
{
	unsigned pct = c->b->plan->seek_updates;

	/* ticket k writes back when (k * pct) mod 100 < pct: exactly pct in 100, as the phase */
	return (k * pct) % 100 < pct;
}

static int seek_op(struct cap_ctx *c, struct cap_thread *t, uint64_t k)
{
	const struct run_plan *p = c->b->plan;
	uint64_t chunk = capacity_seek_chunk(c, k);
	off_t off = (off_t)(chunk * p->chunk);
	ssize_t n;

	n = pread(t->fd, t->buf, p->chunk, off);
	if (n != (ssize_t)p->chunk)
		goto fail;
	if (capacity_seek_writes(c, k)) {
		((unsigned char *)t->buf)[chunk % p->chunk]++;
		n = pwrite(t->fd, t->buf, p->chunk, off);
		if (n != (ssize_t)p->chunk)
			goto fail;
		if (p->fsync_each && fsync(t->fd))
			goto fail;
	}
	return 0;
fail:
	snprintf(c->err, sizeof(c->err), "%s at offset %" PRIu64, c->w->io_path, (uint64_t)off);
	return n < 0 ? -errno : -EIO;
}

/* --- the file kinds --- */

static void file_name(const struct cap_ctx *c, uint64_t id, char *buf, size_t len)
{
	/* random: the names' order in the directory is not the order they are made in */
	if (c->random)
		snprintf(buf, len, "r%016" PRIx64, mix64(id ^ c->seed));
	else
		snprintf(buf, len, "s%012" PRIu64, id);
}

static int file_setup(struct cap_ctx *c)
{
	const struct run_plan *p = c->b->plan;
	int ret;

	c->seed = ((uint64_t)c->b->seed << 32) ^ 0xf11e5ull;
	c->dirfd = c->parentfd = -1;
	snprintf(c->dir_name, sizeof(c->dir_name), "capacity.%u", c->w->index);
	snprintf(c->dir, sizeof(c->dir), "%s/%s", c->b->workdir, c->dir_name);
	c->parentfd = open(c->b->workdir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (c->parentfd < 0)
		goto fail;
	if (mkdirat(c->parentfd, c->dir_name, 0700))
		goto fail;
	c->dirfd = openat(c->parentfd, c->dir_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (c->dirfd < 0)
		goto fail;
	c->file_bytes = p->file_min > 0 ? (size_t)p->file_min : 0;
	if (c->file_bytes) {
		c->file_data = malloc(c->file_bytes);
		if (!c->file_data)
			return -ENOMEM;
		memset(c->file_data, 0xa5, c->file_bytes);
	}
	return 0;
fail:
	ret = -errno;
	snprintf(c->err, sizeof(c->err), "make %s", c->dir);
	return ret;
}

/* Remove names [from, to) of the directory, the missing ones being no error. */
static int file_remove_range(struct cap_ctx *c, uint64_t from, uint64_t to)
{
	char name[40];

	for (uint64_t id = from; id < to; id++) {
		file_name(c, id, name, sizeof(name));
		if (unlinkat(c->dirfd, name, 0) && errno != ENOENT) {
			int ret = -errno;

			snprintf(c->err, sizeof(c->err), "unlink %s/%s", c->dir, name);
			return ret;
		}
	}
	return 0;
}

static void file_teardown(struct cap_ctx *c)
{
	if (c->dirfd >= 0 && c->pool)
		file_remove_range(c, c->base, c->base + c->pool);
	if (c->dirfd >= 0)
		close(c->dirfd);
	/* what it made and owns, by descriptor: a file left (an error above) keeps it */
	if (c->parentfd >= 0 && c->dir_name[0] && unlinkat(c->parentfd, c->dir_name, AT_REMOVEDIR))
		fprintf(stderr, "clyde: warning: capacity: cannot remove %s: %s\n", c->dir,
			strerror(errno));
	if (c->parentfd >= 0)
		close(c->parentfd);
	c->dirfd = c->parentfd = -1;
	free(c->order);
	c->order = NULL;
	free(c->file_data);
	c->file_data = NULL;
}

static int file_thread_init(struct cap_ctx *c, struct cap_thread *t)
{
	(void)c;
	t->fd = -1;
	t->buf = NULL;
	return 0;
}

static void file_thread_fini(struct cap_ctx *c, struct cap_thread *t)
{
	(void)c;
	(void)t;
}

static int file_make(struct cap_ctx *c, uint64_t id)
{
	const struct run_plan *p = c->b->plan;
	char name[40];
	int fd, ret = 0;

	file_name(c, id, name, sizeof(name));
	fd = openat(c->dirfd, name, O_CREAT | O_EXCL | O_WRONLY | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0) {
		ret = -errno;
		goto fail;
	}
	if (c->file_bytes && write(fd, c->file_data, c->file_bytes) != (ssize_t)c->file_bytes)
		ret = errno ? -errno : -ENOSPC;
	else if (p->fsync_each && fsync(fd))
		ret = -errno;
	if (close(fd) && !ret)
		ret = -errno;
	if (!ret)
		return 0;
	/*
	 * Made (O_EXCL: ours) but not whole: it goes now. A delete's pool
	 * counts only the files it made, so its teardown would not find this
	 * one, and capacity.N would stay.
	 */
	unlinkat(c->dirfd, name, 0);
fail:
	snprintf(c->err, sizeof(c->err), "create %s/%s", c->dir, name);
	return ret;
}

/* The pool: n names made (untimed), in the phase's order for the tickets. */
static int file_pool_make(struct cap_ctx *c, uint64_t n)
{
	struct rng r;
	int ret;

	free(c->order);
	c->order = malloc(n * sizeof(*c->order));
	if (!c->order)
		return -ENOMEM;
	c->pool = 0;
	for (uint64_t i = 0; i < n; i++) {
		/* a delete window's pool may be millions of files: a signal must not wait for them */
		if (clyde_stop_requested()) {
			snprintf(c->err, sizeof(c->err), "making %s's files: stopped by a signal", c->dir);
			return -EINTR;
		}
		ret = file_make(c, c->base + i);
		if (ret)
			return ret;
		c->pool++;
		c->order[i] = c->base + i;
	}
	if (c->random) {
		rng_seed(&r, c->seed ^ c->base);
		for (uint64_t i = n; i > 1; i--) {
			uint64_t j = rng_below(&r, i), v = c->order[i - 1];

			c->order[i - 1] = c->order[j];
			c->order[j] = v;
		}
	}
	return 0;
}

/* A pool's worth: -n's files, within bounds that keep its making short. */
static uint64_t stat_pool_size(const struct cap_ctx *c)
{
	uint64_t n = (uint64_t)c->b->plan->files * 1024u;

	if (n < 1024)
		n = 1024;
	if (n > 262144)
		n = 262144;
	return n;
}

/*
 * After the untimed making or removing of a step's files: the file system
 * synced (compat.h's fs_sync), so that the next window or step does not
 * pay for their write-back and journal commits, which would land in its
 * latencies by chance of timing.
 */
static int file_settle(struct cap_ctx *c, int ret)
{
	int sret;

	if (ret)
		return ret;
	sret = fs_sync(c->dirfd);
	if (sret)
		snprintf(c->err, sizeof(c->err), "sync %s", c->dir);
	return sret;
}

static int stat_setup(struct cap_ctx *c)
{
	int ret = file_setup(c);

	return ret ? ret : file_settle(c, file_pool_make(c, stat_pool_size(c)));
}

static int noop_step(struct cap_ctx *c, uint64_t n)
{
	(void)c;
	(void)n;
	return 0;
}

static int stat_op(struct cap_ctx *c, struct cap_thread *t, uint64_t k)
{
	char name[40];
	struct stat st;

	(void)t;
	file_name(c, c->order[k % c->pool], name, sizeof(name));
	if (!fstatat(c->dirfd, name, &st, AT_SYMLINK_NOFOLLOW))
		return 0;
	snprintf(c->err, sizeof(c->err), "stat %s/%s", c->dir, name);
	return -errno;
}

static int create_op(struct cap_ctx *c, struct cap_thread *t, uint64_t k)
{
	(void)t;
	return file_make(c, c->base + k);
}

/* After a create step: its files go (untimed), and the next step's names follow them. */
static int create_step_end(struct cap_ctx *c, uint64_t taken)
{
	int ret = file_remove_range(c, c->base, c->base + taken);

	c->base += taken;
	return file_settle(c, ret);
}

static int delete_step_begin(struct cap_ctx *c, uint64_t n)
{
	return file_settle(c, file_pool_make(c, n));
}

static int delete_op(struct cap_ctx *c, struct cap_thread *t, uint64_t k)
{
	char name[40];

	(void)t;
	file_name(c, c->order[k], name, sizeof(name));
	if (!unlinkat(c->dirfd, name, 0))
		return 0;
	snprintf(c->err, sizeof(c->err), "unlink %s/%s", c->dir, name);
	return -errno;
}

/* After a delete step: what it did not delete goes too. */
static int delete_step_end(struct cap_ctx *c, uint64_t taken)
{
	int ret = file_remove_range(c, c->base, c->base + c->pool);

	(void)taken;
	c->base += c->pool;
	c->pool = 0;
	return file_settle(c, ret);
}

static const struct cap_kind seek_kind = {
	.what = "seek", .setup = seek_setup, .teardown = seek_teardown,
	.thread_init = seek_thread_init, .thread_fini = seek_thread_fini,
	.step_begin = seek_step_begin, .step_end = seek_step_end, .op = seek_op,
	.queued = true,
};

static const struct cap_kind create_kind = {
	.what = "create", .setup = file_setup, .teardown = file_teardown,
	.thread_init = file_thread_init, .thread_fini = file_thread_fini,
	.step_begin = noop_step, .step_end = create_step_end, .op = create_op,
};

static const struct cap_kind stat_kind = {
	.what = "stat", .setup = stat_setup, .teardown = file_teardown,
	.thread_init = file_thread_init, .thread_fini = file_thread_fini,
	.step_begin = noop_step, .step_end = noop_step, .op = stat_op,
};

static const struct cap_kind delete_kind = {
	.what = "delete", .setup = file_setup, .teardown = file_teardown,
	.thread_init = file_thread_init, .thread_fini = file_thread_fini,
	.step_begin = delete_step_begin, .step_end = delete_step_end, .op = delete_op,
	.consumes = true,
};

/* The phases capacity is measured after, one row each; no row: not measured. */
static const struct {
	enum phase_id id;
	const struct cap_kind *kind;
	bool random;
} cap_rows[] = {
	{ PH_SEEKS, &seek_kind, true },
	{ PH_SEQ_CREATE, &create_kind, false },
	{ PH_SEQ_STAT, &stat_kind, false },
	{ PH_SEQ_DEL, &delete_kind, false },
	{ PH_RAN_CREATE, &create_kind, true },
	{ PH_RAN_STAT, &stat_kind, true },
	{ PH_RAN_DEL, &delete_kind, true },
};

const struct cap_kind *capacity_kind(enum phase_id id, bool *random)
{
	for (size_t i = 0; i < sizeof(cap_rows) / sizeof(cap_rows[0]); i++) {
		if (cap_rows[i].id != id)
			continue;
		if (random)
			*random = cap_rows[i].random;
		return cap_rows[i].kind;
	}
	return NULL;
}


bool capacity_any_phase(const struct run_plan *p)
{
	for (int i = 0; i < PH_COUNT; i++)
		if (p->run[i] && capacity_wanted(p, (enum phase_id)i))
			return true;
	return false;
}

bool capacity_unsaturated(const struct run_result *runs, unsigned count)
{
	for (unsigned r = 0; r < count; r++)
		for (int i = 0; i < PH_COUNT; i++)
			if (runs[r].phase[i].capacity && runs[r].phase[i].capacity->timed_out)
				return true;
	return false;
}

bool capacity_wanted(const struct run_plan *p, enum phase_id id)
{
	const struct capacity_spec *sp = &p->capacity;

	if (!capacity_asked(sp) || !capacity_kind(id, NULL))
		return false;
	return !sp->phases_given || sp->phase[id];
}
