// SPDX-License-Identifier: BSD-2-Clause
/*
 * One tree phase on one worker: its buffers, backend and roots made
 * before the clock; its operations issued in batches and recorded per
 * kind; directories listed; the sync that closes a phase that wrote; and
 * between phases, the trees' eviction and residency.
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

#include "engines/engine.h"
#include "lib/rng.h"
#include "lib/signals.h"
#include "lib/timing.h"
#include "phases/pattern.h"
#include "phases/tree_run.h"
#include "sys/cache.h"
#include "sys/compat.h"
#include "sys/residency.h"

struct tree_state *tree_state_of(struct worker *w)
{
	if (!w->trees)
		w->trees = calloc(1, sizeof(*w->trees));
	return w->trees;
}

/* The directory a root's ops are relative to, for messages. */
const char *tree_root_name(const struct tree_run *r, int fd)
{
	if (fd == r->dst_fd)
		return r->dst_dir;
	if (fd == r->src_fd)
		return r->src_dir;
	return r->w->b->workdir;
}

void tree_close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

void tree_run_release(struct tree_run *r)
{
	if (r->io_ready)
		r->io.ops->teardown(&r->io);
	r->io_ready = false;
	tree_close_fd(&r->top_fd);
	tree_close_fd(&r->src_fd);
	tree_close_fd(&r->dst_fd);
	free(r->ops);
	free(r->slot);
	free(r->wbuf);
	free(r->bufs);
	free(r->file_first);
}

/* Buffers, the backend and the roots' descriptors: everything before the clock. */
int tree_run_prepare(struct tree_run *r, struct worker *w, struct phase_sample *s,
		       enum phase_id id)
{
	const struct run_plan *p = w->b->plan;
	const struct tree *t = w->b->tree;
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
	r->io.ops = p->engine->tree_io;
	ret = r->io.ops->setup(&r->io, p->tree_depth, desc, sizeof(desc));
	if (ret)
		return sample_fail(s, id, ret, "set up %s for the tree (%s)", r->io.ops->name, desc);
	r->io_ready = true;
	snprintf(s->tree->io_desc, sizeof(s->tree->io_desc), "%s", desc);
	s->tree->ring_kinds = r->io.ring_kinds;
	r->ops = calloc(r->io.depth * 2, sizeof(*r->ops));
	r->slot = calloc(r->io.depth * 2, sizeof(*r->slot));
	r->chunk = id == PH_TREE_COPY ? TREE_CHUNK : TREE_TAR_CHUNK;
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

int tree_open_root(struct tree_run *r, const char *dir, bool make, int *fd)
{
	if (make && mkdir(dir, 0700))
		return sample_fail(r->s, r->id, -errno, "mkdir %s", dir);
	*fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (*fd < 0)
		return sample_fail(r->s, r->id, -errno, "open %s", dir);
	return 0;
}

void tree_record(struct tree_run *r, const struct tree_op *op)
{
	struct tree_sample *ts = r->s->tree;

	hist_record(&ts->op[op->kind], op->t_end - op->t_start);
	if (op->via_ring)
		ts->via_ring[op->kind]++;
	sample_latency(r->s, op->t_start, op->t_end, 0);
}

int tree_issue_ops(struct tree_run *r, struct tree_op *ops, unsigned n, const char *dir)
{
	int ret = 0;

	/* a copy's opens and closes come two per file: at most depth at once */
	for (unsigned i = 0; i < n && !ret; i += r->io.depth)
		ret = r->io.ops->run(&r->io, ops + i, n - i < r->io.depth ? n - i : r->io.depth);
	if (ret)
		return sample_fail(r->s, r->id, ret, "%s backend", r->io.ops->name);
	for (unsigned i = 0; i < n; i++)
		tree_record(r, &ops[i]);
	for (unsigned i = 0; i < n; i++) {
		const struct tree_op *op = &ops[i];

		if (op->res < 0)
			return sample_fail(r->s, r->id, (int)op->res, "%s %s/%s",
					   tree_op_name(op->kind),
					   dir ? dir : tree_root_name(r, op->dirfd), op->name);
	}
	if (clyde_stop_requested())
		return sample_fail(r->s, r->id, -EINTR, "tree");
	return 0;
}

int tree_issue(struct tree_run *r, unsigned n)
{
	return tree_issue_ops(r, r->ops, n, NULL);
}

void tree_set_op(struct tree_op *op, enum tree_op_kind kind, int dirfd, const char *name)
{
	memset(op, 0, sizeof(*op));
	op->kind = kind;
	op->dirfd = dirfd;
	op->name = name;
	op->fd = -1;
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
int tree_close_sync(struct tree_run *r, int root, const char *dir)
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

static bool is_dot(const char *name)
{
	return name[0] == '.' && (!name[1] || (name[1] == '.' && !name[2]));
}

/* The names of a directory's entries (each tagged with its d_type), as readdir gives them. */
int tree_list_dir(struct tree_run *r, int dfd, const char *path, struct name_pool *l)
{
	struct tree_sample *ts = r->s->tree;
	uint64_t t0 = now_ns();
	int fd = dup(dfd);
	struct dirent *de;
	DIR *dir;

	name_pool_reset(l);
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
		if (name_pool_add(l, de->d_name, de->d_type)) {
			closedir(dir);
			return sample_fail(r->s, r->id, -ENOMEM, "listing");
		}
	}
	closedir(dir);
	hist_record(&ts->list, now_ns() - t0);
	return 0;
}

/* Each file of a tree (and its copy): evicted from the page cache after a phase. */
int tree_evict(const struct worker *w, char *err, size_t errlen)
{
	const struct tree *t = w->b->tree;
	char path[WORKPATH_MAX + 8192];
	int ret = 0;

	for (int copy = 0; copy < 2 && !ret; copy++) {
		const char *root = copy ? w->copy_dir : w->tree_dir;

		if (!w->trees || !(copy ? w->trees->copy_cached : w->trees->extracted))
			continue;
		/* the copy is only written once: evicted then, never again */
		w->trees->copy_cached &= !copy;
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
