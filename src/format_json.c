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
#include "phase.h"
#include "size.h"

/*
 * clyde-result/2 added, per phase, "short", "cache" (residency before the
 * phase) and "arc"; per run, cache.outcome/resident_worst_pct and
 * "counts" (how seeks and files were chosen); per phase start_s and
 * end_s on CLOCK_MONOTONIC, comparable between processes of one machine. Readers of /1 find every /1
 * field unchanged.
 */
#define JSON_SCHEMA "clyde-result/2"

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
	return phase_unit_names(id)->amount;
}

static void json_phase(FILE *out, const struct run_result *r, enum phase_id id)
{
	const struct phase_result *p = &r->phase[id];
	double ceiling = phase_ceiling(r, id);
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
	json_number(out, p->amount > 0 ? cpu * 1e6 / (phase_get(id)->unit == UNIT_KIB ? p->amount / 1024.0 : p->amount) : 0);
	fprintf(out, ", \"cpu_unit\": \"%s\"",
		phase_get(id)->unit == UNIT_KIB ? "MiB" : amount_unit(id));
	fputs(", \"dead_s\": ", out);
	json_number(out, phase_dead_time(p));
	fputs(", \"flush_s\": ", out);
	json_number(out, p->flush);
	fputs(", \"max_latency_us\": ", out);
	json_number(out, p->max_latency * 1e6);
	fprintf(out, ", \"latency_us\": {\"count\": %" PRIu64, p->latency_count);
	for (int q = 0; q < LAT_QUANTILES; q++) {
		fprintf(out, ", \"%s\": ", latency_quantile_names[q]);
		json_number(out, p->latency_q[q] * 1e6);
	}
	fputs(", \"max\": ", out);
	json_number(out, p->max_latency * 1e6);
	fputc('}', out);
	fprintf(out, ", \"mismatches\": %" PRIu64, p->mismatches);
	fprintf(out, ", \"short\": %s", p->elapsed < MIN_REPORT_SECONDS ? "true" : "false");
	fprintf(out, ", \"start_s\": %.6f, \"end_s\": %.6f", p->t_start, p->t_end);
	if (p->residency_measured) {
		fputs(", \"cache\": {\"method\": ", out);
		json_string(out, p->residency_method);
		fputs(", \"resident_pct\": ", out);
		if (p->resident_pct < 0) {
			fputs("null, \"why\": ", out);
			json_string(out, p->residency_why);
		} else {
			json_number(out, p->resident_pct);
		}
		fputc('}', out);
	}
	if (p->arc_valid)
		fprintf(out, ", \"arc\": {\"hits\": %" PRIu64 ", \"misses\": %" PRIu64 "}",
			p->arc_hits, p->arc_misses);
	if (ceiling > 0) {
		fputs(", \"ceiling_fraction\": ", out);
		json_number(out, phase_rate(p) / ceiling);
	}
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
	fprintf(out, ", \"outcome\": ");
	json_string(out, e->cache_outcome);
	fprintf(out, ", \"resident_worst_pct\": ");
	if (e->resident_known)
		json_number(out, e->resident_worst);
	else
		fputs("null", out);
	fprintf(out, "},\n      \"counts\": {\"seeks_timed\": %s, \"files_calibrated\": %s",
		e->seeks_timed ? "true" : "false", e->files_calibrated ? "true" : "false");
	fprintf(out, ", \"size_note\": ");
	json_string(out, e->size_note);
	fprintf(out, ", \"files_note\": ");
	json_string(out, e->files_note);
	fprintf(out, "},\n      \"perchar\": \"%s\",\n", e->perchar_stdio ? "stdio" : "syscall");
	fprintf(out, "      \"filesystem\": {\"type\": ");
	json_string(out, e->fs_type);
	fprintf(out, ", \"source\": ");
	json_string(out, e->fs_source);
	fprintf(out, ", \"mountpoint\": ");
	json_string(out, e->fs_mountpoint);
	fprintf(out, ", \"options\": ");
	json_string(out, e->fs_options);
	fprintf(out, "},\n      \"machine\": {\"cpus\": %u, \"ram_bytes\": %" PRIu64 ", \"os\": ",
		e->cpus, e->ram_bytes);
	json_string(out, e->os);
	fputs(", \"kernel\": ", out);
	json_string(out, e->kernel);
	fputs(", \"arch\": ", out);
	json_string(out, e->arch);
	fputs(", \"cpu_model\": ", out);
	json_string(out, e->cpu_model);
	fputs("},\n      \"device\": ", out);
	if (e->blockdev[0]) {
		fputs("{\"name\": ", out);
		json_string(out, e->blockdev);
		if (e->driver[0]) {	/* the BSDs only: Linux's object is unchanged */
			fputs(", \"driver\": ", out);
			json_string(out, e->driver);
		}
		fputs(", \"rotational\": ", out);
		fputs(e->rotational < 0 ? "null" : e->rotational ? "true" : "false", out);
		fputs(", \"scheduler\": ", out);
		json_string(out, e->scheduler);
		fprintf(out, ", \"read_ahead_kb\": %d}", e->read_ahead_kb);
	} else {
		fputs("null", out);
	}
	fputs(",\n      \"ceilings\": ", out);
	if (e->ceil_syscall_ns > 0) {
		fputs("{\"syscall_ns\": ", out);
		json_number(out, e->ceil_syscall_ns);
		fputs(", \"copy_bytes_per_s\": ", out);
		json_number(out, e->ceil_copy_bps);
		fputc('}', out);
	} else {
		fputs("null", out);
	}
	fprintf(out, ",\n      \"data\": {\"pattern\": ");
	json_string(out, e->data);
	fprintf(out, ", \"verify\": %s, \"mismatches\": %" PRIu64 "},\n",
		e->verify ? "true" : "false", r->mismatches);
	fprintf(out, "      \"phases\": {\n");
	for (int i = 0; i < PH_COUNT; i++) {
		fprintf(out, "        \"%s\": ", phase_csv_name((enum phase_id)i));
		json_phase(out, r, (enum phase_id)i);
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
	fprintf(out, ",\n  \"warmup\": %s", count && runs[0].env.warmup ? "true" : "false");
	fputs(",\n  \"runs\": [\n", out);
	for (unsigned i = 0; i < count; i++) {
		json_run(out, &runs[i], fo);
		fputs(i + 1 < count ? ",\n" : "\n", out);
	}
	fputs("  ],\n  \"summary\": {\n", out);
	for (int i = 0; i < PH_COUNT; i++) {
		struct phase_summary s;

		summarize_phase(runs, count, (enum phase_id)i, &s);
		fprintf(out, "    \"%s\": {\"runs\": %u", phase_csv_name((enum phase_id)i), s.runs);
		if (s.runs) {
			fputs(", \"median\": ", out);
			json_number(out, s.median);
			fputs(", \"min\": ", out);
			json_number(out, s.min);
			fputs(", \"max\": ", out);
			json_number(out, s.max);
			fputs(", \"cv_percent\": ", out);
			json_number(out, s.cv_percent);
			fputs(", \"median_cpu_percent\": ", out);
			json_number(out, s.median_cpu);
		}
		fputs(i + 1 < PH_COUNT ? "},\n" : "}\n", out);
	}
	fputs("  }\n}\n", out);
}
