// SPDX-License-Identifier: BSD-2-Clause
/*
 * HACKING.md's recipe for a phase, followed as a new contributor would:
 * a function and one PHASE(...) row, nothing else. The row here is
 * `reread` (the file read again: FAMILY_BLOCK, COST_BLOCK_READ, clyde's
 * own kind); a test program cannot add a line to core/phase_list.h, so
 * the same row goes to phase_register, which puts it in PH_TEST, the slot
 * after the last row, where a new row of the list goes. Then clyde's own
 * plan and runner run it with psync on a temporary directory, and every
 * output must find it where its kind says: clyde's text in a table of
 * its own, the JSON's phases and summary, clyde-report's reading of that
 * JSON and its text, in the phases' table and not the tree's; bonnie++'s
 * table and CSV stay exactly as they were without it.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "clyde/options.h"
#include "clyde/plan.h"
#include "core/phase.h"
#include "core/plan.h"
#include "core/result.h"
#include "formats/format.h"
#include "lib/timing.h"
#include "phases/bench.h"
#include "report/report.h"
#include "unit.h"
#include "unit_run.h"

#define GIB (1024ull * 1024 * 1024)
#define FILE_MIB 4
#define CHUNK 8192

/* Step 1: the phase's function (its own file in src/phases/ in clyde). */
static int phase_reread(struct worker *w, struct phase_sample *s)
{
	size_t chunk = w->b->plan->chunk;
	char *buf = malloc(chunk);
	uint64_t done = 0;
	ssize_t got;
	int fd, ret = 0;

	if (!buf)
		return sample_fail_at(s, PH_TEST, -ENOMEM, w->io_path, NULL, -1, "a buffer");
	fd = open(w->io_path, O_RDONLY);
	if (fd < 0) {
		ret = sample_fail_at(s, PH_TEST, -errno, w->io_path, NULL, -1, "open %s",
				     w->io_path);
		goto free_buf;
	}
	sample_start(w, s);
	for (;;) {
		uint64_t t0 = now_ns();

		got = read(fd, buf, chunk);
		if (got <= 0)
			break;
		/* each read: its latency, the series, --live and the progress line */
		sample_latency(s, t0, now_ns(), (uint64_t)got);
		done += (uint64_t)got;
	}
	sample_stop(w, s);
	if (got < 0)
		ret = sample_fail_at(s, PH_TEST, -errno, w->io_path, NULL, -1, "read %s", w->io_path);
	else
		s->amount = (double)done / 1024.0;
	close(fd);
free_buf:
	free(buf);
	return ret;
}

/* Step 2: its row, as it would follow the last row of core/phase_list.h. */
#define REREAD_ROW(PHASE) \
	PHASE(PH_TEST, KIND_OWN, SLOT_NONE, "Reread", \
	      "block reread", "reread", "Block reread", "Rereading", \
	      UNIT_KIB, FAMILY_BLOCK, PF_READS_FILE | PF_IO_FILE | PF_DATA_READ, \
	      0, COST_BLOCK_READ, phase_reread, phase_no_cleanup)

static const struct phase_def reread_def = REREAD_ROW(PHASE_ROW_DEF);
static const struct phase_ops reread_ops = REREAD_ROW(PHASE_ROW_OPS);

/* clyde's command line, parsed as clyde parses it; 0 or -EINVAL with err. */
static int parse(struct clyde_options *o, char *err, size_t errlen, const char *dir)
{
	char size[64];
	char *argv[] = { "clyde", "-d", (char *)dir, "-s", size, "-n", "0", "-f", "--exact",
			 "-z", "7", "--engine=psync", NULL };

	snprintf(size, sizeof(size), "%u:%u", FILE_MIB, CHUNK);
	options_defaults(o);
	return options_parse(o, (int)(sizeof(argv) / sizeof(argv[0])) - 1, argv, err, errlen);
}

/* What a formatter of one run writes, as a string to free. */
static char *one_run(void (*fn)(FILE *, const struct run_result *, const struct format_opts *),
		     const struct run_result *r, const struct format_opts *fo)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return NULL;
	fn(f, r, fo);
	fclose(f);
	return buf;
}

/* clyde's text of one run (the tables' stream), as a run ends, as a string to free. */
static char *text_of(const struct run_result *r, const struct format_opts *fo)
{
	struct format_request req = { .fo = fo, .repeats = 1, .cache = CACHE_KEEP };
	FILE *streams[FORMAT_STREAMS] = { NULL };
	char *buf = NULL;
	size_t len = 0;

	streams[FORMAT_TEXT] = open_memstream(&buf, &len);
	if (!streams[FORMAT_TEXT])
		return NULL;
	format_walk(FORMAT_EACH_RUN, streams, r, 1, &req);
	fclose(streams[FORMAT_TEXT]);
	return buf;
}

static void json_wrapper(FILE *out, const struct run_result *r, const struct format_opts *fo)
{
	format_json(out, r, 1, fo, 0, NULL);
}

/* In a run with --tree, the tree's table has none of it: it is no tree phase. */
static void check_tree_table(struct run_result *r, const struct format_opts *fo)
{
	char *text, *tree, *own;

	r->tree.on = true;
	text = text_of(r, fo);
	r->tree.on = false;
	tree = text ? strstr(text, "Tree phase") : NULL;
	own = text ? strstr(text, "\nBlock reread ") : NULL;
	CHECK(tree && own && own < tree && !strstr(tree, "Reread") && !strstr(tree, "(null)"),
	      "with --tree, in its own table:\n%s", text ? text : "");
	free(text);
}

/* bonnie++'s table and CSV, and clyde's text, with the phase and with it not run. */
static void check_text(struct run_result *r, const struct format_opts *fo)
{
	char *table = one_run(format_table, r, fo), *csv = one_run(format_csv, r, fo);
	char *text = text_of(r, fo), *table0, *csv0, *text0;
	size_t commas = 0;

	r->phase[PH_TEST].ran = false;
	table0 = one_run(format_table, r, fo);
	csv0 = one_run(format_csv, r, fo);
	text0 = text_of(r, fo);
	r->phase[PH_TEST].ran = true;
	CHECK(table && csv && text && table0 && csv0 && text0, "the outputs");
	if (!table || !csv || !text || !table0 || !csv0 || !text0)
		goto out;
	CHECK(!strcmp(table, table0), "bonnie++'s table, with the phase:\n%s\nwithout:\n%s", table,
	      table0);
	CHECK(!strcmp(csv, csv0), "bonnie++'s CSV, with the phase:\n%s\nwithout:\n%s", csv, csv0);
	for (const char *c = csv; *c; c++)
		commas += *c == ',';
	CHECK(commas == 49, "bonnie++'s CSV has 50 fields: %zu commas", commas);
	CHECK(strstr(text, "\nBlock reread ") != NULL, "clyde's text has the phase's row:\n%s",
	      text);
	CHECK(!strstr(text0, "Block reread") && !strstr(text0, "clyde's own"),
	      "and none when it did not run:\n%s", text0);
	CHECK(!strstr(text, "Tree") && !strstr(text, "(null)"), "not a tree phase:\n%s", text);
	check_tree_table(r, fo);
out:
	free(table);
	free(csv);
	free(text);
	free(table0);
	free(csv0);
	free(text0);
}

/* The JSON has it in its phases and summary; a run without it reads as before. */
static char *check_json(struct run_result *r, const struct format_opts *fo)
{
	char *json = one_run(json_wrapper, r, fo), *json0, *summary;

	r->phase[PH_TEST].ran = false;
	json0 = one_run(json_wrapper, r, fo);
	r->phase[PH_TEST].ran = true;
	CHECK(json && json0, "the JSON");
	if (!json || !json0)
		goto out;
	summary = strstr(json, "\"summary\"");
	CHECK(strstr(json, "\"reread\": {") && strstr(json, "\"reread\": {") < summary,
	      "the run's phases have reread");
	CHECK(summary && strstr(summary, "\"reread\": {"), "the summary has reread");
	CHECK(!strstr(json0, "reread"), "a run without it has no reread key");
	CHECK(strstr(json0, "\"get_block\": {") && !strstr(json0, "tree_extract"),
	      "bonnie++'s phases always, the tree's only with --tree");
out:
	free(json0);
	return json;
}

/* clyde-report reads the JSON, and its text has the phase among the phases, not the tree's. */
static void check_report(const char *json, double rate)
{
	struct report_set s;
	char *errs = NULL, *text = NULL, *html = NULL, *own;
	size_t elen = 0, tlen = 0, hlen = 0;
	FILE *ef = open_memstream(&errs, &elen), *tf;
	int ret;

	report_set_init(&s);
	ret = report_read_buffer(&s, json, strlen(json), "recipe", ef);
	fclose(ef);
	CHECK(ret == 0 && s.nruns == 1 && s.errors == 0, "clyde-report reads it: %d, %zu runs: %s",
	      ret, s.nruns, errs ? errs : "");
	if (ret || s.nruns != 1)
		goto out;
	/* the JSON's digits: to a millionth */
	CHECK(s.runs[0].has[PH_TEST][RM_RATE] &&
	      fabs(s.runs[0].v[PH_TEST][RM_RATE] - rate) <= rate * 1e-6,
	      "its rate: %.9g, want %.9g", s.runs[0].v[PH_TEST][RM_RATE], rate);
	CHECK(report_phase_table(PH_TEST) == RT_OWN, "clyde-report's table for it");
	CHECK(report_group(&s) == 0, "grouped");
	tf = open_memstream(&text, &tlen);
	CHECK(tf && report_text(tf, &s) == 0, "clyde-report's text");
	if (tf)
		fclose(tf);
	CHECK(text && strstr(text, "Block reread"), "clyde-report's text has it:\n%s",
	      text ? text : "");
	CHECK(text && !strstr(text, "Tree"), "and no tree table:\n%s", text ? text : "");
	/* the page: a throughput table of clyde's own phases, after bonnie++'s */
	tf = open_memstream(&html, &hlen);
	CHECK(tf && report_html(tf, &s) == 0, "clyde-report's page");
	if (tf)
		fclose(tf);
	own = html ? strstr(html, "<caption>Throughput: clyde's own phases") : NULL;
	CHECK(own && strstr(own, "Block reread") && !strstr(html, "tree workloads"),
	      "the page's table of clyde's own phases");
out:
	free(errs);
	free(text);
	free(html);
	report_set_free(&s);
}

static void check_register(void)
{
	struct phase_def d = reread_def;
	struct phase_ops no_fn = reread_ops;

	d.kind = KIND_BONNIE;
	CHECK(phase_register(&d, &reread_ops) == -EINVAL, "bonnie++'s twelve are all there");
	d = reread_def;
	d.id = PH_GET_BLOCK;
	CHECK(phase_register(&d, &reread_ops) == -EINVAL, "only the test slot");
	d = reread_def;
	d.csv_name = "get_block";
	CHECK(phase_register(&d, &reread_ops) == -EEXIST, "a CSV name is a phase's alone");
	no_fn.fn = NULL;
	CHECK(phase_register(&reread_def, &no_fn) == -EINVAL, "a phase has a function");
	CHECK(phase_get(PH_TEST)->kind == KIND_NONE, "refused rows leave the slot empty");
	CHECK(phase_register(&reread_def, &reread_ops) == 0, "the row goes in");
	CHECK(phase_register(&reread_def, &reread_ops) == -EEXIST, "once");
}

int main(void)
{
	char dir[] = "/tmp/clyde-unit-phase-recipe.XXXXXX", err[512] = "";
	static struct run_result res;
	struct format_opts fo = { .exact = true };
	struct clyde_options o;
	struct run_plan p;
	char *json;
	int ret;

	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	ret = parse(&o, err, sizeof(err), dir);
	CHECK(ret == 0, "options: %d (%s)", ret, err);
	ret = plan_build_space(&p, &o, GIB, UINT64_MAX, err, sizeof(err));
	CHECK(ret == 0 && !p.run[PH_TEST], "an empty slot never runs: %d (%s)", ret, err);

	check_register();
	ret = plan_build_space(&p, &o, GIB, UINT64_MAX, err, sizeof(err));
	CHECK(ret == 0, "plan: %d (%s)", ret, err);
	if (ret || unit_failures)
		goto out;
	CHECK(p.run[PH_TEST] && p.run[PH_GET_BLOCK], "the plan runs it as its family runs");
	if (unit_bench_run(&p, dir, &res))
		goto out;
	CHECK(res.phase[PH_TEST].ran && res.phase[PH_TEST].amount == FILE_MIB * 1024.0,
	      "the runner ran it: %d, %.0f KiB", res.phase[PH_TEST].ran,
	      res.phase[PH_TEST].amount);
	CHECK(res.phase[PH_TEST].residency_measured, "a phase that reads the file: its residency");
	CHECK(res.phase[PH_TEST].latency_count == (uint64_t)FILE_MIB * 1024 * 1024 / CHUNK,
	      "every read timed: %llu", (unsigned long long)res.phase[PH_TEST].latency_count);
	/* what clyde's session labels a run with (clyde/session_labels.c) */
	snprintf(res.params.version, sizeof(res.params.version), "recipe");
	snprintf(res.params.name, sizeof(res.params.name), "recipe");
	res.params.concurrency = 1;
	res.params.seed = 7;
	res.params.file_bytes = p.file_bytes;
	res.params.chunk = p.chunk;
	res.params.seeks = p.seeks;
	res.params.seekers = p.seekers;
	check_text(&res, &fo);
	json = check_json(&res, &fo);
	if (json)
		check_report(json, phase_rate(&res.phase[PH_TEST]));
	free(json);
	run_result_release(&res);
out:
	CHECK(rmdir(dir) == 0, "rmdir %s: %s", dir, strerror(errno));
	return unit_verdict("unit_phase_recipe");
}
