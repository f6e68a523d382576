/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef CLYDE_REPORT_SVG_H
#define CLYDE_REPORT_SVG_H

/*
 * What clyde-report's chart files share, and nothing else includes: the
 * bar charts (report_svg_bars.c) and the time series' (report_svg_series.c)
 * draw with report_svg.c's helpers; the bar charts' SVG puts the series'
 * charts under its grid.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "core/clyde.h"
#include "report/report.h"

/* In SVG user units (pixels at 100%): around and between the charts. */
#define MARGIN		16
#define GAP		14
#define LEGEND_CHARS	52	/* code points of a name shown in the legend */
/* One series chart: about 900 by 400, as a page or a README shows it. */
#define SERIES_W	900
#define SERIES_H	400
#define SERIES_HEAD	28	/* the heading over them, in the SVG with the bar charts */

/* report_svg.c: at most max code points of s (0: all), escaped; "…" where cut. */
void report_xml_text_n(FILE *out, const char *text, size_t max);
/* The unit the readers store a measure in. */
const char *report_raw_unit(enum phase_id ph, enum report_measure m);
/* A statistic with a median to show. */
bool report_stat_ok(const struct report_stat *st);
/* The configuration's name for the legend and tooltips: its key where the name is empty or shared. */
const char *report_config_label(const struct report_set *s, size_t i);

/* report_svg_series.c: the series charts, how many; all of them, one under the other from y. */
int report_svg_series_count(const struct report_set *s);
void report_svg_series_charts(FILE *out, const struct report_set *s, int y);
/* The series charts alone: the page's second <svg>, and the SVG of --series=only. */
int report_svg_series_write(FILE *out, const struct report_set *s);

#endif
