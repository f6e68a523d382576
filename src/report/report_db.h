/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef CLYDE_REPORT_DB_H
#define CLYDE_REPORT_DB_H

/*
 * clyde-report's results history: every run kept in an SQLite database
 * (report_db.c, or report_db_none.c in a build without libsqlite3), two
 * sets of it compared with their noise and a set's history charted
 * (report_sets.c, pure functions of the points the database gives).
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "report/report.h"

/* The schema this clyde-report writes; --add migrates older ones (clyde-report(1)). */
#define REPORT_DB_SCHEMA	6
/* PRAGMA application_id of a clyde history: "ClDb". */
#define REPORT_DB_APP_ID	0x436c4462
/* How long a writer waits for another's lock, milliseconds. */
#define REPORT_DB_BUSY_MS	60000
/* A verdict needs at least this many runs on each side. */
#define REPORT_MIN_RUNS	3
/* Labels one --add may give. */
#define REPORT_MAX_LABELS	32

struct report_db;

/* Whether this build has the history; false with *how: how to get one. */
bool report_db_built(const char **how);

/*
 * Opens the history at path and checks it (its application id, its
 * schema version, PRAGMA integrity_check). write: creates it when
 * missing, refuses a read-only one, and migrates an older schema;
 * otherwise it is read as it is and must exist. 0, or -errno with the
 * reason in err.
 */
int report_db_open(struct report_db **db, const char *path, bool write, char *err, size_t errlen);
void report_db_close(struct report_db *db);

/*
 * Adds every run and position sweep of s, with the labels ("K=V") given,
 * in one transaction: all of it or, on an error, nothing. A run already
 * there is not added again (its new labels are): one of the same
 * identity (seed, start and host) or, for a run that does not say when
 * it began, of the same line key (report_line_key).
 */
int report_db_add(struct report_db *db, const struct report_set *s, char *const *labels,
		  unsigned nlabels, unsigned *added, unsigned *present, char *err, size_t errlen);

/* One rate of one run: its configuration, phase, and the group it charts in. */
struct report_point {
	long long run;
	enum phase_id ph;
	double value;
	char config[640];
	char name[128];		/* the run's name, the key's first part */
	char group[128];	/* --history: when it ran (or was added), or its --by label's value */
};

struct report_points {
	struct report_point *p;
	size_t n, cap;
	unsigned runs;		/* distinct runs among them */
};

/*
 * A selection: "K=V[,K=V...]", each a label's key and value or a column
 * of runs (clyde-report(1)); false when sel is not one, with why.
 */
bool report_db_selection_ok(const char *sel, const char **why);
/* Whether s is a label key (or a column's name): letters, digits, '_', '.', '-'. */
bool report_db_key_ok(const char *s, size_t n);

/*
 * The rates of the runs that sel selects, in the order they were added;
 * by: the label whose value groups them for a history (NULL: the run's
 * date; runs without the label are left out). 0 or -errno with err.
 */
int report_db_select(struct report_db *db, const char *sel, const char *by,
		     struct report_points *pts, char *err, size_t errlen);
void report_points_free(struct report_points *pts);
/*
 * --match=params: each point's configuration becomes its parameters
 * alone, the key less the run's name ("(any name) -s 4G -n 16"), so that
 * runs of different names with the same parameters are one configuration
 * and two sets selected by a field (fs=ext4, fs=xfs) pair up.
 */
void report_points_by_params(struct report_points *pts);
int report_points_add(struct report_points *pts, const struct report_point *p);

/* report_sets.c: what two sets say of one configuration's phase. */
enum report_verdict {
	RV_BETTER,
	RV_WORSE,
	RV_NOISE,	/* Welch's p at or above REPORT_NOISE_P */
	RV_TOO_FEW,	/* fewer than REPORT_MIN_RUNS runs in either set */
};

const char *report_verdict_name(enum report_verdict v);
/*
 * b against a (the baseline): the ratio of the means (> 1 better; NAN
 * when undefined) and Welch's p for the same means (-1: none), so that
 * the verdict's direction and its significance are one statistic's.
 */
enum report_verdict report_verdict_of(const struct report_stat *a, const struct report_stat *b,
				      enum report_measure m, double *ratio, double *p);

/* What a comparison found, for the gate (--fail-on-regression) to decide on. */
struct report_gate {
	unsigned regressions;	/* phases worse by more than fail_pct, significantly */
	unsigned too_few;	/* phases with no verdict: under REPORT_MIN_RUNS runs on a side */
	unsigned shared;	/* configurations that both sets have runs of */
};

/*
 * The comparison's table on out: per configuration and phase both
 * means, their ratio, each side's CV, p and the verdict ("-" for what a
 * side with no run, or one, cannot give). fail_pct >= 0 (the gate):
 * each phase worse by more than fail_pct percent, and significantly, is
 * named on errs and counted in gate->regressions, and each phase without
 * a verdict for too few runs (none on a side included) named and counted
 * in gate->too_few. 0, -ENOMEM or -EIO.
 */
int report_sets_compare(FILE *out, FILE *errs, const struct report_points *a,
			const struct report_points *b, const char *sel_a, const char *sel_b,
			double fail_pct, struct report_gate *gate);

/*
 * The history's charts: per configuration and phase, the median of each
 * group (in the order first seen) joined by a line, the min..max of its
 * runs as a bar. A standalone SVG document, or a page around it. 0, -ENOMEM or -EIO.
 */
int report_history_svg(FILE *out, const struct report_points *pts, const char *title);
int report_history_html(FILE *out, const struct report_points *pts, const char *title);

#endif
