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
#include <sys/stat.h>
#include <unistd.h>

#include "bench.h"
#include "cache.h"
#include "calibrate.h"
#include "ceilings.h"
#include "compat.h"
#include "engine.h"
#include "format.h"
#include "fsinfo.h"
#include "options.h"
#include "privs.h"
#include "progress.h"
#include "placement.h"
#include "plan.h"
#include "probe.h"
#include "residency.h"
#include "rng.h"
#include "semsync.h"
#include "signals.h"
#include "size.h"
#include "sysinfo.h"
#include "cluster.h"
#include "cluster_result.h"
#include "leftover.h"
#include "timing.h"
#include "topology.h"
#include "tree.h"
#include "workdir.h"

struct session {
	struct clyde_options opt;
	struct topology topo;
	struct fsinfo fs;
	struct sysinfo si;
	struct ceilings ceil;
	char hostname[128];
	uint32_t first_seed;
	unsigned sync_count;
	struct run_plan plan;
	struct calibration cal;
	struct profiler prof;	/* --profile */
	struct topo_model model;	/* the machine */
	struct place_plan place;	/* where each worker runs */
	double clock_offset;	/* under mpirun: this rank's clock minus rank 0's, seconds */
	uint64_t start_ns;	/* before the calibration: what the estimate covers */
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
	printf("\nlibraries: liburing %s, libnuma %s, hwloc %s, mpi %s\n",
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
	       "yes",
#else
	       "no",
#endif
#ifdef HAVE_MPI
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

/* -Z: the file's first four bytes, which seed_from_bytes() reads. */
static int read_seed_file(const char *path, uint32_t *seed, char *err, size_t errlen)
{
	unsigned char b[4];
	size_t got = 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC), e = 0;

	if (fd < 0) {
		e = errno;
		snprintf(err, errlen, "-Z %s: %s", path, strerror(e));
		return -e;
	}
	/* a pipe may hand the four bytes over in pieces */
	while (got < sizeof(b)) {
		ssize_t n = read(fd, b + got, sizeof(b) - got);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			e = errno;
		if (n <= 0)
			break;
		got += (size_t)n;
	}
	close(fd);
	if (e) {
		snprintf(err, errlen, "-Z %s: %s", path, strerror(e));
		return -e;
	}
	if (seed_from_bytes(b, got, seed)) {
		snprintf(err, errlen, "-Z %s: fewer than 4 bytes to take the seed from", path);
		return -EINVAL;
	}
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

static int dir_error_status(int err)
{
	return err == -EINVAL ? CLYDE_EXIT_USAGE : CLYDE_EXIT_DIR;
}

/* ZFS keeps its ARC whatever posix_fadvise says: drop cannot promise a cold read. */
static bool cache_ignored(const struct session *s)
{
	return (s->opt.cache == CACHE_DROP || s->opt.cache == CACHE_UNCACHED) &&
	       fs_type_is_zfs(s->fs.type);
}

/* What a context line or a CSV field may carry: no commas, no newlines. */
static void copy_field(char *dst, size_t len, const char *src)
{
	snprintf(dst, len, "%s", src);
	for (char *c = dst; *c; c++)
		if (*c == ',' || *c == '\n')
			*c = ' ';
}

static void fill_result_labels(const struct session *s, uint32_t seed, struct run_result *r)
{
	const struct clyde_options *o = &s->opt;
	const struct run_plan *pl = &s->plan;
	struct run_params *p = &r->params;
	struct run_env *e = &r->env;

	/* A warm-up run's result is reused: free what it holds first. */
	run_result_release(r);
	memset(r, 0, sizeof(*r));
	snprintf(p->version, sizeof(p->version), "%s", PACKAGE_VERSION);
	snprintf(p->name, sizeof(p->name), "%s", o->name ? o->name : s->hostname);
	p->concurrency = pl->workers;
	p->seed = seed;
	p->size_mib = pl->file_bytes >> 20;
	p->chunk = pl->chunk;
	p->seeks = pl->seeks;
	p->seekers = pl->seekers;
	p->files = pl->files;
	p->file_max = pl->file_max;
	p->file_min = pl->file_min;
	p->file_dirs = pl->file_dirs;
	p->file_chunk = pl->file_chunk;

	snprintf(e->engine, sizeof(e->engine), "%s", pl->engine->name);
	copy_field(e->engine_desc, sizeof(e->engine_desc), pl->engine_desc);
	snprintf(e->cache, sizeof(e->cache), "%s", cache_mode_name(pl->cache));
	snprintf(e->cache_note, sizeof(e->cache_note), "%s%s", cache_mode_description(pl->cache),
		 cache_ignored(s) ? "; ZFS's ARC ignores fadvise: ARC not measured" : "");
	e->direct = pl->direct;
	e->iodepth = pl->depth;
	e->perchar_stdio = pl->perchar == PERCHAR_STDIO;
	copy_field(e->fs_type, sizeof(e->fs_type), s->fs.type);
	copy_field(e->fs_source, sizeof(e->fs_source), s->fs.source);
	copy_field(e->fs_mountpoint, sizeof(e->fs_mountpoint), s->fs.mountpoint);
	copy_field(e->fs_options, sizeof(e->fs_options), s->fs.options);
	e->cpus = s->topo.cpus;
	e->ram_bytes = s->topo.ram_bytes;
	copy_field(e->os, sizeof(e->os), s->si.os);
	copy_field(e->kernel, sizeof(e->kernel), s->si.kernel);
	copy_field(e->arch, sizeof(e->arch), s->si.arch);
	copy_field(e->cpu_model, sizeof(e->cpu_model), s->si.cpu_model);
	copy_field(e->blockdev, sizeof(e->blockdev), s->si.blockdev);
	copy_field(e->driver, sizeof(e->driver), s->si.driver);
	e->rotational = s->si.rotational;
	copy_field(e->scheduler, sizeof(e->scheduler), s->si.scheduler);
	e->read_ahead_kb = s->si.read_ahead_kb;
	if (pl->data == DATA_COMPRESSIBLE)
		snprintf(e->data, sizeof(e->data), "compressible:%u", pl->data_zero_pct);
	else
		snprintf(e->data, sizeof(e->data), "%s", pl->data == DATA_ZERO ? "zero" : "random");
	e->verify = pl->verify;
	e->profiled = o->profile;
	topology_describe(&s->model, e->topology, sizeof(e->topology));
	copy_field(e->placement, sizeof(e->placement), s->place.summary);
	e->topo = &s->model;
	e->place = &s->place;
	e->ceil_syscall_ns = s->ceil.syscall_ns;
	e->ceil_copy_bps = s->ceil.copy_bytes_per_s;
	e->warmup = o->warmup;
	e->seeks_timed = pl->seeks_timed;
	e->stonewall_s = pl->stonewall_s;
	e->files_calibrated = pl->files_calibrated;
	copy_field(e->size_note, sizeof(e->size_note), pl->size_note);
	copy_field(e->files_note, sizeof(e->files_note), pl->files_note);
}

static void warn_about_cache(const struct session *s)
{
	const struct clyde_options *o = &s->opt;
	uint64_t ram = o->ram_given ? o->ram_mib << 20 : s->topo.ram_bytes;
	uint64_t data = s->plan.file_bytes * o->concurrency;
	char d[32], m[32];

	if (o->cache != CACHE_KEEP || !ram || !data || data >= 2 * ram)
		return;
	size_human(d, sizeof(d), data);
	size_human(m, sizeof(m), ram);
	fprintf(stderr, "clyde: warning: %s of test file fits in %s of RAM and --cache=keep "
		"leaves the page cache alone: the read figures (rewrite and seeks too) will be "
		"page-cache figures (bonnie++ asks for twice the RAM)\n", d, m);
}

/* The --verify key: the seed and the run, so one run's data never pass for another's. */
static uint64_t verify_key(uint32_t seed, uint32_t run)
{
	uint64_t z = ((uint64_t)seed << 32 | run) + 0x9e3779b97f4a7c15ull;

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	return z ^ (z >> 31);
}

/*
 * Under mpirun the ranks go on together or not at all: each brings its
 * status (0 or an exit code) and its message. A rank that failed prints
 * its own message and keeps its status; the others stop with 3, rank 0
 * naming the failing rank, its host and message. Alone: status as is,
 * its message printed (when say) if it failed.
 */
static int ranks_agree(int status, const char *msg, bool say)
{
	struct cluster_failure f;

	if (status && say)
		fprintf(stderr, "clyde: %s\n", msg);
	if (!cluster_active())
		return status;
	if (cluster_meet(status, msg, &f)) {
		fprintf(stderr, "clyde: the ranks could not meet (MPI failed)\n");
		return status ? status : CLYDE_EXIT_ENGINE;
	}
	if (status || f.rank < 0)
		return status;
	if (cluster_rank() == 0)
		fprintf(stderr, "clyde: stopped: rank %d on %s failed: %s\n", f.rank, f.host, f.msg);
	return CLYDE_EXIT_IO;
}

/*
 * --mpi-read-other: every rank learns every rank's private directory and
 * reads from that of rank + K. Collective under mpirun; 0 or -errno.
 */
static int read_other_dir(const struct session *s, struct bench *b)
{
	int n = cluster_size(), ret;
	char *all;

	if (!s->plan.read_other || !cluster_active())
		return 0;
	all = calloc((size_t)n, sizeof(b->workdir));
	if (!all)
		return -ENOMEM;
	ret = cluster_allgather(b->workdir, sizeof(b->workdir), all);
	if (!ret)
		memcpy(b->read_dir, all + (size_t)((cluster_rank() + s->plan.read_other) % n) *
		       sizeof(b->workdir), sizeof(b->read_dir));
	else
		snprintf(b->errmsg, sizeof(b->errmsg), "cannot learn the other ranks' directories: %s",
			 strerror(-ret));
	free(all);
	return ret;
}

/* A run that stopped: what the JSON document says of it; returns status. */
static int run_failed(struct run_result *res, int err, const char *msg, int status)
{
	struct run_failure *f = &res->failure;

	if (!f->failed) {
		f->failed = true;
		f->phase = -1;
		f->offset = -1;
		f->err = err;
	}
	snprintf(f->message, sizeof(f->message), "%s", msg);
	f->exit_status = status;
	return status;
}

/* One run in a fresh private directory, which is removed whatever happens. */
static int run_once(struct session *s, uint32_t seed, uint32_t run, struct run_result *res)
{
	char tag[16] = "";
	struct bench b;
	int ret, rr;

	memset(&b, 0, sizeof(b));
	b.plan = &s->plan;
	b.seed = seed;
	b.sync_count = &s->sync_count;
	b.verify_key = verify_key(seed, run);
	b.profiler = s->opt.profile ? &s->prof : NULL;
	b.placement = &s->place;
	fill_result_labels(s, seed, res);

	/* under mpirun each rank's directory says whose it is: clyde.r3.XXXXXX */
	if (cluster_active())
		snprintf(tag, sizeof(tag), "r%d.", cluster_rank());
	ret = workdir_create_tagged(s->opt.dir, tag, b.workdir, sizeof(b.workdir));
	if (ret) {
		snprintf(b.errmsg, sizeof(b.errmsg), "cannot create a private directory in %s: %s",
			 s->opt.dir, strerror(-ret));
		b.workdir[0] = '\0';
	} else {
		ret = probe_io_modes(b.workdir, s->opt.direct, s->opt.cache == CACHE_UNCACHED,
				     b.errmsg, sizeof(b.errmsg));
	}
	/* every rank has its directory, or none goes on */
	ret = ranks_agree(ret ? CLYDE_EXIT_DIR : 0, b.errmsg, true);
	if (ret) {
		if (b.workdir[0])
			workdir_remove(b.workdir);
		return run_failed(res, 0, b.errmsg, ret);
	}
	ret = read_other_dir(s, &b);
	if (!ret)
		ret = bench_run(&b, res);
	if (!ret && cluster_active()) {
		ret = cluster_combine(res, s->clock_offset);
		if (ret)
			snprintf(b.errmsg, sizeof(b.errmsg), "cannot combine the ranks' results: %s",
				 strerror(-ret));
		else if (res->cluster) {
			res->cluster->read_other = s->plan.read_other;
			res->cluster->stonewall_s = s->plan.stonewall_s;
			/* the worst rank's residency now */
			bench_cache_outcome(&s->plan, res);
		}
	}
	rr = workdir_remove(b.workdir);
	if (rr) {
		fprintf(stderr, "clyde: warning: could not remove all of %s: %s\n",
			b.workdir, strerror(-rr));
		workdir_name_left(b.workdir, stderr, 10);
	}
	if (ret == -EINTR) {
		fprintf(stderr, "clyde: %s; %s %s\n", b.errmsg, rr ? "could not remove all of" :
			"removed", b.workdir);
		return run_failed(res, ret, b.errmsg, CLYDE_EXIT_SIGNAL);
	}
	if (ret) {
		/* another rank's failure: rank 0 names it, the others stay quiet */
		if (ret != -ECANCELED || cluster_rank() == 0)
			fprintf(stderr, "clyde: %s; %s %s\n", b.errmsg,
				rr ? "could not remove all of" : "removed", b.workdir);
		return run_failed(res, ret, b.errmsg, CLYDE_EXIT_IO);
	}
	return CLYDE_EXIT_OK;
}

/* The counts the user left open, from a short trial of the directory. */
static int calibrate_plan(struct session *s, char *err, size_t errlen)
{
	const struct clyde_options *o = &s->opt;
	bool io = !o->size_given && s->plan.file_bytes;
	bool files = !o->files_given && s->plan.files;
	int ret;

	s->start_ns = now_ns();
	if (io || files || o->plan_only) {
		ret = calibrate(&s->plan, io || o->plan_only, files || o->plan_only, &s->cal,
				err, errlen);
		if (ret)
			return CLYDE_EXIT_DIR;
	}
	plan_calibrate(&s->plan, o, &s->cal);
	s->plan.estimate_cal_s = s->cal.seconds;
	s->plan.estimate_seconds = s->cal.seconds +
		plan_estimate(&s->plan, &s->cal, o->repeats + (o->warmup ? 1 : 0));
	return 0;
}

static int prepare(struct session *s, char *err, size_t errlen)
{
	struct clyde_options *o = &s->opt;
	struct run_plan *p = &s->plan;
	int ret;

	if (o->direct && !direct_io_supported()) {
		snprintf(err, errlen, "-D: O_DIRECT is not available on this platform");
		return CLYDE_EXIT_USAGE;
	}
	if (privs_drop(o->user, o->group, err, errlen))
		return CLYDE_EXIT_USAGE;
	if (gethostname(s->hostname, sizeof(s->hostname) - 1) || !s->hostname[0])
		snprintf(s->hostname, sizeof(s->hostname), "localhost");
	for (char *c = s->hostname; *c; c++)
		if (*c == ',')
			*c = '_';
	topo_model_load(&s->model);
	topology_get(&s->topo, &s->model);
	ret = workdir_check(o->dir, 0, err, errlen);
	if (ret)
		return dir_error_status(ret);
	/* what killed runs left here takes the space this one needs */
	if (cluster_rank() == 0)
		leftover_warn(o->dir, stderr);
	ret = plan_build(p, o, err, errlen);
	if (ret)
		return ret;
	ret = workdir_check(o->dir, p->file_bytes * o->concurrency +
			    files_bytes_needed(o) * o->concurrency, err, errlen);
	if (ret)
		return dir_error_status(ret);
	if (!fsinfo_get(o->dir, &s->fs) && s->fs.cut)
		fprintf(stderr, "clyde: note: the file system's names or options are longer than "
			"clyde keeps: each cut one ends in ...\n");
	sysinfo_get(o->dir, &s->si);
	topo_model_device_node(&s->model, s->si.blockdev);
	ret = placement_plan(&s->model, &o->place, o->concurrency, placement_numa_capable(),
			     &s->place, err, errlen);
	if (ret)
		return CLYDE_EXIT_USAGE;
	if (o->profile) {
		ret = profiler_init(&s->prof, o->dir, &s->fs, o->profile_dev, err, errlen);
		if (ret)
			return CLYDE_EXIT_USAGE;
	}
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
	ret = calibrate_plan(s, err, errlen);
	if (ret)
		return ret;
	if (p->perchar_bytes < o->perchar_bytes && !o->skip_perchar && p->file_bytes && !o->direct)
		fprintf(stderr, "clyde: note: per-char size cut to the file size (%" PRIu64 " MiB)\n",
			p->file_bytes >> 20);
	if (o->direct && !o->skip_perchar && p->file_bytes)
		fprintf(stderr, "clyde: note: -D: the per-char phases are skipped "
			"(1-byte I/O cannot be direct)\n");
	if (o->ceilings && ceilings_measure(&s->ceil))
		fprintf(stderr, "clyde: warning: the ceilings could not be measured\n");
	progress_live = !o->quiet && isatty(STDERR_FILENO);
	warn_about_cache(s);
	if (cache_ignored(s))
		fprintf(stderr, "clyde: warning: %s is ZFS (%s), whose ARC keeps file data "
			"outside the page cache whatever %s does: --cache=%s cannot promise "
			"reads from the disk; for cold reads use a dataset with "
			"primarycache=metadata (zfs set primarycache=metadata DATASET), or "
			"export and import the pool between runs\n",
			o->dir, s->fs.type, cache_evict_method(), cache_mode_name(o->cache));
	return CLYDE_EXIT_OK;
}

/* A drop that left the file in memory is said loudly, not only in the label. */
static void warn_about_outcome(const struct session *s, const struct run_result *r)
{
	const struct run_env *e = &r->env;

	if (s->plan.cache == CACHE_KEEP || !e->resident_known ||
	    e->resident_worst <= RESIDENT_TOLERANCE_PCT)
		return;
	fprintf(stderr, "clyde: WARNING: --cache=%s did not empty the page cache: up to %.1f%% "
		"of %s was resident before a read phase (%s on %s); the read "
		"figures of this run are page-cache figures\n", e->cache, e->resident_worst,
		e->resident_worst_tree ? "the tree's data" :
		!strcmp(e->resident_worst_what, "the file") ? "the test file" : e->resident_worst_what,
		e->fs_type[0] ? e->fs_type : "unknown filesystem", s->opt.dir);
}

/*
 * --json: a temporary file beside the path, made before the runs so a bad
 * path fails at once, and renamed over it once the document is whole, so
 * no reader ever sees half of one. temp gets its name.
 */
static FILE *open_json(const char *path, char *temp, size_t len)
{
	mode_t mask;
	FILE *f;
	int fd;

	temp[0] = '\0';
	if (!path)
		return NULL;
	if (!strcmp(path, "-"))
		return stdout;
	if (snprintf(temp, len, "%s.XXXXXX", path) >= (int)len) {
		fprintf(stderr, "clyde: --json %s: %s\n", path, strerror(ENAMETOOLONG));
		return NULL;
	}
	fd = mkstemp(temp);
	if (fd < 0) {
		fprintf(stderr, "clyde: --json %s: %s\n", path, strerror(errno));
		temp[0] = '\0';
		return NULL;
	}
	/* the permissions fopen would have given */
	mask = umask(0);
	umask(mask);
	fchmod(fd, 0666 & ~mask);
	f = fdopen(fd, "w");
	if (!f) {
		fprintf(stderr, "clyde: --json %s: %s\n", path, strerror(errno));
		close(fd);
		unlink(temp);
		temp[0] = '\0';
	}
	return f;
}

/* The document is whole: it takes the path's name. 0, or an exit status. */
static int close_json(FILE *f, const char *path, const char *temp)
{
	int bad = ferror(f);

	if (f == stdout)
		return fflush(f) || bad ? CLYDE_EXIT_IO : 0;
	if (fclose(f) || bad || rename(temp, path)) {
		fprintf(stderr, "clyde: --json %s: %s\n", path, strerror(errno ? errno : EIO));
		unlink(temp);
		return CLYDE_EXIT_IO;
	}
	return 0;
}

/* One run's tables, context and CSV line, where run_all sends them. */
static void report_run(const struct session *s, const struct format_opts *fo,
		       const struct run_result *r, uint32_t done, FILE *text, FILE *csv)
{
	const struct clyde_options *o = &s->opt;

	format_context(stderr, r);
	/* Placement matters with several workers or a placement asked for. */
	if (o->concurrency > 1 || s->place.any_binding)
		format_placement(stderr, r);
	/* under mpirun the worst of every rank's residency, said once */
	warn_about_outcome(s, r);
	if (o->repeats == 1)
		format_table(text, r, fo);
	format_tree_table(text, r);
	format_cluster_table(text, r);
	if (o->latency_table)
		format_latency_table(text, r);
	if (o->cpu_table)
		format_cpu_table(text, r);
	if (o->ceilings)
		format_ceilings_table(text, r);
	if (o->profile)
		format_profile_tables(text, r);
	if (r->mismatches)
		fprintf(stderr, "clyde: verify: %llu mismatches in run %u\n",
			(unsigned long long)r->mismatches, done + 1);
	fflush(text);
	if (csv) {
		format_csv(csv, r, fo);
		fflush(csv);
	}
}

/*
 * Every -x run, each in its own private directory. stdout carries what
 * bonnie++'s does: the table (and the extra tables asked for) then the
 * CSV line; with -q or any -x only CSV lines, and under --json - only the
 * JSON document. Everything else goes to stderr, context lines included.
 */
static int run_all(struct session *s, const struct format_opts *fo)
{
	const struct clyde_options *o = &s->opt;
	bool json_stdout = o->json && !strcmp(o->json, "-");
	/* under mpirun only rank 0 reports, for all ranks */
	bool reporter = cluster_rank() == 0;
	FILE *text = o->quiet || o->repeats_given || json_stdout ? stderr : stdout;
	FILE *csv = json_stdout || !reporter ? NULL : stdout;
	char json_temp[4200] = "";
	FILE *json = reporter ? open_json(o->json, json_temp, sizeof(json_temp)) : NULL;
	struct run_result *runs = calloc(o->repeats, sizeof(*runs));
	int status = CLYDE_EXIT_OK, js;
	/* runs the JSON document holds: those that finished, and one that failed */
	uint32_t done = 0, kept = 0;
	char stopped[1200] = "";

	if (!runs || (o->json && reporter && !json)) {
		if (!runs)
			fprintf(stderr, "clyde: out of memory\n");
		status = runs ? CLYDE_EXIT_USAGE : CLYDE_EXIT_IO;
	}
	/* open_json said why; the other ranks must not start without rank 0 */
	status = ranks_agree(status, !runs ? "out of memory" : "cannot write the --json file", false);
	if (status)
		goto out;
	if (o->warmup) {
		/* Counted nowhere: it only brings caches and allocators to a steady state. */
		fprintf(stderr, "clyde: warm-up run (not counted)\n");
		status = run_once(s, s->first_seed, UINT32_MAX, &runs[0]);
		if (status) {
			snprintf(stopped, sizeof(stopped), "warm-up run: %s", runs[0].failure.message);
			goto out;
		}
	}
	if (csv && o->repeats > 1)
		format_csv_header(csv);
	for (; done < o->repeats; done++) {
		/* bonnie++ reuses one seed for every -x run; clyde draws anew. */
		uint32_t seed = done == 0 || o->seed_given || o->seed_file
				? s->first_seed : rng_system_seed();

		/* every rank draws the same */
		if (cluster_bcast(&seed, sizeof(seed))) {
			fprintf(stderr, "clyde: MPI: cannot share the seed\n");
			status = CLYDE_EXIT_ENGINE;
			snprintf(stopped, sizeof(stopped), "MPI: cannot share the seed");
			goto out;
		}
		status = run_once(s, seed, done, &runs[done]);
		kept = done + 1;
		if (status) {
			/* no CSV line for it, as bonnie++; the JSON says where and why */
			snprintf(stopped, sizeof(stopped), "run %u: %s", done + 1,
				 runs[done].failure.message);
			goto out;
		}
		if (reporter)
			report_run(s, fo, &runs[done], done, text, csv);
		if (clyde_stop_requested()) {
			fprintf(stderr, "clyde: stopped by signal %d after run %u\n",
				clyde_stop_signal(), done + 1);
			snprintf(stopped, sizeof(stopped), "stopped by signal %d after run %u",
				 clyde_stop_signal(), done + 1);
			status = CLYDE_EXIT_SIGNAL;
			goto out;
		}
	}
	if (o->repeats > 1 && reporter)
		format_summary(stderr, runs, done);
	for (uint32_t i = 0; i < done; i++)
		if (runs[i].mismatches)
			status = CLYDE_EXIT_VERIFY;
out:
	/* a document whatever happened once the runs began: complete, with why it stopped */
	if (json) {
		struct format_opts jo = *fo;

		jo.estimate_s = s->plan.estimate_seconds;
		jo.calibration_s = s->cal.seconds;
		jo.elapsed_s = (double)(now_ns() - s->start_ns) / 1e9;
		format_json(json, runs, kept, &jo, status, stopped[0] ? stopped : NULL);
		js = close_json(json, o->json, json_temp);
		if (js && !status)
			status = js;
	}
	for (uint32_t i = 0; runs && i < o->repeats; i++)
		run_result_release(&runs[i]);
	free(runs);
	return status;
}

/* --tree-list: the tree's listing on stdout, its size and hash on stderr; writes nothing. */
static int tree_list_command(const struct clyde_options *o)
{
	const struct tree_shape *shape;
	struct tree t;
	char err[256];
	double scale;
	int ret;

	if (tree_parse_spec(o->tree, &shape, &scale, err, sizeof(err)))
		return usage_error(err);
	ret = tree_generate(shape, scale, o->tree_seed, &t);
	if (ret) {
		fprintf(stderr, "clyde: cannot generate the %s tree: %s\n", shape->name, strerror(-ret));
		return CLYDE_EXIT_IO;
	}
	tree_list(&t, stdout);
	fprintf(stderr, "clyde: tree %s x%g seed %" PRIu64 ": %" PRIu32 " directories %" PRIu32
		" files %" PRIu64 " bytes depth %" PRIu32 " hash %016" PRIx64 "\n", shape->name,
		scale, o->tree_seed, t.ndirs - 1, t.nfiles, t.bytes, t.max_depth, t.hash);
	tree_free(&t);
	return fflush(stdout) ? CLYDE_EXIT_IO : CLYDE_EXIT_OK;
}

/*
 * Under mpirun every rank runs rank 0's plan (the counts it calibrated)
 * with rank 0's seed, so all do the same work and --verify and
 * --mpi-read-other find the same data in every rank's file.
 */
static int share_plan(struct session *s)
{
	struct run_plan *p = &s->plan;
	struct {
		uint64_t file_bytes;
		uint64_t perchar_bytes;
		uint32_t seeks;
		uint32_t files;
		uint32_t seed;
		bool seeks_timed;
		bool files_calibrated;
		double estimate_seconds;
		char size_note[sizeof(p->size_note)];
		char files_note[sizeof(p->files_note)];
	} w;

	memset(&w, 0, sizeof(w));
	w.file_bytes = p->file_bytes;
	w.perchar_bytes = p->perchar_bytes;
	w.seeks = p->seeks;
	w.files = p->files;
	w.seed = s->first_seed;
	w.seeks_timed = p->seeks_timed;
	w.files_calibrated = p->files_calibrated;
	w.estimate_seconds = p->estimate_seconds;
	memcpy(w.size_note, p->size_note, sizeof(w.size_note));
	memcpy(w.files_note, p->files_note, sizeof(w.files_note));
	if (cluster_bcast(&w, sizeof(w)))
		return -EIO;
	p->file_bytes = w.file_bytes;
	p->perchar_bytes = w.perchar_bytes;
	p->seeks = w.seeks;
	p->files = w.files;
	s->first_seed = w.seed;
	p->seeks_timed = w.seeks_timed;
	p->files_calibrated = w.files_calibrated;
	p->estimate_seconds = w.estimate_seconds;
	memcpy(p->size_note, w.size_note, sizeof(w.size_note));
	memcpy(p->files_note, w.files_note, sizeof(w.files_note));
	return 0;
}

/* The cluster's own conditions, once the ranks are known. */
static int check_cluster(const struct session *s, char *err, size_t errlen)
{
	int n = cluster_size();

	if (s->opt.read_other && s->opt.read_other % n == 0) {
		snprintf(err, errlen, "--mpi-read-other=%d: with %d rank%s each would read its own "
			 "file; run under mpirun with a rank count that %d is not a multiple of",
			 s->opt.read_other, n, n == 1 ? "" : "s", s->opt.read_other);
		return CLYDE_EXIT_USAGE;
	}
	if (cluster_active() && s->opt.sync != SYNC_NONE) {
		snprintf(err, errlen, "-y: under mpirun the ranks already start each phase together");
		return CLYDE_EXIT_USAGE;
	}
	return 0;
}

static int clyde_main(int argc, char **argv)
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
	if (s.opt.tree_list)
		return tree_list_command(&s.opt);
	if (s.opt.cleanup_dir) {
		struct cleanup_opts co = {
			.user = s.opt.cleanup_user,
			.any_ns = s.opt.cleanup_any_ns,
		};

		return leftover_cleanup(s.opt.cleanup_dir, &co, stdout);
	}
	if (signals_install()) {
		fprintf(stderr, "clyde: cannot install signal handlers: %s\n", strerror(errno));
		return CLYDE_EXIT_IO;
	}
	status = check_cluster(&s, err, sizeof(err));
	if (status)
		return usage_error(err);
	/* rank 0 alone speaks of progress; the others' text would only repeat it */
	if (cluster_rank() != 0)
		s.opt.quiet = true;
	status = prepare(&s, err, sizeof(err));
	status = ranks_agree(status, err, true);
	if (status)
		return status;
	if (cluster_active() && share_plan(&s)) {
		fprintf(stderr, "clyde: MPI: cannot share rank 0's plan\n");
		return CLYDE_EXIT_ENGINE;
	}
	fo.exact = s.opt.exact;
	if (s.opt.plan_only) {
		if (cluster_rank() == 0)
			plan_print(stdout, &s.plan, &s.opt);
		return CLYDE_EXIT_OK;
	}
	if (cluster_active())
		s.clock_offset = cluster_clock_offset();
	return run_all(&s, &fo);
}

int main(int argc, char **argv)
{
	char err[256];
	int status;

	if (cluster_init(&argc, &argv, err, sizeof(err))) {
		fprintf(stderr, "clyde: MPI: %s\n", err);
		return CLYDE_EXIT_ENGINE;
	}
	leftover_set_command(argc, argv);
	status = clyde_main(argc, argv);
	/* every rank has cleaned up before any exits, so mpirun kills none mid-way */
	cluster_finish();
	return status;
}
