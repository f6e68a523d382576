// SPDX-License-Identifier: BSD-2-Clause
/*
 * Aging (age/age.h): a fill to the target, then churn. One generator
 * serves the plan (dry) and the run (real), so the plan's bytes are the
 * run's. Three streams of random numbers, each from the seed alone: the
 * files (size, depth, directories), the victims of deletion, and the
 * correction rounds' own files; so a correction, which follows what
 * statvfs says after a sync, never shifts the files the churn writes.
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

#include "age/age.h"
#include "lib/progress.h"
#include "lib/rng.h"
#include "lib/signals.h"
#include "lib/size.h"
#include "lib/timing.h"
#include "sys/compat.h"
#include "sys/leftover_mark.h"
#include "sys/mount_id.h"
#include "sys/workdir.h"

/* Directories per level: 8 names (d0..d7), 3 bits each in a file's dirs. */
#define AGE_FANOUT 8u
/* A sync of the file system every so many operations or bytes: fixed points, not timed ones. */
#define AGE_SYNC_OPS 512u
#define AGE_SYNC_BYTES (64ull << 20)
/* Draws in a row that do not fit the room left before the fill calls it full. */
#define AGE_FIT_TRIES 64u
#define AGE_CORRECTION_ROUNDS 3u
#define AGE_BUFFER (1u << 20)

struct age_file {
	uint64_t id;
	uint64_t size;
	uint32_t dirs;
	uint8_t depth;
};

struct age_gen {
	struct rng rng;
	const struct age_profile *p;
	uint64_t size_total, depth_total;
	uint64_t next_id;
};

/* Everything one aging (dry or real) keeps. */
struct age_state {
	bool real;
	struct age_gen files, extra;	/* extra: the correction rounds' files */
	bool fixing;			/* in a correction round: its operations logged apart */
	struct rng victims;
	uint64_t block;
	struct age_file *live;
	size_t nlive, cap;
	uint64_t live_alloc, live_bytes;
	/* counts */
	uint64_t written, files_written, deletes, churn_written, correction;
	uint64_t fill_files, churn_files;
	unsigned since_sync;
	uint64_t bytes_since_sync;
	/* real only */
	int parent_fd, dir_fd;
	struct stat dir_st;
	struct mount_id dir_mount;	/* the aging directory's mount: never write past it */
	char name[WORKPATH_MAX];
	char path[WORKPATH_MAX];
	FILE *log;
	unsigned char *buf;
	uint64_t deadline_ns;
	bool time_box_hit;
	uint64_t progress_mib;
	char *err;
	size_t errlen;
};

static void gen_init(struct age_gen *g, const struct age_profile *p, uint64_t seed)
{
	memset(g, 0, sizeof(*g));
	rng_seed(&g->rng, seed);
	g->p = p;
	for (unsigned i = 0; i < p->nsize; i++)
		g->size_total += p->size[i].weight;
	for (unsigned i = 0; i < p->ndepth; i++)
		g->depth_total += p->depth[i].weight;
}

static void gen_file(struct age_gen *g, struct age_file *f)
{
	const struct age_profile *p = g->p;
	uint64_t pick = rng_below(&g->rng, g->size_total);
	unsigned i = 0;

	while (pick >= p->size[i].weight) {
		pick -= p->size[i].weight;
		i++;
	}
	f->size = p->size[i].low + rng_below(&g->rng, p->size[i].high - p->size[i].low + 1);
	pick = rng_below(&g->rng, g->depth_total);
	i = 0;
	while (pick >= p->depth[i].weight) {
		pick -= p->depth[i].weight;
		i++;
	}
	f->depth = (uint8_t)p->depth[i].depth;
	f->dirs = 0;
	for (unsigned d = 0; d < f->depth; d++)
		f->dirs |= (uint32_t)rng_below(&g->rng, AGE_FANOUT) << (3 * d);
	f->id = g->next_id++;
}

static uint64_t alloc_bytes(const struct age_state *a, uint64_t size)
{
	return (size + a->block - 1) / a->block * a->block;
}

static void file_path(const struct age_file *f, char *out, size_t len)
{
	size_t n = 0;

	for (unsigned d = 0; d < f->depth; d++)
		n += (size_t)snprintf(out + n, len - n, "d%u/", (f->dirs >> (3 * d)) & 7);
	snprintf(out + n, len - n, "f%" PRIu64, f->id);
}

/* Whether the directory open at fd is on the aging directory's own mount. */
static bool same_mount(const struct age_state *a, int fd)
{
	struct mount_id id;
	struct stat st;

	if (fstat(fd, &st) || st.st_dev != a->dir_st.st_dev)
		return false;
	if (mount_id_fd(fd, &id))
		return true;
	return !mount_id_other(&a->dir_mount, &id);
}

/*
 * The directory a file goes in, opened by descriptor from the aging
 * directory, never following a link; made when create is set. fd or -errno.
 */
static int open_parent(struct age_state *a, const struct age_file *f, bool create)
{
	int fd = a->dir_fd, next;

	for (unsigned d = 0; d < f->depth; d++) {
		char name[8];

		snprintf(name, sizeof(name), "d%u", (f->dirs >> (3 * d)) & 7);
		next = openat(fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (next < 0 && errno == ENOENT && create) {
			if (mkdirat(fd, name, 0700) && errno != EEXIST)
				next = -1;
			else
				next = openat(fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		}
		if (next < 0) {
			next = -errno;
			if (fd != a->dir_fd)
				close(fd);
			return next;
		}
		if (!same_mount(a, next)) {
			close(next);
			next = -EXDEV;
			if (fd != a->dir_fd)
				close(fd);
			return next;
		}
		if (fd != a->dir_fd)
			close(fd);
		fd = next;
	}
	return fd;
}

static int fail(struct age_state *a, int ret, const char *what, const struct age_file *f)
{
	char rel[128];

	file_path(f, rel, sizeof(rel));
	snprintf(a->err, a->errlen, "aging: cannot %s %s/%s: %s", what, a->path, rel,
		 strerror(-ret));
	return ret;
}

static int sync_point(struct age_state *a, uint64_t bytes)
{
	a->since_sync++;
	a->bytes_since_sync += bytes;
	if (a->since_sync < AGE_SYNC_OPS && a->bytes_since_sync < AGE_SYNC_BYTES)
		return 0;
	a->since_sync = 0;
	a->bytes_since_sync = 0;
	return a->real ? fs_sync(a->dir_fd) : 0;
}

static int write_file(struct age_state *a, const struct age_file *f)
{
	char name[32];
	int dfd, fd, ret = 0;

	dfd = open_parent(a, f, true);
	if (dfd < 0)
		return fail(a, dfd, "make the directory of", f);
	snprintf(name, sizeof(name), "f%" PRIu64, f->id);
	fd = openat(dfd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0) {
		ret = fail(a, -errno, "create", f);
		goto close_dir;
	}
	for (uint64_t done = 0; done < f->size;) {
		size_t n = f->size - done < AGE_BUFFER ? (size_t)(f->size - done) : AGE_BUFFER;
		ssize_t w = write(fd, a->buf, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			ret = fail(a, w < 0 ? -errno : -ENOSPC, "write", f);
			break;
		}
		done += (uint64_t)w;
	}
	if (close(fd) && !ret)
		ret = fail(a, -errno, "close", f);
close_dir:
	if (dfd != a->dir_fd)
		close(dfd);
	return ret;
}

static int delete_file(struct age_state *a, const struct age_file *f)
{
	char name[32];
	int dfd, ret = 0;

	dfd = open_parent(a, f, false);
	if (dfd < 0)
		return fail(a, dfd, "open the directory of", f);
	snprintf(name, sizeof(name), "f%" PRIu64, f->id);
	if (unlinkat(dfd, name, 0))
		ret = fail(a, -errno, "delete", f);
	if (dfd != a->dir_fd)
		close(dfd);
	return ret;
}

static void log_op(struct age_state *a, const char *op, const struct age_file *f)
{
	char rel[128];

	if (!a->log)
		return;
	file_path(f, rel, sizeof(rel));
	fprintf(a->log, "%s %s %" PRIu64 "\n", op, rel, f->size);
}

static void progress_bytes(struct age_state *a)
{
	while (a->progress_mib < (a->written >> 20)) {
		a->progress_mib++;
		progress_tick();
	}
}

static int op_write(struct age_state *a, const struct age_file *f)
{
	int ret;

	if (a->real) {
		if (clyde_stop_requested()) {
			snprintf(a->err, a->errlen, "aging stopped by signal %d",
				 clyde_stop_signal());
			return -EINTR;
		}
		ret = write_file(a, f);
		if (ret)
			return ret;
		log_op(a, a->fixing ? "fix-write" : "write", f);
	}
	if (a->nlive == a->cap) {
		size_t cap = a->cap ? 2 * a->cap : 1024;
		struct age_file *n = realloc(a->live, cap * sizeof(*n));

		if (!n) {
			snprintf(a->err, a->errlen, "aging: out of memory");
			return -ENOMEM;
		}
		a->live = n;
		a->cap = cap;
	}
	a->live[a->nlive++] = *f;
	a->live_alloc += alloc_bytes(a, f->size);
	a->live_bytes += f->size;
	a->written += f->size;
	a->files_written++;
	if (a->real)
		progress_bytes(a);
	return sync_point(a, f->size);
}

static int op_delete(struct age_state *a, struct rng *r)
{
	size_t i = (size_t)rng_below(r, a->nlive);
	struct age_file f = a->live[i];
	int ret;

	if (a->real) {
		ret = delete_file(a, &f);
		if (ret)
			return ret;
		log_op(a, a->fixing ? "fix-delete" : "delete", &f);
	}
	a->live[i] = a->live[--a->nlive];
	a->live_alloc -= alloc_bytes(a, f.size);
	a->live_bytes -= f.size;
	a->deletes++;
	return sync_point(a, 0);
}

/* Write files of g until the live files hold target bytes (allocated), or nearly. */
static int fill_to(struct age_state *a, struct age_gen *g, uint64_t target, uint64_t *files)
{
	unsigned misses = 0;
	struct age_file f;
	int ret;

	while (a->live_alloc < target && misses < AGE_FIT_TRIES) {
		gen_file(g, &f);
		if (a->live_alloc + alloc_bytes(a, f.size) > target) {
			misses++;
			continue;
		}
		misses = 0;
		ret = op_write(a, &f);
		if (ret)
			return ret;
		(*files)++;
	}
	return 0;
}

/* Churn: delete at random to make room, write the next file, until churn bytes are written. */
static int churn(struct age_state *a, uint64_t target, uint64_t churn_bytes)
{
	struct age_file f;
	int ret;

	while (a->churn_written < churn_bytes) {
		if (a->real && a->deadline_ns && now_ns() >= a->deadline_ns) {
			a->time_box_hit = true;
			return 0;
		}
		gen_file(&a->files, &f);
		if (alloc_bytes(a, f.size) > target)
			continue;
		while (a->nlive && a->live_alloc + alloc_bytes(a, f.size) > target) {
			ret = op_delete(a, &a->victims);
			if (ret)
				return ret;
		}
		ret = op_write(a, &f);
		if (ret)
			return ret;
		a->churn_written += f.size;
		a->churn_files++;
	}
	return 0;
}

static void state_init(struct age_state *a, const struct age_profile *p, uint64_t seed,
		       uint64_t block)
{
	memset(a, 0, sizeof(*a));
	a->block = block ? block : 4096;
	gen_init(&a->files, p, seed);
	gen_init(&a->extra, p, seed ^ 0x5bd1e9955bd1e995ull);
	/* the extra files are named apart from the others */
	a->extra.next_id = 1ull << 40;
	rng_seed(&a->victims, seed ^ 0x9e3779b97f4a7c15ull);
	a->parent_fd = -1;
	a->dir_fd = -1;
}

static void state_free(struct age_state *a)
{
	free(a->live);
	free(a->buf);
	if (a->dir_fd >= 0)
		close(a->dir_fd);
	if (a->parent_fd >= 0)
		close(a->parent_fd);
	if (a->log)
		fclose(a->log);
	free(a);
}

int age_plan_make(const char *dir, const struct age_spec *spec, uint64_t seed,
		  uint64_t reserve_bytes, uint64_t later_bytes, double write_bps,
		  double file_s, struct age_plan *plan, char *err, size_t errlen)
{
	struct age_state *a;
	uint64_t want, room, churn_bytes;
	char h1[32], h2[32], h3[32];
	int ret;

	memset(plan, 0, sizeof(*plan));
	plan->seed = seed;
	plan->reserve_bytes = reserve_bytes;
	ret = fs_fill_read_path(dir, true, &plan->start);
	if (ret) {
		snprintf(err, errlen, "--age: cannot read how full %s is: %s", dir,
			 ret == -ENODATA ? "its file system reports no size" : strerror(-ret));
		return -EINVAL;
	}
	want = (uint64_t)((double)plan->start.capacity * spec->full_pct / 100.0);
	size_human(h1, sizeof(h1), plan->start.used);
	size_human(h2, sizeof(h2), reserve_bytes);
	if (plan->start.used + reserve_bytes >= want) {
		snprintf(err, errlen, "--age: %s already holds %s (%.1f%%), and the phases' files "
			 "%s more: at or above %g%% before any aging; clyde refuses rather than "
			 "churn without room", dir, h1, fs_fill_pct(&plan->start), h2,
			 spec->full_pct);
		return -EINVAL;
	}
	if (want + later_bytes > plan->start.capacity) {
		size_human(h3, sizeof(h3), later_bytes);
		snprintf(err, errlen, "--age: at %g%% the file tests' %s after the block read "
			 "would not fit", spec->full_pct, h3);
		return -EINVAL;
	}
	plan->target_bytes = want - plan->start.used - reserve_bytes;
	if (plan->target_bytes > spec->max_bytes) {
		size_human(h1, sizeof(h1), plan->target_bytes);
		size_human(h2, sizeof(h2), spec->max_bytes);
		snprintf(err, errlen, "--age: %g%% of %s would write %" PRIu64 " bytes (%s) of "
			 "aging files, above --age-size=%s: raise --age-size or lower FULL",
			 spec->full_pct, dir, plan->target_bytes, h1, h2);
		return -EINVAL;
	}
	room = plan->target_bytes;
	churn_bytes = (uint64_t)((double)plan->start.capacity * spec->churn);
	a = calloc(1, sizeof(*a));
	if (!a)
		return -ENOMEM;
	state_init(a, &spec->profile, seed, plan->start.block);
	a->err = err;
	a->errlen = errlen;
	ret = fill_to(a, &a->files, room, &a->fill_files);
	if (!ret) {
		plan->fill_bytes = a->written;
		ret = churn(a, room, churn_bytes);
	}
	if (!ret) {
		plan->churn_bytes = a->written - plan->fill_bytes;
		plan->fill_files = a->fill_files;
		plan->churn_files = a->churn_files;
		plan->deletes = a->deletes;
		plan->estimate_s = (write_bps > 0 ? (double)a->written / write_bps : 0) +
				   (double)(a->files_written + a->deletes) * file_s;
	}
	state_free(a);
	return ret;
}

/* Bring what statvfs says to the target: delete or write (extra files) in a few rounds. */
static int correct_rounds(struct age_state *a, uint64_t want_used, uint64_t capacity,
			  uint64_t *target)
{
	uint64_t tol = capacity / 400 > 4 * a->block ? capacity / 400 : 4 * a->block;
	struct fs_fill now;
	uint64_t dummy = 0, before;
	int ret;

	for (unsigned round = 0; round < AGE_CORRECTION_ROUNDS; round++) {
		ret = fs_fill_read(a->dir_fd, true, &now);
		if (ret)
			return 0;
		if (now.used > want_used + tol) {
			uint64_t goal = now.used - want_used;
			uint64_t freed = 0;

			while (a->nlive && freed < goal) {
				before = a->live_alloc;
				ret = op_delete(a, &a->extra.rng);
				if (ret)
					return ret;
				freed += before - a->live_alloc;
			}
			*target = a->live_alloc;
		} else if (now.used + tol < want_used) {
			before = a->written;
			*target = a->live_alloc + (want_used - now.used);
			ret = fill_to(a, &a->extra, *target, &dummy);
			a->correction += a->written - before;
			if (ret)
				return ret;
		} else {
			return 0;
		}
	}
	return 0;
}

static int correct(struct age_state *a, uint64_t want_used, uint64_t capacity, uint64_t *target)
{
	int ret;

	a->fixing = true;
	ret = correct_rounds(a, want_used, capacity, target);
	a->fixing = false;
	return ret;
}

/* The aging directory, clyde.age.XXXXXX in dir, opened by descriptor; its marker stays. */
static int make_dir(struct age_state *a, const char *dir)
{
	const char *base;
	int ret;

	ret = workdir_create_tagged(dir, "age.", a->path, sizeof(a->path));
	if (ret) {
		snprintf(a->err, a->errlen, "aging: cannot create a directory in %s: %s", dir,
			 strerror(-ret));
		return ret;
	}
	base = strrchr(a->path, '/');
	snprintf(a->name, sizeof(a->name), "%s", base ? base + 1 : a->path);
	a->parent_fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (a->parent_fd < 0)
		goto fail_open;
	a->dir_fd = openat(a->parent_fd, a->name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (a->dir_fd < 0 || fstat(a->dir_fd, &a->dir_st))
		goto fail_open;
	if (mount_id_fd(a->dir_fd, &a->dir_mount))
		a->dir_mount.known = false;
	return 0;
fail_open:
	ret = -errno;
	snprintf(a->err, a->errlen, "aging: cannot open %s: %s", a->path, strerror(-ret));
	workdir_remove(a->path);
	a->path[0] = '\0';
	return ret;
}

static int remove_dir(struct age_state *a)
{
	int ret;

	if (!a->path[0] || a->parent_fd < 0)
		return 0;
	if (a->dir_fd >= 0) {
		close(a->dir_fd);
		a->dir_fd = -1;
	}
	ret = workdir_remove_at(a->parent_fd, a->name, &a->dir_st);
	if (ret) {
		fprintf(stderr, "clyde: warning: could not remove all of %s: %s\n", a->path,
			strerror(-ret));
		workdir_name_left_at(a->parent_fd, a->name, a->path, stderr, 10);
	}
	a->path[0] = '\0';
	return ret;
}

static void fill_pct(struct age_state *a, double *pct)
{
	struct fs_fill f;

	*pct = fs_fill_read(a->dir_fd, true, &f) ? -1 : fs_fill_pct(&f);
}

static int age_steps(struct age_state *a, const struct age_spec *spec, const struct age_plan *plan,
		     age_sample_fn sample, void *ctx, struct age_outcome *out)
{
	uint64_t capacity = plan->start.capacity;
	uint64_t want_used = (uint64_t)((double)capacity * spec->full_pct / 100.0) -
			     plan->reserve_bytes;
	uint64_t target = plan->target_bytes;
	uint64_t churn_bytes = (uint64_t)((double)capacity * spec->churn);
	int ret;

	/* tests stop here (CLYDE_TEST_PAUSE=age-start, age-fresh, age-aged) */
	test_pause_named("age-start");
	ret = fill_to(a, &a->files, target, &a->fill_files);
	if (ret)
		return ret;
	ret = correct(a, want_used, capacity, &target);
	if (ret)
		return ret;
	if (sample)
		sample(ctx, a->dir_fd, AGE_POINT_FRESH);
	test_pause_named("age-fresh");
	ret = churn(a, target, churn_bytes);
	if (ret)
		return ret;
	ret = correct(a, want_used, capacity, &target);
	if (ret)
		return ret;
	fill_pct(a, &out->fill_aged_pct);
	if (sample)
		sample(ctx, a->dir_fd, AGE_POINT_AGED);
	test_pause_named("age-aged");
	if (clyde_stop_requested()) {
		snprintf(a->err, a->errlen, "aging stopped by signal %d", clyde_stop_signal());
		return -EINTR;
	}
	return 0;
}

int age_run(const char *dir, const struct age_spec *spec, const struct age_plan *plan,
	    age_sample_fn sample, void *ctx, struct age_state **state,
	    struct age_outcome *out, char *err, size_t errlen)
{
	uint64_t start = now_ns();
	void *cpus = NULL;
	struct age_state *a;
	int ret;

	memset(out, 0, sizeof(*out));
	*state = NULL;
	out->fill_before_pct = fs_fill_pct(&plan->start);
	a = calloc(1, sizeof(*a));
	if (!a)
		return -ENOMEM;
	state_init(a, &spec->profile, plan->seed, plan->start.block);
	a->real = true;
	a->err = err;
	a->errlen = errlen;
	if (spec->time_box_s > 0)
		a->deadline_ns = start + (uint64_t)(spec->time_box_s * 1e9);
	a->buf = malloc(AGE_BUFFER);
	if (!a->buf) {
		ret = -ENOMEM;
		snprintf(err, errlen, "aging: out of memory");
		goto free_state;
	}
	{
		struct rng r;

		rng_seed(&r, plan->seed);
		for (size_t i = 0; i < AGE_BUFFER; i += 8) {
			uint64_t v = rng_next(&r);

			memcpy(a->buf + i, &v, 8);
		}
	}
	if (spec->log_path) {
		a->log = fopen(spec->log_path, "w");
		if (!a->log) {
			ret = -errno;
			snprintf(err, errlen, "--age-log %s: %s", spec->log_path, strerror(-ret));
			goto free_state;
		}
	}
	ret = make_dir(a, dir);
	if (ret)
		goto free_state;
	snprintf(out->dir, sizeof(out->dir), "%s", a->path);
	/* ext4 allocates per CPU: one CPU makes two agings alike */
	age_cpu_pin(&cpus);
	/* a live line on a terminal only; the summary line says the rest */
	if (progress_live)
		progress_begin("aging", (plan->fill_bytes + plan->churn_bytes) >> 20, 1u << 20);
	ret = age_steps(a, spec, plan, sample, ctx, out);
	if (progress_live)
		progress_end(ret ? "failed" : "done");
	age_cpu_restore(cpus);
	if (a->log && fflush(a->log) && !ret) {
		ret = -errno;
		snprintf(err, errlen, "--age-log %s: %s", spec->log_path, strerror(-ret));
	}
	out->written_bytes = a->written;
	out->correction_bytes = a->correction;
	out->files_written = a->files_written;
	out->files_deleted = a->deletes;
	out->live_files = a->nlive;
	out->live_bytes = a->live_bytes;
	out->churn_written = a->churn_written;
	out->churn_done = plan->start.capacity ?
			  (double)a->churn_written / (double)plan->start.capacity : 0;
	out->time_box_hit = a->time_box_hit;
	out->seconds = (double)(now_ns() - start) / 1e9;
	if (ret) {
		remove_dir(a);
		goto free_state;
	}
	*state = a;
	return 0;
free_state:
	state_free(a);
	return ret;
}

int age_remove(struct age_state *a)
{
	int ret;

	if (!a)
		return 0;
	ret = remove_dir(a);
	state_free(a);
	return ret;
}

void age_keep(struct age_state *a)
{
	if (!a)
		return;
	/* kept on purpose: no marker, so --cleanup and later runs' warnings leave it */
	if (a->dir_fd >= 0)
		unlinkat(a->dir_fd, LEFTOVER_MARKER, 0);
	state_free(a);
}
