// SPDX-License-Identifier: BSD-2-Clause
/*
 * --profile's tables: where each phase's CPU went on the whole machine,
 * what a unit of work cost inside clyde and in total, the perf counters,
 * the device; then what the figures cannot show. No commas: programs
 * that parse bonnie++'s stdout take any comma for CSV.
 */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "core/phase.h"
#include "formats/format.h"
#include "profile/stacks_layers.h"

void profile_derive(const struct run_result *r, enum phase_id id, struct profile_derived *d)
{
	const struct phase_result *p = &r->phase[id];
	const struct prof_phase *pp = &p->profile;
	const struct phase_def *def = phase_get(id);
	/* the tree phases' data: their amplification is per byte of file data */
	double bytes = def->unit == UNIT_KIB ? p->amount * 1024.0
		       : p->tree.valid ? (double)p->tree.bytes : 0;
	double ops = def->unit == UNIT_KIB ? bytes : p->amount;	/* perf counts per byte, seek or file */

	memset(d, 0, sizeof(*d));
	switch (def->unit) {
	case UNIT_KIB:
		d->unit = "GiB";
		d->units = p->amount / (1024.0 * 1024.0);
		d->per_op = "byte";
		break;
	case UNIT_SEEK:
		d->unit = "1000 seeks";
		d->units = p->amount / 1000.0;
		d->per_op = "seek";
		break;
	default:
		d->unit = "1000 files";
		d->units = p->amount / 1000.0;
		d->per_op = "file";
		break;
	}
	d->caused_s = prof_caused_s(pp);
	d->self_per_unit = d->units > 0 ? prof_self_s(pp) / d->units : -1;
	d->caused_per_unit = d->units > 0 && d->caused_s >= 0 ? d->caused_s / d->units : -1;
	d->outside_s = d->caused_s >= 0 ? d->caused_s - prof_self_s(pp) : -1;
	d->outside_fraction = d->caused_s > 0 ? d->outside_s / d->caused_s : -1;
	d->write_amp = pp->dev_valid && (def->flags & PF_DATA_WRITE) && bytes > 0
		       ? (double)pp->dev.wr_bytes / bytes : -1;
	d->read_amp = pp->dev_valid && (def->flags & PF_DATA_READ) && bytes > 0
		      ? (double)pp->dev.rd_bytes / bytes : -1;
	d->cycles_per_op = pp->perf_valid[PERF_CYCLES] && ops > 0
			   ? (double)pp->perf[PERF_CYCLES] / ops : -1;
	d->instructions_per_op = pp->perf_valid[PERF_INSTRUCTIONS] && ops > 0
				 ? (double)pp->perf[PERF_INSTRUCTIONS] / ops : -1;
}

/* "%W.Pf", or "-" right-aligned where the figure is unknown (negative). */
static void cell(FILE *out, int width, int prec, double v)
{
	if (v < 0)
		fprintf(out, " %*s", width, "-");
	else
		fprintf(out, " %*.*f", width, prec, v);
}

static bool any_profile(const struct run_result *r)
{
	for (int i = 0; i < PH_COUNT; i++)
		if (r->phase[i].ran && r->phase[i].profile.valid)
			return true;
	return false;
}

/*
 * Unattributed time (profile.c: busy ticks no seen task accounts for)
 * beyond this share of a CPU over a phase is a warning: the split by
 * process then misses more than a tenth of a CPU, which tick rounding
 * (a tick or two a task) does not reach in half a second or more.
 */
#define UNATTRIBUTED_WARN_SHARE	0.10

#define FOR_PROFILED(r, i, p) \
	for (int i = 0; i < PH_COUNT; i++) \
		for (const struct phase_result *p = &(r)->phase[i]; \
		     p && p->ran && p->profile.valid; p = NULL)

static void cpu_table(FILE *out, const struct run_result *r, const struct prof_phase *any)
{
	fprintf(out, "Profile CPU seconds over each phase: the machine's %u CPUs split\n",
		any->ncpu);
	fprintf(out, "%-18s %7s %7s %7s %7s %7s %7s %7s %7s %7s %7s %7s %7s %7s %7s\n",
		"Phase", "wall", "clyde", "uring", "fs", "wback", "block", "kwork", "kswapd",
		"kother", "others", "irq", "steal", "idle", "unattr");
	FOR_PROFILED(r, i, p) {
		const struct prof_phase *pp = &p->profile;
		bool g = pp->groups_valid, m = pp->machine_valid;
		double irq = pp->cpu_s[CPU_IRQ] + (pp->cpu_known[CPU_SOFTIRQ] ? pp->cpu_s[CPU_SOFTIRQ] : 0);
		double idle = pp->cpu_s[CPU_IDLE] + (pp->cpu_known[CPU_IOWAIT] ? pp->cpu_s[CPU_IOWAIT] : 0);

		fprintf(out, "%-18s", phase_get((enum phase_id)i)->row_name);
		cell(out, 7, 3, pp->window_s);
		cell(out, 7, 3, prof_self_s(pp));
		cell(out, 7, 3, pp->uring_s);
		cell(out, 7, 3, g ? pp->group_s[PROF_FS] : -1);
		cell(out, 7, 3, g ? pp->group_s[PROF_WRITEBACK] : -1);
		cell(out, 7, 3, g ? pp->group_s[PROF_BLOCK] : -1);
		cell(out, 7, 3, g ? pp->group_s[PROF_KWORKER] : -1);
		cell(out, 7, 3, g ? pp->group_s[PROF_KSWAPD] : -1);
		cell(out, 7, 3, g ? pp->group_s[PROF_KTHREAD] : -1);
		cell(out, 7, 3, g ? pp->group_s[PROF_OTHER] : -1);
		cell(out, 7, 3, m ? irq : -1);
		cell(out, 7, 3, m && pp->cpu_known[CPU_STEAL] ? pp->cpu_s[CPU_STEAL] : -1);
		cell(out, 7, 3, m ? idle : -1);
		/* Negative unattributed time is tick rounding: print it signed. */
		if (g && m)
			fprintf(out, " %7.3f\n", pp->unattributed_s);
		else
			fprintf(out, " %7s\n", "-");
	}
}

static void cost_table(FILE *out, const struct run_result *r)
{
	fprintf(out, "%-18s %10s %9s %9s %8s %8s %8s %9s %7s\n", "Profile cost", "per",
		"clyde s", "total s", "outside", "vcsw", "ivcsw", "minflt", "majflt");
	FOR_PROFILED(r, i, p) {
		const struct prof_phase *pp = &p->profile;
		struct profile_derived d;

		profile_derive(r, (enum phase_id)i, &d);
		fprintf(out, "%-18s %10s", phase_get((enum phase_id)i)->row_name, d.unit);
		cell(out, 9, 4, d.self_per_unit);
		cell(out, 9, 4, d.caused_per_unit);
		if (d.outside_fraction < 0)
			fprintf(out, " %8s", "-");
		else
			fprintf(out, " %7.1f%%", d.outside_fraction * 100);
		fprintf(out, " %8" PRIu64 " %8" PRIu64 " %9" PRIu64 " %7" PRIu64 "\n",
			pp->nvcsw, pp->nivcsw, pp->minflt, pp->majflt);
	}
}

static void perf_table(FILE *out, const struct run_result *r, const struct prof_phase *any)
{
	bool sw = any->perf_valid[PERF_TASK_CLOCK], hw = any->perf_valid[PERF_CYCLES];

	if (!sw && !hw) {
		fputs("Profile perf counters: software ", out);
		format_put_field(out, any->perf_sw_why);
		fputs("; hardware ", out);
		format_put_field(out, any->perf_hw_why);
		fputc('\n', out);
		return;
	}
	fprintf(out, "%-18s %10s %9s %10s %9s %12s %12s\n", "Profile perf", "task-clock",
		"ctx-sw", "migrations", "faults", "cycles/op", "instr/op");
	FOR_PROFILED(r, i, p) {
		const struct prof_phase *pp = &p->profile;
		struct profile_derived d;

		profile_derive(r, (enum phase_id)i, &d);
		fprintf(out, "%-18s", phase_get((enum phase_id)i)->row_name);
		cell(out, 10, 3, sw ? (double)pp->perf[PERF_TASK_CLOCK] / 1e9 : -1);
		for (int c = PERF_CTX_SWITCHES; c <= PERF_PAGE_FAULTS; c++) {
			int w = c == PERF_MIGRATIONS ? 10 : 9;

			if (sw)
				fprintf(out, " %*" PRIu64, w, pp->perf[c]);
			else
				fprintf(out, " %*s", w, "-");
		}
		cell(out, 12, 2, d.cycles_per_op);
		cell(out, 12, 2, d.instructions_per_op);
		fprintf(out, " per %s\n", d.per_op);
	}
	if (!hw) {
		fputs("Profile perf: cycles and instructions ", out);
		format_put_field(out, any->perf_hw_why);
		fputc('\n', out);
	}
	if (!sw) {
		fputs("Profile perf: software counters ", out);
		format_put_field(out, any->perf_sw_why);
		fputc('\n', out);
	}
}

static void device_table(FILE *out, const struct run_result *r, const struct prof_phase *any)
{
	const struct prof_devices *dv = &any->devs;

	if (dv->state != PROF_DEV_MEASURED) {
		fputs("Profile device: ", out);
		format_put_field(out, dv->why);
		fputc('\n', out);
		return;
	}
	fputs("Profile device:", out);
	for (unsigned k = 0; k < dv->count; k++) {
		fputc(' ', out);
		format_put_field(out, dv->name[k]);
	}
	fputs(" (", out);
	format_put_field(out, dv->via);
	fputs(")\n", out);
	fprintf(out, "%-18s %9s %10s %9s %10s %9s %9s %8s %7s %7s\n", "Phase", "reads",
		"read MiB", "writes", "write MiB", "discards", "disc MiB", "busy s", "WA", "RA");
	FOR_PROFILED(r, i, p) {
		const struct prof_phase *pp = &p->profile;
		struct profile_derived d;

		profile_derive(r, (enum phase_id)i, &d);
		fprintf(out, "%-18s", phase_get((enum phase_id)i)->row_name);
		if (!pp->dev_valid) {
			fprintf(out, " %9s (the device's counters could not be read)\n", "-");
			continue;
		}
		fprintf(out, " %9" PRIu64 " %10.1f %9" PRIu64 " %10.1f", pp->dev.rd_ios,
			(double)pp->dev.rd_bytes / (1 << 20), pp->dev.wr_ios,
			(double)pp->dev.wr_bytes / (1 << 20));
		if (pp->dev.discard_known)
			fprintf(out, " %9" PRIu64 " %9.1f", pp->dev.discard_ios,
				(double)pp->dev.discard_bytes / (1 << 20));
		else
			fprintf(out, " %9s %9s", "-", "-");
		fprintf(out, " %8.3f", (double)pp->dev.busy_ms / 1e3);
		cell(out, 7, 2, d.write_amp);
		cell(out, 7, 2, d.read_amp);
		fputc('\n', out);
	}
	if (dv->shared[0]) {
		fputs("Profile device: shared with other filesystems mounted at ", out);
		format_put_field(out, dv->shared);
		fputs(": their I/O during a phase counts too\n", out);
	}
}

/* The busiest tasks outside clyde, for each phase that had any. */
static void where_lines(FILE *out, const struct run_result *r)
{
	FOR_PROFILED(r, i, p) {
		const struct prof_phase *pp = &p->profile;
		struct profile_derived d;

		profile_derive(r, (enum phase_id)i, &d);
		if (!pp->ntop || d.outside_s < 0)
			continue;
		fprintf(out, "Profile where: %s: %.3f s outside clyde:", phase_get((enum phase_id)i)->row_name,
			d.outside_s);
		for (unsigned k = 0; k < pp->ntop; k++) {
			fputc(' ', out);
			format_put_field(out, pp->top[k].name);
			fprintf(out, " %.3f (%s)%s", pp->top[k].s, prof_group_name(pp->top[k].group),
				k + 1 < pp->ntop ? ";" : "");
		}
		fputc('\n', out);
	}
}

/* The functions a phase's stacks line names, and the layers' order: the largest first. */
#define STACKS_TEXT_FUNCS	3

static double pct(uint64_t part, uint64_t whole)
{
	return whole ? 100.0 * (double)part / (double)whole : 0;
}

static void stacks_funcs(FILE *out, const char *what, const struct stack_func *f, unsigned n,
			 bool self, uint64_t samples)
{
	fprintf(out, "  %-8s", what);
	for (unsigned k = 0; k < n && k < STACKS_TEXT_FUNCS; k++) {
		fputs("  ", out);
		format_put_field(out, f[k].name);
		fprintf(out, " %.1f%%", pct(self ? f[k].self : f[k].total, samples));
	}
	fputc('\n', out);
}

/*
 * --profile=stacks: where each phase's sampled CPU went, by layer (the
 * largest first) and by function. Only where a phase has stacks.
 */
static void stacks_lines(FILE *out, const struct run_result *r)
{
	bool header = false;

	FOR_PROFILED(r, i, p) {
		const struct stack_summary *s = p->profile.stacks;
		unsigned order[STACK_MAX_LAYERS];

		if (!s)
			continue;
		if (!header)
			fputs("Profile where the time went: shares of each phase's sampled CPU "
			      "(idle and lost samples and other programs' apart)\n", out);
		header = true;
		fprintf(out, "%-18s %.3f s in %" PRIu64 " samples of %.3f ms; idle %" PRIu64
			"; other processes %" PRIu64 "; lost %" PRIu64 "\n",
			phase_get((enum phase_id)i)->row_name, (double)s->samples * s->period_s,
			s->samples, s->period_s * 1e3, s->idle, s->other, s->lost);
		if (!s->samples)
			continue;
		/* by samples, the table's order among equals: a stable insertion */
		for (unsigned k = 0; k < s->nlayers; k++) {
			unsigned at = k;

			while (at > 0 && s->layer[order[at - 1]].samples < s->layer[k].samples) {
				order[at] = order[at - 1];
				at--;
			}
			order[at] = k;
		}
		fprintf(out, "  %-8s", "layers");
		for (unsigned k = 0; k < s->nlayers; k++) {
			fputs("  ", out);
			format_put_field(out, s->layer[order[k]].name);
			fprintf(out, " %.1f%%", pct(s->layer[order[k]].samples, s->samples));
		}
		fputc('\n', out);
		stacks_funcs(out, "self", s->top_self, s->nself, true, s->samples);
		stacks_funcs(out, "total", s->top_total, s->ntotal, false, s->samples);
	}
}

/*
 * A file system's background work seen during phases (profile.h's rows):
 * its device I/O is in those phases' device columns and WA, which the
 * phase did not cause.
 */
static void background_notes(FILE *out, const struct run_result *r)
{
	const struct prof_background *b;

	for (unsigned k = 0; (b = prof_background_row(k)); k++) {
		char phases[256] = "";
		size_t used = 0;
		unsigned seen = 0;

		FOR_PROFILED(r, i, p) {
			if (!(p->profile.background & (UINT32_C(1) << k)) || used >= sizeof(phases))
				continue;
			used += (size_t)snprintf(phases + used, sizeof(phases) - used, "%s%s",
						 seen++ ? " and " : "", phase_get((enum phase_id)i)->row_name);
		}
		if (seen)
			fprintf(out, "Profile note: %s (%s: the thread serves every such file "
				"system on the machine) ran during %s: where it worked on this one its "
				"device I/O is in %s device columns and WA but %s not cause it; "
				"%s keeps it out\n", b->name, b->what, phases,
				seen == 1 ? "that phase's" : "those phases'",
				seen == 1 ? "the phase did" : "they did", b->avoid);
	}
}

/*
 * --profile=stacks: what the samples say of a phase's unattributed time:
 * the CPU they found in tasks no snapshot counted, the largest named with
 * the function most of their samples were in and its layer, or that they
 * found none there (the rest is the counters' rounding, not a task).
 */
static void unseen_named(FILE *out, const struct prof_phase *pp)
{
	const struct stack_summary *s = pp->stacks;

	if (!s)
		return;
	if (!s->nunseen) {
		fputs("; the stack samples found no CPU in tasks that came and went: it is "
		      "the counters' rounding and no task", out);
		if (s->lost)
			fprintf(out, " (or in the %llu samples lost)", (unsigned long long)s->lost);
		return;
	}
	/* no comma: bonnie++'s tools would read the line as CSV */
	fprintf(out, "; the stack samples name it (%.3f s in tasks no snapshot counted):",
		(double)s->unseen_samples * s->period_s);
	for (unsigned k = 0; k < s->nunseen; k++)
		fprintf(out, "%s %s %.3f s (%s in %s)", k ? ";" : "", s->unseen[k].task,
			s->unseen[k].cpu_s, s->unseen[k].func, s->unseen[k].layer);
}

/*
 * --profile=stacks: the workers' folds of the rings during the phases,
 * whose CPU is clyde's process's and so in each phase's %CPU (stacks.h).
 */
static void drainer_note(FILE *out, const struct run_result *r)
{
	double cpu = 0, worst = -1;
	uint64_t wakeups = 0;
	bool any = false;

	FOR_PROFILED(r, i, p) {
		const struct stack_summary *s = p->profile.stacks;

		if (!s)
			continue;
		any = true;
		cpu += s->drain_cpu_s;
		wakeups += s->drain_wakeups;
		if (p->profile.window_s >= 1.0 && s->drain_cpu_s / p->profile.window_s > worst)
			worst = s->drain_cpu_s / p->profile.window_s;
	}
	if (!any)
		return;
	fprintf(out, "Profile stacks read during phases: %.1f ms of CPU in %" PRIu64 " folds (in "
		"clyde's CPU)", cpu * 1e3, wakeups);
	if (worst >= 0)
		fprintf(out, "; at most %.2f%% of a phase of 1 s or more\n", worst * 100);
	else
		fputs("; no phase lasted 1 s\n", out);
}

/* What the figures cannot show, said once per run. */
static void notes(FILE *out, const struct run_result *r, const struct prof_phase *any)
{
	double cost = 0, worst_cost = -1, other_worst = 0, lost = 0, lost_worst = 0;
	unsigned unnamed = 0, exited = 0, snapshots = 0, shorts = 0;
	const char *other_phase = NULL, *back = NULL, *lost_phase = NULL;
	const struct prof_phase *lost_pp = NULL;

	FOR_PROFILED(r, i, p) {
		const struct prof_phase *pp = &p->profile;
		double other = pp->groups_valid ? pp->group_s[PROF_OTHER] : 0;

		cost += pp->sampler_cpu_s;
		snapshots += 2;
		if (pp->window_s >= 1.0 && pp->sampler_cpu_s / pp->window_s > worst_cost)
			worst_cost = pp->sampler_cpu_s / pp->window_s;
		unnamed += pp->kworkers_unnamed;
		exited += pp->tasks_exited;
		if (pp->groups_valid && pp->machine_valid && pp->unattributed_s > lost) {
			lost = pp->unattributed_s;
			lost_pp = pp;
		}
		/* the same half second and ten ticks as for other processes */
		if (pp->groups_valid && pp->machine_valid && pp->window_s >= 0.5 &&
		    pp->unattributed_s >= 0.1 && pp->unattributed_s / pp->window_s > lost_worst) {
			lost_worst = pp->unattributed_s / pp->window_s;
			lost_phase = phase_get((enum phase_id)i)->row_name;
		}
		/* Half a second and ten ticks at least: a tick in a short phase is no load. */
		if (pp->window_s >= 0.5 && other >= 0.1 && other / pp->window_s > other_worst) {
			other_worst = other / pp->window_s;
			other_phase = phase_get((enum phase_id)i)->row_name;
		}
		if (pp->cpu_backwards)
			back = phase_get((enum phase_id)i)->row_name;
		if (pp->window_s < MIN_REPORT_SECONDS)
			shorts++;
	}
	fprintf(out, "Profile sampler: %.1f ms of CPU in %u snapshots", cost * 1e3, snapshots);
	if (worst_cost >= 0)
		fprintf(out, "; at most %.2f%% of a phase of 1 s or more\n", worst_cost * 100);
	else
		fputs("; no phase lasted 1 s\n", out);
	drainer_note(out, r);
	if (!any->machine_valid) {
		fputs("Profile machine: unknown: ", out);
		format_put_field(out, any->machine_why);
		fputc('\n', out);
	}
	if (!any->groups_valid) {
		fputs("Profile processes: unknown: ", out);
		format_put_field(out, any->groups_why);
		fputc('\n', out);
	}
	if (any->groups_valid) {
		fprintf(out, "Profile note: kworkers are grouped by the workqueue their name shows "
			"at a phase's end or start (the last work they ran); %u busy ones showed "
			"none; %u tasks exited during phases; unattributed time (tasks that exited "
			"or came and went unseen and tick rounding) was %.3f s at most",
			unnamed, exited, lost > 0 ? lost : 0.0);
		if (lost_pp)
			unseen_named(out, lost_pp);
		fputc('\n', out);
	}
	if (other_phase && other_worst > 0.05)
		fprintf(out, "Profile WARNING: other processes used %.0f%% of a CPU during %s: "
			"the machine was not idle\n", other_worst * 100, other_phase);
	if (lost_phase && lost_worst > UNATTRIBUTED_WARN_SHARE)
		fprintf(out, "Profile WARNING: %.0f%% of a CPU during %s went to no process "
			"clyde saw (tasks that came and went between its snapshots): the "
			"split by process misses that much\n", lost_worst * 100, lost_phase);
	if (shorts && any->machine_valid)
		fprintf(out, "Profile note: %u phases lasted under %.1f s: their split is counted "
			"in ticks of %.0f ms and may be off by a tick or two a column\n", shorts,
			MIN_REPORT_SECONDS, 1e3 / any->hz);
	if (back)
		fprintf(out, "Profile note: a CPU counter went back during %s (Linux's iowait "
			"may): counted as 0\n", back);
	background_notes(out, r);
}

void format_profile_tables(FILE *out, const struct run_result *r)
{
	const struct prof_phase *any = NULL;

	if (!any_profile(r))
		return;
	FOR_PROFILED(r, i, p)
		if (!any)
			any = &p->profile;
	if (any->machine_valid)
		cpu_table(out, r, any);
	cost_table(out, r);
	perf_table(out, r, any);
	device_table(out, r, any);
	where_lines(out, r);
	stacks_lines(out, r);
	notes(out, r, any);
}
