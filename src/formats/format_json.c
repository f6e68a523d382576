// SPDX-License-Identifier: BSD-2-Clause
/*
 * The JSON document: everything the CSV has, plus what it cannot hold.
 * A pure function of the runs; keys are documented in clyde(1). Each
 * phase's object is format_json_phase.c's.
 */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/phase.h"
#include "formats/format.h"
#include "formats/format_json.h"
#include "lib/json_writer.h"
#include "lib/size.h"
#include "placement/placement.h"

/*
 * clyde-result/2 added, per phase, "short", "cache" (residency before the
 * phase) and "arc"; per run, cache.outcome/resident_worst_pct and
 * "counts" (how seeks and files were chosen); per phase start_s and
 * end_s on CLOCK_MONOTONIC, comparable between processes of one machine.
 * Readers of /1 find every /1 field unchanged.
 */
/*
 * clyde-result/3 added, per phase, "profile" (--profile only) and
 * "workers" (each worker's part and where it ran); per run "topology"
 * and "placement". /1 and /2 fields are unchanged.
 */
/*
 * clyde-result/4 added the tree workloads: per run "tree", and the
 * tree_* phases with their "tree" object.
 */
/*
 * clyde-result/5 added many clients under mpirun: per run "cluster"
 * (null alone: the ranks, hosts and clock offsets), per phase "cluster"
 * (the aggregate's views and every rank's part) and, with --stonewall,
 * "stonewall". /1 to /4 fields are unchanged.
 */
/*
 * clyde-result/6 added failed and interrupted runs: the document's
 * "exit_status" and "stopped", and per run "failure" (null for a run that
 * finished). /1 to /5 fields are unchanged.
 */
/*
 * clyde-result/7 added the plan's word and how it was kept: the
 * document's "plan" (estimate_s, calibration_s) and "elapsed_s"; per
 * phase "estimate_s" (where a calibration ran), "time_box" (a default run's
 * phases that stop at a time limit) and, for the file tests, "passes".
 * /1 to /6 fields are unchanged.
 */
/*
 * clyde-result/8 added each phase's time series: per phase "series"
 * (null when it did not run or with --interval=off): its interval, its
 * sources, "columns" by name and "rows" that tile the phase's elapsed
 * time (see clyde(1)). /1 to /7 fields are unchanged.
 */
/*
 * clyde-result/9: under mpirun with more ranks than CLUSTER_DETAIL_MAX
 * (64), a phase's "cluster" gives "ranks_summary" (the ranks' rates,
 * amounts and elapsed times as min, quartiles, median and max, and the
 * slowest ranks named) in place of "ranks_detail", so that what rank 0
 * holds does not grow with ranks by a record each. Up to 64 ranks, and
 * every other field, as /8.
 */
/*
 * clyde-result/10: per run "host" (where it ran) and "started_at" (when
 * it began, UTC, ISO 8601 to the microsecond), so that a run is known by
 * its seed, start and host (clyde-report's history keeps each once).
 * Every /9 field is unchanged.
 */
/*
 * clyde-result/11: per run filesystem.super_options, the filesystem's own
 * options (Linux mountinfo's super options: ext4's data=journal, btrfs's
 * compress=zstd:3; null where the OS reports none apart from the mount's);
 * per run device.loop (null, or a loop device's backing file, its direct
 * I/O and the backing file's worst residency before a read) and per read
 * phase "backing_cache" (on a loop device without direct I/O: its backing
 * file's residency before the phase); per run device.cache_below (null, or
 * the seek rate on a device that says it is rotational beyond what one
 * reaches). Every /10 field is unchanged.
 */
/*
 * clyde-result/12: per phase profile.stacks (--profile=stacks only; absent
 * without it): the sampling period, samples, idle and lost, the layers
 * with their samples, shares and CPU seconds, the top functions by self
 * and by total time, and the folded stacks; and per phase profile.layers
 * (--profile=layers only; absent without it): the block layer's queue and
 * device times and clyde's operation time split into them. Every /11
 * field is unchanged.
 */
/*
 * clyde-result/13: profile.stacks.other, the samples in other programs'
 * tasks, counted apart as idle is: /12 counted them among the phase's
 * samples, shares and folded stacks (as the layer "other-processes"), so
 * that a neighbour's load moved a phase's shares. Every /12 field is
 * unchanged in form.
 * Also in /13: per phase profile.layers.cost (--profile=layers only):
 * the BPF programs' own time over the phase from the kernel's run-time
 * statistics: measured, why (null when measured), cpu_s, events,
 * ns_per_event, rate_share (cpu_s over the phase's wall time: the
 * programs' own part of a rate's loss where its I/O path runs them)
 * and programs (bio_queue, rq_issue, rq_complete: their events and
 * cpu_s). Every /12 field is unchanged.
 * Also in /13: per phase profile.stacks.unattributed (--profile=stacks
 * only): the samples and CPU seconds of tasks clyde's snapshots did not
 * count (they exited or came and went during the phase: the CPU that
 * profile.groups.unattributed_s cannot give to a task), and the largest
 * of them ("tasks": name, a kworker's by its workqueue; function, the one
 * most of its samples were in; layer; samples; cpu_s). Every /12 field is
 * unchanged.
 * Also in /13: per phase profile.stacks.drain_cpu_s and drain_wakeups
 * (--profile=stacks only): the CPU seconds the thread that reads the
 * rings during the phase spent folding them, a part of the phase's
 * process CPU, and how often it woke. Every /12 field is unchanged.
 */
/*
 * clyde-result/14 (issue 44, aged and full filesystems): per run "age"
 * (--age only; absent without it), "fill_pct" where measured, and
 * "fragmentation" where measured. Every /13 field is unchanged.
 * "age" (the same in every run: aging is done once, before the first):
 * spec ("80:2:agrawal"), target_pct, churn (asked, in capacities),
 * churn_done (written while churning over the capacity: less than churn
 * when --age-time cut it), profile, seed, capacity_bytes (statvfs's, as
 * an ordinary user may fill it), fill_before_pct and fill_aged_pct (used
 * over capacity before and after aging, after a sync), written_bytes
 * (all aging wrote), correction_bytes (of which the rounds that follow
 * statvfs wrote; --plan's bytes are written_bytes less these),
 * files_written, files_deleted, live_files and live_bytes (standing
 * during the runs), seconds, time_box_hit, kept_dir (--age-only: the
 * directory kept; null otherwise). "fill" (every run where statvfs
 * answered; absent where it did not): capacity_bytes, before_pct (at the
 * run's start), phases_pct (at the start of the block read, or of the
 * first phase that ran when there is none; null when no phase ran),
 * after_pct (once the run's own files are removed).
 * "fragmentation" (src/sys/extents.h): "test_file", the big file's extents
 * after the block write (FIEMAP on Linux, FIOBMAP2/FIOGETBMAP on FreeBSD's
 * and NetBSD's UFS/FFS): measured, method, why, files, bytes, extents,
 * extents_per_file, extents_per_mib, runs (physically contiguous extents
 * merged), largest_run_bytes, the flagged extents (unwritten, unknown,
 * inline, encoded, shared), and "map": [[logical, physical, length], ...]
 * in bytes, or null with "map_truncated": true beyond 4096 extents;
 * "fresh" (the free space as the run found it; with --age, before the
 * aging) and "aged" (after it): "free_space" {measured, method, why,
 * records, pieces (records that touch merged), bytes, largest_bytes,
 * buckets {"4k": n, ..., "1g+": n}} and "small_files" (the aging's files
 * sampled, the test file's keys). Keys of what was not measured are left
 * out; a run that measured nothing writes no "fragmentation".
 */
/*
 * clyde-result/15 (issue 45, capacity under a latency bound): per phase
 * "capacity" (--latency-target or --open-loop only; absent without them,
 * and on phases they do not measure). "search" (--latency-target):
 * percentile, target_s, min_samples (a window's least operations),
 * unbounded_rate (the phase's own), met (some window within the target),
 * rate (the best within it, 0 when none), concurrency (the highest
 * within it whose rate is within 5% of that), steps (each window:
 * concurrency, rate, latency_s at the percentile, samples, seconds,
 * within, few). "open_loop" (--open-loop): arrivals (fixed, poisson),
 * mode (sweep, rates), inflight (the most slots of a step), knee (the
 * first offered rate whose achieved fell below 95% of it; null none),
 * saturated, timed_out (a sweep that never saturated), note (what cut it,
 * when something did), steps (offered, achieved, seconds, inflight,
 * scheduled, completed, sent_late, unsent, errors, p50_s, p99_s, p999_s,
 * max_s from each request's scheduled time, and service_p50_s ...
 * service_max_s from its sending). Every /14 field is unchanged.
 */
#define JSON_SCHEMA "clyde-result/15"

/*
 * The document, the runs array, each run and its phases put one member on
 * a line; everything deeper stays on one line.
 */
#define JSON_WRAP_DEPTH 4

/* Extents added up, its object left open: per file and per MiB derived here. */
static void json_extents_open(struct json_writer *w, const char *key,
			      const struct extent_figures *f)
{
	json_obj_begin(w, key);
	json_add_bool(w, "measured", f->measured);
	json_add_str(w, "method", f->method);
	json_add_str(w, "why", f->why);
	if (f->measured) {
		json_add_uint(w, "files", f->files);
		json_add_uint(w, "bytes", f->bytes);
		json_add_uint(w, "extents", f->extents);
		json_known_or_null(w, "extents_per_file", f->files > 0,
				   f->files ? (double)f->extents / (double)f->files : 0);
		json_known_or_null(w, "extents_per_mib", f->bytes > 0, f->bytes ?
				   (double)f->extents * 1048576.0 / (double)f->bytes : 0);
		json_add_uint(w, "runs", f->runs);
		json_add_uint(w, "largest_run_bytes", f->largest_run);
		json_add_uint(w, "unwritten", f->unwritten);
		json_add_uint(w, "unknown", f->unknown);
		json_add_uint(w, "inline", f->inline_data);
		json_add_uint(w, "encoded", f->encoded);
		json_add_uint(w, "shared", f->shared);
	}
}

/* [[logical, physical, length], ...]: the pieces a test can predict the device's requests from. */
static void json_extent_map(struct json_writer *w, const struct extent_map *m)
{
	if (!m->pieces || m->truncated) {
		json_add_null(w, "map");
		json_add_bool(w, "map_truncated", m->truncated);
		return;
	}
	json_arr_begin(w, "map");
	for (size_t i = 0; i < m->count; i++) {
		json_arr_begin(w, NULL);
		json_add_uint(w, NULL, m->pieces[i].logical);
		json_add_uint(w, NULL, m->pieces[i].physical);
		json_add_uint(w, NULL, m->pieces[i].length);
		json_arr_end(w);
	}
	json_arr_end(w);
}

static void json_frag_state(struct json_writer *w, const char *key, const struct frag_state *st)
{
	const struct free_space_figures *fs = &st->free_space;

	json_obj_begin(w, key);
	json_obj_begin(w, "free_space");
	json_add_bool(w, "measured", fs->measured);
	json_add_str(w, "method", fs->method);
	json_add_str(w, "why", fs->why);
	if (fs->measured) {
		json_add_uint(w, "records", fs->records);
		json_add_uint(w, "pieces", fs->pieces);
		json_add_uint(w, "bytes", fs->bytes);
		json_add_uint(w, "largest_bytes", fs->largest);
		json_obj_begin(w, "buckets");
		for (unsigned i = 0; i < FREE_BUCKETS; i++)
			json_add_uint(w, free_space_bucket_name(i), fs->buckets[i]);
		json_obj_end(w);
	}
	json_obj_end(w);
	/* the aging's files, where it sampled them */
	if (st->small_files.measured || st->small_files.why[0]) {
		json_extents_open(w, "small_files", &st->small_files);
		json_obj_end(w);
	}
	json_obj_end(w);
}

/* Fragmentation (issue 44), only where something was measured or said. */
static void json_fragmentation(struct json_writer *w, const struct run_fragmentation *f)
{
	if (!frag_any(f))
		return;
	json_obj_begin(w, "fragmentation");
	if (f->test_file.measured || f->test_file.why[0]) {
		json_extents_open(w, "test_file", &f->test_file);
		if (f->test_file.measured)
			json_extent_map(w, &f->test_map);
		json_obj_end(w);
	}
	if (f->fresh.present)
		json_frag_state(w, "fresh", &f->fresh);
	if (f->aged.present)
		json_frag_state(w, "aged", &f->aged);
	json_obj_end(w);
}

/* The generated tree: the same shape, scale and seed give the same listing hash. */
static void json_tree(struct json_writer *w, const struct run_tree *t)
{
	char hash[17];

	if (!t->on) {
		json_add_null(w, "tree");
		return;
	}
	snprintf(hash, sizeof(hash), "%016" PRIx64, t->hash);
	json_obj_begin(w, "tree");
	json_add_str(w, "shape", t->shape);
	json_add_double(w, "scale", t->scale);
	json_add_uint(w, "seed", t->seed);
	json_add_uint(w, "dirs", t->dirs);
	json_add_uint(w, "files", t->files);
	json_add_uint(w, "max_depth", t->max_depth);
	json_add_uint(w, "bytes", t->bytes);
	json_add_str(w, "hash", hash);
	json_add_str(w, "io", t->io);
	json_add_uint(w, "depth", t->depth);
	json_add_str(w, "io_description", t->io_desc);
	json_add_str(w, "walk_cache", t->walk_cache);
	json_obj_end(w);
}


/* The ranks of the run under mpirun, or null alone. */
static void json_cluster(struct json_writer *w, const struct cluster_run *c)
{
	if (!c) {
		json_add_null(w, "cluster");
		return;
	}
	json_obj_begin(w, "cluster");
	json_add_uint(w, "ranks", c->ranks);
	json_add_uint(w, "workers_per_rank", c->workers);
	json_add_int(w, "read_other", c->read_other);
	json_add_double(w, "stonewall_s", c->stonewall_s);
	json_arr_begin(w, "hosts");
	for (unsigned h = 0; h < c->hosts; h++)
		json_add_str(w, NULL, c->host[h]);
	json_arr_end(w);
	json_arr_begin(w, "rank_hosts");
	for (unsigned k = 0; k < c->ranks; k++)
		json_add_str(w, NULL, c->host[c->rank_host[k]]);
	json_arr_end(w);
	json_arr_begin(w, "clock_offsets_s");
	for (unsigned k = 0; k < c->ranks; k++)
		json_add_fixed(w, NULL, c->offset[k], 9);
	json_arr_end(w);
	json_obj_end(w);
}

static const char *cache_type_name(char type)
{
	return type == 'd' ? "data" : type == 'i' ? "instruction" : "unified";
}

static void json_topology(struct json_writer *w, const struct place_topology *m)
{
	if (!m) {
		json_add_null(w, "topology");
		return;
	}
	json_obj_begin(w, "topology");
	json_add_str(w, "source", m->source ? m->source : "");
	json_known(w, "packages", m->npackages ? (double)m->npackages : -1);
	json_known(w, "numa_nodes", m->nnodes ? (double)m->nnodes : -1);
	json_known(w, "cores", m->ncores ? (double)m->ncores : -1);
	json_add_uint(w, "threads", m->npus);
	json_arr_begin(w, "nodes");
	for (unsigned i = 0; i < m->nnodes; i++) {
		struct place_mask c = { { 0 } };
		char list[256];

		for (unsigned k = 0; k < m->npus; k++)
			if (m->pu[k].node == m->node[i].os)
				place_mask_set(&c, (unsigned)m->pu[k].os);
		place_mask_format(&c, list, sizeof(list));
		json_obj_begin(w, NULL);
		json_add_int(w, "os_index", m->node[i].os);
		json_add_str(w, "cpus", list);
		json_known(w, "mem_bytes", m->node[i].mem_bytes ? (double)m->node[i].mem_bytes : -1);
		json_obj_end(w);
	}
	json_arr_end(w);
	json_arr_begin(w, "caches");
	for (unsigned i = 0; i < m->ncaches; i++) {
		json_obj_begin(w, NULL);
		json_add_int(w, "level", m->cache[i].level);
		json_add_str(w, "type", cache_type_name(m->cache[i].type));
		json_add_uint(w, "size", m->cache[i].size);
		json_obj_end(w);
	}
	json_arr_end(w);
	json_known(w, "device_node", m->device_node);
	json_add_str(w, "device_why", m->device_why);
	json_add_str(w, "unknown", m->unknown);
	json_obj_end(w);
}

static void json_placement(struct json_writer *w, const struct run_env *e)
{
	const struct place_plan *pl = e->place;
	static const char *const mems[] = {
		[MEM_DEFAULT] = "default", [MEM_LOCAL] = "local",
		[MEM_INTERLEAVE] = "interleave", [MEM_BIND] = "bind",
	};

	if (!pl) {
		json_add_null(w, "placement");
		return;
	}
	json_obj_begin(w, "placement");
	json_add_str(w, "summary", pl->summary);
	json_add_bool(w, "binds", pl->any_binding);
	json_arr_begin(w, "workers");
	for (unsigned i = 0; i < pl->workers; i++) {
		const struct place_worker *pw = &pl->w[i];
		char list[256];

		place_mask_format(&pw->cpus, list, sizeof(list));
		json_obj_begin(w, NULL);
		json_add_uint(w, "index", i);
		json_add_str(w, "cpus", pw->bind ? list : NULL);
		json_known(w, "core", pw->core);
		json_known(w, "node", pw->node);
		place_mask_format(&pw->mem_nodes, list, sizeof(list));
		json_add_str(w, "memory", mems[pw->mem]);
		json_add_str(w, "memory_nodes", list);
		json_obj_end(w);
	}
	json_arr_end(w);
	json_obj_end(w);
}


/* Where and why a run stopped; null for one that finished. */
static void json_failure(struct json_writer *w, const struct run_failure *f)
{
	if (!f->failed) {
		json_add_null(w, "failure");
		return;
	}
	json_obj_begin(w, "failure");
	json_add_str(w, "phase", f->phase >= 0 ? phase_csv_name((enum phase_id)f->phase) : NULL);
	json_add_text(w, "path", f->path);
	if (f->offset >= 0)
		json_add_int(w, "offset", f->offset);
	else
		json_add_null(w, "offset");
	if (f->err < 0)
		json_add_int(w, "errno", -f->err);
	else
		json_add_null(w, "errno");
	json_add_str(w, "error", f->err < 0 ? strerror(-f->err) : NULL);
	json_add_str(w, "message", f->message);
	json_add_int(w, "exit_status", f->exit_status);
	json_obj_end(w);
}

/* The run's bonnie++ CSV line, null for a run that failed. */
static void json_csv(struct json_writer *w, const struct run_result *r,
		     const struct format_opts *fo)
{
	char *csv = NULL;
	size_t len = 0;
	FILE *m = r->failure.failed ? NULL : open_memstream(&csv, &len);

	if (!m) {
		json_add_null(w, "csv");
		return;
	}
	format_csv(m, r, fo);
	fclose(m);
	if (len && csv[len - 1] == '\n')
		csv[len - 1] = '\0';
	json_add_str(w, "csv", csv);
	free(csv);
}

static void json_machine(struct json_writer *w, const struct run_env *e)
{
	json_obj_begin(w, "machine");
	json_add_uint(w, "cpus", e->cpus);
	json_add_uint(w, "ram_bytes", e->ram_bytes);
	json_add_str(w, "os", e->os);
	json_add_str(w, "kernel", e->kernel);
	json_add_str(w, "arch", e->arch);
	json_add_str(w, "cpu_model", e->cpu_model);
	json_obj_end(w);
}

/* clyde-result/11: the device's loop, null when it is none (or on the BSDs). */
static void json_loop(struct json_writer *w, const struct run_env *e)
{
	if (!e->loop_backing[0]) {
		json_add_null(w, "loop");
		return;
	}
	json_obj_begin(w, "loop");
	json_add_str(w, "backing_file", e->loop_backing);
	if (e->loop_dio < 0)
		json_add_null(w, "direct_io");
	else
		json_add_bool(w, "direct_io", e->loop_dio);
	/* without direct I/O, where a read phase measured it: the worst before a read */
	if (!e->loop_dio && e->loop_backing_measured && e->loop_backing_worst >= 0) {
		json_add_double(w, "backing_resident_worst_pct", e->loop_backing_worst);
		json_add_uint(w, "backing_resident_worst_bytes", e->loop_backing_worst_bytes);
	} else {
		json_add_null(w, "backing_resident_worst_pct");
		json_add_null(w, "backing_resident_worst_bytes");
	}
	json_obj_end(w);
}

/* A phase's rate beyond what the device's kind reaches: an object, or null where rate is 0. */
static void json_beyond(struct json_writer *w, const char *key, const char *phase,
			const char *rate_key, double rate, const char *max_key, double max)
{
	if (!(rate > 0)) {
		json_add_null(w, key);
		return;
	}
	json_obj_begin(w, key);
	json_add_str(w, "phase", phase);
	json_add_double(w, rate_key, rate);
	json_add_double(w, max_key, max);
	json_obj_end(w);
}

static void json_device(struct json_writer *w, const struct run_env *e)
{
	if (!e->blockdev[0]) {
		json_add_null(w, "device");
		return;
	}
	json_obj_begin(w, "device");
	json_add_str(w, "name", e->blockdev);
	if (e->driver[0])	/* the BSDs only: Linux's object is unchanged */
		json_add_str(w, "driver", e->driver);
	json_add_tristate(w, "rotational", e->rotational);
	json_add_str(w, "scheduler", e->scheduler);
	json_add_int(w, "read_ahead_kb", e->read_ahead_kb);
	json_loop(w, e);
	/* clyde-result/11: seeks no rotational device reaches, answered by a cache below clyde */
	json_beyond(w, "cache_below", "seeks", "rate", e->seeks_beyond_rotational,
		    "rotational_max", ROTATIONAL_SEEKS_MAX);
	/* clyde-result/11: block reads of an uncached file no rotational disk streams */
	json_beyond(w, "read_cache_below", "get_block", "rate_kib_s", e->reads_beyond_rotational,
		    "rotational_max_kib_s", ROTATIONAL_READ_MAX_KIBS);
	json_obj_end(w);
}

/*
 * Whether the JSON of these runs lists phase id (each run's phases: one
 * run at a time; the summary: all of them): bonnie++'s always, as its CSV
 * has their fields; the tree's in runs with --tree; clyde's own where one
 * of the runs ran it, so a run of a clyde without it reads the same.
 */
static bool json_lists(const struct run_result *runs, unsigned count, enum phase_id id)
{
	switch (phase_get(id)->kind) {
	case KIND_BONNIE:
		return true;
	case KIND_TREE:
		return count && runs[0].tree.on;
	default:
		for (unsigned k = 0; k < count; k++)
			if (runs[k].phase[id].ran)
				return true;
		return false;
	}
}

/* --age only: what aging did before the runs. */
static void json_age(struct json_writer *w, const struct run_age *a)
{
	if (!a->on)
		return;
	json_obj_begin(w, "age");
	json_add_str(w, "spec", a->spec);
	json_add_double(w, "target_pct", a->target_pct);
	json_add_double(w, "churn", a->churn);
	json_add_fixed(w, "churn_done", a->churn_done, 3);
	json_add_str(w, "profile", a->profile);
	json_add_uint(w, "seed", a->seed);
	json_add_uint(w, "capacity_bytes", a->capacity_bytes);
	json_add_fixed(w, "fill_before_pct", a->fill_before_pct, 2);
	json_known_or_null(w, "fill_aged_pct", a->fill_aged_pct >= 0, a->fill_aged_pct);
	json_add_uint(w, "written_bytes", a->written_bytes);
	json_add_uint(w, "correction_bytes", a->correction_bytes);
	json_add_uint(w, "files_written", a->files_written);
	json_add_uint(w, "files_deleted", a->files_deleted);
	json_add_uint(w, "live_files", a->live_files);
	json_add_uint(w, "live_bytes", a->live_bytes);
	json_add_fixed(w, "seconds", a->seconds, 3);
	json_add_bool(w, "time_box_hit", a->time_box_hit);
	json_add_str(w, "kept_dir", a->kept_dir[0] ? a->kept_dir : NULL);
	json_obj_end(w);
}

/* Where statvfs answered: how full the file system was around the run. */
static void json_fill(struct json_writer *w, const struct run_fill *f)
{
	if (!f->measured)
		return;
	json_obj_begin(w, "fill");
	json_add_uint(w, "capacity_bytes", f->capacity_bytes);
	json_add_fixed(w, "before_pct", f->before_pct, 2);
	if (f->phases_pct >= 0)
		json_add_fixed(w, "phases_pct", f->phases_pct, 2);
	else
		json_add_null(w, "phases_pct");
	if (f->after_pct >= 0)
		json_add_fixed(w, "after_pct", f->after_pct, 2);
	else
		json_add_null(w, "after_pct");
	json_obj_end(w);
}

static void json_run(struct json_writer *w, const struct run_result *r,
		     const struct format_opts *fo)
{
	const struct run_params *p = &r->params;
	const struct run_env *e = &r->env;

	json_obj_begin(w, NULL);
	json_add_str(w, "name", p->name);
	json_add_uint(w, "seed", p->seed);
	json_add_uint(w, "concurrency", p->concurrency);
	json_add_text(w, "host", p->host);
	json_add_text(w, "started_at", p->started_at);
	json_obj_begin(w, "io");
	json_add_uint(w, "size_mib", p->file_bytes >> 20);
	json_add_uint(w, "chunk", p->chunk);
	json_add_uint(w, "seeks", p->seeks);
	json_add_uint(w, "seekers", p->seekers);
	json_obj_end(w);
	json_obj_begin(w, "files");
	json_add_uint(w, "number", p->files);
	json_add_int(w, "max_size", p->file_max);
	json_add_int(w, "min_size", p->file_min);
	json_add_uint(w, "dirs", p->file_dirs);
	json_add_uint(w, "chunk", p->file_chunk);
	json_obj_end(w);
	json_obj_begin(w, "engine");
	json_add_str(w, "name", e->engine);
	json_add_str(w, "description", e->engine_desc);
	json_add_uint(w, "iodepth", e->iodepth);
	json_add_bool(w, "direct", e->direct);
	json_obj_end(w);
	json_obj_begin(w, "cache");
	json_add_str(w, "mode", e->cache);
	json_add_str(w, "description", e->cache_note);
	json_add_str(w, "outcome", e->cache_outcome);
	json_known_or_null(w, "resident_worst_pct", e->resident_known, e->resident_worst);
	json_obj_end(w);
	json_obj_begin(w, "counts");
	json_add_bool(w, "seeks_timed", e->seeks_timed);
	json_add_bool(w, "files_calibrated", e->files_calibrated);
	json_add_str(w, "size_note", e->size_note);
	json_add_str(w, "files_note", e->files_note);
	json_obj_end(w);
	json_add_str(w, "perchar", e->perchar_stdio ? "stdio" : "syscall");
	json_obj_begin(w, "filesystem");
	json_add_str(w, "type", e->fs_type);
	json_add_str(w, "source", e->fs_source);
	json_add_str(w, "mountpoint", e->fs_mountpoint);
	json_add_str(w, "options", e->fs_options);
	json_add_text(w, "super_options", e->fs_super_options);
	json_obj_end(w);
	json_machine(w, e);
	json_device(w, e);
	json_topology(w, e->topo);
	json_placement(w, e);
	json_tree(w, &r->tree);
	json_fragmentation(w, &r->frag);
	json_cluster(w, r->cluster);
	if (e->ceil_syscall_ns > 0) {
		json_obj_begin(w, "ceilings");
		json_add_double(w, "syscall_ns", e->ceil_syscall_ns);
		json_add_double(w, "copy_bytes_per_s", e->ceil_copy_bps);
		json_obj_end(w);
	} else {
		json_add_null(w, "ceilings");
	}
	json_obj_begin(w, "data");
	json_add_str(w, "pattern", e->data);
	json_add_bool(w, "verify", e->verify);
	json_add_uint(w, "mismatches", r->mismatches);
	json_obj_end(w);
	json_obj_begin(w, "phases");
	for (int i = 0; i < PH_COUNT; i++)
		if (json_lists(r, 1, (enum phase_id)i))
			json_phase(w, r, (enum phase_id)i);
	json_obj_end(w);
	json_age(w, &r->age);
	json_fill(w, &r->fill);
	json_failure(w, &r->failure);
	json_csv(w, r, fo);
	json_obj_end(w);
}

static void json_summary(struct json_writer *w, const struct run_result *runs, unsigned count)
{
	json_obj_begin(w, "summary");
	for (int i = 0; i < PH_COUNT; i++) {
		struct phase_summary s;

		if (!json_lists(runs, count, (enum phase_id)i))
			continue;
		summarize_phase(runs, count, (enum phase_id)i, &s);
		json_obj_begin(w, phase_csv_name((enum phase_id)i));
		json_add_uint(w, "runs", s.runs);
		if (s.runs) {
			json_add_double(w, "median", s.median);
			json_add_double(w, "min", s.min);
			json_add_double(w, "max", s.max);
			json_add_double(w, "cv_percent", s.cv_percent);
			json_add_double(w, "median_cpu_percent", s.median_cpu);
		}
		json_obj_end(w);
	}
	json_obj_end(w);
}

void format_json(FILE *out, const struct run_result *runs, unsigned count,
		 const struct format_opts *fo, int exit_status, const char *stopped)
{
	struct json_writer w;

	json_writer_init(&w, out, JSON_WRAP_DEPTH);
	json_obj_begin(&w, NULL);
	json_add_str(&w, "schema", JSON_SCHEMA);
	json_add_str(&w, "clyde_version", PACKAGE_VERSION);
	json_add_bool(&w, "warmup", count && runs[0].env.warmup);
	json_add_int(&w, "exit_status", exit_status);
	json_add_str(&w, "stopped", stopped);
	if (fo->estimate_s > 0) {
		json_obj_begin(&w, "plan");
		json_add_double(&w, "estimate_s", fo->estimate_s);
		json_add_double(&w, "calibration_s", fo->calibration_s);
		json_obj_end(&w);
	} else {
		json_add_null(&w, "plan");
	}
	json_known_or_null(&w, "elapsed_s", fo->elapsed_s > 0, fo->elapsed_s);
	json_arr_begin(&w, "runs");
	for (unsigned i = 0; i < count; i++)
		json_run(&w, &runs[i], fo);
	json_arr_end(&w);
	json_summary(&w, runs, count);
	json_obj_end(&w);
}
