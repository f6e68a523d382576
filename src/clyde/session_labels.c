// SPDX-License-Identifier: BSD-2-Clause
/*
 * What a result says of its run: the parameters, the machine, the file
 * system and the placement, filled in before each run.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

#include "clyde/session.h"
#include "core/result.h"
#include "engines/engine.h"
#include "placement/placement.h"
#include "placement/topology.h"
#include "sys/cache.h"
#include "sys/fsinfo.h"
#include "sys/residency.h"

/* ZFS keeps its ARC whatever posix_fadvise says: drop cannot promise a cold read. */
bool cache_ignored(const struct session *s)
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

/* Now, UTC to the microsecond, ISO 8601: "2026-12-06T07:10:02.123456Z"; "" when the clock fails. */
static void wall_clock_now(char *buf, size_t len)
{
	struct timespec ts;
	struct tm tm;
	char secs[24];

	buf[0] = '\0';
	if (clock_gettime(CLOCK_REALTIME, &ts) || !gmtime_r(&ts.tv_sec, &tm) ||
	    !strftime(secs, sizeof(secs), "%Y-%m-%dT%H:%M:%S", &tm))
		return;
	snprintf(buf, len, "%s.%06uZ", secs, (unsigned)(ts.tv_nsec / 1000) % 1000000u);
}

void fill_result_labels(const struct session *s, uint32_t seed, struct run_result *r)
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
	p->file_bytes = pl->file_bytes >> 20 << 20;	/* whole MiB, as the CSV says */
	p->chunk = pl->chunk;
	p->seeks = pl->seeks;
	p->seekers = pl->seekers;
	p->files = pl->files;
	p->file_max = pl->file_max;
	p->file_min = pl->file_min;
	p->file_dirs = pl->file_dirs;
	p->file_chunk = pl->file_chunk;
	snprintf(p->host, sizeof(p->host), "%s", s->hostname);
	/* the run begins now: its private directory, then its phases */
	wall_clock_now(p->started_at, sizeof(p->started_at));

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
	copy_field(e->fs_super_options, sizeof(e->fs_super_options), s->fs.super_options);
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
	e->loop_dio = s->si.loop_dio;
	e->stacked = s->si.stacked;
	copy_field(e->loop_backing, sizeof(e->loop_backing), s->si.loop_backing);
	if (pl->data == DATA_COMPRESSIBLE)
		snprintf(e->data, sizeof(e->data), "compressible:%u", pl->data_zero_pct);
	else
		snprintf(e->data, sizeof(e->data), "%s", pl->data == DATA_ZERO ? "zero" : "random");
	e->verify = pl->verify;
	e->profiled = o->profile;
	place_topology_describe(&s->model, e->topology, sizeof(e->topology));
	copy_field(e->placement, sizeof(e->placement), s->place.summary);
	e->topo = &s->model;
	e->place = &s->place;
	e->ceil_syscall_ns = s->ceil.syscall_ns;
	e->ceil_copy_bps = s->ceil.copy_bytes_per_s;
	e->warmup = o->warmup;
	e->seeks_timed = pl->seeks_timed;
	e->stonewall_s = pl->stonewall_s;
	e->steady = pl->steady;
	e->files_calibrated = pl->files_calibrated;
	copy_field(e->size_note, sizeof(e->size_note), pl->size_note);
	copy_field(e->files_note, sizeof(e->files_note), pl->files_note);
}
