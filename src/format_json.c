// SPDX-License-Identifier: BSD-2-Clause
/*
 * The JSON document: everything the CSV has, plus what it cannot hold.
 * A pure function of the runs; keys are documented in clyde(1).
 */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "format.h"
#include "size.h"

#define JSON_SCHEMA "clyde-result/1"

static void json_string(FILE *out, const char *s)
{
	fputc('"', out);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			fprintf(out, "\\%c", c);
		else if (c < 0x20)
			fprintf(out, "\\u%04x", c);
		else
			fputc(c, out);
	}
	fputc('"', out);
}

static void json_number(FILE *out, double v)
{
	/* Enough digits for a microsecond of a day, without exponents for counts. */
	fprintf(out, "%.9g", v);
}

static const char *amount_unit(enum phase_id id)
{
	if (id < PH_SEEKS)
		return "KiB";
	return id == PH_SEEKS ? "seeks" : "files";
}

static void json_phase(FILE *out, const struct phase_result *p, enum phase_id id)
{
	double cpu = p->cpu_user + p->cpu_sys;

	fprintf(out, "{\"ran\": %s", p->ran ? "true" : "false");
	if (!p->ran) {
		fputc('}', out);
		return;
	}
	fputs(", \"elapsed_s\": ", out);
	json_number(out, p->elapsed);
	fprintf(out, ", \"amount\": ");
	json_number(out, p->amount);
	fprintf(out, ", \"amount_unit\": \"%s\", \"rate\": ", amount_unit(id));
	json_number(out, phase_rate(p));
	fprintf(out, ", \"rate_unit\": \"%s/s\", \"too_short\": %s", amount_unit(id),
		p->elapsed < MIN_REPORT_SECONDS ? "true" : "false");
	fprintf(out, ", \"cpu_percent\": %d, \"cpu_user_s\": ", phase_cpu_percent(p));
	json_number(out, p->cpu_user);
	fputs(", \"cpu_sys_s\": ", out);
	json_number(out, p->cpu_sys);
	fputs(", \"cpu_window_s\": ", out);
	json_number(out, p->cpu_window);
	fputs(", \"cpu_us_per_unit\": ", out);
	json_number(out, p->amount > 0 ? cpu * 1e6 / (id < PH_SEEKS ? p->amount / 1024.0 : p->amount) : 0);
	fprintf(out, ", \"cpu_unit\": \"%s\"", id < PH_SEEKS ? "MiB" : amount_unit(id));
	fputs(", \"max_latency_us\": ", out);
	json_number(out, p->max_latency * 1e6);
	fputc('}', out);
}

static void json_run(FILE *out, const struct run_result *r, const struct format_opts *fo)
{
	const struct run_params *p = &r->params;
	const struct run_env *e = &r->env;
	char *csv = NULL;
	size_t len = 0;
	FILE *m;

	fprintf(out, "    {\n      \"name\": ");
	json_string(out, p->name);
	fprintf(out, ",\n      \"seed\": %" PRIu32 ",\n      \"concurrency\": %u,\n", p->seed, p->concurrency);
	fprintf(out, "      \"io\": {\"size_mib\": %" PRIu64 ", \"chunk\": %" PRIu32
		", \"seeks\": %" PRIu32 ", \"seekers\": %" PRIu32 "},\n",
		p->size_mib, p->chunk, p->seeks, p->seekers);
	fprintf(out, "      \"files\": {\"number\": %" PRIu32 ", \"max_size\": %" PRId64
		", \"min_size\": %" PRId64 ", \"dirs\": %" PRIu32 ", \"chunk\": %" PRIu32 "},\n",
		p->files, p->file_max, p->file_min, p->file_dirs, p->file_chunk);
	fprintf(out, "      \"engine\": {\"name\": ");
	json_string(out, e->engine);
	fprintf(out, ", \"description\": ");
	json_string(out, e->engine_desc);
	fprintf(out, ", \"iodepth\": %u, \"direct\": %s},\n", e->iodepth, e->direct ? "true" : "false");
	fprintf(out, "      \"cache\": {\"mode\": ");
	json_string(out, e->cache);
	fprintf(out, ", \"description\": ");
	json_string(out, e->cache_note);
	fprintf(out, "},\n      \"perchar\": \"%s\",\n", e->perchar_stdio ? "stdio" : "syscall");
	fprintf(out, "      \"filesystem\": {\"type\": ");
	json_string(out, e->fs_type);
	fprintf(out, ", \"source\": ");
	json_string(out, e->fs_source);
	fprintf(out, ", \"mountpoint\": ");
	json_string(out, e->fs_mountpoint);
	fprintf(out, ", \"options\": ");
	json_string(out, e->fs_options);
	fprintf(out, "},\n      \"machine\": {\"cpus\": %u, \"ram_bytes\": %" PRIu64 "},\n",
		e->cpus, e->ram_bytes);
	fprintf(out, "      \"phases\": {\n");
	for (int i = 0; i < PH_COUNT; i++) {
		fprintf(out, "        \"%s\": ", phase_csv_name((enum phase_id)i));
		json_phase(out, &r->phase[i], (enum phase_id)i);
		fputs(i + 1 < PH_COUNT ? ",\n" : "\n", out);
	}
	fprintf(out, "      },\n      \"csv\": ");
	m = open_memstream(&csv, &len);
	if (m) {
		format_csv(m, r, fo);
		fclose(m);
		if (len && csv[len - 1] == '\n')
			csv[len - 1] = '\0';
		json_string(out, csv);
		free(csv);
	} else {
		fputs("null", out);
	}
	fputs("\n    }", out);
}

void format_json(FILE *out, const struct run_result *runs, unsigned count,
		 const struct format_opts *fo)
{
	fprintf(out, "{\n  \"schema\": \"" JSON_SCHEMA "\",\n  \"clyde_version\": ");
	json_string(out, count ? runs[0].params.version : "");
	fputs(",\n  \"runs\": [\n", out);
	for (unsigned i = 0; i < count; i++) {
		json_run(out, &runs[i], fo);
		fputs(i + 1 < count ? ",\n" : "\n", out);
	}
	fputs("  ]\n}\n", out);
}
