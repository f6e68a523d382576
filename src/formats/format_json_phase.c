// SPDX-License-Identifier: BSD-2-Clause
/*
 * The JSON document's per-phase objects (format_json.c writes the rest):
 * a phase's figures, its profile, latency, workers, tree, stonewall and
 * cluster parts. Keys are documented in clyde(1).
 */
#include "config.h"

#include <stdio.h>

#include "core/phase.h"
#include "formats/format.h"
#include "formats/format_json.h"
#include "lib/json_writer.h"
#include "profile/stacks_layers.h"

static const char *const group_keys[PROF_GROUPS] = {
	[PROF_CLYDE] = "clyde_s",
	[PROF_FS] = "filesystem_s",
	[PROF_WRITEBACK] = "writeback_s",
	[PROF_BLOCK] = "block_s",
	[PROF_KWORKER] = "kworker_s",
	[PROF_KSWAPD] = "kswapd_s",
	[PROF_KTHREAD] = "kernel_other_s",
	[PROF_OTHER] = "other_processes_s",
};

static const char *const cpu_keys[CPU_STATES] = {
	[CPU_USER] = "user_s", [CPU_NICE] = "nice_s", [CPU_SYSTEM] = "system_s",
	[CPU_IDLE] = "idle_s", [CPU_IOWAIT] = "iowait_s", [CPU_IRQ] = "irq_s",
	[CPU_SOFTIRQ] = "softirq_s", [CPU_STEAL] = "steal_s",
};

static void json_profile_machine(struct json_writer *w, const struct prof_phase *pp)
{
	if (!pp->machine_valid) {
		json_add_null(w, "machine");
		json_add_str(w, "machine_why", pp->machine_why);
		return;
	}
	json_obj_begin(w, "machine");
	json_add_uint(w, "cpus", pp->ncpu);
	json_add_double(w, "ticks_per_s", pp->hz);
	json_known(w, "total_s", pp->machine_total_s);
	for (int i = 0; i < CPU_STATES; i++)
		json_known(w, cpu_keys[i], pp->cpu_known[i] ? pp->cpu_s[i] : -1);
	json_add_bool(w, "counters_backwards", pp->cpu_backwards);
	json_obj_end(w);
}

static void json_profile_groups(struct json_writer *w, const struct prof_phase *pp)
{
	if (!pp->groups_valid) {
		json_add_null(w, "groups");
		json_add_str(w, "groups_why", pp->groups_why);
		return;
	}
	json_obj_begin(w, "groups");
	for (int g = 0; g < PROF_GROUPS; g++)
		json_add_double(w, group_keys[g], pp->group_s[g]);
	json_known_or_null(w, "unattributed_s", pp->machine_valid, pp->unattributed_s);
	json_add_uint(w, "tasks_new", pp->tasks_new);
	json_add_uint(w, "tasks_exited", pp->tasks_exited);
	json_add_uint(w, "kworkers_unnamed", pp->kworkers_unnamed);
	json_arr_begin(w, "background");
	for (unsigned k = 0; prof_background_row(k); k++)
		if (pp->background & (UINT32_C(1) << k))
			json_add_str(w, NULL, prof_background_row(k)->name);
	json_arr_end(w);
	json_arr_begin(w, "top");
	for (unsigned k = 0; k < pp->ntop; k++) {
		json_obj_begin(w, NULL);
		json_add_str(w, "name", pp->top[k].name);
		json_add_str(w, "group", prof_group_name(pp->top[k].group));
		json_add_double(w, "s", pp->top[k].s);
		json_obj_end(w);
	}
	json_arr_end(w);
	json_obj_end(w);
}

static const char *const perf_keys[PERF_COUNTERS] = {
	[PERF_TASK_CLOCK] = "task_clock_s", [PERF_CTX_SWITCHES] = "context_switches",
	[PERF_MIGRATIONS] = "cpu_migrations", [PERF_PAGE_FAULTS] = "page_faults",
	[PERF_CYCLES] = "cycles", [PERF_INSTRUCTIONS] = "instructions",
};

static void json_profile_perf(struct json_writer *w, const struct prof_phase *pp,
			      const struct profile_derived *d)
{
	json_obj_begin(w, "perf");
	for (int i = 0; i < PERF_COUNTERS; i++) {
		if (!pp->perf_valid[i])
			json_add_null(w, perf_keys[i]);
		else if (i == PERF_TASK_CLOCK)
			json_add_double(w, perf_keys[i], (double)pp->perf[i] / 1e9);
		else
			json_add_uint(w, perf_keys[i], pp->perf[i]);
	}
	json_add_str(w, "per", d->per_op);
	json_known(w, "cycles_per_op", d->cycles_per_op);
	json_known(w, "instructions_per_op", d->instructions_per_op);
	json_add_str(w, "software_why", pp->perf_sw_why);
	json_add_str(w, "hardware_why", pp->perf_hw_why);
	json_obj_end(w);
}

static void json_profile_device(struct json_writer *w, const struct prof_phase *pp,
				const struct profile_derived *d)
{
	const struct prof_devices *dv = &pp->devs;
	static const char *const states[] = {
		[PROF_DEV_MEASURED] = "measured", [PROF_DEV_NONE] = "no block device",
		[PROF_DEV_UNKNOWN] = "unknown",
	};

	json_obj_begin(w, "device");
	json_add_str(w, "state", states[dv->state]);
	json_add_str(w, "why", dv->why);
	json_arr_begin(w, "names");
	for (unsigned k = 0; k < dv->count; k++)
		json_add_str(w, NULL, dv->name[k]);
	json_arr_end(w);
	json_add_str(w, "via", dv->via);
	json_add_str(w, "shared", dv->shared);
	if (pp->dev_valid) {
		json_add_uint(w, "read_ios", pp->dev.rd_ios);
		json_add_uint(w, "read_bytes", pp->dev.rd_bytes);
		json_add_uint(w, "write_ios", pp->dev.wr_ios);
		json_add_uint(w, "write_bytes", pp->dev.wr_bytes);
		if (pp->dev.discard_known) {
			json_add_uint(w, "discard_ios", pp->dev.discard_ios);
			json_add_uint(w, "discard_bytes", pp->dev.discard_bytes);
		} else {
			json_add_null(w, "discard_ios");
			json_add_null(w, "discard_bytes");
		}
		json_known(w, "busy_s", (double)pp->dev.busy_ms / 1e3);
		json_known(w, "write_amplification", d->write_amp);
		json_known(w, "read_amplification", d->read_amp);
	}
	json_obj_end(w);
}

/* A top function: its samples as the sampled one and on the stack, and their shares. */
static void json_stack_funcs(struct json_writer *w, const char *key, const struct stack_func *f,
			     unsigned n, uint64_t samples)
{
	json_arr_begin(w, key);
	for (unsigned k = 0; k < n; k++) {
		json_obj_begin(w, NULL);
		json_add_str(w, "function", f[k].name);
		json_add_uint(w, "self", f[k].self);
		json_add_uint(w, "total", f[k].total);
		json_add_double(w, "self_share", (double)f[k].self / (double)samples);
		json_add_double(w, "total_share", (double)f[k].total / (double)samples);
		json_obj_end(w);
	}
	json_arr_end(w);
}

/*
 * clyde-result/12, --profile=stacks: the phase's samples by layer and
 * function, and its folded stacks (the largest STACK_FOLDED_MAX, the rest
 * in one "[other stacks]" remainder), for flame graphs from the JSON alone.
 */
static void json_profile_stacks(struct json_writer *w, const struct stack_summary *s)
{
	if (!s)
		return;
	json_obj_begin(w, "stacks");
	json_add_double(w, "period_s", s->period_s);
	json_add_uint(w, "samples", s->samples);
	json_add_double(w, "cpu_s", (double)s->samples * s->period_s);
	json_add_uint(w, "idle", s->idle);
	json_add_uint(w, "other", s->other);
	json_add_uint(w, "lost", s->lost);
	json_add_double(w, "drain_cpu_s", s->drain_cpu_s);
	json_add_uint(w, "drain_wakeups", s->drain_wakeups);
	json_arr_begin(w, "layers");
	for (unsigned k = 0; k < s->nlayers; k++) {
		json_obj_begin(w, NULL);
		json_add_str(w, "layer", s->layer[k].name);
		json_add_uint(w, "samples", s->layer[k].samples);
		json_add_double(w, "share", s->layer[k].share);
		json_add_double(w, "cpu_s", s->layer[k].cpu_s);
		json_obj_end(w);
	}
	json_arr_end(w);
	json_stack_funcs(w, "top_self", s->top_self, s->nself, s->samples);
	json_stack_funcs(w, "top_total", s->top_total, s->ntotal, s->samples);
	/* clyde-result/13: the CPU of tasks no snapshot counted, named */
	json_obj_begin(w, "unattributed");
	json_add_uint(w, "samples", s->unseen_samples);
	json_add_double(w, "cpu_s", (double)s->unseen_samples * s->period_s);
	json_arr_begin(w, "tasks");
	for (unsigned k = 0; k < s->nunseen; k++) {
		json_obj_begin(w, NULL);
		json_add_str(w, "name", s->unseen[k].task);
		json_add_str(w, "function", s->unseen[k].func);
		json_add_str(w, "layer", s->unseen[k].layer);
		json_add_uint(w, "samples", s->unseen[k].samples);
		json_add_double(w, "cpu_s", s->unseen[k].cpu_s);
		json_obj_end(w);
	}
	json_arr_end(w);
	json_obj_end(w);
	json_add_uint(w, "folded_merged", s->folded_merged);
	json_arr_begin(w, "folded");
	for (size_t k = 0; k < s->nfolded; k++) {
		json_obj_begin(w, NULL);
		json_add_str(w, "stack", s->folded[k].folded);
		json_add_uint(w, "count", s->folded[k].count);
		if (s->folded[k].layer[0])
			json_add_str(w, "layer", s->folded[k].layer);
		else
			json_add_null(w, "layer");
		json_obj_end(w);
	}
	json_arr_end(w);
	json_obj_end(w);
}

static void json_profile(struct json_writer *w, const struct run_result *r, enum phase_id id)
{
	const struct prof_phase *pp = &r->phase[id].profile;
	struct profile_derived d;

	profile_derive(r, id, &d);
	json_obj_begin(w, "profile");
	json_add_double(w, "window_s", pp->window_s);
	json_obj_begin(w, "sampler");
	json_add_double(w, "cpu_s", pp->sampler_cpu_s);
	json_add_double(w, "wall_s", pp->sampler_wall_s);
	json_known(w, "fraction", pp->window_s > 0 ? pp->sampler_cpu_s / pp->window_s : -1);
	json_obj_end(w);
	json_obj_begin(w, "process");
	json_add_double(w, "user_s", pp->self_user_s);
	json_add_double(w, "sys_s", pp->self_sys_s);
	json_known(w, "io_uring_s", pp->uring_s);
	json_add_uint(w, "voluntary_switches", pp->nvcsw);
	json_add_uint(w, "involuntary_switches", pp->nivcsw);
	json_add_uint(w, "minor_faults", pp->minflt);
	json_add_uint(w, "major_faults", pp->majflt);
	json_obj_end(w);
	json_profile_machine(w, pp);
	json_profile_groups(w, pp);
	json_known(w, "caused_s", d.caused_s);
	json_known(w, "outside_s", d.outside_s);
	json_known(w, "outside_fraction", d.outside_fraction);
	json_obj_begin(w, "per_unit");
	json_add_str(w, "unit", d.unit);
	json_known(w, "clyde_s", d.self_per_unit);
	json_known(w, "caused_s", d.caused_per_unit);
	json_obj_end(w);
	json_profile_perf(w, pp, &d);
	json_profile_device(w, pp, &d);
	json_profile_stacks(w, pp->stacks);
	json_profile_layers(w, &pp->layers);
	json_obj_end(w);
}

/* "latency_us": the count, the percentiles and the maximum, in microseconds. */
static void json_latency(struct json_writer *w, uint64_t count, const double q_s[LAT_QUANTILES],
			 double max_s)
{
	json_obj_begin(w, "latency_us");
	json_add_uint(w, "count", count);
	for (int q = 0; q < LAT_QUANTILES; q++)
		json_add_double(w, latency_quantile_names[q], q_s[q] * 1e6);
	json_add_double(w, "max", max_s * 1e6);
	json_obj_end(w);
}

/* A tree phase's work and each kind of operation it issued. */
static void json_tree_phase(struct json_writer *w, const struct phase_result *p)
{
	const struct phase_tree *t = &p->tree;

	json_obj_begin(w, "tree");
	json_add_uint(w, "files", t->files);
	json_add_uint(w, "dirs", t->dirs);
	json_add_uint(w, "entries", t->entries);
	json_add_uint(w, "bytes", t->bytes);
	json_add_double(w, "mib_per_s",
			p->elapsed > 0 ? (double)t->bytes / 1048576.0 / p->elapsed : 0);
	json_obj_begin(w, "ops");
	for (int k = 0; k <= TOP_KINDS; k++) {
		const struct tree_op_result *o = k < TOP_KINDS ? &t->op[k] : &t->list;

		if (!o->count)
			continue;
		json_obj_begin(w, k < TOP_KINDS ? tree_op_name((enum tree_op_kind)k) : "list");
		json_add_uint(w, "via_ring", o->via_ring);
		json_latency(w, o->count, o->latency_q, o->max_latency);
		json_obj_end(w);
	}
	json_obj_end(w);
	json_obj_end(w);
}

static void json_workers(struct json_writer *w, const struct phase_result *p)
{
	json_arr_begin(w, "workers");
	for (unsigned k = 0; k < p->nworkers; k++) {
		const struct worker_result *wr = &p->workers[k];

		json_obj_begin(w, NULL);
		json_add_uint(w, "index", k);
		json_add_fixed(w, "start_s", wr->t_start, 6);
		json_add_fixed(w, "end_s", wr->t_end, 6);
		json_add_double(w, "amount", wr->amount);
		json_add_double(w, "rate", worker_rate(wr));
		json_add_double(w, "cpu_s", wr->cpu_s);
		json_latency(w, wr->latency_count, wr->latency_q, wr->max_latency);
		json_add_str(w, "cpus", wr->cpus);
		json_known(w, "cpu_first", wr->cpu_first);
		json_known(w, "cpu_last", wr->cpu_last);
		json_add_str(w, "ran_on", wr->ran_on);
		json_known(w, "buffer_node", wr->buffer_node);
		json_add_str(w, "note", wr->note);
		json_obj_end(w);
	}
	json_arr_end(w);
}

/* What --stonewall's limit found done, this process's or all ranks'. */
static void json_stonewall(struct json_writer *w, const struct run_result *r,
			   const struct phase_result *p, double seconds)
{
	json_obj_begin(w, "stonewall");
	json_add_double(w, "seconds", seconds);
	if (r->cluster) {
		const struct cluster_phase *cp = &r->cluster->phase[p - r->phase];
		double sum = 0;
		bool hit = cp->rank != NULL;

		for (unsigned k = 0; hit && k < r->cluster->ranks; k++) {
			hit = cp->rank[k].at_deadline >= 0;
			sum += cp->rank[k].at_deadline;
		}
		json_known_or_null(w, "amount_at_limit", hit, sum);
	} else {
		json_known_or_null(w, "amount_at_limit", p->at_deadline >= 0, p->at_deadline);
	}
	json_obj_end(w);
}

/* Every rank's part of the phase, up to the detail limit. */
static void json_ranks_detail(struct json_writer *w, const struct cluster_run *c,
			      const struct cluster_phase *cp)
{
	json_arr_begin(w, "ranks_detail");
	for (unsigned k = 0; k < c->ranks; k++) {
		const struct rank_phase *rp = &cp->rank[k];
		const struct rank_detail *rd = &cp->detail[k];

		json_obj_begin(w, NULL);
		json_add_uint(w, "rank", k);
		json_add_str(w, "host", c->host[c->rank_host[k]]);
		json_add_fixed(w, "start_s", rp->t_start, 6);
		json_add_fixed(w, "end_s", rp->t_end, 6);
		json_add_double(w, "amount", rp->amount);
		json_add_double(w, "rate", rank_phase_rate(rp));
		json_known_or_null(w, "amount_at_first_end", rp->amount_at_first_end >= 0,
				   rp->amount_at_first_end);
		json_add_double(w, "cpu_user_s", rp->cpu_user);
		json_add_double(w, "cpu_sys_s", rp->cpu_sys);
		json_add_double(w, "flush_s", rd->flush);
		if (rp->at_deadline >= 0 || c->stonewall_s > 0)
			json_known_or_null(w, "amount_at_limit", rp->at_deadline >= 0,
					   rp->at_deadline);
		json_latency(w, rd->latency_count, rd->latency_q, rd->max_latency);
		json_obj_end(w);
	}
	json_arr_end(w);
}

static void json_spread(struct json_writer *w, const char *key, const struct spread *s)
{
	json_obj_begin(w, key);
	json_add_double(w, "min", s->min);
	json_add_double(w, "q1", s->q1);
	json_add_double(w, "median", s->median);
	json_add_double(w, "q3", s->q3);
	json_add_double(w, "max", s->max);
	json_obj_end(w);
}

/* Above the detail limit: the ranks' spread and the slowest named, not one record a rank. */
static void json_ranks_summary(struct json_writer *w, const struct cluster_run *c,
			       const struct ranks_summary *s)
{
	json_obj_begin(w, "ranks_summary");
	json_add_uint(w, "above", c->detail_max);
	json_add_uint(w, "ranks", s->ranks);
	json_spread(w, "rate", &s->rate);
	json_spread(w, "amount", &s->amount);
	json_spread(w, "elapsed_s", &s->elapsed);
	json_arr_begin(w, "slowest");
	for (unsigned k = 0; k < s->slowest_n; k++) {
		json_obj_begin(w, NULL);
		json_add_uint(w, "rank", s->slowest[k].rank);
		json_add_str(w, "host", c->host[c->rank_host[s->slowest[k].rank]]);
		json_add_double(w, "rate", s->slowest[k].rate);
		json_obj_end(w);
	}
	json_arr_end(w);
	json_obj_end(w);
}

/* Under mpirun: the aggregate's views and every rank's part of the phase. */
static void json_cluster_phase(struct json_writer *w, const struct cluster_run *c,
			       enum phase_id id)
{
	const struct cluster_phase *cp = &c->phase[id];
	const struct aggregate *a = &cp->agg;

	json_obj_begin(w, "cluster");
	json_add_uint(w, "ranks", a->ranks);
	json_add_fixed(w, "first_start_s", a->first_start, 6);
	json_add_fixed(w, "last_start_s", a->last_start, 6);
	json_add_fixed(w, "first_end_s", a->first_end, 6);
	json_add_fixed(w, "last_end_s", a->last_end, 6);
	json_add_double(w, "rate", a->rate);
	json_known_or_null(w, "stonewall_amount", a->stonewall_known, a->stonewall_amount);
	json_known_or_null(w, "stonewall_rate", a->stonewall_known, a->stonewall_rate);
	json_add_double(w, "sum_of_rates", a->sum_of_rates);
	json_arr_begin(w, "hosts");
	for (unsigned h = 0; h < c->hosts; h++) {
		double user, sys;

		cluster_host_cpu(c, id, h, &user, &sys);
		json_obj_begin(w, NULL);
		json_add_str(w, "host", c->host[h]);
		json_add_double(w, "cpu_user_s", user);
		json_add_double(w, "cpu_sys_s", sys);
		json_obj_end(w);
	}
	json_arr_end(w);
	if (cp->detail)
		json_ranks_detail(w, c, cp);
	else
		json_ranks_summary(w, c, &cp->summary);
	json_obj_end(w);
}

static const char *amount_unit(enum phase_id id)
{
	return phase_unit_names(id)->amount;
}

/*
 * clyde-result/11: on a loop device without direct I/O, how much of its
 * backing file was in the page cache before the phase (the whole file).
 */
static void json_phase_backing_cache(struct json_writer *w, const struct phase_result *p)
{
	json_obj_begin(w, "backing_cache");
	json_add_str(w, "method", p->backing_method);
	if (p->backing_resident_pct < 0) {
		json_add_null(w, "resident_pct");
		json_add_str(w, "why", p->backing_why);
	} else {
		json_add_double(w, "resident_pct", p->backing_resident_pct);
		json_add_uint(w, "resident_bytes", p->backing_resident_bytes);
		json_add_uint(w, "file_bytes", p->backing_file_bytes);
	}
	json_obj_end(w);
}

/* Where the phase's file was in the page cache before it ran. */
static void json_phase_cache(struct json_writer *w, const struct phase_result *p, enum phase_id id)
{
	json_obj_begin(w, "cache");
	json_add_str(w, "method", p->residency_method);
	if (p->resident_pct < 0) {
		json_add_null(w, "resident_pct");
		json_add_str(w, "why", p->residency_why);
	} else {
		json_add_double(w, "resident_pct", p->resident_pct);
	}
	/* the big file's phases: the bytes measured, what that phase reads */
	if (phase_get(id)->flags & PF_IO_FILE) {
		json_add_uint(w, "range_offset", p->residency_range_offset);
		json_add_uint(w, "range_bytes", p->residency_range_bytes);
		json_add_uint(w, "file_bytes", p->residency_file_bytes);
	}
	json_obj_end(w);
}

/* A value of the machine's side: null where not measured or not read in that interval. */
static void json_kib_or_null(struct json_writer *w, bool set, int64_t kib)
{
	if (set && kib >= 0)
		json_add_int(w, NULL, kib);
	else
		json_add_null(w, NULL);
}

static void json_series_row(struct json_writer *w, const struct series *s, unsigned i,
			    bool in_bytes)
{
	const struct series_slot *sl = &s->slot[i];
	const struct series_machine *m = s->mach ? &s->mach[i] : NULL;
	bool set = m && m->set;
	double t0, t1, work = in_bytes ? (double)sl->work / 1024.0 : (double)sl->work;

	series_row_span(s, i, &t0, &t1);
	json_arr_begin(w, NULL);
	json_add_double(w, NULL, t0);
	json_add_double(w, NULL, t1);
	if (in_bytes)
		json_add_double(w, NULL, work);
	else
		json_add_uint(w, NULL, sl->work);
	json_add_uint(w, NULL, sl->ops);
	json_add_double(w, NULL, t1 > t0 ? work / (t1 - t0) : 0);
	if (sl->ops) {
		json_add_double(w, NULL, (double)series_slot_quantile(sl, 0.5) / 1e9);
		json_add_double(w, NULL, (double)series_slot_quantile(sl, 0.99) / 1e9);
		json_add_double(w, NULL, (double)sl->max_ns / 1e9);
	} else {
		for (int k = 0; k < 3; k++)
			json_add_null(w, NULL);
	}
	if (set && !m->gauges_only) {
		json_add_double(w, NULL, m->cpu_user);
		json_add_double(w, NULL, m->cpu_sys);
	} else {
		json_add_null(w, NULL);
		json_add_null(w, NULL);
	}
	json_kib_or_null(w, set, set ? m->dirty_kib : -1);
	json_kib_or_null(w, set, set ? m->writeback_kib : -1);
	json_kib_or_null(w, set, set ? m->file_dirty_kib : -1);
	json_kib_or_null(w, set, set ? m->file_writeback_kib : -1);
	for (int k = 0; k < 2; k++) {
		int64_t v = !set ? -1 : k ? m->dev_write_bytes : m->dev_read_bytes;

		if (v >= 0)
			json_add_double(w, NULL, (double)v / 1024.0);
		else
			json_add_null(w, NULL);
	}
	json_arr_end(w);
}

static const char *const series_columns[] = {
	"t_start_s", "t_end_s", "work", "ops", "rate", "lat_p50_s", "lat_p99_s", "lat_max_s",
	"cpu_user_s", "cpu_sys_s", "dirty_kib", "writeback_kib", "file_dirty_kib",
	"file_writeback_kib", "dev_read_kib", "dev_write_kib",
};

/* clyde-result/8: the phase over time (lib/series.h); null with --interval=off. */
static void json_series(struct json_writer *w, const struct phase_result *p, enum phase_id id)
{
	const struct series *s = p->series;
	bool in_bytes = phase_get(id)->unit == UNIT_KIB;

	if (!s) {
		json_add_null(w, "series");
		return;
	}
	json_obj_begin(w, "series");
	json_add_double(w, "interval_s", (double)s->width_ns / 1e9);
	json_add_bool(w, "interval_fixed", s->fixed);
	json_add_bool(w, "interval_capped", s->capped);
	json_add_str(w, "work_unit", amount_unit(id));
	json_add_double(w, "sampler_cpu_s", s->sampler_cpu_s);
	json_add_uint(w, "record_bytes", s->record_bytes);
	json_add_text(w, "dirty_source", s->dirty_source);
	json_add_text(w, "file_cache_source", s->file_source);
	json_add_text(w, "device_source", s->dev_source);
	json_arr_begin(w, "columns");
	for (size_t i = 0; i < sizeof(series_columns) / sizeof(series_columns[0]); i++)
		json_add_str(w, NULL, series_columns[i]);
	json_arr_end(w);
	json_arr_begin(w, "rows");
	for (unsigned i = 0; i < series_rows(s); i++)
		json_series_row(w, s, i, in_bytes);
	json_arr_end(w);
	json_obj_end(w);
}

/*
 * --steady: whether and when the phase settled, the steady window's
 * figures and the whole phase's rate ("rate" above is the window's when
 * it settled).
 */
static void json_steady(struct json_writer *w, const struct run_result *r,
			const struct phase_result *p)
{
	const struct phase_steady *st = &p->steady;
	const struct steady_spec *sp = &r->env.steady;

	json_obj_begin(w, "steady");
	json_add_str(w, "metric", steady_metric_name(sp));
	json_add_double(w, "pct", sp->pct);
	json_add_double(w, "window_s", sp->window_s);
	json_add_double(w, "max_s", sp->max_s);
	json_add_bool(w, "settled", st->settled);
	json_add_str(w, "end", st->end);
	json_known_or_null(w, "settled_at_s", st->settled, st->at_s);
	json_known_or_null(w, "window_start_s", st->settled, st->at_s - st->window_s);
	json_known_or_null(w, "steady_rate", st->settled, st->rate);
	json_known_or_null(w, "steady_p99_s", st->settled && st->p99_s >= 0, st->p99_s);
	json_known_or_null(w, "last_check_at_s", st->checks > 0, st->at_s);
	json_known_or_null(w, "last_window_rate", st->checks > 0, st->rate);
	json_known_or_null(w, "spread_pct", st->checks > 0 && st->spread_pct >= 0, st->spread_pct);
	json_add_uint(w, "checks", st->checks);
	json_add_double(w, "phase_rate", phase_whole_rate(p));
	json_add_double(w, "planned_amount", st->planned_amount);
	json_add_uint(w, "start_overs", st->start_overs);
	json_add_uint(w, "start_over_drops", st->start_over_drops);
	if (st->drop_method[0])
		json_add_str(w, "start_over_drop", st->drop_method);
	else
		json_add_null(w, "start_over_drop");
	json_obj_end(w);
}

/*
 * --latency-target and --open-loop (clyde-result/15): the search's
 * windows and the capacity at the bound, the open-loop steps and the
 * knee; rates in the phase's unit a second.
 */
static void json_capacity(struct json_writer *w, const struct capacity_result *c)
{
	json_obj_begin(w, "capacity");
	if (c->searched) {
		json_obj_begin(w, "search");
		json_add_double(w, "percentile", c->pct);
		json_add_double(w, "target_s", c->target_s);
		json_add_uint(w, "min_samples", c->min_samples);
		json_add_double(w, "unbounded_rate", c->unbounded_rate);
		json_add_bool(w, "met", c->met);
		json_add_double(w, "rate", c->rate);
		json_add_uint(w, "concurrency", c->conc);
		json_add_str(w, "concurrency_of", c->by_depth ? "iodepth" : "threads");
		json_arr_begin(w, "steps");
		for (unsigned i = 0; i < c->nsearch; i++) {
			const struct cap_search_step *st = &c->search[i];

			json_obj_begin(w, NULL);
			json_add_uint(w, "concurrency", st->conc);
			json_add_double(w, "rate", st->rate);
			json_add_double(w, "latency_s", st->latency_s);
			json_add_uint(w, "samples", st->samples);
			json_add_double(w, "seconds", st->seconds);
			json_add_bool(w, "within", st->within);
			json_add_bool(w, "few", st->few);
			json_obj_end(w);
		}
		json_arr_end(w);
		json_obj_end(w);
	}
	if (c->open) {
		json_obj_begin(w, "open_loop");
		json_add_str(w, "arrivals", capacity_arrivals_name(c->arrivals));
		json_add_str(w, "mode", c->sweep ? "sweep" : "rates");
		json_add_uint(w, "inflight", c->inflight);
		json_known_or_null(w, "knee", c->saturated, c->knee);
		json_add_bool(w, "saturated", c->saturated);
		json_add_bool(w, "timed_out", c->timed_out);
		if (c->note[0])
			json_add_str(w, "note", c->note);
		json_arr_begin(w, "steps");
		for (unsigned i = 0; i < c->nopen; i++) {
			const struct cap_open_step *st = &c->steps[i];

			json_obj_begin(w, NULL);
			json_add_double(w, "offered", st->offered);
			json_add_double(w, "achieved", st->achieved);
			json_add_double(w, "seconds", st->seconds);
			json_add_uint(w, "inflight", st->inflight);
			json_add_uint(w, "scheduled", st->scheduled);
			json_add_uint(w, "completed", st->completed);
			json_add_uint(w, "sent_late", st->sent_late);
			json_add_uint(w, "unsent", st->unsent);
			json_add_uint(w, "errors", st->errors);
			json_add_double(w, "p50_s", st->p50_s);
			json_add_double(w, "p99_s", st->p99_s);
			json_add_double(w, "p999_s", st->p999_s);
			json_add_double(w, "max_s", st->max_s);
			json_add_double(w, "service_p50_s", st->service_p50_s);
			json_add_double(w, "service_p99_s", st->service_p99_s);
			json_add_double(w, "service_p999_s", st->service_p999_s);
			json_add_double(w, "service_max_s", st->service_max_s);
			json_obj_end(w);
		}
		json_arr_end(w);
		json_obj_end(w);
	}
	json_obj_end(w);
}

void json_phase(struct json_writer *w, const struct run_result *r, enum phase_id id)
{
	const struct phase_result *p = &r->phase[id];
	const struct phase_def *desc = phase_get(id);
	double ceiling = phase_ceiling(r, id);
	double cpu = p->cpu_user + p->cpu_sys;
	bool in_mib = desc->unit == UNIT_KIB;
	char rate_unit[32];

	json_obj_begin(w, phase_csv_name(id));
	json_add_bool(w, "ran", p->ran);
	if (!p->ran) {
		json_add_null(w, "series");
		json_obj_end(w);
		return;
	}
	json_add_double(w, "elapsed_s", p->elapsed);
	json_add_double(w, "amount", p->amount);
	json_add_str(w, "amount_unit", amount_unit(id));
	json_add_double(w, "rate", phase_rate(p));
	snprintf(rate_unit, sizeof(rate_unit), "%s/s", amount_unit(id));
	json_add_str(w, "rate_unit", rate_unit);
	json_add_bool(w, "too_short", p->elapsed < MIN_REPORT_SECONDS);
	json_add_int(w, "cpu_percent", phase_cpu_percent(p));
	json_add_double(w, "cpu_user_s", p->cpu_user);
	json_add_double(w, "cpu_sys_s", p->cpu_sys);
	json_add_double(w, "cpu_window_s", p->cpu_window);
	json_known_or_null(w, "stall_reader_cpu_s", p->stall_reader_cpu_s >= 0,
			   p->stall_reader_cpu_s);
	json_add_double(w, "cpu_us_per_unit",
			p->amount > 0 ? cpu * 1e6 / (in_mib ? p->amount / 1024.0 : p->amount) : 0);
	json_add_str(w, "cpu_unit", in_mib ? "MiB" : amount_unit(id));
	json_add_double(w, "dead_s", phase_dead_time(p));
	json_add_double(w, "flush_s", p->flush);
	json_add_double(w, "max_latency_us", p->max_latency * 1e6);
	json_latency(w, p->latency_count, p->latency_q, p->max_latency);
	json_add_uint(w, "mismatches", p->mismatches);
	/* "short" is /2's name of "too_short"; both stay for readers of either */
	json_add_bool(w, "short", p->elapsed < MIN_REPORT_SECONDS);
	json_add_fixed(w, "start_s", p->t_start, 6);
	json_add_fixed(w, "end_s", p->t_end, 6);
	if (p->residency_measured)
		json_phase_cache(w, p, id);
	if (p->backing_measured)
		json_phase_backing_cache(w, p);
	if (p->arc_valid) {
		json_obj_begin(w, "arc");
		json_add_uint(w, "hits", p->arc_hits);
		json_add_uint(w, "misses", p->arc_misses);
		json_obj_end(w);
	}
	if (p->profile.valid)
		json_profile(w, r, id);
	if (p->nworkers)
		json_workers(w, p);
	if (p->tree.valid)
		json_tree_phase(w, p);
	if (phase_family(id)->counts_passes)
		json_add_uint(w, "passes", p->passes ? p->passes : 1);
	if (p->estimate_s > 0)
		json_add_double(w, "estimate_s", p->estimate_s);
	if (p->time_box_s > 0) {
		json_obj_begin(w, "time_box");
		json_add_double(w, "seconds", p->time_box_s);
		json_add_bool(w, "cut", p->limit_cut);
		json_known_or_null(w, "amount_at_limit", p->at_deadline >= 0, p->at_deadline);
		json_obj_end(w);
	}
	if (r->env.stonewall_s > 0 && (desc->flags & PF_STONEWALL))
		json_stonewall(w, r, p, r->env.stonewall_s);
	if (r->cluster && r->cluster->phase[id].rank)
		json_cluster_phase(w, r->cluster, id);
	if (ceiling > 0)
		json_add_double(w, "ceiling_fraction", phase_rate(p) / ceiling);
	if (p->steady.on)
		json_steady(w, r, p);
	if (p->capacity)
		json_capacity(w, p->capacity);
	json_series(w, p, id);
	json_obj_end(w);
}
