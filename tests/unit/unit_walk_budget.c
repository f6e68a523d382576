// SPDX-License-Identifier: BSD-2-Clause
/*
 * workdir_tree_bytes_within (src/sys/workdir_remove.c), the bounded count
 * that a look for leftovers makes of each tree: it stops at the budget's
 * entries and at its deadline, a budget shared by two walks is spent by
 * both, and within the budget it counts what the unbounded count does.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/timing.h"
#include "sys/workdir.h"
#include "unit.h"

#define FILES 10

/* FILES files of 4 KiB in dirfd */
static void files(int dirfd)
{
	char name[16], buf[4096] = { 0 };

	for (int i = 0; i < FILES; i++) {
		int fd;

		snprintf(name, sizeof(name), "f%d", i);
		fd = openat(dirfd, name, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
		CHECK(fd >= 0 && write(fd, buf, sizeof(buf)) == (ssize_t)sizeof(buf), "%s: %s",
		      name, strerror(errno));
		if (fd >= 0)
			close(fd);
	}
}

int main(void)
{
	char base[] = "/tmp/clyde-unit-budget.XXXXXX", cmd[128];
	uint64_t far = now_ns() + 600 * 1000000000ull, bytes, whole;
	struct walk_budget b;
	int root_fd, sub_fd;

	if (!mkdtemp(base)) {
		perror("mkdtemp");
		return 1;
	}
	/* FILES files, a directory, FILES files in it: 2 * FILES + 1 entries */
	root_fd = open(base, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	files(root_fd);
	CHECK(!mkdirat(root_fd, "a", 0755), "mkdir: %s", strerror(errno));
	sub_fd = openat(root_fd, "a", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	files(sub_fd);
	close(sub_fd);
	whole = workdir_tree_bytes(root_fd);

	b = (struct walk_budget){ .entries_left = 1000, .deadline_ns = far };
	CHECK(workdir_tree_bytes_within(root_fd, &b, &bytes), "within the budget: whole");
	CHECK(bytes == whole, "the same bytes: %ju, %ju", (uintmax_t)bytes, (uintmax_t)whole);
	CHECK(b.entries == 2 * FILES + 1 && !b.spent, "every entry: %ju", (uintmax_t)b.entries);

	b = (struct walk_budget){ .entries_left = 5, .deadline_ns = far };
	CHECK(!workdir_tree_bytes_within(root_fd, &b, &bytes), "5 entries: cut");
	CHECK(b.entries == 5 && b.spent && !b.out_of_time, "stopped at 5: %ju",
	      (uintmax_t)b.entries);
	CHECK(bytes < whole, "counted less: %ju of %ju", (uintmax_t)bytes, (uintmax_t)whole);
	CHECK(!workdir_tree_bytes_within(root_fd, &b, &bytes) && b.entries == 5,
	      "spent stays spent");

	b = (struct walk_budget){ .entries_left = 1000, .deadline_ns = now_ns() };
	CHECK(!workdir_tree_bytes_within(root_fd, &b, &bytes), "past the deadline: cut");
	CHECK(b.entries == 0 && b.out_of_time, "not one entry: %ju", (uintmax_t)b.entries);

	/* two walks, one budget: the second gets what the first left */
	b = (struct walk_budget){ .entries_left = 2 * FILES + 1 + 3, .deadline_ns = far };
	CHECK(workdir_tree_bytes_within(root_fd, &b, &bytes), "first walk whole");
	CHECK(!workdir_tree_bytes_within(root_fd, &b, &bytes), "second walk cut");
	CHECK(b.entries == 2 * FILES + 1 + 3, "3 for the second: %ju", (uintmax_t)b.entries);

	close(root_fd);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", base);
	CHECK(!system(cmd), "%s", cmd);
	return unit_verdict("unit_walk_budget");
}
