/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef CLYDE_AGE_H
#define CLYDE_AGE_H

/*
 * Aging (--age=FULL[:CHURN[:PROFILE]]): before the phases, bring the file
 * system to FULL percent of what an ordinary user may use, with files in
 * a private directory (clyde.age.XXXXXX under -d), then churn: delete
 * files chosen at random and write new ones until CHURN times the
 * capacity has been written, so the free space ends up scattered (Conway
 * et al., FAST '17; Kadekodi et al., "Geriatrix", ATC '18).
 *
 * The sequence of operations depends only on the seed, the profile, the
 * capacity and block size read at the start, and the target: never on
 * timing. age_plan_make() runs the same generator without writing, so
 * the plan's bytes are the bytes the run writes (correction rounds, which
 * follow what statvfs says after a sync, are counted apart).
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "sys/fsfill.h"

#define AGE_BUCKETS_MAX 32
#define AGE_DEPTH_MAX 8
#define AGE_FULL_MAX 95.0
#define AGE_SIZE_DEFAULT (8ull << 30)

struct age_bucket {
	uint64_t low, high;	/* bytes, low <= high: a size uniform in [low, high] */
	uint32_t weight;
};

struct age_depth_row {
	unsigned depth;		/* directories between the aging directory and the file */
	uint32_t weight;
};

struct age_profile {
	char name[64];
	unsigned nsize, ndepth;
	struct age_bucket size[AGE_BUCKETS_MAX];
	struct age_depth_row depth[AGE_DEPTH_MAX + 1];
};

/* One built-in profile, a row of age_profiles.c's table. */
struct age_profile_row {
	const char *name;
	const char *source;	/* where its buckets come from, for clyde(1) and --plan */
	const struct age_bucket *size;
	unsigned nsize;
	const struct age_depth_row *depth;
	unsigned ndepth;
};

extern const struct age_profile_row age_profile_rows[];
extern const unsigned age_profile_count;

/*
 * A built-in profile by name, or a file of buckets (a name with a '/'):
 * 0, or -errno with err naming file:line.
 */
int age_profile_get(const char *name, struct age_profile *out, char *err, size_t errlen);

/* What the user asked: --age, --age-size, --age-time, --age-log, --age-only. */
struct age_spec {
	bool on;
	double full_pct;
	double churn;		/* capacities to write after the fill */
	char profile_name[1024];
	struct age_profile profile;
	uint64_t max_bytes;	/* --age-size */
	double time_box_s;	/* --age-time; 0: none */
	const char *log_path;	/* --age-log */
	bool keep;		/* --age-only */
};

/* Parse FULL[%][:CHURN[:PROFILE]] into spec (profile loaded); 0 or -EINVAL with err. */
int age_spec_parse(const char *arg, struct age_spec *spec, char *err, size_t errlen);


/* What aging will do, computed before anything is written. */
struct age_plan {
	struct fs_fill start;
	uint64_t seed;
	uint64_t reserve_bytes;	/* the phases' big files, present at the block read */
	uint64_t target_bytes;	/* what aging's files hold (allocation-rounded) once filled */
	uint64_t fill_bytes;	/* written to fill */
	uint64_t churn_bytes;	/* written while churning */
	uint64_t fill_files, churn_files, deletes;
	double estimate_s;
};

/*
 * The plan: reads statvfs of dir, checks FULL against what is there, the
 * reservation (reserve_bytes at the block read, later_bytes after it: the
 * file tests) and --age-size, then runs the generator dry. 0, or -EINVAL
 * (refused: err says why and how much) or another -errno.
 */
int age_plan_make(const char *dir, const struct age_spec *spec, uint64_t seed,
		  uint64_t reserve_bytes, uint64_t later_bytes, double write_bps,
		  double file_s, struct age_plan *plan, char *err, size_t errlen);

/* Where a caller may look at the aging directory: after the fill, after the churn. */
enum age_point { AGE_POINT_FRESH, AGE_POINT_AGED };

typedef void (*age_sample_fn)(void *ctx, int age_dir_fd, enum age_point point);

struct age_outcome {
	double fill_before_pct, fill_aged_pct;
	uint64_t written_bytes;		/* fill + churn + correction */
	uint64_t correction_bytes;	/* written by the correction rounds */
	uint64_t files_written, files_deleted, live_files, live_bytes;
	uint64_t churn_written;		/* bytes written while churning */
	double churn_done;		/* churn_written over the capacity */
	double seconds;
	bool time_box_hit;
	char dir[4200];			/* the aging directory */
};

struct age_state;

/*
 * Age dir as planned: make the aging directory, fill, call sample at the
 * fresh point, churn, call sample at the aged point. On success *state
 * holds the directory (age_remove() removes it). On failure the directory
 * is removed already: -EINTR (a stop signal), -ENOSPC/-EDQUOT (out of
 * space), other -errno; err says what.
 */
int age_run(const char *dir, const struct age_spec *spec, const struct age_plan *plan,
	    age_sample_fn sample, void *ctx, struct age_state **state,
	    struct age_outcome *out, char *err, size_t errlen);

/* Remove the aging directory and free state (NULL: nothing); 0 or -errno. */
int age_remove(struct age_state *state);
/* Keep the directory, free state. */
void age_keep(struct age_state *state);

/* Run on one CPU (ext4 allocates per CPU): 0, or -errno; age_cpu_restore undoes it. */
int age_cpu_pin(void **saved);
void age_cpu_restore(void *saved);

#endif
