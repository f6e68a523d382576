// SPDX-License-Identifier: BSD-2-Clause
/*
 * The remover (src/sys/workdir_remove.c) on trees made here: everything under
 * the root goes, a symbolic link is removed and what it points to stays,
 * a FIFO does not block it, the depth bound keeps and names what lies
 * deeper, a failed removal keeps the marker, and the byte count.
 * The race and the mounts need root: tests/cli/remove_race.sh.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sys/leftover_mark.h"
#include "unit.h"
#include "sys/workdir.h"

static void write_file(int dirfd, const char *name, size_t len)
{
	char buf[4096] = { 0 };
	int fd = openat(dirfd, name, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);

	CHECK(fd >= 0, "create %s: %s", name, strerror(errno));
	if (fd < 0)
		return;
	for (size_t done = 0; done < len; done += sizeof(buf))
		CHECK(write(fd, buf, sizeof(buf)) == (ssize_t)sizeof(buf), "write %s", name);
	close(fd);
}

/* mkdir name in dirfd and open it */
static int subdir(int dirfd, const char *name)
{
	CHECK(!mkdirat(dirfd, name, 0755), "mkdir %s: %s", name, strerror(errno));
	return openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
}

/* What workdir_name_left wrote, as one string. */
static void named(const char *path, unsigned max, char *out, size_t len, unsigned *count)
{
	FILE *f = tmpfile();
	size_t n;

	*count = workdir_name_left(path, f, max);
	rewind(f);
	n = fread(out, 1, len - 1, f);
	out[n] = '\0';
	fclose(f);
}

int main(void)
{
	char base[] = "/tmp/clyde-unit-workdir.XXXXXX", root[256], outside[256], deep[4096];
	char text[8192];
	unsigned count;
	int base_fd, root_fd, fd, ret;
	struct stat st;

	if (!mkdtemp(base)) {
		perror("mkdtemp");
		return 1;
	}
	base_fd = open(base, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	/* a tree with files, subdirectories, a link out and a FIFO */
	snprintf(root, sizeof(root), "%s/clyde.tree", base);
	snprintf(outside, sizeof(outside), "%s/outside", base);
	fd = subdir(base_fd, "outside");
	write_file(fd, "keep", 4096);
	close(fd);
	root_fd = subdir(base_fd, "clyde.tree");
	write_file(root_fd, LEFTOVER_MARKER, 4096);
	write_file(root_fd, "f", 8192);
	fd = subdir(root_fd, "a");
	write_file(fd, "g", 4096);
	close(subdir(fd, "b"));
	close(fd);
	CHECK(!symlinkat(outside, root_fd, "link"), "symlink: %s", strerror(errno));
	CHECK(!mkfifoat(root_fd, "fifo", 0600), "mkfifo: %s", strerror(errno));
	CHECK(workdir_tree_bytes(root_fd) >= 8192 + 4096, "the bytes the tree holds");
	close(root_fd);
	ret = workdir_remove(root);
	CHECK(ret == 0, "remove a tree: %s", strerror(-ret));
	CHECK(lstat(root, &st) && errno == ENOENT, "the tree is gone");
	CHECK(!fstatat(base_fd, "outside/keep", &st, 0) && st.st_size == 4096,
	      "what the link pointed to stays");
	ret = workdir_remove(root);
	CHECK(ret == -ENOENT, "a missing tree: %s", strerror(-ret));

	/* deeper than WORKDIR_DEPTH_MAX: kept and named, the marker kept */
	root_fd = subdir(base_fd, "clyde.deep");
	write_file(root_fd, LEFTOVER_MARKER, 4096);
	fd = root_fd;
	snprintf(deep, sizeof(deep), "%s/clyde.deep", base);
	for (unsigned level = 1; level <= WORKDIR_DEPTH_MAX + 2; level++) {
		int next = subdir(fd, "d");

		close(fd);
		fd = next;
		if (level < WORKDIR_DEPTH_MAX)
			strcat(deep, "/d");
	}
	close(fd);
	snprintf(root, sizeof(root), "%s/clyde.deep", base);
	ret = workdir_remove(root);
	CHECK(ret == -ELOOP, "too deep: %s", strerror(-ret));
	CHECK(!fstatat(base_fd, "clyde.deep/" LEFTOVER_MARKER, &st, 0),
	      "a failed removal keeps the marker");
	named(root, 100, text, sizeof(text), &count);
	CHECK(strstr(text, "/d (too deep: not entered)\n") != NULL, "names the bound: %s", text);
	CHECK(!strstr(text, LEFTOVER_MARKER), "the marker goes unnamed: %s", text);
	CHECK(count == WORKDIR_DEPTH_MAX, "one per level, got %u", count);
	named(root, 10, text, sizeof(text), &count);
	CHECK(strstr(text, "clyde:   and 54 more\n") != NULL, "and says how many more: %s", text);
	/* from below the bound, the rest goes; then the whole */
	ret = workdir_remove(deep);
	CHECK(ret == 0, "remove the deep part: %s", strerror(-ret));
	ret = workdir_remove(root);
	CHECK(ret == 0, "then the rest: %s", strerror(-ret));
	CHECK(lstat(root, &st) && errno == ENOENT, "the deep tree is gone");

	/* a root that is a symlink is refused, and what it points to stays */
	CHECK(!symlinkat(outside, base_fd, "clyde.link"), "symlink: %s", strerror(errno));
	snprintf(root, sizeof(root), "%s/clyde.link", base);
	ret = workdir_remove(root);
	CHECK(ret == -ELOOP || ret == -ENOTDIR, "a link as the root: %s", strerror(-ret));
	CHECK(!fstatat(base_fd, "outside/keep", &st, 0), "what it points to stays");

	unlinkat(base_fd, "clyde.link", 0);
	unlinkat(base_fd, "outside/keep", 0);
	unlinkat(base_fd, "outside", AT_REMOVEDIR);
	close(base_fd);
	rmdir(base);
	return unit_verdict("unit_workdir");
}
