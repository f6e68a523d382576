// SPDX-License-Identifier: BSD-2-Clause
/*
 * The tree phases' backends (psync, and uring where it can be set up), as
 * the engines' rows name them, on a private directory: batches of mkdir, create, write, close, stat, open,
 * read, unlink and rmdir at depths 1 and 8, the errors each op reports on
 * itself (EEXIST, ENOENT, ENOTEMPTY, EBADF) without failing the batch, and
 * the times and via_ring of every op.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engines/engine.h"
#include "tree/tree.h"
#include "unit.h"

#define SKIPPED 77
#define NDIRS 3
#define FILES_PER_DIR 3
#define NFILES (NDIRS * FILES_PER_DIR)
/* Two writes per file, at 0 and at LEN0: the file is LEN0 + LEN1 bytes. */
#define LEN0 3000
#define LEN1 5192
#define FSIZE (LEN0 + LEN1)
#define MAX_OPS 32

struct fixture {
	const struct tree_io_ops *ops;
	struct tree_io io;
	unsigned depth;
	int root;
	char dirs[NDIRS][8];
	char files[NFILES][16];
	int fds[NFILES];
	unsigned char data[NFILES][FSIZE];
	unsigned char back[NFILES][FSIZE + 100];
};

static unsigned char byte_at(unsigned file, unsigned off)
{
	return (unsigned char)(file * 131u + off * 7u + (off >> 8));
}

/* What every op must show after a run. */
static void check_op(struct fixture *f, const struct tree_op *op)
{
	bool ring = f->io.ring_kinds & (1u << op->kind);

	CHECK(op->t_start > 0 && op->t_end >= op->t_start, "%s %s: t_start %llu t_end %llu",
	      f->ops->name, tree_op_name(op->kind), (unsigned long long)op->t_start,
	      (unsigned long long)op->t_end);
	/* a read of a ring kind that the page cache answers is a plain call */
	if (op->kind == TOP_READ)
		CHECK(ring || !op->via_ring, "%s read: via the ring, ring_kinds 0x%x",
		      f->ops->name, f->io.ring_kinds);
	else
		CHECK(op->via_ring == ring, "%s %s: via_ring %d, ring_kinds 0x%x", f->ops->name,
		      tree_op_name(op->kind), op->via_ring, f->io.ring_kinds);
}

/* Run n ops in batches of the backend's depth; false when the backend failed. */
static bool run_ops(struct fixture *f, struct tree_op *ops, unsigned n)
{
	for (unsigned i = 0; i < n; i += f->io.depth) {
		unsigned k = n - i < f->io.depth ? n - i : f->io.depth;
		int ret;

		for (unsigned j = i; j < i + k; j++) {
			ops[j].res = INT64_MIN;
			ops[j].t_start = ops[j].t_end = 0;
			ops[j].via_ring = !(f->io.ring_kinds & (1u << ops[j].kind));
		}
		ret = f->ops->run(&f->io, ops + i, k);
		CHECK(ret == 0, "%s depth %u: run of %u ops: %d", f->ops->name, f->depth, k, ret);
		if (ret)
			return false;
		for (unsigned j = i; j < i + k; j++)
			check_op(f, &ops[j]);
	}
	return true;
}

static struct tree_op path_op(struct fixture *f, enum tree_op_kind kind, const char *name)
{
	return (struct tree_op){ .kind = kind, .dirfd = f->root, .name = name, .fd = -1 };
}

static void check_res(struct fixture *f, const struct tree_op *op, int64_t want)
{
	CHECK(op->res == want, "%s depth %u: %s %s: res %lld, want %lld", f->ops->name, f->depth,
	      tree_op_name(op->kind), op->name ? op->name : "(fd)", (long long)op->res,
	      (long long)want);
}

static void make_tree(struct fixture *f)
{
	struct tree_op ops[MAX_OPS];
	unsigned n = 0;

	for (unsigned d = 0; d < NDIRS; d++)
		ops[n++] = path_op(f, TOP_MKDIR, f->dirs[d]);
	if (!run_ops(f, ops, n))
		return;
	for (unsigned i = 0; i < n; i++)
		check_res(f, &ops[i], 0);

	n = 0;
	for (unsigned i = 0; i < NFILES; i++)
		ops[n++] = path_op(f, TOP_CREATE, f->files[i]);
	if (!run_ops(f, ops, n))
		return;
	for (unsigned i = 0; i < NFILES; i++) {
		CHECK(ops[i].res >= 0, "%s create %s: %lld", f->ops->name, f->files[i],
		      (long long)ops[i].res);
		f->fds[i] = ops[i].res >= 0 ? (int)ops[i].res : -1;
	}

	/* The second half first: the writes of a batch may land in any order. */
	n = 0;
	for (unsigned i = 0; i < NFILES; i++) {
		ops[n++] = (struct tree_op){ .kind = TOP_WRITE, .fd = f->fds[i], .dirfd = -1,
					     .buf = f->data[i] + LEN0, .len = LEN1, .off = LEN0 };
		ops[n++] = (struct tree_op){ .kind = TOP_WRITE, .fd = f->fds[i], .dirfd = -1,
					     .buf = f->data[i], .len = LEN0, .off = 0 };
	}
	if (!run_ops(f, ops, n))
		return;
	for (unsigned i = 0; i < n; i++)
		check_res(f, &ops[i], (int64_t)ops[i].len);

	n = 0;
	for (unsigned i = 0; i < NFILES; i++)
		ops[n++] = (struct tree_op){ .kind = TOP_CLOSE, .fd = f->fds[i], .dirfd = -1 };
	if (!run_ops(f, ops, n))
		return;
	for (unsigned i = 0; i < n; i++)
		check_res(f, &ops[i], 0);
}

static void stat_tree(struct fixture *f)
{
	struct tree_op ops[MAX_OPS];
	unsigned n = 0;

	for (unsigned i = 0; i < NFILES; i++)
		ops[n++] = path_op(f, TOP_STAT, f->files[i]);
	for (unsigned d = 0; d < NDIRS; d++)
		ops[n++] = path_op(f, TOP_STAT, f->dirs[d]);
	if (!run_ops(f, ops, n))
		return;
	for (unsigned i = 0; i < n; i++) {
		check_res(f, &ops[i], 0);
		if (i < NFILES)
			CHECK(ops[i].size == FSIZE && S_ISREG(ops[i].mode) &&
			      (ops[i].mode & 07777) == 0600,
			      "%s stat %s: size %llu mode 0%o", f->ops->name, ops[i].name,
			      (unsigned long long)ops[i].size, ops[i].mode);
		else
			CHECK(S_ISDIR(ops[i].mode) && (ops[i].mode & 07777) == 0700,
			      "%s stat %s: mode 0%o", f->ops->name, ops[i].name, ops[i].mode);
	}
}

static void read_tree(struct fixture *f)
{
	struct tree_op ops[MAX_OPS];
	unsigned n = 0;

	for (unsigned i = 0; i < NFILES; i++)
		ops[n++] = path_op(f, TOP_OPEN, f->files[i]);
	if (!run_ops(f, ops, n))
		return;
	for (unsigned i = 0; i < NFILES; i++) {
		CHECK(ops[i].res >= 0, "%s open %s: %lld", f->ops->name, f->files[i],
		      (long long)ops[i].res);
		f->fds[i] = ops[i].res >= 0 ? (int)ops[i].res : -1;
	}

	/* The whole file in two reads, then one at the end of it. */
	memset(f->back, 0xee, sizeof(f->back));
	n = 0;
	for (unsigned i = 0; i < NFILES; i++) {
		ops[n++] = (struct tree_op){ .kind = TOP_READ, .fd = f->fds[i], .dirfd = -1,
					     .buf = f->back[i] + 4096, .len = FSIZE - 4096 + 100,
					     .off = 4096 };
		ops[n++] = (struct tree_op){ .kind = TOP_READ, .fd = f->fds[i], .dirfd = -1,
					     .buf = f->back[i], .len = 4096, .off = 0 };
		ops[n++] = (struct tree_op){ .kind = TOP_READ, .fd = f->fds[i], .dirfd = -1,
					     .buf = f->back[i] + FSIZE, .len = 100, .off = FSIZE };
	}
	if (!run_ops(f, ops, n))
		return;
	for (unsigned i = 0; i < n; i += 3) {
		check_res(f, &ops[i], FSIZE - 4096);
		check_res(f, &ops[i + 1], 4096);
		check_res(f, &ops[i + 2], 0);
	}
	for (unsigned i = 0; i < NFILES; i++)
		CHECK(!memcmp(f->back[i], f->data[i], FSIZE), "%s: %s reads back what was written",
		      f->ops->name, f->files[i]);

	n = 0;
	for (unsigned i = 0; i < NFILES; i++)
		ops[n++] = (struct tree_op){ .kind = TOP_CLOSE, .fd = f->fds[i], .dirfd = -1 };
	if (!run_ops(f, ops, n))
		return;
	for (unsigned i = 0; i < n; i++)
		check_res(f, &ops[i], 0);
}

/* Failures of single ops: each reported on the op, none failing the batch. */
static void op_errors(struct fixture *f)
{
	struct tree_op ops[MAX_OPS];
	int64_t want[MAX_OPS];
	unsigned n = 0;
	char buf[16];

	ops[n] = path_op(f, TOP_CREATE, f->files[0]);
	want[n++] = -EEXIST;
	ops[n] = path_op(f, TOP_MKDIR, f->dirs[0]);
	want[n++] = -EEXIST;
	ops[n] = path_op(f, TOP_UNLINK, "d0/missing");
	want[n++] = -ENOENT;
	ops[n] = path_op(f, TOP_STAT, "missing/f");
	want[n++] = -ENOENT;
	ops[n] = path_op(f, TOP_OPEN, "d1/missing");
	want[n++] = -ENOENT;
	ops[n] = path_op(f, TOP_RMDIR, f->dirs[1]);
	want[n++] = -ENOTEMPTY;
	ops[n] = path_op(f, TOP_UNLINK, f->dirs[2]);
	want[n++] = -EISDIR;
	ops[n] = (struct tree_op){ .kind = TOP_READ, .fd = -1, .dirfd = -1, .buf = buf,
				   .len = sizeof(buf) };
	want[n++] = -EBADF;
	if (!run_ops(f, ops, n))
		return;
	for (unsigned i = 0; i < n; i++)
		check_res(f, &ops[i], want[i]);
}

static void remove_tree(struct fixture *f)
{
	struct tree_op ops[MAX_OPS];
	unsigned n = 0;

	for (unsigned i = 0; i < NFILES; i++)
		ops[n++] = path_op(f, TOP_UNLINK, f->files[i]);
	if (!run_ops(f, ops, n))
		return;
	for (unsigned i = 0; i < n; i++)
		check_res(f, &ops[i], 0);
	n = 0;
	for (unsigned d = 0; d < NDIRS; d++)
		ops[n++] = path_op(f, TOP_RMDIR, f->dirs[d]);
	if (!run_ops(f, ops, n))
		return;
	for (unsigned i = 0; i < n; i++)
		check_res(f, &ops[i], 0);
}

/* Whatever a failed check left behind, so that the directory can go. */
static void clean(int root)
{
	char name[16];

	for (unsigned d = 0; d < NDIRS; d++) {
		for (unsigned j = 0; j < FILES_PER_DIR; j++) {
			snprintf(name, sizeof(name), "d%u/f%u", d, j);
			unlinkat(root, name, 0);
		}
		snprintf(name, sizeof(name), "d%u", d);
		unlinkat(root, name, AT_REMOVEDIR);
	}
}

static bool dir_is_empty(int root)
{
	int fd = openat(root, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
	struct dirent *e;
	bool empty = true;

	if (!d) {
		if (fd >= 0)
			close(fd);
		return false;
	}
	while ((e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			empty = false;
	closedir(d);
	return empty;
}

/*
 * 0 when checked, SKIPPED when the backend cannot be set up here; *kinds
 * gets the kinds it sent through the ring.
 */
static int run_backend(const struct tree_io_ops *ops, unsigned depth, int root, unsigned *kinds)
{
	static struct fixture f;
	char desc[256] = "";
	int ret;

	memset(&f, 0, sizeof(f));
	f.ops = ops;
	f.depth = depth;
	f.root = root;
	ret = ops->setup(&f.io, depth, desc, sizeof(desc));
	if (ret == -ENOSYS || ret == -EPERM) {
		printf("SKIP: %s at depth %u: %s\n", ops->name, depth, desc);
		return SKIPPED;
	}
	CHECK(ret == 0, "%s setup at depth %u: %d (%s)", ops->name, depth, ret, desc);
	if (ret)
		return 0;
	CHECK(f.io.depth >= 1 && f.io.depth <= depth, "%s: depth %u for %u", ops->name,
	      f.io.depth, depth);
	if (!strcmp(ops->name, "psync"))
		CHECK(f.io.ring_kinds == 0, "psync ring_kinds 0x%x", f.io.ring_kinds);
	else
		CHECK(f.io.depth == depth && strstr(desc, "via ring:"), "%s depth %u: %s",
		      ops->name, f.io.depth, desc);
	for (unsigned d = 0; d < NDIRS; d++)
		snprintf(f.dirs[d], sizeof(f.dirs[d]), "d%u", d);
	for (unsigned i = 0; i < NFILES; i++) {
		snprintf(f.files[i], sizeof(f.files[i]), "d%u/f%u", i / FILES_PER_DIR,
			 i % FILES_PER_DIR);
		for (unsigned off = 0; off < FSIZE; off++)
			f.data[i][off] = byte_at(i, off);
	}

	make_tree(&f);
	stat_tree(&f);
	read_tree(&f);
	op_errors(&f);
	remove_tree(&f);
	CHECK(dir_is_empty(root), "%s depth %u: the tree is gone", ops->name, depth);
	clean(root);
	printf("%s depth %u: checked; ring_kinds 0x%x; %s\n", ops->name, depth, f.io.ring_kinds,
	       desc[0] ? desc : "(no description)");
	*kinds = f.io.ring_kinds;
	ops->teardown(&f.io);
	return 0;
}

/* Depths out of range are refused; the largest is set up and torn down. */
static void uring_depths(const struct tree_io_ops *uring)
{
	struct tree_io io = { 0 };
	char desc[256];
	int ret;

	CHECK(uring->setup(&io, 0, desc, sizeof(desc)) == -EINVAL, "uring depth 0");
	CHECK(uring->setup(&io, 1025, desc, sizeof(desc)) == -EINVAL, "uring depth 1025");
	ret = uring->setup(&io, 1024, desc, sizeof(desc));
	CHECK(ret == 0 && io.depth == 1024, "uring depth 1024: %d (%s)", ret, desc);
	if (!ret)
		uring->teardown(&io);
}

#define KIND(k)		(1u << (k))
/*
 * The kinds the uring backend sends through the ring: by default only
 * reads (the rest cost less as calls); CLYDE_TEST_TREE_RING chooses
 * others. Each choice must be what the ops did (check_op) and build and
 * read back the same tree. false when uring cannot be set up here.
 */
static bool uring_choices(const struct tree_io_ops *uring, int root)
{
	static const struct {
		const char *env;
		unsigned want;
	} choices[] = {
		{ "none", 0 },
		{ "stat,unlink,mkdir", KIND(TOP_STAT) | KIND(TOP_UNLINK) | KIND(TOP_MKDIR) },
		{ "create,write,close,rmdir,open", KIND(TOP_CREATE) | KIND(TOP_WRITE) |
			KIND(TOP_CLOSE) | KIND(TOP_RMDIR) | KIND(TOP_OPEN) },
		{ "read", KIND(TOP_READ) },
	};
	unsigned probed = 0, kinds = 0;

	setenv("CLYDE_TEST_TREE_RING", "all", 1);
	if (run_backend(uring, 8, root, &probed) == SKIPPED)
		return false;
	CHECK(probed & KIND(TOP_READ), "all kinds: reads via the ring (0x%x)", probed);
	for (size_t i = 0; i < sizeof(choices) / sizeof(choices[0]); i++) {
		setenv("CLYDE_TEST_TREE_RING", choices[i].env, 1);
		if (run_backend(uring, 8, root, &kinds) != SKIPPED)
			CHECK(kinds == (choices[i].want & probed), "%s: ring_kinds 0x%x, want 0x%x",
			      choices[i].env, kinds, choices[i].want & probed);
	}
	unsetenv("CLYDE_TEST_TREE_RING");
	for (unsigned depth = 1; depth <= 8; depth += 7)
		if (run_backend(uring, depth, root, &kinds) != SKIPPED)
			CHECK(kinds == (KIND(TOP_READ) & probed), "by default, reads only: 0x%x",
			      kinds);
	return true;
}

/* The engine's tree I/O, or NULL (SKIP) when the engine is not built here. */
static const struct tree_io_ops *tree_io_of(const char *engine)
{
	const struct engine_ops *e = engine_find(engine);

	CHECK(e != NULL, "engine %s is listed", engine);
	if (e && e->unavailable) {
		printf("SKIP: %s: %s\n", engine, e->unavailable);
		return NULL;
	}
	CHECK(e && e->tree_io && !strcmp(e->tree_io->name, engine), "%s's tree I/O", engine);
	return e ? e->tree_io : NULL;
}

int main(void)
{
	char root_path[] = "/tmp/clyde-unit-tree-io.XXXXXX";
	static const unsigned depths[] = { 1, 8 };
	const struct tree_io_ops *psync = tree_io_of("psync"), *uring = tree_io_of("uring");
	unsigned kinds;
	struct stat st;
	bool uring_skipped = !uring;
	int root;

	/* The modes checked are the ones asked for. */
	umask(022);
	CHECK_STR(tree_op_name(TOP_RMDIR), "rmdir");
	if (!mkdtemp(root_path)) {
		perror("mkdtemp");
		return 1;
	}
	root = open(root_path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	CHECK(root >= 0, "open %s", root_path);
	if (root >= 0 && psync) {
		for (unsigned i = 0; i < 2; i++)
			run_backend(psync, depths[i], root, &kinds);
		if (uring && !uring_choices(uring, root))
			uring_skipped = true;
		if (!uring_skipped)
			uring_depths(uring);
		clean(root);
		close(root);
	}
	CHECK(rmdir(root_path) == 0, "rmdir %s: %s", root_path, strerror(errno));
	CHECK(stat(root_path, &st) == -1 && errno == ENOENT, "%s is gone", root_path);
	if (uring_skipped && !unit_failures) {
		printf("SKIP: psync checked, uring not usable here\n");
		return SKIPPED;
	}
	return unit_verdict("unit_tree_io");
}
