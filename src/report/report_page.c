// SPDX-License-Identifier: BSD-2-Clause
/*
 * What clyde-report writes for what it read: the runs' text, SVG and page
 * (report_text.c, report_svg_bars.c, report_html.c), the position sweeps'
 * (report_sweep.c), or both, one after the other. Only this file chooses;
 * the outputs never call each other for it.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/report.h"

int report_out_text(FILE *out, const struct report_set *s)
{
	/* getc_putc's records without runs are report_text's too */
	int ret = s->nruns || s->ngetc ? report_text(out, s) : 0;

	if (!ret && s->nsweeps) {
		if (s->nruns || s->ngetc)
			fputc('\n', out);
		ret = report_sweep_text(out, s);
	}
	return ret;
}

/* An attribute's whole number in svg's first <svg> tag ("height"); 0: none. */
static int tag_number(const char *svg, const char *attr)
{
	const char *tag = strstr(svg, "<svg "), *end, *at;
	char key[32];

	if (!tag || !(end = strchr(tag, '>')))
		return 0;
	snprintf(key, sizeof(key), " %s=\"", attr);
	at = strstr(tag, key);
	return at && at < end ? atoi(at + strlen(key)) : 0;
}

/* Runs and sweeps: the runs' SVG, then the sweeps' chart under it, in one document. */
static int svg_both(FILE *out, const struct report_set *s)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&buf, &len);
	const char *body;
	int ret, width, height;

	if (!mem)
		return -ENOMEM;
	ret = report_svg(mem, s);
	if (fclose(mem) && !ret)
		ret = -ENOMEM;
	if (ret)
		goto out_buf;
	body = strstr(buf, "<svg ");
	width = tag_number(buf, "width");
	height = tag_number(buf, "height");
	if (!body || !width || !height) {
		ret = -EIO;
		goto out_buf;
	}
	fputs("<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>\n", out);
	width = width > REPORT_SWEEP_W ? width : REPORT_SWEEP_W;
	fprintf(out, "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" viewBox=\"0 0 %d %d\" width=\"%d\" height=\"%d\">\n",
		width, height + report_sweep_svg_height(s), width, height + report_sweep_svg_height(s));
	fputs(body, out);
	fprintf(out, "<g transform=\"translate(0,%d)\">\n", height);
	ret = report_sweep_svg_element(out, s);
	fputs("</g>\n</svg>\n", out);
	if (!ret && (ferror(out) || fflush(out) == EOF))
		ret = -EIO;
out_buf:
	free(buf);
	return ret;
}

int report_out_svg(FILE *out, const struct report_set *s)
{
	if (s->nruns && s->nsweeps)
		return svg_both(out, s);
	if (s->nruns || !s->nsweeps)
		return report_svg(out, s);
	fputs("<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>\n", out);
	if (report_sweep_svg_element(out, s))
		return -EIO;
	return fflush(out) == EOF ? -EIO : 0;
}

int report_out_html(FILE *out, const struct report_set *s)
{
	return s->nruns || s->ngetc ? report_html(out, s) : report_sweep_page(out, s);
}
