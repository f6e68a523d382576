// SPDX-License-Identifier: BSD-2-Clause
/*
 * The run loop: every -x run in its own private directory, each reported
 * as it ends, the JSON document written whatever happened.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cluster/cluster.h"
#include "cluster/cluster_result.h"
#include "clyde/session.h"
#include "formats/format.h"
#include "lib/rng.h"
#include "lib/signals.h"
#include "lib/timing.h"
#include "phases/bench.h"
#include "phases/capacity.h"
#include "phases/runner.h"
#include "sys/fsfill.h"
#include "sys/probe.h"
#include "sys/workdir.h"

/* The --verify key: the seed and the run, so one run's data never pass for another's. */
static uint64_t verify_key(uint32_t seed, uint32_t run)
{
	uint64_t z = ((uint64_t)seed << 32 | run) + 0x9e3779b97f4a7c15ull;

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	return z ^ (z >> 31);
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

/*
 * How full -d's file system is as the run starts: no "fill" in the JSON
 * where statvfs fails. After a sync with --age only: a plain run makes
 * no sync of its own (tests/cli/sync_bsd_path.sh counts them).
 */
static void fill_before(const struct session *s, struct run_result *res)
{
	struct fs_fill f;

	if (fs_fill_read_path(s->opt.dir, s->opt.age.on, &f))
		return;
	res->fill.measured = true;
	res->fill.capacity_bytes = f.capacity;
	res->fill.before_pct = fs_fill_pct(&f);
	res->fill.phases_pct = -1;
	res->fill.after_pct = -1;
}

static void fill_after(const struct session *s, struct run_result *res)
{
	struct fs_fill f;

	if (res->fill.measured && !fs_fill_read_path(s->opt.dir, s->opt.age.on, &f))
		res->fill.after_pct = fs_fill_pct(&f);
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
	b.fill_sync = s->opt.age.on;
	b.profiler = s->opt.profile ? &s->prof : NULL;
	b.placement = &s->place;
	if (s->si.loop_backing[0] && s->si.loop_dio == 0)
		b.loop_backing = s->si.loop_backing;
	fill_result_labels(s, seed, res);
	res->age = s->age_result;
	if (s->opt.age.on) {
		res->frag.fresh = s->age_fresh;
		res->frag.aged = s->age_aged;
	}
	fill_before(s, res);

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
	fill_after(s, res);
	if (rr) {
		fprintf(stderr, "clyde: warning: could not remove all of %s: %s\n",
			b.workdir, strerror(-rr));
		workdir_name_left(b.workdir, stderr, 10);
		s->dirs_left++;
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

/* What chooses the outputs of every run, from the options and the plan. */
static void outputs_asked(const struct session *s, const struct format_opts *fo,
			  struct format_request *req)
{
	const struct clyde_options *o = &s->opt;

	memset(req, 0, sizeof(*req));
	req->fo = fo;
	req->repeats = o->repeats;
	req->placement = o->concurrency > 1 || s->place.any_binding;
	req->latency = o->latency_table;
	req->cpu = o->cpu_table;
	req->ceilings = o->ceilings;
	req->profile = o->profile;
	req->cache = s->plan.cache;
	req->dir = o->dir;
}

/* One run's context, notes, tables and CSV line: the table of formats' rows. */
static void report_run(FILE *const streams[FORMAT_STREAMS], const struct run_result *r,
		       const struct format_request *req)
{
	format_walk(FORMAT_EACH_RUN, streams, r, 1, req);
	fflush(streams[FORMAT_TEXT]);
	if (streams[FORMAT_CSV])
		fflush(streams[FORMAT_CSV]);
}

/*
 * Every -x run, each in its own private directory. stdout carries what
 * bonnie++'s does: the table (and the extra tables asked for) then the
 * CSV line; with -q or any -x only CSV lines, and under --json - only the
 * JSON document. Everything else goes to stderr, context lines included.
 */
int run_all(struct session *s, const struct format_opts *fo)
{
	const struct clyde_options *o = &s->opt;
	bool json_stdout = o->json && !strcmp(o->json, "-");
	/* under mpirun only rank 0 reports, for all ranks */
	bool reporter = cluster_rank() == 0;
	FILE *text = o->quiet || o->repeats_given || json_stdout ? stderr : stdout;
	FILE *csv = json_stdout || !reporter ? NULL : stdout;
	FILE *const streams[FORMAT_STREAMS] = {
		[FORMAT_LOG] = stderr, [FORMAT_TEXT] = text, [FORMAT_CSV] = csv,
	};
	struct format_request req;
	char json_temp[4200] = "";
	FILE *json = reporter ? open_json(o->json, json_temp, sizeof(json_temp)) : NULL;
	struct run_result *runs = calloc(o->repeats, sizeof(*runs));
	int status = CLYDE_EXIT_OK, js, flame_status = 0, fs;
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
	outputs_asked(s, fo, &req);
	/* once, before every run: the runs' files go where aging left room */
	status = age_begin(s, stopped, sizeof(stopped));
	if (status || o->age.keep) {
		/* the JSON document's one run says what aging did, or why it stopped */
		fill_result_labels(s, s->first_seed, &runs[0]);
		runs[0].age = s->age_result;
		runs[0].frag.fresh = s->age_fresh;
		runs[0].frag.aged = s->age_aged;
		kept = 1;
		if (status)
			run_failed(&runs[0], 0, stopped, status);
		goto out;
	}
	if (o->warmup) {
		/* Counted nowhere: it only brings caches and allocators to a steady state. */
		fprintf(stderr, "clyde: warm-up run (not counted)\n");
		status = run_once(s, s->first_seed, UINT32_MAX, &runs[0]);
		if (status) {
			snprintf(stopped, sizeof(stopped), "warm-up run: %s", runs[0].failure.message);
			goto out;
		}
	}
	if (reporter)
		format_walk(FORMAT_BEFORE_RUNS, streams, NULL, 0, &req);
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
		if (reporter) {
			req.run = done;
			report_run(streams, &runs[done], &req);
			stacks_notes(stderr, &runs[done]);
		}
		/* each rank its own files, named apart */
		fs = flame_write_run(s, &runs[done], done);
		if (fs)
			flame_status = fs;
		if (clyde_stop_requested()) {
			fprintf(stderr, "clyde: stopped by signal %d after run %u\n",
				clyde_stop_signal(), done + 1);
			snprintf(stopped, sizeof(stopped), "stopped by signal %d after run %u",
				 clyde_stop_signal(), done + 1);
			status = CLYDE_EXIT_SIGNAL;
			goto out;
		}
	}
	if (reporter)
		format_walk(FORMAT_AFTER_RUNS, streams, runs, done, &req);
	for (uint32_t i = 0; i < done; i++)
		if (runs[i].mismatches)
			status = CLYDE_EXIT_VERIFY;
	if (!status && capacity_unsaturated(runs, done)) {
		fprintf(stderr, "clyde: an --open-loop sweep never saturated: its phase's knee was "
			"not found (exit %d)\n", CLYDE_EXIT_UNSATURATED);
		status = CLYDE_EXIT_UNSATURATED;
	}
	/* what a run left in -d (a mount inside its directory, kept) is an error, named above */
	if (!status && s->dirs_left)
		status = CLYDE_EXIT_IO;
	if (!status)
		status = flame_status;
out:
	/* the aging directory, whatever stopped the runs */
	fs = age_end(s);
	if (fs && !status)
		status = fs;
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
