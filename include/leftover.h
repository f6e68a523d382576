/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef CLYDE_LEFTOVER_H
#define CLYDE_LEFTOVER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

/*
 * What a killed clyde leaves behind. Every private directory carries a
 * marker (LEFTOVER_MARKER: pid, host, boot, process start, time, command
 * line), so a later run can tell a directory whose clyde is gone (SIGKILL,
 * a crash, a power cut) from one in use, and --cleanup can remove exactly
 * those.
 */
#define LEFTOVER_MARKER ".clyde-run"

/* The command line the markers name (main sets it once). */
void leftover_set_command(int argc, char **argv);

/* Write the marker into a private directory just made. 0 or -errno. */
int leftover_mark(const char *workdir);

struct leftover {
	char path[4096];	/* the private directory */
	pid_t pid;
	char host[64];
	char cmd[512];
	int64_t started;	/* epoch seconds */
	uint64_t bytes;		/* what it holds (allocated blocks) */
	bool same_host;
	bool gone;		/* its process is gone (this host only) */
	char why[128];		/* how that was told, or why it could not be */
};

/* Parse a marker's text; 0, or -EINVAL when it is not clyde's. */
int leftover_parse(const char *text, struct leftover *l);

/*
 * Each clyde.* directory right in dir that has a marker (a real directory,
 * never a symlink): fn is called with what was found. 0 or -errno (dir
 * cannot be read).
 */
int leftover_scan(const char *dir, void (*fn)(const struct leftover *l, void *arg), void *arg);

/* A run's note on stderr for every leftover whose process is gone. */
void leftover_warn(const char *dir, FILE *out);

/*
 * --cleanup DIR: remove the leftovers whose process is gone (on this
 * host), saying what was removed and what was kept and why. Returns the
 * exit status: 0, 2 (dir unusable) or 3 (a removal failed).
 */
int leftover_cleanup(const char *dir, FILE *out);

#endif
