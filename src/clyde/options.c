// SPDX-License-Identifier: BSD-2-Clause
/*
 * Command line: bonnie++ 2.00a's short options plus clyde's long ones,
 * one table. Each row names an option (long, short or both), its
 * argument and its parser, and carries its lines of --help; getopt's
 * short string and struct option array, the dispatch and the help are
 * all made from the rows. The -s, -n, -f and -r grammars are in
 * option_sizes.c.
 */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cluster/cluster.h"
#include "clyde/option_sizes.h"
#include "clyde/options.h"
#include "core/phase.h"
#include "engines/engine.h"
#include "lib/opt.h"
#include "lib/size.h"
#include "sys/compat.h"
#include "tree/tree.h"

/*
 * A flag sets this bool of struct clyde_options; a plain string is kept
 * in this field. _Generic makes a field of another type a compile error.
 */
#define SETS(f)		OPT_FIELD(struct clyde_options, f, bool)
#define KEEPS(f)	OPT_FIELD(struct clyde_options, f, const char *)

void options_defaults(struct clyde_options *o)
{
	memset(o, 0, sizeof(*o));
	o->dir = ".";
	o->chunk = DEFAULT_CHUNK;
	o->seeks = DEFAULT_SEEKS;
	o->seekers = DEFAULT_SEEKERS;
	o->files = DEFAULT_FILES;
	o->file_dirs = 1;
	o->file_chunk = DEFAULT_FILE_CHUNK;
	o->repeats = 1;
	o->perchar_bytes = DEFAULT_PERCHAR_BYTES;
	o->concurrency = 1;
	o->place.numa_node = PLACE_NUMA_NODE_NONE;
	o->cache = CACHE_DROP;
	o->perchar = PERCHAR_SYSCALL;
	o->engine = "psync";
	o->iodepth = 1;
	o->seek_updates = 10;
	o->data = DATA_RANDOM;
	o->tree_seed = DEFAULT_TREE_SEED;
	o->mpi_timeout_s = CLUSTER_TIMEOUT_DEFAULT;
	o->stack_hz = DEFAULT_STACK_HZ;
	o->age.max_bytes = AGE_SIZE_DEFAULT;
	capacity_spec_init(&o->capacity);
}

/* The parsers of the table's rows, in its order. */

static int parse_dir(void *ctx, const char *arg, char *err, size_t errlen)
{
	struct clyde_options *o = ctx;

	if (!*arg)
		return options_fail(err, errlen, "-d: the directory name is empty");
	o->dir = arg;
	return 0;
}

static int parse_name(void *ctx, const char *arg, char *err, size_t errlen)
{
	struct clyde_options *o = ctx;

	if (!*arg)
		return options_fail(err, errlen, "-m: the machine name is empty");
	if (strlen(arg) > MAX_NAME_LEN)
		return options_fail(err, errlen, "-m: the machine name is longer than %u characters",
				    MAX_NAME_LEN);
	if (strpbrk(arg, ",\n\r"))
		return options_fail(err, errlen,
				    "-m: the machine name may not contain a comma or a newline (it is a CSV field)");
	o->name = arg;
	return 0;
}

static int parse_repeats(void *ctx, const char *arg, char *err, size_t errlen)
{
	struct clyde_options *o = ctx;

	o->repeats_given = true;
	return options_u32("-x", "number of runs", arg, 1, MAX_REPEATS, &o->repeats, err, errlen);
}

static int parse_user(void *ctx, const char *arg, char *err, size_t errlen)
{
	struct clyde_options *o = ctx;

	if (!*arg)
		return options_fail(err, errlen, "-u: the user name is empty");
	o->user = arg;
	return 0;
}

static int parse_concurrency(void *ctx, const char *arg, char *err, size_t errlen)
{
	struct clyde_options *o = ctx;

	return options_u32("-c", "concurrency", arg, 1, MAX_CONCURRENCY, &o->concurrency, err, errlen);
}

static int parse_seed(void *ctx, const char *arg, char *err, size_t errlen)
{
	struct clyde_options *o = ctx;
	int64_t v;

	if (int_parse(arg, &v) || v < 0 || v > UINT32_MAX)
		return options_fail(err, errlen, "-z: seed '%s' must be a number from 0 to %u", arg, UINT32_MAX);
	o->seed = (uint32_t)v;
	o->seed_given = true;
	return 0;
}

static int parse_sem_procs(void *ctx, const char *arg, char *err, size_t errlen)
{
	struct clyde_options *o = ctx;
	int64_t v;

	if (int_parse(arg, &v) || (v != -1 && (v < 1 || v > MAX_SEM_PROCS)))
		return options_fail(err, errlen,
				    "-p: '%s' must be a number of processes from 1 to %d, or -1 to remove the semaphore",
				    arg, MAX_SEM_PROCS);
	o->sem_procs = (int32_t)v;
	o->sem_procs_given = true;
	return 0;
}

/* The index of arg among a NULL-terminated list of words, or -1. */
static int word_index(const char *arg, const char *const *words)
{
	for (int i = 0; words[i]; i++)
		if (!strcmp(arg, words[i]))
			return i;
	return -1;
}

static int parse_sync(void *ctx, const char *arg, char *err, size_t errlen)
{
	struct clyde_options *o = ctx;

	static const char *const words[] = { "s", "p", NULL };
	static const enum sync_mode modes[] = { SYNC_SEMAPHORE, SYNC_PROMPT };
	int i = word_index(arg, words);

	if (i < 0)
		return options_fail(err, errlen, "-y: '%s' must be s (semaphore) or p (prompt)", arg);
	o->sync = modes[i];
	return 0;
}

/* bonnie++ 2.00a takes an argument here and ignores it. */
static int parse_ignored(void *ctx, const char *arg, char *err, size_t errlen)
{
	(void)ctx;
	(void)arg;
	(void)err;
	(void)errlen;
	return 0;
}

static int parse_cache(void *ctx, const char *arg, char *err, size_t errlen)
{
	struct clyde_options *o = ctx;

	static const char *const words[] = { "drop", "keep", "uncached", "system", NULL };
	static const enum cache_mode modes[] = { CACHE_DROP, CACHE_KEEP, CACHE_UNCACHED,
						 CACHE_SYSTEM };
	int i = word_index(arg, words);

	if (i < 0)
		return options_fail(err, errlen, "--cache: '%s' must be drop, keep, uncached or system", arg);
	o->cache = modes[i];
	return 0;
}

static int parse_perchar_mode(void *ctx, const char *arg, char *err, size_t errlen)
{
	struct clyde_options *o = ctx;

	static const char *const words[] = { "syscall", "stdio", NULL };
	static const enum perchar_mode modes[] = { PERCHAR_SYSCALL, PERCHAR_STDIO };
	int i = word_index(arg, words);

	if (i < 0)
		return options_fail(err, errlen, "--perchar: '%s' must be syscall or stdio", arg);
	o->perchar = modes[i];
	return 0;
}

static int parse_engine(void *ctx, const char *arg, char *err, size_t errlen)
{
	struct clyde_options *o = ctx;

	if (strcmp(arg, "auto") && !engine_find(arg)) {
		char names[128];

		engine_names(names, sizeof(names));
		return options_fail(err, errlen, "--engine: '%s' must be %s or auto", arg, names);
	}
	o->engine = arg;
	return 0;
}

static int parse_iodepth(void *ctx, const char *arg, char *err, size_t errlen)
{
	struct clyde_options *o = ctx;

	o->iodepth_given = true;
	return options_u32("--iodepth", "queue depth", arg, 1, MAX_IODEPTH, &o->iodepth, err, errlen);
}

static int parse_seek_updates(void *ctx, const char *arg, char *err, size_t errlen)
{
	struct clyde_options *o = ctx;

	return options_u32("--seek-updates", "percent", arg, 0, 100, &o->seek_updates, err, errlen);
}

static int parse_json(void *ctx, const char *arg, char *err, size_t errlen)
{
	struct clyde_options *o = ctx;

	if (!*arg)
		return options_fail(err, errlen, "--json: the file name is empty (use - for stdout)");
	o->json = arg;
	return 0;
}

/* --data=zero|random|compressible:P */
static int parse_data(void *ctx, const char *arg, char *err, size_t errlen)
{
	struct clyde_options *o = ctx;

	if (!strcmp(arg, "zero")) {
		o->data = DATA_ZERO;
		return 0;
	}
	if (!strcmp(arg, "random")) {
		o->data = DATA_RANDOM;
		return 0;
	}
	if (!strncmp(arg, "compressible:", 13)) {
		o->data = DATA_COMPRESSIBLE;
		return options_u32("--data", "compressible percent", arg + 13, 0, 100,
				   &o->data_zero_pct, err, errlen);
	}
	return options_fail(err, errlen,
			    "--data: '%s' must be zero, random or compressible:P (P: 0 to 100)", arg);
}

/* --profile's words, one row each: the bool each turns on beside --profile itself. */
static const struct profile_word {
	const char *word;
	size_t field;
} profile_words[] = {
	{ "stacks", offsetof(struct clyde_options, profile_stacks) },
	{ "layers", offsetof(struct clyde_options, profile_layers) },
};

#define PROFILE_WORDS	(sizeof(profile_words) / sizeof(profile_words[0]))

/* --profile[=WORD[,WORD]]: --profile alone is the snapshots only. */
static int parse_profile(void *ctx, const char *arg, char *err, size_t errlen)
{
	struct clyde_options *o = ctx;
	const char *s = arg;

	o->profile = true;
	while (s) {
		size_t len = strcspn(s, ",");
		size_t i = 0;

		while (i < PROFILE_WORDS && (strlen(profile_words[i].word) != len ||
							 strncmp(s, profile_words[i].word, len)))
			i++;
		if (i == PROFILE_WORDS)
			return options_fail(err, errlen, "--profile=%s: '%.*s' is not a word it "
					    "knows (stacks, layers)", arg, (int)len, s);
		*(bool *)((char *)o + profile_words[i].field) = true;
		s = s[len] ? s + len + 1 : NULL;
	}
	return 0;
}

/* --stack-hz=N and --flame DIR ask for the stacks: they imply --profile=stacks. */
static int parse_stack_hz(void *ctx, const char *arg, char *err, size_t errlen)
{
	struct clyde_options *o = ctx;

	o->profile = o->profile_stacks = true;
	return options_u32("--stack-hz", "samples per second", arg, 1, MAX_STACK_HZ,
			   &o->stack_hz, err, errlen);
}

static int parse_flame(void *ctx, const char *arg, char *err, size_t errlen)
{
	struct clyde_options *o = ctx;

	if (!*arg)
		return options_fail(err, errlen, "--flame: no directory named");
	o->profile = o->profile_stacks = true;
	o->flame_dir = arg;
	return 0;
}

static int parse_profile_dev(void *ctx, const char *arg, char *err, size_t errlen)
{
	struct clyde_options *o = ctx;

	if (!*arg)
		return options_fail(err, errlen, "--profile-dev: no device named (give names such "
				    "as sda or loop0,loop1)");
	o->profile = true;
	o->profile_dev = arg;
	return 0;
}

/* --bind, --cpus, --numa-node, --mem-policy: checked here for form, by the planner for the machine */
static int parse_bind(void *ctx, const char *arg, char *err, size_t errlen)
{
	struct clyde_options *o = ctx;

	static const char *const words[] = { "none", "core", "numa", NULL };
	static const enum place_bind modes[] = { BIND_NONE, BIND_CORE, BIND_NUMA };
	int i = word_index(arg, words);

	if (i < 0)
		return options_fail(err, errlen, "--bind=%s: use none, core or numa", arg);
	o->place.bind = modes[i];
	return 0;
}

static int parse_cpus(void *ctx, const char *arg, char *err, size_t errlen)
{
	struct clyde_options *o = ctx;
	struct place_mask m;

	if (place_mask_parse(arg, &m))
		return options_fail(err, errlen, "--cpus=%s: give CPU numbers and ranges such as "
				    "0-3,8 (below %d)", arg, PLACE_MAX_PUS);
	o->place.cpus = arg;
	return 0;
}

static int parse_numa_node(void *ctx, const char *arg, char *err, size_t errlen)
{
	struct clyde_options *o = ctx;
	uint32_t n;

	if (!strcmp(arg, "device")) {
		o->place.numa_node = PLACE_NUMA_NODE_DEVICE;
		return 0;
	}
	if (options_u32("--numa-node", "NUMA node", arg, 0, PLACE_MAX_NODES - 1, &n, err, errlen))
		return -EINVAL;
	o->place.numa_node = (int)n;
	return 0;
}

static int parse_mem_policy(void *ctx, const char *arg, char *err, size_t errlen)
{
	struct clyde_options *o = ctx;
	uint32_t n;

	if (!strcmp(arg, "local")) {
		o->place.mem = MEM_LOCAL;
	} else if (!strcmp(arg, "interleave")) {
		o->place.mem = MEM_INTERLEAVE;
	} else if (!strncmp(arg, "bind:", 5)) {
		if (options_u32("--mem-policy=bind", "NUMA node", arg + 5, 0,
				PLACE_MAX_NODES - 1, &n, err, errlen))
			return -EINVAL;
		o->place.mem = MEM_BIND;
		o->place.mem_node = (int)n;
	} else {
		return options_fail(err, errlen, "--mem-policy=%s: use local, interleave or bind:N", arg);
	}
	return 0;
}

/* --tree: parsed here, once; the plan and --tree-list take the shape and scale. */
static int parse_tree(void *ctx, const char *arg, char *err, size_t errlen)
{
	struct clyde_options *o = ctx;

	if (tree_parse_spec(arg, &o->tree_shape, &o->tree_scale, err, errlen))
		return -EINVAL;
	o->tree = arg;
	return 0;
}

static int parse_tree_seed(void *ctx, const char *arg, char *err, size_t errlen)
{
	struct clyde_options *o = ctx;
	char *end;

	errno = 0;
	o->tree_seed = strtoull(arg, &end, 0);
	if (!*arg || *end || errno || arg[0] == '-')
		return options_fail(err, errlen, "--tree-seed: '%s' is not a number from 0 to "
				    "18446744073709551615", arg);
	return 0;
}

static int parse_stonewall(void *ctx, const char *arg, char *err, size_t errlen)
{
	struct clyde_options *o = ctx;
	char *end;

	errno = 0;
	o->stonewall_s = strtod(arg, &end);
	if (!*arg || *end || errno || !(o->stonewall_s >= MIN_STONEWALL_S) ||
	    o->stonewall_s > MAX_STONEWALL_S)
		return options_fail(err, errlen, "--stonewall: '%s' is not a number of seconds from %g to %g",
				    arg, MIN_STONEWALL_S, MAX_STONEWALL_S);
	return 0;
}

static int parse_age(void *ctx, const char *arg, char *err, size_t errlen)
{
	struct clyde_options *o = ctx;

	return age_spec_parse(arg, &o->age, err, errlen) ? -EINVAL : 0;
}

static int parse_age_size(void *ctx, const char *arg, char *err, size_t errlen)
{
	struct clyde_options *o = ctx;

	/* a plain number is MiB, as -s */
	if (size_parse(arg, 1ull << 20, &o->age.max_bytes) || !o->age.max_bytes)
		return options_fail(err, errlen, "--age-size: '%s' is not a size above 0 (a "
				    "number of MiB, or with k, m, g, t)", arg);
	o->age_extra_given = true;
	return 0;
}

static int parse_age_time(void *ctx, const char *arg, char *err, size_t errlen)
{
	struct clyde_options *o = ctx;
	char *end;

	errno = 0;
	o->age.time_box_s = strtod(arg, &end);
	if (!*arg || *end || errno || !(o->age.time_box_s > 0) || o->age.time_box_s > 1e7)
		return options_fail(err, errlen, "--age-time: '%s' is not a number of seconds "
				    "above 0", arg);
	o->age_extra_given = true;
	return 0;
}

static int parse_age_log(void *ctx, const char *arg, char *err, size_t errlen)
{
	struct clyde_options *o = ctx;

	if (!*arg)
		return options_fail(err, errlen, "--age-log: the file name is empty");
	o->age.log_path = arg;
	o->age_extra_given = true;
	return 0;
}

static int parse_age_only(void *ctx, const char *arg, char *err, size_t errlen)
{
	struct clyde_options *o = ctx;

	(void)arg;
	(void)err;
	(void)errlen;
	o->age.keep = true;
	o->age_extra_given = true;
	return 0;
}

/* --interval=MS: the series' fixed width; off: no series. */
static int parse_interval(void *ctx, const char *arg, char *err, size_t errlen)
{
	struct clyde_options *o = ctx;
	char *end;
	long long v;

	if (!strcmp(arg, "off")) {
		o->interval_ms = -1;
		return 0;
	}
	errno = 0;
	v = strtoll(arg, &end, 10);
	if (!*arg || *end || errno || v < MIN_INTERVAL_MS || v > MAX_INTERVAL_MS)
		return options_fail(err, errlen, "--interval: '%s' is not off or a number of "
				    "milliseconds from %d to %d", arg, MIN_INTERVAL_MS, MAX_INTERVAL_MS);
	o->interval_ms = v;
	return 0;
}

/* --live, --live=csv */
static int parse_live(void *ctx, const char *arg, char *err, size_t errlen)
{
	struct clyde_options *o = ctx;

	if (!arg || !*arg)
		o->live = LIVE_TEXT;
	else if (!strcmp(arg, "csv"))
		o->live = LIVE_CSV;
	else
		return options_fail(err, errlen, "--live: '%s' is not csv", arg);
	return 0;
}

/* --steady=METRIC:PCT:SECONDS[:MAX] (lib/steady.c says the grammar). */
static int parse_steady(void *ctx, const char *arg, char *err, size_t errlen)
{
	struct clyde_options *o = ctx;

	return steady_parse(&o->steady, arg, err, errlen);
}

/* --latency-target=PCT:TIME (core/capacity.c says the grammar). */
static int parse_latency_target(void *ctx, const char *arg, char *err, size_t errlen)
{
	struct clyde_options *o = ctx;

	return capacity_target_parse(&o->capacity, arg, err, errlen);
}

static int parse_open_loop(void *ctx, const char *arg, char *err, size_t errlen)
{
	struct clyde_options *o = ctx;

	return capacity_rates_parse(&o->capacity, arg, err, errlen);
}

static int parse_arrivals(void *ctx, const char *arg, char *err, size_t errlen)
{
	struct clyde_options *o = ctx;

	if (!strcmp(arg, "fixed"))
		o->capacity.arrivals = CAP_ARRIVALS_FIXED;
	else if (!strcmp(arg, "poisson"))
		o->capacity.arrivals = CAP_ARRIVALS_POISSON;
	else
		return options_fail(err, errlen, "--arrivals: '%s' is not fixed or poisson", arg);
	o->capacity_extra_given = true;
	return 0;
}

/* A number of seconds in [lo, hi] for option name: 0, or -EINVAL. */
static int parse_seconds(const char *name, const char *arg, double lo, double hi, double *out,
			 char *err, size_t errlen)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(arg, &end);
	if (!*arg || *end || errno || !(v >= lo) || !(v <= hi))
		return options_fail(err, errlen, "%s: '%s' is not a number of seconds from %g to %g",
				    name, arg, lo, hi);
	*out = v;
	return 0;
}

static int parse_capacity_step(void *ctx, const char *arg, char *err, size_t errlen)
{
	struct clyde_options *o = ctx;

	o->capacity_extra_given = true;
	return parse_seconds("--capacity-step", arg, CAP_STEP_MIN_S, CAP_STEP_MAX_S,
			     &o->capacity.step_s, err, errlen);
}

static int parse_capacity_time(void *ctx, const char *arg, char *err, size_t errlen)
{
	struct clyde_options *o = ctx;

	o->capacity_extra_given = true;
	return parse_seconds("--capacity-time", arg, CAP_STEP_MIN_S, 86400.0,
			     &o->capacity.time_s, err, errlen);
}

/* A whole number in [lo, hi] for option name: 0, or -EINVAL. */
static int parse_count(const char *name, const char *arg, unsigned lo, unsigned hi, unsigned *out,
		       char *err, size_t errlen)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(arg, &end, 10);
	if (!*arg || *end || errno || arg[0] == '-' || v < lo || v > hi)
		return options_fail(err, errlen, "%s: '%s' is not a whole number from %u to %u",
				    name, arg, lo, hi);
	*out = (unsigned)v;
	return 0;
}

static int parse_capacity_max(void *ctx, const char *arg, char *err, size_t errlen)
{
	struct clyde_options *o = ctx;

	o->capacity_extra_given = true;
	return parse_count("--capacity-max", arg, 1, CAP_MAX_CONC_LIMIT, &o->capacity.max_conc,
			   err, errlen);
}

static int parse_open_loop_inflight(void *ctx, const char *arg, char *err, size_t errlen)
{
	struct clyde_options *o = ctx;

	o->capacity_extra_given = true;
	return parse_count("--open-loop-inflight", arg, 1, CAP_INFLIGHT_LIMIT,
			   &o->capacity.inflight, err, errlen);
}

/* --capacity-phases=LIST: CSV names of the phases capacity_phase_kind knows. */
static int parse_capacity_phases(void *ctx, const char *arg, char *err, size_t errlen)
{
	struct clyde_options *o = ctx;
	const char *p = arg;

	memset(o->capacity.phase, 0, sizeof(o->capacity.phase));
	for (;;) {
		size_t n = strcspn(p, ",");
		bool found = false;

		for (int i = 0; i < PH_COUNT && !found; i++) {
			const char *name = phase_get((enum phase_id)i)->csv_name;

			if (strlen(name) != n || strncmp(name, p, n) ||
			    !capacity_phase_measurable((enum phase_id)i))
				continue;
			o->capacity.phase[i] = true;
			found = true;
		}
		if (!found)
			return options_fail(err, errlen, "--capacity-phases: '%.*s' is not one of "
					    "seeks, seq_create, seq_stat, seq_del, ran_create, "
					    "ran_stat, ran_del", (int)n, p);
		if (!p[n])
			break;
		p += n + 1;
	}
	o->capacity.phases_given = true;
	o->capacity_extra_given = true;
	return 0;
}

static int parse_open_loop_log(void *ctx, const char *arg, char *err, size_t errlen)
{
	struct clyde_options *o = ctx;

	if (!*arg)
		return options_fail(err, errlen, "--open-loop-log: the file name is empty");
	o->capacity.log_path = arg;
	o->capacity_extra_given = true;
	return 0;
}

static int parse_read_other(void *ctx, const char *arg, char *err, size_t errlen)
{
	struct clyde_options *o = ctx;
	char *end;
	long v;

	errno = 0;
	v = strtol(arg, &end, 10);
	if (!*arg || *end || errno || v < 1 || v > MAX_READ_OTHER)
		return options_fail(err, errlen, "--mpi-read-other: '%s' is not a rank offset from 1 to %d",
				    arg, MAX_READ_OTHER);
	o->read_other = (int)v;
	return 0;
}

static int parse_mpi_timeout(void *ctx, const char *arg, char *err, size_t errlen)
{
	struct clyde_options *o = ctx;
	char *end;

	errno = 0;
	o->mpi_timeout_s = strtod(arg, &end);
	if (!*arg || *end || errno || !(o->mpi_timeout_s >= 0) ||
	    o->mpi_timeout_s > MAX_MPI_TIMEOUT_S)
		return options_fail(err, errlen, "--mpi-timeout: '%s' is not a number of seconds "
				    "from 0 (no deadline) to %g", arg, MAX_MPI_TIMEOUT_S);
	return 0;
}

/*
 * The options, in --help's order. To add one: a row here (its parser
 * above, or in option_sizes.c for a size grammar; SETS(field) for a
 * flag), its field in struct clyde_options, its line in clyde(1).
 */
/* clyde's other form, for --cleanup's row. */
static const char *const cleanup_form[] = {
	"--cleanup DIR [--cleanup-user=USER] [--cleanup-any-ns]", NULL
};

static const struct opt_row rows[] = {
	{ .synopsis = "[-d dir]", .syn_at = OPT_SYN(0, 0),
	  .letter = 'd', .arg = required_argument, .parse = parse_dir,
	  .help = "  -d dir        directory to test in (default: current directory); clyde\n"
		  "                works only inside a private directory it creates there\n" },
	{ .synopsis = "[-s size[:chunk[:seeks[:seekers]]]]", .syn_at = OPT_SYN(0, 0),
	  .letter = 's', .arg = required_argument, .parse = options_size_arg,
	  .help = "  -s size[:chunk[:seeks[:seekers]]]\n"
		  "                file size for the I/O phases (MiB, or with k/m/g/t suffix;\n"
		  "                0 skips them; default: the smaller of 4G and half the free\n"
		  "                space), chunk size (power of two, 256 to 1m; default 8k),\n"
		  "                number of seeks and seeker threads (default 5); with no seek\n"
		  "                count the seekers do at least 8192 seeks and go on until the\n"
		  "                phase has lasted about a second; a count given is done exactly;\n"
		  "                without -s the per-char and block phases stop at time boxes\n"
		  "                (3 s, write and rewrite 8 s, read 6 s)\n" },
	{ .synopsis = "[-n number[:max[:min[:num_dirs[:chunk]]]]]", .syn_at = OPT_SYN(1, 0),
	  .letter = 'n', .arg = required_argument, .parse = options_files_arg,
	  .help = "  -n number[:max[:min[:num_dirs[:chunk]]]]\n"
		  "                file tests with number*1024 files (0 skips them; default: 16,\n"
		  "                fewer where a calibration says a default run's budget cannot\n"
		  "                hold them; then each create stops at 3 s and each stat phase\n"
		  "                repeats over every file until it has lasted 0.5 s)\n"
		  "                of min..max bytes (max -1: hard links, -2: symlinks) in\n"
		  "                num_dirs directories, written in chunk-sized writes\n" },
	{ .synopsis = "[-m name]", .syn_at = OPT_SYN(1, 0),
	  .letter = 'm', .arg = required_argument, .parse = parse_name,
	  .help = "  -m name       machine name for the report (default: host name)\n" },
	{ .synopsis = "[-r ram]", .syn_at = OPT_SYN(1, 0),
	  .letter = 'r', .arg = required_argument, .parse = options_ram_arg,
	  .help = "  -r ram        RAM size in MiB for the cache warning (default: detected;\n"
		  "                0 disables the check)\n" },
	{ .synopsis = "[-x runs]", .syn_at = OPT_SYN(2, 0),
	  .letter = 'x', .arg = required_argument, .parse = parse_repeats,
	  .help = "  -x runs       run everything this many times; stdout carries only CSV\n"
		  "                lines (a header line first when runs is above 1) and the\n"
		  "                tables go to stderr; each run gets a new seed unless -z or\n"
		  "                -Z gives one\n" },
	{ .synopsis = "[-u user[:group]]", .syn_at = OPT_SYN(2, 0),
	  .letter = 'u', .arg = required_argument, .parse = parse_user,
	  .help = "  -u user[:group]  run as this user (and group) after dropping root\n" },
	{ .synopsis = "[-g group]", .syn_at = OPT_SYN(2, 0),
	  .letter = 'g', .arg = required_argument, KEEPS(group),
	  .help = "  -g group      run as this group\n" },
	{ .synopsis = "[-q]", .syn_at = OPT_SYN(2, 0),
	  .letter = 'q', .arg = no_argument, SETS(quiet),
	  .help = "  -q            quiet: only the CSV on stdout, the rest on stderr\n" },
	{ .synopsis = "[-f[size]]", .syn_at = OPT_SYN(2, 0),
	  .letter = 'f', .arg = optional_argument, .parse = options_perchar_arg,
	  .help = "  -f[size]      -f alone skips the per-char phases; -fSIZE sets their size\n"
		  "                (attached, e.g. -f64k; default 3m)\n" },
	{ .synopsis = "[-b]", .syn_at = OPT_SYN(2, 0),
	  .letter = 'b', .arg = no_argument, SETS(fsync_each),
	  .help = "  -b            no write buffering: fsync after every block, rewrite and seek\n"
		  "                write and after every file create and delete\n" },
	{ .synopsis = "[-D]", .syn_at = OPT_SYN(2, 0),
	  .name = "direct", .letter = 'D', .arg = no_argument, SETS(direct),
	  .help = "  -D, --direct  O_DIRECT for the block, rewrite and seek phases\n" },
	{ .synopsis = "[-c concurrency]", .syn_at = OPT_SYN(3, 0),
	  .letter = 'c', .arg = required_argument, .parse = parse_concurrency,
	  .help = "  -c concurrency  run this many copies of each phase at once (default 1)\n" },
	{ .synopsis = "[-z seed | -Z file]", .syn_at = OPT_SYN(3, 0),
	  .letter = 'z', .arg = required_argument, .parse = parse_seed,
	  .help = "  -z seed       random seed (0 to 4294967295), the same for every run\n" },
	{ .letter = 'Z', .arg = required_argument, KEEPS(seed_file),
	  .help = "  -Z file       take the seed from the first four bytes of file\n" },
	{ .synopsis = "[-p procs | -y s|p]", .syn_at = OPT_SYN(3, 0),
	  .letter = 'p', .arg = required_argument, .parse = parse_sem_procs,
	  .help = "  -p procs      create a semaphore for procs clyde processes and exit;\n"
		  "                -p -1 removes it\n" },
	{ .letter = 'y', .arg = required_argument, .parse = parse_sync,
	  .help = "  -y s|p        before each phase wait on that semaphore (s) or for Enter (p)\n" },
	{ .synopsis = "[-l arg]", .syn_at = OPT_SYN(3, 0),
	  .letter = 'l', .arg = required_argument, .parse = parse_ignored,
	  .help = "  -l arg        accepted for bonnie++ compatibility and ignored\n" },
	{ .synopsis = "[--cache=drop|keep|uncached|system]", .syn_at = OPT_SYN(4, 0),
	  .name = "cache", .arg = required_argument, .parse = parse_cache,
	  .help = "  --cache=drop|keep|uncached|system\n"
		  "                drop (default): fsync and evict the file's pages after each\n"
		  "                I/O phase (posix_fadvise DONTNEED; on the BSDs also msync\n"
		  "                MS_INVALIDATE) so reads come from the device; keep: leave the\n"
		  "                page cache alone, as bonnie++ does; uncached: block and seek\n"
		  "                I/O with RWF_DONTCACHE (Linux 6.14+), then drop; system\n"
		  "                (root): sync and drop_caches after every phase, which also\n"
		  "                drops dentries and inodes, for the whole machine\n" },
	{ .synopsis = "[--perchar=syscall|stdio]", .syn_at = OPT_SYN(4, 0),
	  .name = "perchar", .arg = required_argument, .parse = parse_perchar_mode,
	  .help = "  --perchar=syscall|stdio  per-char phases as 1-byte system calls (default,\n"
		  "                bonnie++ 2.00) or stdio putc/getc (bonnie++ 1.03)\n" },
	{ .synopsis = "[--exact]", .syn_at = OPT_SYN(5, 0),
	  .name = "exact", .arg = no_argument, SETS(exact),
	  .help = "  --exact       print measured numbers where bonnie++ prints +++++ (phases\n"
		  "                under 0.5 s whose amount of work -s or -n fixed)\n" },
	{ .synopsis = "[--engine=psync|uring|aio|null|auto]", .syn_at = OPT_SYN(6, 0),
	  .name = "engine", .arg = required_argument, .parse = parse_engine,
	  .help = "  --engine=psync|uring|aio|null|auto  how block and seek I/O is issued:\n"
		  "                pread/pwrite (default, comparable with bonnie++), io_uring,\n"
		  "                POSIX AIO (aio: glibc's threads on Linux; not with\n"
		  "                --cache=uncached), none at all (null: clyde's own cost per\n"
		  "                request; not with --verify), or auto: io_uring above depth\n"
		  "                1 where the kernel allows it (FreeBSD: kernel AIO), psync\n"
		  "                otherwise\n" },
	{ .synopsis = "[--iodepth=N]", .syn_at = OPT_SYN(6, 0),
	  .name = "iodepth", .arg = required_argument, .parse = parse_iodepth,
	  .help = "  --iodepth=N   requests in flight per file or seeker (1 to 1024; above 1\n"
		  "                needs --engine=uring, aio or auto; default 1)\n" },
	{ .synopsis = "[--seek-updates=PCT]", .syn_at = OPT_SYN(6, 0),
	  .name = "seek-updates", .arg = required_argument, .parse = parse_seek_updates,
	  .help = "  --seek-updates=PCT  percent of seeks that change and write back their\n"
		  "                chunk (0 to 100; default 10, as bonnie++)\n" },
	{ .synopsis = "[--json FILE|-]", .syn_at = OPT_SYN(7, 0),
	  .name = "json", .arg = required_argument, .parse = parse_json,
	  .help = "  --json FILE   also write a JSON document of every run (see clyde(1));\n"
		  "                with -, stdout carries only the JSON and the text goes to\n"
		  "                stderr without the CSV line\n" },
	{ .synopsis = "[--latency]", .syn_at = OPT_SYN(7, 0),
	  .name = "latency", .arg = no_argument, SETS(latency_table),
	  .help = "  --latency     add a table of latency percentiles (p50 p90 p99 p99.9 max)\n" },
	{ .synopsis = "[--cpu]", .syn_at = OPT_SYN(7, 0),
	  .name = "cpu", .arg = no_argument, SETS(cpu_table),
	  .help = "  --cpu         add a table of CPU per phase: user, system, dead (wall minus\n"
		  "                user), the final flush, CPU per MiB, seek or file\n" },
	{ .synopsis = "[--interval=MS|off]", .syn_at = OPT_SYN(8, 0),
	  .name = "interval", .arg = required_argument, .parse = parse_interval,
	  .help = "  --interval=MS|off  the JSON's time series of each phase: intervals of MS\n"
		  "                milliseconds (100 to 3600000), or off; default: 100 ms\n"
		  "                doubling as a phase goes on, at most 512 per phase\n" },
	{ .synopsis = "[--live[=csv]]", .syn_at = OPT_SYN(8, 0),
	  .name = "live", .arg = optional_argument, .parse = parse_live,
	  .help = "  --live[=csv]  the running phase on stderr at each interval's end: its %,\n"
		  "                current and average rate, p99 of the interval, dirty MiB;\n"
		  "                redrawn on a terminal, else a line each; csv: CSV lines\n" },
	{ .synopsis = "[--steady=METRIC:PCT:SECONDS[:MAX]]", .syn_at = OPT_SYN(9, 0),
	  .name = "steady", .arg = required_argument, .parse = parse_steady,
	  .help = "  --steady=METRIC:PCT:SECONDS[:MAX]  the block write, rewrite, block read\n"
		  "                and seeks do their planned work, then go on (the write\n"
		  "                grows the file, the others start over) until the last\n"
		  "                SECONDS settled: METRIC rate or p99, every interval within\n"
		  "                PCT% of their mean; rate_slope or p99_slope, the slope\n"
		  "                under PCT% of the mean per second; at most MAX seconds\n"
		  "                (default 10 x SECONDS, at least 60); the figure is then\n"
		  "                the steady window's, and one that never settled is the\n"
		  "                whole phase's, marked ~ in the table (not under mpirun)\n" },
	{ .synopsis = "[--data=zero|random|compressible:P]", .syn_at = OPT_SYN(7, 0),
	  .name = "data", .arg = required_argument, .parse = parse_data,
	  .help = "  --data=zero|random|compressible:P  what the block, seek and file data are:\n"
		  "                zeros (bonnie++), random (default: honest on compressing\n"
		  "                file systems) or P percent zeros and the rest random\n" },
	{ .synopsis = "[--verify]", .syn_at = OPT_SYN(10, 0),
	  .name = "verify", .arg = no_argument, SETS(verify),
	  .help = "  --verify      write a pattern that encodes offset and seed and check it on\n"
		  "                every read; a mismatch is named and counted, exit status 6\n" },
	{ .synopsis = "[--ceilings]", .syn_at = OPT_SYN(10, 0),
	  .name = "ceilings", .arg = no_argument, SETS(ceilings),
	  .help = "  --ceilings    measure a system call and memory copy first and show each\n"
		  "                phase as a fraction of its machine ceiling\n" },
	{ .synopsis = "[--profile[=stacks,layers]]", .syn_at = OPT_SYN(11, 0),
	  .name = "profile", .arg = optional_argument, .parse = parse_profile,
	  .help = "  --profile     where each phase's CPU and device bytes went: clyde's process,\n"
		  "                the filesystem's and the kernel's threads, interrupts, other\n"
		  "                processes, idle; CPU per GiB, 1000 seeks or 1000 files inside\n"
		  "                clyde and in total; perf counters; the device's requests,\n"
		  "                bytes, busy time and write amplification (see clyde(1))\n"
		  "  --profile=layers  also where the latency went: each request's time in the\n"
		  "                block layer's queue and at the device (p50, p99, mean; BPF\n"
		  "                on the block tracepoints, a cost per I/O), the device's busy\n"
		  "                share, and the rest of clyde's operation time, above them\n"
		  "                (a cgroup's blk-throttle wait lands there)\n"
		  "  --profile=stacks  also sample every CPU's kernel and user call stacks during\n"
		  "                each phase (Linux perf_event_open, opened as root before -u)\n" },
	{ .synopsis = "[--stack-hz=N]", .syn_at = OPT_SYN(10, 1),
	  .name = "stack-hz", .arg = required_argument, .parse = parse_stack_hz,
	  .help = "  --stack-hz=N  --profile=stacks' samples per second on each CPU (default 99,\n"
		  "                at most 10000); implies --profile=stacks\n" },
	{ .synopsis = "[--flame DIR]", .syn_at = OPT_SYN(10, 1),
	  .name = "flame", .arg = required_argument, .parse = parse_flame,
	  .help = "  --flame DIR   write each phase's sampled stacks into DIR as folded stacks\n"
		  "                (put_block.folded ...; flamegraph.pl, inferno and speedscope\n"
		  "                read them); new files only; implies --profile=stacks\n" },
	{ .synopsis = "[--profile-dev=DEV[,DEV...]]", .syn_at = OPT_SYN(11, 0),
	  .name = "profile-dev", .arg = required_argument, .parse = parse_profile_dev,
	  .help = "  --profile-dev=DEV[,DEV...]  the block devices --profile counts (names in\n"
		  "                /sys/block), where clyde cannot find them itself (ZFS, FUSE)\n" },
	{ .synopsis = "[--bind=none|core|numa]", .syn_at = OPT_SYN(12, 0),
	  .name = "bind", .arg = required_argument, .parse = parse_bind,
	  .help = "  --bind=none|core|numa  place the -c workers (and their seekers): none\n"
		  "                (default), one core each in the machine's order, or one\n"
		  "                NUMA node each, round robin; the report says where each ran\n" },
	{ .synopsis = "[--cpus=LIST]", .syn_at = OPT_SYN(12, 0),
	  .name = "cpus", .arg = required_argument, .parse = parse_cpus,
	  .help = "  --cpus=LIST   only these CPUs (such as 0-3,8), within the process's set\n" },
	{ .synopsis = "[--numa-node=N|device]", .syn_at = OPT_SYN(12, 0),
	  .name = "numa-node", .arg = required_argument, .parse = parse_numa_node,
	  .help = "  --numa-node=N|device  keep the workers and their memory on node N, or on\n"
		  "                the node of -d's device when known (needs hwloc or libnuma)\n" },
	{ .synopsis = "[--mem-policy=local|interleave|bind:N]", .syn_at = OPT_SYN(13, 0),
	  .name = "mem-policy", .arg = required_argument, .parse = parse_mem_policy,
	  .help = "  --mem-policy=local|interleave|bind:N  where the workers' buffers go\n"
		  "                (needs hwloc or libnuma; default: the system's first touch)\n" },
	{ .synopsis = "[--tree=ports|source|mixed[:SCALE]]", .syn_at = OPT_SYN(14, 0),
	  .name = "tree", .arg = required_argument, .parse = parse_tree,
	  .help = "  --tree=SHAPE[:SCALE]  after the file tests, the tree workloads on a\n"
		  "                generated tree: extract (as tar x), copy (cp -r), walk (find\n"
		  "                with a stat of every entry), read (tar c > /dev/null) and\n"
		  "                delete both trees (rm -rf); SHAPE ports (many small\n"
		  "                directories of tiny files), source (a kernel source tree) or\n"
		  "                mixed (documents, images, audio); SCALE multiplies the\n"
		  "                default file count (0.001 to 1000; default 1); use with\n"
		  "                -s 0 -n 0 for the trees alone; --engine=uring batches them\n" },
	{ .synopsis = "[--tree-seed=N]", .syn_at = OPT_SYN(14, 0),
	  .name = "tree-seed", .arg = required_argument, .parse = parse_tree_seed,
	  .help = "  --tree-seed=N the tree's own seed (default 1): the same tree for every run\n"
		  "                and every file system; -z does not change it\n" },
	{ .synopsis = "[--tree-list]", .syn_at = OPT_SYN(14, 0),
	  .name = "tree-list", .arg = no_argument, SETS(tree_list),
	  .help = "  --tree-list   print the tree (d PATH, f PATH SIZE a line) and its hash, then\n"
		  "                exit without writing anything\n" },
	{ .synopsis = "[--stonewall=SECONDS]", .syn_at = OPT_SYN(15, 0),
	  .name = "stonewall", .arg = required_argument, .parse = parse_stonewall,
	  .help = "  --stonewall=SECONDS  a time limit on the per-char and block phases, worn\n"
		  "                out as IOR's: at the limit every worker (of every rank under\n"
		  "                mpirun) stops, then all go on until each has done as much as\n"
		  "                the one that did most, so the files stay the same size; the\n"
		  "                work done at the limit is reported beside the phase\n" },
	{ .synopsis = "[--mpi-read-other=K]", .syn_at = OPT_SYN(15, 0),
	  .name = "mpi-read-other", .arg = required_argument, .parse = parse_read_other,
	  .help = "  --mpi-read-other=K  under mpirun, the per-char and block reads of rank R\n"
		  "                read the file rank R+K wrote (IOR's -C, mdtest's -N), so no\n"
		  "                client reads its own page cache; K must not be a multiple of\n"
		  "                the rank count\n" },
	{ .synopsis = "[--mpi-timeout=SECONDS]", .syn_at = OPT_SYN(15, 0),
	  .name = "mpi-timeout", .arg = required_argument, .parse = parse_mpi_timeout,
	  .help = "  --mpi-timeout=SECONDS  under mpirun, how long a rank waits at a meeting\n"
		  "                (before and after each phase) for the others (default 600;\n"
		  "                0: for ever); then the ranks that came name those missing,\n"
		  "                with their hosts, remove their own files and abort the job\n"
		  "                with status 3\n" },
	{ .forms = cleanup_form,
	  .name = "cleanup", .arg = required_argument, KEEPS(cleanup_dir),
	  .help = "  --cleanup DIR remove the private directories (clyde.*) in DIR that runs\n"
		  "                killed or cut off left behind: only those with clyde's marker\n"
		  "                whose process is gone from this host, whose directory and\n"
		  "                marker belong to the user running it (root removes only\n"
		  "                root's), never following links nor entering mounts (bind\n"
		  "                mounts of the same file system too); says what it removed\n"
		  "                and what it kept, then exits (3 when a tree stays in part)\n" },
	{ .name = "cleanup-user", .arg = required_argument, KEEPS(cleanup_user),
	  .help = "  --cleanup-user=USER  with --cleanup, as root: also remove USER's trees\n"
		  "                (runs made with -u USER), in a child that has become USER\n" },
	{ .name = "cleanup-any-ns", .arg = no_argument, SETS(cleanup_any_ns),
	  .help = "  --cleanup-any-ns  with --cleanup: take the markers written in another\n"
		  "                pid namespace (a container) as gone; say so only when no\n"
		  "                run is alive there\n" },
	{ .synopsis = "[--latency-target=PCT:TIME]", .syn_at = OPT_SYN(18, 0),
	  .name = "latency-target", .arg = required_argument, .parse = parse_latency_target,
	  .help = "  --latency-target=PCT:TIME  after the seek phase and each file phase, the\n"
		  "                highest rate whose PCT latency stays within TIME (such as\n"
		  "                p99:5ms): a closed-loop search over concurrency (threads\n"
		  "                1, 2, 4 ... then halving the gap), each window at least\n"
		  "                --capacity-step seconds and 20/(1-PCT/100) operations\n" },
	{ .synopsis = "[--open-loop=RATE[,RATE...]|sweep]", .syn_at = OPT_SYN(18, 0),
	  .name = "open-loop", .arg = required_argument, .parse = parse_open_loop,
	  .help = "  --open-loop=RATE[,RATE...]|sweep  after the same phases, requests on a\n"
		  "                schedule of RATE a second, each latency from its scheduled\n"
		  "                time (no coordinated omission); sweep: from the phase's\n"
		  "                rate / 8 up by 1.25x a step until the achieved rate falls\n"
		  "                below 95% of the offered (the knee); exit 8 when a sweep\n"
		  "                never does within --capacity-time\n" },
	{ .synopsis = "[--arrivals=fixed|poisson]", .syn_at = OPT_SYN(19, 0),
	  .name = "arrivals", .arg = required_argument, .parse = parse_arrivals,
	  .help = "  --arrivals=fixed|poisson  --open-loop's gaps: 1/RATE each (default) or\n"
		  "                exponential of mean 1/RATE from the seed\n" },
	{ .synopsis = "[--open-loop-inflight=N]", .syn_at = OPT_SYN(19, 0),
	  .name = "open-loop-inflight", .arg = required_argument, .parse = parse_open_loop_inflight,
	  .help = "  --open-loop-inflight=N  requests in flight at most (threads; 1 to 1024;\n"
		  "                default RATE x 100 ms, 4 to 256); one that finds none free\n"
		  "                is sent late and counted\n" },
	{ .synopsis = "[--capacity-step=SECONDS]", .syn_at = OPT_SYN(20, 0),
	  .name = "capacity-step", .arg = required_argument, .parse = parse_capacity_step,
	  .help = "  --capacity-step=SECONDS  each search window's and open-loop step's\n"
		  "                length (default 2)\n" },
	{ .synopsis = "[--capacity-time=SECONDS]", .syn_at = OPT_SYN(20, 0),
	  .name = "capacity-time", .arg = required_argument, .parse = parse_capacity_time,
	  .help = "  --capacity-time=SECONDS  a sweep's most seconds a phase (default 120)\n" },
	{ .synopsis = "[--capacity-max=N]", .syn_at = OPT_SYN(20, 0),
	  .name = "capacity-max", .arg = required_argument, .parse = parse_capacity_max,
	  .help = "  --capacity-max=N  the search's most concurrency (default 64)\n" },
	{ .synopsis = "[--capacity-phases=LIST]", .syn_at = OPT_SYN(21, 0),
	  .name = "capacity-phases", .arg = required_argument, .parse = parse_capacity_phases,
	  .help = "  --capacity-phases=LIST  only these (seeks, seq_create, seq_stat, seq_del,\n"
		  "                ran_create, ran_stat, ran_del; default every one that runs)\n" },
	{ .synopsis = "[--open-loop-log=FILE]", .syn_at = OPT_SYN(21, 0),
	  .name = "open-loop-log", .arg = required_argument, .parse = parse_open_loop_log,
	  .help = "  --open-loop-log=FILE  a line per open-loop request: phase, step, and its\n"
		  "                scheduled, sent and done times (CLOCK_MONOTONIC ns), result\n" },
	{ .synopsis = "[--age=FULL[:CHURN[:PROFILE]]]", .syn_at = OPT_SYN(16, 0),
	  .name = "age", .arg = required_argument, .parse = parse_age,
	  .help = "  --age=FULL[:CHURN[:PROFILE]]  before the runs, fill the file system to\n"
		  "                FULL% of its capacity (what is there and the phases' files\n"
		  "                count; at most 95), then delete files at random and write\n"
		  "                new ones until CHURN times the capacity is written (default\n"
		  "                2; 0: fill only); PROFILE agrawal (default) or media, or a\n"
		  "                file of 'size LOW HIGH WEIGHT' and 'depth D WEIGHT' lines;\n"
		  "                the seed is -z's; removed at the end (exit 7: out of space)\n" },
	{ .synopsis = "[--age-size=SIZE]", .syn_at = OPT_SYN(16, 0),
	  .name = "age-size", .arg = required_argument, .parse = parse_age_size,
	  .help = "  --age-size=SIZE  the most bytes aging's files may hold (default 8G): a\n"
		  "                FULL that needs more is refused before anything is written\n" },
	{ .synopsis = "[--age-time=SECONDS]", .syn_at = OPT_SYN(16, 0),
	  .name = "age-time", .arg = required_argument, .parse = parse_age_time,
	  .help = "  --age-time=SECONDS  stop the churn at this time (default: no limit);\n"
		  "                the churn done is reported\n" },
	{ .synopsis = "[--age-log=FILE]", .syn_at = OPT_SYN(17, 0),
	  .name = "age-log", .arg = required_argument, .parse = parse_age_log,
	  .help = "  --age-log=FILE  write each aging operation to FILE (op, path, size)\n" },
	{ .synopsis = "[--age-only]", .syn_at = OPT_SYN(17, 0),
	  .name = "age-only", .arg = no_argument, .parse = parse_age_only,
	  .help = "  --age-only    age, keep the aging directory (its path on stderr) and run\n"
		  "                no phases\n" },
	{ .synopsis = "[--warmup]", .syn_at = OPT_SYN(10, 0),
	  .name = "warmup", .arg = no_argument, SETS(warmup),
	  .help = "  --warmup      run once untimed before the counted runs\n" },
	{ .synopsis = "[--plan]", .syn_at = OPT_SYN(10, 0),
	  .name = "plan", .arg = no_argument, SETS(plan_only),
	  .help = "  --plan        calibrate and print what would run (sizes, counts, engine,\n"
		  "                cache method, phases, time boxes, time estimate), then exit\n" },
	{ .name = "help", .arg = no_argument, SETS(help),
	  .help = "  --help        this help\n" },
	{ .name = "version", .arg = no_argument, SETS(version),
	  .help = "  --version     print the version and the engines built in\n" },
};

static const char usage_intro[] =
	"\n"
	"A bonnie++ 2.00a-compatible file system benchmark.\n"
	"\n";

static const char usage_outro[] =
	"\n"
	"Under mpirun (an MPI build) every rank is a client with its own private\n"
	"directory in -d; the ranks start each phase together and rank 0 alone\n"
	"prints the aggregate of all (see MANY CLIENTS in clyde(1)).\n"
	"\n"
	"Exit status: 0 success, 1 usage, 2 unusable directory, 3 I/O error (also\n"
	"a private directory not wholly removed, and the ranks another rank's\n"
	"failure stopped), 4 engine unavailable or MPI failed, 5 interrupted by a\n"
	"signal, 6 verification mismatch, 7 --age ran out of space.\n";

/*
 * ':' first: a missing argument returns ':', as bonnie++ 2.00a's, and the
 * messages are clyde's own.
 */
static const struct opt_table table = {
	.program = "clyde",
	.usage = "usage:",
	.rows = rows,
	.count = sizeof(rows) / sizeof(rows[0]),
	.short_prefix = ":",
	.intro = usage_intro,
	.outro = usage_outro,
};

void options_usage(FILE *out)
{
	opt_usage(out, &table);
}

static int check_combination(const struct clyde_options *o, char *err, size_t errlen)
{
	const struct engine_ops *eng = engine_find(o->engine);

	if (o->seed_given && o->seed_file)
		return options_fail(err, errlen, "-z and -Z both give the seed: use one");
	if (eng && !(eng->flags & ENGINE_F_QUEUED) && o->iodepth > 1)
		return options_fail(err, errlen,
				    "--iodepth %u needs a queued engine: %s keeps one request in flight (use --engine=uring)",
				    o->iodepth, o->engine);
	if (eng && eng->flags & ENGINE_F_NO_DATA && o->verify)
		return options_fail(err, errlen, "--verify checks the data the phases wrote: "
				    "--engine=%s moves none", o->engine);
	if ((o->tree_list || o->tree_seed != DEFAULT_TREE_SEED) && !o->tree)
		return options_fail(err, errlen, "%s needs --tree=SHAPE",
				    o->tree_list ? "--tree-list" : "--tree-seed");
	if (o->sem_procs_given && o->sync != SYNC_NONE)
		return options_fail(err, errlen,
				    "-p creates the semaphore and exits; -y is for the runs that use it");
	if (o->live && o->interval_ms < 0)
		return options_fail(err, errlen, "--live shows the series' intervals: not with "
				    "--interval=off");
	if (o->steady.on && o->stonewall_s > 0)
		return options_fail(err, errlen, "--steady and --stonewall both say when a phase "
				    "stops: use one");
	if (o->steady.on && o->interval_ms < 0)
		return options_fail(err, errlen, "--steady decides on the time series: not with "
				    "--interval=off");
	if (o->steady.on && o->interval_ms > 0 &&
	    o->steady.window_s * 1000.0 < 2.0 * (double)o->interval_ms)
		return options_fail(err, errlen, "--steady's SECONDS (%g) must hold at least two "
				    "--interval=%lld intervals", o->steady.window_s,
				    (long long)o->interval_ms);
	if (o->capacity_extra_given && !capacity_asked(&o->capacity))
		return options_fail(err, errlen, "--arrivals, --open-loop-inflight, --capacity-step, "
				    "--capacity-time, --capacity-max, --capacity-phases and "
				    "--open-loop-log want --latency-target or --open-loop");
	if (capacity_asked(&o->capacity) && o->concurrency > 1)
		return options_fail(err, errlen, "--latency-target and --open-loop measure one "
				    "copy's capacity: not with -c above 1");
	if ((o->cleanup_user || o->cleanup_any_ns) && !o->cleanup_dir)
		return options_fail(err, errlen, "%s needs --cleanup DIR",
				    o->cleanup_user ? "--cleanup-user" : "--cleanup-any-ns");
	return 0;
}

int options_parse(struct clyde_options *o, int argc, char **argv,
		  char *err, size_t errlen)
{
	int next, ret = opt_parse(&table, o, argc, argv, &next, err, errlen);

	if (ret)
		return ret == -ENOMEM ? options_fail(err, errlen, "out of memory") : -EINVAL;
	if (next < argc) {
		bool after_f = argv[next][0] != '-' && next > 1 && !strcmp(argv[next - 1], "-f");

		return options_fail(err, errlen, "unexpected argument '%s'%s", argv[next],
				    after_f ? " (write -f's size attached: -f64k)" : "");
	}
	return check_combination(o, err, errlen);
}
