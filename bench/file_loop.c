// SPDX-License-Identifier: BSD-2-Clause
/*
 * The ceiling of clyde's six file phases for -n N (empty files, one
 * directory, -z SEED): the same system calls on the same names in the
 * same order, relative to the same directory descriptor, each create and
 * delete phase closed by the same sync, and nothing else: no latency
 * clock, no progress, no checks. Prints one line "PHASE FILES/S" per
 * phase. bench/file-ceiling runs it beside clyde and bonnie++.
 *
 * usage: file_loop DIR N [SEED]   (DIR/files is made and removed)
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "lib/rng.h"
#include "sys/compat.h"

#define NAME_LEN	24
#define NAME_RANDOM_MAX	12

static const char name_chars[] =
	"0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* clyde's names and order (src/phases/phase_file.c: make_name, file_set_make) */
static void make_names(char (*names)[NAME_LEN], uint32_t *order, uint32_t n, uint32_t seed,
		       int random)
{
	struct rng r;

	rng_seed(&r, ((uint64_t)seed << 32) ^ ((uint64_t)random << 31));
	for (uint32_t i = 0; i < n; i++) {
		char extra[NAME_RANDOM_MAX + 1];
		unsigned len = (unsigned)rng_below(&r, NAME_RANDOM_MAX + 1);

		for (unsigned k = 0; k < len; k++)
			extra[k] = name_chars[rng_below(&r, sizeof(name_chars) - 1)];
		extra[len] = '\0';
		if (random)
			snprintf(names[i], NAME_LEN, "%s%010x", extra, i);
		else
			snprintf(names[i], NAME_LEN, "%010x%s", i, extra);
		order[i] = i;
	}
	for (uint32_t i = n - 1; random && i > 0; i--) {
		uint32_t j = (uint32_t)rng_below(&r, (uint64_t)i + 1), t = order[i];

		order[i] = order[j];
		order[j] = t;
	}
}

/* The sync that closes a create or delete phase, as clyde's sync_dirs. */
static int sync_phase(int dirfd, char (*names)[NAME_LEN], uint32_t n, int created)
{
	if (fs_sync_waits())
		return fs_sync(dirfd);
	for (uint32_t i = 0; created && i < n; i++) {
		int fd = openat(dirfd, names[i], O_RDONLY | O_NOFOLLOW | O_CLOEXEC);

		if (fd < 0 || fsync(fd))
			return -1;
		close(fd);
	}
	return fsync(dirfd);
}

static int create(int dirfd, char (*names)[NAME_LEN], uint32_t n)
{
	for (uint32_t i = 0; i < n; i++) {
		int fd = openat(dirfd, names[i], O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
				0600);

		if (fd < 0 || close(fd))
			return -1;
	}
	return sync_phase(dirfd, names, n, 1);
}

/* Sequential stat or delete: the directory in readdir order. */
static int walk(int dirfd, int del, uint32_t *seen)
{
	int fd = dup(dirfd);
	struct dirent *de;
	struct stat st;
	DIR *dir;

	if (fd < 0 || !(dir = fdopendir(fd)))
		return -1;
	rewinddir(dir);
	while ((de = readdir(dir))) {
		if (de->d_name[0] == '.' && (!de->d_name[1] || (de->d_name[1] == '.' && !de->d_name[2])))
			continue;
		if (del ? unlinkat(dirfd, de->d_name, 0) : fstatat(dirfd, de->d_name, &st, 0)) {
			closedir(dir);
			return -1;
		}
		++*seen;
	}
	closedir(dir);
	return 0;
}

/* Random stat or delete: the shuffled order, by name. */
static int shuffled(int dirfd, char (*names)[NAME_LEN], const uint32_t *order, uint32_t n,
		    int del)
{
	struct stat st;

	for (uint32_t k = 0; k < n; k++) {
		const char *name = names[order[k]];

		if (del ? unlinkat(dirfd, name, 0) : fstatat(dirfd, name, &st, 0))
			return -1;
	}
	return 0;
}

static int phase(const char *label, int (*fn)(void *), void *arg, uint32_t n)
{
	double t0 = now_s(), t1;

	if (fn(arg))
		return -1;
	t1 = now_s();
	printf("%s %.0f\n", label, n / (t1 - t0));
	return 0;
}

struct job {
	int dirfd;
	char (*names)[NAME_LEN];
	uint32_t *order;
	uint32_t n;
	int del;
};

static int do_create(void *a)
{
	struct job *j = a;

	return create(j->dirfd, j->names, j->n);
}

static int do_walk(void *a)
{
	struct job *j = a;
	uint32_t seen = 0;

	if (walk(j->dirfd, j->del, &seen) || seen != j->n)
		return -1;
	return j->del ? sync_phase(j->dirfd, j->names, j->n, 0) : 0;
}

static int do_shuffled(void *a)
{
	struct job *j = a;

	if (shuffled(j->dirfd, j->names, j->order, j->n, j->del))
		return -1;
	return j->del ? sync_phase(j->dirfd, j->names, j->n, 0) : 0;
}

int main(int argc, char **argv)
{
	char path[4096];
	struct job j = { .dirfd = -1 };
	uint32_t seed;
	int ret = 1;

	if (argc < 3) {
		fprintf(stderr, "usage: file_loop DIR N [SEED]   (N x 1024 empty files)\n");
		return 2;
	}
	j.n = (uint32_t)strtoul(argv[2], NULL, 10) * 1024u;
	seed = argc > 3 ? (uint32_t)strtoul(argv[3], NULL, 10) : 1;
	j.names = calloc(j.n, NAME_LEN);
	j.order = calloc(j.n, sizeof(*j.order));
	snprintf(path, sizeof(path), "%s/files", argv[1]);
	if (!j.n || !j.names || !j.order || mkdir(path, 0700) ||
	    (j.dirfd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)) < 0) {
		fprintf(stderr, "file_loop: %s: %s\n", path, strerror(errno));
		goto out;
	}
	make_names(j.names, j.order, j.n, seed, 0);
	j.del = 0;
	if (phase("seq_create", do_create, &j, j.n) || phase("seq_stat", do_walk, &j, j.n))
		goto fail;
	j.del = 1;
	if (phase("seq_del", do_walk, &j, j.n))
		goto fail;
	make_names(j.names, j.order, j.n, seed, 1);
	j.del = 0;
	if (phase("ran_create", do_create, &j, j.n) || phase("ran_stat", do_shuffled, &j, j.n))
		goto fail;
	j.del = 1;
	if (phase("ran_del", do_shuffled, &j, j.n))
		goto fail;
	ret = 0;
	goto out;
fail:
	fprintf(stderr, "file_loop: %s: %s\n", path, strerror(errno));
out:
	if (j.dirfd >= 0)
		close(j.dirfd);
	if (ret == 0)
		rmdir(path);
	free(j.names);
	free(j.order);
	return ret;
}
