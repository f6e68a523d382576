// SPDX-License-Identifier: BSD-2-Clause
/* Command line: bonnie++ 2.00a's short options plus clyde's long ones. */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clyde/options.h"
#include "engines/engine.h"
#include "lib/compat.h"
#include "lib/size.h"
#include "tree/tree.h"

/* bonnie++ 2.00a's getopt string; -f's argument must be attached. */
static const char short_opts[] = ":bc:d:f::g:l:m:n:p:qr:s:u:x:y:z:Z:D";

enum long_only {
	OPT_HELP = 0x100,
	OPT_VERSION,
	OPT_CACHE,
	OPT_EXACT,
	OPT_PERCHAR,
	OPT_ENGINE,
	OPT_IODEPTH,
	OPT_SEEK_UPDATES,
	OPT_JSON,
	OPT_LATENCY,
	OPT_CPU,
	OPT_DATA,
	OPT_VERIFY,
	OPT_CEILINGS,
	OPT_PROFILE,
	OPT_PROFILE_DEV,
	OPT_BIND,
	OPT_CPUS,
	OPT_NUMA_NODE,
	OPT_MEM_POLICY,
	OPT_WARMUP,
	OPT_PLAN,
	OPT_TREE,
	OPT_TREE_SEED,
	OPT_TREE_LIST,
	OPT_STONEWALL,
	OPT_MPI_READ_OTHER,
	OPT_CLEANUP,
	OPT_CLEANUP_USER,
	OPT_CLEANUP_ANY_NS,
};

static const struct option long_opts[] = {
	{ "help", no_argument, NULL, OPT_HELP },
	{ "version", no_argument, NULL, OPT_VERSION },
	{ "direct", no_argument, NULL, 'D' },
	{ "cache", required_argument, NULL, OPT_CACHE },
	{ "exact", no_argument, NULL, OPT_EXACT },
	{ "perchar", required_argument, NULL, OPT_PERCHAR },
	{ "engine", required_argument, NULL, OPT_ENGINE },
	{ "iodepth", required_argument, NULL, OPT_IODEPTH },
	{ "seek-updates", required_argument, NULL, OPT_SEEK_UPDATES },
	{ "json", required_argument, NULL, OPT_JSON },
	{ "latency", no_argument, NULL, OPT_LATENCY },
	{ "cpu", no_argument, NULL, OPT_CPU },
	{ "data", required_argument, NULL, OPT_DATA },
	{ "verify", no_argument, NULL, OPT_VERIFY },
	{ "ceilings", no_argument, NULL, OPT_CEILINGS },
	{ "profile", no_argument, NULL, OPT_PROFILE },
	{ "profile-dev", required_argument, NULL, OPT_PROFILE_DEV },
	{ "bind", required_argument, NULL, OPT_BIND },
	{ "cpus", required_argument, NULL, OPT_CPUS },
	{ "numa-node", required_argument, NULL, OPT_NUMA_NODE },
	{ "mem-policy", required_argument, NULL, OPT_MEM_POLICY },
	{ "warmup", no_argument, NULL, OPT_WARMUP },
	{ "plan", no_argument, NULL, OPT_PLAN },
	{ "tree", required_argument, NULL, OPT_TREE },
	{ "tree-seed", required_argument, NULL, OPT_TREE_SEED },
	{ "tree-list", no_argument, NULL, OPT_TREE_LIST },
	{ "stonewall", required_argument, NULL, OPT_STONEWALL },
	{ "mpi-read-other", required_argument, NULL, OPT_MPI_READ_OTHER },
	{ "cleanup", required_argument, NULL, OPT_CLEANUP },
	{ "cleanup-user", required_argument, NULL, OPT_CLEANUP_USER },
	{ "cleanup-any-ns", no_argument, NULL, OPT_CLEANUP_ANY_NS },
	{ NULL, 0, NULL, 0 },
};

static int fail(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

static int parse_tree(struct clyde_options *o, const char *arg, char *err, size_t errlen)
{
	const struct tree_shape *shape;
	double scale;

	if (tree_parse_spec(arg, &shape, &scale, err, errlen))
		return -EINVAL;
	o->tree = arg;
	return 0;
}

static int parse_tree_seed(struct clyde_options *o, const char *arg, char *err, size_t errlen)
{
	char *end;

	errno = 0;
	o->tree_seed = strtoull(arg, &end, 0);
	if (!*arg || *end || errno || arg[0] == '-')
		return fail(err, errlen, "--tree-seed: '%s' is not a number from 0 to "
			    "18446744073709551615", arg);
	return 0;
}

static int parse_stonewall(struct clyde_options *o, const char *arg, char *err, size_t errlen)
{
	char *end;

	errno = 0;
	o->stonewall_s = strtod(arg, &end);
	if (!*arg || *end || errno || !(o->stonewall_s >= MIN_STONEWALL_S) ||
	    o->stonewall_s > MAX_STONEWALL_S)
		return fail(err, errlen, "--stonewall: '%s' is not a number of seconds from %g to %g",
			    arg, MIN_STONEWALL_S, MAX_STONEWALL_S);
	return 0;
}

static int parse_read_other(struct clyde_options *o, const char *arg, char *err, size_t errlen)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(arg, &end, 10);
	if (!*arg || *end || errno || v < 1 || v > MAX_READ_OTHER)
		return fail(err, errlen, "--mpi-read-other: '%s' is not a rank offset from 1 to %d",
			    arg, MAX_READ_OTHER);
	o->read_other = (int)v;
	return 0;
}

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
	o->place.numa_node = NUMA_NODE_NONE;
	o->cache = CACHE_DROP;
	o->perchar = PERCHAR_SYSCALL;
	o->engine = "psync";
	o->iodepth = 1;
	o->seek_updates = 10;
	o->data = DATA_RANDOM;
	o->tree_seed = DEFAULT_TREE_SEED;
}

static bool is_pow2(uint64_t v)
{
	return v && !(v & (v - 1));
}

/* Split "a:b:c" in place into at most max fields; returns the count. */
static int split_fields(char *s, char **fields, int max)
{
	int n = 0;

	fields[n++] = s;
	for (char *p = s; *p; p++) {
		if (*p != ':')
			continue;
		if (n == max)
			return max + 1;
		*p = '\0';
		fields[n++] = p + 1;
	}
	return n;
}

static int parse_u32(const char *opt, const char *what, const char *text,
		     uint32_t lo, uint32_t hi, uint32_t *out,
		     char *err, size_t errlen)
{
	int64_t v;
	int r = int_parse(text, &v);

	if (r == -EINVAL)
		return fail(err, errlen, "%s: %s '%s' is not a number", opt, what, text);
	if (r || v < lo || v > hi)
		return fail(err, errlen, "%s: %s %s is out of range (%" PRIu32 " to %" PRIu32 ")",
			    opt, what, text, lo, hi);
	*out = (uint32_t)v;
	return 0;
}

static int parse_chunk(const char *opt, const char *text, uint32_t *out,
		       char *err, size_t errlen)
{
	uint64_t v;
	int r = size_parse(text, 1, &v);

	if (r == -EINVAL)
		return fail(err, errlen, "%s: chunk size '%s' is not a size (examples: 8192, 16k, 1m)",
			    opt, text);
	if (r || v < MIN_CHUNK || v > MAX_CHUNK || !is_pow2(v))
		return fail(err, errlen, "%s: chunk size %s must be a power of two from %u to %u bytes",
			    opt, text, MIN_CHUNK, MAX_CHUNK);
	*out = (uint32_t)v;
	return 0;
}

/* -s size[:chunk[:seeks[:seekers]]]; empty fields keep their defaults. */
static int parse_size_arg(struct clyde_options *o, const char *text, char *err, size_t errlen)
{
	char arg[256], *f[4];
	int n;

	if (strlen(text) >= sizeof(arg))
		return fail(err, errlen, "-s: argument too long");
	strcpy(arg, text);
	n = split_fields(arg, f, 4);
	uint64_t bytes;
	int r;

	if (n > 4)
		return fail(err, errlen, "-s: expected size[:chunk[:seeks[:seekers]]], got too many fields");
	r = size_parse(f[0], 1ull << 20, &bytes);
	if (r == -EINVAL)
		return fail(err, errlen, "-s: size '%s' is not a size (examples: 512, 512M, 4G)", f[0]);
	if (r || bytes / (1ull << 20) > MAX_SIZE_MIB)
		return fail(err, errlen, "-s: size %s is out of range (at most %" PRIu64 "G)",
			    f[0], (uint64_t)MAX_SIZE_MIB >> 10);
	if (bytes % (1ull << 20))
		return fail(err, errlen, "-s: size %s is not a whole number of MiB", f[0]);
	o->size_mib = bytes >> 20;
	o->size_given = true;
	if (n > 1 && *f[1] && parse_chunk("-s", f[1], &o->chunk, err, errlen))
		return -EINVAL;
	if (n > 2 && *f[2] &&
	    parse_u32("-s", "seeks", f[2], 1, MAX_SEEKS, &o->seeks, err, errlen))
		return -EINVAL;
	if (n > 2 && *f[2])
		o->seeks_given = true;
	if (n > 3 && *f[3] &&
	    parse_u32("-s", "seekers", f[3], 1, MAX_SEEKERS, &o->seekers, err, errlen))
		return -EINVAL;
	if (o->size_mib && o->size_mib * (1ull << 20) < o->chunk)
		return fail(err, errlen, "-s: size %s is smaller than one chunk (%" PRIu32 " bytes)",
			    f[0], o->chunk);
	return 0;
}

static int parse_file_size(const char *what, const char *text, bool allow_links,
			   int64_t *out, char *err, size_t errlen)
{
	uint64_t v;
	int r;

	if (allow_links && (!strcmp(text, "-1") || !strcmp(text, "-2"))) {
		*out = text[1] == '1' ? -1 : -2;
		return 0;
	}
	r = size_parse(text, 1, &v);
	if (r == -EINVAL)
		return fail(err, errlen, "-n: %s '%s' is not a size%s", what, text,
			    allow_links ? " (or -1 for hard links, -2 for symlinks)" : "");
	if (r || v > (uint64_t)MAX_FILE_SIZE)
		return fail(err, errlen, "-n: %s %s is out of range (0 to %lldm)", what, text,
			    (long long)(MAX_FILE_SIZE >> 20));
	*out = (int64_t)v;
	return 0;
}

/* -n number[:max[:min[:num_dirs[:chunk]]]] */
static int parse_files_arg(struct clyde_options *o, const char *text, char *err, size_t errlen)
{
	char arg[256], *f[5];
	int n;

	if (strlen(text) >= sizeof(arg))
		return fail(err, errlen, "-n: argument too long");
	strcpy(arg, text);
	n = split_fields(arg, f, 5);

	if (n > 5)
		return fail(err, errlen, "-n: expected number[:max[:min[:num_dirs[:chunk]]]], got too many fields");
	if (parse_u32("-n", "number of files (x1024)", f[0], 0, MAX_FILES, &o->files, err, errlen))
		return -EINVAL;
	o->files_given = true;
	o->file_max = 0;
	o->file_min = 0;
	if (n > 1 && *f[1] && parse_file_size("max size", f[1], true, &o->file_max, err, errlen))
		return -EINVAL;
	if (n > 2 && *f[2]) {
		if (o->file_max < 0)
			return fail(err, errlen, "-n: min size makes no sense with max %s (links)", f[1]);
		if (parse_file_size("min size", f[2], false, &o->file_min, err, errlen))
			return -EINVAL;
		if (o->file_min > o->file_max)
			return fail(err, errlen, "-n: min size %s is larger than max size %s", f[2], f[1]);
	}
	if (n > 3 && *f[3] &&
	    parse_u32("-n", "number of directories", f[3], 0, MAX_FILE_DIRS, &o->file_dirs, err, errlen))
		return -EINVAL;
	if (o->file_dirs == 0)
		o->file_dirs = 1;
	if (n > 4 && *f[4] && parse_chunk("-n", f[4], &o->file_chunk, err, errlen))
		return -EINVAL;
	return 0;
}

static int parse_perchar(struct clyde_options *o, const char *arg, char *err, size_t errlen)
{
	uint64_t v;
	int r;

	if (!arg) {
		o->skip_perchar = true;
		return 0;
	}
	r = size_parse(arg, 1ull << 20, &v);
	if (r == -EINVAL)
		return fail(err, errlen, "-f: per-char size '%s' is not a size (examples: -f64k, -f3m)", arg);
	if (r || v < MIN_PERCHAR_BYTES || v > MAX_PERCHAR_BYTES)
		return fail(err, errlen, "-f: per-char size %s is out of range (1k to 1t)", arg);
	o->perchar_bytes = v;
	o->skip_perchar = false;
	return 0;
}

static int parse_name(struct clyde_options *o, const char *arg, char *err, size_t errlen)
{
	if (!*arg)
		return fail(err, errlen, "-m: the machine name is empty");
	if (strlen(arg) > MAX_NAME_LEN)
		return fail(err, errlen, "-m: the machine name is longer than %u characters", MAX_NAME_LEN);
	if (strpbrk(arg, ",\n\r"))
		return fail(err, errlen, "-m: the machine name may not contain a comma or a newline (it is a CSV field)");
	o->name = arg;
	return 0;
}

/* --data=zero|random|compressible:P */
/* --bind, --cpus, --numa-node, --mem-policy: checked here for form, by the planner for the machine. */
static int parse_place(struct clyde_options *o, int opt, const char *arg, char *err, size_t errlen)
{
	struct place_opts *p = &o->place;
	struct cpu_mask m;
	uint32_t n;

	switch (opt) {
	case OPT_BIND:
		if (!strcmp(arg, "none"))
			p->bind = BIND_NONE;
		else if (!strcmp(arg, "core"))
			p->bind = BIND_CORE;
		else if (!strcmp(arg, "numa"))
			p->bind = BIND_NUMA;
		else
			return fail(err, errlen, "--bind=%s: use none, core or numa", arg);
		return 0;
	case OPT_CPUS:
		if (mask_parse(arg, &m))
			return fail(err, errlen, "--cpus=%s: give CPU numbers and ranges such as "
				    "0-3,8 (below %d)", arg, TOPO_MAX_PUS);
		p->cpus = arg;
		return 0;
	case OPT_NUMA_NODE:
		if (!strcmp(arg, "device")) {
			p->numa_node = NUMA_NODE_DEVICE;
			return 0;
		}
		if (parse_u32("--numa-node", "NUMA node", arg, 0, TOPO_MAX_NODES - 1, &n, err,
			      errlen))
			return -EINVAL;
		p->numa_node = (int)n;
		return 0;
	default:
		if (!strcmp(arg, "local")) {
			p->mem = MEM_LOCAL;
		} else if (!strcmp(arg, "interleave")) {
			p->mem = MEM_INTERLEAVE;
		} else if (!strncmp(arg, "bind:", 5)) {
			if (parse_u32("--mem-policy=bind", "NUMA node", arg + 5, 0,
				      TOPO_MAX_NODES - 1, &n, err, errlen))
				return -EINVAL;
			p->mem = MEM_BIND;
			p->mem_node = (int)n;
		} else {
			return fail(err, errlen, "--mem-policy=%s: use local, interleave or bind:N",
				    arg);
		}
		return 0;
	}
}

static int parse_data(struct clyde_options *o, const char *arg, char *err, size_t errlen)
{
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
		return parse_u32("--data", "compressible percent", arg + 13, 0, 100,
				 &o->data_zero_pct, err, errlen);
	}
	return fail(err, errlen, "--data: '%s' must be zero, random or compressible:P (P: 0 to 100)", arg);
}

static int parse_option(struct clyde_options *o, int c, char *arg, char *err, size_t errlen)
{
	int64_t v;
	uint64_t u;

	switch (c) {
	case 'b':
		o->fsync_each = true;
		return 0;
	case 'c':
		return parse_u32("-c", "concurrency", arg, 1, MAX_CONCURRENCY,
				 &o->concurrency, err, errlen);
	case 'd':
		if (!*arg)
			return fail(err, errlen, "-d: the directory name is empty");
		o->dir = arg;
		return 0;
	case 'f':
		return parse_perchar(o, arg, err, errlen);
	case 'g':
		o->group = arg;
		return 0;
	case 'l':
		/* bonnie++ 2.00a takes an argument here and ignores it. */
		return 0;
	case 'm':
		return parse_name(o, arg, err, errlen);
	case 'n':
		return parse_files_arg(o, arg, err, errlen);
	case 'p':
		if (int_parse(arg, &v) || (v != -1 && (v < 1 || v > MAX_SEM_PROCS)))
			return fail(err, errlen, "-p: '%s' must be a number of processes from 1 to %d, or -1 to remove the semaphore",
				    arg, MAX_SEM_PROCS);
		o->sem_procs = (int32_t)v;
		o->sem_procs_given = true;
		return 0;
	case 'q':
		o->quiet = true;
		return 0;
	case 'r':
		if (size_parse(arg, 1ull << 20, &u) || (u >> 20) > MAX_SIZE_MIB || u % (1ull << 20))
			return fail(err, errlen, "-r: RAM size '%s' must be a whole number of MiB (0 to %" PRIu64 "G)",
				    arg, (uint64_t)MAX_SIZE_MIB >> 10);
		o->ram_mib = u >> 20;
		o->ram_given = true;
		return 0;
	case 's':
		return parse_size_arg(o, arg, err, errlen);
	case 'u':
		if (!*arg)
			return fail(err, errlen, "-u: the user name is empty");
		o->user = arg;
		return 0;
	case 'x':
		o->repeats_given = true;
		return parse_u32("-x", "number of runs", arg, 1, MAX_REPEATS, &o->repeats, err, errlen);
	case 'y':
		if (!strcmp(arg, "s"))
			o->sync = SYNC_SEMAPHORE;
		else if (!strcmp(arg, "p"))
			o->sync = SYNC_PROMPT;
		else
			return fail(err, errlen, "-y: '%s' must be s (semaphore) or p (prompt)", arg);
		return 0;
	case 'z':
		if (int_parse(arg, &v) || v < 0 || v > UINT32_MAX)
			return fail(err, errlen, "-z: seed '%s' must be a number from 0 to %u", arg, UINT32_MAX);
		o->seed = (uint32_t)v;
		o->seed_given = true;
		return 0;
	case 'Z':
		o->seed_file = arg;
		return 0;
	case 'D':
		o->direct = true;
		return 0;
	case OPT_HELP:
		o->help = true;
		return 0;
	case OPT_VERSION:
		o->version = true;
		return 0;
	case OPT_CACHE:
		if (!strcmp(arg, "drop"))
			o->cache = CACHE_DROP;
		else if (!strcmp(arg, "keep"))
			o->cache = CACHE_KEEP;
		else if (!strcmp(arg, "uncached"))
			o->cache = CACHE_UNCACHED;
		else if (!strcmp(arg, "system"))
			o->cache = CACHE_SYSTEM;
		else
			return fail(err, errlen, "--cache: '%s' must be drop, keep, uncached or system", arg);
		return 0;
	case OPT_EXACT:
		o->exact = true;
		return 0;
	case OPT_ENGINE:
		if (strcmp(arg, "auto") && !engine_find(arg)) {
			char names[128];

			engine_names(names, sizeof(names));
			return fail(err, errlen, "--engine: '%s' must be %s or auto", arg, names);
		}
		o->engine = arg;
		return 0;
	case OPT_IODEPTH:
		o->iodepth_given = true;
		return parse_u32("--iodepth", "queue depth", arg, 1, MAX_IODEPTH, &o->iodepth, err, errlen);
	case OPT_SEEK_UPDATES:
		return parse_u32("--seek-updates", "percent", arg, 0, 100, &o->seek_updates, err, errlen);
	case OPT_JSON:
		if (!*arg)
			return fail(err, errlen, "--json: the file name is empty (use - for stdout)");
		o->json = arg;
		return 0;
	case OPT_LATENCY:
		o->latency_table = true;
		return 0;
	case OPT_CPU:
		o->cpu_table = true;
		return 0;
	case OPT_DATA:
		return parse_data(o, arg, err, errlen);
	case OPT_VERIFY:
		o->verify = true;
		return 0;
	case OPT_CEILINGS:
		o->ceilings = true;
		return 0;
	case OPT_PROFILE:
		o->profile = true;
		return 0;
	case OPT_BIND:
	case OPT_CPUS:
	case OPT_NUMA_NODE:
	case OPT_MEM_POLICY:
		return parse_place(o, c, arg, err, errlen);
	case OPT_PROFILE_DEV:
		if (!*arg)
			return fail(err, errlen, "--profile-dev: no device named (give names such "
				    "as sda or loop0,loop1)");
		o->profile = true;
		o->profile_dev = arg;
		return 0;
	case OPT_WARMUP:
		o->warmup = true;
		return 0;
	case OPT_PLAN:
		o->plan_only = true;
		return 0;
	case OPT_TREE:
		return parse_tree(o, arg, err, errlen);
	case OPT_TREE_SEED:
		return parse_tree_seed(o, arg, err, errlen);
	case OPT_TREE_LIST:
		o->tree_list = true;
		return 0;
	case OPT_STONEWALL:
		return parse_stonewall(o, arg, err, errlen);
	case OPT_MPI_READ_OTHER:
		return parse_read_other(o, arg, err, errlen);
	case OPT_CLEANUP:
		o->cleanup_dir = arg;
		return 0;
	case OPT_CLEANUP_USER:
		o->cleanup_user = arg;
		return 0;
	case OPT_CLEANUP_ANY_NS:
		o->cleanup_any_ns = true;
		return 0;
	case OPT_PERCHAR:
		if (!strcmp(arg, "syscall"))
			o->perchar = PERCHAR_SYSCALL;
		else if (!strcmp(arg, "stdio"))
			o->perchar = PERCHAR_STDIO;
		else
			return fail(err, errlen, "--perchar: '%s' must be syscall or stdio", arg);
		return 0;
	}
	return fail(err, errlen, "internal: unhandled option %d", c);
}

static int check_combination(const struct clyde_options *o, char *err, size_t errlen)
{
	const struct engine_ops *eng = engine_find(o->engine);

	if (o->seed_given && o->seed_file)
		return fail(err, errlen, "-z and -Z both give the seed: use one");
	if (eng && !(eng->flags & ENGINE_F_QUEUED) && o->iodepth > 1)
		return fail(err, errlen, "--iodepth %u needs a queued engine: %s keeps one request in flight (use --engine=uring)",
			    o->iodepth, o->engine);
	if ((o->tree_list || o->tree_seed != DEFAULT_TREE_SEED) && !o->tree)
		return fail(err, errlen, "%s needs --tree=SHAPE", o->tree_list ? "--tree-list" : "--tree-seed");
	if (o->sem_procs_given && o->sync != SYNC_NONE)
		return fail(err, errlen, "-p creates the semaphore and exits; -y is for the runs that use it");
	if ((o->cleanup_user || o->cleanup_any_ns) && !o->cleanup_dir)
		return fail(err, errlen, "%s needs --cleanup DIR",
			    o->cleanup_user ? "--cleanup-user" : "--cleanup-any-ns");
	return 0;
}

int options_parse(struct clyde_options *o, int argc, char **argv,
		  char *err, size_t errlen)
{
	int c, idx;

	opterr = 0;
	getopt_restart();
	while ((c = getopt_long(argc, argv, short_opts, long_opts, &idx)) != -1) {
		if (c == '?') {
			if (optopt && optopt < 0x100)
				return fail(err, errlen, "unknown option '-%c'", optopt);
			return fail(err, errlen, "unknown option '%s'", argv[optind - 1]);
		}
		if (c == ':') {
			if (optopt && optopt < 0x100)
				return fail(err, errlen, "option '-%c' needs an argument", optopt);
			return fail(err, errlen, "option '%s' needs an argument", argv[optind - 1]);
		}
		if (parse_option(o, c, optarg, err, errlen))
			return -EINVAL;
	}
	if (optind < argc)
		return fail(err, errlen, "unexpected argument '%s'%s", argv[optind],
			    argv[optind][0] != '-' && optind > 1 && !strcmp(argv[optind - 1], "-f")
			    ? " (write -f's size attached: -f64k)" : "");
	return check_combination(o, err, errlen);
}

void options_usage(FILE *out)
{
	fputs(
"usage: clyde [-d dir] [-s size[:chunk[:seeks[:seekers]]]]\n"
"             [-n number[:max[:min[:num_dirs[:chunk]]]]] [-m name] [-r ram]\n"
"             [-x runs] [-u user[:group]] [-g group] [-q] [-f[size]] [-b] [-D]\n"
"             [-c concurrency] [-z seed | -Z file] [-p procs | -y s|p] [-l arg]\n"
"             [--cache=drop|keep|uncached|system] [--perchar=syscall|stdio]\n"
"             [--exact]\n"
"             [--engine=psync|uring|auto] [--iodepth=N] [--seek-updates=PCT]\n"
"             [--json FILE|-] [--latency] [--cpu] [--data=zero|random|compressible:P]\n"
"             [--verify] [--ceilings] [--warmup] [--plan]\n"
"             [--profile] [--profile-dev=DEV[,DEV...]]\n"
"             [--bind=none|core|numa] [--cpus=LIST] [--numa-node=N|device]\n"
"             [--mem-policy=local|interleave|bind:N]\n"
"             [--tree=ports|source|mixed[:SCALE]] [--tree-seed=N] [--tree-list]\n"
"             [--stonewall=SECONDS] [--mpi-read-other=K]\n"
"       clyde --cleanup DIR [--cleanup-user=USER] [--cleanup-any-ns]\n"
"\n"
"A bonnie++ 2.00a-compatible file system benchmark.\n"
"\n"
"  -d dir        directory to test in (default: current directory); clyde\n"
"                works only inside a private directory it creates there\n"
"  -s size[:chunk[:seeks[:seekers]]]\n"
"                file size for the I/O phases (MiB, or with k/m/g/t suffix;\n"
"                0 skips them; default: the smaller of 4G and half the free\n"
"                space), chunk size (power of two, 256 to 1m; default 8k),\n"
"                number of seeks and seeker threads (default 5); with no seek\n"
"                count the seekers do at least 8192 seeks and go on until the\n"
"                phase has lasted about a second; a count given is done exactly;\n"
"                without -s the per-char and block phases stop at time boxes\n"
"                (3 s, write and rewrite 8 s, read 6 s)\n"
"  -n number[:max[:min[:num_dirs[:chunk]]]]\n"
"                file tests with number*1024 files (0 skips them; default: 16,\n"
"                fewer where a calibration says a default run's budget cannot\n"
"                hold them; then each create stops at 3 s and each stat phase\n"
"                repeats over every file until it has lasted 0.5 s)\n"
"                of min..max bytes (max -1: hard links, -2: symlinks) in\n"
"                num_dirs directories, written in chunk-sized writes\n"
"  -m name       machine name for the report (default: host name)\n"
"  -r ram        RAM size in MiB for the cache warning (default: detected;\n"
"                0 disables the check)\n"
"  -x runs       run everything this many times; stdout carries only CSV\n"
"                lines (a header line first when runs is above 1) and the\n"
"                tables go to stderr; each run gets a new seed unless -z or\n"
"                -Z gives one\n"
"  -u user[:group]  run as this user (and group) after dropping root\n"
"  -g group      run as this group\n"
"  -q            quiet: only the CSV on stdout, the rest on stderr\n"
"  -f[size]      -f alone skips the per-char phases; -fSIZE sets their size\n"
"                (attached, e.g. -f64k; default 3m)\n"
"  -b            no write buffering: fsync after every block, rewrite and seek\n"
"                write and after every file create and delete\n"
"  -D, --direct  O_DIRECT for the block, rewrite and seek phases\n"
"  -c concurrency  run this many copies of each phase at once (default 1)\n"
"  -z seed       random seed (0 to 4294967295), the same for every run\n"
"  -Z file       take the seed from the first four bytes of file\n"
"  -p procs      create a semaphore for procs clyde processes and exit;\n"
"                -p -1 removes it\n"
"  -y s|p        before each phase wait on that semaphore (s) or for Enter (p)\n"
"  -l arg        accepted for bonnie++ compatibility and ignored\n"
"  --cache=drop|keep|uncached|system\n"
"                drop (default): fsync and evict the file's pages after each\n"
"                I/O phase (posix_fadvise DONTNEED; on the BSDs also msync\n"
"                MS_INVALIDATE) so reads come from the device; keep: leave the\n"
"                page cache alone, as bonnie++ does; uncached: block and seek\n"
"                I/O with RWF_DONTCACHE (Linux 6.14+), then drop; system\n"
"                (root): sync and drop_caches after every phase, which also\n"
"                drops dentries and inodes, for the whole machine\n"
"  --perchar=syscall|stdio  per-char phases as 1-byte system calls (default,\n"
"                bonnie++ 2.00) or stdio putc/getc (bonnie++ 1.03)\n"
"  --exact       print measured numbers where bonnie++ prints +++++ (phases\n"
"                under 0.5 s whose amount of work -s or -n fixed)\n"
"  --engine=psync|uring|auto  how block and seek I/O is issued: pread/pwrite\n"
"                (default, comparable with bonnie++), io_uring, or io_uring\n"
"                when the kernel allows it and psync otherwise\n"
"  --iodepth=N   requests in flight per file or seeker (1 to 1024; above 1\n"
"                needs --engine=uring or auto; default 1)\n"
"  --seek-updates=PCT  percent of seeks that change and write back their\n"
"                chunk (0 to 100; default 10, as bonnie++)\n"
"  --json FILE   also write a JSON document of every run (see clyde(1));\n"
"                with -, stdout carries only the JSON and the text goes to\n"
"                stderr without the CSV line\n"
"  --latency     add a table of latency percentiles (p50 p90 p99 p99.9 max)\n"
"  --cpu         add a table of CPU per phase: user, system, dead (wall minus\n"
"                user), the final flush, CPU per MiB, seek or file\n"
"  --data=zero|random|compressible:P  what the block, seek and file data are:\n"
"                zeros (bonnie++), random (default: honest on compressing\n"
"                file systems) or P percent zeros and the rest random\n"
"  --verify      write a pattern that encodes offset and seed and check it on\n"
"                every read; a mismatch is named and counted, exit status 6\n"
"  --ceilings    measure a system call and memory copy first and show each\n"
"                phase as a fraction of its machine ceiling\n"
"  --profile     where each phase's CPU and device bytes went: clyde's process,\n"
"                the filesystem's and the kernel's threads, interrupts, other\n"
"                processes, idle; CPU per GiB, 1000 seeks or 1000 files inside\n"
"                clyde and in total; perf counters; the device's requests,\n"
"                bytes, busy time and write amplification (see clyde(1))\n"
"  --profile-dev=DEV[,DEV...]  the block devices --profile counts (names in\n"
"                /sys/block), where clyde cannot find them itself (ZFS, FUSE)\n"
"  --bind=none|core|numa  place the -c workers (and their seekers): none\n"
"                (default), one core each in the machine's order, or one\n"
"                NUMA node each, round robin; the report says where each ran\n"
"  --cpus=LIST   only these CPUs (such as 0-3,8), within the process's set\n"
"  --numa-node=N|device  keep the workers and their memory on node N, or on\n"
"                the node of -d's device when known (needs hwloc or libnuma)\n"
"  --mem-policy=local|interleave|bind:N  where the workers' buffers go\n"
"                (needs hwloc or libnuma; default: the system's first touch)\n"
"  --tree=SHAPE[:SCALE]  after the file tests, the tree workloads on a\n"
"                generated tree: extract (as tar x), copy (cp -r), walk (find\n"
"                with a stat of every entry), read (tar c > /dev/null) and\n"
"                delete both trees (rm -rf); SHAPE ports (many small\n"
"                directories of tiny files), source (a kernel source tree) or\n"
"                mixed (documents, images, audio); SCALE multiplies the\n"
"                default file count (0.001 to 1000; default 1); use with\n"
"                -s 0 -n 0 for the trees alone; --engine=uring batches them\n"
"  --tree-seed=N the tree's own seed (default 1): the same tree for every run\n"
"                and every file system; -z does not change it\n"
"  --tree-list   print the tree (d PATH, f PATH SIZE a line) and its hash, then\n"
"                exit without writing anything\n"
"  --stonewall=SECONDS  a time limit on the per-char and block phases, worn\n"
"                out as IOR's: at the limit every worker (of every rank under\n"
"                mpirun) stops, then all go on until each has done as much as\n"
"                the one that did most, so the files stay the same size; the\n"
"                work done at the limit is reported beside the phase\n"
"  --mpi-read-other=K  under mpirun, the per-char and block reads of rank R\n"
"                read the file rank R+K wrote (IOR's -C, mdtest's -N), so no\n"
"                client reads its own page cache; K must not be a multiple of\n"
"                the rank count\n"
"  --cleanup DIR remove the private directories (clyde.*) in DIR that runs\n"
"                killed or cut off left behind: only those with clyde's marker\n"
"                whose process is gone from this host, whose directory and\n"
"                marker belong to the user running it (root removes only\n"
"                root's), never following links nor entering other file\n"
"                systems; says what it removed and what it kept, then exits\n"
"  --cleanup-user=USER  with --cleanup, as root: also remove USER's trees\n"
"                (runs made with -u USER), in a child that has become USER\n"
"  --cleanup-any-ns  with --cleanup: take the markers written in another\n"
"                pid namespace (a container) as gone; say so only when no\n"
"                run is alive there\n"
"  --warmup      run once untimed before the counted runs\n"
"  --plan        calibrate and print what would run (sizes, counts, engine,\n"
"                cache method, phases, time boxes, time estimate), then exit\n"
"  --help        this help\n"
"  --version     print the version and the engines built in\n"
"\n"
"Under mpirun (an MPI build) every rank is a client with its own private\n"
"directory in -d; the ranks start each phase together and rank 0 alone\n"
"prints the aggregate of all (see MANY CLIENTS in clyde(1)).\n"
"\n"
"Exit status: 0 success, 1 usage, 2 unusable directory, 3 I/O error (also\n"
"the ranks another rank's failure stopped), 4 engine unavailable or MPI\n"
"failed, 5 interrupted by a signal, 6 verification mismatch.\n",
	      out);
}
