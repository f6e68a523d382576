/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Extents and free space measured by descriptor: one file, a sample of a
 * tree, a filesystem's state. The adding up is extents_sum.c, the OS's
 * part extents_linux.c or extents_bsd.c (extents.h).
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

#include "sys/extents.h"

/* Directories deeper than this are not sampled: the aging's tree is a few levels. */
#define SAMPLE_DEPTH_MAX 16

int extents_map_fd(int fd, struct extent_figures *f, struct extent_map *map)
{
	struct extent_figures one;
	struct extent_file x;
	int ret;

	extent_figures_init(&one);
	extent_file_begin(&x, &one, map);
	ret = extents_os_walk(fd, &x, one.method, sizeof(one.method), one.why, sizeof(one.why));
	if (ret == -EOPNOTSUPP) {
		/* the first file that cannot be measured says why for them all */
		if (!f->files) {
			f->measured = false;
			snprintf(f->method, sizeof(f->method), "%s", one.method);
			snprintf(f->why, sizeof(f->why), "%s", one.why);
		}
		return 0;
	}
	if (ret)
		return ret;
	extent_file_end(&x);
	f->measured = true;
	snprintf(f->method, sizeof(f->method), "%s", one.method);
	if (one.why[0])
		snprintf(f->why, sizeof(f->why), "%s", one.why);
	f->files += one.files;
	f->bytes += one.bytes;
	f->extents += one.extents;
	f->runs += one.runs;
	if (one.largest_run > f->largest_run)
		f->largest_run = one.largest_run;
	f->unwritten += one.unwritten;
	f->unknown += one.unknown;
	f->inline_data += one.inline_data;
	f->encoded += one.encoded;
	f->shared += one.shared;
	return 0;
}

int extents_add_fd(int fd, struct extent_figures *f)
{
	return extents_map_fd(fd, f, NULL);
}

static int name_order(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* dirfd's names (not . and ..), sorted; *names NULL with *count 0 for none. */
static int dir_names(int dirfd, char ***names, size_t *count)
{
	size_t n = 0, cap = 0;
	char **v = NULL;
	struct dirent *de;
	int fd, ret = 0;
	DIR *d;

	fd = dup(dirfd);
	if (fd < 0)
		return -errno;
	d = fdopendir(fd);
	if (!d) {
		ret = -errno;
		close(fd);
		return ret;
	}
	rewinddir(d);
	while ((de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if (n == cap) {
			char **nv = realloc(v, (cap ? cap * 2 : 64) * sizeof(*v));

			if (!nv) {
				ret = -ENOMEM;
				goto free_names;
			}
			v = nv;
			cap = cap ? cap * 2 : 64;
		}
		v[n] = strdup(de->d_name);
		if (!v[n]) {
			ret = -ENOMEM;
			goto free_names;
		}
		n++;
	}
	closedir(d);
	if (n)
		qsort(v, n, sizeof(*v), name_order);
	*names = v;
	*count = n;
	return 0;
free_names:
	while (n)
		free(v[--n]);
	free(v);
	closedir(d);
	return ret;
}

/* The filesystem said it cannot tell one file's extents: it will not tell another's. */
static bool cannot_tell(const struct extent_figures *f)
{
	return !f->measured && f->why[0];
}

static int sample_dir(int dirfd, dev_t dev, unsigned depth, unsigned max_files,
		      struct extent_figures *f)
{
	char **names = NULL;
	size_t count = 0;
	int ret;

	ret = dir_names(dirfd, &names, &count);
	if (ret)
		return ret;
	for (size_t i = 0; i < count && !ret && f->files < max_files && !cannot_tell(f); i++) {
		struct stat st;
		int fd;

		if (fstatat(dirfd, names[i], &st, AT_SYMLINK_NOFOLLOW) || st.st_dev != dev)
			continue;	/* gone since, or another mount's */
		if (S_ISREG(st.st_mode)) {
			fd = openat(dirfd, names[i],
				    O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
			if (fd < 0)
				continue;
			ret = extents_add_fd(fd, f);
			close(fd);
		} else if (S_ISDIR(st.st_mode) && depth < SAMPLE_DEPTH_MAX) {
			fd = openat(dirfd, names[i],
				    O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
			if (fd < 0)
				continue;
			/* the directory opened is the one looked at, and on this mount */
			if (!fstat(fd, &st) && st.st_dev == dev)
				ret = sample_dir(fd, dev, depth + 1, max_files, f);
			close(fd);
		}
	}
	for (size_t i = 0; i < count; i++)
		free(names[i]);
	free(names);
	return ret;
}

int extents_sample_dir(int dirfd, unsigned max_files, struct extent_figures *f)
{
	struct stat st;

	if (fstat(dirfd, &st))
		return -errno;
	return sample_dir(dirfd, st.st_dev, 0, max_files, f);
}

int free_space_measure(int dirfd, struct free_space_figures *f)
{
	struct free_space_walk w;
	int ret;

	free_space_figures_init(f);
	free_space_begin(&w, f);
	ret = free_space_os_walk(dirfd, &w, f->method, sizeof(f->method), f->why,
				 sizeof(f->why));
	if (ret == -EOPNOTSUPP)
		return 0;
	if (ret) {
		int err = ret;

		free_space_figures_init(f);
		snprintf(f->why, sizeof(f->why), "%s", strerror(-err));
		return err;
	}
	free_space_end(&w);
	f->measured = true;
	return 0;
}

void frag_state_measure(int dirfd, int sample_dirfd, unsigned max_files, struct frag_state *st)
{
	int ret;

	memset(st, 0, sizeof(*st));
	st->present = true;
	free_space_measure(dirfd, &st->free_space);
	extent_figures_init(&st->small_files);
	if (sample_dirfd < 0)
		return;
	ret = extents_sample_dir(sample_dirfd, max_files, &st->small_files);
	if (ret) {
		st->small_files.measured = false;
		snprintf(st->small_files.why, sizeof(st->small_files.why), "sampling: %s",
			 strerror(-ret));
	}
}
