// SPDX-License-Identifier: BSD-2-Clause
/*
 * What each kind of the tree phases' operations costs batched through
 * io_uring against the same operation as a direct system call, on the
 * running kernel and the filesystem of DIR. Per round and way (in an
 * order that alternates), on N names: mkdir, create (openat O_CREAT),
 * write (4 KiB), close, open (O_RDONLY), read (4 KiB), close again, stat,
 * unlink, rmdir; each kind timed over all N. The ring is set up and
 * batched as clyde's uring tree backend does (SINGLE_ISSUER|DEFER_TASKRUN,
 * DEPTH operations per io_uring_submit_and_wait()). Untimed between the
 * two ways: a syncfs, so that neither pays for the other's writeback.
 * Prints "ROUND WAY KIND NS_PER_OP" lines; bench/tree-op-cost runs it.
 *
 * usage: tree_op_cost DIR N ROUNDS DEPTH   (DIR/ops is made and removed)
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <liburing.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

enum kind { K_MKDIR, K_CREATE, K_WRITE, K_CLOSE, K_OPEN, K_READ, K_STAT, K_UNLINK, K_RMDIR, K_N };

static const char *const kind_name[K_N] = {
	"mkdir", "create", "write", "close", "open", "read", "stat", "unlink", "rmdir",
};

#define DATA_LEN	4096
#define NAME_LEN	16

struct bench {
	int dfd;
	unsigned n, depth;
	char (*names)[NAME_LEN];
	char (*dnames)[NAME_LEN];
	int *fds;
	char *buf;
	struct statx *stx;
	struct io_uring ring;
};

static unsigned long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (unsigned long long)ts.tv_sec * 1000000000ull + (unsigned long long)ts.tv_nsec;
}

static void die(const char *what, int err)
{
	fprintf(stderr, "tree_op_cost: %s: %s\n", what, strerror(err));
	exit(1);
}

/* Operation i of kind k as the direct system call. */
static long op_direct(struct bench *b, enum kind k, unsigned i)
{
	struct stat st;

	switch (k) {
	case K_MKDIR:
		return mkdirat(b->dfd, b->dnames[i], 0700);
	case K_CREATE:
		return b->fds[i] = openat(b->dfd, b->names[i],
					  O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	case K_WRITE:
		return pwrite(b->fds[i], b->buf, DATA_LEN, 0) == DATA_LEN ? 0 : -1;
	case K_CLOSE:
		return close(b->fds[i]);
	case K_OPEN:
		return b->fds[i] = openat(b->dfd, b->names[i], O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	case K_READ:
		return pread(b->fds[i], b->buf, DATA_LEN, 0) == DATA_LEN ? 0 : -1;
	case K_STAT:
		return fstatat(b->dfd, b->names[i], &st, AT_SYMLINK_NOFOLLOW);
	case K_UNLINK:
		return unlinkat(b->dfd, b->names[i], 0);
	case K_RMDIR:
		return unlinkat(b->dfd, b->dnames[i], AT_REMOVEDIR);
	default:
		return -1;
	}
}

/* Operation i of kind k as the SQE clyde's tree backend prepares. */
static void op_prep(struct bench *b, struct io_uring_sqe *sqe, enum kind k, unsigned i,
		    unsigned slot)
{
	switch (k) {
	case K_MKDIR:
		io_uring_prep_mkdirat(sqe, b->dfd, b->dnames[i], 0700);
		break;
	case K_CREATE:
		io_uring_prep_openat(sqe, b->dfd, b->names[i],
				     O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
		break;
	case K_WRITE:
		io_uring_prep_write(sqe, b->fds[i], b->buf, DATA_LEN, 0);
		break;
	case K_CLOSE:
		io_uring_prep_close(sqe, b->fds[i]);
		break;
	case K_OPEN:
		io_uring_prep_openat(sqe, b->dfd, b->names[i], O_RDONLY | O_NOFOLLOW | O_CLOEXEC, 0);
		break;
	case K_READ:
		io_uring_prep_read(sqe, b->fds[i], b->buf, DATA_LEN, 0);
		break;
	case K_STAT:
		io_uring_prep_statx(sqe, b->dfd, b->names[i], AT_SYMLINK_NOFOLLOW,
				    STATX_TYPE | STATX_MODE | STATX_SIZE, &b->stx[slot]);
		break;
	case K_UNLINK:
		io_uring_prep_unlinkat(sqe, b->dfd, b->names[i], 0);
		break;
	case K_RMDIR:
		io_uring_prep_unlinkat(sqe, b->dfd, b->dnames[i], AT_REMOVEDIR);
		break;
	default:
		io_uring_prep_nop(sqe);
		break;
	}
	io_uring_sqe_set_data64(sqe, i);
}

static void run_direct(struct bench *b, enum kind k)
{
	for (unsigned i = 0; i < b->n; i++)
		if (op_direct(b, k, i) < 0)
			die(kind_name[k], errno);
}

static void run_ring(struct bench *b, enum kind k)
{
	for (unsigned first = 0; first < b->n; first += b->depth) {
		unsigned m = b->n - first < b->depth ? b->n - first : b->depth;
		struct io_uring_cqe *cqe;
		unsigned head, seen = 0;
		int ret;

		for (unsigned j = 0; j < m; j++)
			op_prep(b, io_uring_get_sqe(&b->ring), k, first + j, j);
		ret = io_uring_submit_and_wait(&b->ring, m);
		if (ret < 0)
			die("io_uring_submit_and_wait", -ret);
		while (seen < m) {
			unsigned got = 0;

			io_uring_for_each_cqe(&b->ring, head, cqe) {
				if (cqe->res < 0)
					die(kind_name[k], -cqe->res);
				if (k == K_CREATE || k == K_OPEN)
					b->fds[io_uring_cqe_get_data64(cqe)] = cqe->res;
				got++;
			}
			io_uring_cq_advance(&b->ring, got);
			seen += got;
			if (seen < m && io_uring_wait_cqe_nr(&b->ring, &cqe, m - seen) < 0)
				die("io_uring_wait_cqe_nr", errno);
		}
	}
}

/* One way's pass over every kind; ns per op of each into ns[]. */
static void pass(struct bench *b, int ring, double *ns)
{
	static const enum kind order[] = {
		K_MKDIR, K_CREATE, K_WRITE, K_CLOSE, K_OPEN, K_READ, K_CLOSE, K_STAT,
		K_UNLINK, K_RMDIR,
	};

	for (size_t i = 0; i < sizeof(order) / sizeof(order[0]); i++) {
		unsigned long long t0 = now_ns();

		if (ring)
			run_ring(b, order[i]);
		else
			run_direct(b, order[i]);
		/* the second close (after reads) is left out: the first is the figure */
		if (i != 6)
			ns[order[i]] = (double)(now_ns() - t0) / b->n;
	}
	if (syncfs(b->dfd))
		die("syncfs", errno);
}

int main(int argc, char **argv)
{
	struct bench b = { 0 };
	unsigned rounds;
	char dir[4096];
	int ret;

	if (argc != 5) {
		fprintf(stderr, "usage: tree_op_cost DIR N ROUNDS DEPTH\n");
		return 2;
	}
	b.n = (unsigned)strtoul(argv[2], NULL, 10);
	rounds = (unsigned)strtoul(argv[3], NULL, 10);
	b.depth = (unsigned)strtoul(argv[4], NULL, 10);
	if (!b.n || !b.depth || b.depth > 4096)
		die("N and DEPTH", EINVAL);
	snprintf(dir, sizeof(dir), "%s/ops", argv[1]);
	if (mkdir(dir, 0700))
		die(dir, errno);
	b.dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	b.names = calloc(b.n, sizeof(*b.names));
	b.dnames = calloc(b.n, sizeof(*b.dnames));
	b.fds = calloc(b.n, sizeof(*b.fds));
	b.stx = calloc(b.depth, sizeof(*b.stx));
	b.buf = malloc(DATA_LEN);
	if (b.dfd < 0 || !b.names || !b.dnames || !b.fds || !b.stx || !b.buf)
		die("setup", errno ? errno : ENOMEM);
	memset(b.buf, 'x', DATA_LEN);
	for (unsigned i = 0; i < b.n; i++) {
		snprintf(b.names[i], NAME_LEN, "f%07u", i);
		snprintf(b.dnames[i], NAME_LEN, "d%07u", i);
	}
	ret = io_uring_queue_init(b.depth, &b.ring,
				  IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN);
	if (ret)
		die("io_uring_queue_init", -ret);
	for (unsigned r = 0; r < rounds; r++) {
		for (int w = 0; w < 2; w++) {
			int ring = (int)((r + (unsigned)w) & 1);
			double ns[K_N];

			pass(&b, ring, ns);
			for (int k = 0; k < K_N; k++)
				printf("%u %s %s %.1f\n", r, ring ? "ring" : "direct", kind_name[k], ns[k]);
		}
		fflush(stdout);
	}
	io_uring_queue_exit(&b.ring);
	close(b.dfd);
	free(b.names);
	free(b.dnames);
	free(b.fds);
	free(b.stx);
	free(b.buf);
	if (rmdir(dir))
		die(dir, errno);
	return 0;
}
