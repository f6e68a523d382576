// SPDX-License-Identifier: BSD-2-Clause
/* The arithmetic every formatter shares. */
#include "config.h"

#include "core/result.h"

#include <stdlib.h>

#include "profile/stacks.h"

const double latency_quantiles[LAT_QUANTILES] = { 0.50, 0.90, 0.99, 0.999 };
const char *const latency_quantile_names[LAT_QUANTILES] = { "p50", "p90", "p99", "p99.9" };

bool phase_hidden(const struct phase_result *p, bool exact)
{
	if (!p->ran)
		return false;
	if (p->elapsed <= 0)
		return true;
	return p->elapsed < MIN_REPORT_SECONDS && p->plus_when_short && !exact;
}

double phase_whole_rate(const struct phase_result *p)
{
	return p->elapsed > 0 ? p->amount / p->elapsed : 0;
}

double phase_rate(const struct phase_result *p)
{
	if (p->steady.on && p->steady.settled && p->steady.rate >= 0)
		return p->steady.rate;
	return phase_whole_rate(p);
}

double phase_dead_time(const struct phase_result *p)
{
	double dead = p->elapsed - p->cpu_user;

	return dead > 0 ? dead : 0;
}

int phase_cpu_percent(const struct phase_result *p)
{
	/* CPU is sampled over the timed interval itself; never divide by less. */
	double window = p->cpu_window > p->elapsed ? p->cpu_window : p->elapsed;

	if (window <= 0)
		return 0;
	return (int)((p->cpu_user + p->cpu_sys) / window * 100.0);
}

void stack_set_release(struct stack_set *set)
{
	for (size_t i = 0; set && i < set->n; i++)
		free(set->v[i].folded);
	if (set)
		free(set->v);
	free(set);
}

bool frag_any(const struct run_fragmentation *f)
{
	return f->fresh.present || f->aged.present || f->test_file.measured ||
	       f->test_file.why[0];
}

void run_result_release(struct run_result *r)
{
	free(r->frag.test_map.pieces);
	r->frag.test_map.pieces = NULL;
	r->frag.test_map.count = 0;
	for (int i = 0; i < PH_COUNT; i++) {
		stack_set_release(r->phase[i].profile.stack_set);
		r->phase[i].profile.stack_set = NULL;
		free(r->phase[i].workers);
		free(r->phase[i].hist);
		free(r->phase[i].capacity);
		r->phase[i].capacity = NULL;
		r->phase[i].hist = NULL;
		free(r->phase[i].done);
		r->phase[i].done = NULL;
		series_free(r->phase[i].series);
		r->phase[i].series = NULL;
		free(r->phase[i].profile.stacks);	/* one block (stacks_layers.h) */
		r->phase[i].profile.stacks = NULL;
		r->phase[i].workers = NULL;
		r->phase[i].nworkers = 0;
	}
	if (r->cluster) {
		for (int i = 0; i < PH_COUNT; i++) {
			free(r->cluster->phase[i].rank);
			free(r->cluster->phase[i].detail);
		}
		free(r->cluster->host);
		free(r->cluster->rank_host);
		free(r->cluster->offset);
		free(r->cluster);
		r->cluster = NULL;
	}
}

void cluster_host_cpu(const struct cluster_run *c, int phase, unsigned host, double *user,
		      double *sys)
{
	const struct rank_phase *r = c->phase[phase].rank;

	*user = *sys = 0;
	for (unsigned i = 0; r && i < c->ranks; i++) {
		if (c->rank_host[i] != host || !r[i].ran)
			continue;
		*user += r[i].cpu_user;
		*sys += r[i].cpu_sys;
	}
}
