// SPDX-License-Identifier: BSD-2-Clause
/*
 * Which mount a file lies on (src/sys/mount_id.h), without root: the rule
 * that compares two identities, a directory and a file in it (one mount),
 * and the root directory against /proc (two), where the system tells
 * mounts apart (Linux's statx; DragonFly's fsid, as root). Bind mounts of
 * one file system need root: tests/cli/remove_mounts.sh.
 */
#include "config.h"

#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "sys/mount_id.h"
#include "unit.h"

/* The rule alone: ids compared only where both are known; a mount's root is another mount. */
static void test_rule(void)
{
	struct mount_id root = { .id = 7, .known = true };

	CHECK(!mount_id_other(&root, &(struct mount_id){ .id = 7, .known = true }), "same id");
	CHECK(mount_id_other(&root, &(struct mount_id){ .id = 8, .known = true }), "another id");
	CHECK(!mount_id_other(&root, &(struct mount_id){ .id = 8, .known = false }),
	      "an entry's unknown id: st_dev alone decides");
	root.known = false;
	CHECK(!mount_id_other(&root, &(struct mount_id){ .id = 8, .known = true }),
	      "the root's unknown id: st_dev alone decides");
	CHECK(mount_id_other(&root, &(struct mount_id){ .id = 0, .mount_root = true }),
	      "the root of a mount, whatever the ids");
}

/* A scratch directory and a file in it lie on one mount. */
static void test_one_mount(void)
{
	char dir[] = "/tmp/unit_mount_id.XXXXXX", file[64];
	struct mount_id d, f, by_name;
	int dfd, ffd;

	if (!mkdtemp(dir)) {
		CHECK(0, "mkdtemp %s", dir);
		return;
	}
	snprintf(file, sizeof(file), "%s/f", dir);
	dfd = open(dir, O_RDONLY | O_DIRECTORY);
	ffd = open(file, O_WRONLY | O_CREAT | O_EXCL, 0600);
	CHECK(dfd >= 0 && ffd >= 0, "open %s and %s", dir, file);
	if (dfd >= 0 && ffd >= 0) {
		CHECK(!mount_id_fd(dfd, &d) && !mount_id_fd(ffd, &f) &&
		      !mount_id_at(dfd, "f", &by_name), "mount identities of %s", dir);
		CHECK(!mount_id_other(&d, &f), "a file is on its directory's mount");
		CHECK(!mount_id_other(&d, &by_name), "so is its name");
		CHECK(!d.mount_root && !f.mount_root, "neither is a mount's root");
		CHECK(mount_id_at(dfd, "missing", &by_name) < 0, "a missing name is an error");
	}
	if (ffd >= 0)
		close(ffd);
	if (dfd >= 0)
		close(dfd);
	unlink(file);
	rmdir(dir);
}

/* Linux 5.8 or later: statx gives every file its mount's id */
static bool linux_gives_mount_ids(void)
{
	unsigned major, minor;
	struct utsname u;

	return !uname(&u) && !strcmp(u.sysname, "Linux") &&
	       sscanf(u.release, "%u.%u", &major, &minor) == 2 &&
	       (major > 5 || (major == 5 && minor >= 8));
}

/* / and /proc are two mounts, told apart where the system gives mount identities. */
static void test_two_mounts(void)
{
	struct mount_id root = { 0 }, proc = { 0 }, in_proc;
	int rfd = open("/", O_RDONLY | O_DIRECTORY), pfd = open("/proc", O_RDONLY | O_DIRECTORY);

	if (linux_gives_mount_ids())
		CHECK(rfd >= 0 && pfd >= 0 && !mount_id_fd(rfd, &root) && !mount_id_fd(pfd, &proc) &&
		      root.known && proc.known, "Linux 5.8 and later give mount ids");
	if (rfd >= 0 && pfd >= 0 && !mount_id_fd(rfd, &root) && !mount_id_fd(pfd, &proc) &&
	    root.known && proc.known) {
		CHECK(mount_id_other(&root, &proc), "/proc is another mount than /");
		CHECK(!mount_id_at(pfd, "self", &in_proc) && !mount_id_other(&proc, &in_proc),
		      "/proc/self is on /proc's mount");
	} else {
		printf("unit_mount_id: / and /proc not compared (no /proc, or mounts told by st_dev only)\n");
	}
	if (pfd >= 0)
		close(pfd);
	if (rfd >= 0)
		close(rfd);
}

int main(void)
{
	test_rule();
	test_one_mount();
	test_two_mounts();
	return unit_verdict("unit_mount_id");
}
