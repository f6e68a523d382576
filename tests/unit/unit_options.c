// SPDX-License-Identifier: BSD-2-Clause
/* The command line: bonnie++'s shapes, ranges, and the messages. */
#include "config.h"

#include <errno.h>
#include <stdarg.h>

#include "clyde/options.h"
#include "tree/tree.h"
#include "unit.h"

static char err[512];

/* Parse a NULL-terminated list of arguments after "clyde". */
static int parse(struct clyde_options *o, ...)
{
	char *argv[32] = { "clyde" };
	int argc = 1;
	va_list ap;

	va_start(ap, o);
	for (char *a; (a = va_arg(ap, char *)) && argc < 31;)
		argv[argc++] = a;
	va_end(ap);
	options_defaults(o);
	err[0] = '\0';
	return options_parse(o, argc, argv, err, sizeof(err));
}

/* A failing parse whose message contains want. */
#define REJECTS(want, ...) do {						\
	struct clyde_options o_;					\
	int r_ = parse(&o_, __VA_ARGS__, (char *)NULL);			\
	CHECK(r_ == -EINVAL && strstr(err, want), "message '%s' lacks '%s'", err, want); \
} while (0)

int main(void)
{
	struct clyde_options o;

	/* Defaults are bonnie++'s. */
	CHECK(parse(&o, (char *)NULL) == 0, "no arguments");
	CHECK_STR(o.dir, ".");
	CHECK(o.chunk == 8192 && o.seeks == 8192 && o.seekers == 5, "I/O defaults");
	CHECK(o.files == 16 && o.file_max == 0 && o.file_dirs == 1 && o.file_chunk == 8192, "file defaults");
	CHECK(o.perchar_bytes == 3u << 20 && !o.skip_perchar, "per-char default 3 MiB");
	CHECK(o.cache == CACHE_DROP && o.perchar == PERCHAR_SYSCALL, "cache drop, per-char syscall");
	CHECK(!o.size_given && o.repeats == 1 && o.concurrency == 1, "size unset, one run");

	CHECK(parse(&o, "-d", "/tmp", "-s", "1G:16k:100:3", "-m", "label", (char *)NULL) == 0, "%s", err);
	CHECK(o.size_bytes == 1ull << 30 && o.chunk == 16384 && o.seeks == 100 && o.seekers == 3, "-s fields");
	CHECK_STR(o.dir, "/tmp");
	CHECK_STR(o.name, "label");
	CHECK(parse(&o, "-s", "64", (char *)NULL) == 0 && o.size_bytes == 64ull << 20, "-s 64 is MiB");
	CHECK(parse(&o, "-s", "4G::10", (char *)NULL) == 0 && o.size_bytes == 4ull << 30 &&
	      o.chunk == 8192 && o.seeks == 10, "-s with an empty chunk field");
	CHECK(parse(&o, "-s", "0", (char *)NULL) == 0 && o.size_given && o.size_bytes == 0, "-s 0");

	CHECK(parse(&o, "-n", "4:64k:1k:4:16k", (char *)NULL) == 0, "%s", err);
	CHECK(o.files == 4 && o.file_max == 65536 && o.file_min == 1024 && o.file_dirs == 4 &&
	      o.file_chunk == 16384, "-n fields");
	CHECK(parse(&o, "-n", "2:-1", (char *)NULL) == 0 && o.file_max == -1, "-n links");
	CHECK(parse(&o, "-n", "2:-2", (char *)NULL) == 0 && o.file_max == -2, "-n symlinks");
	CHECK(parse(&o, "-n", "0", (char *)NULL) == 0 && o.files == 0, "-n 0");

	CHECK(parse(&o, "-f", (char *)NULL) == 0 && o.skip_perchar, "-f alone skips per-char");
	CHECK(parse(&o, "-f64k", (char *)NULL) == 0 && !o.skip_perchar && o.perchar_bytes == 65536, "-f64k");
	CHECK(parse(&o, "-f3", (char *)NULL) == 0 && o.perchar_bytes == 3u << 20, "-f3 is MiB");
	CHECK(parse(&o, "-D", (char *)NULL) == 0 && o.direct, "-D");
	CHECK(parse(&o, "--direct", (char *)NULL) == 0 && o.direct, "--direct");
	CHECK(parse(&o, "-l", "whatever", "-b", "-q", (char *)NULL) == 0 && o.fsync_each && o.quiet, "-l -b -q");
	CHECK(parse(&o, "-z", "4294967295", (char *)NULL) == 0 && o.seed_given && o.seed == 4294967295u, "-z max");
	CHECK(parse(&o, "-x", "3", "-c", "2", (char *)NULL) == 0 && o.repeats == 3 && o.concurrency == 2, "-x -c");
	CHECK(parse(&o, "-p", "-1", (char *)NULL) == 0 && o.sem_procs == -1, "-p -1");
	CHECK(parse(&o, "-y", "s", (char *)NULL) == 0 && o.sync == SYNC_SEMAPHORE, "-y s");
	CHECK(parse(&o, "-y", "p", (char *)NULL) == 0 && o.sync == SYNC_PROMPT, "-y p");
	CHECK(parse(&o, "-u", "nobody:nogroup", "-g", "0", (char *)NULL) == 0, "-u -g");
	CHECK_STR(o.user, "nobody:nogroup");
	CHECK_STR(o.group, "0");
	CHECK(parse(&o, "-Z", "/dev/null", (char *)NULL) == 0 && !o.seed_given, "-Z");
	CHECK_STR(o.seed_file, "/dev/null");
	/* the table's flags: each row sets its own field and no other */
	CHECK(parse(&o, "--latency", "--cpu", "--verify", "--ceilings", "--warmup", (char *)NULL) == 0 &&
	      o.latency_table && o.cpu_table && o.verify && o.ceilings && o.warmup && !o.plan_only &&
	      !o.profile && !o.exact && !o.quiet, "flags");
	CHECK(parse(&o, "--plan", "--profile", (char *)NULL) == 0 && o.plan_only && o.profile &&
	      !o.latency_table && !o.warmup, "--plan --profile");
	/* --tree: parsed once, here; the plan and --tree-list take the shape and scale */
	CHECK(parse(&o, "--tree=source:0.5", "--tree-list", (char *)NULL) == 0 && o.tree_shape &&
	      !strcmp(o.tree_shape->name, "source") && o.tree_scale == 0.5 && o.tree_list, "--tree");
	CHECK(parse(&o, (char *)NULL) == 0 && !o.tree && !o.tree_shape, "no --tree");
	CHECK(parse(&o, "-r", "2048", (char *)NULL) == 0 && o.ram_given && o.ram_bytes == 2048ull << 20, "-r");
	CHECK(parse(&o, "--cache=keep", "--exact", "--perchar=stdio", (char *)NULL) == 0 &&
	      o.cache == CACHE_KEEP && o.exact && o.perchar == PERCHAR_STDIO, "long options");
	CHECK(parse(&o, "--cache", "drop", (char *)NULL) == 0 && o.cache == CACHE_DROP, "--cache drop");
	CHECK(parse(&o, "--cache=uncached", (char *)NULL) == 0 && o.cache == CACHE_UNCACHED, "uncached");
	CHECK(parse(&o, "--cache=system", (char *)NULL) == 0 && o.cache == CACHE_SYSTEM, "system");
	CHECK(!strcmp(o.engine, "psync") && o.iodepth == 1 && o.seek_updates == 10, "engine defaults");
	CHECK(parse(&o, "--engine=uring", "--iodepth=32", "--seek-updates=0", "--json", "-",
		    (char *)NULL) == 0 && !strcmp(o.engine, "uring") && o.iodepth == 32 &&
	      o.seek_updates == 0 && !strcmp(o.json, "-"), "engine options");
	CHECK(parse(&o, (char *)NULL) == 0 && o.interval_ms == 0, "--interval: adaptive by default");
	CHECK(parse(&o, "--interval=250", (char *)NULL) == 0 && o.interval_ms == 250, "--interval=250");
	CHECK(parse(&o, "--interval=off", (char *)NULL) == 0 && o.interval_ms == -1, "--interval=off");
	CHECK(parse(&o, "--interval=3600000", (char *)NULL) == 0 && o.interval_ms == 3600000,
	      "--interval at its top");
	/* --steady: off by default; the spec through the option row, MAX's default */
	CHECK(parse(&o, (char *)NULL) == 0 && !o.steady.on, "--steady: off by default");
	CHECK(parse(&o, "--steady=rate_slope:5:2:30", (char *)NULL) == 0 && o.steady.on &&
	      o.steady.metric == STEADY_RATE && o.steady.slope && o.steady.pct == 5 &&
	      o.steady.window_s == 2 && o.steady.max_s == 30, "--steady=rate_slope:5:2:30: %s", err);
	CHECK(parse(&o, "--steady", "p99:10:1", (char *)NULL) == 0 && o.steady.on &&
	      o.steady.metric == STEADY_P99 && !o.steady.slope && o.steady.max_s == 60,
	      "--steady p99:10:1, MAX 60 by default: %s", err);
	CHECK(parse(&o, "--steady=rate:20:10", (char *)NULL) == 0 && o.steady.max_s == 100,
	      "--steady's MAX: 10 windows past 60 s");
	CHECK(parse(&o, "--steady=rate:20:0.2", "--interval=100", (char *)NULL) == 0 &&
	      o.steady.window_s == 0.2 && o.interval_ms == 100,
	      "--steady's SECONDS holds exactly two --interval intervals: %s", err);
	CHECK(parse(&o, "--steady=rate:20:1", "--live", (char *)NULL) == 0 && o.steady.on &&
	      o.live == LIVE_TEXT, "--steady with --live: %s", err);
	CHECK(parse(&o, "--engine=auto", "--iodepth=1024", (char *)NULL) == 0 &&
	      !strcmp(o.engine, "auto") && o.iodepth == 1024, "auto at the top depth");
	CHECK(parse(&o, "--help", (char *)NULL) == 0 && o.help, "--help");
	CHECK(parse(&o, "--version", (char *)NULL) == 0 && o.version, "--version");
	CHECK(parse(&o, "--cleanup", "/var/tmp", "--cleanup-user=nobody", "--cleanup-any-ns",
		    (char *)NULL) == 0 && !strcmp(o.cleanup_dir, "/var/tmp") &&
	      !strcmp(o.cleanup_user, "nobody") && o.cleanup_any_ns, "--cleanup's options");

	/* Every bad value names the option and the limit. */
	REJECTS("unknown option '-k'", "-k");
	REJECTS("unknown option '--bogus'", "--bogus");
	REJECTS("--cleanup-user needs --cleanup DIR", "--cleanup-user=nobody");
	REJECTS("--cleanup-any-ns needs --cleanup DIR", "--cleanup-any-ns");
	REJECTS("option '-s' needs an argument", "-s");
	REJECTS("-s: size 'abc' is not a size", "-s", "abc");
	REJECTS("-s: size 100k is not a whole number of MiB", "-s", "100k");
	REJECTS("-s: chunk size 1000 must be a power of two from 256 to 1048576", "-s", "1G:1000");
	REJECTS("-s: chunk size 2m must be a power of two", "-s", "1G:2m");
	REJECTS("-s: chunk size 128 must be a power of two", "-s", "1G:128");
	REJECTS("-s: seeks 0 is out of range (1 to 1000000000)", "-s", "1G:8k:0");
	REJECTS("-s: seekers 257 is out of range (1 to 256)", "-s", "1G:8k:10:257");
	REJECTS("-s: expected size[:chunk[:seeks[:seekers]]]", "-s", "1:2:3:4:5");
	REJECTS("-n: number of files (x1024) 4097 is out of range (0 to 4096)", "-n", "4097");
	REJECTS("-n: min size 2k is larger than max size 1k", "-n", "1:1k:2k");
	REJECTS("-n: min size makes no sense with max -1", "-n", "1:-1:5");
	REJECTS("-n: max size '-3' is not a size", "-n", "1:-3");
	REJECTS("-n: number of directories 100001 is out of range", "-n", "1:0:0:100001");
	REJECTS("-f: per-char size 12b is out of range (1k to 1t)", "-f12b");
	REJECTS("-f: per-char size 'x' is not a size", "-fx");
	REJECTS("unexpected argument '64k' (write -f's size attached: -f64k)", "-f", "64k");
	REJECTS("-m: the machine name may not contain a comma", "-m", "a,b");
	REJECTS("-m: the machine name is empty", "-m", "");
	REJECTS("-x: number of runs 0 is out of range (1 to 100000)", "-x", "0");
	REJECTS("-c: concurrency 0 is out of range (1 to 256)", "-c", "0");
	REJECTS("-c: concurrency 'two' is not a number", "-c", "two");
	REJECTS("-z: seed '-1' must be a number from 0 to 4294967295", "-z", "-1");
	REJECTS("-z: seed '4294967296'", "-z", "4294967296");
	REJECTS("-p: '0' must be a number of processes from 1 to 1000", "-p", "0");
	REJECTS("-y: 'x' must be s (semaphore) or p (prompt)", "-y", "x");
	REJECTS("--cache: 'foo' must be drop, keep, uncached or system", "--cache=foo");
	REJECTS("--engine: 'spdk' must be psync, uring, aio, null or auto", "--engine=spdk");
	REJECTS("--iodepth: queue depth 0 is out of range (1 to 1024)", "--engine=uring", "--iodepth=0");
	REJECTS("--iodepth: queue depth 1025 is out of range (1 to 1024)", "--engine=uring", "--iodepth=1025");
	REJECTS("--iodepth 2 needs a queued engine: psync keeps one request in flight", "--iodepth=2");
	REJECTS("--verify checks the data the phases wrote: --engine=null moves none",
		"--engine=null", "--verify");
	REJECTS("--verify checks the data the phases wrote: --engine=null moves none",
		"--verify", "--engine=null", "--iodepth=8");
	REJECTS("--seek-updates: percent 101 is out of range (0 to 100)", "--seek-updates=101");
	REJECTS("--interval: '99' is not off or a number of milliseconds from 100 to 3600000",
		"--interval=99");
	REJECTS("--interval: '1s' is not off or a number of milliseconds from 100 to 3600000",
		"--interval=1s");
	REJECTS("--steady=bw:20:1: the metric 'bw' is not rate, p99, rate_slope or p99_slope",
		"--steady=bw:20:1");
	REJECTS("option '--steady' needs an argument", "--steady");
	REJECTS("--steady and --stonewall both say when a phase stops", "--steady=rate:20:1",
		"--stonewall=3");
	REJECTS("--steady decides on the time series: not with --interval=off",
		"--interval=off", "--steady=rate:20:1");
	REJECTS("--steady's SECONDS (0.5) must hold at least two --interval=500 intervals",
		"--steady=rate:20:0.5", "--interval=500");
	REJECTS("--json: the file name is empty", "--json=");
	REJECTS("--perchar: 'x' must be syscall or stdio", "--perchar=x");
	REJECTS("-r: RAM size 'lots' must be a whole number of MiB", "-r", "lots");
	REJECTS("-z and -Z both give the seed", "-z", "1", "-Z", "/dev/urandom");
	REJECTS("-p creates the semaphore and exits", "-p", "2", "-y", "s");
	REJECTS("unexpected argument 'extra'", "-q", "extra");
	REJECTS("option '--json' needs an argument", "--json");
	REJECTS("option '-n' needs an argument", "-n");
	REJECTS("--tree-list needs --tree=SHAPE", "--tree-list");

	/*
	 * A parse that stops inside a cluster ("-kDb" at the unknown k) must
	 * leave nothing for the next: the C library's getopt otherwise goes
	 * on with the "Db" it had left, as if the next vector had -D -b.
	 */
	REJECTS("unknown option '-k'", "-kDb");
	CHECK(parse(&o, "-d", "/tmp", "-n", "2", (char *)NULL) == 0, "after a broken cluster: %s", err);
	CHECK(!o.direct && !o.fsync_each, "the last parse's cluster leaked into this one");
	CHECK_STR(o.dir, "/tmp");
	CHECK(o.files == 2, "-n after a broken cluster");
	REJECTS("unknown option '-k'", "-qkx");
	CHECK(parse(&o, "-s", "64", (char *)NULL) == 0 && o.size_bytes == 64ull << 20 && !o.quiet,
	      "-s after a broken cluster: %s", err);

	return unit_verdict("unit_options");
}
