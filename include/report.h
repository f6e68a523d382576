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

#include "clyde.h"

/* The columns a report compares: the twelve phases, each with three measures. */
enum report_measure {
	RM_RATE,	/* KiB/s, seeks/s or files/s: higher is better */
	RM_CPU,		/* CPU seconds per unit of work (MiB, 1000 seeks, 1000 files): lower is better */
	RM_LATENCY,	/* the slowest operation, microseconds: lower is better */
	RM_COUNT,
};

/* One run, from one CSV line or one run of a JSON document. */
struct report_run {
	char source[256];	/* file name, or "-" for stdin */
	unsigned line;		/* line of the CSV line or start of the JSON run */
	char format[24];	/* "clyde-csv", "bonnie-1.98", "bonnie-1.97", "bonnie-1.03", "clyde-json" */
	char version[32];	/* the tool's version field; "" for 1.03 */
	char name[128];
	char key[512];		/* the configuration: name and parameters, see report_key() */
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
	bool seeks_timed;	/* clyde chose the seek count: not part of the key */
	/* Per phase and measure: has a value (not empty, not +++++). */
	bool has[PH_COUNT][RM_COUNT];
	double v[PH_COUNT][RM_COUNT];
	bool hidden[PH_COUNT];	/* printed as +++++ */
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
	char key[512];
	char name[128];
	unsigned runs;
	struct report_stat stat[PH_COUNT][RM_COUNT];
	/* Against the baseline (when one is set and both have values). */
	bool has_ratio[PH_COUNT][RM_COUNT];
	double ratio[PH_COUNT][RM_COUNT];	/* > 1 better, whatever the measure's direction */
	bool within_noise[PH_COUNT][RM_COUNT];	/* Welch's t-test p >= 0.05, or n < 2 on either side */
	double p_value[PH_COUNT][RM_COUNT];	/* -1 when not computed */
	double geomean;		/* of the config's rate ratios; 0 when none */
	unsigned geomean_n;
};

struct report_set {
	struct report_run *runs;
	size_t nruns, cap;
	struct report_config *configs;
	size_t nconfigs;
	int baseline;		/* index into configs, or -1 */
	unsigned errors;	/* malformed lines reported and skipped */
};

#endif
