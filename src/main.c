// SPDX-License-Identifier: BSD-2-Clause
/*
 * clyde: a bonnie++ 2.00a-compatible file system benchmark.
 * main() is the only caller of exit: it parses, checks, runs, reports and
 * maps failures to the documented exit status.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench.h"
#include "cache.h"
#include "ceilings.h"
#include "compat.h"
#include "engine.h"
#include "format.h"
#include "fsinfo.h"
#include "options.h"
#include "privs.h"
#include "progress.h"
#include "probe.h"
#include "rng.h"
#include "semsync.h"
#include "signals.h"
#include "size.h"
#include "sysinfo.h"
#include "topology.h"
#include "workdir.h"

/* Without -s: the smaller of this and half the free space. */
#define DEFAULT_SIZE_MIB 4096ull

struct session {
	struct clyde_options opt;
	struct topology topo;
	struct fsinfo fs;
	struct sysinfo si;
	struct ceilings ceil;
	char hostname[128];
	uint32_t first_seed;
	uint64_t file_bytes;
	uint64_t perchar_bytes;
	unsigned sync_count;
	const struct engine_ops *engine;
	unsigned depth;
	char engine_desc[256];
};

static void print_version(void)
{
	size_t n;
	const struct engine_ops *const *engines = engine_table(&n);

	printf("clyde %s\n", PACKAGE_VERSION);
	printf("engines:");
	for (size_t i = 0; i < n; i++)
		printf(" %s%s%s%s", engines[i]->name, engines[i]->unavailable ? " (" : "",
		       engines[i]->unavailable ? engines[i]->unavailable : "",
		       engines[i]->unavailable ? ")" : "");
	printf("\nlibraries: liburing %s, libnuma %s, hwloc %s\n",
#ifdef HAVE_LIBURING
	       "yes",
#else
	       "no",
#endif
#ifdef HAVE_LIBNUMA
	       "yes",
#else
	       "no",
#endif
#ifdef HAVE_HWLOC
	       "yes"
#else
	       "no"
#endif
	       );
}

static int usage_error(const char *msg)
{
	fprintf(stderr, "clyde: %s\nTry 'clyde --help' for more information.\n", msg);
	return CLYDE_EXIT_USAGE;
}

static int semaphore_command(const struct clyde_options *o)
{
	char err[256];
	int ret = o->sem_procs < 0 ? semsync_remove(err, sizeof(err))
				   : semsync_create(o->sem_procs, err, sizeof(err));

	if (ret) {
		fprintf(stderr, "clyde: %s\n", err);
		return CLYDE_EXIT_USAGE;
	}
	if (o->sem_procs > 0)
		fprintf(stderr, "clyde: semaphore ready for %d processes (run them with -y s)\n",
			o->sem_procs);
	return CLYDE_EXIT_OK;
}

static int read_seed_file(const char *path, uint32_t *seed, char *err, size_t errlen)
{
	unsigned char b[4];
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0) {
		snprintf(err, errlen, "-Z %s: %s", path, strerror(errno));
		return -errno;
	}
	n = read(fd, b, sizeof(b));
	close(fd);
	if (n != (ssize_t)sizeof(b)) {
		snprintf(err, errlen, "-Z %s: fewer than 4 bytes to take the seed from", path);
		return -EINVAL;
	}
	/* Network byte order, as bonnie++ reads its random file. */
	*seed = (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 | (uint32_t)b[2] << 8 | b[3];
	return 0;
}

static uint64_t files_bytes_needed(const struct clyde_options *o)
{
	uint64_t avg, per_file;

	if (!o->files || o->file_max <= 0)
		return 0;
	avg = (uint64_t)(o->file_max + o->file_min) / 2;
	per_file = (avg + 4095) / 4096 * 4096;
	return per_file * o->files * FILES_UNIT;
}

/* Sizes that depend on the directory: the default -s and the per-char clamp. */
static int choose_sizes(struct session *s, char *err, size_t errlen)
{
	const struct clyde_options *o = &s->opt;
	uint64_t free_bytes = workdir_free_bytes(o->dir);
	uint64_t mib = o->size_mib;

	if (!o->size_given) {
		mib = free_bytes / 2 / o->concurrency >> 20;
		if (mib > DEFAULT_SIZE_MIB)
			mib = DEFAULT_SIZE_MIB;
		if (mib < 1) {
			snprintf(err, errlen, "-d %s: too little free space for even a 1 MiB test file",
				 o->dir);
			return -ENOSPC;
		}
	}
	s->file_bytes = mib << 20;
	if (s->file_bytes && s->file_bytes < o->chunk) {
		snprintf(err, errlen, "-s: the file (%" PRIu64 " MiB) is smaller than one chunk", mib);
		return -EINVAL;
	}
	/* 1-byte I/O cannot be direct: -D skips the per-char phases. */
	s->perchar_bytes = o->skip_perchar || o->direct ? 0 : o->perchar_bytes;
	if (s->perchar_bytes > s->file_bytes)
		s->perchar_bytes = s->file_bytes;
	return 0;
}

static int dir_error_status(int err)
{
	return err == -EINVAL ? CLYDE_EXIT_USAGE : CLYDE_EXIT_DIR;
}

/* ZFS keeps its ARC whatever posix_fadvise says: drop cannot promise a cold read. */
static bool cache_ignored(const struct session *s)
{
	return (s->opt.cache == CACHE_DROP || s->opt.cache == CACHE_UNCACHED) &&
	       !strcmp(s->fs.type, "zfs");
}

static void fill_result_labels(const struct session *s, uint32_t seed, struct run_result *r)
{
	const struct clyde_options *o = &s->opt;
	struct run_params *p = &r->params;
	struct run_env *e = &r->env;

	memset(r, 0, sizeof(*r));
	snprintf(p->version, sizeof(p->version), "%s", PACKAGE_VERSION);
	snprintf(p->name, sizeof(p->name), "%s", o->name ? o->name : s->hostname);
	p->concurrency = o->concurrency;
	p->seed = seed;
	p->size_mib = s->file_bytes >> 20;
	p->chunk = o->chunk;
	p->seeks = o->seeks;
	p->seekers = o->seekers;
	p->files = o->files;
	p->file_max = o->file_max;
	p->file_min = o->file_min;
	p->file_dirs = o->file_dirs;
	p->file_chunk = o->file_chunk;

	snprintf(e->engine, sizeof(e->engine), "%s", s->engine->name);
	snprintf(e->engine_desc, sizeof(e->engine_desc), "%s", s->engine_desc);
	snprintf(e->cache, sizeof(e->cache), "%s", cache_mode_name(o->cache));
	snprintf(e->cache_note, sizeof(e->cache_note), "%s%s", cache_mode_description(o->cache),
		 cache_ignored(s) ? "; ZFS's ARC ignores fadvise: reads may be cached" : "");
	e->direct = o->direct;
	e->iodepth = s->depth;
	e->perchar_stdio = o->perchar == PERCHAR_STDIO;
	snprintf(e->fs_type, sizeof(e->fs_type), "%s", s->fs.type);
	snprintf(e->fs_source, sizeof(e->fs_source), "%s", s->fs.source);
	snprintf(e->fs_mountpoint, sizeof(e->fs_mountpoint), "%s", s->fs.mountpoint);
	snprintf(e->fs_options, sizeof(e->fs_options), "%s", s->fs.options);
	e->cpus = s->topo.cpus;
	e->ram_bytes = s->topo.ram_bytes;
	snprintf(e->os, sizeof(e->os), "%s", s->si.os);
	snprintf(e->kernel, sizeof(e->kernel), "%s", s->si.kernel);
	snprintf(e->arch, sizeof(e->arch), "%s", s->si.arch);
	snprintf(e->cpu_model, sizeof(e->cpu_model), "%s", s->si.cpu_model);
	snprintf(e->blockdev, sizeof(e->blockdev), "%s", s->si.blockdev);
	e->rotational = s->si.rotational;
	snprintf(e->scheduler, sizeof(e->scheduler), "%s", s->si.scheduler);
	e->read_ahead_kb = s->si.read_ahead_kb;
	if (o->data == DATA_COMPRESSIBLE)
		snprintf(e->data, sizeof(e->data), "compressible:%u", (unsigned)o->data_zero_pct);
	else
		snprintf(e->data, sizeof(e->data), "%s", o->data == DATA_ZERO ? "zero" : "random");
	e->verify = o->verify;
	e->ceil_syscall_ns = s->ceil.syscall_ns;
	e->ceil_copy_bps = s->ceil.copy_bytes_per_s;
	e->warmup = o->warmup;
}

static void warn_about_cache(const struct session *s)
{
	const struct clyde_options *o = &s->opt;
	uint64_t ram = o->ram_given ? o->ram_mib << 20 : s->topo.ram_bytes;
	uint64_t data = s->file_bytes * o->concurrency;
	char d[32], m[32];

	if (o->cache != CACHE_KEEP || !ram || !data || data >= 2 * ram)
		return;
	size_human(d, sizeof(d), data);
	size_human(m, sizeof(m), ram);
	fprintf(stderr, "clyde: warning: %s of test file fits in %s of RAM and --cache=keep "
		"leaves the page cache alone: read, rewrite and seek figures will be page-cache "
		"figures (bonnie++ asks for twice the RAM)\n", d, m);
}

/* The --verify key: the seed and the run, so one run's data never pass for another's. */
static uint64_t verify_key(uint32_t seed, uint32_t run)
{
	uint64_t z = ((uint64_t)seed << 32 | run) + 0x9e3779b97f4a7c15ull;

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	return z ^ (z >> 31);
}

/* One run in a fresh private directory, which is removed whatever happens. */
static int run_once(struct session *s, uint32_t seed, uint32_t run, struct run_result *res)
{
	struct bench b;
	int ret, rr;

	memset(&b, 0, sizeof(b));
	b.opt = &s->opt;
	b.engine = s->engine;
	b.depth = s->depth;
	b.seed = seed;
	b.file_bytes = s->file_bytes;
	b.perchar_bytes = s->perchar_bytes;
	b.workers = s->opt.concurrency;
	b.sync_count = &s->sync_count;
	b.verify_key = verify_key(seed, run);
	fill_result_labels(s, seed, res);

	ret = workdir_create(s->opt.dir, b.workdir, sizeof(b.workdir));
	if (ret) {
		fprintf(stderr, "clyde: cannot create a private directory in %s: %s\n",
			s->opt.dir, strerror(-ret));
		return CLYDE_EXIT_DIR;
	}
	ret = probe_io_modes(b.workdir, s->opt.direct, s->opt.cache == CACHE_UNCACHED,
			     b.errmsg, sizeof(b.errmsg));
	if (ret) {
		workdir_remove(b.workdir);
		fprintf(stderr, "clyde: %s\n", b.errmsg);
		return CLYDE_EXIT_DIR;
	}
	ret = bench_run(&b, res);
	rr = workdir_remove(b.workdir);
	if (rr)
		fprintf(stderr, "clyde: warning: could not remove all of %s: %s\n",
			b.workdir, strerror(-rr));
	if (ret == -EINTR) {
		fprintf(stderr, "clyde: %s; removed %s\n", b.errmsg, b.workdir);
		return CLYDE_EXIT_SIGNAL;
	}
	if (ret) {
		fprintf(stderr, "clyde: %s; removed %s\n", b.errmsg, b.workdir);
		return CLYDE_EXIT_IO;
	}
	return CLYDE_EXIT_OK;
}

/* --engine: psync as asked, uring if the kernel takes it, or auto's fallback. */
static int choose_engine(struct session *s, char *err, size_t errlen)
{
	const struct clyde_options *o = &s->opt;
	char desc[160];

	if (o->engine == ENGINE_PSYNC) {
		s->engine = &engine_psync;
		s->depth = 1;
		engine_probe(s->engine, 1, desc, sizeof(desc));
		snprintf(s->engine_desc, sizeof(s->engine_desc), "%s", desc);
		return 0;
	}
	if (!engine_probe(&engine_uring, o->iodepth, desc, sizeof(desc))) {
		s->engine = &engine_uring;
		s->depth = o->iodepth;
		snprintf(s->engine_desc, sizeof(s->engine_desc), "QD %u, %s", s->depth, desc);
		return 0;
	}
	if (o->engine == ENGINE_URING) {
		snprintf(err, errlen, "--engine=uring: %s", desc);
		return CLYDE_EXIT_ENGINE;
	}
	s->engine = &engine_psync;
	s->depth = 1;
	snprintf(s->engine_desc, sizeof(s->engine_desc),
		 "pread/pwrite; --engine=auto fell back: uring %s", desc);
	fprintf(stderr, "clyde: note: --engine=auto: uring cannot be used (%s); running psync%s\n",
		desc, o->iodepth > 1 ? " at queue depth 1" : "");
	return 0;
}

static int prepare(struct session *s, char *err, size_t errlen)
{
	struct clyde_options *o = &s->opt;
	int ret;

	if (o->direct && !direct_io_supported()) {
		snprintf(err, errlen, "-D: O_DIRECT is not available on this platform");
		return CLYDE_EXIT_USAGE;
	}
	if (privs_drop(o->user, o->group, err, errlen))
		return CLYDE_EXIT_USAGE;
	ret = choose_engine(s, err, errlen);
	if (ret)
		return ret;
	if (gethostname(s->hostname, sizeof(s->hostname) - 1) || !s->hostname[0])
		snprintf(s->hostname, sizeof(s->hostname), "localhost");
	for (char *p = s->hostname; *p; p++)
		if (*p == ',')
			*p = '_';
	topology_get(&s->topo);
	ret = workdir_check(o->dir, 0, err, errlen);
	if (ret)
		return dir_error_status(ret);
	ret = choose_sizes(s, err, errlen);
	if (ret)
		return dir_error_status(ret);
	ret = workdir_check(o->dir, s->file_bytes * o->concurrency +
			    files_bytes_needed(o) * o->concurrency, err, errlen);
	if (ret)
		return dir_error_status(ret);
	fsinfo_get(o->dir, &s->fs);
	sysinfo_get(o->dir, &s->si);
	if (o->seed_file && read_seed_file(o->seed_file, &o->seed, err, errlen))
		return CLYDE_EXIT_USAGE;
	s->first_seed = o->seed_given || o->seed_file ? o->seed : rng_system_seed();
	if (o->cache == CACHE_SYSTEM && cache_system_available()) {
		snprintf(err, errlen, "--cache=system writes /proc/sys/vm/drop_caches, which uid %u "
			 "cannot (it needs root, and Linux)", (unsigned)geteuid());
		return CLYDE_EXIT_USAGE;
	}
	if (o->sync == SYNC_SEMAPHORE && semsync_check(err, errlen))
		return CLYDE_EXIT_USAGE;
	if (s->perchar_bytes < o->perchar_bytes && !o->skip_perchar && s->file_bytes && !o->direct)
		fprintf(stderr, "clyde: note: per-char size cut to the file size, %" PRIu64 " MiB\n",
			s->file_bytes >> 20);
	if (o->direct && !o->skip_perchar && s->file_bytes)
		fprintf(stderr, "clyde: note: -D: the per-char phases are skipped "
			"(1-byte I/O cannot be direct)\n");
	if (o->ceilings && ceilings_measure(&s->ceil))
		fprintf(stderr, "clyde: warning: the ceilings could not be measured\n");
	progress_live = !o->quiet && isatty(STDERR_FILENO);
	warn_about_cache(s);
	if (cache_ignored(s))
		fprintf(stderr, "clyde: warning: %s is ZFS, whose ARC ignores posix_fadvise: "
			"--cache=%s cannot promise reads from the disk\n", o->dir,
			cache_mode_name(o->cache));
	return CLYDE_EXIT_OK;
}

/* --json: the file is opened before the runs, so a bad path fails at once. */
static FILE *open_json(const char *path)
{
	FILE *f;

	if (!path)
		return NULL;
	if (!strcmp(path, "-"))
		return stdout;
	f = fopen(path, "w");
	if (!f)
		fprintf(stderr, "clyde: --json %s: %s\n", path, strerror(errno));
	return f;
}

/*
 * Every -x run, each in its own private directory. Text goes to stdout
 * unless -q, -x or --json - send it to stderr; the CSV is last on stdout
 * except under --json -, where stdout carries only the JSON document.
 */
static int run_all(struct session *s, const struct format_opts *fo)
{
	const struct clyde_options *o = &s->opt;
	bool json_stdout = o->json && !strcmp(o->json, "-");
	FILE *text = o->quiet || o->repeats > 1 || json_stdout ? stderr : stdout;
	FILE *csv = json_stdout ? NULL : stdout;
	FILE *json = open_json(o->json);
	struct run_result *runs = calloc(o->repeats, sizeof(*runs));
	int status = CLYDE_EXIT_OK;
	uint32_t done = 0;

	if (!runs || (o->json && !json)) {
		if (!runs)
			fprintf(stderr, "clyde: out of memory\n");
		status = runs ? CLYDE_EXIT_USAGE : CLYDE_EXIT_IO;
		goto out;
	}
	if (o->warmup) {
		/* Counted nowhere: it only brings caches and allocators to a steady state. */
		fprintf(stderr, "clyde: warm-up run (not counted)\n");
		status = run_once(s, s->first_seed, UINT32_MAX, &runs[0]);
		if (status)
			goto out;
	}
	if (csv && o->repeats > 1)
		format_csv_header(csv);
	for (; done < o->repeats; done++) {
		/* bonnie++ reuses one seed for every -x run; clyde draws anew. */
		uint32_t seed = done == 0 || o->seed_given || o->seed_file
				? s->first_seed : rng_system_seed();

		status = run_once(s, seed, done, &runs[done]);
		if (status)
			goto out;
		format_context(text, &runs[done]);
		if (o->repeats == 1) {
			format_table(text, &runs[done], fo);
			if (o->latency_table)
				format_latency_table(text, &runs[done]);
			if (o->cpu_table)
				format_cpu_table(text, &runs[done]);
			if (o->ceilings)
				format_ceilings_table(text, &runs[done]);
		}
		if (runs[done].mismatches)
			fprintf(stderr, "clyde: verify: %llu mismatches in run %u\n",
				(unsigned long long)runs[done].mismatches, done + 1);
		fflush(text);
		if (csv) {
			format_csv(csv, &runs[done], fo);
			fflush(csv);
		}
		if (clyde_stop_requested()) {
			fprintf(stderr, "clyde: stopped by signal %d after run %u\n",
				clyde_stop_signal(), done + 1);
			status = CLYDE_EXIT_SIGNAL;
			goto out;
		}
	}
	if (o->repeats > 1)
		format_summary(stderr, runs, done);
	if (json)
		format_json(json, runs, done, fo);
	for (uint32_t i = 0; i < done; i++)
		if (runs[i].mismatches)
			status = CLYDE_EXIT_VERIFY;
out:
	if (json && json != stdout && fclose(json) && !status) {
		fprintf(stderr, "clyde: --json %s: %s\n", o->json, strerror(errno));
		status = CLYDE_EXIT_IO;
	}
	free(runs);
	return status;
}

int main(int argc, char **argv)
{
	struct format_opts fo = { 0 };
	struct session s;
	char err[1024];
	int status;

	memset(&s, 0, sizeof(s));
	options_defaults(&s.opt);
	if (options_parse(&s.opt, argc, argv, err, sizeof(err)))
		return usage_error(err);
	if (s.opt.help) {
		options_usage(stdout);
		return CLYDE_EXIT_OK;
	}
	if (s.opt.version) {
		print_version();
		return CLYDE_EXIT_OK;
	}
	if (s.opt.sem_procs_given)
		return semaphore_command(&s.opt);
	if (signals_install()) {
		fprintf(stderr, "clyde: cannot install signal handlers: %s\n", strerror(errno));
		return CLYDE_EXIT_IO;
	}
	status = prepare(&s, err, sizeof(err));
	if (status) {
		fprintf(stderr, "clyde: %s\n", err);
		return status;
	}
	fo.exact = s.opt.exact;
	return run_all(&s, &fo);
}
