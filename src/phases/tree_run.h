/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef CLYDE_TREE_RUN_H
#define CLYDE_TREE_RUN_H

/*
 * What the tree phases share: one phase on one worker (struct tree_run),
 * its batches of operations, its listings and its closing sync
 * (tree_run.c); the files' data read, written and copied (tree_data.c);
 * copy, read and delete finding the tree by listing it (tree_find.c).
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "phases/bench.h"
#include "tree/name_pool.h"
#include "tree/tree.h"

/* Bytes per read or write: cp's buffer size on Linux. */
#define TREE_CHUNK (128u << 10)
/* What tar x and tar c move a file's data in: GNU tar's record, 20 blocks of 512. */
#define TREE_TAR_CHUNK 10240u

/* The longest path below a tree's root clyde builds. */
#define TREE_PATH_MAX 8192

/* What a worker has on disk between the tree phases. */
struct tree_state {
	bool extracted;
	bool copied;
	bool copy_cached;	/* the copy's pages not yet evicted: only copy writes them */
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
	size_t chunk;		/* bytes per read or write: tar's record, or cp's buffer */
	char *wbuf;		/* extract's data, TREE_CHUNK bytes */
	char *bufs;		/* one TREE_CHUNK buffer per op in flight */
	uint32_t *file_first;	/* index in t->files of each directory's first file */
	int top_fd;		/* the private work directory */
	int src_fd;		/* the tree's root */
	int dst_fd;		/* the copy's root */
	const char *src_dir;
	const char *dst_dir;
};


struct tree_state *tree_state_of(struct worker *w);
/* The directory a root's ops are relative to, for messages. */
const char *tree_root_name(const struct tree_run *r, int fd);
void tree_close_fd(int *fd);
/* Buffers, the backend and the roots' descriptors: everything before the clock. */
int tree_run_prepare(struct tree_run *r, struct worker *w, struct phase_sample *s,
		       enum phase_id id);
void tree_run_release(struct tree_run *r);
int tree_open_root(struct tree_run *r, const char *dir, bool make, int *fd);
void tree_record(struct tree_run *r, const struct tree_op *op);
/*
 * Run n ops as one batch and record them; the first failure is the
 * phase's, named by its operation and path (under dir, or the root its
 * dirfd is). 0 or -errno.
 */
int tree_issue_ops(struct tree_run *r, struct tree_op *ops, unsigned n, const char *dir);
/* tree_issue_ops of r's first n ops, named under their roots. */
int tree_issue(struct tree_run *r, unsigned n);
void tree_set_op(struct tree_op *op, enum tree_op_kind kind, int dirfd, const char *name);
/* The sync that closes extract, copy and delete, inside the timing. */
int tree_close_sync(struct tree_run *r, int root, const char *dir);
int tree_list_dir(struct tree_run *r, int dfd, const char *path, struct name_pool *l);

/* tree_data.c */
/*
 * Files [first, first + m) at once, m <= depth: create them, write their
 * data a chunk per file per round, close them (extract).
 */
int tree_write_files(struct tree_run *r, uint32_t first, unsigned m);
/*
 * m files (m <= depth) read through, or copied to the copy tree, as tar c
 * and cp -r do: stat, open (and create the copy), a chunk per file per
 * round, close.
 */
int tree_read_files(struct tree_run *r, const char *const *paths, unsigned m, bool copy);

/* tree_find.c */
/* Copy, read or delete (as r's phase says) the tree at root, found by listing it. */
int tree_through(struct tree_run *r, int root);
/* What copy and read found must be the tree: as many files and bytes. */
int tree_check_found(struct tree_run *r, uint64_t files, uint64_t bytes);

#endif
