/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef CLYDE_SESSION_H
#define CLYDE_SESSION_H

/*
 * One clyde invocation's state, private to the clyde program (main.c and
 * the session_*.c files beside it): what main() dispatches to once the
 * options are parsed. Functions return 0 or an exit status (clyde.h)
 * unless they say otherwise; only main() exits.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "age/age.h"
#include "clyde/calibrate.h"
#include "clyde/options.h"
#include "clyde/plan.h"
#include "core/result.h"
#include "formats/format.h"
#include "placement/placement.h"
#include "placement/topology.h"
#include "profile/profile.h"
#include "sys/ceilings.h"
#include "sys/fsinfo.h"
#include "sys/sysinfo.h"

struct bench;

struct session {
	struct clyde_options opt;
	struct place_machine topo;
	struct fsinfo fs;
	struct sysinfo si;
	struct ceilings ceil;
	char hostname[128];
	uint32_t first_seed;
	unsigned sync_count;
	struct run_plan plan;
	struct calibration cal;
	struct prof_sampler prof;	/* --profile */
	int flame_fd;		/* --flame DIR, opened once; -1 without */
	struct place_topology model;	/* the machine */
	struct place_plan place;	/* where each worker runs */
	double clock_offset;	/* under mpirun: this rank's clock minus rank 0's, seconds */
	uint64_t start_ns;	/* before the calibration: what the estimate covers */
	unsigned dirs_left;	/* runs whose private directory was not wholly removed */
	struct age_plan age_plan;	/* --age: what aging will write */
	struct age_state *age;	/* --age: the aging directory while it stands */
	struct run_age age_result;	/* --age: what aging did, copied into every run */
	/* --age: the fragmentation before aging (its files sampled after the fill) and after it */
	struct frag_state age_fresh, age_aged;
};

/* session_setup.c: checks, measures and plans; err says why it failed. */
int prepare(struct session *s, char *err, size_t errlen);

/* session_labels.c */
bool cache_ignored(const struct session *s);
void fill_result_labels(const struct session *s, uint32_t seed, struct run_result *r);

/* session_run.c: every -x run, reported; the exit status. */
int run_all(struct session *s, const struct format_opts *fo);

/* session_age.c: --age's plan (in prepare), the aging, its removal. */
int age_prepare(struct session *s, char *err, size_t errlen);
void age_plan_print(FILE *out, const struct session *s);
int age_begin(struct session *s, char *msg, size_t len);
int age_end(struct session *s);

/* session_cluster.c: the MPI glue; alone each does nothing or says status. */
int ranks_agree(int status, const char *msg, bool say);
int read_other_dir(const struct session *s, struct bench *b);
int share_plan(struct session *s);
int check_cluster(const struct session *s, char *err, size_t errlen);

/* session_flame.c: --profile=stacks' notes and --flame DIR's folded stacks. */
int flame_open(struct session *s, char *err, size_t errlen);
void flame_close(struct session *s);
int flame_write_run(const struct session *s, const struct run_result *res, uint32_t run);
void stacks_notes(FILE *log, const struct run_result *res);

/* session_json.c: the --json file, written whole or not at all. */
FILE *open_json(const char *path, char *temp, size_t len);
int close_json(FILE *f, const char *path, const char *temp);

#endif
