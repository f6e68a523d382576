/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef CLYDE_TREE_H
#define CLYDE_TREE_H

/*
 * The tree workloads (--tree): a directory tree generated from a shape
 * and a seed, then extracted, copied, walked, read and deleted as tar x,
 * cp -r, find, tar c and rm -rf do.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* One point of a distribution's quantile function: P(X <= v) = q. */
struct tree_quantile {
	double q;
	double v;
};

#define TREE_MAX_QUANTILES 16

/* A distribution given by its quantiles, interpolated between them. */
struct tree_dist {
	unsigned n;
	struct tree_quantile pt[TREE_MAX_QUANTILES];
	bool log;	/* interpolate log(v): sizes, counts with long tails */
};

enum tree_shape_id {
	TREE_PORTS,
	TREE_SOURCE,
	TREE_MIXED,
	TREE_SHAPES,
};

struct tree_shape {
	enum tree_shape_id id;
	const char *name;		/* "ports" */
	const char *what;		/* one line for --help and the table */
	uint32_t files;			/* at scale 1 */
	struct tree_dist file_size;	/* bytes */
	struct tree_dist files_per_dir;	/* regular files directly in a directory */
	struct tree_dist dir_depth;	/* depth of a directory below the root (1 = top) */
	struct tree_dist name_len;	/* characters in a file's name */
	struct tree_dist dir_name_len;	/* characters in a directory's name */
	const char *source;		/* where the numbers came from */
};

const struct tree_shape *tree_shape_get(enum tree_shape_id id);
const struct tree_shape *tree_shape_find(const char *name);

/* Inverse CDF: the value at u in [0,1). */
double tree_dist_sample(const struct tree_dist *d, double u);

/* One directory or file of a generated tree; paths are relative to its root. */
struct tree_dir {
	uint32_t parent;	/* index in dirs[]; the root's parent is itself */
	uint32_t depth;		/* 0 for the root */
	uint32_t nfiles;	/* regular files directly in it */
	uint32_t nsubdirs;
	const char *path;	/* "" for the root, else "a/b" */
};

struct tree_file {
	uint32_t dir;
	uint64_t size;
	const char *path;	/* "a/b/name" */
	const char *name;	/* points into path */
};

/*
 * A whole tree. dirs[] is in depth-first preorder (as tar lists it), the
 * root first; files[] in the same walk order: a directory's files follow
 * it, before its subdirectories.
 */
struct tree {
	const struct tree_shape *shape;
	double scale;
	uint64_t seed;
	uint32_t ndirs;		/* the root included */
	uint32_t nfiles;
	uint32_t max_depth;
	uint64_t bytes;
	uint64_t hash;		/* FNV-1a 64 of the listing (tree_list's text) */
	struct tree_dir *dirs;
	struct tree_file *files;
	/* dirs[] indices, shallowest first (a parent before its children) */
	uint32_t *by_depth;
	char *names;		/* every path, one allocation */
	size_t names_len;
};

#define TREE_MIN_SCALE		0.001
#define TREE_MAX_SCALE		1000.0
#define TREE_MAX_FILES		(64u << 20)

/*
 * Generate the tree of shape at scale from seed: fully determined by the
 * three, on every platform. 0 or -errno (-EINVAL: the scale makes no files
 * or more than TREE_MAX_FILES).
 */
int tree_generate(const struct tree_shape *shape, double scale, uint64_t seed, struct tree *t);
void tree_free(struct tree *t);

/*
 * The listing the hash is taken over: "d PATH\n" for each directory but
 * the root, "f PATH SIZE\n" for each file, in walk order. Also what
 * --tree-list prints.
 */
void tree_list(const struct tree *t, FILE *out);

/*
 * Parse --tree=SHAPE[:SCALE]. 0, or -EINVAL with the reason in err.
 */
int tree_parse_spec(const char *arg, const struct tree_shape **shape, double *scale,
		    char *err, size_t errlen);

/* ---- The operations the tree phases issue, one batch at a time. ---- */

enum tree_op_kind {
	TOP_MKDIR,	/* mkdirat(dirfd, name, 0700) */
	TOP_CREATE,	/* openat(dirfd, name, O_WRONLY|O_CREAT|O_EXCL|O_NOFOLLOW, 0600): res is the fd */
	TOP_OPEN,	/* openat(dirfd, name, O_RDONLY|O_NOFOLLOW): res is the fd */
	TOP_WRITE,	/* pwrite(fd, buf, len, off) */
	TOP_READ,	/* pread(fd, buf, len, off) */
	TOP_CLOSE,	/* close(fd) */
	TOP_STAT,	/* fstatat(dirfd, name, AT_SYMLINK_NOFOLLOW) or statx: size and mode */
	TOP_UNLINK,	/* unlinkat(dirfd, name, 0) */
	TOP_RMDIR,	/* unlinkat(dirfd, name, AT_REMOVEDIR) */
	TOP_KINDS,
};

/* Names for tables and JSON: "mkdir", "create", ... */
const char *tree_op_name(enum tree_op_kind k);

struct tree_op {
	enum tree_op_kind kind;
	int dirfd;
	const char *name;
	int fd;
	void *buf;
	size_t len;
	uint64_t off;
	int64_t res;		/* the fd, the bytes moved, or 0; -errno on failure */
	uint64_t size;		/* TOP_STAT: st_size */
	uint32_t mode;		/* TOP_STAT: st_mode */
	uint64_t t_start;	/* ns (now_ns), set by the backend at issue */
	uint64_t t_end;		/* ns, at completion */
	bool via_ring;		/* went through io_uring, not a plain system call */
};

struct tree_io;

/*
 * How a batch of independent operations is carried out: one system call
 * each (psync), or through io_uring (uring), falling back to the system
 * call per operation kind the kernel or liburing cannot queue. Each
 * engine's row names its own (engines/engine.h).
 */
struct tree_io_ops {
	const char *name;
	/* How the plan says they are issued: "system calls", "io_uring". */
	const char *via;
	/* depth: operations in flight at most; desc says what was set up. 0 or -errno. */
	int (*setup)(struct tree_io *io, unsigned depth, char *desc, size_t len);
	/*
	 * Run n <= depth independent operations; each gets res, t_start,
	 * t_end and via_ring. A short read or write is left as it is (the
	 * phase finishes it). Returns 0, or -errno when the engine itself
	 * failed (then no op may be trusted).
	 */
	int (*run)(struct tree_io *io, struct tree_op *ops, unsigned n);
	void (*teardown)(struct tree_io *io);
};

struct tree_io {
	const struct tree_io_ops *ops;
	unsigned depth;
	/* bit k set: kind k goes through the ring (uring); 0 for psync */
	unsigned ring_kinds;
	void *priv;
};

#endif
