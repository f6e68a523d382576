// SPDX-License-Identifier: BSD-2-Clause
/*
 * Copy, read and delete find the tree by listing it, as cp -r, tar c and
 * rm -rf do, depth first in readdir order: with psync each entry is acted
 * on as it is met; a batching backend lists the whole tree first, then
 * acts on what it found, depth operations at a time, where one of the
 * phase's kinds goes through its ring (else it acts as psync does).
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

#include "phases/tree_run.h"

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
	struct name_pool kept;	/* tagged with their found_kind */
};

static int found_one(struct tree_run *r, enum found_kind k, const char *path, struct found *f)
{
	if (!f->keep)
		return f->act(r, k, path, f);
	return name_pool_add(&f->kept, path, (unsigned char)k)
	       ? sample_fail(r->s, r->id, -ENOMEM, "listing") : 0;
}

/*
 * Depth first from path (relative to root, "" for the root): list the
 * directory (readdir order), then each entry in that order, entering a
 * subdirectory where its entry is met, as fts (rm, find) and cp's own
 * recursion do. An entry of unknown type is stat'ed to tell.
 */
static int discover(struct tree_run *r, int root, const char *path, struct found *f)
{
	struct name_pool l = { 0 };
	char sub[TREE_PATH_MAX];
	int dfd, ret;

	dfd = path[0] ? openat(root, path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
		      : dup(root);
	if (dfd < 0)
		return sample_fail(r->s, r->id, -errno, "open %s/%s", tree_root_name(r, root), path);
	ret = tree_list_dir(r, dfd, path, &l);
	close(dfd);
	if (!ret)
		ret = found_one(r, FOUND_ENTER, path, f);
	for (size_t i = 0; i < l.count && !ret; i++) {
		const char *name = name_pool_get(&l, i);
		unsigned char type = l.tag[i];
		struct stat st;

		if (snprintf(sub, sizeof(sub), "%s%s%s", path, path[0] ? "/" : "", name) >=
		    (int)sizeof(sub)) {
			ret = sample_fail(r->s, r->id, -ENAMETOOLONG, "%s/%s", tree_root_name(r, root), path);
			break;
		}
		if (type == DT_UNKNOWN) {
			if (fstatat(root, sub, &st, AT_SYMLINK_NOFOLLOW)) {
				ret = sample_fail(r->s, r->id, -errno, "stat %s/%s", tree_root_name(r, root), sub);
				break;
			}
			type = S_ISDIR(st.st_mode) ? DT_DIR : DT_REG;
		}
		ret = type == DT_DIR ? discover(r, root, sub, f) : found_one(r, FOUND_FILE, sub, f);
	}
	if (!ret)
		ret = found_one(r, FOUND_LEAVE, path, f);
	name_pool_free(&l);
	return ret;
}

/* Paths of one kind from a listing kept, in order: files, or directories but the root. */
static const char **found_select(const struct found *f, enum found_kind k, size_t *n)
{
	const struct name_pool *p = &f->kept;
	const char **v = malloc((p->count + 1) * sizeof(*v));

	*n = 0;
	for (size_t i = 0; v && i < p->count; i++)
		if (p->tag[i] == k && name_pool_get(p, i)[0])
			v[(*n)++] = name_pool_get(p, i);
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
		tree_set_op(&r->ops[m++], kind, root, v[i]);
		if (m < r->io.depth && i + 1 < n &&
		    (!by_level || path_depth(v[i]) == path_depth(v[i + 1])))
			continue;
		ret = tree_issue(r, m);
		if (kind == TOP_UNLINK) {
			r->s->tree->files += m;
			sample_work(r->s, m);
		} else {
			r->s->tree->dirs += m;
		}
		m = 0;
	}
	return ret;
}

/* Files through tree_read_files, depth at a time; a test may pause after the first batch. */
static int files_through(struct tree_run *r, const char **v, size_t n, bool copy)
{
	int ret = 0;

	for (size_t i = 0; i < n && !ret; i += r->io.depth) {
		unsigned m = n - i < r->io.depth ? (unsigned)(n - i) : r->io.depth;

		ret = tree_read_files(r, v + i, m, copy);
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
		int ret = tree_read_files(r, &path, 1, true);

		if (r->s->tree->files == 1)
			test_pause_point(r->id);
		return ret;
	}
	if (k != FOUND_ENTER || !path[0])
		return 0;
	tree_set_op(&r->ops[0], TOP_MKDIR, r->dst_fd, path);
	r->s->tree->dirs++;
	return tree_issue(r, 1);
}

/* psync: tar c, one file at a time as it is met. */
static int read_one(struct tree_run *r, enum found_kind k, const char *path, struct found *f)
{
	(void)f;
	return k == FOUND_FILE ? tree_read_files(r, &path, 1, false) : 0;
}

/* psync: rm -rf, each file as it is met, each directory once it is empty. */
static int remove_one(struct tree_run *r, enum found_kind k, const char *path, struct found *f)
{
	if (k == FOUND_ENTER || (k == FOUND_LEAVE && !path[0]))
		return 0;
	tree_set_op(&r->ops[0], k == FOUND_FILE ? TOP_UNLINK : TOP_RMDIR, f->root, path);
	if (k == FOUND_FILE) {
		r->s->tree->files++;
		sample_work(r->s, 1);
	} else {
		r->s->tree->dirs++;
	}
	return tree_issue(r, 1);
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

#define KIND(k)		(1u << (k))
/* The kinds of operation each phase acts with. */
#define COPY_KINDS	(KIND(TOP_MKDIR) | KIND(TOP_STAT) | KIND(TOP_CREATE) | KIND(TOP_OPEN) | \
			 KIND(TOP_READ) | KIND(TOP_WRITE) | KIND(TOP_CLOSE))
#define READ_KINDS	(KIND(TOP_STAT) | KIND(TOP_OPEN) | KIND(TOP_READ) | KIND(TOP_CLOSE))
#define DELETE_KINDS	(KIND(TOP_UNLINK) | KIND(TOP_RMDIR))

/* Copy, read or delete (as r's phase says) the tree at root, found by listing it. */
int tree_through(struct tree_run *r, int root)
{
	found_fn act = r->id == PH_TREE_COPY ? copy_one : r->id == PH_TREE_READ ? read_one : remove_one;
	unsigned kinds = r->id == PH_TREE_COPY ? COPY_KINDS : r->id == PH_TREE_READ ? READ_KINDS :
			 DELETE_KINDS;
	/*
	 * Listing the whole tree first pays for itself only by filling the
	 * ring: with none of the phase's kinds in it (uring's delete), rm -rf's
	 * order is the faster (2% on tmpfs and ext4).
	 */
	struct found f = { .keep = r->io.depth > 1 && (r->io.ring_kinds & kinds), .act = act,
			   .root = root };
	int ret;

	ret = discover(r, root, "", &f);
	if (!ret && f.keep)
		ret = act_on_found(r, &f);
	name_pool_free(&f.kept);
	return ret;
}

/* What copy and read found must be the tree: as many files and bytes. */
int tree_check_found(struct tree_run *r, uint64_t files, uint64_t bytes)
{
	const struct tree_sample *ts = r->s->tree;

	if (ts->files == files && ts->bytes == bytes)
		return 0;
	return sample_fail(r->s, r->id, -EIO, "%s found %llu files of %llu bytes in %s; the tree "
			   "has %llu of %llu", phase_name(r->id), (unsigned long long)ts->files,
			   (unsigned long long)ts->bytes, r->src_dir, (unsigned long long)files,
			   (unsigned long long)bytes);
}
