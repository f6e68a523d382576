/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef CLYDE_FORMAT_H
#define CLYDE_FORMAT_H

#include <stdbool.h>
#include <stdio.h>

#include "core/phase.h"
#include "core/result.h"
#include "sys/cache.h"

/* Pure functions of a run_result: same input, same bytes. */

struct format_opts {
	bool exact;	/* measured numbers where bonnie++ prints +++++ */
	/* The JSON document's "plan" and "elapsed_s": 0 where unknown (null). */
	double estimate_s;	/* the invocation's own estimate, calibration included */
	double calibration_s;
	double elapsed_s;	/* measured: the calibration's start to the last run's end */
};

/* bonnie++ 2.00a's text table (I/O section, then file section). */
void format_table(FILE *out, const struct run_result *r, const struct format_opts *fo);

/* One CSV line, format 1.98, 50 fields, newline-terminated. */
void format_csv(FILE *out, const struct run_result *r, const struct format_opts *fo);

/* The header line that -x prints before its CSV lines (all 50 names). */
void format_csv_header(FILE *out);

/*
 * The JSON document of count runs, the last of which may have failed
 * (its failure says where), and how clyde ended: its exit status and,
 * when it stopped early, why (NULL when it did not).
 */
void format_json(FILE *out, const struct run_result *runs, unsigned count,
		 const struct format_opts *fo, int exit_status, const char *stopped);

/* clyde's extra tables, between bonnie++'s table and the CSV. */
void format_own_table(FILE *out, const struct run_result *r);
void format_latency_table(FILE *out, const struct run_result *r);
/* --latency-target and --open-loop: the capacity and the steps; nothing without them */
void format_capacity_table(FILE *out, const struct run_result *r);
/* --tree: the tree phases and their operations' latency; nothing without --tree. */
void format_tree_table(FILE *out, const struct run_result *r);
/* Under mpirun: the aggregate's views, the ranks' spread, each host's CPU; nothing alone. */
void format_cluster_table(FILE *out, const struct run_result *r);
void format_cpu_table(FILE *out, const struct run_result *r);
/* --ceilings: each phase as a fraction of what the machine allows. */
void format_ceilings_table(FILE *out, const struct run_result *r);
/*
 * --profile's figures that divide by the phase's work, for every output:
 * -1 where a figure does not apply or is not known.
 */
struct profile_derived {
	const char *unit;	/* "GiB", "1000 seeks", "1000 files" */
	double units;		/* the phase's work in that unit */
	double self_per_unit;	/* CPU s of clyde's process */
	double caused_per_unit;	/* CPU s of everything the phase caused */
	double caused_s;
	double outside_s;	/* caused minus clyde's process */
	double outside_fraction;
	double write_amp;	/* device bytes written / bytes the phase wrote */
	double read_amp;
	const char *per_op;	/* "byte", "seek", "file": perf counts are per this */
	double cycles_per_op;
	double instructions_per_op;
};

void profile_derive(const struct run_result *r, enum phase_id id, struct profile_derived *d);

/* --profile: CPU split, cost per unit, perf counters, device; then notes. */
void format_profile_tables(FILE *out, const struct run_result *r);
/* --profile=layers: each phase's latency split; nothing without it. */
void format_layers_table(FILE *out, const struct run_result *r);
/* A phase's ceiling in its rate's unit, or 0 where none applies. */
double phase_ceiling(const struct run_result *r, enum phase_id id);

/* -x: per phase median, min..max and spread of the runs' rates. */
struct phase_summary {
	unsigned runs;		/* runs in which the phase ran */
	double median, min, max;
	double cv_percent;	/* standard deviation over mean */
	double median_cpu;
};

void summarize_phase(const struct run_result *runs, unsigned count, enum phase_id id,
		     struct phase_summary *out);
void format_summary(FILE *out, const struct run_result *runs, unsigned count);

/*
 * The topology and placement lines, and a line for each phase whose
 * slowest worker ran below 0.9 x the median worker's rate.
 */
void format_placement(FILE *out, const struct run_result *r);
/* A worker's rate in its phase's unit per second. */
double worker_rate(const struct worker_result *w);

/* clyde's context lines: version, engine, cache mode, filesystem, machine. */
void format_context(FILE *out, const struct run_result *r);

/* A name from the system (a mount point, a thread) in a text line: no commas, no newlines. */
void format_put_field(FILE *out, const char *s);

/* Cells shared by the table and CSV formatters. */
void format_latency(char *buf, size_t len, double seconds);
/* bonnie++'s slot in a run (core/phase.h): its phase's result, one not run if no row has it. */
const struct phase_result *format_slot(const struct run_result *r, enum csv_slot slot,
				       enum phase_id *id);
void format_kib_rate(char *buf, size_t len, double kib_per_s);
void format_count5(char *buf, size_t len, double value, bool seeks);

/*
 * --- the table of output formats (format_registry.c) ---
 *
 * What a run reports is the table's rows, walked in order: an output
 * format is one file with its function and one row saying when it
 * applies and which stream it writes. The JSON document is not a row:
 * it is one file for every run, written whole or not at all.
 */

/* What chooses the outputs: the options, said for the formats (which see no options.h). */
struct format_request {
	const struct format_opts *fo;
	unsigned repeats;	/* -x: one table for one run; the CSV header and summary for several */
	unsigned run;		/* the run reported, from 0 */
	bool placement;		/* several workers, or a placement asked for */
	bool latency;		/* --latency */
	bool cpu;		/* --cpu */
	bool ceilings;		/* --ceilings */
	bool profile;		/* --profile */
	enum cache_mode cache;	/* the plan's: a drop that did not drop is warned of */
	const char *dir;	/* -d, for that warning */
};

/* Where a row writes; the walker skips a row whose stream is NULL. */
enum format_stream {
	FORMAT_LOG,	/* stderr: context lines, notes, warnings */
	FORMAT_TEXT,	/* the tables: stdout, or stderr under -q, -x or --json - */
	FORMAT_CSV,	/* the CSV lines: stdout; none under --json - */
	FORMAT_STREAMS,
};

/* When a row writes. */
enum format_moment {
	FORMAT_BEFORE_RUNS,	/* runs NULL, count 0: -x's CSV header */
	FORMAT_EACH_RUN,	/* the run that just ended, count 1 */
	FORMAT_AFTER_RUNS,	/* every run that finished: -x's summary */
};

/*
 * A format's function and its predicate see the runs of their moment
 * and what was asked.
 */
typedef void format_write_fn(FILE *out, const struct run_result *runs, unsigned count,
			     const struct format_request *req);
typedef bool format_applies_fn(const struct run_result *runs, unsigned count,
			       const struct format_request *req);
/* Most formats are a function of the one run alone: their row names them as they are. */
typedef void format_run_fn(FILE *out, const struct run_result *run);

struct format_row {
	const char *name;
	enum format_moment moment;
	enum format_stream stream;
	format_applies_fn *applies;	/* NULL: always */
	format_write_fn *write;		/* this, or else */
	format_run_fn *write_run;	/* of the run that just ended (FORMAT_EACH_RUN) */
};

/*
 * Every row of the moment, in the table's order, then the test rows:
 * those whose stream is open and that apply write to their stream. The
 * walker flushes nothing: the caller flushes where it always did.
 */
void format_walk(enum format_moment moment, FILE *const streams[FORMAT_STREAMS],
		 const struct run_result *runs, unsigned count, const struct format_request *req);

/*
 * Rows a test adds after the table's own (C11 has no constructors):
 * NULL and 0 in clyde, set only by a test.
 */
extern const struct format_row *format_test_rows;
extern size_t format_test_row_count;

/* format_notes.c: a run's notes on stderr, rows of the table as the formats are. */
/* A drop that left the file in memory, said loudly, not only in the label. */
void format_cache_warning(FILE *out, const struct run_result *runs, unsigned count,
			  const struct format_request *req);
/* A loop device that reads its backing file through the page cache, and its fix. */
void format_loop_warning(FILE *out, const struct run_result *runs, unsigned count,
			 const struct format_request *req);
/* Seeks or uncached block reads faster than the device can: a cache below clyde, named. */
void format_cache_below_note(FILE *out, const struct run_result *runs, unsigned count,
			     const struct format_request *req);
/* Random data on a file system that compresses: the option in buf (when given). */
bool format_compress_option(const struct run_env *e, char *buf, size_t len);
/* Random data on a compressing file system: the figures are incompressible data's. */
void format_compression_note(FILE *out, const struct run_result *runs, unsigned count,
			     const struct format_request *req);
/* --verify's mismatches in the run. */
void format_verify_note(FILE *out, const struct run_result *runs, unsigned count,
			const struct format_request *req);

#endif
