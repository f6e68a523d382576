/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef CLYDE_EXTENTS_H
#define CLYDE_EXTENTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * Fragmentation measured, not assumed (issue 44): where a file's bytes lie
 * on the device and how the free space is cut up, each as the OS tells it
 * (extents_linux.c: FIEMAP and GETFSMAP; extents_bsd.c: FreeBSD's FIOBMAP2,
 * NetBSD's FIOGETBMAP), or "not measured" with the reason. The adding up
 * (extents_sum.c) is the same everywhere and pure, so it is tested on crafted
 * maps (tests/unit/unit_extents.c).
 */

#define EXTENT_METHOD_LEN	24
#define EXTENT_WHY_LEN		160

/* What the OS said of a piece, beyond where it lies. */
enum {
	EXTENT_UNWRITTEN = 1 << 0,	/* allocated, never written: reads cost no I/O */
	EXTENT_UNKNOWN = 1 << 1,	/* no place yet (delayed allocation) or none told */
	EXTENT_INLINE = 1 << 2,		/* kept with the metadata, not in a block of its own */
	EXTENT_ENCODED = 1 << 3,	/* compressed or encrypted: its device bytes differ */
	EXTENT_SHARED = 1 << 4,		/* shared with another file (reflink, snapshot) */
};

/* One piece of a file: bytes [logical, logical + length) at physical on the device. */
struct extent_piece {
	uint64_t logical;
	uint64_t physical;
	uint64_t length;
	unsigned flags;		/* EXTENT_* */
};

/* A file's pieces in logical order, kept up to max (the test file's map in the JSON). */
struct extent_map {
	struct extent_piece *pieces;	/* the caller's array of max */
	size_t count;
	size_t max;
	bool truncated;		/* more pieces than max: the map is not whole */
};

/* Extents of one or more files, added up; per file and per MiB the formatters derive. */
struct extent_figures {
	bool measured;
	char method[EXTENT_METHOD_LEN];	/* "FIEMAP", "FIOBMAP2", "FIOGETBMAP" */
	char why[EXTENT_WHY_LEN];	/* not measured: the reason; measured: a caveat or "" */
	uint64_t files;
	uint64_t bytes;			/* the pieces' lengths */
	uint64_t extents;		/* pieces as the OS reports them */
	/* physically contiguous runs: pieces that continue the previous merged */
	uint64_t runs;
	uint64_t largest_run;		/* bytes: the largest such run */
	/* pieces the OS flagged (EXTENT_*), counted apart */
	uint64_t unwritten, unknown, inline_data, encoded, shared;
};

/* Pieces of free space by size, powers of two from 4 KiB (under 8 KiB) to 1 GiB and up. */
#define FREE_BUCKETS		19
#define FREE_BUCKET_MIN		4096ULL

struct free_space_figures {
	bool measured;
	char method[EXTENT_METHOD_LEN];	/* "GETFSMAP" */
	char why[EXTENT_WHY_LEN];
	uint64_t records;		/* free records as the OS reports them */
	uint64_t pieces;		/* contiguous free pieces: records that touch merged */
	uint64_t bytes;
	uint64_t largest;		/* bytes: the largest piece */
	uint64_t buckets[FREE_BUCKETS];	/* pieces by size: [4K<<i, 4K<<(i+1)); the last 1G+ */
};

/* One state of a filesystem: its free space and, where asked, small files' extents. */
struct frag_state {
	bool present;
	struct free_space_figures free_space;
	struct extent_figures small_files;	/* measured false: none sampled */
};

void extent_figures_init(struct extent_figures *f);
void free_space_figures_init(struct free_space_figures *f);

/*
 * One file's extents into f (and its pieces into map, unless NULL); 0, or
 * -errno where the file could not be read. Where the OS or the filesystem
 * has no way to tell, 0 with f->measured false and f->why the reason.
 */
int extents_add_fd(int fd, struct extent_figures *f);
int extents_map_fd(int fd, struct extent_figures *f, struct extent_map *map);

/*
 * A deterministic sample of up to max_files regular files under dirfd: by
 * descriptor, names in byte order at each level, no symbolic link
 * followed, no mount crossed. 0 or -errno.
 */
int extents_sample_dir(int dirfd, unsigned max_files, struct extent_figures *f);

/* The free space of the filesystem dirfd is on; 0, or 0 with measured false and why. */
int free_space_measure(int dirfd, struct free_space_figures *f);

/*
 * A state: dirfd's filesystem's free space, and up to max_files files under
 * sample_dirfd (-1: no small files). Measures what it can; never fails.
 */
void frag_state_measure(int dirfd, int sample_dirfd, unsigned max_files, struct frag_state *st);

/* The bucket a free piece of bytes falls in, and a bucket's name ("4k" ... "1g+"). */
unsigned free_space_bucket(uint64_t bytes);
const char *free_space_bucket_name(unsigned bucket);

/*
 * The adding up, pure (tests/unit/unit_extents.c): a file's pieces in
 * logical order between begin and end; free records in physical order.
 */
struct extent_file {
	struct extent_figures *f;
	struct extent_map *map;
	bool open;		/* a run is open */
	uint64_t run_end;	/* physical end of the open run */
	uint64_t run_bytes;
};

void extent_file_begin(struct extent_file *x, struct extent_figures *f, struct extent_map *map);
void extent_file_piece(struct extent_file *x, const struct extent_piece *p);
void extent_file_end(struct extent_file *x);

struct free_space_walk {
	struct free_space_figures *f;
	bool open;
	uint64_t end;		/* physical end of the open piece */
	uint64_t bytes;
};

void free_space_begin(struct free_space_walk *w, struct free_space_figures *f);
void free_space_record(struct free_space_walk *w, uint64_t physical, uint64_t length);
void free_space_end(struct free_space_walk *w);

/*
 * The OS's part (extents_linux.c, extents_bsd.c): one file's pieces into x
 * in logical order, its method named; -EOPNOTSUPP with why where it cannot
 * tell, -errno on failure. The free space's records into w the same way.
 */
int extents_os_walk(int fd, struct extent_file *x, char *method, size_t method_len, char *why,
		    size_t why_len);
int free_space_os_walk(int dirfd, struct free_space_walk *w, char *method, size_t method_len,
		       char *why, size_t why_len);

#endif
