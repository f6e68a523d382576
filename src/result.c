// SPDX-License-Identifier: BSD-2-Clause
/* Phase names and the arithmetic every formatter shares. */
#include "config.h"

#include "result.h"

static const char *const names[PH_COUNT] = {
	[PH_PUTC] = "per-char write",
	[PH_PUT_BLOCK] = "block write",
	[PH_REWRITE] = "rewrite",
	[PH_GETC] = "per-char read",
	[PH_GET_BLOCK] = "block read",
	[PH_SEEKS] = "random seeks",
	[PH_SEQ_CREATE] = "sequential create",
	[PH_SEQ_STAT] = "sequential stat",
	[PH_SEQ_DEL] = "sequential delete",
	[PH_RAN_CREATE] = "random create",
	[PH_RAN_STAT] = "random stat",
	[PH_RAN_DEL] = "random delete",
};

/* bonnie++'s CSV header names. */
static const char *const csv_names[PH_COUNT] = {
	[PH_PUTC] = "putc",
	[PH_PUT_BLOCK] = "put_block",
	[PH_REWRITE] = "rewrite",
	[PH_GETC] = "getc",
	[PH_GET_BLOCK] = "get_block",
	[PH_SEEKS] = "seeks",
	[PH_SEQ_CREATE] = "seq_create",
	[PH_SEQ_STAT] = "seq_stat",
	[PH_SEQ_DEL] = "seq_del",
	[PH_RAN_CREATE] = "ran_create",
	[PH_RAN_STAT] = "ran_stat",
	[PH_RAN_DEL] = "ran_del",
};

const double latency_quantiles[LAT_QUANTILES] = { 0.50, 0.90, 0.99, 0.999 };
const char *const latency_quantile_names[LAT_QUANTILES] = { "p50", "p90", "p99", "p99.9" };

const char *phase_name(enum phase_id id)
{
	return id < PH_COUNT ? names[id] : "?";
}

const char *phase_csv_name(enum phase_id id)
{
	return id < PH_COUNT ? csv_names[id] : "?";
}

double phase_rate(const struct phase_result *p)
{
	return p->elapsed > 0 ? p->amount / p->elapsed : 0;
}

double phase_dead_time(const struct phase_result *p)
{
	double dead = p->elapsed - p->cpu_user;

	return dead > 0 ? dead : 0;
}

int phase_cpu_percent(const struct phase_result *p)
{
	/*
	 * CPU is sampled around the threads' start and join, a little more
	 * than elapsed; dividing by that same window keeps the percent within
	 * what the CPUs can give.
	 */
	double window = p->cpu_window > p->elapsed ? p->cpu_window : p->elapsed;

	if (window <= 0)
		return 0;
	return (int)((p->cpu_user + p->cpu_sys) / window * 100.0);
}
