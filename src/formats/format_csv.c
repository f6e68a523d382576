// SPDX-License-Identifier: BSD-2-Clause
/*
 * bonnie++'s CSV, format 1.98, 50 fields. Unlike bonnie++ 2.00a, fields
 * 6 (chunk), 24 (directories) and 25 (file chunk) hold what the header
 * names; chunk sizes in k-notation and only when not the default, since
 * bon_csv2txt builds its size:chunk:seeks:seekers label from them.
 */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>

#include "core/phase.h"
#include "formats/format.h"
#include "lib/size.h"

#define CSV_FORMAT_VERSION "1.98"

static void rate_fields(FILE *out, const struct phase_result *p, enum phase_id id,
			const struct format_opts *fo)
{
	double rate;

	if (!p->ran) {
		fputs(",,", out);
		return;
	}
	if (phase_hidden(p, fo->exact)) {
		fputs(",+++++,+++", out);
		return;
	}
	rate = phase_rate(p);
	if (phase_get(id)->unit == UNIT_SEEK)
		fprintf(out, rate >= 1000.0 ? ",%.0f" : ",%.1f", rate);
	else
		fprintf(out, ",%" PRIu64, (uint64_t)rate);
	fprintf(out, ",%d", phase_cpu_percent(p));
}

/* The rate and CPU fields of bonnie++'s slots first to end - 1, whatever phase holds each. */
static void slot_fields(FILE *out, const struct run_result *r, enum csv_slot first,
			enum csv_slot end, const struct format_opts *fo)
{
	enum phase_id id;

	for (int s = first; s < end; s++) {
		const struct phase_result *p = format_slot(r, (enum csv_slot)s, &id);

		rate_fields(out, p, id, fo);
	}
}

/* fields 5-8, then 20-25: the labels clyde-report makes of a JSON document too */
static void io_fields(FILE *out, const struct run_labels *l)
{
	fprintf(out, ",%s,%s,%s,%s", l->size, l->chunk, l->seeks, l->seekers);
}

static void file_fields(FILE *out, const struct run_labels *l)
{
	fprintf(out, ",%s,%s,%s,%s,%s", l->files, l->max_size, l->min_size, l->dirs,
		l->file_chunk);
}

void format_csv(FILE *out, const struct run_result *r, const struct format_opts *fo)
{
	const struct run_params *p = &r->params;
	struct run_labels l;
	enum phase_id id;
	char lat[32];

	fprintf(out, CSV_FORMAT_VERSION ",%s,%s,%u,%" PRIu32, p->version, p->name,
		p->concurrency, p->seed);
	run_labels_of(p, &l);
	io_fields(out, &l);
	slot_fields(out, r, SLOT_PUTC, SLOT_FIRST_FILE, fo);
	file_fields(out, &l);
	slot_fields(out, r, SLOT_FIRST_FILE, SLOT_COUNT, fo);
	for (int s = 0; s < SLOT_COUNT; s++) {
		const struct phase_result *ph = format_slot(r, (enum csv_slot)s, &id);

		format_latency(lat, sizeof(lat), ph->ran ? ph->max_latency : 0);
		fprintf(out, ",%s", lat);
	}
	fputc('\n', out);
}

void format_csv_header(FILE *out)
{
	fputs("format_version,bonnie_version,name,concurrency,seed,file_size,"
	      "io_chunk_size,num_seeks,seek_proc_count,putc,putc_cpu,put_block,"
	      "put_block_cpu,rewrite,rewrite_cpu,getc,getc_cpu,get_block,"
	      "get_block_cpu,seeks,seeks_cpu,num_files,max_size,min_size,num_dirs,"
	      "file_chunk_size,seq_create,seq_create_cpu,seq_stat,seq_stat_cpu,"
	      "seq_del,seq_del_cpu,ran_create,ran_create_cpu,ran_stat,ran_stat_cpu,"
	      "ran_del,ran_del_cpu,putc_latency,put_block_latency,rewrite_latency,"
	      "getc_latency,get_block_latency,seeks_latency,seq_create_latency,"
	      "seq_stat_latency,seq_del_latency,ran_create_latency,ran_stat_latency,"
	      "ran_del_latency\n", out);
}
