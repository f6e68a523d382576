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

/* One file being read or copied. */
struct file_io {
	int in, out;
	uint64_t size;		/* st_size at the stat */
	uint64_t done;		/* bytes read (and written, for a copy) */
	bool eof;
};

/*
 * The copy writes what each read brought, in the ops after the depth
 * reads, finishing short writes.
 */
static int write_reads(struct tree_run *r, unsigned n, struct file_io *f)
{
	int ret = 0;

	while (!ret) {
		unsigned w = 0;

		for (unsigned k = 0; k < n; k++) {
			struct tree_op *rd = &r->ops[k], *op = &r->ops[r->io.depth + w];

			if (rd->res <= 0)
				continue;
			set_op(op, TOP_WRITE, r->dst_fd, rd->name);
			op->fd = f[r->slot[k]].out;
			op->buf = rd->buf;
			op->len = (size_t)rd->res;
			op->off = rd->off;
			r->slot[r->io.depth + w++] = k;
		}
		if (!w)
			break;
		ret = r->io.ops->run(&r->io, &r->ops[r->io.depth], w);
		if (ret)
			return sample_fail(r->s, r->id, ret, "%s backend", r->io.ops->name);
		for (unsigned k = 0; k < w; k++) {
			struct tree_op *op = &r->ops[r->io.depth + k];
			struct tree_op *rd = &r->ops[r->slot[r->io.depth + k]];

			record(r, op);
			if (op->res <= 0) {
				if (!ret)
					ret = sample_fail(r->s, r->id, op->res ? (int)op->res : -EIO,
							  "write %s/%s", r->dst_dir, op->name);
				continue;
			}
			/* what is left of this read goes in the next round */
			rd->buf = (char *)rd->buf + op->res;
			rd->off += (uint64_t)op->res;
			rd->res -= op->res;
			f[r->slot[r->slot[r->io.depth + k]]].done += (uint64_t)op->res;
			r->s->tree->bytes += (uint64_t)op->res;
		}
		if (!ret && clyde_stop_requested())
			ret = sample_fail(r->s, r->id, -EINTR, "tree");
	}
	return ret;
}

/*
 * One round of reads: a chunk of every file not finished. A read copies
 * until a read returns 0, as cp does; a plain read stops at the size
 * stat gave, as tar does, and a file that ends before it is an error.
 */
static int read_round(struct tree_run *r, const char *const *paths, unsigned m,
		      struct file_io *f, bool copy, unsigned *n)
{
	int ret;

	*n = 0;
	for (unsigned i = 0; i < m; i++) {
		struct tree_op *op = &r->ops[*n];
		uint64_t left = f[i].size - f[i].done;

		if (f[i].eof || (!copy && f[i].done >= f[i].size))
			continue;
		set_op(op, TOP_READ, r->src_fd, paths[i]);
		op->fd = f[i].in;
		op->buf = r->bufs + (size_t)*n * TREE_CHUNK;
		op->len = copy || left > TREE_CHUNK ? TREE_CHUNK : (size_t)left;
		op->off = f[i].done;
		r->slot[(*n)++] = i;
	}
	if (!*n)
		return 0;
	ret = issue(r, *n);
	for (unsigned k = 0; k < *n && !ret; k++) {
		struct file_io *fi = &f[r->slot[k]];

		if (r->ops[k].res == 0 && copy)
			fi->eof = true;
		else if (r->ops[k].res == 0)
			ret = sample_fail(r->s, r->id, -EIO, "read %s/%s: it ends at %llu bytes; "
					  "stat said %llu", r->src_dir, r->ops[k].name,
					  (unsigned long long)fi->done, (unsigned long long)fi->size);
		else if (!copy) {
			fi->done += (uint64_t)r->ops[k].res;
			r->s->tree->bytes += (uint64_t)r->ops[k].res;
		}
	}
	return ret;
}

/*
 * m files (m <= depth) read through, or copied to the copy tree, as tar c
 * and cp -r do: stat, open (and create the copy), a chunk per file per
 * round, close.
 */
static int read_files(struct tree_run *r, const char *const *paths, unsigned m, bool copy)
{
	unsigned per = copy ? 2 : 1, n;
	struct file_io f[m];
	int ret;

	for (unsigned i = 0; i < m; i++) {
		set_op(&r->ops[i], TOP_STAT, r->src_fd, paths[i]);
		f[i] = (struct file_io){ .in = -1, .out = -1 };
	}
	ret = issue(r, m);
	for (unsigned i = 0; i < m && !ret; i++) {
		f[i].size = r->ops[i].size;
		if (!S_ISREG(r->ops[i].mode))
			ret = sample_fail(r->s, r->id, -EIO, "%s/%s is not a regular file",
					  r->src_dir, paths[i]);
	}
	if (ret)
		return ret;
	for (unsigned i = 0; i < m; i++) {
		set_op(&r->ops[i * per], TOP_OPEN, r->src_fd, paths[i]);
		if (copy)
			set_op(&r->ops[i * per + 1], TOP_CREATE, r->dst_fd, paths[i]);
	}
	ret = issue(r, m * per);
	for (unsigned i = 0; i < m; i++) {
		f[i].in = r->ops[i * per].res >= 0 ? (int)r->ops[i * per].res : -1;
		if (copy)
			f[i].out = r->ops[i * per + 1].res >= 0 ? (int)r->ops[i * per + 1].res : -1;
	}
	for (n = 1; !ret && n;) {
		ret = read_round(r, paths, m, f, copy, &n);
		if (!ret && copy && n)
			ret = write_reads(r, n, f);
	}
	for (unsigned i = 0; i < m; i++) {
		set_op(&r->ops[i * per], TOP_CLOSE, r->src_fd, paths[i]);
		r->ops[i * per].fd = f[i].in;
		if (copy) {
			set_op(&r->ops[i * per + 1], TOP_CLOSE, r->dst_fd, paths[i]);
			r->ops[i * per + 1].fd = f[i].out;
		}
	}
	if (ret) {
		for (unsigned i = 0; i < m; i++) {
			close_fd(&f[i].in);
			close_fd(&f[i].out);
		}
		return ret;
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
 * Extract: make the directories in root and write every file, one at a
 * time in the archive's order (tar x), or with a deeper backend, the
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

static bool is_dot(const char *name)
{
	return name[0] == '.' && (!name[1] || (name[1] == '.' && !name[2]));
}

/* Names of a directory's entries, as readdir gives them: one block, NUL-separated. */
struct listing {
	char *names;
	size_t len, cap;
	unsigned count;
	unsigned char *types;	/* d_type of each, DT_UNKNOWN where the filesystem gives none */
	unsigned types_cap;
};

static int listing_add(struct listing *l, const char *name, unsigned char type)
{
	size_t n = strlen(name) + 1;

	if (l->len + n > l->cap) {
		size_t cap = l->cap ? l->cap * 2 : 4096;
		char *p;

		while (cap < l->len + n)
			cap *= 2;
		p = realloc(l->names, cap);
		if (!p)
			return -ENOMEM;
		l->names = p;
		l->cap = cap;
	}
	if (l->count == l->types_cap) {
		unsigned cap = l->types_cap ? l->types_cap * 2 : 64;
		unsigned char *t = realloc(l->types, cap);

		if (!t)
			return -ENOMEM;
		l->types = t;
		l->types_cap = cap;
	}
	memcpy(l->names + l->len, name, n);
	l->len += n;
	l->types[l->count++] = type;
	return 0;
}

static void listing_free(struct listing *l)
{
	free(l->names);
	free(l->types);
}

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
		if (is_dot(de->d_name))
			continue;
		if (listing_add(l, de->d_name, de->d_type)) {
			closedir(dir);
			return sample_fail(r->s, r->id, -ENOMEM, "listing");
		}
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
	listing_free(&l);
	run_release(&r);
	return ret;
}

/* ---- copy, read and delete find the tree by listing it, as cp, tar and rm do ---- */

enum found_kind {
	FOUND_ENTER,	/* a directory, before its entries */
	FOUND_FILE,
	FOUND_LEAVE,	/* a directory, after its entries */
};

struct found;
typedef int (*found_fn)(struct tree_run *r, enum found_kind k, const char *path, struct found *f);

/*
 * What discover found, kept when the backend batches (depth > 1): every
 * path in one block, in the order met. With psync each one is acted on
 * at once instead, in the commands' order.
 */
struct found {
	bool keep;
	found_fn act;
	int root;		/* the tree's root descriptor */
	char *names;
	size_t len, cap;
	size_t *off;
	unsigned char *kind;
	size_t n, n_cap;
};

static void found_free(struct found *f)
{
	free(f->names);
	free(f->off);
	free(f->kind);
}

static int found_add(struct tree_run *r, enum found_kind k, const char *path, struct found *f)
{
	size_t n = strlen(path) + 1;

	if (f->len + n > f->cap) {
		size_t cap = f->cap ? f->cap * 2 : 65536;
		char *p;

		while (cap < f->len + n)
			cap *= 2;
		p = realloc(f->names, cap);
		if (!p)
			return sample_fail(r->s, r->id, -ENOMEM, "listing");
		f->names = p;
		f->cap = cap;
	}
	if (f->n == f->n_cap) {
		size_t cap = f->n_cap ? f->n_cap * 2 : 1024;
		size_t *o = realloc(f->off, cap * sizeof(*o));
		unsigned char *kd = o ? realloc(f->kind, cap) : NULL;

		if (o)
			f->off = o;
		if (!o || !kd)
			return sample_fail(r->s, r->id, -ENOMEM, "listing");
		f->kind = kd;
		f->n_cap = cap;
	}
	memcpy(f->names + f->len, path, n);
	f->off[f->n] = f->len;
	f->kind[f->n++] = (unsigned char)k;
	f->len += n;
	return 0;
}

static int found_one(struct tree_run *r, enum found_kind k, const char *path, struct found *f)
{
	return f->keep ? found_add(r, k, path, f) : f->act(r, k, path, f);
}

static const char *found_path(const struct found *f, size_t i)
{
	return f->names + f->off[i];
}

#define TREE_PATH_MAX 8192

/*
 * Depth first from path (relative to root, "" for the root): list the
 * directory (readdir order), then each entry in that order, entering a
 * subdirectory where its entry is met, as fts (rm, find) and cp's own
 * recursion do. An entry of unknown type is stat'ed to tell.
 */
static int discover(struct tree_run *r, int root, const char *path, struct found *f)
{
	struct listing l = { 0 };
	char sub[TREE_PATH_MAX];
	const char *name;
	int dfd, ret;

	dfd = path[0] ? openat(root, path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
		      : dup(root);
	if (dfd < 0)
		return sample_fail(r->s, r->id, -errno, "open %s/%s", root_name(r, root), path);
	ret = list_dir(r, dfd, path, &l);
	close(dfd);
	if (!ret)
		ret = found_one(r, FOUND_ENTER, path, f);
	name = l.names;
	for (unsigned i = 0; i < l.count && !ret; i++, name += strlen(name) + 1) {
		unsigned char type = l.types[i];
		struct stat st;

		if (snprintf(sub, sizeof(sub), "%s%s%s", path, path[0] ? "/" : "", name) >=
		    (int)sizeof(sub)) {
			ret = sample_fail(r->s, r->id, -ENAMETOOLONG, "%s/%s", root_name(r, root), path);
			break;
		}
		if (type == DT_UNKNOWN) {
			if (fstatat(root, sub, &st, AT_SYMLINK_NOFOLLOW)) {
				ret = sample_fail(r->s, r->id, -errno, "stat %s/%s", root_name(r, root), sub);
				break;
			}
			type = S_ISDIR(st.st_mode) ? DT_DIR : DT_REG;
		}
		ret = type == DT_DIR ? discover(r, root, sub, f) : found_one(r, FOUND_FILE, sub, f);
	}
	if (!ret)
		ret = found_one(r, FOUND_LEAVE, path, f);
	listing_free(&l);
	return ret;
}

/* Paths of one kind from a listing kept, in order: files, or directories but the root. */
static const char **found_select(const struct found *f, enum found_kind k, size_t *n)
{
	const char **v = malloc((f->n + 1) * sizeof(*v));

	*n = 0;
	for (size_t i = 0; v && i < f->n; i++)
		if (f->kind[i] == k && found_path(f, i)[0])
			v[(*n)++] = found_path(f, i);
	return v;
}

static unsigned path_depth(const char *p)
{
	unsigned d = 1;

	for (; *p; p++)
		d += *p == '/';
	return d;
}

static int cmp_depth_up(const void *a, const void *b)
{
	unsigned x = path_depth(*(const char *const *)a), y = path_depth(*(const char *const *)b);

	return x < y ? -1 : x > y;
}

/*
 * One kind of operation on each path, depth at a time; with by_level, a
 * batch never holds two depths, so mkdir finds its parent made and rmdir
 * its children gone.
 */
static int each_path(struct tree_run *r, enum tree_op_kind kind, int root, const char **v,
		     size_t n, bool by_level)
{
	unsigned m = 0;
	int ret = 0;

	for (size_t i = 0; i < n && !ret; i++) {
		set_op(&r->ops[m++], kind, root, v[i]);
		if (m < r->io.depth && i + 1 < n &&
		    (!by_level || path_depth(v[i]) == path_depth(v[i + 1])))
			continue;
		ret = issue(r, m);
		if (kind == TOP_UNLINK)
			r->s->tree->files += m;
		else
			r->s->tree->dirs += m;
		m = 0;
	}
	return ret;
}

/* Files through read_files, depth at a time; a test may pause after the first batch. */
static int files_through(struct tree_run *r, const char **v, size_t n, bool copy)
{
	int ret = 0;

	for (size_t i = 0; i < n && !ret; i += r->io.depth) {
		unsigned m = n - i < r->io.depth ? (unsigned)(n - i) : r->io.depth;

		ret = read_files(r, v + i, m, copy);
		if (i == 0)
			test_pause_point(r->id);
	}
	return ret;
}

/* psync: cp -r, one entry at a time as it is met. */
static int copy_one(struct tree_run *r, enum found_kind k, const char *path, struct found *f)
{
	(void)f;
	if (k == FOUND_FILE) {
		int ret = read_files(r, &path, 1, true);

		if (r->s->tree->files == 1)
			test_pause_point(r->id);
		return ret;
	}
	if (k != FOUND_ENTER || !path[0])
		return 0;
	set_op(&r->ops[0], TOP_MKDIR, r->dst_fd, path);
	r->s->tree->dirs++;
	return issue(r, 1);
}

/* psync: tar c, one file at a time as it is met. */
static int read_one(struct tree_run *r, enum found_kind k, const char *path, struct found *f)
{
	(void)f;
	return k == FOUND_FILE ? read_files(r, &path, 1, false) : 0;
}

/* psync: rm -rf, each file as it is met, each directory once it is empty. */
static int remove_one(struct tree_run *r, enum found_kind k, const char *path, struct found *f)
{
	if (k == FOUND_ENTER || (k == FOUND_LEAVE && !path[0]))
		return 0;
	set_op(&r->ops[0], k == FOUND_FILE ? TOP_UNLINK : TOP_RMDIR, f->root, path);
	if (k == FOUND_FILE)
		r->s->tree->files++;
	else
		r->s->tree->dirs++;
	return issue(r, 1);
}

/*
 * A batching backend: the whole tree listed first, then its directories
 * made a level at a time (copy), its files depth at a time, or (delete)
 * its files unlinked and its directories removed deepest level first.
 */
static int act_on_found(struct tree_run *r, struct found *f)
{
	int root = f->root;
	size_t nfiles, ndirs;
	const char **files = found_select(f, FOUND_FILE, &nfiles);
	const char **dirs = found_select(f, FOUND_ENTER, &ndirs);
	int ret = 0;

	if (!files || !dirs) {
		ret = sample_fail(r->s, r->id, -ENOMEM, "listing");
		goto out;
	}
	switch (r->id) {
	case PH_TREE_COPY:
		qsort(dirs, ndirs, sizeof(*dirs), cmp_depth_up);
		ret = each_path(r, TOP_MKDIR, r->dst_fd, dirs, ndirs, true);
		if (!ret)
			ret = files_through(r, files, nfiles, true);
		break;
	case PH_TREE_READ:
		ret = files_through(r, files, nfiles, false);
		break;
	default:
		ret = each_path(r, TOP_UNLINK, root, files, nfiles, false);
		qsort(dirs, ndirs, sizeof(*dirs), cmp_depth_up);
		for (size_t i = 0; i < ndirs / 2; i++) {
			const char *t = dirs[i];

			dirs[i] = dirs[ndirs - 1 - i];
			dirs[ndirs - 1 - i] = t;
		}
		if (!ret)
			ret = each_path(r, TOP_RMDIR, root, dirs, ndirs, true);
		break;
	}
out:
	free(files);
	free(dirs);
	return ret;
}

/* Copy, read or delete the tree at root, found by listing it. */
static int through_tree(struct tree_run *r, int root, found_fn act)
{
	struct found f = { .keep = r->io.depth > 1, .act = act, .root = root };
	int ret;

	ret = discover(r, root, "", &f);
	if (!ret && f.keep)
		ret = act_on_found(r, &f);
	found_free(&f);
	return ret;
}

/* What copy and read found must be the tree: as many files and bytes. */
static int check_found(struct tree_run *r, uint64_t files, uint64_t bytes)
{
	const struct tree_sample *ts = r->s->tree;

	if (ts->files == files && ts->bytes == bytes)
		return 0;
	return sample_fail(r->s, r->id, -EIO, "%s found %llu files of %llu bytes in %s; the tree "
			   "has %llu of %llu", phase_name(r->id), (unsigned long long)ts->files,
			   (unsigned long long)ts->bytes, r->src_dir, (unsigned long long)files,
			   (unsigned long long)bytes);
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
	ret = through_tree(&r, r.src_fd, copy_one);
	if (!ret)
		ret = close_sync(&r, r.dst_fd, r.dst_dir);
	if (!ret)
		ret = check_found(&r, r.t->nfiles, r.t->bytes);
	s->amount = (double)s->tree->files;
out:
	sample_stop(w, s);
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
	ret = through_tree(&r, r.src_fd, read_one);
	sample_stop(w, s);
	if (!ret)
		ret = check_found(&r, r.t->nfiles, r.t->bytes);
	s->amount = (double)s->tree->files;
out:
	sample_stop(w, s);
	run_release(&r);
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
	ret = through_tree(&r, r.src_fd, remove_one);
	if (!ret && r.dst_fd >= 0)
		ret = through_tree(&r, r.dst_fd, remove_one);
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
	if (!ret && s->tree->files != (uint64_t)r.t->nfiles * (r.dst_fd >= 0 ? 2 : 1))
		ret = sample_fail(s, r.id, -EIO, "removed %llu files; the trees had %llu",
				  (unsigned long long)s->tree->files,
				  (unsigned long long)r.t->nfiles * (r.dst_fd >= 0 ? 2 : 1));
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
