// SPDX-License-Identifier: BSD-2-Clause
/*
 * clyde-zcav on Linux: the device's identity from sysfs
 * (/sys/dev/block/MAJ:MIN, its queue in the whole disk's folder for a
 * partition), and for -w whether it is mounted (/proc/self/mountinfo,
 * itself or a partition of it), swap (/proc/swaps), or held by another
 * (its holders/ folder names them; a regular file backing a loop
 * device). Each is asked of what fstat(2) said of the descriptor
 * zcav_guard opened, never of a path; that open is exclusive (O_EXCL),
 * which the kernel refuses with EBUSY while another holds the device.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "zcav/zcav.h"

/* The first line of dir/rel, its trailing blanks cut; false when it cannot be read. */
static bool sysfs_line(const char *dir, const char *rel, char *buf, size_t len)
{
	char path[PATH_MAX];
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	f = fopen(path, "r");
	if (!f)
		return false;
	if (!fgets(buf, (int)len, f)) {
		fclose(f);
		return false;
	}
	fclose(f);
	n = strlen(buf);
	while (n && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
		buf[--n] = '\0';
	return n > 0;
}

static long sysfs_long(const char *dir, const char *rel)
{
	char buf[32];

	return sysfs_line(dir, rel, buf, sizeof(buf)) ? strtol(buf, NULL, 10) : 0;
}

/* The folder of device dev, and of its whole disk (itself unless a partition). */
static void sysfs_dirs(dev_t dev, char *dir, size_t len, char *disk, size_t disklen)
{
	char part[16];

	snprintf(dir, len, "/sys/dev/block/%u:%u", major(dev), minor(dev));
	if (sysfs_line(dir, "partition", part, sizeof(part)))
		snprintf(disk, disklen, "%s/..", dir);
	else
		snprintf(disk, disklen, "%s", dir);
}

void zcav_identity_read(struct zcav_identity *id, const struct stat *st)
{
	char dir[96], disk[128], real[PATH_MAX];
	dev_t dev = S_ISBLK(st->st_mode) ? st->st_rdev : st->st_dev;
	long rot;

	memset(id, 0, sizeof(*id));
	id->rotational = -1;
	snprintf(id->kind, sizeof(id->kind), "%s", S_ISBLK(st->st_mode) ? "block device" :
		 S_ISREG(st->st_mode) ? "regular file" : S_ISCHR(st->st_mode) ? "character device" :
		 "other");
	snprintf(id->of, sizeof(id->of), "%s", S_ISBLK(st->st_mode) ? "device" : "file system");
	sysfs_dirs(dev, dir, sizeof(dir), disk, sizeof(disk));
	if (access(dir, F_OK))
		return;
	snprintf(id->sysfs, sizeof(id->sysfs), "%s", dir);
	if (realpath(dir, real)) {
		const char *slash = strrchr(real, '/');

		snprintf(id->name, sizeof(id->name), "%.63s", slash ? slash + 1 : real);
	}
	if (!sysfs_line(disk, "device/model", id->model, sizeof(id->model)))
		sysfs_line(disk, "device/name", id->model, sizeof(id->model));
	rot = sysfs_long(disk, "queue/rotational");
	if (sysfs_line(disk, "queue/rotational", real, sizeof(real)))
		id->rotational = rot ? 1 : 0;
	id->logical_block = sysfs_long(disk, "queue/logical_block_size");
	id->physical_block = sysfs_long(disk, "queue/physical_block_size");
	id->queue_depth = sysfs_long(disk, "device/queue_depth");
	id->nr_requests = sysfs_long(disk, "queue/nr_requests");
}

/* Whether the device numbered "maj:min" is dev, or a partition of dev. */
static bool same_or_part(const char *majmin, dev_t dev)
{
	char dir[96], parent[32];
	unsigned ma, mi;

	if (sscanf(majmin, "%u:%u", &ma, &mi) != 2)
		return false;
	if (ma == major(dev) && mi == minor(dev))
		return true;
	snprintf(dir, sizeof(dir), "/sys/dev/block/%u:%u", ma, mi);
	if (!sysfs_line(dir, "partition", parent, sizeof(parent)) ||
	    !sysfs_line(dir, "../dev", parent, sizeof(parent)))
		return false;
	return sscanf(parent, "%u:%u", &ma, &mi) == 2 && ma == major(dev) && mi == minor(dev);
}

/* Appends "; " and text to what. */
static void add_what(char *what, size_t len, const char *text)
{
	size_t used = strlen(what);

	snprintf(what + used, len - used, "%s%s", used ? "; " : "", text);
}

int zcav_dev_mounted(const struct stat *st, char *what, size_t whatlen)
{
	FILE *f;
	char line[4096];
	int found = 0;

	if (!S_ISBLK(st->st_mode))
		return 0;
	f = fopen("/proc/self/mountinfo", "r");
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		char majmin[32], point[1024], fstype[64] = "?", source[1024] = "?", text[2200];
		const char *dash = strstr(line, " - ");

		if (sscanf(line, "%*s %*s %31s %*s %1023s", majmin, point) != 2)
			continue;
		if (!same_or_part(majmin, st->st_rdev))
			continue;
		if (dash)
			sscanf(dash + 3, "%63s %1023s", fstype, source);
		snprintf(text, sizeof(text), "mounted: %s (%s) at %s", source, fstype, point);
		add_what(what, whatlen, text);
		found = 1;
	}
	fclose(f);
	return found;
}

/* /proc/swaps writes a space in a name as \040; the name undone in place. */
static void unescape(char *s)
{
	char *out = s;

	for (; *s; s++) {
		unsigned c;

		if (s[0] == '\\' && sscanf(s + 1, "%3o", &c) == 1 && s[1] && s[2] && s[3]) {
			*out++ = (char)c;
			s += 3;
		} else {
			*out++ = *s;
		}
	}
	*out = '\0';
}

int zcav_dev_swap(const struct stat *st, char *what, size_t whatlen)
{
	FILE *f = fopen("/proc/swaps", "r");
	char line[2048];
	int found = 0;

	if (!f)
		return errno == ENOENT ? 0 : -errno;
	while (fgets(line, sizeof(line), f)) {
		char name[1024], text[1100];
		struct stat sst;

		if (sscanf(line, "%1023s", name) != 1 || !strcmp(name, "Filename"))
			continue;
		unescape(name);
		if (stat(name, &sst))
			continue;
		if (S_ISBLK(st->st_mode) ? !(S_ISBLK(sst.st_mode) && sst.st_rdev == st->st_rdev) :
		    !(sst.st_dev == st->st_dev && sst.st_ino == st->st_ino))
			continue;
		snprintf(text, sizeof(text), "in use as swap: %s (/proc/swaps)", name);
		add_what(what, whatlen, text);
		found = 1;
	}
	fclose(f);
	return found;
}

/* The names in dir (holders/ of a device): "dm-0, md0"; false when none. */
static bool list_dir(const char *dir, char *buf, size_t len)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	size_t used = 0;

	buf[0] = '\0';
	if (!d)
		return false;
	while ((e = readdir(d)) && used < len) {
		int n;

		if (e->d_name[0] == '.')
			continue;
		n = snprintf(buf + used, len - used, "%s%s", used ? ", " : "", e->d_name);
		if (n > 0)
			used += (size_t)n;
	}
	closedir(d);
	return used > 0;
}

/* A regular file: the loop devices it backs (/sys/block/loop*\/loop/backing_file). */
static int file_loops(const struct stat *st, char *what, size_t whatlen)
{
	DIR *d = opendir("/sys/block");
	struct dirent *e;
	int found = 0;

	if (!d)
		return 0;
	while ((e = readdir(d))) {
		char dir[300], backing[PATH_MAX], text[PATH_MAX + 64];
		struct stat bst;

		if (strncmp(e->d_name, "loop", 4))
			continue;
		snprintf(dir, sizeof(dir), "/sys/block/%s", e->d_name);
		if (!sysfs_line(dir, "loop/backing_file", backing, sizeof(backing)) ||
		    stat(backing, &bst) || bst.st_dev != st->st_dev || bst.st_ino != st->st_ino)
			continue;
		snprintf(text, sizeof(text), "attached to /dev/%s (its backing file)", e->d_name);
		add_what(what, whatlen, text);
		found = 1;
	}
	closedir(d);
	return found;
}

int zcav_dev_holders(const struct stat *st, char *what, size_t whatlen)
{
	char dir[96], disk[128], holders[160], names[256], text[512];

	if (S_ISREG(st->st_mode))
		return file_loops(st, what, whatlen);
	if (!S_ISBLK(st->st_mode))
		return 0;
	sysfs_dirs(st->st_rdev, dir, sizeof(dir), disk, sizeof(disk));
	snprintf(holders, sizeof(holders), "%s/holders", dir);
	if (!list_dir(holders, names, sizeof(names)))
		return 0;
	snprintf(text, sizeof(text), "held by %s (%s)", names, holders);
	add_what(what, whatlen, text);
	return 1;
}

bool zcav_dev_checks_known(void)
{
	return true;
}

/* A magic link: it opens the very file the descriptor holds, whatever its path became since. */
const char *zcav_dev_stdin_path(void)
{
	return "/proc/self/fd/0";
}

/*
 * The path is opened first only to look (O_PATH: no device's open runs),
 * and what it holds is reopened through /proc/self/fd, which is that
 * inode whatever the link says by then.
 */
int zcav_dev_open_block(const char *path, int flags)
{
	struct stat looked, opened;
	char again[64];
	int look, fd;

	look = open(path, O_PATH | O_CLOEXEC);
	if (look < 0)
		return -errno;
	fd = -ENOTBLK;
	if (fstat(look, &looked)) {
		fd = -errno;
		goto close_look;
	}
	if (!S_ISBLK(looked.st_mode))
		goto close_look;
	snprintf(again, sizeof(again), "/proc/self/fd/%d", look);
	fd = open(again, flags);
	if (fd < 0) {
		fd = -errno;
		goto close_look;
	}
	if (fstat(fd, &opened) || !S_ISBLK(opened.st_mode) || opened.st_rdev != looked.st_rdev) {
		close(fd);
		fd = -ENOTBLK;
	}
close_look:
	close(look);
	return fd;
}
