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

#include "report/report.h"

enum report_exit {
	REPORT_EXIT_OK = 0,
	REPORT_EXIT_USAGE = 1,
	REPORT_EXIT_INPUT = 2,	/* an input could not be read */
	REPORT_EXIT_EMPTY = 3,	/* no run to report */
	REPORT_EXIT_OUTPUT = 4,	/* an output could not be written */
};

struct report_opts {
	const char *output;
	const char *svg;
	const char *html;
	const char *baseline;
	enum report_series_mode series;
};

enum { OPT_SVG = 256, OPT_HTML, OPT_SERIES };

static const struct option long_opts[] = {
	{ "baseline", required_argument, NULL, 'b' },
	{ "output", required_argument, NULL, 'o' },
	{ "svg", required_argument, NULL, OPT_SVG },
	{ "html", required_argument, NULL, OPT_HTML },
	{ "series", required_argument, NULL, OPT_SERIES },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 },
};

static void usage(FILE *out)
{
	fputs("Usage: clyde-report [-o FILE] [--baseline NAME|KEY|first] [--svg FILE] [--html FILE]\n"
	      "                    [--series on|off|only] [FILE...]\n"
	      "Reads clyde CSV lines and JSON documents and bonnie++ CSV lines (1.98, 1.96/1.97,\n"
	      "1.03) from the FILEs, or from standard input when there are none or a FILE is -,\n"
	      "and prints one table per configuration: median rate, spread, runs, CPU per unit\n"
	      "of work and latency per phase; runs of clyde --tree (JSON) add a table of the\n"
	      "tree workloads, with their MiB/s and dead time. zcav's and clyde-zcav's output\n"
	      "(position sweeps) adds a table and a chart of rate by position; getc_putc's and\n"
	      "clyde-getc-putc's CSV line and JSON a table of the one-byte methods.\n"
	      "  -b, --baseline WHICH  show every figure as a ratio to this configuration (its\n"
	      "                        name, its key as printed, or \"first\"), > 1 is better,\n"
	      "                        marked by Welch's t-test\n"
	      "  -o, --output FILE     write the text there instead of standard output\n"
	      "      --svg FILE        write SVG charts of the same figures\n"
	      "      --html FILE       write a self-contained HTML page\n"
	      "      --series WHEN     the phases' time series (JSON clyde-result/8): on (the\n"
	      "                        default) adds their summaries to the text and their\n"
	      "                        charts to the SVG and the page, off leaves them out,\n"
	      "                        only charts them alone in the SVG and the page\n"
	      "  -h, --help            this text\n"
	      "  -V, --version         the version\n"
	      "Exit status: 0 ok, 1 usage, 2 an input could not be read, 3 nothing to report,\n"
	      "4 an output could not be written. See clyde-report(1).\n", out);
}

/* 0: go on; REPORT_EXIT_OK after --help or --version; REPORT_EXIT_USAGE. */
static int parse_args(int argc, char **argv, struct report_opts *o)
{
	int c;

	memset(o, 0, sizeof(*o));
	while ((c = getopt_long(argc, argv, "b:o:hV", long_opts, NULL)) != -1) {
		switch (c) {
		case 'b':
			o->baseline = optarg;
			break;
		case 'o':
			o->output = optarg;
			break;
		case OPT_SVG:
			o->svg = optarg;
			break;
		case OPT_HTML:
			o->html = optarg;
			break;
		case OPT_SERIES:
			if (!strcmp(optarg, "on")) {
				o->series = REPORT_SERIES_ON;
			} else if (!strcmp(optarg, "off")) {
				o->series = REPORT_SERIES_OFF;
			} else if (!strcmp(optarg, "only")) {
				o->series = REPORT_SERIES_ONLY;
			} else {
				fprintf(stderr, "clyde-report: --series %s: not on, off or only\n", optarg);
				return REPORT_EXIT_USAGE;
			}
			break;
		case 'h':
			usage(stdout);
			return -1;
		case 'V':
			printf("clyde-report %s\n", PACKAGE_VERSION);
			return -1;
		default:
			usage(stderr);
			return REPORT_EXIT_USAGE;
		}
	}
	return 0;
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

int main(int argc, char **argv)
{
	struct report_opts o;
	struct report_set s;
	bool unreadable = false, unwritten = false;
	int ret;

	ret = parse_args(argc, argv, &o);
	if (ret)
		return ret < 0 ? REPORT_EXIT_OK : ret;
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
