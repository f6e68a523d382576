// SPDX-License-Identifier: BSD-2-Clause
/*
 * Setup and calibration: everything checked, measured and planned once,
 * before the first run; a failure is an exit status and a message.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cluster/cluster.h"
#include "phases/capacity.h"
#include "clyde/calibrate.h"
#include "clyde/leftover.h"
#include "clyde/plan.h"
#include "clyde/session.h"
#include "core/clyde.h"
#include "lib/progress.h"
#include "lib/rng.h"
#include "lib/size.h"
#include "lib/timing.h"
#include "placement/placement.h"
#include "placement/topology.h"
#include "profile/profile.h"
#include "sys/cache.h"
#include "sys/ceilings.h"
#include "sys/compat.h"
#include "sys/fsinfo.h"
#include "sys/privs.h"
#include "sys/semsync.h"
#include "sys/sysinfo.h"
#include "sys/workdir.h"

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

static int dir_error_status(int err)
{
	return err == -EINVAL ? CLYDE_EXIT_USAGE : CLYDE_EXIT_DIR;
}

static void warn_about_cache(const struct session *s)
{
	const struct clyde_options *o = &s->opt;
	uint64_t ram = o->ram_given ? o->ram_bytes : s->topo.ram_bytes;
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

int prepare(struct session *s, char *err, size_t errlen)
{
	struct clyde_options *o = &s->opt;
	struct run_plan *p = &s->plan;
	int ret;

	if (o->direct && !direct_io_supported()) {
		snprintf(err, errlen, "-D: O_DIRECT is not available on this platform");
		return CLYDE_EXIT_USAGE;
	}
	/* perf events are opened by whoever started clyde: -u's user could not open them */
	if (o->profile_stacks && prof_stacks_open(&s->prof, o->stack_hz, err, errlen))
		return CLYDE_EXIT_USAGE;
	if (privs_drop(o->user, o->group, err, errlen))
		return CLYDE_EXIT_USAGE;
	if (gethostname(s->hostname, sizeof(s->hostname) - 1) || !s->hostname[0])
		snprintf(s->hostname, sizeof(s->hostname), "localhost");
	for (char *c = s->hostname; *c; c++)
		if (*c == ',')
			*c = '_';
	place_topology_load(&s->model);
	place_machine_get(&s->topo, &s->model);
	ret = workdir_check(o->dir, 0, err, errlen);
	if (ret)
		return dir_error_status(ret);
	/* what killed runs left here takes the space this one needs */
	if (cluster_rank() == 0)
		leftover_warn(o->dir, stderr);
	ret = plan_build(p, o, err, errlen);
	if (ret)
		return ret;
	/* before anything is written: a run sized by memory says so at once */
	if (p->space_note[0] && cluster_rank() == 0)
		fprintf(stderr, "clyde: note: -d %s: %s\n", o->dir, p->space_note);
	ret = workdir_check(o->dir, plan_space_bytes(p), err, errlen);
	if (ret)
		return dir_error_status(ret);
	if (!fsinfo_get(o->dir, &s->fs) && s->fs.cut)
		fprintf(stderr, "clyde: note: the file system's names or options are longer than "
			"clyde keeps: each cut one ends in ...\n");
	sysinfo_get(o->dir, &s->si);
	place_topology_device_node(&s->model, s->si.blockdev);
	ret = place_plan_make(&s->model, &o->place, o->concurrency, place_numa_capable(),
			     &s->place, err, errlen);
	if (ret)
		return CLYDE_EXIT_USAGE;
	if (o->profile) {
		ret = prof_sampler_init(&s->prof, o->dir, &s->fs, o->profile_dev, err, errlen);
		if (ret)
			return CLYDE_EXIT_USAGE;
		if (o->profile_layers) {
			prof_layers_init(&s->prof, o->dir);
			if (!s->prof.layers && cluster_rank() == 0)
				fprintf(stderr, "clyde: note: --profile=layers: %s\n",
					s->prof.layers_why);
			/* the programs' JIT code is in /proc/kallsyms now: named in the stacks */
			if (s->prof.layers && o->profile_stacks &&
			    prof_stacks_reload_symbols(&s->prof))
				fprintf(stderr, "clyde: note: --profile=stacks: /proc/kallsyms could "
					"not be read again: kernel frames are [unknown]\n");
		}
	}
	if (o->profile_stacks && prof_stack_layers_open(&s->prof, err, errlen))
		return CLYDE_EXIT_USAGE;
	ret = flame_open(s, err, errlen);
	if (ret)
		return ret;
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
	if (capacity_asked(&o->capacity) && cluster_active()) {
		snprintf(err, errlen, "--latency-target and --open-loop measure one client's "
			 "capacity: not under mpirun");
		return CLYDE_EXIT_USAGE;
	}
	if (capacity_asked(&o->capacity) && !capacity_any_phase(p)) {
		snprintf(err, errlen, "--latency-target and --open-loop measure the seek phase and "
			 "the file phases: none of those%s runs here",
			 o->capacity.phases_given ? " --capacity-phases names" : "");
		return CLYDE_EXIT_USAGE;
	}
	/* --age: refused here, before anything is written, when it cannot be done */
	ret = age_prepare(s, err, errlen);
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
	/* --live draws its own line */
	progress_live = !o->quiet && !o->live && isatty(STDERR_FILENO);
	warn_about_cache(s);
	if (cache_ignored(s))
		fprintf(stderr, "clyde: warning: %s is ZFS (%s), whose ARC keeps file data "
			"outside the page cache whatever %s does: --cache=%s cannot promise "
			"reads from the disk; for cold reads use a dataset with "
			"primarycache=metadata (zfs set primarycache=metadata DATASET), or "
			"export and import the pool between runs\n",
			o->dir, s->fs.type, cache_evict_method(), cache_mode_name(o->cache));
	/* last, once nothing else refuses the run: a refused run leaves the file as it was */
	if (!o->plan_only && capacity_log_open(&o->capacity, err, errlen))
		return CLYDE_EXIT_USAGE;
	return CLYDE_EXIT_OK;
}
