// SPDX-License-Identifier: BSD-2-Clause
/* bonnie++ 2.00a's text table, column for column. */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "core/phase.h"
#include "formats/format.h"
#include "lib/size.h"

#define LABEL_WIDTH 19

static void rate_cell(FILE *out, const struct phase_result *p, enum phase_id id,
		      const struct format_opts *fo)
{
	char buf[32];

	if (!p->ran) {
		fputs("          ", out);
		return;
	}
	if (phase_hidden(p, fo->exact)) {
		fputs(" +++++ +++", out);
		return;
	}
	if (phase_get(id)->unit == UNIT_KIB)
		format_kib_rate(buf, sizeof(buf), phase_rate(p));
	else
		format_count5(buf, sizeof(buf), phase_rate(p), phase_get(id)->unit == UNIT_SEEK);
	/* --steady: a figure that never settled is marked where the cell's space was */
	fprintf(out, " %5s%c%3d", buf, p->steady.on && !p->steady.settled ? '~' : ' ',
		phase_cpu_percent(p));
}

/* A section's row of cells, bonnie++'s slots first to first + 5, then its latencies. */
static void slot_rows(FILE *out, const struct run_result *r, enum csv_slot first,
		      const struct format_opts *fo)
{
	enum phase_id id;
	char buf[32];

	for (int s = first; s < first + 6; s++) {
		const struct phase_result *p = format_slot(r, (enum csv_slot)s, &id);

		rate_cell(out, p, id, fo);
	}
	fputc('\n', out);
	fputs("Latency          ", out);
	for (int s = first; s < first + 6; s++) {
		const struct phase_result *p = format_slot(r, (enum csv_slot)s, &id);

		format_latency(buf, sizeof(buf), p->ran ? p->max_latency : 0);
		fprintf(out, " %9s", buf);
	}
	fputc('\n', out);
}

/* Name left, label right, in 19 columns; a long label takes them all. */
static void label_cell(FILE *out, const char *name, const char *label)
{
	size_t ll = strlen(label);
	char cell[LABEL_WIDTH + 160];

	if (ll >= LABEL_WIDTH) {
		fputs(label, out);
		return;
	}
	snprintf(cell, sizeof(cell), "%-*.*s %s", (int)(LABEL_WIDTH - ll - 1),
		 (int)(LABEL_WIDTH - ll - 1), name, label);
	fputs(cell, out);
}

/* size[:chunk[:concurrency[:seeks[:seekers]]]], trailing defaults dropped. */
static void io_label(char *buf, size_t len, const struct run_params *p)
{
	char field[5][32] = { { 0 } };
	int last = 0;

	size_label(field[0], sizeof(field[0]), p->file_bytes >> 20, "MGT");
	if (p->chunk != DEFAULT_CHUNK)
		size_label(field[1], sizeof(field[1]), p->chunk, " km");
	if (p->concurrency != 1)
		snprintf(field[2], sizeof(field[2]), "%u", p->concurrency);
	if (p->seeks != DEFAULT_SEEKS)
		snprintf(field[3], sizeof(field[3]), "%" PRIu32, p->seeks);
	if (p->seekers != DEFAULT_SEEKERS)
		snprintf(field[4], sizeof(field[4]), "%" PRIu32, p->seekers);
	for (int i = 0; i < 5; i++)
		if (field[i][0])
			last = i;
	buf[0] = '\0';
	for (int i = 0; i <= last; i++) {
		size_t used = strlen(buf);

		snprintf(buf + used, len - used, "%s%s", i ? ":" : "", field[i]);
	}
}

static void io_section(FILE *out, const struct run_result *r, const struct format_opts *fo)
{
	char label[160];

	fprintf(out, "Version %5s       ------Sequential Output------ --Sequential Input- --Random-\n",
		r->params.version);
	fputs("                    -Per Chr- --Block-- -Rewrite- -Per Chr- --Block-- --Seeks--\n", out);
	fputs("Name:Size etc        /sec %CP  /sec %CP  /sec %CP  /sec %CP  /sec %CP  /sec %CP\n", out);
	io_label(label, sizeof(label), &r->params);
	label_cell(out, r->params.name, label);
	slot_rows(out, r, SLOT_PUTC, fo);
}

/* number[:link|:symlink|:max[:min]][/dirs][:chunk] */
static void files_label(char *buf, size_t len, const struct run_params *p)
{
	size_t used;

	snprintf(buf, len, "%" PRIu32, p->files);
	used = strlen(buf);
	if (p->file_max == -1)
		snprintf(buf + used, len - used, ":link");
	else if (p->file_max == -2)
		snprintf(buf + used, len - used, ":symlink");
	else if (p->file_max > 0 && p->file_min > 0)
		snprintf(buf + used, len - used, ":%" PRId64 ":%" PRId64, p->file_max, p->file_min);
	else if (p->file_max > 0)
		snprintf(buf + used, len - used, ":%" PRId64, p->file_max);
	used = strlen(buf);
	if (p->file_dirs > 1)
		snprintf(buf + used, len - used, "/%" PRIu32, p->file_dirs);
	used = strlen(buf);
	if (p->file_chunk != DEFAULT_FILE_CHUNK) {
		buf[used++] = ':';
		size_label(buf + used, len - used, p->file_chunk, " km");
	}
}

static void file_section(FILE *out, const struct run_result *r, const struct format_opts *fo)
{
	const struct run_params *p = &r->params;
	char label[96];

	fprintf(out, "Version %5s       ------Sequential Create------ --------Random Create--------\n",
		p->version);
	fprintf(out, "%-19.19s -Create-- --Read--- -Delete-- -Create-- --Read--- -Delete--\n", p->name);
	if (p->file_max > 0 && p->file_min > 0)
		fputs("files:max:min       ", out);
	else if (p->file_max != 0)
		fputs("files:max           ", out);
	else
		fputs("              files ", out);
	fputs(" /sec %CP  /sec %CP  /sec %CP  /sec %CP  /sec %CP  /sec %CP\n", out);
	files_label(label, sizeof(label), p);
	fprintf(out, "%19s", label);
	slot_rows(out, r, SLOT_FIRST_FILE, fo);
}

void format_table(FILE *out, const struct run_result *r, const struct format_opts *fo)
{
	if (r->params.file_bytes)
		io_section(out, r, fo);
	if (r->params.files)
		file_section(out, r, fo);
}
