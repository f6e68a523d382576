// SPDX-License-Identifier: BSD-2-Clause
/*
 * clyde-report: reads clyde's and bonnie++'s results (CSV lines of any
 * of their formats, clyde's JSON documents), groups the runs into
 * configurations and prints their medians, spread and CPU cost, or their
 * ratios to a baseline. main() is the only caller of exit: it maps
 * failures to the exit status documented in clyde-report(1).
 */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/opt.h"
#include "report/report.h"
#include "report/report_db.h"

enum report_exit {
	REPORT_EXIT_OK = 0,
	REPORT_EXIT_USAGE = 1,
	REPORT_EXIT_INPUT = 2,	/* an input could not be read */
	REPORT_EXIT_EMPTY = 3,	/* no run to report */
	REPORT_EXIT_OUTPUT = 4,	/* an output could not be written */
	REPORT_EXIT_DB = 5,	/* the history could not be opened, checked, read or written */
	REPORT_EXIT_NO_DB = 6,	/* --db in a build without SQLite */
	REPORT_EXIT_REGRESSION = 7,	/* --fail-on-regression: a phase worse beyond it */
	REPORT_EXIT_TOO_FEW = 8,	/* --fail-on-regression: a phase it cannot judge */
};

struct report_opts {
	const char *output;
	const char *svg;
	const char *html;
	const char *baseline;
	enum report_series_mode series;
	/* the history (--db) */
	const char *db;
	bool add;
	char *labels[REPORT_MAX_LABELS];
	unsigned nlabels;
	const char *compare_a, *compare_b;
	const char *match;	/* --match as given; NULL: not given */
	bool by_params;		/* --match=params: configurations paired by their parameters alone */
	double fail_pct;	/* < 0: not asked */
	bool allow_few;		/* the gate lets phases with too few runs pass */
	const char *history;
	const char *by;
};

static int parse_percent(const char *arg, double *pct)
{
	char *end;

	errno = 0;
	*pct = strtod(arg, &end);
	if (errno || end == arg || *end || !(*pct >= 0 && *pct < 100)) {
		fprintf(stderr, "clyde-report: --fail-on-regression=%s: not a percentage from 0 to 100\n", arg);
		return -EINVAL;
	}
	return 0;
}

/* The rows' parsers: 0, or REPORT_EXIT_USAGE with the complaint said. */
static int opt_series(void *ctx, const char *arg, char *err, size_t errlen)
{
	struct report_opts *o = ctx;

	(void)err;
	(void)errlen;
	if (!strcmp(arg, "on")) {
		o->series = REPORT_SERIES_ON;
	} else if (!strcmp(arg, "off")) {
		o->series = REPORT_SERIES_OFF;
	} else if (!strcmp(arg, "only")) {
		o->series = REPORT_SERIES_ONLY;
	} else {
		fprintf(stderr, "clyde-report: --series %s: not on, off or only\n", arg);
		return REPORT_EXIT_USAGE;
	}
	return 0;
}

/* --label K=V: the argument is argv's own, kept as given. */
static int opt_label(void *ctx, const char *arg, char *err, size_t errlen)
{
	struct report_opts *o = ctx;

	(void)err;
	(void)errlen;
	if (o->nlabels == REPORT_MAX_LABELS) {
		fprintf(stderr, "clyde-report: more than %d --label\n", REPORT_MAX_LABELS);
		return REPORT_EXIT_USAGE;
	}
	if (!strchr(arg, '=') || !report_db_key_ok(arg, (size_t)(strchr(arg, '=') - arg))) {
		fprintf(stderr, "clyde-report: --label %s: not K=V with K letters, digits, '_', '.' or '-'\n",
			arg);
		return REPORT_EXIT_USAGE;
	}
	o->labels[o->nlabels++] = (char *)arg;
	return 0;
}

static int opt_fail(void *ctx, const char *arg, char *err, size_t errlen)
{
	struct report_opts *o = ctx;

	(void)err;
	(void)errlen;
	return parse_percent(arg, &o->fail_pct) ? REPORT_EXIT_USAGE : 0;
}

static int opt_match(void *ctx, const char *arg, char *err, size_t errlen)
{
	struct report_opts *o = ctx;

	(void)err;
	(void)errlen;
	if (strcmp(arg, "key") && strcmp(arg, "params")) {
		fprintf(stderr, "clyde-report: --match %s: not key or params\n", arg);
		return REPORT_EXIT_USAGE;
	}
	o->match = arg;
	o->by_params = !strcmp(arg, "params");
	return 0;
}



#define SETS(f)		OPT_FIELD(struct report_opts, f, bool)
#define KEEPS(f)	OPT_FIELD(struct report_opts, f, const char *)

/* The history's forms of the synopsis, on --db's row. */
static const char *const db_forms[] = {
	"--db DB --add [--label K=V ...] [FILE...]",
	"--db DB --compare SEL SEL [--match key|params]\n"
	"[--fail-on-regression=PCT [--allow-few]] [-o FILE]",
	"--db DB --history SEL [--by LABEL] [-o FILE|--svg FILE|--html FILE]",
	NULL
};

static const struct opt_row rows[] = {
	{ .synopsis = "[--baseline NAME|KEY|first]", .syn_at = OPT_SYN(0, 1),
	  .name = "baseline", .letter = 'b', .arg = required_argument, KEEPS(baseline),
	  .help = "  -b, --baseline WHICH  show every figure as a ratio of means to this\n"
		  "                        configuration's (its name, its key as printed, or\n"
		  "                        \"first\"), > 1 is better, marked by Welch's t-test\n" },
	{ .synopsis = "[-o FILE]", .syn_at = OPT_SYN(0, 0),
	  .name = "output", .letter = 'o', .arg = required_argument, KEEPS(output),
	  .help = "  -o, --output FILE     write the text there instead of standard output\n" },
	{ .synopsis = "[--svg FILE]", .syn_at = OPT_SYN(0, 1),
	  .name = "svg", .arg = required_argument, KEEPS(svg),
	  .help = "      --svg FILE        write SVG charts of the same figures\n" },
	{ .synopsis = "[--html FILE]", .syn_at = OPT_SYN(0, 1),
	  .name = "html", .arg = required_argument, KEEPS(html),
	  .help = "      --html FILE       write a self-contained HTML page\n" },
	{ .synopsis = "[--series on|off|only]", .syn_at = OPT_SYN(1, 0),
	  .name = "series", .arg = required_argument, .parse = opt_series,
	  .help = "      --series WHEN     the phases' time series (JSON clyde-result/8): on (the\n"
		  "                        default) adds their summaries to the text and their\n"
		  "                        charts to the SVG and the page, off leaves them out,\n"
		  "                        only charts them alone in the SVG and the page\n" },
	/* the operands, read in order after the options */
	{ .synopsis = "[FILE...]", .syn_at = OPT_SYN(1, 0) },
	{ .help = "The results history (SQLite; SEL is K=V[,K=V...], a label or a column of runs\n"
		  "such as kernel, fs (or type), options, name, config, host, device, engine):\n" },
	{ .forms = db_forms,
	  .name = "db", .arg = required_argument, KEEPS(db),
	  .help = "      --db DB           the history's database file\n" },
	{ .name = "add", .arg = no_argument, SETS(add),
	  .help = "      --add             add every run the FILEs hold (once: a run already there\n"
		  "                        is not added again), in one transaction\n" },
	{ .name = "label", .arg = required_argument, .parse = opt_label,
	  .help = "      --label K=V       with --add: label the runs (repeatable)\n" },
	{ .name = "compare", .arg = required_argument, KEEPS(compare_a),
	  .help = "      --compare A B     per configuration and phase, B's mean rate against A's:\n"
		  "                        the ratio of the means (> 1 better), CV, Welch's t-test\n"
		  "                        of the same means, a verdict (better, worse, within\n"
		  "                        noise, too few runs: under 3 a side)\n" },
	{ .name = "match", .arg = required_argument, .parse = opt_match,
	  .help = "      --match WHAT      with --compare: pair the sides' configurations by key\n"
		  "                        (a name and its parameters, the default) or by params\n"
		  "                        (the parameters alone, across names), for sides told\n"
		  "                        apart by a field: --compare fs=ext4 fs=xfs --match params\n" },
	{ .name = "fail-on-regression", .arg = required_argument, .parse = opt_fail,
	  .help = "      --fail-on-regression=PCT  with --compare: exit 7 when a phase is worse by\n"
		  "                        more than PCT percent, significantly; else 8 when a\n"
		  "                        phase has too few runs for a verdict\n" },
	{ .name = "allow-few", .arg = no_argument, SETS(allow_few),
	  .help = "      --allow-few       with --fail-on-regression: let phases with too few runs\n"
		  "                        pass (no 8)\n" },
	{ .name = "history", .arg = required_argument, KEEPS(history),
	  .help = "      --history SEL     chart each phase's median and spread over the runs' dates\n"
		  "                        (SVG on -o or standard output, or --svg, --html)\n" },
	{ .name = "by", .arg = required_argument, KEEPS(by),
	  .help = "      --by LABEL        with --history: over the label's values instead\n" },
	{ .name = "help", .letter = 'h', .arg = no_argument, .does = OPT_HELP,
	  .help = "  -h, --help            this text\n" },
	{ .name = "version", .letter = 'V', .arg = no_argument, .does = OPT_VERSION,
	  .help = "  -V, --version         the version\n" },
};

/* getopt says what is wrong itself, as before the rows. */
static const struct opt_table table = {
	.program = "clyde-report",
	.usage = "Usage:",
	.version = PACKAGE_VERSION,
	.rows = rows,
	.count = sizeof(rows) / sizeof(rows[0]),
	.getopt_says = true,
	.intro = "Reads clyde CSV lines and JSON documents and bonnie++ CSV lines (1.98, 1.96/1.97,\n"
		 "1.03) from the FILEs, or from standard input when there are none or a FILE is -,\n"
		 "and prints one table per configuration: median rate, spread, runs, CPU per unit\n"
		 "of work and latency per phase; runs of clyde --tree (JSON) add a table of the\n"
		 "tree workloads, with their MiB/s and dead time. zcav's and clyde-zcav's output\n"
		 "(position sweeps) adds a table and a chart of rate by position; getc_putc's and\n"
		 "clyde-getc-putc's CSV line and JSON a table of the one-byte methods.\n",
	.outro = "Exit status: 0 ok, 1 usage, 2 an input could not be read, 3 nothing to report\n"
		 "(or to compare), 4 an output could not be written, 5 a database error, 6 --db\n"
		 "in a build without SQLite, 7 --fail-on-regression found one, 8 it found a\n"
		 "phase with too few runs. See clyde-report(1).\n",
};

static void usage(FILE *out)
{
	opt_usage(out, &table);
}

/*
 * 0: go on, optind the first operand (getopt's, as the readers below take
 * it); OPT_DONE after --help or --version; REPORT_EXIT_USAGE.
 */
static int parse_args(int argc, char **argv, struct report_opts *o)
{
	char err[256] = "";
	int next, ret;

	memset(o, 0, sizeof(*o));
	o->fail_pct = -1;
	ret = opt_parse(&table, o, argc, argv, &next, err, sizeof(err));
	if (ret == OPT_BAD || ret == -ENOMEM) {
		usage(stderr);
		return REPORT_EXIT_USAGE;
	}
	return ret;
}

/* Reads one input into s; false when it could not be read (said on stderr). */
static bool read_input(struct report_set *s, const char *path)
{
	bool is_stdin = !strcmp(path, "-");
	FILE *in = is_stdin ? stdin : fopen(path, "r");
	int ret;

	if (!in) {
		fprintf(stderr, "clyde-report: %s: %s\n", path, strerror(errno));
		return false;
	}
	ret = report_read_stream(s, in, path, stderr);
	if (!is_stdin)
		fclose(in);
	if (ret == -EFBIG)
		fprintf(stderr, "clyde-report: %s: larger than %u MiB: not read\n", path, REPORT_MAX_INPUT >> 20);
	else if (ret)
		fprintf(stderr, "clyde-report: %s: %s\n", path, strerror(-ret));
	return !ret;
}

static void list_configs(const struct report_set *s)
{
	fputs("clyde-report: the configurations are:\n", stderr);
	for (size_t i = 0; i < s->nconfigs; i++)
		fprintf(stderr, "  [%zu] %s\n", i + 1, s->configs[i].key);
}

static int pick_baseline(struct report_set *s, const char *which)
{
	int i = report_find_config(s, which);

	if (i == -EINVAL) {
		fprintf(stderr, "clyde-report: --baseline %s: more than one configuration has that name; give its key\n",
			which);
		list_configs(s);
		return REPORT_EXIT_USAGE;
	}
	if (i < 0) {
		fprintf(stderr, "clyde-report: --baseline %s: no configuration has that name or key\n", which);
		list_configs(s);
		return REPORT_EXIT_USAGE;
	}
	report_compare(s, i);
	return 0;
}

/* Writes one output with fn; false when it could not be written (said on stderr). */
static bool write_output(const char *path, const char *what, const struct report_set *s,
			 int (*fn)(FILE *out, const struct report_set *s))
{
	bool is_stdout = !path || !strcmp(path, "-");
	FILE *out = is_stdout ? stdout : fopen(path, "w");
	int ret;

	if (!out) {
		fprintf(stderr, "clyde-report: %s: %s\n", path, strerror(errno));
		return false;
	}
	ret = fn(out, s);
	if (fflush(out) && !ret)
		ret = -errno;
	if (!is_stdout && fclose(out) && !ret)
		ret = -errno;
	if (ret) {
		fprintf(stderr, "clyde-report: %s: %s: %s\n", is_stdout ? "standard output" : path, what,
			strerror(-ret));
		return false;
	}
	return true;
}

/* The history's options together: 0, or REPORT_EXIT_USAGE said on stderr. */
static int check_db_usage(struct report_opts *o, int argc, char **argv)
{
	unsigned actions = o->add + !!o->compare_a + !!o->history;
	const char *why = NULL, *bad = NULL;

	if (!o->db && (actions || o->nlabels || o->by || o->fail_pct >= 0 || o->allow_few || o->match))
		why = "--add, --label, --compare, --match, --fail-on-regression, --allow-few, --history "
		      "and --by need --db";
	else if (o->db && actions != 1)
		why = "--db needs one of --add, --compare and --history";
	else if (o->nlabels && !o->add)
		why = "--label goes with --add";
	else if (o->by && !o->history)
		why = "--by goes with --history";
	else if (o->fail_pct >= 0 && !o->compare_a)
		why = "--fail-on-regression goes with --compare";
	else if (o->match && !o->compare_a)
		why = "--match goes with --compare";
	else if (o->allow_few && o->fail_pct < 0)
		why = "--allow-few goes with --fail-on-regression";
	else if (o->compare_a && optind != argc - 1)
		why = "--compare takes two selections: --compare A B";
	else if (o->history && optind != argc)
		why = "--history reads the database only, no FILE";
	else if (o->db && o->baseline)
		why = "--baseline is for a report of FILEs, not with --db";
	else if ((o->add || o->compare_a) && (o->svg || o->html))
		why = "--svg and --html go with --history (or a report of FILEs)";
	else if (o->add && o->output)
		why = "--add writes no report: no -o";
	else if (o->history && o->output && (o->svg || o->html))
		why = "--history writes its SVG on -o, or to --svg and --html's files, not both";
	if (!why && o->compare_a) {
		o->compare_b = argv[optind];
		if (report_db_selection_ok(bad = o->compare_a, &why))
			report_db_selection_ok(bad = o->compare_b, &why);
	}
	if (!why && o->history)
		report_db_selection_ok(bad = o->history, &why);
	if (!why && o->by && !report_db_key_ok(o->by, strlen(o->by)))
		why = "--by: a label's key is letters, digits, '_', '.' or '-'";
	if (!why)
		return 0;
	if (bad)
		fprintf(stderr, "clyde-report: %s: %s\n", bad, why);
	else
		fprintf(stderr, "clyde-report: %s\n", why);
	return REPORT_EXIT_USAGE;
}

/* --add: the FILEs' runs into the history. */
static int db_add(const struct report_opts *o, int argc, char **argv)
{
	struct report_set s;
	struct report_db *db;
	bool unreadable = false;
	unsigned added, present;
	char err[512];
	int ret;

	report_set_init(&s);
	if (optind == argc)
		unreadable = !read_input(&s, "-");
	for (int i = optind; i < argc; i++)
		unreadable |= !read_input(&s, argv[i]);
	if (s.errors)
		fprintf(stderr, "clyde-report: %u malformed line%s skipped\n", s.errors, s.errors == 1 ? "" : "s");
	if (!s.nruns && !s.nsweeps) {
		fputs("clyde-report: no runs to add\n", stderr);
		ret = unreadable ? REPORT_EXIT_INPUT : REPORT_EXIT_EMPTY;
		goto free_set;
	}
	ret = report_db_open(&db, o->db, true, err, sizeof(err));
	if (!ret) {
		ret = report_db_add(db, &s, o->labels, o->nlabels, &added, &present, err, sizeof(err));
		report_db_close(db);
	}
	if (ret) {
		fprintf(stderr, "clyde-report: %s\n", err);
		ret = REPORT_EXIT_DB;
		goto free_set;
	}
	printf("clyde-report: %s: %u run%s added, %u already there\n", o->db, added, added == 1 ? "" : "s",
	       present);
	ret = unreadable ? REPORT_EXIT_INPUT : REPORT_EXIT_OK;
free_set:
	report_set_free(&s);
	return ret;
}

/* The points sel selects, or a status said on stderr. */
static int db_select(struct report_db *db, const char *sel, const char *by, struct report_points *pts)
{
	char err[512];

	if (report_db_select(db, sel, by, pts, err, sizeof(err))) {
		fprintf(stderr, "clyde-report: %s\n", err);
		return REPORT_EXIT_DB;
	}
	if (!pts->n) {
		fprintf(stderr, "clyde-report: %s: no run in %s has it%s%s\n", sel, "the history",
			by ? " and the label " : "", by ? by : "");
		return REPORT_EXIT_EMPTY;
	}
	return 0;
}

/* Opens a file to write, or standard output for NULL or "-"; NULL said on stderr. */
static FILE *open_output(const char *path)
{
	FILE *out = !path || !strcmp(path, "-") ? stdout : fopen(path, "w");

	if (!out)
		fprintf(stderr, "clyde-report: %s: %s\n", path, strerror(errno));
	return out;
}

static int close_output(FILE *out, const char *path, int ret)
{
	if (fflush(out) && !ret)
		ret = -errno;
	if (out != stdout && fclose(out) && !ret)
		ret = -errno;
	if (ret == -ENOMEM) {
		fputs("clyde-report: out of memory\n", stderr);
		return REPORT_EXIT_DB;
	}
	if (ret) {
		fprintf(stderr, "clyde-report: %s: %s\n", out == stdout ? "standard output" : path,
			strerror(-ret));
		return REPORT_EXIT_OUTPUT;
	}
	return 0;
}

enum db_output { DB_COMPARE, DB_SVG, DB_HTML };

/* One output of --compare or --history to path (NULL or "-": standard output): 0 or a status. */
static int db_write(const struct report_opts *o, const char *path, enum db_output kind,
		    const struct report_points *a, const struct report_points *b,
		    struct report_gate *gate)
{
	FILE *out = open_output(path);
	int ret;

	if (!out)
		return REPORT_EXIT_OUTPUT;
	if (kind == DB_COMPARE)
		ret = report_sets_compare(out, stderr, a, b, o->compare_a, o->compare_b, o->fail_pct,
					  gate);
	else if (kind == DB_HTML)
		ret = report_history_html(out, a, o->history);
	else
		ret = report_history_svg(out, a, o->history);
	return close_output(out, path, ret);
}

/*
 * What --compare's findings make of the exit status: sides that share no
 * configuration compared nothing (3, gate or not); with the gate, a
 * regression (7), else a phase it could not judge (8, unless --allow-few).
 */
static int gate_status(const struct report_opts *o, const struct report_gate *g)
{
	if (!g->shared && o->by_params) {
		fprintf(stderr, "clyde-report: %s and %s share no parameters (-s, -n, ...): nothing "
			"compared\n", o->compare_a, o->compare_b);
		return REPORT_EXIT_EMPTY;
	}
	if (!g->shared) {
		fprintf(stderr, "clyde-report: %s and %s share no configuration (a name and its "
			"parameters): nothing compared; --match=params pairs them by their parameters "
			"alone, across names\n",
			o->compare_a, o->compare_b);
		return REPORT_EXIT_EMPTY;
	}
	if (o->fail_pct < 0)
		return 0;
	if (g->regressions) {
		fprintf(stderr, "clyde-report: %u phase%s worse by more than %g%%\n",
			g->regressions, g->regressions == 1 ? "" : "s", o->fail_pct);
		return REPORT_EXIT_REGRESSION;
	}
	if (g->too_few && !o->allow_few) {
		fprintf(stderr, "clyde-report: %u phase%s with too few runs to judge "
			"(under %d a side); --allow-few lets them pass\n", g->too_few,
			g->too_few == 1 ? "" : "s", REPORT_MIN_RUNS);
		return REPORT_EXIT_TOO_FEW;
	}
	return 0;
}

/* --compare and --history: the history read. */
static int db_query(const struct report_opts *o)
{
	struct report_points a = { 0 }, b = { 0 };
	struct report_gate gate = { 0 };
	struct report_db *db;
	char err[512];
	int ret, ret2 = 0;

	ret = report_db_open(&db, o->db, false, err, sizeof(err));
	if (ret) {
		fprintf(stderr, "clyde-report: %s\n", err);
		return REPORT_EXIT_DB;
	}
	ret = db_select(db, o->compare_a ? o->compare_a : o->history, o->by, &a);
	if (!ret && o->compare_a)
		ret = db_select(db, o->compare_b, NULL, &b);
	if (ret)
		goto free_points;
	if (o->by_params) {
		report_points_by_params(&a);
		report_points_by_params(&b);
	}
	if (o->compare_a) {
		ret = db_write(o, o->output, DB_COMPARE, &a, &b, &gate);
	} else if (o->svg || o->html) {
		if (o->svg)
			ret = db_write(o, o->svg, DB_SVG, &a, NULL, NULL);
		if (o->html)
			ret2 = db_write(o, o->html, DB_HTML, &a, NULL, NULL);
		ret = ret ? ret : ret2;
	} else {
		ret = db_write(o, o->output, DB_SVG, &a, NULL, NULL);
	}
	if (!ret && o->compare_a)
		ret = gate_status(o, &gate);
free_points:
	report_points_free(&a);
	report_points_free(&b);
	report_db_close(db);
	return ret;
}

static int db_main(const struct report_opts *o, int argc, char **argv)
{
	const char *how;

	if (!report_db_built(&how)) {
		fprintf(stderr, "clyde-report: --db: %s\n", how);
		return REPORT_EXIT_NO_DB;
	}
	return o->add ? db_add(o, argc, argv) : db_query(o);
}

int main(int argc, char **argv)
{
	struct report_opts o;
	struct report_set s;
	bool unreadable = false, unwritten = false;
	int ret;

	ret = parse_args(argc, argv, &o);
	if (ret)
		return ret < 0 ? REPORT_EXIT_OK : ret;
	ret = check_db_usage(&o, argc, argv);
	if (ret)
		return ret;
	if (o.db)
		return db_main(&o, argc, argv);
	report_set_init(&s);
	s.series_mode = o.series;
	if (optind == argc)
		unreadable = !read_input(&s, "-");
	for (int i = optind; i < argc; i++)
		unreadable |= !read_input(&s, argv[i]);
	if (s.errors)
		fprintf(stderr, "clyde-report: %u malformed line%s skipped\n", s.errors, s.errors == 1 ? "" : "s");
	if (!s.nruns && !s.nsweeps && !s.ngetc) {
		fputs("clyde-report: no runs to report\n", stderr);
		ret = unreadable ? REPORT_EXIT_INPUT : REPORT_EXIT_EMPTY;
		goto out;
	}
	ret = report_group(&s);
	if (ret) {
		fprintf(stderr, "clyde-report: %s\n", strerror(-ret));
		ret = REPORT_EXIT_INPUT;
		goto out;
	}
	if (o.baseline) {
		ret = pick_baseline(&s, o.baseline);
		if (ret)
			goto out;
	}
	unwritten |= !write_output(o.output, "the text", &s, report_out_text);
	if (o.svg)
		unwritten |= !write_output(o.svg, "the SVG charts", &s, report_out_svg);
	if (o.html)
		unwritten |= !write_output(o.html, "the HTML page", &s, report_out_html);
	ret = unwritten ? REPORT_EXIT_OUTPUT : unreadable ? REPORT_EXIT_INPUT : REPORT_EXIT_OK;
out:
	report_set_free(&s);
	return ret;
}
