// SPDX-License-Identifier: BSD-2-Clause
/*
 * An output format is one file and one row: this file is the file, a
 * throwaway "marker" format with its function and predicate, and its
 * row goes into the table through format_test_rows (the test-only rows
 * walked after the table's own). The walk on a fixed result must write
 * exactly what the table's formatters write, called by hand in the
 * documented order, with the marker after them, in its own stream and
 * only when its predicate says so.
 */
#include "config.h"

#include <errno.h>

#include "formats/format.h"
#include "unit.h"

/* --- the throwaway format: the whole of what adding one takes --- */

/* Applies to a run in which block write ran. */
static bool marker_applies(const struct run_result *runs, unsigned count,
			   const struct format_request *req)
{
	(void)count;
	(void)req;
	return runs->phase[PH_PUT_BLOCK].ran;
}

static void format_marker(FILE *out, const struct run_result *runs, unsigned count,
			  const struct format_request *req)
{
	fprintf(out, "marker: run %u of %u, block write %.0f KiB\n", req->run + 1, req->repeats,
		runs[count - 1].phase[PH_PUT_BLOCK].amount);
}

static const struct format_row marker_row = {
	"marker", FORMAT_EACH_RUN, FORMAT_TEXT, marker_applies, .write = format_marker,
};

/* The recipe's first form: a function of the one run, named by its row as it is. */
static void format_stamp(FILE *out, const struct run_result *run)
{
	fprintf(out, "stamp: block write %.0f KiB\n", run->phase[PH_PUT_BLOCK].amount);
}

static const struct format_row stamp_row = {
	"stamp", FORMAT_EACH_RUN, FORMAT_CSV, NULL, .write_run = format_stamp,
};

/* --- a fixed result, as tests/unit/unit_format_golden.c builds them --- */

static void set_phase(struct run_result *r, enum phase_id id, double elapsed, double amount)
{
	struct phase_result *p = &r->phase[id];

	p->ran = true;
	p->elapsed = elapsed;
	p->t_start = 100.0 + id * 10.0;
	p->t_end = p->t_start + elapsed;
	p->amount = amount;
	p->cpu_user = elapsed * 0.3;
	p->cpu_sys = elapsed * 0.2;
	p->cpu_window = elapsed + 0.001;
	p->max_latency = 0.004;
	p->latency_q[0] = 0.00025;
	p->latency_q[1] = 0.0005;
	p->latency_q[2] = 0.001;
	p->latency_q[3] = 0.002;
	p->latency_count = 1000;
	p->at_deadline = -1;
	p->passes = 1;
}

static void build(struct run_result *r, bool block_write)
{
	struct run_env *e = &r->env;

	memset(r, 0, sizeof(*r));
	snprintf(r->params.version, sizeof(r->params.version), "0.1.0");
	snprintf(r->params.name, sizeof(r->params.name), "extra");
	r->params.concurrency = 1;
	r->params.seed = 42;
	r->params.file_bytes = (uint64_t)64 << 20;
	r->params.chunk = 8192;
	r->params.seeks = 8192;
	r->params.seekers = 5;
	r->params.files = 1;
	r->params.file_dirs = 1;
	r->params.file_chunk = 8192;
	snprintf(e->engine, sizeof(e->engine), "psync");
	snprintf(e->cache, sizeof(e->cache), "drop");
	snprintf(e->fs_type, sizeof(e->fs_type), "tmpfs");
	e->cpus = 2;
	e->ram_bytes = 4ULL << 30;
	e->rotational = -1;
	e->read_ahead_kb = -1;
	e->resident_worst = -1;
	for (int i = 0; i < PH_COUNT; i++)
		r->phase[i].at_deadline = -1;
	if (block_write)
		set_phase(r, PH_PUT_BLOCK, 0.5, 65536);
	set_phase(r, PH_SEQ_CREATE, 0.25, 1024);
	r->mismatches = 3;
}

/* --- the walk against the formatters called by hand --- */

struct capture {
	char *buf;
	size_t len;
	FILE *f;
};

static bool capture_open(struct capture *c)
{
	memset(c, 0, sizeof(*c));
	c->f = open_memstream(&c->buf, &c->len);
	CHECK(c->f != NULL, "open_memstream: %s", strerror(errno));
	return c->f != NULL;
}

/* Closed, the text stays in buf (freed by the caller). */
static void capture_close(struct capture *c)
{
	if (c->f)
		fclose(c->f);
	c->f = NULL;
}

static const struct format_opts exact = { .exact = true };

static void request(struct format_request *req, unsigned repeats)
{
	memset(req, 0, sizeof(*req));
	req->fo = &exact;
	req->repeats = repeats;
	req->latency = true;
	req->cpu = true;
	req->cache = CACHE_DROP;
	req->dir = "/mnt/extra";
}

/*
 * One run reported by the walk, stdout's tables and CSV in one stream
 * as clyde writes them: log and out, each what the table's rows wrote.
 */
static void walk_one(const struct run_result *r, const struct format_request *req,
		     struct capture *log, struct capture *out)
{
	if (!capture_open(log) || !capture_open(out))
		goto out;
	{
		FILE *const streams[FORMAT_STREAMS] = {
			[FORMAT_LOG] = log->f, [FORMAT_TEXT] = out->f, [FORMAT_CSV] = out->f,
		};

		format_walk(FORMAT_EACH_RUN, streams, r, 1, req);
	}
out:
	capture_close(log);
	capture_close(out);
}

/* What the table's own rows write for one run, in their order, by hand. */
static void by_hand(const struct run_result *r, const struct format_request *req,
		    struct capture *log, struct capture *out)
{
	if (!capture_open(log) || !capture_open(out))
		goto out;
	format_context(log->f, r);
	if (req->repeats == 1)
		format_table(out->f, r, req->fo);
	format_tree_table(out->f, r);
	format_cluster_table(out->f, r);
	format_latency_table(out->f, r);
	format_cpu_table(out->f, r);
	fprintf(log->f, "clyde: verify: 3 mismatches in run %u\n", req->run + 1);
	format_csv(out->f, r, req->fo);
out:
	capture_close(log);
	capture_close(out);
}

static void test_table_alone(const struct run_result *r)
{
	struct capture log, out, want_log, want_out;
	struct format_request req;

	request(&req, 1);
	format_test_rows = NULL;
	format_test_row_count = 0;
	walk_one(r, &req, &log, &out);
	by_hand(r, &req, &want_log, &want_out);
	CHECK(log.buf && want_log.buf && !strcmp(log.buf, want_log.buf),
	      "stderr of the walk differs from the formatters by hand:\n%s\n--- want:\n%s",
	      log.buf, want_log.buf);
	CHECK(out.buf && want_out.buf && !strcmp(out.buf, want_out.buf),
	      "stdout of the walk differs from the formatters by hand:\n%s\n--- want:\n%s",
	      out.buf, want_out.buf);
	CHECK(out.buf && !strstr(out.buf, "marker:"), "the marker without its row");
	free(log.buf);
	free(out.buf);
	free(want_log.buf);
	free(want_out.buf);
}

/*
 * With row: the table's output unchanged, then want (the row's output,
 * NULL where it does not apply), last on stdout; nothing of it on stderr.
 */
static void test_with_row(const struct format_row *row, const struct run_result *r,
			  unsigned repeats, unsigned run, const char *want)
{
	struct capture log, out, want_log, want_out;
	struct format_request req;
	char prefix[64];
	size_t base;

	request(&req, repeats);
	req.run = run;
	format_test_rows = row;
	format_test_row_count = 1;
	walk_one(r, &req, &log, &out);
	format_test_rows = NULL;
	format_test_row_count = 0;
	by_hand(r, &req, &want_log, &want_out);
	snprintf(prefix, sizeof(prefix), "%s:", row->name);
	if (!log.buf || !out.buf || !want_log.buf || !want_out.buf) {
		CHECK(false, "no capture");
		goto out;
	}
	base = strlen(want_out.buf);
	CHECK(!strcmp(log.buf, want_log.buf), "the %s row changed stderr:\n%s", row->name,
	      log.buf);
	CHECK(!strstr(log.buf, prefix), "the %s went to stderr, not its stream", row->name);
	CHECK(!strncmp(out.buf, want_out.buf, base),
	      "the table's own output changed before the %s:\n%s", row->name, out.buf);
	if (want)
		CHECK(strlen(out.buf) >= base && !strcmp(out.buf + base, want),
		      "after the CSV line: got '%s', want '%s'",
		      strlen(out.buf) >= base ? out.buf + base : "", want);
	else
		CHECK(!strcmp(out.buf, want_out.buf), "the %s wrote where it does not apply: %s",
		      row->name, out.buf);
out:
	free(log.buf);
	free(out.buf);
	free(want_log.buf);
	free(want_out.buf);
}

/* The marker of run RUN of REPEATS, as format_marker writes it. */
static const char *marker_of(char *buf, size_t len, unsigned run, unsigned repeats)
{
	snprintf(buf, len, "marker: run %u of %u, block write 65536 KiB\n", run + 1, repeats);
	return buf;
}

/* -x: the CSV header before the runs and the summary after them, rows of their moments. */
static void test_moments(const struct run_result *runs, unsigned count)
{
	struct capture log, out, want;
	struct format_request req;

	request(&req, count);
	if (!capture_open(&log) || !capture_open(&out) || !capture_open(&want)) {
		capture_close(&log);
		capture_close(&out);
		capture_close(&want);
		goto out;
	}
	{
		FILE *const streams[FORMAT_STREAMS] = {
			[FORMAT_LOG] = log.f, [FORMAT_TEXT] = log.f, [FORMAT_CSV] = out.f,
		};

		format_test_rows = &marker_row;
		format_test_row_count = 1;
		format_walk(FORMAT_BEFORE_RUNS, streams, NULL, 0, &req);
		format_walk(FORMAT_AFTER_RUNS, streams, runs, count, &req);
		format_test_rows = NULL;
		format_test_row_count = 0;
	}
	format_csv_header(want.f);
	capture_close(&out);
	capture_close(&want);
	CHECK(out.buf && want.buf && !strcmp(out.buf, want.buf), "before the runs: got '%s'",
	      out.buf);
	free(want.buf);
	want.buf = NULL;
	if (!capture_open(&want))
		goto out;
	format_summary(want.f, runs, count);
	capture_close(&log);
	capture_close(&want);
	CHECK(log.buf && want.buf && !strcmp(log.buf, want.buf),
	      "after the runs: got '%s', want '%s'", log.buf, want.buf);
	CHECK(log.buf && !strstr(log.buf, "marker:"), "an each-run row written after the runs");
out:
	free(log.buf);
	free(out.buf);
	free(want.buf);
}

int main(void)
{
	static struct run_result with_block[2], without_block;
	char m[128];

	build(&with_block[0], true);
	build(&with_block[1], true);
	build(&without_block, false);
	test_table_alone(&with_block[0]);
	test_with_row(&marker_row, &with_block[0], 1, 0, marker_of(m, sizeof(m), 0, 1));
	test_with_row(&marker_row, &with_block[1], 2, 1, marker_of(m, sizeof(m), 1, 2));
	test_with_row(&marker_row, &without_block, 1, 0, NULL);
	/* the recipe's one-run form */
	test_with_row(&stamp_row, &with_block[0], 1, 0, "stamp: block write 65536 KiB\n");
	test_moments(with_block, 2);
	return unit_verdict("unit_format_extra");
}
