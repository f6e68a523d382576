// SPDX-License-Identifier: BSD-2-Clause
/*
 * clyde-report's JSON reader: clyde's documents (clyde-result/1 to /15:
 * /3's phases may carry a --profile, /4's runs a --tree and its five
 * phases, /6's failed runs are skipped, /8's phases a time series, /10's
 * runs their host and start, /11's the filesystem's own options, /12's
 * phases their stacks' layers and top functions and their block layer's
 * queue and device times (--profile=layers), /15's phases their capacity
 * under a latency bound and their open-loop steps (issue 45); the
 * engine, depth, -D and data pattern of every schema go into the key;
 * /5's cluster, /7's plan, /13's stacks folds and /9's
 * ranks_summary are not read), parsed by lib/json_reader in
 * read_input.c, which hands this file every document whose schema is not
 * another reader's, into report_run, one per run. Only what the report
 * shows is read, and so checked.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/phase.h"
#include "core/run_params.h"
#include "lib/json_reader.h"
#include "lib/size.h"
#include "lib/strutil.h"
#include "report/read_private.h"
#include "report/report.h"
#include "report/report_flame.h"

/* The parameters of a JSON run, written as clyde's CSV line writes them (format_csv.c). */
static const char *json_run_params(struct report_run *r, const struct json_node *run)
{
	const struct json_node *name = json_get(run, "name"), *io = json_get(run, "io");
	const struct json_node *files = json_get(run, "files");
	double conc = 1, size = 0, chunk = 0, seeks = 0, seekers = 0;
	double number = 0, max = 0, min = 0, dirs = 1, fchunk = DEFAULT_FILE_CHUNK, seed = 0;
	struct run_params params = { 0 };
	struct run_labels l;

	if (!name || name->type != JSON_STRING || strlen(name->string) >= sizeof(r->name) ||
	    !reader_printable(name->string, strlen(name->string)))
		return "no name, or one that is not text or too long";
	str_copy(r->name, sizeof(r->name), name->string);
	if (json_get_number(run, "concurrency", 1, 1e6, true, &conc) == -EINVAL)
		return "a concurrency that is not a count";
	r->concurrency = (unsigned)conc;
	if (json_get_number(run, "seed", 0, 18446744073709551615.0, true, &seed) == 0)
		snprintf(r->seed, sizeof(r->seed), "%.0f", seed);
	if (!io || io->type != JSON_OBJECT || json_get_number(io, "size_mib", 0, 1e12, true, &size) ||
	    json_get_number(io, "chunk", 0, UINT32_MAX, true, &chunk) ||
	    json_get_number(io, "seeks", 0, UINT32_MAX, true, &seeks) ||
	    json_get_number(io, "seekers", 0, 1e6, true, &seekers))
		return "no \"io\" object with size_mib, chunk, seeks and seekers";
	if (!files || files->type != JSON_OBJECT ||
	    json_get_number(files, "number", 0, UINT32_MAX, true, &number) ||
	    json_get_number(files, "max_size", -2, 1e18, true, &max) ||
	    json_get_number(files, "min_size", -2, 1e18, true, &min) ||
	    json_get_number(files, "dirs", 0, UINT32_MAX, true, &dirs) ||
	    json_get_number(files, "chunk", 0, UINT32_MAX, true, &fchunk))
		return "no \"files\" object with number, max_size, min_size, dirs and chunk";
	params.file_bytes = (uint64_t)size << 20;
	params.chunk = (uint32_t)chunk;
	params.seeks = (uint32_t)seeks;
	params.seekers = (uint32_t)seekers;
	params.files = (uint32_t)number;
	params.file_max = (int64_t)max;
	params.file_min = (int64_t)min;
	params.file_dirs = (uint32_t)dirs;
	params.file_chunk = (uint32_t)fchunk;
	run_labels_of(&params, &l);
	str_copy(r->size, sizeof(r->size), l.size);
	str_copy(r->chunk, sizeof(r->chunk), l.chunk);
	str_copy(r->seeks, sizeof(r->seeks), l.seeks);
	str_copy(r->seekers, sizeof(r->seekers), l.seekers);
	str_copy(r->files, sizeof(r->files), l.files);
	str_copy(r->max_size, sizeof(r->max_size), l.max_size);
	str_copy(r->min_size, sizeof(r->min_size), l.min_size);
	str_copy(r->dirs, sizeof(r->dirs), l.dirs);
	str_copy(r->file_chunk, sizeof(r->file_chunk), l.file_chunk);
	r->seeks_timed = json_get_bool(json_get(run, "counts"), "seeks_timed", false);
	return NULL;
}

const char *report_profile_unit(enum phase_id ph)
{
	/* the profile counts the byte phases' CPU per GiB, where their CPU column counts per MiB */
	return phase_get(ph)->unit == UNIT_KIB ? "GiB" : phase_unit_names(ph)->cpu_per;
}

/*
 * A phase's "profile" (clyde --profile): the figures per unit of work,
 * the share outside clyde and the device's amplification. Only what the
 * report shows is read, and so checked; the rest (groups, perf, the
 * machine) is left to other tools. The counters of a device that was
 * not measured are absent, and never read.
 */
/*
 * An array of named figures (profile.groups.top, profile.stacks' layers
 * and top functions) into v, at most max of them: each an object with a
 * string name_key and a number value_key within [0, hi]; group_key, when
 * given, a string too. An absent or null array is none; -EINVAL bad.
 */
static int json_named(const struct json_node *arr, const char *name_key, const char *group_key,
		      const char *value_key, double hi, struct report_named *v, unsigned max,
		      unsigned *n)
{
	*n = 0;
	if (!arr || arr->type == JSON_NULL)
		return 0;
	if (arr->type != JSON_ARRAY)
		return -EINVAL;
	for (const struct json_node *e = arr->child; e; e = e->next) {
		const struct json_node *name = json_get(e, name_key);
		const struct json_node *group = group_key ? json_get(e, group_key) : NULL;
		struct report_named *x = &v[*n];

		if (!name || name->type != JSON_STRING || (group_key && (!group ||
		    group->type != JSON_STRING)))
			return -EINVAL;
		if (*n == max)
			continue;	/* clyde writes no more than max: a longer list's rest */
		if (json_get_number(e, value_key, 0, hi, false, &x->v))
			return -EINVAL;
		str_copy(x->name, sizeof(x->name), name->string);
		str_copy(x->group, sizeof(x->group), group ? group->string : "");
		(*n)++;
	}
	return 0;
}

/*
 * The top by total, the named functions only: a clyde before this ranked
 * the frames that name only a place ("[libc.so.6]", "[unknown]") too,
 * which sit under nearly every stack and came first.
 */
static void drop_unnamed(struct report_named *v, unsigned *n)
{
	unsigned kept = 0;

	for (unsigned k = 0; k < *n; k++)
		if (flame_frame_named(v[k].name))
			v[kept++] = v[k];
	*n = kept;
}

/* clyde-result/12: a phase's profile.stacks, its layers and top functions. */
static const char *json_run_stacks(struct report_where *w, const struct json_node *st)
{
	if (st->type != JSON_OBJECT)
		return "has a profile.stacks that is not an object";
	if (json_get_number(st, "cpu_s", 0, 1e12, false, &w->stacks_cpu_s))
		return "has a profile.stacks.cpu_s that is not a number of seconds";
	if (json_named(json_get(st, "layers"), "layer", NULL, "share", 1, w->layer,
		       REPORT_WHERE_LAYERS, &w->nlayers))
		return "has a profile.stacks.layers that is not a list of layers and shares";
	if (json_named(json_get(st, "top_self"), "function", NULL, "self_share", 1, w->self,
		       REPORT_WHERE_FUNCS, &w->nself) ||
	    json_named(json_get(st, "top_total"), "function", NULL, "total_share", 1, w->total,
		       REPORT_WHERE_FUNCS, &w->ntotal))
		return "has a profile.stacks top function that is not a name and a share";
	drop_unnamed(w->total, &w->ntotal);
	w->has_stacks = true;
	return NULL;
}

/*
 * clyde-result/13: a phase's profile.stacks.unattributed, the CPU of tasks
 * no snapshot counted, named; absent before /13 (has_unseen false).
 */
static const char *json_run_unseen(struct report_where *w, const struct json_node *st)
{
	const struct json_node *u = json_get(st, "unattributed"), *tasks;

	if (!u || u->type == JSON_NULL)
		return NULL;
	tasks = json_get(u, "tasks");
	if (u->type != JSON_OBJECT || json_get_number(u, "cpu_s", 0, 1e12, false, &w->unseen_s) ||
	    !tasks || tasks->type != JSON_ARRAY)
		return "has a profile.stacks.unattributed without its seconds and tasks";
	for (const struct json_node *e = tasks->child; e && w->nunseen < REPORT_UNSEEN_MAX;
	     e = e->next) {
		const struct json_node *name = json_get(e, "name"), *fn = json_get(e, "function");
		const struct json_node *layer = json_get(e, "layer");
		struct report_unseen *x = &w->unseen[w->nunseen];

		if (!name || name->type != JSON_STRING || !fn || fn->type != JSON_STRING ||
		    !layer || layer->type != JSON_STRING ||
		    json_get_number(e, "cpu_s", 0, 1e12, false, &x->s))
			return "has a profile.stacks.unattributed task without a name, function, "
			       "layer and seconds";
		str_copy(x->name, sizeof(x->name), name->string);
		str_copy(x->func, sizeof(x->func), fn->string);
		str_copy(x->layer, sizeof(x->layer), layer->string);
		w->nunseen++;
	}
	w->has_unseen = true;
	return NULL;
}

/*
 * clyde-result/3: a phase's CPU split, as clyde's "Profile CPU seconds"
 * table: NAN where the document has no such figure or says null.
 */
static const char *json_run_split(struct report_run *r, enum phase_id ph,
				  const struct json_node *p)
{
	static const char *const group_keys[] = {
		[SPLIT_FS] = "filesystem_s", [SPLIT_WBACK] = "writeback_s",
		[SPLIT_BLOCK] = "block_s", [SPLIT_KWORK] = "kworker_s",
		[SPLIT_KSWAPD] = "kswapd_s", [SPLIT_KOTHER] = "kernel_other_s",
		[SPLIT_OTHERS] = "other_processes_s",
	};
	const struct json_node *pr = json_get(p, "process"), *m = json_get(p, "machine");
	const struct json_node *g = json_get(p, "groups");
	struct report_split *sp = &r->split[ph];
	double user = NAN, sys = NAN, a = NAN, b = NAN, cpus = NAN;
	bool bad = false;

	for (int c = 0; c < SPLIT_COLS; c++)
		sp->v[c] = NAN;
	m = m && m->type == JSON_OBJECT ? m : NULL;
	g = g && g->type == JSON_OBJECT ? g : NULL;
	if (!m && !g)
		return NULL;
	bad |= json_get_known(p, "window_s", 0, 1e12, &sp->v[SPLIT_WALL]) != 0;
	if (pr && pr->type == JSON_OBJECT) {
		bad |= json_get_known(pr, "user_s", 0, 1e12, &user) != 0;
		bad |= json_get_known(pr, "sys_s", 0, 1e12, &sys) != 0;
		bad |= json_get_known(pr, "io_uring_s", 0, 1e12, &sp->v[SPLIT_URING]) != 0;
		sp->v[SPLIT_CLYDE] = user + sys;
	}
	for (int c = SPLIT_FS; g && c <= SPLIT_OTHERS; c++)
		bad |= json_get_known(g, group_keys[c], 0, 1e12, &sp->v[c]) != 0;
	/* below 0 where the machine's ticks round under the tasks' */
	if (g)
		bad |= json_get_known(g, "unattributed_s", -1e12, 1e12, &sp->v[SPLIT_UNATTR]) != 0;
	if (m) {
		bad |= json_get_known(m, "irq_s", 0, 1e12, &a) || json_get_known(m, "softirq_s", 0,
										1e12, &b);
		sp->v[SPLIT_IRQ] = a + (isnan(b) ? 0 : b);
		bad |= json_get_known(m, "steal_s", 0, 1e12, &sp->v[SPLIT_STEAL]) != 0;
		bad |= json_get_known(m, "idle_s", 0, 1e12, &a) || json_get_known(m, "iowait_s", 0,
										 1e12, &b);
		sp->v[SPLIT_IDLE] = a + (isnan(b) ? 0 : b);
		bad |= json_get_known(m, "cpus", 1, 1e6, &cpus) != 0;
		sp->cpus = isnan(cpus) ? 0 : (unsigned)cpus;
	}
	if (bad)
		return "has a profile split (process, machine, groups) with a figure that is not "
		       "a number of seconds";
	sp->has = true;
	return NULL;
}

/*
 * clyde-result/12: the folded stacks of a phase, for its flame graphs;
 * a stack without a count is refused, the whole list or nothing kept.
 */
static const char *json_run_folded(struct report_where *w, const struct json_node *st, bool *oom)
{
	const struct json_node *arr = json_get(st, "folded"), *e;
	size_t n = 0;

	if (!arr || arr->type == JSON_NULL)
		return NULL;
	if (arr->type != JSON_ARRAY)
		return "has a profile.stacks.folded that is not a list";
	for (e = arr->child; e; e = e->next)
		n++;
	w->folded = calloc(n ? n : 1, sizeof(*w->folded));
	if (!w->folded) {
		*oom = true;
		return "could not be kept: out of memory";
	}
	for (e = arr->child; e; e = e->next) {
		const struct json_node *stack = json_get(e, "stack"), *layer = json_get(e, "layer");
		double count;

		if (e->type != JSON_OBJECT || !stack || stack->type != JSON_STRING ||
		    json_get_number(e, "count", 0, 1e18, false, &count))
			return "has a profile.stacks.folded entry without a stack and a count";
		/* /12 kept other programs' stacks among the phase's: not its work */
		if (layer && layer->type == JSON_STRING && !strcmp(layer->string, "other-processes"))
			continue;
		w->folded[w->nfolded].folded = strdup(stack->string);
		if (!w->folded[w->nfolded].folded) {
			*oom = true;
			return "could not be kept: out of memory";
		}
		w->folded[w->nfolded++].count = (uint64_t)count;
	}
	return NULL;
}

/*
 * Where a profiled phase's CPU went (report_where): the busiest tasks
 * outside clyde (/3) and the stacks (/12). Nothing kept where the phase
 * has neither.
 */
static const char *json_run_where(struct report_run *r, enum phase_id ph,
				  const struct json_node *p, bool *oom)
{
	const struct json_node *groups = json_get(p, "groups"), *st = json_get(p, "stacks");
	struct report_where w = { 0 };
	const char *why;

	if (json_get_known(p, "outside_s", -1e12, 1e12, &r->prof[ph].outside_s))
		return "has a profile.outside_s that is not a number of seconds";
	r->prof[ph].tasks_known = groups && groups->type == JSON_OBJECT;
	if (r->prof[ph].tasks_known &&
	    json_named(json_get(groups, "top"), "name", "group", "s", 1e12, w.task,
		       REPORT_WHERE_TASKS, &w.ntasks))
		return "has a profile.groups.top that is not a list of tasks and seconds";
	if (st && st->type != JSON_NULL && ((why = json_run_stacks(&w, st)) ||
					     (why = json_run_unseen(&w, st))))
		return why;
	if (st && st->type != JSON_NULL && (why = json_run_folded(&w, st, oom)))
		goto free_folded;
	if (!w.ntasks && !w.has_stacks)
		return NULL;
	r->where[ph] = malloc(sizeof(w));
	if (!r->where[ph]) {
		*oom = true;
		why = "could not be kept: out of memory";
		goto free_folded;
	}
	*r->where[ph] = w;
	return NULL;
free_folded:
	report_where_free_folded(&w);
	return why;
}

/*
 * A phase's profile.layers (clyde-result/12, --profile=layers): each
 * span's requests and their summed time, where its state is measured; a
 * span without a completed request is not known.
 */
static const char *json_run_layers(struct report_profile *pr, const struct json_node *l)
{
	static const char *const span_keys[REPORT_SPANS] = {
		[REPORT_SPAN_QUEUE] = "queue", [REPORT_SPAN_DEVICE] = "device",
	};
	const struct json_node *state;

	for (int k = 0; k < REPORT_SPANS; k++)
		pr->span_requests[k] = pr->span_sum_s[k] = NAN;
	if (!l || l->type == JSON_NULL)
		return NULL;
	state = json_get(l, "state");
	if (l->type != JSON_OBJECT || !state || state->type != JSON_STRING)
		return "has a profile.layers without a state";
	if (strcmp(state->string, "measured"))
		return NULL;
	for (int k = 0; k < REPORT_SPANS; k++) {
		const struct json_node *sp = json_get(l, span_keys[k]);
		double n, sum;

		if (!sp || sp->type != JSON_OBJECT ||
		    json_get_number(sp, "requests", 0, 1e18, true, &n) ||
		    json_get_known(sp, "sum_s", 0, 1e12, &sum))
			return "has a profile.layers queue or device without its requests and sum_s";
		if (n > 0 && !isnan(sum)) {
			pr->span_requests[k] = n;
			pr->span_sum_s[k] = sum;
		}
	}
	return NULL;
}

static const char *json_run_profile(struct report_run *r, enum phase_id ph, const struct json_node *p)
{
	const struct json_node *per = json_get(p, "per_unit"), *dev = json_get(p, "device");
	struct report_profile *pr = &r->prof[ph];
	const struct json_node *unit, *state;
	const char *why;

	if (p->type != JSON_OBJECT)
		return "has a profile that is not an object";
	pr->clyde_per_unit = pr->caused_per_unit = NAN;
	pr->write_amp = pr->read_amp = NAN;
	if (per && per->type != JSON_NULL) {
		unit = json_get(per, "unit");
		/* figures per some other unit would be compared as if they were per this one */
		if (per->type != JSON_OBJECT || !unit || unit->type != JSON_STRING ||
		    strcmp(unit->string, report_profile_unit(ph)))
			return "has a profile.per_unit without this phase's unit (GiB, 1000 seeks, 1000 files)";
		str_copy(pr->unit, sizeof(pr->unit), unit->string);
		if (json_get_known(per, "clyde_s", 0, 1e12, &pr->clyde_per_unit) ||
		    json_get_known(per, "caused_s", 0, 1e12, &pr->caused_per_unit))
			return "has a profile.per_unit CPU time that is not a number of seconds";
	}
	/* outside_s is the machine's ticks less clyde's getrusage: it may come out a little below 0 */
	if (json_get_known(p, "outside_fraction", -1, 1, &pr->outside_fraction))
		return "has a profile.outside_fraction that is not a fraction";
	if (dev && dev->type != JSON_NULL) {
		state = json_get(dev, "state");
		if (dev->type != JSON_OBJECT || !state || state->type != JSON_STRING)
			return "has a profile.device without a state";
		if (!strcmp(state->string, "measured")) {
			if (json_get_known(dev, "write_amplification", 0, 1e12, &pr->write_amp) ||
			    json_get_known(dev, "read_amplification", 0, 1e12, &pr->read_amp))
				return "has a profile.device amplification that is not a ratio";
		} else if (strcmp(state->string, "no block device") && strcmp(state->string, "unknown")) {
			return "has a profile.device.state that is not measured, no block device or unknown";
		}
	}
	why = json_run_layers(pr, json_get(p, "layers"));
	if (why)
		return why;
	pr->has = true;
	r->has_profile = true;
	return NULL;
}

/*
 * What a tree phase adds (clyde-result/4): its dead time (dead_s, wall
 * less user CPU) and the tree's bytes per second (tree.mib_per_s, where
 * the phase moved any: delete moves none).
 */
static const char *json_tree_phase(struct report_run *r, enum phase_id ph, const struct json_node *p)
{
	const struct json_node *t = json_get(p, "tree");
	double dead = 0, mibs = 0, bytes = 0;

	switch (json_get_number(p, "dead_s", 0, 1e12, false, &dead)) {
	case 0:
		r->has[ph][RM_DEAD] = true;
		r->v[ph][RM_DEAD] = dead;
		break;
	case -EINVAL:
		return "has a dead_s that is not a number of seconds";
	}
	if (!t || t->type == JSON_NULL)
		return NULL;
	if (t->type != JSON_OBJECT || json_get_number(t, "mib_per_s", 0, 1e15, false, &mibs) == -EINVAL ||
	    json_get_number(t, "bytes", 0, 1e18, false, &bytes) == -EINVAL)
		return "has a tree that is not an object, or a mib_per_s or bytes that is not a number";
	if (bytes > 0 && json_get(t, "mib_per_s")) {
		r->has[ph][RM_MIBS] = true;
		r->v[ph][RM_MIBS] = mibs;
	}
	return NULL;
}

/* Where a phase went wrong: the line of the node at fault (0: the phase's) and why. */
struct phase_error {
	unsigned line;
	char why[192];
};

__attribute__((format(printf, 3, 4)))
static const char *phase_error(struct phase_error *e, const struct json_node *at,
			       const char *fmt, ...)
{
	va_list ap;

	e->line = at->line;
	va_start(ap, fmt);
	vsnprintf(e->why, sizeof(e->why), fmt, ap);
	va_end(ap);
	return e->why;
}

/* The columns of a series the report reads, found by name; any others are left alone. */
enum series_col {
	SC_T_START, SC_T_END, SC_WORK, SC_OPS, SC_RATE, SC_P99, SC_DIRTY, SC_WRITEBACK, SC_COUNT
};

static const struct {
	const char *name;
	double max;
	bool whole;
	bool nullable;
	const char *what;	/* in the complaint about a bad value */
} series_cols[SC_COUNT] = {
	[SC_T_START] = { "t_start_s", 1e9, false, false, "a number of seconds" },
	[SC_T_END] = { "t_end_s", 1e9, false, false, "a number of seconds" },
	[SC_WORK] = { "work", 1e18, false, false, "an amount of work" },
	[SC_OPS] = { "ops", 1e18, true, false, "a count" },
	[SC_RATE] = { "rate", 1e18, false, false, "a rate" },
	[SC_P99] = { "lat_p99_s", 1e6, false, true, "a number of seconds or null" },
	[SC_DIRTY] = { "dirty_kib", 1e15, false, true, "a number of KiB or null" },
	[SC_WRITEBACK] = { "writeback_kib", 1e15, false, true, "a number of KiB or null" },
};

/* Where each column the report reads sits in the rows; NULL, or why not. */
static const char *series_columns(const struct json_node *cols, size_t pos[SC_COUNT], size_t *width,
				  struct phase_error *e)
{
	size_t i = 0;

	for (int c = 0; c < SC_COUNT; c++)
		pos[c] = SIZE_MAX;
	for (const struct json_node *n = cols->child; n; n = n->next, i++) {
		if (n->type != JSON_STRING)
			return phase_error(e, n, "series has a column %zu whose name is not a string", i + 1);
		for (int c = 0; c < SC_COUNT; c++) {
			if (strcmp(n->string, series_cols[c].name))
				continue;
			if (pos[c] != SIZE_MAX)
				return phase_error(e, n, "series has the column \"%s\" twice", series_cols[c].name);
			pos[c] = i;
		}
	}
	*width = i;
	for (int c = 0; c < SC_COUNT; c++)
		if (pos[c] == SIZE_MAX)
			return phase_error(e, cols, "series has no column \"%s\"", series_cols[c].name);
	return NULL;
}

/* Row k (from 0) of a series into smp: its width and the values the report reads checked. */
static const char *series_row(struct report_sample *smp, const struct json_node *row, size_t k,
			      const size_t pos[SC_COUNT], size_t width, struct phase_error *e)
{
	double v[SC_COUNT];
	size_t i = 0;

	if (row->type != JSON_ARRAY)
		return phase_error(e, row, "series row %zu is not an array", k + 1);
	for (const struct json_node *n = row->child; n; n = n->next, i++) {
		for (int c = 0; c < SC_COUNT; c++) {
			if (pos[c] != i)
				continue;
			if (n->type == JSON_NULL && series_cols[c].nullable) {
				v[c] = NAN;
				continue;
			}
			if (n->type != JSON_NUMBER || n->number < 0 ||
			    n->number > series_cols[c].max ||
			    (series_cols[c].whole && n->number != floor(n->number)))
				return phase_error(e, n, "series row %zu: %s is not %s", k + 1,
						   series_cols[c].name, series_cols[c].what);
			v[c] = n->number;
		}
	}
	if (i != width)
		return phase_error(e, row, "series row %zu has %zu values, not one per column (%zu)",
				   k + 1, i, width);
	if (v[SC_T_END] < v[SC_T_START])
		return phase_error(e, row, "series row %zu ends (%.9g s) before it starts (%.9g s)",
				   k + 1, v[SC_T_END], v[SC_T_START]);
	*smp = (struct report_sample){
		.t_start = v[SC_T_START], .t_end = v[SC_T_END], .work = v[SC_WORK],
		.ops = v[SC_OPS], .rate = v[SC_RATE], .p99 = v[SC_P99], .dirty = v[SC_DIRTY],
		.writeback = v[SC_WRITEBACK],
	};
	return NULL;
}

/* Two times the document wrote apart that are one instant: equal to slack of the larger (or 1). */
static bool same_time(double a, double b, double slack)
{
	return fabs(a - b) <= slack * fmax(1, fmax(fabs(a), fabs(b)));
}

/* The rows: tiling [0, the phase's elapsed_s] without a gap or an overlap. */
static const char *series_rows(struct report_series *se, const struct json_node *rows,
			       const size_t pos[SC_COUNT], size_t width, double elapsed,
			       struct phase_error *e)
{
	const struct json_node *n = rows->child;
	const char *why;

	for (size_t k = 0; k < se->n; k++, n = n->next) {
		struct report_sample *smp = &se->row[k];

		why = series_row(smp, n, k, pos, width, e);
		if (why)
			return why;
		if (k == 0 && smp->t_start != 0)
			return phase_error(e, n, "series row 1 starts at %.9g s, not at 0", smp->t_start);
		if (k > 0 && !same_time(smp->t_start, se->row[k - 1].t_end, 1e-9))
			return phase_error(e, n, "series row %zu starts at %.9g s, not where row %zu ended (%.9g s)",
					   k + 1, smp->t_start, k, se->row[k - 1].t_end);
		se->dirty_measured |= !isnan(smp->dirty) || !isnan(smp->writeback);
	}
	/* elapsed_s and the last t_end_s are one instant, each written to 9 digits */
	if (isfinite(elapsed) && !same_time(se->row[se->n - 1].t_end, elapsed, 1e-6))
		return phase_error(e, rows, "series ends at %.9g s, not at the phase's elapsed_s (%.9g s)",
				   se->row[se->n - 1].t_end, elapsed);
	return NULL;
}

/*
 * A phase's time series (clyde-result/8): its columns found by name
 * (those the report reads must be there, any others are ignored), then
 * the rows, into one allocation. The series goes into r only whole.
 */
static const char *json_run_series(struct report_run *r, enum phase_id ph,
				   const struct json_node *p, const struct json_node *sn,
				   struct phase_error *e, bool *oom)
{
	const struct json_node *cols = json_get(sn, "columns"), *rows = json_get(sn, "rows");
	const struct json_node *unit = json_get(sn, "work_unit");
	const struct json_node *src = json_get(sn, "dirty_source");
	size_t pos[SC_COUNT], width = 0, n = 0;
	struct report_series *se;
	double interval, elapsed;
	const char *why;

	if (sn->type != JSON_OBJECT)
		return phase_error(e, sn, "has a series that is not an object or null");
	if (!unit || unit->type != JSON_STRING ||
	    strcmp(unit->string, phase_unit_names(ph)->amount))
		return phase_error(e, sn, "series has a work_unit that is not this phase's unit (%s)",
				   phase_unit_names(ph)->amount);
	if (json_get_known(sn, "interval_s", 1e-9, 1e9, &interval))
		return phase_error(e, sn, "series has an interval_s that is not a number of seconds");
	if (src && src->type != JSON_NULL && (src->type != JSON_STRING ||
					      !reader_printable(src->string, strlen(src->string))))
		return phase_error(e, src, "series has a dirty_source that is not text or null");
	if (!cols || cols->type != JSON_ARRAY)
		return phase_error(e, sn, "series has no \"columns\" array");
	why = series_columns(cols, pos, &width, e);
	if (why)
		return why;
	if (!rows || rows->type != JSON_ARRAY || !rows->child)
		return phase_error(e, rows ? rows : sn, "series has no \"rows\" array, or an empty one");
	if (json_get_known(p, "elapsed_s", 0, 1e12, &elapsed))
		return phase_error(e, p, "has an elapsed_s that is not a number of seconds");
	for (const struct json_node *row = rows->child; row; row = row->next)
		n++;
	se = calloc(1, sizeof(*se) + n * sizeof(se->row[0]));
	if (!se) {
		*oom = true;
		return "out of memory";
	}
	se->n = n;
	se->interval_s = interval;
	se->interval_fixed = json_get_bool(sn, "interval_fixed", false);
	if (src && src->type == JSON_STRING)
		str_copy(se->dirty_source, sizeof(se->dirty_source), src->string);
	why = series_rows(se, rows, pos, width, elapsed, e);
	if (why) {
		free(se);
		return why;
	}
	r->series[ph] = se;
	r->has_series = true;
	return NULL;
}

/*
 * One phase of a JSON run: rate, CPU seconds per unit from user + system
 * over the amount, latency, and what /3, /4 and /8 add. NULL, or why
 * not (e->line: where, when not the phase's own line; *oom: no memory).
 */
/* A boolean member that must be there: 0, or -EINVAL when absent or not a boolean. */
static int json_need_bool(const struct json_node *obj, const char *key, bool *out)
{
	const struct json_node *n = json_get(obj, key);

	if (!n || n->type != JSON_BOOL)
		return -EINVAL;
	*out = n->boolean;
	return 0;
}

/* A number member that must be there, within [min, max] (whole when asked). */
struct cap_num {
	const char *key;
	double min, max;
	bool whole, nullable;	/* nullable: null or absent reads NAN */
	size_t at;		/* offsetof the double it fills */
};

/* The members of table into the struct at base; NULL, or why not (the key at fault named). */
static const char *cap_numbers(const struct json_node *obj, const struct cap_num *table, size_t n,
			       void *base, const char *where, struct phase_error *e)
{
	for (size_t i = 0; i < n; i++) {
		const struct cap_num *c = &table[i];
		double *v = (double *)((char *)base + c->at);
		int rc = c->nullable ? json_get_known(obj, c->key, c->min, c->max, v) :
			 json_get_number(obj, c->key, c->min, c->max, c->whole, v);

		if (!rc && c->whole && isfinite(*v) && *v != floor(*v))
			rc = -EINVAL;
		if (rc == -ENOENT)
			return phase_error(e, obj, "capacity: %s has no \"%s\"", where, c->key);
		if (rc)
			return phase_error(e, json_get(obj, c->key) ? json_get(obj, c->key) : obj,
					   "capacity: %s has a \"%s\" that is not %s%s", where, c->key,
					   c->whole ? "a count" : "a number", c->nullable ? " or null" : "");
	}
	return NULL;
}

#define CAP_RATE_MAX	1e12	/* operations per second: far above any phase's */
#define CAP_S_MAX	1e9	/* seconds */

static const struct cap_num search_nums[] = {
	{ "percentile", 1e-9, 100 - 1e-9, false, false, offsetof(struct report_capacity, percentile) },
	{ "target_s", 1e-12, CAP_S_MAX, false, false, offsetof(struct report_capacity, target_s) },
	{ "min_samples", 0, 1e15, true, false, offsetof(struct report_capacity, min_samples) },
	{ "unbounded_rate", 0, CAP_RATE_MAX, false, true, offsetof(struct report_capacity, unbounded_rate) },
	{ "rate", 0, CAP_RATE_MAX, false, false, offsetof(struct report_capacity, rate) },
	{ "concurrency", 0, 1e9, true, false, offsetof(struct report_capacity, concurrency) },
};

static const struct cap_num probe_nums[] = {
	{ "concurrency", 1, 1e9, true, false, offsetof(struct report_cap_probe, concurrency) },
	{ "rate", 0, CAP_RATE_MAX, false, false, offsetof(struct report_cap_probe, rate) },
	{ "latency_s", 0, CAP_S_MAX, false, true, offsetof(struct report_cap_probe, latency_s) },
	{ "samples", 0, 1e18, true, false, offsetof(struct report_cap_probe, samples) },
	{ "seconds", 0, CAP_S_MAX, false, false, offsetof(struct report_cap_probe, seconds) },
};

static const struct cap_num open_nums[] = {
	{ "inflight", 1, 1e9, true, false, offsetof(struct report_capacity, inflight) },
	{ "knee", 0, CAP_RATE_MAX, false, true, offsetof(struct report_capacity, knee) },
};

#define STEP_NUM(k, f, max, whole, nullable) \
	{ k, 0, max, whole, nullable, offsetof(struct report_cap_step, f) }
static const struct cap_num step_nums[] = {
	{ "offered", 1e-9, CAP_RATE_MAX, false, false, offsetof(struct report_cap_step, offered) },
	STEP_NUM("achieved", achieved, CAP_RATE_MAX, false, false),
	STEP_NUM("seconds", seconds, CAP_S_MAX, false, false),
	STEP_NUM("scheduled", scheduled, 1e18, true, false),
	STEP_NUM("completed", completed, 1e18, true, false),
	STEP_NUM("sent_late", sent_late, 1e18, true, false),
	STEP_NUM("unsent", unsent, 1e18, true, false),
	STEP_NUM("errors", errors, 1e18, true, false),
	STEP_NUM("p50_s", p50_s, CAP_S_MAX, false, true),
	STEP_NUM("p99_s", p99_s, CAP_S_MAX, false, true),
	STEP_NUM("p999_s", p999_s, CAP_S_MAX, false, true),
	STEP_NUM("max_s", max_s, CAP_S_MAX, false, true),
	STEP_NUM("service_p50_s", service_p50_s, CAP_S_MAX, false, true),
	STEP_NUM("service_p99_s", service_p99_s, CAP_S_MAX, false, true),
	STEP_NUM("service_p999_s", service_p999_s, CAP_S_MAX, false, true),
	STEP_NUM("service_max_s", service_max_s, CAP_S_MAX, false, true),
};

#define NUMS(t) t, sizeof(t) / sizeof(t[0])

/* An array member's elements, counted; NULL, or why not. */
static const char *cap_array(const struct json_node *obj, const char *key, const char *where,
			     size_t *n, struct phase_error *e)
{
	const struct json_node *a = json_get(obj, key);

	*n = 0;
	if (!a || a->type != JSON_ARRAY)
		return phase_error(e, a ? a : obj, "capacity: %s has no \"%s\" array", where, key);
	for (const struct json_node *x = a->child; x; x = x->next)
		(*n)++;
	return NULL;
}

/* capacity.search (--latency-target): its figures and its probes. */
static const char *cap_search(struct report_capacity *c, const struct json_node *sn,
			      struct phase_error *e, bool *oom)
{
	const char *why;
	char where[48];
	size_t k = 0;

	if (sn->type != JSON_OBJECT)
		return phase_error(e, sn, "capacity: search is not an object");
	why = cap_numbers(sn, NUMS(search_nums), c, "search", e);
	if (!why && json_need_bool(sn, "met", &c->met))
		why = phase_error(e, sn, "capacity: search has no \"met\", or one that is not true or false");
	if (!why)
		why = cap_array(sn, "steps", "search", &c->nprobes, e);
	if (why)
		return why;
	c->probe = calloc(c->nprobes ? c->nprobes : 1, sizeof(*c->probe));
	if (!c->probe) {
		*oom = true;
		return "";
	}
	c->has_search = true;
	for (const struct json_node *x = json_get(sn, "steps")->child; x; x = x->next, k++) {
		struct report_cap_probe *pr = &c->probe[k];

		snprintf(where, sizeof(where), "search step %zu", k + 1);
		if (x->type != JSON_OBJECT)
			return phase_error(e, x, "capacity: %s is not an object", where);
		why = cap_numbers(x, NUMS(probe_nums), pr, where, e);
		if (why)
			return why;
		if (json_need_bool(x, "within", &pr->within) || json_need_bool(x, "few", &pr->few))
			return phase_error(e, x, "capacity: %s has no \"within\" or \"few\" that is true or false",
					   where);
	}
	return NULL;
}

/* A string member among the words allowed (NULL-ended) into dst. */
static bool cap_word(const struct json_node *obj, const char *key, const char *const *words,
		     char *dst, size_t len)
{
	const struct json_node *n = json_get(obj, key);

	for (size_t i = 0; n && n->type == JSON_STRING && words[i]; i++)
		if (!strcmp(n->string, words[i])) {
			str_copy(dst, len, words[i]);
			return true;
		}
	return false;
}

/* capacity.open_loop (--open-loop): how it ran, its knee and its steps. */
static const char *cap_open_loop(struct report_capacity *c, const struct json_node *on,
				 struct phase_error *e, bool *oom)
{
	static const char *const arrivals[] = { "fixed", "poisson", NULL };
	static const char *const modes[] = { "sweep", "rates", NULL };
	const char *why;
	char where[48];
	size_t k = 0;

	if (on->type != JSON_OBJECT)
		return phase_error(e, on, "capacity: open_loop is not an object");
	if (!cap_word(on, "arrivals", arrivals, c->arrivals, sizeof(c->arrivals)))
		return phase_error(e, on, "capacity: open_loop has no \"arrivals\" of \"fixed\" or \"poisson\"");
	if (!cap_word(on, "mode", modes, c->mode, sizeof(c->mode)))
		return phase_error(e, on, "capacity: open_loop has no \"mode\" of \"sweep\" or \"rates\"");
	why = cap_numbers(on, NUMS(open_nums), c, "open_loop", e);
	if (!why && json_need_bool(on, "saturated", &c->saturated))
		why = phase_error(e, on, "capacity: open_loop has no \"saturated\", or one that is not true or false");
	if (!why && c->saturated != isfinite(c->knee))
		why = phase_error(e, on, "capacity: open_loop is %ssaturated but its knee is %s",
				  c->saturated ? "" : "not ", c->saturated ? "null" : "a rate");
	if (!why)
		why = cap_array(on, "steps", "open_loop", &c->nsteps, e);
	if (why)
		return why;
	c->step = calloc(c->nsteps ? c->nsteps : 1, sizeof(*c->step));
	if (!c->step) {
		*oom = true;
		return "";
	}
	c->has_open_loop = true;
	for (const struct json_node *x = json_get(on, "steps")->child; x; x = x->next, k++) {
		snprintf(where, sizeof(where), "open_loop step %zu", k + 1);
		if (x->type != JSON_OBJECT)
			return phase_error(e, x, "capacity: %s is not an object", where);
		why = cap_numbers(x, NUMS(step_nums), &c->step[k], where, e);
		if (why)
			return why;
	}
	return NULL;
}

/*
 * clyde-result/15 (issue 45): a phase's "capacity" (--latency-target,
 * --open-loop), only where the run was asked for it. Every key of the
 * interface is read and checked; a bad one skips the run, as any bad
 * figure of its phases does. The capacity goes into r whole or not at all.
 */
static const char *json_run_capacity(struct report_run *r, enum phase_id ph,
				     const struct json_node *p, struct phase_error *e, bool *oom)
{
	const struct json_node *cn = json_get(p, "capacity"), *sn, *on;
	struct report_capacity *c;
	const char *why = NULL;

	if (!cn || cn->type == JSON_NULL)
		return NULL;
	if (cn->type != JSON_OBJECT)
		return phase_error(e, cn, "capacity is not an object");
	sn = json_get(cn, "search");
	on = json_get(cn, "open_loop");
	if ((!sn || sn->type == JSON_NULL) && (!on || on->type == JSON_NULL))
		return phase_error(e, cn, "capacity has neither \"search\" nor \"open_loop\"");
	c = calloc(1, sizeof(*c));
	if (!c) {
		*oom = true;
		return "";
	}
	c->knee = NAN;
	if (sn && sn->type != JSON_NULL)
		why = cap_search(c, sn, e, oom);
	if (!why && on && on->type != JSON_NULL)
		why = cap_open_loop(c, on, e, oom);
	if (why) {
		report_capacity_free(c);
		return why;
	}
	r->capacity[ph] = c;
	r->has_capacity = true;
	return NULL;
}

static const char *json_run_phase(struct report_run *r, enum phase_id ph, const struct json_node *p,
				  struct phase_error *e, bool *oom)
{
	const char *why;
	double rate, amount = 0, user = 0, sys = 0, lat = 0;
	const struct json_node *prof, *series = json_get(p, "series");

	if (p->type != JSON_OBJECT)
		return "is not an object";
	if (!json_get_bool(p, "ran", false))
		return NULL;
	if (json_get_number(p, "max_latency_us", 0, 1e15, false, &lat) == -EINVAL)
		return "has a max_latency_us that is not a latency";
	/* 0: none measured, as bonnie++ leaves the CSV field empty */
	if (json_get(p, "max_latency_us") && lat > 0) {
		r->has[ph][RM_LATENCY] = true;
		r->v[ph][RM_LATENCY] = lat;
	}
	/*
	 * No +++++ here: JSON carries every phase's measured figures, as
	 * --exact prints them, and the runs' spread says how far to trust
	 * them. A phase under 0.5 s counts with its figures, the same in the
	 * report and the history, and is marked ("too_short", /2's "short").
	 */
	if (json_get_number(p, "rate", 0, 1e18, false, &rate))
		return "has no rate, or one that is not a number";
	r->has[ph][RM_RATE] = true;
	r->v[ph][RM_RATE] = rate;
	r->too_short[ph] = json_get_bool(p, "too_short", json_get_bool(p, "short", false));
	if (json_get_number(p, "amount", 0, 1e18, false, &amount) == -EINVAL ||
	    json_get_number(p, "cpu_user_s", 0, 1e12, false, &user) == -EINVAL ||
	    json_get_number(p, "cpu_sys_s", 0, 1e12, false, &sys) == -EINVAL)
		return "has an amount or CPU time that is not a number";
	if (json_get(p, "amount") && amount > 0 && json_get(p, "cpu_user_s") && json_get(p, "cpu_sys_s")) {
		r->has[ph][RM_CPU] = true;
		r->v[ph][RM_CPU] = (user + sys) / amount * (phase_get(ph)->unit == UNIT_KIB ? 1024.0 : 1000.0);
	}
	if (phase_get(ph)->kind == KIND_TREE && (why = json_tree_phase(r, ph, p)))
		return why;
	why = json_run_capacity(r, ph, p, e, oom);
	if (why || *oom)
		return why;
	prof = json_get(p, "profile");
	if (prof && prof->type != JSON_NULL && ((why = json_run_profile(r, ph, prof)) ||
						(why = json_run_split(r, ph, prof)) ||
						(why = json_run_where(r, ph, prof, oom))))
		return why;
	/* clyde-result/8; null: the phase was not recorded (--interval=off) */
	if (!series || series->type == JSON_NULL)
		return NULL;
	return json_run_series(r, ph, p, series, e, oom);
}

/*
 * The run's tree (clyde-result/4; null or absent: no --tree): shape,
 * scale and seed go into the key, since runs on different trees are not
 * the same configuration; its size is shown with the tree phases.
 */
static const char *json_run_tree(struct report_run *r, const struct json_node *run)
{
	const struct json_node *t = json_get(run, "tree"), *shape;
	double scale, seed;

	if (!t || t->type == JSON_NULL)
		return NULL;
	shape = json_get(t, "shape");
	/* a shape is a word, short enough to leave room for the scale */
	if (t->type != JSON_OBJECT || !shape || shape->type != JSON_STRING || strlen(shape->string) >= 32 ||
	    !reader_copy_param(r->tree, sizeof(r->tree), shape->string, strlen(shape->string)) ||
	    json_get_number(t, "scale", 1e-9, 1e9, false, &scale) ||
	    json_get_number(t, "seed", 0, 18446744073709551615.0, true, &seed) ||
	    json_get_number(t, "files", 0, 1e15, true, &r->tree_files) ||
	    json_get_number(t, "dirs", 0, 1e15, true, &r->tree_dirs) ||
	    json_get_number(t, "bytes", 0, 1e18, true, &r->tree_bytes))
		return "a \"tree\" that is not an object with shape, scale, seed, files, dirs and bytes";
	snprintf(r->tree + strlen(r->tree), sizeof(r->tree) - strlen(r->tree), ":%g", scale);
	snprintf(r->tree_seed, sizeof(r->tree_seed), "%.0f", seed);
	return NULL;
}

/* A string member of obj (which may be NULL or not an object) copied into dst; "" when absent. */
static void json_env_str(char *dst, size_t len, const struct json_node *obj, const char *key)
{
	const struct json_node *n = obj && obj->type == JSON_OBJECT ? json_get(obj, key) : NULL;

	dst[0] = '\0';
	if (n && n->type == JSON_STRING && reader_printable(n->string, strlen(n->string)))
		str_copy(dst, len, n->string);
}

/* A true member of obj; false when absent, false or not a boolean. */
static bool json_env_bool(const struct json_node *obj, const char *key)
{
	const struct json_node *n = obj && obj->type == JSON_OBJECT ? json_get(obj, key) : NULL;

	return n && n->type == JSON_BOOL && n->boolean;
}

static double json_env_num(const struct json_node *obj, const char *key)
{
	double v = NAN;

	if (obj && obj->type == JSON_OBJECT && json_get_known(obj, key, 0, 1e18, &v))
		v = NAN;
	return v;
}

/*
 * The device's cautions (clyde-result/11): a loop without direct I/O, and
 * seeks no rotational device reaches; absent or null in older documents.
 */
static void json_env_cautions(struct report_env *e, const struct json_node *dev)
{
	const struct json_node *loop = json_get(dev, "loop"), *below = json_get(dev, "cache_below");
	const struct json_node *dio = json_get(loop, "direct_io");

	e->caution[CAUTION_LOOP_CACHED] = loop && loop->type == JSON_OBJECT && dio &&
					  dio->type == JSON_BOOL && !dio->boolean;
	e->caution[CAUTION_CACHE_BELOW] = below && below->type == JSON_OBJECT;
	below = json_get(dev, "read_cache_below");
	e->caution[CAUTION_READ_BELOW] = below && below->type == JSON_OBJECT;
}

/*
 * Where the run ran, for the history (report_db.c): read as given, not
 * checked against anything, since the report shows none of it.
 */
static void json_run_env(struct report_run *r, const struct json_node *run)
{
	const struct json_node *m = json_get(run, "machine"), *fs = json_get(run, "filesystem");
	const struct json_node *cl = json_get(run, "cluster"), *hosts;
	struct report_env *e = &r->env;

	e->has = true;
	str_copy(e->clyde_version, sizeof(e->clyde_version), r->version);
	json_env_str(e->os, sizeof(e->os), m, "os");
	json_env_str(e->kernel, sizeof(e->kernel), m, "kernel");
	json_env_str(e->arch, sizeof(e->arch), m, "arch");
	json_env_str(e->cpu_model, sizeof(e->cpu_model), m, "cpu_model");
	e->cpus = json_env_num(m, "cpus");
	e->ram_bytes = json_env_num(m, "ram_bytes");
	json_env_str(e->fs_type, sizeof(e->fs_type), fs, "type");
	json_env_str(e->fs_source, sizeof(e->fs_source), fs, "source");
	json_env_str(e->fs_mountpoint, sizeof(e->fs_mountpoint), fs, "mountpoint");
	json_env_str(e->fs_options, sizeof(e->fs_options), fs, "options");
	json_env_str(e->fs_super_options, sizeof(e->fs_super_options), fs, "super_options");
	json_env_str(e->device, sizeof(e->device), json_get(run, "device"), "name");
	json_env_str(e->engine, sizeof(e->engine), json_get(run, "engine"), "name");
	e->iodepth = json_env_num(json_get(run, "engine"), "iodepth");
	e->direct = json_env_bool(json_get(run, "engine"), "direct");
	json_env_str(e->data_pattern, sizeof(e->data_pattern), json_get(run, "data"), "pattern");
	json_env_str(e->cache_mode, sizeof(e->cache_mode), json_get(run, "cache"), "mode");
	json_env_str(e->cache_outcome, sizeof(e->cache_outcome), json_get(run, "cache"), "outcome");
	e->resident_worst_pct = json_env_num(json_get(run, "cache"), "resident_worst_pct");
	json_env_cautions(e, json_get(run, "device"));
	hosts = cl && cl->type == JSON_OBJECT ? json_get(cl, "hosts") : NULL;
	if (hosts && hosts->type == JSON_ARRAY && hosts->child && hosts->child->type == JSON_STRING &&
	    reader_printable(hosts->child->string, strlen(hosts->child->string)))
		str_copy(e->host, sizeof(e->host), hosts->child->string);
}

/*
 * The run's identity: its own CSV line where the document has one (the
 * same as that line read alone), else its name, key, seed and figures,
 * each by its phase's id: an id never changes (core/phase_list.h adds a
 * phase after the last row), or a run added to the history again would
 * be stored twice.
 */
static void json_run_identity(struct report_run *r, const struct json_node *run)
{
	_Static_assert(sizeof(r->identity) >= sizeof("run:||") + sizeof(r->seed) +
		       sizeof(r->started_at) + sizeof(r->env.host) - 3, "a run's identity is whole");
	const struct json_node *csv = json_get(run, "csv");
	size_t len;

	if (r->started_at[0])
		snprintf(r->identity, sizeof(r->identity), "run:%s|%s|%s", r->seed, r->started_at,
			 r->env.host);
	if (csv && csv->type == JSON_STRING && csv->string[0]) {
		report_identity_csv(r, csv->string, strlen(csv->string));
		return;
	}
	len = (size_t)snprintf(r->line_identity, sizeof(r->line_identity), "json:%s|%s|%s", r->name,
			       r->key, r->seed);
	for (int ph = 0; ph < PH_COUNT && len < sizeof(r->line_identity); ph++)
		if (r->has[ph][RM_RATE])
			len += (size_t)snprintf(r->line_identity + len,
						sizeof(r->line_identity) - len, "|%d:%.9g", ph,
						r->v[ph][RM_RATE]);
}

/* "2026-12-06T07:10:02Z", with up to 9 digits of a second after a '.': UTC, ISO 8601. */
static bool iso_utc(const char *s)
{
	static const char shape[] = "dddd-dd-ddTdd:dd:dd";
	size_t i, digits = 0;

	for (i = 0; shape[i]; i++)
		if (shape[i] == 'd' ? !(s[i] >= '0' && s[i] <= '9') : s[i] != shape[i])
			return false;
	if (s[i] == '.')
		for (i++; s[i] >= '0' && s[i] <= '9'; i++)
			digits++;
	return (s[i - 1] != '.' && digits <= 9) && s[i] == 'Z' && !s[i + 1];
}

/*
 * clyde-result/10: where and when the run began ("host", "started_at";
 * null or absent: not known). NULL, or why the run is refused.
 */
static const char *json_run_start(struct report_run *r, const struct json_node *run)
{
	const struct json_node *host = json_get(run, "host"), *start = json_get(run, "started_at");

	if (host && host->type != JSON_NULL) {
		if (host->type != JSON_STRING || !host->string[0] ||
		    strlen(host->string) >= sizeof(r->env.host) ||
		    !reader_printable(host->string, strlen(host->string)))
			return "a \"host\" that is not a name";
		str_copy(r->env.host, sizeof(r->env.host), host->string);
	}
	if (start && start->type != JSON_NULL) {
		if (start->type != JSON_STRING || strlen(start->string) >= sizeof(r->started_at) ||
		    !iso_utc(start->string))
			return "a \"started_at\" that is not a UTC time (2026-12-06T07:10:02.123456Z)";
		str_copy(r->started_at, sizeof(r->started_at), start->string);
	}
	return NULL;
}

/*
 * clyde-result/14 (issue 44): the run's age label, "aged:FULL:CHURN[:PROFILE]"
 * from its "age" object; without one the age its name carries (a run on a
 * copy of an image clyde-fsmatrix aged: report_age_of_name) or, in a /14
 * document, "fresh". Before /14 there was no --age, but also no saying
 * whether the filesystem was new: "" (unknown). The fill label: the
 * filesystem's fill during the phases, fill.phases_pct rounded.
 */
static void json_run_age(struct report_run *r, const struct json_node *run, bool v14)
{
	const struct json_node *age = json_get(run, "age"), *fill = json_get(run, "fill");
	const char *named = report_age_of_name(r->name);
	double full, churn, pct;
	char profile[32];

	if (age && age->type == JSON_OBJECT && !json_get_known(age, "target_pct", 0, 100, &full) &&
	    !json_get_known(age, "churn", 0, 1e6, &churn) && isfinite(full) && isfinite(churn)) {
		json_env_str(profile, sizeof(profile), age, "profile");
		report_age_label(r->age, sizeof(r->age), full, churn, profile);
	} else if (named) {
		str_copy(r->age, sizeof(r->age), named);
	} else if (v14) {
		str_copy(r->age, sizeof(r->age), "fresh");
	}
	if (fill && fill->type == JSON_OBJECT && !json_get_known(fill, "phases_pct", 0, 100, &pct) &&
	    isfinite(pct))
		snprintf(r->fill, sizeof(r->fill), "%.0f", round(pct));
}

static int json_run(struct reader *rd, const struct json_node *run, const char *version, bool v14)
{
	const struct json_node *phases = json_get(run, "phases");
	struct report_run r;
	const char *why;
	int ret;

	memset(&r, 0, sizeof(r));
	str_copy(r.source, sizeof(r.source), rd->source);
	r.line = run->line;
	str_copy(r.format, sizeof(r.format), "clyde-json");
	str_copy(r.version, sizeof(r.version), version);
	if (run->type != JSON_OBJECT) {
		reader_malformed(rd, run->line, "a run that is not an object");
		return 0;
	}
	why = json_run_params(&r, run);
	if (!why)
		why = json_run_tree(&r, run);
	if (!why && (!phases || phases->type != JSON_OBJECT))
		why = "no \"phases\" object";
	if (why) {
		reader_malformed(rd, run->line, "run: %s", why);
		return 0;
	}
	for (int ph = 0; ph < PH_COUNT; ph++) {
		const struct json_node *p = json_get(phases, phase_csv_name((enum phase_id)ph));
		struct phase_error e = { 0 };
		bool oom = false;

		/* an empty row has no name to find */
		if (phase_get((enum phase_id)ph)->kind == KIND_NONE)
			continue;
		why = p ? json_run_phase(&r, (enum phase_id)ph, p, &e, &oom) : NULL;
		if (oom) {
			ret = -ENOMEM;
			goto free_series;
		}
		if (why) {
			reader_malformed(rd, e.line ? e.line : p->line, "phase %s %s",
					 phase_csv_name((enum phase_id)ph), why);
			ret = 0;
			goto free_series;
		}
		/* a tree phase's figures mean nothing without the tree they were measured on */
		if (phase_get((enum phase_id)ph)->kind == KIND_TREE && !r.tree[0] &&
		    r.has[ph][RM_RATE]) {
			reader_malformed(rd, p->line, "phase %s ran, but the run has no \"tree\"",
				  phase_csv_name((enum phase_id)ph));
			ret = 0;
			goto free_series;
		}
	}
	report_key(&r);
	json_run_env(&r, run);
	why = json_run_start(&r, run);
	if (why) {
		reader_malformed(rd, run->line, "run: %s", why);
		ret = 0;
		goto free_series;
	}
	json_run_identity(&r, run);
	json_run_age(&r, run, v14);
	report_key_setup(&r);
	ret = reader_add_run(rd, &r);
	if (!ret)
		return 0;
free_series:
	report_run_free_series(&r);
	return ret;
}

static bool known_schema(const char *schema)
{
	static const char *const known[] = {
		"clyde-result/1", "clyde-result/2", "clyde-result/3", "clyde-result/4",
		"clyde-result/5", "clyde-result/6", "clyde-result/7", "clyde-result/8",
		"clyde-result/9", "clyde-result/10", "clyde-result/11", "clyde-result/12",
		"clyde-result/13", "clyde-result/14", "clyde-result/15",
	};

	for (size_t i = 0; i < sizeof(known) / sizeof(known[0]); i++)
		if (!strcmp(schema, known[i]))
			return true;
	return false;
}

int read_json_result(struct reader *rd, const struct json_node *doc, unsigned line)
{
	const struct json_node *schema = json_get(doc, "schema"), *runs = json_get(doc, "runs");
	const struct json_node *version = json_get(doc, "clyde_version");
	char ver[32] = "";
	int ret = 0;

	if (!schema || schema->type != JSON_STRING || !known_schema(schema->string)) {
		reader_malformed(rd, line, "a JSON document whose schema is not clyde-result/1 to /15");
		return 0;
	}
	if (!runs || runs->type != JSON_ARRAY) {
		reader_malformed(rd, line, "a clyde-result document without a \"runs\" array");
		return 0;
	}
	if (version && version->type == JSON_STRING)
		reader_copy_param(ver, sizeof(ver), version->string, strlen(version->string));
	for (const struct json_node *run = runs->child; run && !ret; run = run->next) {
		const struct json_node *failure = json_get(run, "failure");

		/* clyde-result/6: a run that stopped has no figures to compare */
		if (failure && failure->type != JSON_NULL) {
			reader_malformed(rd, line, "a run that failed (its \"failure\" is not null)");
			continue;
		}
		/* /14 on say the filesystem's age: "fresh" where they have none */
		ret = json_run(rd, run, ver, atoi(schema->string + strlen("clyde-result/")) >= 14);
	}
	return ret;
}
