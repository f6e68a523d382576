/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef CLYDE_SYSINFO_H
#define CLYDE_SYSINFO_H

#include <stdbool.h>
#include <stddef.h>

/* The machine and the device under a directory, for every report. */
struct sysinfo {
	char os[64];		/* uname sysname */
	char kernel[128];	/* uname release */
	char arch[32];
	char cpu_model[128];
	char blockdev[64];	/* "vda"; empty when there is no block device */
	char driver[64];	/* the BSDs: "ada (ATA direct access)"; Linux: empty */
	int rotational;		/* 1, 0, or -1 when unknown */
	char scheduler[32];	/* the active I/O scheduler */
	int read_ahead_kb;	/* -1 when unknown */
	/*
	 * Linux, a loop device: whether it reads its backing file with
	 * direct I/O (1) or through the page cache (0: the file's pages are
	 * cached below the loop, where no drop of the test file reaches);
	 * -1 when not a loop device or not known. Its backing file: "" then.
	 */
	int loop_dio;
	/*
	 * Linux: the device is made of others (md, dm: its slaves/ lists
	 * them), so its rotational flag is theirs and its rates their sum.
	 */
	bool stacked;
	char loop_backing[1025];
};

/* Fill what can be found; unknown fields stay empty or -1. */
void sysinfo_get(const char *dir, struct sysinfo *si);

/* Platform parts, in sysinfo_linux.c or sysinfo_bsd.c. */
void sysinfo_cpu_model(char *buf, size_t len);
void sysinfo_blockdev(const char *dir, struct sysinfo *si);

/* Pure helpers of the BSD part, in sysinfo.c so that tests reach them. */
int sysinfo_disk_of_source(const char *source, char *disk, size_t len);
bool sysinfo_disk_listed(const char *list, const char *disk);
void sysinfo_disk_driver(const char *disk, char *buf, size_t len);

#endif
