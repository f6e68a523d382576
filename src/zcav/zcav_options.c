// SPDX-License-Identifier: BSD-2-Clause
/*
 * clyde-zcav's command line: zcav's options with their meanings (sizes
 * in MiB, -l naming the log of the file after it), and clyde's own long
 * options. Bad input is said, naming the option, and is a usage error.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/opt.h"
#include "lib/size.h"
#include "zcav/zcav.h"

/* A whole number in [min, max] for option opt; false with the complaint said. */
static bool number_arg(const char *opt, const char *text, uint64_t min, uint64_t max,
		       uint64_t *out)
{
	int64_t v;

	if (int_parse(text, &v) || v < 0 || (uint64_t)v < min || (uint64_t)v > max) {
		fprintf(stderr, "clyde-zcav: %s %s: not a whole number from %llu to %llu\n", opt,
			text, (unsigned long long)min, (unsigned long long)max);
		return false;
	}
	*out = (uint64_t)v;
	return true;
}

/* "a:b" into its two parts (b NULL when there is no colon); buf holds the copy. */
static void split_colon(char *buf, size_t len, const char *text, const char **a, const char **b)
{
	char *colon;

	snprintf(buf, len, "%s", text);
	colon = strchr(buf, ':');
	*a = buf;
	*b = NULL;
	if (colon) {
		*colon = '\0';
		*b = colon + 1;
	}
}

static bool parse_block(struct zcav_opts *o, const char *text)
{
	char buf[64];
	const char *a, *b;
	uint64_t block, chunk = ZCAV_CHUNK_MIB;

	split_colon(buf, sizeof(buf), text, &a, &b);
	if (!number_arg("-b", a, 1, 1u << 20, &block) ||
	    (b && !number_arg("-b (chunk)", b, 1, 1u << 20, &chunk)))
		return false;
	if (chunk > block) {
		fprintf(stderr, "clyde-zcav: -b %s: the chunk is larger than the block\n", text);
		return false;
	}
	o->block_mib = (unsigned)block;
	o->chunk_mib = (unsigned)chunk;
	return true;
}

static bool parse_range(struct zcav_opts *o, const char *text)
{
	char buf[64];
	const char *a, *b;
	uint64_t first = 0, last;

	split_colon(buf, sizeof(buf), text, &a, &b);
	if (!b) {
		b = a;
		a = "";
	}
	if ((a[0] && !number_arg("-r (first)", a, 0, UINT64_MAX >> 21, &first)) ||
	    !number_arg("-r (last)", b, 1, UINT64_MAX >> 21, &last))
		return false;
	if (first >= last) {
		fprintf(stderr, "clyde-zcav: -r %s: first is not before last\n", text);
		return false;
	}
	o->first_mib = first;
	o->last_mib = last;
	return true;
}

/* -u user[:group] */
static bool parse_user(struct zcav_opts *o, char *text)
{
	char *colon = strchr(text, ':');

	if (o->user) {
		fputs("clyde-zcav: -u given twice\n", stderr);
		return false;
	}
	if (colon) {
		if (o->group) {
			fputs("clyde-zcav: -u user:group and -g both name a group\n", stderr);
			return false;
		}
		*colon = '\0';
		o->group = colon + 1;
	}
	o->user = text;
	return true;
}

static bool add_target(struct zcav_opts *o, const char *path, const char **log)
{
	if (o->ntargets == ZCAV_MAX_TARGETS) {
		fprintf(stderr, "clyde-zcav: more than %u files\n", ZCAV_MAX_TARGETS);
		return false;
	}
	if (!path[0]) {
		fputs("clyde-zcav: an empty file name\n", stderr);
		return false;
	}
	o->target[o->ntargets].path = path;
	o->target[o->ntargets].log = *log;
	o->ntargets++;
	*log = "-";
	return true;
}

static void defaults(struct zcav_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->block_mib = ZCAV_BLOCK_MIB;
	o->chunk_mib = ZCAV_CHUNK_MIB;
	o->passes = 1;
	o->skip = 1;
	o->engine = "auto";
	o->iodepth = 1;
	o->log_pending = "-";
}

/* The checks across options, once all are read. */
static bool consistent(const struct zcav_opts *o, const char *log)
{
	unsigned stdin_targets = 0;

	if (!o->ntargets) {
		fputs("clyde-zcav: no file to read (give one, or - for standard input)\n", stderr);
		return false;
	}
	if (strcmp(log, "-")) {
		fprintf(stderr, "clyde-zcav: -l %s: no file after it\n", log);
		return false;
	}
	for (unsigned i = 0; i < o->ntargets; i++)
		stdin_targets += !strcmp(o->target[i].path, "-");
	if (stdin_targets > 1) {
		fputs("clyde-zcav: standard input (-) given more than once\n", stderr);
		return false;
	}
	if (stdin_targets && (o->write || o->skip > 1 || o->first_mib)) {
		fputs("clyde-zcav: standard input (-) cannot be written, skipped in (-s) or started"
		      " later (-r first:last)\n", stderr);
		return false;
	}
	if (o->force && !o->write) {
		fputs("clyde-zcav: --force is for -w only\n", stderr);
		return false;
	}
	/* reading starts at the block that holds first, as zcav does; writing there would not */
	if (o->write && o->first_mib % o->block_mib) {
		fprintf(stderr, "clyde-zcav: -w -r %llu:...: first is not a multiple of the block"
			" (-b %u MiB), so the block that holds it starts before it; -w writes only"
			" whole blocks inside -r (give %llu or %llu)\n",
			(unsigned long long)o->first_mib, o->block_mib,
			(unsigned long long)(o->first_mib / o->block_mib * o->block_mib),
			(unsigned long long)((o->first_mib / o->block_mib + 1) * o->block_mib));
		return false;
	}
	return true;
}

/* The rows' parsers: 0, or ZCAV_EXIT_USAGE with the complaint said. */

/* A whole number in [min, max] into *out. */
static int count_arg(const char *opt, const char *text, uint64_t min, uint64_t max, unsigned *out)
{
	uint64_t v;

	if (!number_arg(opt, text, min, max, &v))
		return ZCAV_EXIT_USAGE;
	*out = (unsigned)v;
	return 0;
}

static int opt_block(void *ctx, const char *arg, char *err, size_t errlen)
{
	(void)err;
	(void)errlen;
	return parse_block(ctx, arg) ? 0 : ZCAV_EXIT_USAGE;
}

static int opt_passes(void *ctx, const char *arg, char *err, size_t errlen)
{
	(void)err;
	(void)errlen;
	return count_arg("-c", arg, 1, ZCAV_MAX_PASSES, &((struct zcav_opts *)ctx)->passes);
}

static int opt_range(void *ctx, const char *arg, char *err, size_t errlen)
{
	(void)err;
	(void)errlen;
	return parse_range(ctx, arg) ? 0 : ZCAV_EXIT_USAGE;
}

static int opt_skip(void *ctx, const char *arg, char *err, size_t errlen)
{
	(void)err;
	(void)errlen;
	return count_arg("-s", arg, 2, 20, &((struct zcav_opts *)ctx)->skip);
}

/* -u user[:group]: the argument is argv's own, cut at the colon. */
static int opt_user(void *ctx, const char *arg, char *err, size_t errlen)
{
	(void)err;
	(void)errlen;
	return parse_user(ctx, (char *)arg) ? 0 : ZCAV_EXIT_USAGE;
}

static int opt_group(void *ctx, const char *arg, char *err, size_t errlen)
{
	struct zcav_opts *o = ctx;

	(void)err;
	(void)errlen;
	if (o->group) {
		fputs("clyde-zcav: a group given twice (-g, -u user:group)\n", stderr);
		return ZCAV_EXIT_USAGE;
	}
	o->group = arg;
	return 0;
}

/* -f file, or a file named without it (in its place among the -l) */
static int opt_target(void *ctx, const char *arg, char *err, size_t errlen)
{
	struct zcav_opts *o = ctx;

	(void)err;
	(void)errlen;
	return add_target(o, arg, &o->log_pending) ? 0 : ZCAV_EXIT_USAGE;
}

static int opt_iodepth(void *ctx, const char *arg, char *err, size_t errlen)
{
	(void)err;
	(void)errlen;
	return count_arg("--iodepth", arg, 1, 1024, &((struct zcav_opts *)ctx)->iodepth);
}



#define SETS(f)		OPT_FIELD(struct zcav_opts, f, bool)
#define KEEPS(f)	OPT_FIELD(struct zcav_opts, f, const char *)

static const struct opt_row rows[] = {
	{ .synopsis = "[-b block[:chunk]]", .syn_at = OPT_SYN(0, 0),
	  .letter = 'b', .arg = required_argument, .parse = opt_block,
	  .help = "  -b block[:chunk]  block size, MiB, and the size of each request, MiB\n"
		  "                    (default 512:1)\n" },
	{ .synopsis = "[-c count]", .syn_at = OPT_SYN(0, 0),
	  .letter = 'c', .arg = required_argument, .parse = opt_passes,
	  .help = "  -c count          passes over the target (default 1, at most 100); above 1\n"
		  "                    each block's time is the mean of its middle third\n" },
	{ .synopsis = "[-r [first]:last]", .syn_at = OPT_SYN(0, 0),
	  .letter = 'r', .arg = required_argument, .parse = opt_range,
	  .help = "  -r [first]:last   only MiB first to last of the target (default all): a\n"
		  "                    block is taken when it ends by last; first is rounded\n"
		  "                    down to a block (with -w it must be a multiple of -b)\n" },
	{ .synopsis = "[-s skip]", .syn_at = OPT_SYN(0, 0),
	  .letter = 's', .arg = required_argument, .parse = opt_skip,
	  .help = "  -s skip           every skip-th block only (2 to 20), within -r's MiB\n" },
	{ .synopsis = "[-u user[:group]]", .syn_at = OPT_SYN(1, 0),
	  .letter = 'u', .arg = required_argument, .parse = opt_user,
	  .help = "  -u user[:group]   run as this user (and group); -g group: the group\n" },
	{ .synopsis = "[-g group]", .syn_at = OPT_SYN(1, 0),
	  .letter = 'g', .arg = required_argument, .parse = opt_group },
	{ .synopsis = "[-l log] [-f] file [-l log [-f] file]...", .syn_at = OPT_SYN(3, 0),
	  .letter = 'l', .arg = required_argument, KEEPS(log_pending),
	  .help = "  -l log            write the next file's output there (default stdout)\n" },
	{ .letter = 'f', .arg = required_argument, .parse = opt_target,
	  .help = "  -f file           the file, device or partition to read (\"-\": stdin);\n"
		  "                    several -l/-f pairs are measured at the same time\n" },
	{ .synopsis = "[-w --force]", .syn_at = OPT_SYN(1, 0),
	  .letter = 'w', .arg = no_argument, SETS(write),
	  .help = "  -w                write zeros instead of reading: destroys the data; needs\n"
		  "                    --force, and is refused on a mounted device, swap, a\n"
		  "                    device another holds, a character device, a target named\n"
		  "                    twice, and a regular file named through a symbolic link\n"
		  "                    (a link is followed only to a block device); says how\n"
		  "                    many MiB it writes and the last offset before it starts.\n"
		  "                    Linux only: refused on the BSDs\n" },
	{ .name = "force", .arg = no_argument, SETS(force),
	  .help = "      --force       allow -w, also over a filesystem or partition signature\n" },
	{ .synopsis = "[--buffered]", .syn_at = OPT_SYN(1, 0),
	  .name = "buffered", .arg = no_argument, SETS(buffered),
	  .help = "      --buffered    read through the page cache, as zcav does (default:\n"
		  "                    O_DIRECT, so that a second pass measures the device)\n" },
	{ .synopsis = "[--engine psync|uring|aio|auto]", .syn_at = OPT_SYN(2, 0),
	  .name = "engine", .arg = required_argument, KEEPS(engine),
	  .help = "      --engine E    psync, uring (io_uring, where built), aio (POSIX AIO;\n"
		  "                    glibc's threads on Linux), or auto (default:\n"
		  "                    psync at depth 1; above it uring where the kernel\n"
		  "                    takes it, else psync at depth 1 with a note)\n" },
	{ .synopsis = "[--iodepth N]", .syn_at = OPT_SYN(2, 0),
	  .name = "iodepth", .arg = required_argument, .parse = opt_iodepth,
	  .help = "      --iodepth N   requests in flight within a block (default 1)\n" },
	{ .synopsis = "[--json FILE]", .syn_at = OPT_SYN(2, 0),
	  .name = "json", .arg = required_argument, KEEPS(json),
	  .help = "      --json FILE   every block's rate, latency percentiles and the device's\n"
		  "                    identity as JSON (clyde-zcav/1)\n" },
	{ .name = "help", .letter = 'h', .arg = no_argument, .does = OPT_HELP,
	  .help = "  -h, --help        this text\n" },
	{ .name = "version", .letter = 'V', .arg = no_argument, .does = OPT_VERSION,
	  .help = "  -V, --version     the version\n" },
};

/*
 * "-" first: a file named without -f comes as an operand in its place
 * among the -l, as zcav takes it; getopt says what is wrong, as zcav's.
 */
static const struct opt_table table = {
	.program = "clyde-zcav",
	.usage = "Usage:",
	.version = PACKAGE_VERSION,
	.rows = rows,
	.count = sizeof(rows) / sizeof(rows[0]),
	.short_prefix = "-",
	.operand = opt_target,
	.getopt_says = true,
	.intro = "Reads a disk, partition or file from start to end, block by block, and prints\n"
		 "each block's position and rate in bonnie++ zcav's format (gnuplot-ready).\n",
	.outro = "Exit status: 0 ok, 1 usage, 2 a file could not be opened, read or written,\n"
		 "3 -w refused, 4 --json could not be written. See clyde-zcav(1).\n",
};

void zcav_usage(FILE *out)
{
	opt_usage(out, &table);
}

int zcav_options_parse(struct zcav_opts *o, int argc, char **argv)
{
	char err[256] = "";
	int next, ret;

	defaults(o);
	ret = opt_parse(&table, o, argc, argv, &next, err, sizeof(err));
	if (ret == OPT_DONE || ret == ZCAV_EXIT_USAGE)
		return ret;
	if (ret) {
		zcav_usage(stderr);
		return ZCAV_EXIT_USAGE;
	}
	/* POSIX getopt (no leading '-' extension) leaves the names after the options */
	for (int i = next; i < argc; i++)
		if (!add_target(o, argv[i], &o->log_pending))
			return ZCAV_EXIT_USAGE;
	return consistent(o, o->log_pending) ? 0 : ZCAV_EXIT_USAGE;
}
