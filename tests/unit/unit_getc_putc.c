// SPDX-License-Identifier: BSD-2-Clause
/*
 * clyde-getc-putc's outputs from a result made here: getc_putc's cell
 * rule (blank, ++++++ under 0.5 s, whole KiB/s truncated), the table's
 * columns and the threaded rows under them, the CSV line, and the JSON
 * read back with clyde's reader.
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>

#include "getc_putc/getc_putc.h"
#include "lib/json_reader.h"
#include "unit.h"

static char *capture(void (*fn)(FILE *, const struct gp_result *, const char *),
		     const struct gp_result *r)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	if (!f)
		exit(1);
	fn(f, r, "0.1.0");
	fclose(f);
	return text;
}

static void csv_adapter(FILE *f, const struct gp_result *r, const char *v)
{
	(void)v;
	gp_print_csv(f, r);
}

static void json_adapter(FILE *f, const struct gp_result *r, const char *v)
{
	CHECK(gp_write_json(f, r, v) == 0, "gp_write_json failed");
}

static struct gp_measure ran(uint64_t bytes, uint64_t ns)
{
	return (struct gp_measure){ .ran = true, .bytes = bytes, .elapsed_ns = ns,
				    .cpu_user_s = 0.25, .cpu_sys_s = 0.5 };
}

static void cells(void)
{
	struct gp_measure m = { 0 };
	char buf[32];

	gp_cell(buf, sizeof(buf), &m);
	CHECK_STR(buf, "");
	m = ran(1 << 20, 499999999);
	gp_cell(buf, sizeof(buf), &m);
	CHECK_STR(buf, "++++++");
	m = ran(1 << 20, 500000000);	/* 1024 KiB in 0.5 s */
	gp_cell(buf, sizeof(buf), &m);
	CHECK_STR(buf, "2048");
	m = ran(128 << 10, 750000000);	/* 170.67 KiB/s: truncated, as getc_putc's int() */
	gp_cell(buf, sizeof(buf), &m);
	CHECK_STR(buf, "170");
}

static void fill(struct gp_result *r, bool threaded)
{
	static const uint64_t ns[GP_COUNT] = {
		2000000000, 1000000000, 100000000, 600000000, 700000000, 800000000,
		900000000, 1000000000, 4000000000, 2000000000, 1000000000, 400000000,
	};

	memset(r, 0, sizeof(*r));
	r->machine = "box";
	r->dir = "/mnt";
	r->fs_type = "tmpfs";
	r->helper = "posix_spawn of /proc/self/exe --helper";
	r->size_kib = 8192;
	for (int i = 0; i < (threaded ? GP_COUNT : GP_CSV_COUNT); i++)
		r->m[i] = ran((r->size_kib << 10) / gp_methods[i].fraction, ns[i]);
}

static void table_and_csv(void)
{
	struct gp_result r;
	char *t;

	fill(&r, false);
	t = capture(gp_print_table, &r);
	CHECK_STR(t, "Version 0.1.0          write   read putcNT getcNT   putc   getc  putcU  getcU\n"
		     "box                       64    128 ++++++  13653  11702  10240   9102   8192\n");
	free(t);
	t = capture(csv_adapter, &r);
	CHECK_STR(t, "box,64,128,++++++,13653,11702,10240,9102,8192\n");
	free(t);
	fill(&r, true);
	t = capture(gp_print_table, &r);
	CHECK_STR(t, "Version 0.1.0          write   read putcNT getcNT   putc   getc  putcU  getcU\n"
		     "box                       64    128 ++++++  13653  11702  10240   9102   8192\n"
		     "with an idle thread                                putcT  getcT putcUT getcUT\n"
		     "box                                                 2048   4096   8192 ++++++\n");
	free(t);
	/* the CSV keeps getc_putc's nine fields whatever else ran */
	t = capture(csv_adapter, &r);
	CHECK_STR(t, "box,64,128,++++++,13653,11702,10240,9102,8192\n");
	free(t);
}

static void json(void)
{
	struct gp_result r;
	struct json_parser jp;
	struct json_node *doc;
	const struct json_node *methods, *m;
	double v;
	int n = 0;
	char *t;

	fill(&r, true);
	t = capture(json_adapter, &r);
	doc = json_parse(&jp, t, strlen(t), 1);
	CHECK(doc != NULL, "the JSON does not parse: %s", jp.why);
	if (!doc) {
		free(t);
		return;
	}
	CHECK_STR(json_get(doc, "schema")->string, "clyde-getc-putc/1");
	CHECK_STR(json_get(doc, "machine")->string, "box");
	CHECK(json_get_number(doc, "size_kib", 0, 1e18, true, &v) == 0 && v == 8192, "size_kib");
	methods = json_get(doc, "methods");
	CHECK(methods && methods->type == JSON_ARRAY, "methods");
	for (m = methods ? methods->child : NULL; m; m = m->next, n++) {
		const struct gp_method *g = &gp_methods[n];
		double cpu;

		CHECK_STR(json_get(m, "name")->string, g->json);
		CHECK_STR(json_get(m, "column")->string, g->column);
		CHECK(json_get_bool(m, "in_csv", n >= GP_CSV_COUNT) == (n < GP_CSV_COUNT), "in_csv %d", n);
		CHECK(json_get_number(m, "threads", 1, 2, true, &v) == 0 &&
		      v == (g->where == GP_THREADED ? 2 : 1), "threads of %s", g->json);
		/* 0.75 CPU seconds over the method's MiB */
		CHECK(json_get_number(m, "cpu_s_per_mib", 0, 1e9, false, &cpu) == 0 &&
		      fabs(cpu - 0.75 / ((double)r.m[n].bytes / 1048576.0)) < 1e-6,
		      "cpu_s_per_mib of %s: %g", g->json, cpu);
		CHECK(json_get_bool(m, "under_min_time", false) == (r.m[n].elapsed_ns < 500000000),
		      "under_min_time of %s", g->json);
	}
	CHECK(n == GP_COUNT, "%d methods, want %d", n, GP_COUNT);
	json_free(doc);
	free(t);
}

int main(void)
{
	cells();
	table_and_csv();
	json();
	return unit_verdict("unit_getc_putc");
}
