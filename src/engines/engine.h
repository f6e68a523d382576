/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef CLYDE_ENGINE_H
#define CLYDE_ENGINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct tree_io_ops;
struct tree_op;

enum io_op {
	IO_READ,
	IO_WRITE,
};

/* One chunk-sized request; the phase owns it, the engine fills res. */
struct io_req {
	enum io_op op;
	int fd;
	void *buf;
	size_t len;
	uint64_t off;
	ssize_t res;		/* bytes moved, or -errno */
	uint64_t t_start;	/* ns, set by the phase for latency */
	unsigned slot;		/* the phase's own index */
	unsigned buf_index;	/* which of engine_params' buffers holds buf */
	int state;		/* the phase's own state machine */
	uint64_t chunk;		/* the phase's own chunk number */
};

struct engine_params {
	unsigned depth;		/* requests in flight at most */
	bool direct;
	int rw_flags;		/* RWF_* for every read and write (RWF_DONTCACHE) */
	/*
	 * The phase's buffers, for engines that register them: one of
	 * buf_len bytes per slot (index 0..depth-1), then the write pool
	 * (index depth, pool_len bytes) when there is one.
	 */
	char *bufs;
	size_t buf_len;
	char *pool;
	size_t pool_len;
};

struct engine {
	const struct engine_ops *ops;
	unsigned depth;
	void *priv;
};

/* The engine may run requests at submit (psync) or later (queued). */
#define ENGINE_F_QUEUED		(1u << 0)
/*
 * It moves no data (null): never chosen by --engine=auto, and a run that
 * checks its data (--verify) cannot use it.
 */
#define ENGINE_F_NO_DATA	(1u << 1)
/*
 * Its queue is kept by a library that does blocking I/O underneath
 * (glibc's threads, NetBSD's one worker, DragonFly's librt): chosen only
 * by name, never by --engine=auto.
 */
#define ENGINE_F_NOT_AUTO	(1u << 2)
/* It takes no per-request flags (RWF_*): --cache=uncached cannot use it. */
#define ENGINE_F_NO_RW_FLAGS	(1u << 3)

/*
 * One engine: one file that ends with its ops, one row in engine.c's
 * table. The core finds it by name and asks its flags and fields; it never
 * compares it with a particular engine.
 */
struct engine_ops {
	const char *name;
	unsigned flags;
	/* Why the engine cannot be used in this build, or NULL. */
	const char *unavailable;
	/*
	 * How the tree phases issue their operations with this engine
	 * (tree_io_psync where it has no way of its own); NULL only on an
	 * engine that is unavailable.
	 */
	const struct tree_io_ops *tree_io;
	/* The tree phases' operations in flight unless --iodepth says. */
	unsigned tree_depth;
	/*
	 * Can this kernel run it at this depth? 0 with what it set up in
	 * desc ("SINGLE_ISSUER|DEFER_TASKRUN"), or -errno with the reason.
	 */
	int (*probe)(unsigned depth, char *desc, size_t len);
	int (*setup)(struct engine *e, const struct engine_params *p);
	int (*open)(struct engine *e, const char *path, int flags, mode_t mode, int *fd);
	/*
	 * Take fd, opened by the caller, as open would have left it: the
	 * caller checked that descriptor (clyde-zcav's guard of -w), so the
	 * path is never opened again. NULL when open does nothing past
	 * open(2). close closes it.
	 */
	int (*adopt)(struct engine *e, int fd);
	/* Queue n requests; 0 or -errno for a failure of the engine itself. */
	int (*submit)(struct engine *e, struct io_req *const *reqs, unsigned n);
	/* Wait for at least min completions; returns how many were stored. */
	int (*reap)(struct engine *e, unsigned min, struct io_req **done, unsigned max);
	int (*close)(struct engine *e, int fd);
	void (*teardown)(struct engine *e);
};

extern const struct engine_ops engine_psync;
/* engine_uring.c, or engine_uring_stub.c when liburing was not found. */
extern const struct engine_ops engine_uring;
/* engine_aio.c (POSIX AIO), or engine_aio_stub.c when the system has none. */
extern const struct engine_ops engine_aio;
/* Completes every request at once and moves nothing: clyde's own cost. */
extern const struct engine_ops engine_null;

/* The tree phases' ways, which the engines' rows point at. */
extern const struct tree_io_ops tree_io_psync;
/* The psync way for one op (tree_io_psync.c): what the uring backend falls back to. */
void tree_op_sync(struct tree_op *op);
/* tree_io_uring.c: only in a build with liburing. */
extern const struct tree_io_ops tree_io_uring;

/*
 * The requests of an engine that completes them at submit (psync, null),
 * waiting in order to be reaped: cap slots, which the engine allocates.
 */
struct done_queue {
	unsigned head, count, cap;
	struct io_req **slot;
};

/* 0, or -EBUSY when cap requests wait already. */
int done_queue_push(struct done_queue *q, struct io_req *r);
/* Up to max of the oldest into done: how many. */
unsigned done_queue_pop(struct done_queue *q, struct io_req **done, unsigned max);

/* All engines clyde knows, built or not, for --version and lookups. */
const struct engine_ops *const *engine_table(size_t *count);
const struct engine_ops *engine_find(const char *name);
/* "psync, uring": every engine's name, in the table's order, for messages. */
void engine_names(char *buf, size_t len);
/*
 * For test programs only (C11 has no constructors): add a row after
 * clyde's own. 0, -EEXIST when the name is taken, -ENOSPC when full.
 * clyde's engines are rows of the table in engine.c, never registered.
 */
int engine_register(const struct engine_ops *ops);

/* What engine_choose took. */
struct engine_choice {
	const struct engine_ops *ops;
	unsigned depth;		/* requests in flight: the depth asked, or 1 */
	char desc[160];		/* what the engine set up, or why it cannot run here */
	/* auto fell back to psync: the last engine refused ("none"), and why */
	const char *refused;
	char why[160];
};

/*
 * --engine=NAME (or auto) at depth, the one rule of every program. A
 * named engine runs at depth when it keeps requests in flight, at 1 when
 * it does not (depth above 1 is then -EINVAL). auto at depth 1 is psync:
 * a ring does one request at a time no faster than pread. auto above 1 is
 * the first engine of the table that keeps requests in flight, moves data,
 * is not ENGINE_F_NOT_AUTO and probes at that depth; when none does, psync at depth 1 with refused
 * and why set, for the caller's note. 0, -ENOENT for a name not in the
 * table, -EINVAL, or the probe's -errno with desc saying why.
 */
int engine_choose(const char *name, unsigned depth, struct engine_choice *c);
/* The same rule over a table of the caller's (tests); psync is the fallback. */
int engine_choose_in(const struct engine_ops *const *table, size_t n, const char *name,
		     unsigned depth, struct engine_choice *c);

/* Probe ops at depth; on failure why says so in words. */
int engine_probe(const struct engine_ops *ops, unsigned depth, char *desc, size_t len);

int engine_setup(struct engine *e, const struct engine_ops *ops,
		 const struct engine_params *p);
void engine_teardown(struct engine *e);
/* ops->adopt, or nothing for an engine without one: 0 or -errno. */
int engine_adopt(struct engine *e, int fd);

#endif
