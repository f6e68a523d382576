/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef CLYDE_LEFTOVER_H
#define CLYDE_LEFTOVER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "sys/leftover_mark.h"

/*
 * What a killed clyde leaves behind: the private directories whose marker
 * (leftover_mark.h) names a process that is gone (SIGKILL, a crash, a power
 * cut), told from those in use, so that --cleanup can remove exactly those.
 */

/* How far a leftover's bytes were counted (see leftover_scan). */
enum leftover_size {
	LEFTOVER_SIZE_NONE,		/* not asked for: never shown */
	LEFTOVER_SIZE_WHOLE,		/* every entry */
	LEFTOVER_SIZE_CUT,		/* too large: its first entries only */
	LEFTOVER_SIZE_NOT_OWNED,	/* another user's tree: not walked */
	LEFTOVER_SIZE_NO_TIME,		/* the scan's budget went to the trees before it */
};

struct leftover {
	char path[4096];	/* the private directory, for messages */
	char name[256];		/* its name in the directory scanned, */
	int parent_fd;		/* which is open at this while fn runs */
	struct stat st;		/* the directory as scanned (owner, st_dev, st_ino) */
	uid_t marker_uid;	/* the marker's owner */
	char pidns[48];		/* the marker's pid namespace (DEV:INO), empty if none */
	bool other_ns;		/* written in another pid namespace */
	pid_t pid;
	char host[64];
	char cmd[512];
	int64_t started;	/* epoch seconds */
	uint64_t bytes;		/* what it holds (allocated blocks), as far as counted: */
	enum leftover_size size;
	uint64_t counted;	/* LEFTOVER_SIZE_CUT: the entries counted */
	bool same_host;
	bool gone;		/* its process is gone (this host only) */
	char why[512];		/* how that was told, or why it could not be (shown escaped) */
};

/* Parse a marker's text; 0, or -EINVAL when it is not clyde's. */
int leftover_parse(const char *text, struct leftover *l);

/*
 * Each clyde.* directory right in dir that has a marker (a real directory,
 * never a symlink, read by descriptors): fn is called with what was found.
 * any_ns: a marker from another pid namespace counts as gone. every: look
 * at each and count each one's size (--cleanup); else (before a run) the
 * scan stops after LEFTOVER_SCAN_SECONDS and counts only the trees whose
 * process is gone. Counting is bounded either way (LEFTOVER_COUNT_*), and
 * a tree the effective user does not own is never walked. 0, -ETIMEDOUT
 * (not every: it stopped early), or -errno (dir cannot be read).
 */
int leftover_scan(const char *dir, bool any_ns, bool every,
		  void (*fn)(const struct leftover *l, void *arg), void *arg);

/* A run's note on stderr for every leftover whose process is gone. */
void leftover_warn(const char *dir, FILE *out);

struct cleanup_opts {
	const char *user;	/* --cleanup-user: remove this user's trees, as this user */
	bool any_ns;		/* --cleanup-any-ns: other pid namespaces' markers are gone */
};

/*
 * --cleanup DIR: remove the leftovers whose process is gone (on this
 * host) and whose directory and marker the effective uid owns (or
 * opts->user, then in a child that became that user), saying what was
 * removed and what was kept and why. Returns the exit status: 0, 1 (no
 * such user), 2 (dir unusable) or 3 (a removal failed).
 */
int leftover_cleanup(const char *dir, const struct cleanup_opts *opts, FILE *out);

#endif
