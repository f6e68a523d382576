/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef CLYDE_WORKDIR_H
#define CLYDE_WORKDIR_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/*
 * Check that dir can hold need_bytes: it exists, is a directory, is
 * writable by us (access() after dropping privileges), is not on a
 * read-only filesystem and has the space. Returns 0 or -errno
 * (-ENOENT, -ENOTDIR, -EACCES, -EROFS, -ENOSPC) with a message in err.
 */
int workdir_check(const char *dir, uint64_t need_bytes, char *err, size_t errlen);

/* Free bytes for an unprivileged user under dir, or 0 when unknown. */
uint64_t workdir_free_bytes(const char *dir);

/* Free inodes for an unprivileged user, UINT64_MAX when not counted, 0 unknown. */
uint64_t workdir_free_inodes(const char *dir);

/* mkdtemp(dir/clyde.XXXXXX); the path goes to out. */
int workdir_create(const char *dir, char *out, size_t outlen);
/* The same, named clyde.<tag>XXXXXX: under mpirun the tag is the rank ("r3."). */
int workdir_create_tagged(const char *dir, const char *tag, char *out, size_t outlen);

/* What a failed removal left under path: the first max named on out; how many in all. */
unsigned workdir_name_left(const char *path, FILE *out, unsigned max);

/* Remove path and everything under it, never following links or mounts. */
int workdir_remove(const char *path);

#endif
