/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef CLYDE_ZCAV_H
#define CLYDE_ZCAV_H

/*
 * clyde-zcav: the throughput of a disk, partition or file by position,
 * read (or written with zeros) block by block from start to end, in
 * bonnie++ zcav's options and output. zcav_options.c reads the command
 * line, zcav_guard.c decides whether a write may go ahead,
 * zcav_sweep.c measures, zcav_text.c prints zcav's format as the blocks
 * come, zcav_json.c writes --json at the end, zcav_dev_*.c ask the
 * operating system about the device.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "lib/histogram.h"

#define MIB			(1024u * 1024u)
#define ZCAV_BLOCK_MIB		512u	/* zcav's -b default */
#define ZCAV_CHUNK_MIB		1u
#define ZCAV_MAX_PASSES		100u	/* zcav's -c limit */
#define ZCAV_MAX_TARGETS	16u
/* A block read in less than this prints as a comment with "++++" (zcav's rule). */
#define ZCAV_MIN_SECONDS	1.0

/* Exit statuses (clyde-zcav(1)). */
enum zcav_exit {
	ZCAV_EXIT_OK = 0,
	ZCAV_EXIT_USAGE = 1,
	ZCAV_EXIT_IO = 2,	/* a target or log could not be opened, read or written */
	ZCAV_EXIT_REFUSED = 3,	/* -w refused: what was found is said */
	ZCAV_EXIT_OUTPUT = 4,	/* --json could not be written */
};

/* One -f file with its -l log ("-": standard output). */
struct zcav_target {
	const char *path;	/* "-": standard input */
	const char *log;
};

struct zcav_opts {
	unsigned block_mib, chunk_mib;
	unsigned passes;		/* -c */
	uint64_t first_mib, last_mib;	/* -r [first]:last; last 0: to the end */
	unsigned skip;			/* -s: read every skip-th block (1: all) */
	const char *user, *group;	/* -u, -g */
	bool write;			/* -w */
	bool force;
	bool buffered;			/* --buffered: through the page cache, as zcav */
	const char *engine;		/* "psync", "uring", "auto" */
	unsigned iodepth;
	const char *json;
	struct zcav_target target[ZCAV_MAX_TARGETS];
	unsigned ntargets;
	const char *log_pending;	/* -l's log, until the file it is for ("-": none) */
};

/* 0, or ZCAV_EXIT_USAGE with the complaint said; -1 after --help or --version. */
int zcav_options_parse(struct zcav_opts *o, int argc, char **argv);
void zcav_usage(FILE *out);

/* What the operating system says of the device (zcav_dev_linux.c, zcav_dev_bsd.c). */
struct zcav_identity {
	char kind[24];		/* "block device", "regular file", "stream" */
	char sysfs[96];		/* where it was read: "/sys/dev/block/7:0"; "" when not */
	char name[64];		/* the kernel's name: "loop0", "sda1"; "" */
	char model[64];		/* "" when not known */
	int rotational;		/* 1, 0, -1 not known */
	long logical_block, physical_block;	/* bytes; 0 not known */
	long queue_depth;	/* the device's (SCSI, NVMe) queue depth; 0 not known */
	long nr_requests;	/* the block layer's queue; 0 not known */
	char of[16];		/* "device" or, for a file, "file system" (whose device it is) */
};

void zcav_identity_read(struct zcav_identity *id, const struct stat *st);

/*
 * For -w: who else uses the target. Each returns 0 (no one), 1 with
 * what was found said in what (whatlen bytes), or -errno when it could
 * not be told. zcav_dev_* for the operating system's part.
 */
int zcav_dev_mounted(const struct stat *st, char *what, size_t whatlen);
int zcav_dev_swap(const struct stat *st, char *what, size_t whatlen);
int zcav_dev_holders(const struct stat *st, char *what, size_t whatlen);
/* Whether this system can tell the three above; where it cannot, -w is refused. */
bool zcav_dev_checks_known(void);
/*
 * -w's open of a block device named by a path that may be a symbolic
 * link: a descriptor for writing with flags, only if what the path led
 * to is a block device, decided before the open for writing (a link
 * swapped to a character device is never opened for writing: its open
 * alone can act, /dev/watchdog). fd, -ENOTBLK, or -errno.
 */
int zcav_dev_open_block(const char *path, int flags);
/* The path by which a child program opens the file that is its standard input. */
const char *zcav_dev_stdin_path(void);

struct zcav_sweep;

/*
 * For -w: opens every target once and decides on that descriptor, which
 * the sweep then writes (sw[i].fd). 0 when all may be written;
 * ZCAV_EXIT_REFUSED with every reason said on err; ZCAV_EXIT_IO when one
 * cannot be opened or examined.
 */
int zcav_guard(const struct zcav_opts *o, struct zcav_sweep *sw, FILE *err);

/* Without -w: opens every target for reading (sw[i].fd). 0, or ZCAV_EXIT_IO (said). */
int zcav_open_targets(const struct zcav_opts *o, struct zcav_sweep *sw, FILE *err);
/* The flags of a target's open(2): read or write, O_DIRECT unless --buffered. */
int zcav_open_flags(const struct zcav_opts *o);
/* A target that could not be opened: said on err, with a hint when O_DIRECT is why. */
void zcav_say_open_error(FILE *err, const struct zcav_opts *o, const char *path, int errnum);
/* sw->size and sw->sized from the open target (st: its fstat). */
void zcav_target_size(struct zcav_sweep *sw, const struct stat *st);

/*
 * The blocks a sweep measures (and -w writes), in blocks of -b from the
 * target's start: first, first + step, ... count of them. -r's first and
 * last are MiB of the target; a block is taken only when it ends at or
 * before last (and the target's known size); -s is the step. count is
 * UINT64_MAX when neither last nor a size bounds it (to the end).
 */
struct zcav_span {
	uint64_t first, step, count;
};

void zcav_span_of(const struct zcav_opts *o, const struct zcav_sweep *sw, struct zcav_span *sp);

/* One block's measure. */
struct zcav_block {
	uint64_t offset;	/* bytes from the start */
	uint64_t bytes;
	double seconds;
	uint64_t lat_ns[6];	/* the chunks' latency: min, p50, p90, p99, p99.9, max */
};

/* One pass over the target. */
struct zcav_pass {
	struct zcav_block *block;
	size_t nblocks;
	double seconds;
};

/* One target's sweep: every pass, then the mean per block (passes > 1). */
struct zcav_sweep {
	const struct zcav_target *t;
	int fd;				/* the target, opened once (0: standard input); -1 */
	struct zcav_identity id;
	uint64_t size;			/* bytes; 0 for a stream */
	bool sized;			/* no block past size: a regular file, a sized device */
	char engine[16];
	char engine_desc[160];		/* what the engine said it set up */
	bool direct;
	struct zcav_pass pass[ZCAV_MAX_PASSES];
	unsigned npasses;
	double *mean;			/* per block of the first pass, with passes > 1 */
	int error;			/* 0 or -errno, said on stderr */
	bool too_small;
	FILE *log;
};

/*
 * The engine --engine names, able to run at --iodepth here, by
 * engine_choose's rule: 0, or -errno with why in err.
 */
struct engine_choice;
int zcav_engine_pick(const struct zcav_opts *o, struct engine_choice *c, char *err, size_t len);

/* Measures one target; the text goes to sw->log as it comes. 0 or -errno (said on stderr). */
int zcav_sweep_run(const struct zcav_opts *o, struct zcav_sweep *sw);
/* Frees the passes and closes the target if the sweep did not. */
void zcav_sweep_free(struct zcav_sweep *sw);

/* zcav's text (zcav_text.c). */
void zcav_text_header(FILE *log);
/* A block at position (GiB) taking seconds, of block_mib MiB: a line, or a comment under 1 s. */
void zcav_text_block(FILE *log, double position_gib, double seconds, unsigned block_mib);
void zcav_text_pass(FILE *log, uint64_t mib, double seconds);
void zcav_text_means(FILE *log, const struct zcav_opts *o, const struct zcav_sweep *sw);
/* The mean of the middle third of n values (sorted in place), as zcav averages passes. */
double zcav_middle_mean(double *v, unsigned n);
/*
 * When every line of a sweep came out a comment: a hint on err naming a
 * block size that would give numbers. Says nothing otherwise.
 */
void zcav_text_hint(FILE *err, const struct zcav_opts *o, const struct zcav_sweep *sw);

/* --json (zcav_json.c): 0 or -errno. */
int zcav_json_write(FILE *out, const struct zcav_opts *o, const struct zcav_sweep *sw, unsigned n);

#endif
