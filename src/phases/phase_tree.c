// SPDX-License-Identifier: BSD-2-Clause
/*
 * The tree phases (--tree): the generated tree is extracted as tar x
 * does (from the generator's list, as tar from its archive), walked as
 * find, and copied, read and deleted as cp -r, tar c and rm -rf, which
 * find the tree by listing it (tree_find.c). Every operation goes through
 * a tree_io backend in batches of independent operations: one at a time
 * in the commands' own order with psync; with io_uring, depth at a time.
 * Extract, copy and delete end with a sync that waits, inside their
 * timing, as the file tests do.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/signals.h"
#include "phases/bench.h"
#include "phases/tree_run.h"

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
			ret = tree_issue(r, n);
			n = 0;
		}
		level = d->depth;
		tree_set_op(&r->ops[n++], TOP_MKDIR, root, d->path);
		r->s->tree->dirs++;
	}
	if (!ret && n)
		ret = tree_issue(r, n);
	return ret;
}

static int make_dir(struct tree_run *r, int root, uint32_t d)
{
	tree_set_op(&r->ops[0], TOP_MKDIR, root, r->t->dirs[d].path);
	r->s->tree->dirs++;
	return tree_issue(r, 1);
}

typedef int (*files_fn)(struct tree_run *r, uint32_t first, unsigned m);

static int write_batch(struct tree_run *r, uint32_t first, unsigned m)
{
	return tree_write_files(r, first, m);
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

int phase_tree_extract(struct worker *w, struct phase_sample *s)
{
	struct tree_run r;
	int ret = tree_run_prepare(&r, w, s, PH_TREE_EXTRACT);

	if (!ret)
		ret = tree_open_root(&r, w->tree_dir, true, &r.src_fd);
	if (ret)
		goto out;
	w->trees->extracted = true;
	sample_start(w, s);
	ret = populate(&r, r.src_fd, write_batch);
	if (!ret)
		ret = tree_close_sync(&r, r.src_fd, r.src_dir);
	s->amount = (double)s->tree->files;
out:
	sample_stop(w, s);
	tree_run_release(&r);
	return ret;
}

/* stat what a listing names, in its order; count files, directories and bytes. */
static int stat_listing(struct tree_run *r, int dfd, const char *path, const struct name_pool *l)
{
	struct tree_sample *ts = r->s->tree;
	char dir[WORKPATH_MAX + TREE_PATH_MAX];
	unsigned n = 0;
	int ret = 0;

	snprintf(dir, sizeof(dir), "%s%s%s", r->src_dir, path[0] ? "/" : "", path);
	for (size_t i = 0; i < l->count && !ret; i++) {
		tree_set_op(&r->ops[n++], TOP_STAT, dfd, name_pool_get(l, i));
		if (n < r->io.depth && i + 1 < l->count)
			continue;
		ret = tree_issue_ops(r, r->ops, n, dir);
		for (unsigned k = 0; k < n && !ret; k++) {
			const struct tree_op *op = &r->ops[k];

			if (S_ISDIR(op->mode)) {
				ts->dirs++;
			} else {
				ts->files++;
				ts->bytes += op->size;
			}
			ts->entries++;
			sample_work(r->s, 1);
		}
		n = 0;
	}
	return ret;
}

/*
 * Every directory in walk order: list it, then stat each entry. What it
 * found must be the tree: as many files, directories and bytes.
 */
int phase_tree_walk(struct worker *w, struct phase_sample *s)
{
	struct name_pool l = { 0 };
	struct tree_run r;
	const struct tree *t;
	int ret = tree_run_prepare(&r, w, s, PH_TREE_WALK);

	if (!ret)
		ret = tree_open_root(&r, w->tree_dir, false, &r.src_fd);
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
		ret = tree_list_dir(&r, dfd, path, &l);
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
	name_pool_free(&l);
	tree_run_release(&r);
	return ret;
}

int phase_tree_copy(struct worker *w, struct phase_sample *s)
{
	struct tree_run r;
	int ret = tree_run_prepare(&r, w, s, PH_TREE_COPY);

	if (!ret)
		ret = tree_open_root(&r, w->tree_dir, false, &r.src_fd);
	if (!ret)
		ret = tree_open_root(&r, w->copy_dir, true, &r.dst_fd);
	if (ret)
		goto out;
	w->trees->copied = w->trees->copy_cached = true;
	sample_start(w, s);
	ret = tree_through(&r, r.src_fd);
	if (!ret)
		ret = tree_close_sync(&r, r.dst_fd, r.dst_dir);
	if (!ret)
		ret = tree_check_found(&r, r.t->nfiles, r.t->bytes);
	s->amount = (double)s->tree->files;
out:
	sample_stop(w, s);
	tree_run_release(&r);
	return ret;
}

int phase_tree_read(struct worker *w, struct phase_sample *s)
{
	struct tree_run r;
	int ret = tree_run_prepare(&r, w, s, PH_TREE_READ);

	if (!ret)
		ret = tree_open_root(&r, w->tree_dir, false, &r.src_fd);
	if (ret)
		goto out;
	sample_start(w, s);
	ret = tree_through(&r, r.src_fd);
	sample_stop(w, s);
	if (!ret)
		ret = tree_check_found(&r, r.t->nfiles, r.t->bytes);
	s->amount = (double)s->tree->files;
out:
	sample_stop(w, s);
	tree_run_release(&r);
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
	int ret = tree_run_prepare(&r, w, s, PH_TREE_DELETE);

	if (!ret)
		ret = tree_open_root(&r, w->tree_dir, false, &r.src_fd);
	if (!ret && w->trees->copied)
		ret = tree_open_root(&r, w->copy_dir, false, &r.dst_fd);
	if (ret)
		goto out;
	sample_start(w, s);
	ret = tree_through(&r, r.src_fd);
	if (!ret && r.dst_fd >= 0)
		ret = tree_through(&r, r.dst_fd);
	if (!ret) {
		tree_set_op(&r.ops[roots++], TOP_RMDIR, r.top_fd, base_name(w->tree_dir));
		if (r.dst_fd >= 0)
			tree_set_op(&r.ops[roots++], TOP_RMDIR, r.top_fd, base_name(w->copy_dir));
		ret = tree_issue(&r, roots);
		s->tree->dirs += roots;
	}
	if (!ret) {
		w->trees->extracted = w->trees->copied = false;
		ret = tree_close_sync(&r, -1, w->b->workdir);
	}
	if (!ret && s->tree->files != (uint64_t)r.t->nfiles * (r.dst_fd >= 0 ? 2 : 1))
		ret = sample_fail(s, r.id, -EIO, "removed %llu files; the trees had %llu",
				  (unsigned long long)s->tree->files,
				  (unsigned long long)r.t->nfiles * (r.dst_fd >= 0 ? 2 : 1));
	s->amount = (double)s->tree->files;
out:
	sample_stop(w, s);
	tree_run_release(&r);
	return ret;
}

void phase_tree_cleanup(struct worker *w)
{
	free(w->trees);
	w->trees = NULL;
}
