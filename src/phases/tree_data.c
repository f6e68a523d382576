// SPDX-License-Identifier: BSD-2-Clause
/*
 * The files' data: written by extract, read by read, read and written by
 * copy, a piece per file per round (tar's record for extract and read,
 * cp's buffer for copy), so a batch of files moves
 * together through a queued backend.
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
#include "phases/tree_run.h"

/* Close what a failed batch left open, untimed. */
static void close_all(int *fds, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		tree_close_fd(&fds[i]);
}

/*
 * Files [first, first + m) at once, m <= depth: create them, write their
 * data a chunk per file per round, close them (extract).
 */
int tree_write_files(struct tree_run *r, uint32_t first, unsigned m)
{
	const struct tree *t = r->t;
	int fds[m];
	uint64_t done[m];
	unsigned n;
	int ret;

	for (unsigned i = 0; i < m; i++) {
		tree_set_op(&r->ops[i], TOP_CREATE, r->src_fd, t->files[first + i].path);
		fds[i] = -1;
		done[i] = 0;
	}
	ret = tree_issue(r, m);
	for (unsigned i = 0; i < m; i++)
		fds[i] = r->ops[i].res >= 0 ? (int)r->ops[i].res : -1;
	while (!ret) {
		n = 0;
		for (unsigned i = 0; i < m; i++) {
			const struct tree_file *f = &t->files[first + i];
			struct tree_op *op = &r->ops[n];

			if (done[i] >= f->size)
				continue;
			tree_set_op(op, TOP_WRITE, r->src_fd, f->path);
			op->fd = fds[i];
			op->buf = r->wbuf;
			op->len = f->size - done[i] < r->chunk ? (size_t)(f->size - done[i]) : r->chunk;
			op->off = done[i];
			r->slot[n++] = i;
		}
		if (!n)
			break;
		ret = tree_issue(r, n);
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
		tree_set_op(&r->ops[i], TOP_CLOSE, r->src_fd, t->files[first + i].path);
		r->ops[i].fd = fds[i];
	}
	ret = tree_issue(r, m);
	r->s->tree->files += m;
	sample_work(r->s, m);
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
			tree_set_op(op, TOP_WRITE, r->dst_fd, rd->name);
			op->fd = f[r->slot[k]].out;
			op->buf = rd->buf;
			op->len = (size_t)rd->res;
			op->off = rd->off;
			r->slot[r->io.depth + w++] = k;
		}
		if (!w)
			break;
		ret = tree_issue_ops(r, &r->ops[r->io.depth], w, NULL);
		for (unsigned k = 0; k < w && !ret; k++) {
			struct tree_op *op = &r->ops[r->io.depth + k];
			struct tree_op *rd = &r->ops[r->slot[r->io.depth + k]];

			if (op->res == 0) {
				ret = sample_fail(r->s, r->id, -EIO, "write %s/%s: wrote nothing",
						  r->dst_dir, op->name);
				break;
			}
			/* what is left of this read goes in the next round */
			rd->buf = (char *)rd->buf + op->res;
			rd->off += (uint64_t)op->res;
			rd->res -= op->res;
			f[r->slot[r->slot[r->io.depth + k]]].done += (uint64_t)op->res;
			r->s->tree->bytes += (uint64_t)op->res;
		}
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
		tree_set_op(op, TOP_READ, r->src_fd, paths[i]);
		op->fd = f[i].in;
		op->buf = r->bufs + (size_t)*n * TREE_CHUNK;
		op->len = copy || left > r->chunk ? r->chunk : (size_t)left;
		op->off = f[i].done;
		r->slot[(*n)++] = i;
	}
	if (!*n)
		return 0;
	ret = tree_issue(r, *n);
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
int tree_read_files(struct tree_run *r, const char *const *paths, unsigned m, bool copy)
{
	unsigned per = copy ? 2 : 1, n;
	struct file_io f[m];
	int ret;

	for (unsigned i = 0; i < m; i++) {
		tree_set_op(&r->ops[i], TOP_STAT, r->src_fd, paths[i]);
		f[i] = (struct file_io){ .in = -1, .out = -1 };
	}
	ret = tree_issue(r, m);
	for (unsigned i = 0; i < m && !ret; i++) {
		f[i].size = r->ops[i].size;
		if (!S_ISREG(r->ops[i].mode))
			ret = sample_fail(r->s, r->id, -EIO, "%s/%s is not a regular file",
					  r->src_dir, paths[i]);
	}
	if (ret)
		return ret;
	for (unsigned i = 0; i < m; i++) {
		tree_set_op(&r->ops[i * per], TOP_OPEN, r->src_fd, paths[i]);
		if (copy)
			tree_set_op(&r->ops[i * per + 1], TOP_CREATE, r->dst_fd, paths[i]);
	}
	ret = tree_issue(r, m * per);
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
		tree_set_op(&r->ops[i * per], TOP_CLOSE, r->src_fd, paths[i]);
		r->ops[i * per].fd = f[i].in;
		if (copy) {
			tree_set_op(&r->ops[i * per + 1], TOP_CLOSE, r->dst_fd, paths[i]);
			r->ops[i * per + 1].fd = f[i].out;
		}
	}
	if (ret) {
		for (unsigned i = 0; i < m; i++) {
			tree_close_fd(&f[i].in);
			tree_close_fd(&f[i].out);
		}
		return ret;
	}
	ret = tree_issue(r, m * per);
	r->s->tree->files += m;
	sample_work(r->s, m);
	return ret;
}
