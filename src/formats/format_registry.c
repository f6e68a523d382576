// SPDX-License-Identifier: BSD-2-Clause
/*
 * The table of output formats, in the order a run reports them (a row's
 * place is its place in its stream), and the walker that clyde's run
 * loop (clyde/session_run.c) calls before the runs, as each run ends and
 * after the last. The formatters keep their own signatures (the golden
 * tests call them directly): a formatter of the one run alone is its
 * row's write_run as it is; the four that need the request or every run
 * have an adapter here.
 */
#include "config.h"

#include "formats/format.h"

const struct format_row *format_test_rows;
size_t format_test_row_count;

/* --- when a row applies --- */

/* A row that applies when the option behind the request's field was given. */
#define ASKED(name, field) \
	static bool name(const struct run_result *runs, unsigned count, \
			 const struct format_request *req) \
	{ \
		(void)runs; \
		(void)count; \
		return req->field; \
	}

/* Placement matters with several workers or a placement asked for. */
ASKED(placement_asked, placement)
ASKED(latency_asked, latency)
ASKED(cpu_asked, cpu)
ASKED(ceilings_asked, ceilings)
ASKED(profile_asked, profile)

static bool several_runs(const struct run_result *runs, unsigned count,
			 const struct format_request *req)
{
	(void)runs;
	(void)count;
	return req->repeats > 1;
}

static bool one_run(const struct run_result *runs, unsigned count,
		    const struct format_request *req)
{
	return !several_runs(runs, count, req);
}

/* A drop that did not drop; under mpirun the worst of every rank's residency, said once. */
static bool cache_not_emptied(const struct run_result *runs, unsigned count,
			      const struct format_request *req)
{
	const struct run_env *e = &runs->env;

	(void)count;
	return req->cache != CACHE_KEEP && e->resident_known &&
	       e->resident_worst > RESIDENT_TOLERANCE_PCT;
}

static bool loop_cached(const struct run_result *runs, unsigned count,
			const struct format_request *req)
{
	(void)count;
	(void)req;
	return runs->env.loop_backing[0] && runs->env.loop_dio == 0;
}

static bool cache_below(const struct run_result *runs, unsigned count,
			const struct format_request *req)
{
	(void)count;
	(void)req;
	return runs->env.seeks_beyond_rotational > 0 || runs->env.reads_beyond_rotational > 0;
}

static bool random_on_compression(const struct run_result *runs, unsigned count,
				  const struct format_request *req)
{
	(void)count;
	(void)req;
	return format_compress_option(&runs->env, NULL, 0);
}

static bool mismatched(const struct run_result *runs, unsigned count,
		       const struct format_request *req)
{
	(void)count;
	(void)req;
	return runs->mismatches != 0;
}

/* --- the formatters in the row's form --- */

static void csv_header(FILE *out, const struct run_result *runs, unsigned count,
		       const struct format_request *req)
{
	(void)runs;
	(void)count;
	(void)req;
	format_csv_header(out);
}

static void table(FILE *out, const struct run_result *runs, unsigned count,
		  const struct format_request *req)
{
	(void)count;
	format_table(out, runs, req->fo);
}

static void csv_line(FILE *out, const struct run_result *runs, unsigned count,
		     const struct format_request *req)
{
	(void)count;
	format_csv(out, runs, req->fo);
}

static void summary(FILE *out, const struct run_result *runs, unsigned count,
		    const struct format_request *req)
{
	(void)req;
	format_summary(out, runs, count);
}

/*
 * stdout carries what bonnie++'s does: the table (and the extra tables
 * asked for) then the CSV line; stderr the context lines and notes.
 */
static const struct format_row format_rows[] = {
	{ "csv header", FORMAT_BEFORE_RUNS, FORMAT_CSV, several_runs, .write = csv_header },
	{ "context", FORMAT_EACH_RUN, FORMAT_LOG, NULL, .write_run = format_context },
	{ "placement", FORMAT_EACH_RUN, FORMAT_LOG, placement_asked, .write_run = format_placement },
	{ "cache warning", FORMAT_EACH_RUN, FORMAT_LOG, cache_not_emptied, .write = format_cache_warning },
	{ "loop cache warning", FORMAT_EACH_RUN, FORMAT_LOG, loop_cached, .write = format_loop_warning },
	{ "cache below note", FORMAT_EACH_RUN, FORMAT_LOG, cache_below, .write = format_cache_below_note },
	{ "compression note", FORMAT_EACH_RUN, FORMAT_LOG, random_on_compression,
	  .write = format_compression_note },
	{ "table", FORMAT_EACH_RUN, FORMAT_TEXT, one_run, .write = table },
	/* clyde's own phases', --tree's and mpirun's tables print nothing without them */
	{ "own phases", FORMAT_EACH_RUN, FORMAT_TEXT, one_run, .write_run = format_own_table },
	{ "tree", FORMAT_EACH_RUN, FORMAT_TEXT, NULL, .write_run = format_tree_table },
	{ "cluster", FORMAT_EACH_RUN, FORMAT_TEXT, NULL, .write_run = format_cluster_table },
	{ "latency", FORMAT_EACH_RUN, FORMAT_TEXT, latency_asked, .write_run = format_latency_table },
	/* --latency-target's and --open-loop's: nothing without them */
	{ "capacity", FORMAT_EACH_RUN, FORMAT_TEXT, NULL, .write_run = format_capacity_table },
	{ "cpu", FORMAT_EACH_RUN, FORMAT_TEXT, cpu_asked, .write_run = format_cpu_table },
	{ "ceilings", FORMAT_EACH_RUN, FORMAT_TEXT, ceilings_asked, .write_run = format_ceilings_table },
	{ "profile", FORMAT_EACH_RUN, FORMAT_TEXT, profile_asked, .write_run = format_profile_tables },
	{ "layers", FORMAT_EACH_RUN, FORMAT_TEXT, profile_asked, .write_run = format_layers_table },
	{ "verify", FORMAT_EACH_RUN, FORMAT_LOG, mismatched, .write = format_verify_note },
	{ "csv", FORMAT_EACH_RUN, FORMAT_CSV, NULL, .write = csv_line },
	{ "summary", FORMAT_AFTER_RUNS, FORMAT_LOG, several_runs, .write = summary },
};

static void walk_rows(const struct format_row *rows, size_t nrows, enum format_moment moment,
		      FILE *const streams[FORMAT_STREAMS], const struct run_result *runs,
		      unsigned count, const struct format_request *req)
{
	for (size_t i = 0; i < nrows; i++) {
		const struct format_row *row = &rows[i];
		FILE *out = streams[row->stream];

		if (row->moment != moment || !out)
			continue;
		if (row->applies && !row->applies(runs, count, req))
			continue;
		if (row->write)
			row->write(out, runs, count, req);
		else
			row->write_run(out, runs);
	}
}

void format_walk(enum format_moment moment, FILE *const streams[FORMAT_STREAMS],
		 const struct run_result *runs, unsigned count, const struct format_request *req)
{
	walk_rows(format_rows, sizeof(format_rows) / sizeof(format_rows[0]), moment, streams,
		  runs, count, req);
	walk_rows(format_test_rows, format_test_row_count, moment, streams, runs, count, req);
}
