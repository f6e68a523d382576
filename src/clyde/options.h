/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef CLYDE_OPTIONS_H
#define CLYDE_OPTIONS_H

#include "placement/placement.h"
#include <stdio.h>
#include "age/age.h"
#include "core/capacity.h"
#include "core/clyde.h"
#include "core/modes.h"
#include "lib/steady.h"

struct tree_shape;

/*
 * What the user typed, checked for form and range (sizes in bytes);
 * the plan (plan_build) turns it into the counts a run uses.
 */
struct clyde_options {
	const char *dir;
	bool size_given;
	uint64_t size_bytes;	/* -s's size: a whole number of MiB */
	uint32_t chunk;
	uint32_t seeks;
	bool seeks_given;	/* -s's seek field: bonnie++'s fixed count and +++++ */
	uint32_t seekers;
	uint32_t files;
	bool files_given;	/* -n: bonnie++'s fixed count and +++++ */
	int64_t file_max;
	int64_t file_min;
	uint32_t file_dirs;
	uint32_t file_chunk;
	const char *name;
	bool ram_given;
	uint64_t ram_bytes;	/* -r: a whole number of MiB */
	uint32_t repeats;
	bool repeats_given;	/* -x: CSV lines only on stdout */
	const char *user;
	const char *group;
	bool quiet;
	bool skip_perchar;
	uint64_t perchar_bytes;
	bool fsync_each;
	bool direct;
	bool seed_given;
	uint32_t seed;
	const char *seed_file;
	uint32_t concurrency;
	bool sem_procs_given;
	int32_t sem_procs;
	enum sync_mode sync;
	enum cache_mode cache;
	enum perchar_mode perchar;
	bool exact;
	const char *engine;	/* an engine's name, or "auto" */
	uint32_t iodepth;
	bool iodepth_given;
	uint32_t seek_updates;	/* percent of seeks that write back */
	const char *json;	/* --json FILE, "-" for stdout */
	bool latency_table;	/* --latency */
	bool cpu_table;		/* --cpu */
	enum data_mode data;
	uint32_t data_zero_pct;
	bool verify;
	bool ceilings;
	bool profile;		/* --profile */
	bool profile_layers;	/* --profile=layers: the latency split (BPF) */
	bool profile_stacks;	/* --profile=stacks */
	uint32_t stack_hz;	/* --stack-hz: samples per second and CPU */
	const char *flame_dir;	/* --flame DIR: the folded stacks, one file per phase */
	const char *profile_dev;	/* --profile-dev: NULL finds the devices */
	struct place_opts place;	/* --bind, --cpus, --numa-node, --mem-policy */
	const char *tree;	/* --tree=SHAPE[:SCALE] as typed */
	const struct tree_shape *tree_shape;	/* its shape, parsed once (NULL: no --tree) */
	double tree_scale;
	uint64_t tree_seed;	/* --tree-seed */
	bool tree_list;		/* --tree-list: print the tree and stop */
	double stonewall_s;	/* --stonewall; 0 off */
	int64_t interval_ms;	/* --interval: 0 adaptive (default), -1 off */
	enum live_mode live;	/* --live */
	struct steady_spec steady;	/* --steady; .on false without */
	int read_other;		/* --mpi-read-other; 0 off */
	double mpi_timeout_s;	/* --mpi-timeout: a meeting's deadline; 0 none */
	const char *cleanup_dir;	/* --cleanup DIR: remove leftovers and exit */
	const char *cleanup_user;	/* --cleanup-user: also this user's, as this user */
	bool cleanup_any_ns;	/* --cleanup-any-ns: other pid namespaces' too */
	struct age_spec age;	/* --age, --age-size, --age-time, --age-log, --age-only */
	bool age_extra_given;	/* one of the others given: wants --age */
	/* --latency-target, --open-loop and the options that tune them */
	struct capacity_spec capacity;
	bool capacity_extra_given;	/* a tuning option given: wants one of the two */
	bool warmup;
	bool plan_only;		/* --plan */
	bool help;
	bool version;
};

/* Limits, named in the messages and in clyde(1). */
#define MAX_SIZE_MIB		(1ull << 30)	/* 1 PiB */
#define MIN_CHUNK		256u
#define MAX_CHUNK		(1u << 20)
#define MAX_SEEKS		1000000000u
#define MAX_SEEKERS		256u
#define MAX_FILES		4096u		/* x1024 files */
#define MAX_FILE_SIZE		(1ll << 30)
#define MAX_FILE_DIRS		100000u
#define MIN_STONEWALL_S		0.01
#define MAX_STONEWALL_S		1e6
#define MIN_INTERVAL_MS		100
#define MAX_INTERVAL_MS		3600000
#define MAX_READ_OTHER		1000000
#define MAX_MPI_TIMEOUT_S	1e6
#define MAX_REPEATS		100000u
#define MAX_CONCURRENCY		256u
#define MAX_SEM_PROCS		1000
#define MIN_PERCHAR_BYTES	1024u
#define MAX_PERCHAR_BYTES	(1ull << 40)
#define MAX_NAME_LEN		100u
#define MAX_IODEPTH		1024u
#define DEFAULT_STACK_HZ	99u	/* off the kernel's 100 Hz and 1000 Hz timers */
#define MAX_STACK_HZ		10000u

void options_defaults(struct clyde_options *o);

/*
 * Parse argv into *o by the options table (options.c). Returns 0, or
 * -EINVAL with a message naming the option and the limit in err.
 */
int options_parse(struct clyde_options *o, int argc, char **argv,
		  char *err, size_t errlen);

/* --help: the synopsis, then every row's help lines in the table's order. */
void options_usage(FILE *out);

#endif
