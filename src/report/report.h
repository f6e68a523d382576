/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef CLYDE_REPORT_H
#define CLYDE_REPORT_H

/*
 * clyde-report: runs read from clyde's and bonnie++'s CSV lines and
 * clyde's JSON documents, grouped into configurations, summarised, and
 * compared with a baseline. The readers fill report_run; the statistics
 * fill report_config; the formatters (text, SVG, HTML) are pure
 * functions of a report_set.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "core/clyde.h"

/*
 * The columns a report compares: each phase's measures. Every phase has
 * the first RM_COUNT; the tree workloads (clyde --tree, JSON only) have
 * two more of their own. Arrays and loops over every measure use RM_ALL.
 */
enum report_measure {
	RM_RATE,	/* KiB/s, seeks/s or files/s: higher is better */
	RM_CPU,		/* CPU seconds per unit of work (MiB, 1000 seeks, 1000 files): lower is better */
	RM_LATENCY,	/* the slowest operation, microseconds: lower is better */
	RM_COUNT,	/* the measures of every phase, bonnie++'s included */
	RM_MIBS = RM_COUNT,	/* tree phases: the tree's bytes per second, MiB/s: higher is better */
	RM_DEAD,	/* tree phases: dead time, wall less user CPU (JSON dead_s), seconds: lower is better */
	RM_ALL,
};

/* The block layer's spans of --profile=layers: bio queued to issued, issued to completed. */
enum report_span {
	REPORT_SPAN_QUEUE,
	REPORT_SPAN_DEVICE,
	REPORT_SPANS,
};

/*
 * What clyde --profile measured of one phase (clyde-result/3, its
 * "profile" object). NAN where the document says null or leaves the
 * figure out: not known, which must never read as 0.
 */
/*
 * clyde --profile's split of a phase's CPU seconds over the machine's
 * CPUs (clyde-result/3's profile.window_s, process, machine and groups),
 * as clyde prints it: its columns in its order, each NAN where the
 * document says null or has no such figure.
 */
enum report_split_col {
	SPLIT_WALL,	/* window_s: the phase's wall time */
	SPLIT_CLYDE,	/* process.user_s + sys_s */
	SPLIT_URING,	/* process.io_uring_s, a part of clyde's */
	SPLIT_FS,	/* groups.filesystem_s */
	SPLIT_WBACK,	/* groups.writeback_s */
	SPLIT_BLOCK,	/* groups.block_s */
	SPLIT_KWORK,	/* groups.kworker_s */
	SPLIT_KSWAPD,	/* groups.kswapd_s */
	SPLIT_KOTHER,	/* groups.kernel_other_s */
	SPLIT_OTHERS,	/* groups.other_processes_s */
	SPLIT_IRQ,	/* machine.irq_s + softirq_s */
	SPLIT_STEAL,	/* machine.steal_s */
	SPLIT_IDLE,	/* machine.idle_s + iowait_s */
	SPLIT_UNATTR,	/* groups.unattributed_s: may be below 0 (tick rounding) */
	SPLIT_COLS,
};

struct report_split {
	bool has;		/* the phase's profile has a groups or machine object */
	unsigned cpus;		/* machine.cpus; 0 unknown */
	double v[SPLIT_COLS];
};

struct report_profile {
	bool has;		/* the phase carried a profile */
	char unit[16];		/* per_unit.unit: "GiB", "1000 seeks", "1000 files"; "" when absent */
	double clyde_per_unit;	/* CPU s per unit in clyde's process */
	double caused_per_unit;	/* CPU s per unit the phase caused, the whole machine */
	double outside_fraction;	/* of the caused CPU, outside clyde's process */
	double write_amp;	/* device bytes written over the bytes clyde wrote */
	double read_amp;	/* device bytes read over the bytes clyde read */
	double outside_s;	/* CPU seconds caused outside clyde's process */
	bool tasks_known;	/* profile.groups was not null: its top (in where) is all there was */
	/*
	 * --profile=layers (profile.layers, its state measured): each span's
	 * requests and their time summed, the block layer's queue and the
	 * device; NAN where not measured or no request completed.
	 */
	double span_requests[REPORT_SPANS];
	double span_sum_s[REPORT_SPANS];
};

/*
 * Where a profiled phase's CPU went, as clyde's --profile text says it
 * (report_where.c prints it): the busiest tasks outside clyde
 * (clyde-result/3's profile.groups.top, a kworker by its workqueue) and,
 * from clyde-result/12's profile.stacks, the layers' shares and the top
 * functions. Owned by the run; NULL where the phase has neither.
 */
#define REPORT_WHERE_NAME	64
#define REPORT_WHERE_TASKS	6
#define REPORT_WHERE_LAYERS	48
#define REPORT_WHERE_FUNCS	10

struct flame_stack;

struct report_named {
	char name[REPORT_WHERE_NAME];
	char group[24];		/* a task's group ("filesystem", "writeback"); "" otherwise */
	double v;		/* seconds of a task; a share (0 to 1) of a layer or function */
};

/* clyde-result/13: a task no snapshot counted, as the stack samples name it. */
#define REPORT_UNSEEN_MAX	5

struct report_unseen {
	char name[REPORT_WHERE_NAME];	/* the task ("[exited]", "kworker btrfs-endio") */
	char func[96];			/* the function most of its samples were in */
	char layer[32];
	double s;			/* its sampled CPU seconds */
};

struct report_where {
	/* clyde-result/13's profile.stacks.unattributed: has_unseen false before /13 */
	bool has_unseen;
	double unseen_s;		/* all such tasks' sampled CPU */
	unsigned nunseen;
	struct report_unseen unseen[REPORT_UNSEEN_MAX];
	/* clyde-result/12's folded stacks (flame graphs); owned here, freed with the run */
	struct flame_stack *folded;
	size_t nfolded;
	unsigned ntasks;
	struct report_named task[REPORT_WHERE_TASKS];
	bool has_stacks;
	double stacks_cpu_s;	/* the sampled CPU, idle apart */
	unsigned nlayers, nself, ntotal;
	struct report_named layer[REPORT_WHERE_LAYERS];
	struct report_named self[REPORT_WHERE_FUNCS];	/* by self share */
	struct report_named total[REPORT_WHERE_FUNCS];	/* by total share */
};

/*
 * One interval of a phase's time series (clyde-result/8, a phase's
 * "series" row): what the report reads of it. NAN where the document
 * says null: not known, never 0.
 */
struct report_sample {
	double t_start, t_end;	/* seconds since the phase's timed start */
	double work;		/* done in it, in the phase's unit (KiB, seeks, files) */
	double ops;		/* operations completed in it */
	double rate;		/* work / (t_end - t_start), per second */
	double p99;		/* latency p99 of its operations, seconds; NAN: none completed */
	double dirty, writeback;	/* the machine's, KiB at its end; NAN: not measured */
};

/*
 * A phase's time series: its rows, which tile [0, elapsed], in one
 * allocation (freed with the set).
 */
struct report_series {
	size_t n;		/* rows, at least 1 */
	double interval_s;	/* every interval's width but the last; NAN when not given */
	bool interval_fixed;	/* --interval set it; false: adaptive */
	bool dirty_measured;	/* some row has a dirty or writeback figure */
	char dirty_source[64];	/* what counted them ("Linux /proc/meminfo ..."); "" for none */
	struct report_sample row[];
};

/*
 * Where a clyde JSON run ran (its machine, filesystem, device, engine and
 * cache); a CSV line carries none of it (has false). Strings "" and
 * numbers NAN where the document leaves them out or says null.
 */
/*
 * What a run says its reads may not be (clyde-result/11): one row each in
 * report_stats.c's table, counted per configuration and said under it.
 */
enum report_caution {
	CAUTION_LOOP_CACHED,	/* device.loop.direct_io false: the host's page cache below */
	CAUTION_CACHE_BELOW,	/* device.cache_below: seeks no rotational device reaches */
	CAUTION_READ_BELOW,	/* device.read_cache_below: reads no rotational disk streams */
	CAUTION_COUNT
};

/* What runs with caution k did, after "N of M runs ": a clause without a comma. */
const char *report_caution_text(enum report_caution k);

struct report_env {
	bool has;
	bool caution[CAUTION_COUNT];
	char clyde_version[32];
	/*
	 * Where it ran (/10), else the cluster's first host; "": none. Room for
	 * any host name a system allows (Linux 64 bytes, POSIX's least 255),
	 * more than clyde itself writes.
	 */
	char host[256];
	char os[32], kernel[96], arch[32], cpu_model[128];
	double cpus, ram_bytes;
	char fs_type[32], fs_source[128], fs_mountpoint[256], fs_options[256];
	char fs_super_options[256];	/* /11: the filesystem's own; "" not known */
	char device[64];
	char engine[32];
	/* the setup the key adds (report_key_setup): "" / 0 / false where not known */
	char data_pattern[32];
	double iodepth;
	bool direct;
	char cache_mode[32], cache_outcome[128];
	double resident_worst_pct;
};

/*
 * clyde-result/15 (issue 45): a phase's capacity under a latency bound,
 * its "capacity" object. The search (--latency-target): a closed-loop
 * search over concurrency, each window a probe; the open-loop steps
 * (--open-loop): requests on a schedule, latency from the scheduled time.
 * NAN where the document says null; owned by the run.
 */
struct report_cap_probe {
	double concurrency, rate;	/* threads; operations per second */
	double latency_s;		/* the percentile's latency; NAN: null */
	double samples, seconds;
	bool within, few;		/* within the target; under its samples at 10 x step */
};

struct report_cap_step {
	double offered, achieved;	/* operations per second */
	double seconds, scheduled, completed, sent_late, unsent, errors;
	/* from the scheduled time, and the service time alone: NAN where null */
	double p50_s, p99_s, p999_s, max_s;
	double service_p50_s, service_p99_s, service_p999_s, service_max_s;
};

struct report_capacity {
	bool has_search;
	double percentile;	/* 99.0 for p99 */
	double target_s, min_samples;
	double unbounded_rate;	/* the phase's own figure; NAN: null */
	bool met;		/* some window within the target */
	double rate, concurrency;	/* capacity at the bound; rate 0 when not met */
	size_t nprobes;
	struct report_cap_probe *probe;
	bool has_open_loop;
	char arrivals[16];	/* "fixed", "poisson" */
	char mode[16];		/* "sweep", "rates" */
	double inflight;
	double knee;		/* offered rate where achieved first fell below 95%; NAN: none */
	bool saturated;
	size_t nsteps;
	struct report_cap_step *step;
};

/* One run, from one CSV line or one run of a JSON document. */
struct report_run {
	char source[256];	/* file name, or "-" for stdin */
	unsigned line;		/* line of the CSV line or start of the JSON run */
	char format[24];	/* "clyde-csv", "bonnie-1.98", "bonnie-1.97", "bonnie-1.03", "clyde-json" */
	char version[32];	/* the tool's version field; "" for 1.03 */
	char name[128];
	char key[1024];		/* the configuration: name, parameters and setup: report_key() */
	/* Parameters as the CSV writes them (strings, since bonnie++'s vary). */
	char size[32];
	char chunk[32];
	char seeks[32];
	char seekers[32];
	char files[32];
	char max_size[32];
	char min_size[32];
	char dirs[32];
	char file_chunk[32];
	unsigned concurrency;
	char seed[24];		/* decimal; "" when the format has none (bonnie++ 1.03) */
	/*
	 * What makes it this run and no other, the history's key (report_db.c):
	 * a clyde-result/10 run's seed, start and host, "run:SEED|STARTED_AT|HOST";
	 * "" for a run that does not say when it began (a CSV line, an older
	 * document), which is then known by its line (report_line_key).
	 */
	char identity[320];	/* "run:" SEED "|" STARTED_AT "|" HOST: room for each whole */
	char started_at[32];	/* /10: "2026-12-06T07:10:02.123456Z"; "" not known */
	/*
	 * Its line: "csv:" and its CSV line (a clyde JSON run's own "csv", so
	 * that the document and its line are one run), or for a JSON run
	 * without one "json:" and its name, key, seed and figures; and which
	 * of its input's runs with that line it is (1, 2, ...), since two runs
	 * of one input with the same line are two runs.
	 */
	char line_identity[768];
	unsigned occurrence;
	struct report_env env;
	bool seeks_timed;	/* clyde chose the seek count: not part of the key */
	/*
	 * clyde-result/14 (issue 44): the filesystem's age, "fresh" or
	 * "aged:FULL:CHURN[:PROFILE]" (report_age.c); "" not known (a CSV line,
	 * a document before /14). Its fill while the phases ran, whole percent
	 * of its capacity; "" not known.
	 */
	char age[64];
	char fill[8];
	/* clyde --tree (clyde-result/4): "" when the run had no tree. */
	char tree[48];		/* "SHAPE:SCALE", as --tree takes it: "ports:0.1" */
	char tree_seed[24];	/* --tree-seed, decimal */
	double tree_files, tree_dirs, tree_bytes;	/* the tree it made */
	/* Per phase and measure: has a value (not empty, not +++++). */
	bool has[PH_COUNT][RM_ALL];
	double v[PH_COUNT][RM_ALL];
	bool hidden[PH_COUNT];	/* printed as +++++ */
	/* JSON "too_short": ran under 0.5 s; its figures are in has and v all the same */
	bool too_short[PH_COUNT];
	bool has_profile;	/* any phase has prof[].has */
	struct report_profile prof[PH_COUNT];
	/* clyde-result/8: each phase's time series; NULL where it has none. Owned by the run. */
	struct report_series *series[PH_COUNT];
	bool has_series;	/* any phase has one */
	/* --profile's CPU split of each phase (report_split.c); has false where none */
	struct report_split split[PH_COUNT];
	/* --profile's where (report_where): NULL where a phase has none. Owned by the run. */
	struct report_where *where[PH_COUNT];
	/* clyde-result/15: each phase's capacity; NULL where none. Owned by the run. */
	struct report_capacity *capacity[PH_COUNT];
	bool has_capacity;	/* any phase has one */
};

/* A configuration: the runs that share a key, summarised. */
struct report_stat {
	unsigned n;		/* runs with a value */
	double median, min, max;
	double mean, sd;	/* sd with n - 1; 0 when n < 2 */
	double cv_percent;
	double *values;		/* the n values, sorted */
};

struct report_config {
	char key[1024];
	char name[128];
	unsigned runs;
	struct report_stat stat[PH_COUNT][RM_ALL];
	/* Against the baseline (when one is set and both have values). */
	bool has_ratio[PH_COUNT][RM_ALL];
	double ratio[PH_COUNT][RM_ALL];	/* of the means, > 1 better whatever the measure */
	bool within_noise[PH_COUNT][RM_ALL];	/* Welch's t-test p >= 0.05, or n < 2 on either side */
	double p_value[PH_COUNT][RM_ALL];	/* -1 when not computed */
	/* of the config's rate ratios over the set's geomean_phase; 0 when none */
	double geomean;
	unsigned geomean_n;	/* the phases it covers: the set's geomean_phases, or 0 */
	/* Fewer than 2 runs on a side: within_noise is set too; the text marks '?'. */
	bool untestable[PH_COUNT][RM_ALL];
	unsigned hidden[PH_COUNT];	/* runs in which the phase printed +++++ */
	unsigned too_short[PH_COUNT];	/* runs with a figure of the phase measured under 0.5 s */
	unsigned caution[CAUTION_COUNT];	/* runs with each caution */
	size_t first_run;	/* index in runs of the configuration's first run */
	char origins[160];	/* the tools of its runs: "bonnie++ 2.00a, clyde 0.1.0 JSON" */
};

/* What the outputs make of the runs' time series (clyde-report --series). */
enum report_series_mode {
	REPORT_SERIES_ON,	/* the text's summaries, the SVG's and the page's charts of them */
	REPORT_SERIES_OFF,	/* none: the report as for documents without series */
	REPORT_SERIES_ONLY,	/* as ON, and the SVG and the page chart the series alone */
};

/*
 * A position sweep (read_zcav.c): zcav's text or clyde-zcav's JSON, one
 * pass over a target, or the mean of its passes, as points by position.
 * A block under a second in zcav's text has no rate (its "++++").
 */
struct report_sweep_point {
	double offset_gib;
	double mib_s;		/* NAN: zcav's "++++" */
	double seconds;
};

struct report_sweep {
	char source[256];
	unsigned line;		/* where it starts */
	char label[192];	/* "/dev/loop0, pass 2", "sda.zcav, mean of 3 passes" */
	const char *origin;	/* "zcav text", "clyde-zcav JSON" */
	size_t n, cap;
	struct report_sweep_point *pt;
};

struct report_set {
	struct report_run *runs;
	size_t nruns, cap;
	struct report_sweep *sweeps;	/* read_zcav.c; freed with the set */
	size_t nsweeps, sweeps_cap;
	struct report_config *configs;
	size_t nconfigs;
	int baseline;		/* index into configs, or -1 */
	/*
	 * The phases the geometric means cover (report_compare): those every
	 * configuration with a rate ratio has one for, so that all means are of
	 * the same phases; the others are left out of every one.
	 */
	bool geomean_phase[PH_COUNT];
	unsigned geomean_phases;
	unsigned errors;	/* malformed lines reported and skipped */
	unsigned text_lines;	/* lines without a comma (a table's text): ignored */
	enum report_series_mode series_mode;
	/* getc_putc's and clyde-getc-putc's records (report_getc below) */
	struct report_getc *getc;
	size_t ngetc, getc_cap;
};

/*
 * Charts and the page (report_svg.c, report_html.c): pure functions of
 * the set; 0, or -EIO when writing failed.
 * report_svg writes a standalone SVG 1.1 document: one bar chart per
 * phase and measure with any value, one bar per configuration (the
 * median), min..max error bars where n > 1, the baseline marked.
 * report_html writes one self-contained page (inline CSS and SVG, no
 * script): how to read it, the summary tables, then the same charts.
 */
int report_svg(FILE *out, const struct report_set *s);
int report_html(FILE *out, const struct report_set *s);

/* The <svg> element alone (no XML declaration), for embedding in a page: the bar charts. */
int report_svg_element(FILE *out, const struct report_set *s);
/*
 * The <svg> element of the time series' charts (report_svg also ends
 * with them): one per configuration and phase that has a series, its
 * runs overlaid: the rate, the machine's dirty and writeback pages on a
 * second axis where measured, the latency p99 in a strip below. Nothing
 * when no run has a series or the mode is REPORT_SERIES_OFF.
 */
int report_svg_series_element(FILE *out, const struct report_set *s);
/* Whether the outputs show any series: a run has one and the mode is not off. */
bool report_series_shown(const struct report_set *s);
/* Text or attribute value, XML-escaped; bytes that are not UTF-8 print as U+FFFD. */
void report_xml_text(FILE *out, const char *s);
/* The chart colour of configuration i ("#rrggbb"), from a fixed palette. */
const char *report_chart_color(size_t i);

/* How a chart or a column shows a measure: shown = raw * scale, in unit. */
struct report_display {
	double scale;
	const char *unit;	/* "GiB/s", "files/s", "CPU ms per MiB", "µs", "MiB/s", "ms" */
};

/* The display for values of phase ph and measure m up to max_raw. */
void report_display_pick(struct report_display *d, enum phase_id ph,
			 enum report_measure m, double max_raw);
/* The display of phase ph's column of measure m in s's tables (the page's and the text's). */
void report_column_display(struct report_display *d, const struct report_set *s,
			   enum phase_id ph, enum report_measure m);
/*
 * A KiB/s rate shown in d's MiB/s or GiB/s, as the text reports print it:
 * four significant digits, which keep a KiB/s below 1000 MiB/s and a
 * per-char rate beside block ones (report_text.c).
 */
void report_scaled_rate_text(char *buf, size_t len, double v, const struct report_display *d);
/* The display of a time series' three tenths' rates (the page's and the text's). */
void report_tenths_display(struct report_display *d, enum phase_id ph, const double tenth[3]);

/* A chart's y axis: 0..top in steps of 1, 2, 2.5 or 5 times a power of ten. */
struct report_axis {
	double top, step;
	int decimals;
};

/* The axis for values up to max (shown units); max <= 0 or not finite: 0..1. */
void report_axis_pick(struct report_axis *a, double max);
/* A tick's label: thousands and millions as k and M, the step's decimals. */
void report_tick_label(char *buf, size_t len, double v, const struct report_axis *a);

/*
 * Readers (read_input.c, read_csv.c, read_json.c). A stream may mix CSV
 * lines of every format (clyde's, bonnie++ 1.98, 1.96/1.97 and 1.03) and
 * clyde-result/1 to /15 JSON documents (/3: each phase's --profile, when
 * it ran with one; /4: the run's tree and the tree phases, when it ran
 * with --tree; /6: a run that failed is skipped as malformed; /8: each
 * phase's time series, where it was recorded; /10: the run's host and
 * start; /11: the filesystem's own options; /14: its age and fill; /15:
 * each phase's capacity under a latency bound; /5's cluster, /7's plan
 * and /9's ranks_summary are not read).
 * CSV has bonnie++'s twelve phases only, each in its slot (core/phase.h).
 * Header lines are skipped; lines without a comma (the text table around
 * a CSV line) are counted in text_lines and ignored; malformed lines and
 * documents are reported on errs (NULL: not at all) as "source:line:
 * why", counted in errors, and skipped. Both return 0, -ENOMEM, -EFBIG
 * for an input over REPORT_MAX_INPUT, or a read's -errno.
 */
#define REPORT_MAX_INPUT	(256u << 20)
/* At most this many messages per input; the rest are counted, not printed. */
#define REPORT_MAX_MESSAGES	20u

void report_set_init(struct report_set *s);
void report_set_free(struct report_set *s);
int report_read_stream(struct report_set *s, FILE *in, const char *source, FILE *errs);
int report_read_buffer(struct report_set *s, const char *buf, size_t len,
		       const char *source, FILE *errs);
/*
 * The configuration key of a run, from its name and parameters, written
 * like the options that produced it: "ext4 -s 4G::8192:5 -n 64",
 * "tmpfs -s 8M::*:5 -c 2 -n 1" (a timed seek count is "*"),
 * "xfs --tree=ports:0.1", "xfs --tree=source:1 --tree-seed=7" (the
 * tree's seed when it is not the default, 1).
 */
void report_key(struct report_run *r);
/*
 * What a JSON run's key adds from its setup, after the key above: each of
 * --engine, --iodepth, -D and --data that is not clyde's default, and the
 * filesystem's own options (clyde-result/11), "ext4 -s 4G --engine=uring
 * --iodepth=8 -D --data=zero super=rw,data=journal", so that runs that
 * differ in any of them are two configurations. A CSV line says none of
 * them and gets nothing; the run's line identity keeps the key without them.
 */
void report_key_setup(struct report_run *r);
/*
 * The key of a run's line in the history: its line_identity, and "#N"
 * after it for the Nth run of one input with that line (N > 1), so that
 * the first keeps the key older clyde-reports gave it.
 */
void report_line_key(char *buf, size_t len, const struct report_run *r);
/* "bonnie++ 2.00a", "bonnie++ 1.03", "clyde 0.1.0 CSV", "clyde 0.1.0 JSON". */
void report_run_origin(char *buf, size_t len, const struct report_run *r);
/* The unit a profile counts phase ph's CPU per: "GiB", "1000 seeks", "1000 files". */
const char *report_profile_unit(enum phase_id ph);

/*
 * The CPU cost of runs made with --profile (report_text.c; the page
 * shows the same): the figures of a phase's profile that the report
 * summarises, as medians over a configuration's profiled runs.
 */
enum report_prof_measure {
	RP_CLYDE,	/* clyde_per_unit */
	RP_CAUSED,	/* caused_per_unit */
	RP_OUTSIDE,	/* outside_fraction */
	RP_WRITE_AMP,
	RP_READ_AMP,
	RP_COUNT,
};

/* One figure of a profile; NAN when not known. */
double report_prof_value(const struct report_profile *p, enum report_prof_measure m);
/* Configuration k's runs with a profile of phase ph (0 for none: no row). */
unsigned report_prof_runs(const struct report_set *s, size_t k, enum phase_id ph);
/*
 * The median of measure m over those of configuration k's runs whose
 * profile of phase ph knows it: 0, -ENOENT when none does, -ENOMEM.
 */
int report_prof_median(const struct report_set *s, size_t k, enum phase_id ph,
		       enum report_prof_measure m, double *median);

/*
 * Statistics (report_stats.c). report_group builds configs from runs, in
 * the order their first runs were read: 0 or -ENOMEM. report_find_config
 * finds "first", a key, or a name that only one configuration has: its
 * index, -ENOENT, or -EINVAL when the name is ambiguous. report_compare
 * fills every configuration's ratios, marks and geometric mean against
 * configuration base (or clears them for -1).
 */
int report_group(struct report_set *s);
/* Whether run i is one of configuration k's (configurations hold no list of their runs). */
bool report_run_of(const struct report_set *s, size_t k, size_t i);
int report_find_config(const struct report_set *s, const char *which);
void report_compare(struct report_set *s, int base);
/*
 * Whether phase ph is left out of the geometric means although some
 * configuration has a rate ratio for it; the configurations without one
 * in buf ("[2], [5]", their numbers in the report).
 */
bool report_geomean_left_out(const struct report_set *s, enum phase_id ph, char *buf, size_t len);
/*
 * Calls fn for each phase report_geomean_left_out says is left out, in
 * the phase table's order, with its configurations' numbers; first for
 * the first. The number of phases left out.
 */
typedef void report_left_out_fn(void *arg, const struct report_set *s, enum phase_id ph,
				const char *which, bool first);
unsigned report_geomean_left_out_each(const struct report_set *s, report_left_out_fn *fn,
				      void *arg);
/* Whether configuration c has a rate ratio to the baseline for any phase. */
bool report_has_rate_ratio(const struct report_config *c);

#define REPORT_NOISE_P	0.05	/* Welch's p at or above this: within the noise */
/* The largest figure (a rate, a latency in us, a CPU %) the readers take, and the history uses */
#define REPORT_FIGURE_MAX 1e18

/* Sorted values: the median; 0 for none. */
double report_median(const double *sorted, unsigned n);
/* Fills st from the n sorted values, which become st->values (freed with the set). */
void report_stat_fill(struct report_stat *st, double *sorted, unsigned n);
/* Regularized incomplete beta function I_x(a, b); NAN outside its domain. */
double report_incomplete_beta(double a, double b, double x);
/* Two-sided p of Student's t with df degrees of freedom (df > 0, may be fractional). */
double report_t_two_sided_p(double t, double df);
/* Welch's two-sided p for the means of a and b; -1 when either has n < 2. */
double report_welch_p(const struct report_stat *a, const struct report_stat *b);

/*
 * p says no difference: at or above REPORT_NOISE_P, none (-1: too few
 * runs), or NaN (figures no test can take), which compares neither below
 * nor above and must never pass for a difference.
 */
static inline bool report_p_within_noise(double p)
{
	return !(p >= 0) || p >= REPORT_NOISE_P;
}
/* RM_RATE and RM_MIBS: higher is better; RM_CPU, RM_LATENCY and RM_DEAD: lower is better. */
bool report_higher_is_better(enum report_measure m);
/* Whether phase ph has measure m at all: RM_MIBS and RM_DEAD are the tree phases' alone. */
bool report_measure_applies(enum phase_id ph, enum report_measure m);

/* The report's tables of phases, by what the phase's row says it is. */
enum report_table {
	RT_IO,	/* bonnie++'s I/O and seeks (its first six slots) */
	RT_FILES,	/* bonnie++'s file tests */
	RT_OWN,	/* clyde's own */
	RT_TREE,	/* --tree's */
};

enum report_table report_phase_table(enum phase_id ph);
/* The ratio of a to base, oriented so that > 1 is better; false when undefined. */
bool report_ratio(enum report_measure m, double a, double base, double *ratio);
/*
 * A comparison's ratio: a's mean over base's, oriented as report_ratio;
 * false when either has no value or it is undefined. The mean, not the
 * median, because Welch's test (report_welch_p) is a test of the means:
 * the direction, the size and the noise all come from one statistic.
 */
bool report_mean_ratio(enum report_measure m, const struct report_stat *a,
		       const struct report_stat *base, double *ratio);

/*
 * A time series' summaries (report_stats.c). report_series_rate: the
 * rate over [from, to], the work done there over its length, an
 * interval's work counted in proportion to the part of it inside; NAN
 * for an empty window. report_series_stall: the longest run of
 * consecutive intervals in which no operation completed (ops == 0), the
 * first of the longest; false when there is none.
 */
struct report_stall {
	double length_s;	/* the intervals' time together */
	double start_s;		/* where the first of them began */
	size_t intervals;
};

double report_series_end(const struct report_series *se);
double report_series_rate(const struct report_series *se, double from, double to);
bool report_series_stall(const struct report_series *se, struct report_stall *st);
/* The rate in the first, middle and last tenth of the series' time. */
void report_series_tenths(const struct report_series *se, double rate[3]);
/*
 * Calls fn for each run of configuration k with a series of phase ph,
 * phase by phase in the phase table's order, runs in the order read; j:
 * the run's number in its configuration (from 1). The series tables'
 * order, the text's and the page's.
 */
void report_series_each(const struct report_set *s, size_t k,
			void (*fn)(void *arg, size_t i, unsigned j, enum phase_id ph), void *arg);
/*
 * clyde --profile's CPU split per configuration and phase (report_split.c):
 * the means over the runs whose profile of the phase has the split, each
 * column over the runs that know it (NAN where none does); the runs
 * counted in *runs, 0 where none (false: no row).
 */
bool report_split_means(const struct report_set *s, size_t k, enum phase_id ph,
			struct report_split *mean, unsigned *runs);
/* Its text (after the CPU cost) and its page's section: nothing where no run has one. */
int report_split_text(FILE *out, const struct report_set *s);
int report_split_html(FILE *out, const struct report_set *s);
/*
 * Where row (report_where.c's rows, clyde-result/13): the CPU the stack
 * samples found in tasks no snapshot counted, means over the runs that
 * name it, the largest tasks with their function and layer.
 */
void report_unseen_text(FILE *out, const struct report_set *s, size_t k, enum phase_id ph);

/* Frees what run r owns: every series, every where and every capacity. */
void report_run_free_series(struct report_run *r);
/* A capacity and its probes and steps (NULL: nothing). */
void report_capacity_free(struct report_capacity *c);
/* The folded stacks a where holds (read_json.c keeps them), freed. */
void report_where_free_folded(struct report_where *w);
/*
 * After the CPU cost, where any run has one: each configuration's phases'
 * busiest tasks outside clyde and, with stacks, their layers and top
 * functions, as means over the runs that profiled the phase
 * (report_where.c). 0 or -ENOMEM.
 */
int report_where_text(FILE *out, const struct report_set *s);
/*
 * Configuration k's folded stacks of phase ph, its runs' one after
 * another (borrowed from the runs: free only *v); *n 0 where none.
 */
int report_where_stacks(const struct report_set *s, size_t k, enum phase_id ph,
			struct flame_stack **v, size_t *n);
/* The layers whose mean share of the sampled CPU moved most from a to b: how many, or -ENOMEM. */
struct flame_mover;
int report_where_layer_moves(const struct report_set *s, size_t a, size_t b, enum phase_id ph,
			     struct flame_mover *out, size_t max);
/*
 * What moved besides the stacks, from configuration a (the baseline) to
 * b in phase ph, each as means over the runs that measured it; NAN where
 * a side did not. report_where_diff fills it, the text and the page
 * print it.
 */
struct report_where_diff {
	double amp_a[2], amp_b[2];	/* device bytes per byte clyde moved: [0] read, [1] written */
	/* --profile=layers: seconds per request queued in the block layer, at the device */
	double per_request_a[REPORT_SPANS], per_request_b[REPORT_SPANS];
	/* the task outside clyde whose CPU grew most (profile.groups.top); "" none grew */
	char task[REPORT_WHERE_NAME];
	char task_group[24];
	double task_a_s, task_b_s;	/* its mean seconds, 0 where a's top did not name it */
};
int report_where_diff(const struct report_set *s, size_t a, size_t b, enum phase_id ph,
		      struct report_where_diff *d);
/* What moved where a phase's rate differs from the baseline's beyond noise (text). */
int report_where_moves_text(FILE *out, const struct report_set *s);
/* clyde-report's page: the flame graphs per phase and configuration, and the differences. */
int report_flame_html(FILE *out, const struct report_set *s);

/* The aligned text table (report_text.c): 0, or -errno (-EIO) when writing failed. */
int report_text(FILE *out, const struct report_set *s);

/*
 * The outputs clyde-report writes (report_page.c): the runs' text, SVG
 * and page as before, with the sweeps' table, chart (every sweep's rate
 * by position, overlaid) and section; when there are sweeps and no runs,
 * theirs alone. 0 or -EIO.
 */
int report_out_text(FILE *out, const struct report_set *s);
int report_out_svg(FILE *out, const struct report_set *s);
int report_out_html(FILE *out, const struct report_set *s);

/* The position sweeps (report_sweep.c): their chart's width in SVG user units. */
#define REPORT_SWEEP_W	900
/* The sweeps' table as text. 0 or -EIO. */
int report_sweep_text(FILE *out, const struct report_set *s);
/* Their chart: its height, and the <svg> element. */
int report_sweep_svg_height(const struct report_set *s);
int report_sweep_svg_element(FILE *out, const struct report_set *s);
/* The page's section of the sweeps (nothing when there are none), for report_html. */
int report_sweep_section(FILE *out, const struct report_set *s);
/* A page of sweeps alone (no run to report). */
int report_sweep_page(FILE *out, const struct report_set *s);
void report_sweeps_free(struct report_set *s);

/*
 * bonnie++'s getc_putc and clyde-getc-putc (read_getc.c, report_getc.c):
 * the ways to move one byte at a time, kept apart from the runs (no
 * phase). One record per getc_putc CSV line (nine fields: the machine and
 * eight KiB/s, "" or "++++++" where not measured or under 0.5 s) or per
 * clyde-getc-putc/1 JSON document (twelve methods, with CPU). A JSON
 * figure under its minimum time is hidden as the CSV's is, so that both
 * of one run agree.
 */
#define REPORT_GETC_METHODS	12
#define REPORT_GETC_CSV	8	/* the CSV line's methods: the first eight */
#define REPORT_GETC_SCHEMA	"clyde-getc-putc/1"

struct report_getc {
	char source[256];
	unsigned line;
	char format[24];	/* "getc_putc-csv" or "clyde-getc-putc-json" */
	char version[32];	/* the JSON's clyde_version; "" for CSV */
	char name[128];
	double size_kib;	/* NAN: not known (CSV) */
	bool has[REPORT_GETC_METHODS];		/* a figure, shown or hidden */
	bool hidden[REPORT_GETC_METHODS];	/* ++++++ */
	double rate[REPORT_GETC_METHODS];	/* KiB/s */
	double cpu_per_mib[REPORT_GETC_METHODS];	/* CPU s per MiB; NAN: not known */
};

/* The methods' headings, in getc_putc's order and then clyde's threaded four. */
extern const char *const report_getc_columns[REPORT_GETC_METHODS];
/*
 * The records' table (text, and the page's section): per machine name,
 * the median KiB/s of each method over its records, and the median CPU
 * per MiB of the JSON records. Nothing when there is no record; 0 or -EIO.
 */
int report_getc_text(FILE *out, const struct report_set *s);
int report_getc_html(FILE *out, const struct report_set *s);

/*
 * Aged and full filesystems (report_age.c, issue 44). A run's age label
 * from clyde --age's figures: "aged:FULL:CHURN", with ":PROFILE" when the
 * profile is not clyde's default.
 */
void report_age_label(char *buf, size_t len, double full, double churn, const char *profile);
/*
 * The age a run's name carries, "fresh" or "aged:..." after its last '@'
 * (clyde-fsmatrix names the runs on a copy of an aged image so, since
 * such a run's own document has no "age"); NULL where it carries none.
 */
const char *report_age_of_name(const char *name);
/* One filesystem fresh and aged: two configurations that differ only by their age. */
struct report_age_pair {
	size_t fresh, aged;	/* indexes into configs */
	char fs[128];		/* the name without its age suffix */
	char label[64];		/* the aged one's age: "aged:80:2" */
};
struct report_age_cmp {
	struct report_age_pair *pair;
	size_t n, cap;
};
/* The pairs of the set, fresh configurations in their order; 0 or -ENOMEM. */
int report_age_compare(const struct report_set *s, struct report_age_cmp *c);
void report_age_cmp_free(struct report_age_cmp *c);
/* A pair's medians of phase ph's rate; false where either has none. */
bool report_age_figures(const struct report_set *s, const struct report_age_pair *p,
			enum phase_id ph, double *fresh, double *aged);
/*
 * Whether the order of label's filesystems by phase ph differs fresh and
 * aged; *hi above *lo fresh, below it aged (indexes into c->pair).
 */
bool report_age_flipped(const struct report_set *s, const struct report_age_cmp *c,
			const char *label, enum phase_id ph, size_t *hi, size_t *lo);
/* The "Fresh against aged" tables; nothing where no configuration has an aged twin. */
int report_age_text(FILE *out, const struct report_set *s);
int report_age_html(FILE *out, const struct report_set *s);
/* The runs' age and fill; nothing where every run is fresh or unknown and no fill is known. */
int report_age_runs_text(FILE *out, const struct report_set *s);
int report_age_runs_html(FILE *out, const struct report_set *s);

/*
 * Capacity under a latency bound (report_capacity.c, issue 45): pure
 * functions of the set; nothing where no run has a capacity.
 * The text: the searches' table (per configuration and phase: the
 * unbounded rate, the target, the capacity at the bound and its
 * concurrency, medians over the runs) and the open-loop steps' table
 * (per run and phase). The charts: per phase with open-loop steps,
 * achieved against offered rate (y = x and each knee marked) and the
 * latencies on a log axis, every configuration's curve on one chart.
 */
#define REPORT_CAP_W	900	/* the two charts of a phase side by side */
#define REPORT_CAP_H	380
int report_capacity_text(FILE *out, const struct report_set *s);
int report_capacity_html(FILE *out, const struct report_set *s);
/* The phases with open-loop steps, each a row of two charts: their height together (0: none). */
int report_capacity_svg_height(const struct report_set *s);
/* The rows of charts from y down, inside an <svg> (report_svg's). */
void report_capacity_svg_charts(FILE *out, const struct report_set *s, int y);
/* The charts alone as one <svg> element, for the page; nothing when none. */
int report_capacity_svg_element(FILE *out, const struct report_set *s);
/*
 * One configuration's open-loop curve of phase ph: its k-th point the
 * medians of its runs' k-th steps (those that have one; the runs of one
 * --open-loop are the same steps); *knee the median of its saturated
 * runs' knees (NAN: none saturated). 0, -ENOENT where none of its runs
 * has steps, -ENOMEM. *pts is the caller's to free.
 */
struct report_cap_point {
	double offered, achieved, p50_s, p99_s, p999_s;
};
int report_capacity_curve(const struct report_set *s, size_t k, enum phase_id ph,
			  struct report_cap_point **pts, size_t *n, double *knee);

#endif
