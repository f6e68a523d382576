// SPDX-License-Identifier: BSD-2-Clause
/*
 * The JSON document: everything the CSV has, plus what it cannot hold.
 * A pure function of the runs; keys are documented in clyde(1).
 */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format.h"
#include "phase.h"
#include "placement.h"
#include "size.h"

/*
 * clyde-result/2 added, per phase, "short", "cache" (residency before the
 * phase) and "arc"; per run, cache.outcome/resident_worst_pct and
 * "counts" (how seeks and files were chosen); per phase start_s and
 * end_s on CLOCK_MONOTONIC, comparable between processes of one machine. Readers of /1 find every /1
 * field unchanged.
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
#define JSON_SCHEMA "clyde-result/7"

static void json_string(FILE *out, const char *s)
{
	fputc('"', out);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			fprintf(out, "\\%c", c);
		else if (c < 0x20)
			fprintf(out, "\\u%04x", c);
		else
			fputc(c, out);
	}
	fputc('"', out);
}

static void json_number(FILE *out, double v)
{
	/* Enough digits for a microsecond of a day, without exponents for counts. */
	fprintf(out, "%.9g", v);
}

/* A number, or null where the figure is unknown (negative). */
static void json_known_or_null(FILE *out, bool known, double v)
{
	if (known)
		json_number(out, v);
	else
		fputs("null", out);
}

static void json_known(FILE *out, const char *key, double v)
{
	if (key)
		fprintf(out, ", \"%s\": ", key);
	if (v < 0)
		fputs("null", out);
	else
		json_number(out, v);
}

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

static void json_profile_machine(FILE *out, const struct phase_profile *pp)
{
	fputs(", \"machine\": ", out);
	if (!pp->machine_valid) {
		fputs("null, \"machine_why\": ", out);
		json_string(out, pp->machine_why);
		return;
	}
	fprintf(out, "{\"cpus\": %u, \"ticks_per_s\": ", pp->ncpu);
	json_number(out, pp->hz);
	json_known(out, "total_s", pp->machine_total_s);
	for (int i = 0; i < CPU_STATES; i++)
		json_known(out, cpu_keys[i], pp->cpu_known[i] ? pp->cpu_s[i] : -1);
	fprintf(out, ", \"counters_backwards\": %s}", pp->cpu_backwards ? "true" : "false");
}

static void json_profile_groups(FILE *out, const struct phase_profile *pp)
{
	fputs(", \"groups\": ", out);
	if (!pp->groups_valid) {
		fputs("null, \"groups_why\": ", out);
		json_string(out, pp->groups_why);
		return;
	}
	fputc('{', out);
	for (int g = 0; g < PROF_GROUPS; g++) {
		fprintf(out, "%s\"%s\": ", g ? ", " : "", group_keys[g]);
		json_number(out, pp->group_s[g]);
	}
	fputs(", \"unattributed_s\": ", out);
	if (pp->machine_valid)
		json_number(out, pp->unattributed_s);
	else
		fputs("null", out);
	fprintf(out, ", \"tasks_new\": %u, \"tasks_exited\": %u, \"kworkers_unnamed\": %u"
		", \"top\": [", pp->tasks_new, pp->tasks_exited, pp->kworkers_unnamed);
	for (unsigned k = 0; k < pp->ntop; k++) {
		fputs(k ? ", {\"name\": " : "{\"name\": ", out);
		json_string(out, pp->top[k].name);
		fputs(", \"group\": ", out);
		json_string(out, prof_group_name(pp->top[k].group));
		fputs(", \"s\": ", out);
		json_number(out, pp->top[k].s);
		fputc('}', out);
	}
	fputs("]}", out);
}

static const char *const perf_keys[PERF_COUNTERS] = {
	[PERF_TASK_CLOCK] = "task_clock_s", [PERF_CTX_SWITCHES] = "context_switches",
	[PERF_MIGRATIONS] = "cpu_migrations", [PERF_PAGE_FAULTS] = "page_faults",
	[PERF_CYCLES] = "cycles", [PERF_INSTRUCTIONS] = "instructions",
};

static void json_profile_perf(FILE *out, const struct phase_profile *pp,
			      const struct profile_derived *d)
{
	fputs(", \"perf\": {", out);
	for (int i = 0; i < PERF_COUNTERS; i++) {
		fprintf(out, "%s\"%s\": ", i ? ", " : "", perf_keys[i]);
		if (!pp->perf_valid[i])
			fputs("null", out);
		else if (i == PERF_TASK_CLOCK)
			json_number(out, (double)pp->perf[i] / 1e9);
		else
			fprintf(out, "%" PRIu64, pp->perf[i]);
	}
	fprintf(out, ", \"per\": \"%s\"", d->per_op);
	json_known(out, "cycles_per_op", d->cycles_per_op);
	json_known(out, "instructions_per_op", d->instructions_per_op);
	fputs(", \"software_why\": ", out);
	json_string(out, pp->perf_sw_why);
	fputs(", \"hardware_why\": ", out);
	json_string(out, pp->perf_hw_why);
	fputc('}', out);
}

static void json_profile_device(FILE *out, const struct phase_profile *pp,
				const struct profile_derived *d)
{
	const struct prof_devices *dv = &pp->devs;
	static const char *const states[] = {
		[PROF_DEV_MEASURED] = "measured", [PROF_DEV_NONE] = "no block device",
		[PROF_DEV_UNKNOWN] = "unknown",
	};

	fprintf(out, ", \"device\": {\"state\": \"%s\", \"why\": ", states[dv->state]);
	json_string(out, dv->why);
	fputs(", \"names\": [", out);
	for (unsigned k = 0; k < dv->count; k++) {
		if (k)
			fputs(", ", out);
		json_string(out, dv->name[k]);
	}
	fputs("], \"via\": ", out);
	json_string(out, dv->via);
	fputs(", \"shared\": ", out);
	json_string(out, dv->shared);
	if (pp->dev_valid) {
		fprintf(out, ", \"read_ios\": %" PRIu64 ", \"read_bytes\": %" PRIu64
			", \"write_ios\": %" PRIu64 ", \"write_bytes\": %" PRIu64,
			pp->dev.rd_ios, pp->dev.rd_bytes, pp->dev.wr_ios, pp->dev.wr_bytes);
		if (pp->dev.discard_known)
			fprintf(out, ", \"discard_ios\": %" PRIu64 ", \"discard_bytes\": %" PRIu64,
				pp->dev.discard_ios, pp->dev.discard_bytes);
		else
			fputs(", \"discard_ios\": null, \"discard_bytes\": null", out);
		json_known(out, "busy_s", (double)pp->dev.busy_ms / 1e3);
		json_known(out, "write_amplification", d->write_amp);
		json_known(out, "read_amplification", d->read_amp);
	}
	fputc('}', out);
}

static void json_profile(FILE *out, const struct run_result *r, enum phase_id id)
{
	const struct phase_profile *pp = &r->phase[id].profile;
	struct profile_derived d;

	profile_derive(r, id, &d);
	fputs(", \"profile\": {\"window_s\": ", out);
	json_number(out, pp->window_s);
	fputs(", \"sampler\": {\"cpu_s\": ", out);
	json_number(out, pp->sampler_cpu_s);
	fputs(", \"wall_s\": ", out);
	json_number(out, pp->sampler_wall_s);
	json_known(out, "fraction", pp->window_s > 0 ? pp->sampler_cpu_s / pp->window_s : -1);
	fputs("}, \"process\": {\"user_s\": ", out);
	json_number(out, pp->self_user_s);
	fputs(", \"sys_s\": ", out);
	json_number(out, pp->self_sys_s);
	json_known(out, "io_uring_s", pp->uring_s);
	fprintf(out, ", \"voluntary_switches\": %" PRIu64 ", \"involuntary_switches\": %" PRIu64
		", \"minor_faults\": %" PRIu64 ", \"major_faults\": %" PRIu64 "}",
		pp->nvcsw, pp->nivcsw, pp->minflt, pp->majflt);
	json_profile_machine(out, pp);
	json_profile_groups(out, pp);
	json_known(out, "caused_s", d.caused_s);
	json_known(out, "outside_s", d.outside_s);
	json_known(out, "outside_fraction", d.outside_fraction);
	fprintf(out, ", \"per_unit\": {\"unit\": \"%s\"", d.unit);
	json_known(out, "clyde_s", d.self_per_unit);
	json_known(out, "caused_s", d.caused_per_unit);
	fputc('}', out);
	json_profile_perf(out, pp, &d);
	json_profile_device(out, pp, &d);
	fputc('}', out);
}

/* "latency_us": the count, the percentiles and the maximum, in microseconds. */
static void json_latency(FILE *out, uint64_t count, const double q_s[LAT_QUANTILES], double max_s)
{
	fprintf(out, ", \"latency_us\": {\"count\": %" PRIu64, count);
	for (int q = 0; q < LAT_QUANTILES; q++) {
		fprintf(out, ", \"%s\": ", latency_quantile_names[q]);
		json_number(out, q_s[q] * 1e6);
	}
	fputs(", \"max\": ", out);
	json_number(out, max_s * 1e6);
	fputc('}', out);
}

/* A tree phase's work and each kind of operation it issued. */
static void json_tree_phase(FILE *out, const struct phase_result *p)
{
	const struct phase_tree *t = &p->tree;
	bool first = true;

	fprintf(out, ", \"tree\": {\"files\": %" PRIu64 ", \"dirs\": %" PRIu64
		", \"entries\": %" PRIu64 ", \"bytes\": %" PRIu64 ", \"mib_per_s\": ",
		t->files, t->dirs, t->entries, t->bytes);
	json_number(out, p->elapsed > 0 ? (double)t->bytes / 1048576.0 / p->elapsed : 0);
	fputs(", \"ops\": {", out);
	for (int k = 0; k <= TOP_KINDS; k++) {
		const struct tree_op_result *o = k < TOP_KINDS ? &t->op[k] : &t->list;

		if (!o->count)
			continue;
		fprintf(out, "%s\"%s\": {\"via_ring\": %" PRIu64, first ? "" : ", ",
			k < TOP_KINDS ? tree_op_name((enum tree_op_kind)k) : "list", o->via_ring);
		json_latency(out, o->count, o->latency_q, o->max_latency);
		fputc('}', out);
		first = false;
	}
	fputs("}}", out);
}

/* The generated tree: the same shape, scale and seed give the same listing hash. */
static void json_tree(FILE *out, const struct run_tree *t)
{
	fputs(",\n      \"tree\": ", out);
	if (!t->on) {
		fputs("null", out);
		return;
	}
	fputs("{\"shape\": ", out);
	json_string(out, t->shape);
	fputs(", \"scale\": ", out);
	json_number(out, t->scale);
	fprintf(out, ", \"seed\": %" PRIu64 ", \"dirs\": %" PRIu32 ", \"files\": %" PRIu32
		", \"max_depth\": %" PRIu32 ", \"bytes\": %" PRIu64 ", \"hash\": \"%016" PRIx64
		"\", \"io\": ", t->seed, t->dirs, t->files, t->max_depth, t->bytes, t->hash);
	json_string(out, t->io);
	fprintf(out, ", \"depth\": %u, \"io_description\": ", t->depth);
	json_string(out, t->io_desc);
	fputs(", \"walk_cache\": ", out);
	json_string(out, t->walk_cache);
	fputc('}', out);
}

static void json_workers(FILE *out, const struct phase_result *p)
{
	fputs(", \"workers\": [", out);
	for (unsigned k = 0; k < p->nworkers; k++) {
		const struct worker_result *w = &p->workers[k];

		fprintf(out, "%s{\"index\": %u, \"start_s\": %.6f, \"end_s\": %.6f, \"amount\": ",
			k ? ", " : "", k, w->t_start, w->t_end);
		json_number(out, w->amount);
		fputs(", \"rate\": ", out);
		json_number(out, worker_rate(w));
		fputs(", \"cpu_s\": ", out);
		json_number(out, w->cpu_s);
		json_latency(out, w->latency_count, w->latency_q, w->max_latency);
		fputs(", \"cpus\": ", out);
		json_string(out, w->cpus);
		fputs(", \"cpu_first\": ", out);
		json_known(out, NULL, w->cpu_first);
		fputs(", \"cpu_last\": ", out);
		json_known(out, NULL, w->cpu_last);
		fputs(", \"ran_on\": ", out);
		json_string(out, w->ran_on);
		fputs(", \"buffer_node\": ", out);
		json_known(out, NULL, w->buffer_node);
		fputs(", \"note\": ", out);
		json_string(out, w->note);
		fputc('}', out);
	}
	fputc(']', out);
}

/* What --stonewall's limit found done, this process's or all ranks'. */
static void json_stonewall(FILE *out, const struct run_result *r, const struct phase_result *p,
			   double seconds)
{
	fputs(", \"stonewall\": {\"seconds\": ", out);
	json_number(out, seconds);
	fputs(", \"amount_at_limit\": ", out);
	if (p->at_deadline < 0 && !r->cluster) {
		fputs("null", out);
	} else if (r->cluster) {
		const struct cluster_phase *cp = &r->cluster->phase[p - r->phase];
		double sum = 0;
		bool hit = cp->rank != NULL;

		for (unsigned k = 0; hit && k < r->cluster->ranks; k++) {
			hit = cp->rank[k].at_deadline >= 0;
			sum += cp->rank[k].at_deadline;
		}
		if (hit)
			json_number(out, sum);
		else
			fputs("null", out);
	} else {
		json_number(out, p->at_deadline);
	}
	fputc('}', out);
}

/* Under mpirun: the aggregate's views and every rank's part of the phase. */
static void json_cluster_phase(FILE *out, const struct cluster_run *c, enum phase_id id)
{
	const struct cluster_phase *cp = &c->phase[id];
	const struct aggregate *a = &cp->agg;

	fprintf(out, ", \"cluster\": {\"ranks\": %u, \"first_start_s\": %.6f, \"last_start_s\": "
		"%.6f, \"first_end_s\": %.6f, \"last_end_s\": %.6f, \"rate\": ", a->ranks,
		a->first_start, a->last_start, a->first_end, a->last_end);
	json_number(out, a->rate);
	fputs(", \"stonewall_amount\": ", out);
	json_known_or_null(out, a->stonewall_known, a->stonewall_amount);
	fputs(", \"stonewall_rate\": ", out);
	json_known_or_null(out, a->stonewall_known, a->stonewall_rate);
	fputs(", \"sum_of_rates\": ", out);
	json_number(out, a->sum_of_rates);
	fputs(", \"hosts\": [", out);
	for (unsigned h = 0; h < c->hosts; h++) {
		double user, sys;

		cluster_host_cpu(c, id, h, &user, &sys);
		fprintf(out, "%s{\"host\": ", h ? ", " : "");
		json_string(out, c->host[h]);
		fputs(", \"cpu_user_s\": ", out);
		json_number(out, user);
		fputs(", \"cpu_sys_s\": ", out);
		json_number(out, sys);
		fputc('}', out);
	}
	fputs("], \"ranks_detail\": [", out);
	for (unsigned k = 0; k < c->ranks; k++) {
		const struct rank_result *rr = &cp->rank[k];
		double len = rr->p.t_end - rr->p.t_start;

		fprintf(out, "%s{\"rank\": %u, \"host\": ", k ? ", " : "", k);
		json_string(out, c->host[c->rank_host[k]]);
		fprintf(out, ", \"start_s\": %.6f, \"end_s\": %.6f, \"amount\": ", rr->p.t_start,
			rr->p.t_end);
		json_number(out, rr->p.amount);
		fputs(", \"rate\": ", out);
		json_number(out, len > 0 ? rr->p.amount / len : 0);
		fputs(", \"amount_at_first_end\": ", out);
		json_known_or_null(out, rr->p.amount_at_first_end >= 0, rr->p.amount_at_first_end);
		fputs(", \"cpu_user_s\": ", out);
		json_number(out, rr->p.cpu_user);
		fputs(", \"cpu_sys_s\": ", out);
		json_number(out, rr->p.cpu_sys);
		fputs(", \"flush_s\": ", out);
		json_number(out, rr->flush);
		if (rr->at_deadline >= 0 || c->stonewall_s > 0) {
			fputs(", \"amount_at_limit\": ", out);
			json_known_or_null(out, rr->at_deadline >= 0, rr->at_deadline);
		}
		json_latency(out, rr->latency_count, rr->latency_q, rr->max_latency);
		fputc('}', out);
	}
	fputs("]}", out);
}

/* The ranks of the run under mpirun, or null alone. */
static void json_cluster(FILE *out, const struct cluster_run *c)
{
	fputs(",\n      \"cluster\": ", out);
	if (!c) {
		fputs("null", out);
		return;
	}
	fprintf(out, "{\"ranks\": %u, \"workers_per_rank\": %u, \"read_other\": %d, "
		"\"stonewall_s\": ", c->ranks, c->workers, c->read_other);
	json_number(out, c->stonewall_s);
	fputs(", \"hosts\": [", out);
	for (unsigned h = 0; h < c->hosts; h++) {
		fputs(h ? ", " : "", out);
		json_string(out, c->host[h]);
	}
	fputs("], \"rank_hosts\": [", out);
	for (unsigned k = 0; k < c->ranks; k++) {
		fputs(k ? ", " : "", out);
		json_string(out, c->host[c->rank_host[k]]);
	}
	fputs("], \"clock_offsets_s\": [", out);
	for (unsigned k = 0; k < c->ranks; k++)
		fprintf(out, "%s%.9f", k ? ", " : "", c->offset[k]);
	fputs("]}", out);
}

static void json_topology(FILE *out, const struct topo_model *m)
{
	fputs(",\n      \"topology\": ", out);
	if (!m) {
		fputs("null", out);
		return;
	}
	fputs("{\"source\": ", out);
	json_string(out, m->source ? m->source : "");
	fputs(", \"packages\": ", out);
	json_known(out, NULL, m->npackages ? (double)m->npackages : -1);
	fputs(", \"numa_nodes\": ", out);
	json_known(out, NULL, m->nnodes ? (double)m->nnodes : -1);
	fputs(", \"cores\": ", out);
	json_known(out, NULL, m->ncores ? (double)m->ncores : -1);
	fprintf(out, ", \"threads\": %u, \"nodes\": [", m->npus);
	for (unsigned i = 0; i < m->nnodes; i++) {
		struct cpu_mask c = { { 0 } };
		char list[256];

		for (unsigned k = 0; k < m->npus; k++)
			if (m->pu[k].node == m->node[i].os)
				mask_set(&c, (unsigned)m->pu[k].os);
		mask_format(&c, list, sizeof(list));
		fprintf(out, "%s{\"os_index\": %d, \"cpus\": ", i ? ", " : "", m->node[i].os);
		json_string(out, list);
		fputs(", \"mem_bytes\": ", out);
		json_known(out, NULL, m->node[i].mem_bytes ? (double)m->node[i].mem_bytes : -1);
		fputc('}', out);
	}
	fputs("], \"caches\": [", out);
	for (unsigned i = 0; i < m->ncaches; i++)
		fprintf(out, "%s{\"level\": %d, \"type\": \"%s\", \"size\": %llu}",
			i ? ", " : "", m->cache[i].level, m->cache[i].type == 'd' ? "data" :
			m->cache[i].type == 'i' ? "instruction" : "unified",
			(unsigned long long)m->cache[i].size);
	fputs("], \"device_node\": ", out);
	json_known(out, NULL, m->device_node);
	fputs(", \"device_why\": ", out);
	json_string(out, m->device_why);
	fputs(", \"unknown\": ", out);
	json_string(out, m->unknown);
	fputc('}', out);
}

static void json_placement(FILE *out, const struct run_env *e)
{
	const struct place_plan *pl = e->place;

	fputs(",\n      \"placement\": ", out);
	if (!pl) {
		fputs("null", out);
		return;
	}
	fputs("{\"summary\": ", out);
	json_string(out, pl->summary);
	fprintf(out, ", \"binds\": %s, \"workers\": [", pl->any_binding ? "true" : "false");
	for (unsigned i = 0; i < pl->workers; i++) {
		const struct place_worker *w = &pl->w[i];
		static const char *const mems[] = {
			[MEM_DEFAULT] = "default", [MEM_LOCAL] = "local",
			[MEM_INTERLEAVE] = "interleave", [MEM_BIND] = "bind",
		};
		char list[256];

		mask_format(&w->cpus, list, sizeof(list));
		fprintf(out, "%s{\"index\": %u, \"cpus\": ", i ? ", " : "", i);
		if (w->bind)
			json_string(out, list);
		else
			fputs("null", out);
		fputs(", \"core\": ", out);
		json_known(out, NULL, w->core);
		fputs(", \"node\": ", out);
		json_known(out, NULL, w->node);
		mask_format(&w->mem_nodes, list, sizeof(list));
		fprintf(out, ", \"memory\": \"%s\", \"memory_nodes\": ", mems[w->mem]);
		json_string(out, list);
		fputc('}', out);
	}
	fputs("]}", out);
}

static const char *amount_unit(enum phase_id id)
{
	return phase_unit_names(id)->amount;
}

static void json_phase(FILE *out, const struct run_result *r, enum phase_id id)
{
	const struct phase_result *p = &r->phase[id];
	double ceiling = phase_ceiling(r, id);
	double cpu = p->cpu_user + p->cpu_sys;

	fprintf(out, "{\"ran\": %s", p->ran ? "true" : "false");
	if (!p->ran) {
		fputc('}', out);
		return;
	}
	fputs(", \"elapsed_s\": ", out);
	json_number(out, p->elapsed);
	fprintf(out, ", \"amount\": ");
	json_number(out, p->amount);
	fprintf(out, ", \"amount_unit\": \"%s\", \"rate\": ", amount_unit(id));
	json_number(out, phase_rate(p));
	fprintf(out, ", \"rate_unit\": \"%s/s\", \"too_short\": %s", amount_unit(id),
		p->elapsed < MIN_REPORT_SECONDS ? "true" : "false");
	fprintf(out, ", \"cpu_percent\": %d, \"cpu_user_s\": ", phase_cpu_percent(p));
	json_number(out, p->cpu_user);
	fputs(", \"cpu_sys_s\": ", out);
	json_number(out, p->cpu_sys);
	fputs(", \"cpu_window_s\": ", out);
	json_number(out, p->cpu_window);
	fputs(", \"cpu_us_per_unit\": ", out);
	json_number(out, p->amount > 0 ? cpu * 1e6 / (phase_get(id)->unit == UNIT_KIB ? p->amount / 1024.0 : p->amount) : 0);
	fprintf(out, ", \"cpu_unit\": \"%s\"",
		phase_get(id)->unit == UNIT_KIB ? "MiB" : amount_unit(id));
	fputs(", \"dead_s\": ", out);
	json_number(out, phase_dead_time(p));
	fputs(", \"flush_s\": ", out);
	json_number(out, p->flush);
	fputs(", \"max_latency_us\": ", out);
	json_number(out, p->max_latency * 1e6);
	json_latency(out, p->latency_count, p->latency_q, p->max_latency);
	fprintf(out, ", \"mismatches\": %" PRIu64, p->mismatches);
	fprintf(out, ", \"short\": %s", p->elapsed < MIN_REPORT_SECONDS ? "true" : "false");
	fprintf(out, ", \"start_s\": %.6f, \"end_s\": %.6f", p->t_start, p->t_end);
	if (p->residency_measured) {
		fputs(", \"cache\": {\"method\": ", out);
		json_string(out, p->residency_method);
		fputs(", \"resident_pct\": ", out);
		if (p->resident_pct < 0) {
			fputs("null, \"why\": ", out);
			json_string(out, p->residency_why);
		} else {
			json_number(out, p->resident_pct);
		}
		/* the big file's phases: the bytes measured, what that phase reads */
		if (id < PH_FIRST_TREE)
			fprintf(out, ", \"range_offset\": %" PRIu64 ", \"range_bytes\": %" PRIu64
				", \"file_bytes\": %" PRIu64, p->residency_range_offset,
				p->residency_range_bytes, p->residency_file_bytes);
		fputc('}', out);
	}
	if (p->arc_valid)
		fprintf(out, ", \"arc\": {\"hits\": %" PRIu64 ", \"misses\": %" PRIu64 "}",
			p->arc_hits, p->arc_misses);
	if (p->profile.valid)
		json_profile(out, r, id);
	if (p->nworkers)
		json_workers(out, p);
	if (p->tree.valid)
		json_tree_phase(out, p);
	if (phase_get(id)->family == FAMILY_FILE)
		fprintf(out, ", \"passes\": %" PRIu32, p->passes ? p->passes : 1);
	if (p->estimate_s > 0) {
		fputs(", \"estimate_s\": ", out);
		json_number(out, p->estimate_s);
	}
	if (p->time_box_s > 0) {
		fputs(", \"time_box\": {\"seconds\": ", out);
		json_number(out, p->time_box_s);
		fprintf(out, ", \"cut\": %s, \"amount_at_limit\": ",
			p->limit_cut ? "true" : "false");
		json_known_or_null(out, p->at_deadline >= 0, p->at_deadline);
		fputc('}', out);
	}
	if (r->env.stonewall_s > 0 && (phase_get(id)->family == FAMILY_PERCHAR ||
					 phase_get(id)->family == FAMILY_BLOCK))
		json_stonewall(out, r, p, r->env.stonewall_s);
	if (r->cluster && r->cluster->phase[id].rank)
		json_cluster_phase(out, r->cluster, id);
	if (ceiling > 0) {
		fputs(", \"ceiling_fraction\": ", out);
		json_number(out, phase_rate(p) / ceiling);
	}
	fputc('}', out);
}

/* Where and why a run stopped; null for one that finished. */
static void json_failure(FILE *out, const struct run_failure *f)
{
	if (!f->failed) {
		fputs("null", out);
		return;
	}
	fputs("{\"phase\": ", out);
	if (f->phase >= 0)
		json_string(out, phase_csv_name((enum phase_id)f->phase));
	else
		fputs("null", out);
	fputs(", \"path\": ", out);
	if (f->path[0])
		json_string(out, f->path);
	else
		fputs("null", out);
	fputs(", \"offset\": ", out);
	if (f->offset >= 0)
		fprintf(out, "%" PRId64, f->offset);
	else
		fputs("null", out);
	fputs(", \"errno\": ", out);
	if (f->err < 0)
		fprintf(out, "%d, \"error\": ", -f->err);
	else
		fputs("null, \"error\": ", out);
	if (f->err < 0)
		json_string(out, strerror(-f->err));
	else
		fputs("null", out);
	fputs(", \"message\": ", out);
	json_string(out, f->message);
	fprintf(out, ", \"exit_status\": %d}", f->exit_status);
}

static void json_run(FILE *out, const struct run_result *r, const struct format_opts *fo)
{
	const struct run_params *p = &r->params;
	const struct run_env *e = &r->env;
	char *csv = NULL;
	size_t len = 0;
	FILE *m;

	fprintf(out, "    {\n      \"name\": ");
	json_string(out, p->name);
	fprintf(out, ",\n      \"seed\": %" PRIu32 ",\n      \"concurrency\": %u,\n", p->seed, p->concurrency);
	fprintf(out, "      \"io\": {\"size_mib\": %" PRIu64 ", \"chunk\": %" PRIu32
		", \"seeks\": %" PRIu32 ", \"seekers\": %" PRIu32 "},\n",
		p->size_mib, p->chunk, p->seeks, p->seekers);
	fprintf(out, "      \"files\": {\"number\": %" PRIu32 ", \"max_size\": %" PRId64
		", \"min_size\": %" PRId64 ", \"dirs\": %" PRIu32 ", \"chunk\": %" PRIu32 "},\n",
		p->files, p->file_max, p->file_min, p->file_dirs, p->file_chunk);
	fprintf(out, "      \"engine\": {\"name\": ");
	json_string(out, e->engine);
	fprintf(out, ", \"description\": ");
	json_string(out, e->engine_desc);
	fprintf(out, ", \"iodepth\": %u, \"direct\": %s},\n", e->iodepth, e->direct ? "true" : "false");
	fprintf(out, "      \"cache\": {\"mode\": ");
	json_string(out, e->cache);
	fprintf(out, ", \"description\": ");
	json_string(out, e->cache_note);
	fprintf(out, ", \"outcome\": ");
	json_string(out, e->cache_outcome);
	fprintf(out, ", \"resident_worst_pct\": ");
	if (e->resident_known)
		json_number(out, e->resident_worst);
	else
		fputs("null", out);
	fprintf(out, "},\n      \"counts\": {\"seeks_timed\": %s, \"files_calibrated\": %s",
		e->seeks_timed ? "true" : "false", e->files_calibrated ? "true" : "false");
	fprintf(out, ", \"size_note\": ");
	json_string(out, e->size_note);
	fprintf(out, ", \"files_note\": ");
	json_string(out, e->files_note);
	fprintf(out, "},\n      \"perchar\": \"%s\",\n", e->perchar_stdio ? "stdio" : "syscall");
	fprintf(out, "      \"filesystem\": {\"type\": ");
	json_string(out, e->fs_type);
	fprintf(out, ", \"source\": ");
	json_string(out, e->fs_source);
	fprintf(out, ", \"mountpoint\": ");
	json_string(out, e->fs_mountpoint);
	fprintf(out, ", \"options\": ");
	json_string(out, e->fs_options);
	fprintf(out, "},\n      \"machine\": {\"cpus\": %u, \"ram_bytes\": %" PRIu64 ", \"os\": ",
		e->cpus, e->ram_bytes);
	json_string(out, e->os);
	fputs(", \"kernel\": ", out);
	json_string(out, e->kernel);
	fputs(", \"arch\": ", out);
	json_string(out, e->arch);
	fputs(", \"cpu_model\": ", out);
	json_string(out, e->cpu_model);
	fputs("},\n      \"device\": ", out);
	if (e->blockdev[0]) {
		fputs("{\"name\": ", out);
		json_string(out, e->blockdev);
		if (e->driver[0]) {	/* the BSDs only: Linux's object is unchanged */
			fputs(", \"driver\": ", out);
			json_string(out, e->driver);
		}
		fputs(", \"rotational\": ", out);
		fputs(e->rotational < 0 ? "null" : e->rotational ? "true" : "false", out);
		fputs(", \"scheduler\": ", out);
		json_string(out, e->scheduler);
		fprintf(out, ", \"read_ahead_kb\": %d}", e->read_ahead_kb);
	} else {
		fputs("null", out);
	}
	json_topology(out, e->topo);
	json_placement(out, e);
	json_tree(out, &r->tree);
	json_cluster(out, r->cluster);
	fputs(",\n      \"ceilings\": ", out);
	if (e->ceil_syscall_ns > 0) {
		fputs("{\"syscall_ns\": ", out);
		json_number(out, e->ceil_syscall_ns);
		fputs(", \"copy_bytes_per_s\": ", out);
		json_number(out, e->ceil_copy_bps);
		fputc('}', out);
	} else {
		fputs("null", out);
	}
	fprintf(out, ",\n      \"data\": {\"pattern\": ");
	json_string(out, e->data);
	fprintf(out, ", \"verify\": %s, \"mismatches\": %" PRIu64 "},\n",
		e->verify ? "true" : "false", r->mismatches);
	fprintf(out, "      \"phases\": {\n");
	/* the tree phases are listed only in a run with --tree */
	for (int i = 0, last = r->tree.on ? PH_COUNT : PH_BONNIE_COUNT; i < last; i++) {
		fprintf(out, "        \"%s\": ", phase_csv_name((enum phase_id)i));
		json_phase(out, r, (enum phase_id)i);
		fputs(i + 1 < last ? ",\n" : "\n", out);
	}
	fprintf(out, "      },\n      \"failure\": ");
	json_failure(out, &r->failure);
	fprintf(out, ",\n      \"csv\": ");
	m = r->failure.failed ? NULL : open_memstream(&csv, &len);
	if (m) {
		format_csv(m, r, fo);
		fclose(m);
		if (len && csv[len - 1] == '\n')
			csv[len - 1] = '\0';
		json_string(out, csv);
		free(csv);
	} else {
		fputs("null", out);
	}
	fputs("\n    }", out);
}

void format_json(FILE *out, const struct run_result *runs, unsigned count,
		 const struct format_opts *fo, int exit_status, const char *stopped)
{
	fprintf(out, "{\n  \"schema\": \"" JSON_SCHEMA "\",\n  \"clyde_version\": ");
	json_string(out, PACKAGE_VERSION);
	fprintf(out, ",\n  \"warmup\": %s", count && runs[0].env.warmup ? "true" : "false");
	fprintf(out, ",\n  \"exit_status\": %d,\n  \"stopped\": ", exit_status);
	if (stopped)
		json_string(out, stopped);
	else
		fputs("null", out);
	fputs(",\n  \"plan\": ", out);
	if (fo->estimate_s > 0) {
		fputs("{\"estimate_s\": ", out);
		json_number(out, fo->estimate_s);
		fputs(", \"calibration_s\": ", out);
		json_number(out, fo->calibration_s);
		fputc('}', out);
	} else {
		fputs("null", out);
	}
	fputs(",\n  \"elapsed_s\": ", out);
	json_known_or_null(out, fo->elapsed_s > 0, fo->elapsed_s);
	fputs(",\n  \"runs\": [\n", out);
	for (unsigned i = 0; i < count; i++) {
		json_run(out, &runs[i], fo);
		fputs(i + 1 < count ? ",\n" : "\n", out);
	}
	fputs("  ],\n  \"summary\": {\n", out);
	for (int i = 0, last = count && runs[0].tree.on ? PH_COUNT : PH_BONNIE_COUNT; i < last; i++) {
		struct phase_summary s;

		summarize_phase(runs, count, (enum phase_id)i, &s);
		fprintf(out, "    \"%s\": {\"runs\": %u", phase_csv_name((enum phase_id)i), s.runs);
		if (s.runs) {
			fputs(", \"median\": ", out);
			json_number(out, s.median);
			fputs(", \"min\": ", out);
			json_number(out, s.min);
			fputs(", \"max\": ", out);
			json_number(out, s.max);
			fputs(", \"cv_percent\": ", out);
			json_number(out, s.cv_percent);
			fputs(", \"median_cpu_percent\": ", out);
			json_number(out, s.median_cpu);
		}
		fputs(i + 1 < last ? "},\n" : "}\n", out);
	}
	fputs("  }\n}\n", out);
}
