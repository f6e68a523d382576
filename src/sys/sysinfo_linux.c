// SPDX-License-Identifier: BSD-2-Clause
/* Linux: /proc/cpuinfo and the block device's queue in /sys. */
#include "config.h"

#include <ctype.h>
#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "lib/strutil.h"
#include "sys/fsinfo.h"
#include "sys/sysinfo.h"

static void trim(char *s)
{
	size_t n = strlen(s);

	while (n && isspace((unsigned char)s[n - 1]))
		s[--n] = '\0';
}

void sysinfo_cpu_model(char *buf, size_t len)
{
	char line[512];
	FILE *f = fopen("/proc/cpuinfo", "re");

	buf[0] = '\0';
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		char *colon = strchr(line, ':');

		/* x86 says "model name", arm64 may only say "CPU part". */
		if (colon && (!strncmp(line, "model name", 10) || !strncmp(line, "Model", 5))) {
			snprintf(buf, len, "%s", colon + 1 + (colon[1] == ' '));
			trim(buf);
			break;
		}
	}
	fclose(f);
}

static int read_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "re");

	if (!f)
		return -1;
	if (!fgets(buf, (int)len, f)) {
		fclose(f);
		return -1;
	}
	fclose(f);
	trim(buf);
	return 0;
}

/*
 * A loop device's backing file and its direct I/O (drivers/block/loop.c's
 * sysfs attributes, in loop/ of the whole device, beside its queue).
 */
static void blockdev_loop(const char *real, const char *queue, struct sysinfo *si)
{
	char path[PATH_MAX + 64], buf[16];
	const char *up = strcmp(queue, "queue") ? "../" : "";

	snprintf(path, sizeof(path), "%s/%sloop/backing_file", real, up);
	if (read_line(path, si->loop_backing, sizeof(si->loop_backing)))
		return;
	snprintf(path, sizeof(path), "%s/%sloop/dio", real, up);
	if (!read_line(path, buf, sizeof(buf)))
		si->loop_dio = atoi(buf) != 0;
}

/*
 * The device of dir's files, or 0: btrfs gives its files an anonymous
 * device (major 0, as tmpfs and NFS do), and its mount source is then
 * the disk, when that is a block device.
 */
static dev_t blockdev_of(const char *dir)
{
	struct fsinfo *fs;
	struct stat st, src;
	dev_t dev = 0;

	if (stat(dir, &st))
		return 0;
	if (major(st.st_dev))
		return st.st_dev;
	fs = calloc(1, sizeof(*fs));
	if (fs && !fsinfo_get(dir, fs) && !strncmp(fs->source, "/dev/", 5) &&
	    !stat(fs->source, &src) && S_ISBLK(src.st_mode))
		dev = src.st_rdev;
	free(fs);
	return dev;
}

/* Whether the whole device lists slaves (an md array, a dm target). */
static void blockdev_stacked(const char *real, const char *queue, struct sysinfo *si)
{
	char path[PATH_MAX + 64];
	const char *up = strcmp(queue, "queue") ? "../" : "";
	struct dirent *d;
	DIR *dir;

	snprintf(path, sizeof(path), "%s/%sslaves", real, up);
	dir = opendir(path);
	if (!dir)
		return;
	while ((d = readdir(dir)))
		if (d->d_name[0] != '.') {
			si->stacked = true;
			break;
		}
	closedir(dir);
}

void sysinfo_blockdev(const char *dir, struct sysinfo *si)
{
	char base[PATH_MAX], real[PATH_MAX], path[PATH_MAX + 64], buf[256];
	const char *queue = "queue";
	dev_t dev = blockdev_of(dir);
	char *name, *open_br;

	if (!dev)
		return;		/* tmpfs, NFS and the like: no block device */
	snprintf(base, sizeof(base), "/sys/dev/block/%u:%u", major(dev), minor(dev));
	if (!realpath(base, real))
		return;
	name = strrchr(real, '/');
	str_copy(si->blockdev, sizeof(si->blockdev), name ? name + 1 : real);
	/* A partition keeps its queue in the whole disk's directory. */
	snprintf(path, sizeof(path), "%s/partition", real);
	if (!access(path, F_OK))
		queue = "../queue";
	blockdev_loop(real, queue, si);
	blockdev_stacked(real, queue, si);
	snprintf(path, sizeof(path), "%s/%s/rotational", real, queue);
	if (!read_line(path, buf, sizeof(buf)))
		si->rotational = atoi(buf);
	snprintf(path, sizeof(path), "%s/%s/read_ahead_kb", real, queue);
	if (!read_line(path, buf, sizeof(buf)))
		si->read_ahead_kb = atoi(buf);
	snprintf(path, sizeof(path), "%s/%s/scheduler", real, queue);
	if (!read_line(path, buf, sizeof(buf))) {
		/* "mq-deadline kyber [bfq] none": the bracketed one is active. */
		open_br = strchr(buf, '[');
		if (open_br) {
			char *close_br = strchr(open_br, ']');

			if (close_br)
				*close_br = '\0';
			str_copy(si->scheduler, sizeof(si->scheduler), open_br + 1);
		} else {
			str_copy(si->scheduler, sizeof(si->scheduler), buf);
		}
	}
}
