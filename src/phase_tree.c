// SPDX-License-Identifier: BSD-2-Clause
/*
 * The tree phases (--tree): the generated tree is extracted as tar x
 * does, copied as cp -r, walked as find, read as tar c > /dev/null, and
 * both trees removed as rm -rf. Every operation goes through a tree_io
 * backend in batches of independent operations: one at a time in the
 * commands' own order with psync; with io_uring, the directories a level
 * at a time and the files depth at a time. Extract, copy and delete end
 * with a sync that waits, inside their timing, as the file tests do.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bench.h"
#include "cache.h"
#include "compat.h"
#include "engine.h"
#include "pattern.h"
#include "residency.h"
#include "rng.h"
#include "signals.h"
#include "timing.h"
#include "tree.h"

/* Bytes per read or write: cp's buffer size on Linux. */
#define TREE_CHUNK (128u << 10)

/* What a worker has on disk between the tree phases. */
struct tree_state {
	bool extracted;
	bool copied;
};

/* One phase on one worker. */
struct tree_run {
	struct worker *w;
	struct phase_sample *s;
	enum phase_id id;
	const struct tree *t;
	struct tree_io io;
	bool io_ready;
	struct tree_op *ops;
	uint32_t *slot;		/* the file each op of a batch is for */
	char *wbuf;		/* extract's data, TREE_CHUNK bytes */
	char *bufs;		/* one TREE_CHUNK buffer per op in flight */
	uint32_t *file_first;	/* index in t->files of each directory's first file */
	int top_fd;		/* the private work directory */
	int src_fd;		/* the tree's root */
	int dst_fd;		/* the copy's root */
	const char *src_dir;
	const char *dst_dir;
};

static struct tree_state *tree_state_of(struct worker *w)
{
	if (!w->trees)
		w->trees = calloc(1, sizeof(*w->trees));
	return w->trees;
}

/* The directory a root's ops are relative to, for messages. */
static const char *root_name(const struct tree_run *r, int fd)
{
	if (fd == r->dst_fd)
		return r->dst_dir;
	if (fd == r->src_fd)
		return r->src_dir;
	return r->w->b->workdir;
}

static void close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

static void run_release(struct tree_run *r)
{
	if (r->io_ready)
		r->io.ops->teardown(&r->io);
	r->io_ready = false;
	close_fd(&r->top_fd);
	close_fd(&r->src_fd);
	close_fd(&r->dst_fd);
	free(r->ops);
	free(r->slot);
	free(r->wbuf);
	free(r->bufs);
	free(r->file_first);
}

/* Buffers, the backend and the roots' descriptors: everything before the clock. */
static int run_prepare(struct tree_run *r, struct worker *w, struct phase_sample *s,
		       enum phase_id id)
{
	const struct run_plan *p = w->b->plan;
	const struct tree *t = w->b->tree;
	bool uring = p->engine == &engine_uring;
	struct rng rng;
	char desc[256] = "";
	uint32_t f = 0;
	int ret;

	memset(r, 0, sizeof(*r));
	r->w = w;
	r->s = s;
	r->id = id;
	r->t = t;
	r->top_fd = r->src_fd = r->dst_fd = -1;
	r->src_dir = w->tree_dir;
	r->dst_dir = w->copy_dir;
	if (!t || !tree_state_of(w))
		return sample_fail(s, id, -ENOMEM, "no tree");
	s->tree = calloc(1, sizeof(*s->tree));
	if (!s->tree)
		return sample_fail(s, id, -ENOMEM, "tree figures");
	r->io.ops = uring ? &tree_io_uring : &tree_io_psync;
	ret = r->io.ops->setup(&r->io, p->tree_depth, desc, sizeof(desc));
	if (ret)
		return sample_fail(s, id, ret, "set up %s for the tree (%s)", r->io.ops->name, desc);
	r->io_ready = true;
	snprintf(s->tree->io_desc, sizeof(s->tree->io_desc), "%s", desc);
	s->tree->ring_kinds = r->io.ring_kinds;
	r->ops = calloc(r->io.depth * 2, sizeof(*r->ops));
	r->slot = calloc(r->io.depth * 2, sizeof(*r->slot));
	r->wbuf = malloc(TREE_CHUNK);
	r->bufs = malloc((size_t)r->io.depth * TREE_CHUNK);
	r->file_first = malloc(((size_t)t->ndirs + 1) * sizeof(*r->file_first));
	if (!r->ops || !r->slot || !r->wbuf || !r->bufs || !r->file_first)
		return sample_fail(s, id, -ENOMEM, "tree buffers");
	for (uint32_t d = 0; d < t->ndirs; d++) {
		r->file_first[d] = f;
		while (f < t->nfiles && t->files[f].dir == d)
			f++;
	}
	r->file_first[t->ndirs] = t->nfiles;
	rng_seed(&rng, ((uint64_t)w->b->seed << 32) ^ 0x74726565ull ^ w->index);
	pattern_fill(r->wbuf, TREE_CHUNK, p->data, p->data_zero_pct, &rng);
	r->top_fd = open(w->b->workdir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (r->top_fd < 0)
		return sample_fail(s, id, -errno, "open %s", w->b->workdir);
	return 0;
}

static int open_root(struct tree_run *r, const char *dir, bool make, int *fd)
{
	if (make && mkdir(dir, 0700))
		return sample_fail(r->s, r->id, -errno, "mkdir %s", dir);
	*fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (*fd < 0)
		return sample_fail(r->s, r->id, -errno, "open %s", dir);
	return 0;
}

static void record(struct tree_run *r, const struct tree_op *op)
{
	struct tree_sample *ts = r->s->tree;

	hist_record(&ts->op[op->kind], op->t_end - op->t_start);
	if (op->via_ring)
		ts->via_ring[op->kind]++;
	sample_latency(r->s, op->t_start, op->t_end);
}

/*
 * Run n ops as one batch and record them; the first failure is the
 * phase's, named by its operation and path. 0 or -errno.
 */
static int issue(struct tree_run *r, unsigned n)
{
	int ret = 0;

	/* a copy's opens and closes come two per file: at most depth at once */
	for (unsigned i = 0; i < n && !ret; i += r->io.depth)
		ret = r->io.ops->run(&r->io, r->ops + i, n - i < r->io.depth ? n - i : r->io.depth);
	if (ret)
		return sample_fail(r->s, r->id, ret, "%s backend", r->io.ops->name);
	for (unsigned i = 0; i < n; i++)
		record(r, &r->ops[i]);
	for (unsigned i = 0; i < n; i++) {
		const struct tree_op *op = &r->ops[i];

		if (op->res < 0)
			return sample_fail(r->s, r->id, (int)op->res, "%s %s/%s",
					   tree_op_name(op->kind), root_name(r, op->dirfd), op->name);
	}
	if (clyde_stop_requested())
		return sample_fail(r->s, r->id, -EINTR, "tree");
	return 0;
}

static void set_op(struct tree_op *op, enum tree_op_kind kind, int dirfd, const char *name)
{
	memset(op, 0, sizeof(*op));
	op->kind = kind;
	op->dirfd = dirfd;
	op->name = name;
	op->fd = -1;
}

/* Close what a failed batch left open, untimed. */
static void close_all(int *fds, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		close_fd(&fds[i]);
}

/* Directories at a level each, shallowest first: a parent before its children. */
static int make_dirs_by_level(struct tree_run *r, int root)
{
	const struct tree *t = r->t;
	unsigned n = 0;
	uint32_t level = 1;
	int ret = 0;

	for (uint32_t k = 1; k < t->ndirs && !ret; k++) {
		const struct tree_dir *d = &t->dirs[t->by_depth[k]];

		if (n && (n == r->io.depth || d->depth != level)) {
			ret = issue(r, n);
			n = 0;
		}
		level = d->depth;
		set_op(&r->ops[n++], TOP_MKDIR, root, d->path);
		r->s->tree->dirs++;
	}
	if (!ret && n)
		ret = issue(r, n);
	return ret;
}

static int make_dir(struct tree_run *r, int root, uint32_t d)
{
	set_op(&r->ops[0], TOP_MKDIR, root, r->t->dirs[d].path);
	r->s->tree->dirs++;
	return issue(r, 1);
}

/*
 * Files [first, first + m) at once, m <= depth: create them, write their
 * data a chunk per file per round, close them (extract).
 */
static int write_files(struct tree_run *r, uint32_t first, unsigned m)
{
	const struct tree *t = r->t;
	int fds[m];
	uint64_t done[m];
	unsigned n;
	int ret;

	for (unsigned i = 0; i < m; i++) {
		set_op(&r->ops[i], TOP_CREATE, r->src_fd, t->files[first + i].path);
		fds[i] = -1;
		done[i] = 0;
	}
	ret = issue(r, m);
	for (unsigned i = 0; i < m; i++)
		fds[i] = r->ops[i].res >= 0 ? (int)r->ops[i].res : -1;
	while (!ret) {
		n = 0;
		for (unsigned i = 0; i < m; i++) {
			const struct tree_file *f = &t->files[first + i];
			struct tree_op *op = &r->ops[n];

			if (done[i] >= f->size)
				continue;
			set_op(op, TOP_WRITE, r->src_fd, f->path);
			op->fd = fds[i];
			op->buf = r->wbuf;
			op->len = f->size - done[i] < TREE_CHUNK ? (size_t)(f->size - done[i]) : TREE_CHUNK;
			op->off = done[i];
			r->slot[n++] = i;
		}
		if (!n)
			break;
		ret = issue(r, n);
		for (unsigned k = 0; k < n && !ret; k++) {
			if (r->ops[k].res == 0)
				ret = sample_fail(r->s, r->id, -EIO, "write %s/%s: wrote nothing",
						  r->src_dir, r->ops[k].name);
			done[r->slot[k]] += (uint64_t)r->ops[k].res;
			r->s->tree->bytes += (uint64_t)r->ops[k].res;
		}
	}
	if (ret) {
		close_all(fds, m);
		return ret;
	}
	for (unsigned i = 0; i < m; i++) {
		set_op(&r->ops[i], TOP_CLOSE, r->src_fd, t->files[first + i].path);
		r->ops[i].fd = fds[i];
	}
	ret = issue(r, m);
	r->s->tree->files += m;
	return ret;
}

/*
 * Files [first, first + m) read through, or copied to the copy tree:
 * open (and create), then a chunk per file per round, then close.
 */
static int read_files(struct tree_run *r, uint32_t first, unsigned m, bool copy)
{
	const struct tree *t = r->t;
	unsigned per = copy ? 2 : 1, n;
	int fds[2 * m];
	uint64_t done[m];
	int ret;

	for (unsigned i = 0; i < m; i++) {
		set_op(&r->ops[i * per], TOP_OPEN, r->src_fd, t->files[first + i].path);
		if (copy)
			set_op(&r->ops[i * per + 1], TOP_CREATE, r->dst_fd, t->files[first + i].path);
		done[i] = 0;
	}
	ret = issue(r, m * per);
	for (unsigned i = 0; i < m * per; i++)
		fds[i] = r->ops[i].res >= 0 ? (int)r->ops[i].res : -1;
	while (!ret) {
		n = 0;
		for (unsigned i = 0; i < m; i++) {
			const struct tree_file *f = &t->files[first + i];
			struct tree_op *op = &r->ops[n];

			if (done[i] >= f->size)
				continue;
			set_op(op, TOP_READ, r->src_fd, f->path);
			op->fd = fds[i * per];
			op->buf = r->bufs + (size_t)n * TREE_CHUNK;
			op->len = f->size - done[i] < TREE_CHUNK ? (size_t)(f->size - done[i]) : TREE_CHUNK;
			op->off = done[i];
			r->slot[n++] = i;
		}
		if (!n)
			break;
		ret = issue(r, n);
		for (unsigned k = 0; k < n && !ret; k++)
			if (r->ops[k].res == 0)
				ret = sample_fail(r->s, r->id, -EIO, "read %s/%s: %llu bytes, "
						  "expected %llu", r->src_dir, r->ops[k].name,
						  (unsigned long long)done[r->slot[k]],
						  (unsigned long long)t->files[first + r->slot[k]].size);
		/* The copy writes what was read, finishing short writes. */
		while (!ret && copy && n) {
			unsigned w = 0;

			for (unsigned k = 0; k < n; k++) {
				struct tree_op *rd = &r->ops[k];
				struct tree_op *op = &r->ops[r->io.depth + w];

				if (rd->res <= 0)
					continue;
				set_op(op, TOP_WRITE, r->dst_fd, rd->name);
				op->fd = fds[r->slot[k] * per + 1];
				op->buf = rd->buf;
				op->len = (size_t)rd->res;
				op->off = rd->off;
				r->slot[r->io.depth + w++] = k;
			}
			if (!w)
				break;
			/* issue() runs ops from the start of the array: move the writes there after the reads are copied */
			ret = r->io.ops->run(&r->io, &r->ops[r->io.depth], w);
			if (ret) {
				ret = sample_fail(r->s, r->id, ret, "%s backend", r->io.ops->name);
				break;
			}
			for (unsigned k = 0; k < w; k++) {
				struct tree_op *op = &r->ops[r->io.depth + k];
				struct tree_op *rd = &r->ops[r->slot[r->io.depth + k]];

				record(r, op);
				if (op->res <= 0 && !ret)
					ret = sample_fail(r->s, r->id, op->res ? (int)op->res : -EIO,
							  "write %s/%s", r->dst_dir, op->name);
				if (op->res > 0) {
					/* what is left of this read goes in the next round */
					rd->buf = (char *)rd->buf + op->res;
					rd->off += (uint64_t)op->res;
					rd->res -= op->res;
					r->s->tree->bytes += (uint64_t)op->res;
					done[r->slot[r->slot[r->io.depth + k]]] += (uint64_t)op->res;
				}
			}
			if (!ret && clyde_stop_requested())
				ret = sample_fail(r->s, r->id, -EINTR, "tree");
		}
		for (unsigned k = 0; k < n && !ret && !copy; k++) {
			done[r->slot[k]] += (uint64_t)r->ops[k].res;
			r->s->tree->bytes += (uint64_t)r->ops[k].res;
		}
	}
	if (ret) {
		close_all(fds, m * per);
		return ret;
	}
	for (unsigned i = 0; i < m * per; i++) {
		set_op(&r->ops[i], TOP_CLOSE, i % per ? r->dst_fd : r->src_fd,
		       t->files[first + i / per].path);
		r->ops[i].fd = fds[i];
	}
	ret = issue(r, m * per);
	r->s->tree->files += m;
	return ret;
}

typedef int (*files_fn)(struct tree_run *r, uint32_t first, unsigned m);

static int write_batch(struct tree_run *r, uint32_t first, unsigned m)
{
	return write_files(r, first, m);
}

static int copy_batch(struct tree_run *r, uint32_t first, unsigned m)
{
	return read_files(r, first, m, true);
}

static int read_batch(struct tree_run *r, uint32_t first, unsigned m)
{
	return read_files(r, first, m, false);
}

/* Files [first, end) in batches; a test may pause after the first. */
static int files_in_batches(struct tree_run *r, uint32_t first, uint32_t end, files_fn fn)
{
	unsigned depth = r->io.depth;
	int ret = 0;

	for (uint32_t i = first; i < end && !ret; i += depth) {
		unsigned m = end - i < depth ? end - i : depth;

		ret = fn(r, i, m);
		if (i == 0)
			test_pause_point(r->id);
	}
	return ret;
}

/*
 * Make the directories in root and run fn over every file: one at a
 * time in walk order (tar x, cp -r), or with a deeper backend, the
 * directories a level at a time and then the files.
 */
static int populate(struct tree_run *r, int root, files_fn fn)
{
	const struct tree *t = r->t;
	int ret = 0;

	if (r->io.depth > 1) {
		ret = make_dirs_by_level(r, root);
		return ret ? ret : files_in_batches(r, 0, t->nfiles, fn);
	}
	for (uint32_t d = 0; d < t->ndirs && !ret; d++) {
		if (d)
			ret = make_dir(r, root, d);
		if (!ret)
			ret = files_in_batches(r, r->file_first[d], r->file_first[d + 1], fn);
	}
	return ret;
}

/*
 * Where no sync waits for the writes (the BSDs' sync(2)), fsync each file
 * and directory of the tree at root, as one sync would.
 */
static int fsync_tree(struct tree_run *r, int root, const char *dir, bool files)
{
	const struct tree *t = r->t;
	int ret = 0;

	for (uint32_t i = 0; files && i < t->nfiles && !ret; i++) {
		int fd = openat(root, t->files[i].path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);

		if (fd < 0 || fsync(fd))
			ret = sample_fail(r->s, r->id, -errno, "sync %s/%s", dir, t->files[i].path);
		if (fd >= 0)
			close(fd);
	}
	for (uint32_t d = 0; d < t->ndirs && !ret; d++) {
		int fd = openat(root, d ? t->dirs[d].path : ".",
				O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);

		if (fd < 0 || fsync(fd))
			ret = sample_fail(r->s, r->id, -errno, "sync %s/%s", dir, t->dirs[d].path);
		if (fd >= 0)
			close(fd);
	}
	return ret;
}

/* The sync that closes extract, copy and delete, inside the timing. */
static int close_sync(struct tree_run *r, int root, const char *dir)
{
	uint64_t t0 = now_ns();
	int ret = 0;

	if (fs_sync_waits()) {
		if (fs_sync(r->top_fd))
			ret = sample_fail(r->s, r->id, -errno, "sync %s", r->w->b->workdir);
	} else if (root >= 0) {
		ret = fsync_tree(r, root, dir, true);
	} else if (fsync(r->top_fd)) {
		ret = sample_fail(r->s, r->id, -errno, "sync %s", r->w->b->workdir);
	}
	sample_stop(r->w, r->s);
	r->s->flush_ns = r->s->end_ns - t0;
	return ret;
}

int phase_tree_extract(struct worker *w, struct phase_sample *s)
{
	struct tree_run r;
	int ret = run_prepare(&r, w, s, PH_TREE_EXTRACT);

	if (!ret)
		ret = open_root(&r, w->tree_dir, true, &r.src_fd);
	if (ret)
		goto out;
	w->trees->extracted = true;
	sample_start(w, s);
	ret = populate(&r, r.src_fd, write_batch);
	if (!ret)
		ret = close_sync(&r, r.src_fd, r.src_dir);
	s->amount = (double)s->tree->files;
out:
	sample_stop(w, s);
	run_release(&r);
	return ret;
}

int phase_tree_copy(struct worker *w, struct phase_sample *s)
{
	struct tree_run r;
	int ret = run_prepare(&r, w, s, PH_TREE_COPY);

	if (!ret)
		ret = open_root(&r, w->tree_dir, false, &r.src_fd);
	if (!ret)
		ret = open_root(&r, w->copy_dir, true, &r.dst_fd);
	if (ret)
		goto out;
	w->trees->copied = true;
	sample_start(w, s);
	ret = populate(&r, r.dst_fd, copy_batch);
	if (!ret)
		ret = close_sync(&r, r.dst_fd, r.dst_dir);
	s->amount = (double)s->tree->files;
out:
	sample_stop(w, s);
	run_release(&r);
	return ret;
}

static bool is_dot(const char *name)
{
	return name[0] == '.' && (!name[1] || (name[1] == '.' && !name[2]));
}

/* Names of a directory's entries, as readdir gives them: one block, NUL-separated. */
struct listing {
	char *names;
	size_t len, cap;
	unsigned count;
};

static int list_dir(struct tree_run *r, int dfd, const char *path, struct listing *l)
{
	struct tree_sample *ts = r->s->tree;
	uint64_t t0 = now_ns();
	int fd = dup(dfd);
	struct dirent *de;
	DIR *dir;

	l->len = 0;
	l->count = 0;
	if (fd < 0)
		return sample_fail(r->s, r->id, -errno, "dup");
	dir = fdopendir(fd);
	if (!dir) {
		close(fd);
		return sample_fail(r->s, r->id, -errno, "opendir %s/%s", r->src_dir, path);
	}
	while ((de = readdir(dir))) {
		size_t n = strlen(de->d_name) + 1;

		if (is_dot(de->d_name))
			continue;
		if (l->len + n > l->cap) {
			size_t cap = l->cap ? l->cap * 2 : 4096;
			char *p;

			while (cap < l->len + n)
				cap *= 2;
			p = realloc(l->names, cap);
			if (!p) {
				closedir(dir);
				return sample_fail(r->s, r->id, -ENOMEM, "listing");
			}
			l->names = p;
			l->cap = cap;
		}
		memcpy(l->names + l->len, de->d_name, n);
		l->len += n;
		l->count++;
	}
	closedir(dir);
	hist_record(&ts->list, now_ns() - t0);
	return 0;
}

/* stat what a listing names, in its order; count files, directories and bytes. */
static int stat_listing(struct tree_run *r, int dfd, const char *path, const struct listing *l)
{
	struct tree_sample *ts = r->s->tree;
	const char *name = l->names;
	unsigned n = 0;
	int ret = 0;

	for (unsigned i = 0; i < l->count && !ret; i++) {
		set_op(&r->ops[n++], TOP_STAT, dfd, name);
		name += strlen(name) + 1;
		if (n < r->io.depth && i + 1 < l->count)
			continue;
		ret = r->io.ops->run(&r->io, r->ops, n);
		if (ret)
			return sample_fail(r->s, r->id, ret, "%s backend", r->io.ops->name);
		for (unsigned k = 0; k < n && !ret; k++) {
			const struct tree_op *op = &r->ops[k];

			record(r, op);
			if (op->res < 0) {
				ret = sample_fail(r->s, r->id, (int)op->res, "stat %s/%s%s%s", r->src_dir,
						  path, path[0] ? "/" : "", op->name);
			} else if (S_ISDIR(op->mode)) {
				ts->dirs++;
			} else {
				ts->files++;
				ts->bytes += op->size;
			}
			ts->entries++;
		}
		n = 0;
		if (!ret && clyde_stop_requested())
			ret = sample_fail(r->s, r->id, -EINTR, "tree");
	}
	return ret;
}

/*
 * Every directory in walk order: list it, then stat each entry. What it
 * found must be the tree: as many files, directories and bytes.
 */
int phase_tree_walk(struct worker *w, struct phase_sample *s)
{
	struct listing l = { 0 };
	struct tree_run r;
	const struct tree *t;
	int ret = run_prepare(&r, w, s, PH_TREE_WALK);

	if (!ret)
		ret = open_root(&r, w->tree_dir, false, &r.src_fd);
	if (ret)
		goto out;
	t = r.t;
	sample_start(w, s);
	for (uint32_t d = 0; d < t->ndirs && !ret; d++) {
		const char *path = t->dirs[d].path;
		int dfd = d ? openat(r.src_fd, path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
			    : dup(r.src_fd);

		if (dfd < 0) {
			ret = sample_fail(s, r.id, -errno, "open %s/%s", r.src_dir, path);
			break;
		}
		ret = list_dir(&r, dfd, path, &l);
		if (!ret)
			ret = stat_listing(&r, dfd, path, &l);
		close(dfd);
		if (d == 0)
			test_pause_point(r.id);
	}
	sample_stop(w, s);
	if (!ret && (s->tree->files != t->nfiles || s->tree->dirs + 1 != t->ndirs ||
		     s->tree->bytes != t->bytes))
		ret = sample_fail(s, r.id, -EIO, "walk of %s found %llu files, %llu directories, "
				  "%llu bytes; the tree has %u, %u, %llu", r.src_dir,
				  (unsigned long long)s->tree->files, (unsigned long long)s->tree->dirs,
				  (unsigned long long)s->tree->bytes, t->nfiles, t->ndirs - 1,
				  (unsigned long long)t->bytes);
	s->amount = (double)s->tree->entries;
out:
	sample_stop(w, s);
	free(l.names);
	run_release(&r);
	return ret;
}

int phase_tree_read(struct worker *w, struct phase_sample *s)
{
	struct tree_run r;
	int ret = run_prepare(&r, w, s, PH_TREE_READ);

	if (!ret)
		ret = open_root(&r, w->tree_dir, false, &r.src_fd);
	if (ret)
		goto out;
	sample_start(w, s);
	ret = files_in_batches(&r, 0, r.t->nfiles, read_batch);
	sample_stop(w, s);
	s->amount = (double)s->tree->files;
out:
	sample_stop(w, s);
	run_release(&r);
	return ret;
}

/* Unlink files [first, end) of the tree at root, depth at a time. */
static int unlink_files(struct tree_run *r, int root, uint32_t first, uint32_t end)
{
	int ret = 0;

	for (uint32_t i = first; i < end && !ret;) {
		unsigned n = 0;

		for (; i < end && n < r->io.depth; i++)
			set_op(&r->ops[n++], TOP_UNLINK, root, r->t->files[i].path);
		ret = issue(r, n);
		r->s->tree->files += n;
	}
	return ret;
}

/* rm -rf of one tree: bottom-up. One at a time: each directory's files, then it. */
static int remove_tree(struct tree_run *r, int root)
{
	const struct tree *t = r->t;
	int ret = 0;

	if (r->io.depth == 1) {
		for (uint32_t d = t->ndirs; d-- > 0 && !ret;) {
			ret = unlink_files(r, root, r->file_first[d], r->file_first[d + 1]);
			if (!ret && d) {
				set_op(&r->ops[0], TOP_RMDIR, root, t->dirs[d].path);
				ret = issue(r, 1);
				r->s->tree->dirs++;
			}
		}
		return ret;
	}
	ret = unlink_files(r, root, 0, t->nfiles);
	for (uint32_t k = t->ndirs, n = 0, level = 0; !ret && k-- > 1;) {
		const struct tree_dir *d = &t->dirs[t->by_depth[k]];

		set_op(&r->ops[n++], TOP_RMDIR, root, d->path);
		r->s->tree->dirs++;
		level = d->depth;
		if (n == r->io.depth || k == 1 || t->dirs[t->by_depth[k - 1]].depth != level) {
			ret = issue(r, n);
			n = 0;
		}
	}
	return ret;
}

static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

int phase_tree_delete(struct worker *w, struct phase_sample *s)
{
	struct tree_run r;
	unsigned roots = 0;
	int ret = run_prepare(&r, w, s, PH_TREE_DELETE);

	if (!ret)
		ret = open_root(&r, w->tree_dir, false, &r.src_fd);
	if (!ret && w->trees->copied)
		ret = open_root(&r, w->copy_dir, false, &r.dst_fd);
	if (ret)
		goto out;
	sample_start(w, s);
	ret = remove_tree(&r, r.src_fd);
	if (!ret && r.dst_fd >= 0)
		ret = remove_tree(&r, r.dst_fd);
	if (!ret) {
		set_op(&r.ops[roots++], TOP_RMDIR, r.top_fd, base_name(w->tree_dir));
		if (r.dst_fd >= 0)
			set_op(&r.ops[roots++], TOP_RMDIR, r.top_fd, base_name(w->copy_dir));
		ret = issue(&r, roots);
		s->tree->dirs += roots;
	}
	if (!ret) {
		w->trees->extracted = w->trees->copied = false;
		ret = close_sync(&r, -1, w->b->workdir);
	}
	s->amount = (double)s->tree->files;
out:
	sample_stop(w, s);
	run_release(&r);
	return ret;
}

void phase_tree_cleanup(struct worker *w)
{
	free(w->trees);
	w->trees = NULL;
}

/* Each file of a tree (and its copy): evicted from the page cache after a phase. */
int tree_evict(const struct worker *w, char *err, size_t errlen)
{
	const struct tree *t = w->b->tree;
	char path[WORKPATH_MAX + 8192];
	int ret = 0;

	for (int copy = 0; copy < 2 && !ret; copy++) {
		const char *root = copy ? w->copy_dir : w->tree_dir;

		if (!w->trees || !(copy ? w->trees->copied : w->trees->extracted))
			continue;
		for (uint32_t i = 0; i < t->nfiles && !ret; i++) {
			snprintf(path, sizeof(path), "%s/%s", root, t->files[i].path);
			ret = cache_evict_file(path);
			if (ret)
				snprintf(err, errlen, "%s", path);
		}
	}
	return ret;
}

/* The tree's page-cache residency: bytes resident and in all, over its files. */
int tree_residency(const struct worker *w, uint64_t *resident, uint64_t *total,
		   char *method, size_t len, char *why, size_t whylen)
{
	const struct tree *t = w->b->tree;
	char path[WORKPATH_MAX + 8192];

	for (uint32_t i = 0; i < t->nfiles; i++) {
		struct residency res;

		snprintf(path, sizeof(path), "%s/%s", w->tree_dir, t->files[i].path);
		if (residency_measure(path, &res)) {
			snprintf(why, whylen, "cannot open %s", path);
			return -EIO;
		}
		snprintf(method, len, "%s", residency_method_name(res.method));
		if (res.method == RES_UNKNOWN) {
			snprintf(why, whylen, "%s", res.why);
			return -ENOTSUP;
		}
		*resident += res.resident_bytes;
		*total += res.file_bytes;
	}
	return 0;
}
