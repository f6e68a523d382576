/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef CLYDE_WORKDIR_H
#define CLYDE_WORKDIR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* The -d path plus clyde.XXXXXX; file names inside get room of their own. */
#define WORKDIR_MAX 2048
#define WORKPATH_MAX (WORKDIR_MAX + 64)

/*
 * Check that dir can hold need_bytes: it exists, is a directory, is
 * writable by us (access() after dropping privileges), is not on a
 * read-only filesystem and has the space. Returns 0 or -errno
 * (-ENOENT, -ENOTDIR, -EACCES, -EROFS, -ENOSPC) with a message in err.
 */
int workdir_check(const char *dir, uint64_t need_bytes, char *err, size_t errlen);

/*
 * Free bytes for an unprivileged user under dir, or 0 when unknown. Where
 * the file system reports no size (ramfs, tmpfs size=0), the memory it may
 * fill, or 0 where the system cannot tell: note (len bytes) says which, ""
 * for a file system that reports its size.
 */
uint64_t workdir_free_bytes(const char *dir, char *note, size_t len);

/* Free inodes for an unprivileged user, UINT64_MAX when not counted, 0 unknown. */
uint64_t workdir_free_inodes(const char *dir);

/* mkdtemp(dir/clyde.XXXXXX); the path goes to out. */
int workdir_create(const char *dir, char *out, size_t outlen);
/* The same, named clyde.<tag>XXXXXX: under mpirun the tag is the rank ("r3."). */
int workdir_create_tagged(const char *dir, const char *tag, char *out, size_t outlen);

/*
 * The remover (src/sys/workdir_remove.c): by descriptors only, never a path
 * string below the root, never following a symlink, never entering a
 * mount (another file system, or another mount of the same one, a bind
 * mount: sys/mount_id.h; it is kept and named) nor a directory deeper
 * than WORKDIR_DEPTH_MAX levels (so at most that many descriptors are
 * open). It goes on past a failure; the first error is returned (-EXDEV:
 * a mount was kept; -ELOOP: too deep; -EAGAIN: a directory changed while
 * it was read).
 */
#define WORKDIR_DEPTH_MAX 64u

/* Remove path and everything under it; 0 or -errno. */
int workdir_remove(const char *path);

/*
 * Remove the directory name in parent_fd and everything under it; when
 * expect is given, only if name is still that directory (st_dev, st_ino,
 * st_uid). 0 or -errno.
 */
struct stat;
int workdir_remove_at(int parent_fd, const char *name, const struct stat *expect);

/* What a failed removal left under path: the first max named on out; how many in all. */
unsigned workdir_name_left(const char *path, FILE *out, unsigned max);

/* The same for the directory name in parent_fd, shown as the path shown. */
unsigned workdir_name_left_at(int parent_fd, const char *name, const char *shown, FILE *out,
			      unsigned max);

/* The bytes allocated to the tree open at dir_fd (not closed), on its file system only. */
uint64_t workdir_tree_bytes(int dir_fd);

/*
 * A bound on walks that only look: the entries they may visit and a
 * deadline (now_ns, lib/timing.h), spent by every walk given the same
 * budget. Once spent it stays spent.
 */
struct walk_budget {
	uint64_t entries_left;
	uint64_t deadline_ns;
	uint64_t entries;	/* visited so far, by all the walks */
	bool spent;
	bool out_of_time;	/* the deadline spent it, not the entries */
};

/*
 * workdir_tree_bytes within budget: false when the budget ran out first,
 * *bytes then what the entries visited hold.
 */
bool workdir_tree_bytes_within(int dir_fd, struct walk_budget *budget, uint64_t *bytes);

#endif
