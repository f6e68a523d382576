// SPDX-License-Identifier: BSD-2-Clause
/*
 * clyde-getc-putc's outputs, pure functions of a gp_result: getc_putc's
 * table (stderr) and CSV line (stdout) in its shape, with the threaded
 * rows under the table, and the JSON document with every method's CPU.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>

#include "getc_putc/getc_putc.h"
#include "lib/json_writer.h"

/* One row per method: the order is the table's, the CSV's and the JSON's. */
const struct gp_method gp_methods[GP_COUNT] = {
	[GP_WRITE] = { "write", "write", "write(fd, &c, 1)", GP_SYSCALL, GP_MAIN, true, 64 },
	[GP_READ] = { "read", "read", "read(fd, &c, 1)", GP_SYSCALL, GP_MAIN, false, 64 },
	[GP_PUTC_NT] = { "putcNT", "putc_no_thread", "putc(c, fp)", GP_STDIO, GP_HELPER, true, 1 },
	[GP_GETC_NT] = { "getcNT", "getc_no_thread", "getc(fp)", GP_STDIO, GP_HELPER, false, 1 },
	[GP_PUTC] = { "putc", "putc", "putc(c, fp)", GP_STDIO, GP_MAIN, true, 1 },
	[GP_GETC] = { "getc", "getc", "getc(fp)", GP_STDIO, GP_MAIN, false, 1 },
	[GP_PUTC_U] = { "putcU", "putc_unlocked", "putc_unlocked(c, fp)", GP_UNLOCKED, GP_MAIN,
			true, 1 },
	[GP_GETC_U] = { "getcU", "getc_unlocked", "getc_unlocked(fp)", GP_UNLOCKED, GP_MAIN,
			false, 1 },
	[GP_PUTC_T] = { "putcT", "putc_thread", "putc(c, fp)", GP_STDIO, GP_THREADED, true, 1 },
	[GP_GETC_T] = { "getcT", "getc_thread", "getc(fp)", GP_STDIO, GP_THREADED, false, 1 },
	[GP_PUTC_UT] = { "putcUT", "putc_unlocked_thread", "putc_unlocked(c, fp)", GP_UNLOCKED,
			 GP_THREADED, true, 1 },
	[GP_GETC_UT] = { "getcUT", "getc_unlocked_thread", "getc_unlocked(fp)", GP_UNLOCKED,
			 GP_THREADED, false, 1 },
};

static const char *const where_names[] = {
	[GP_MAIN] = "main",
	[GP_HELPER] = "helper",
	[GP_THREADED] = "main, idle thread",
};

static double seconds(const struct gp_measure *m)
{
	return (double)m->elapsed_ns / 1e9;
}

double gp_kib_per_s(const struct gp_measure *m)
{
	return m->elapsed_ns ? (double)m->bytes / 1024.0 / seconds(m) : 0.0;
}

void gp_cell(char *buf, size_t len, const struct gp_measure *m)
{
	if (!m->ran || !m->elapsed_ns)
		snprintf(buf, len, "%s", "");
	else if (seconds(m) < GP_MIN_TIME_S)
		snprintf(buf, len, "%s", "++++++");
	else
		snprintf(buf, len, "%llu", (unsigned long long)gp_kib_per_s(m));
}

/* The eight columns: blank before column from, then method column + shift. */
static void print_cells(FILE *out, const struct gp_result *r, int from, int shift)
{
	char cell[32];

	for (int i = 0; i < GP_CSV_COUNT; i++) {
		cell[0] = '\0';
		if (i >= from)
			gp_cell(cell, sizeof(cell), &r->m[i + shift]);
		fprintf(out, " %6s", cell);
	}
	fputc('\n', out);
}

/*
 * getc_putc's two lines (a heading with the version, then the machine's
 * figures), then the stdio rows with an idle thread in the columns of
 * the rows they repeat.
 */
void gp_print_table(FILE *out, const struct gp_result *r, const char *version)
{
	fprintf(out, "Version %5s%8s", version, "");
	for (int i = 0; i < GP_CSV_COUNT; i++)
		fprintf(out, " %6s", gp_methods[i].column);
	fputc('\n', out);
	fprintf(out, "%-20s ", r->machine);
	print_cells(out, r, 0, 0);
	if (!r->m[GP_PUTC_T].ran)
		return;
	fprintf(out, "%-21s", "with an idle thread");
	for (int i = 0; i < GP_CSV_COUNT; i++)
		fprintf(out, " %6s", i < GP_PUTC ? "" : gp_methods[i - GP_PUTC + GP_PUTC_T].column);
	fputc('\n', out);
	fprintf(out, "%-20s ", r->machine);
	print_cells(out, r, GP_PUTC, GP_PUTC_T - GP_PUTC);
}

void gp_print_csv(FILE *out, const struct gp_result *r)
{
	char cell[32];

	fputs(r->machine, out);
	for (int i = 0; i < GP_CSV_COUNT; i++) {
		gp_cell(cell, sizeof(cell), &r->m[i]);
		fprintf(out, ",%s", cell);
	}
	fputc('\n', out);
}

static void json_method(struct json_writer *w, const struct gp_method *g,
			const struct gp_measure *m)
{
	double s = seconds(m), cpu = m->cpu_user_s + m->cpu_sys_s;
	char cell[32];

	gp_cell(cell, sizeof(cell), m);
	json_obj_begin(w, NULL);
	json_add_str(w, "name", g->json);
	json_add_str(w, "column", g->column);
	json_add_str(w, "call", g->call);
	json_add_str(w, "process", where_names[g->where]);
	json_add_uint(w, "threads", g->where == GP_THREADED ? 2 : 1);
	json_add_bool(w, "in_csv", g < &gp_methods[GP_CSV_COUNT]);
	json_add_uint(w, "bytes", m->bytes);
	json_add_fixed(w, "elapsed_s", s, 6);
	json_add_fixed(w, "kib_per_s", m->elapsed_ns ? gp_kib_per_s(m) : NAN, 1);
	json_add_bool(w, "under_min_time", s < GP_MIN_TIME_S);
	json_add_str(w, "shown", cell);
	json_add_fixed(w, "cpu_user_s", m->cpu_user_s, 6);
	json_add_fixed(w, "cpu_sys_s", m->cpu_sys_s, 6);
	json_add_fixed(w, "cpu_percent", s > 0 ? 100.0 * cpu / s : NAN, 1);
	json_add_double(w, "cpu_s_per_mib", m->bytes ? cpu / ((double)m->bytes / 1048576.0) :
			NAN);
	json_add_double(w, "ns_per_byte", m->bytes ? (double)m->elapsed_ns / (double)m->bytes :
			NAN);
	json_obj_end(w);
}

int gp_write_json(FILE *out, const struct gp_result *r, const char *version)
{
	struct json_writer w;
	int ret;

	json_writer_init(&w, out, 2);
	json_obj_begin(&w, NULL);
	json_add_str(&w, "schema", "clyde-getc-putc/1");
	json_add_str(&w, "clyde_version", version);
	json_add_str(&w, "machine", r->machine);
	json_add_str(&w, "directory", r->dir);
	json_add_str(&w, "filesystem", r->fs_type[0] ? r->fs_type : NULL);
	json_add_uint(&w, "size_kib", r->size_kib);
	json_add_double(&w, "min_time_s", GP_MIN_TIME_S);
	json_add_str(&w, "helper", r->helper);
	json_arr_begin(&w, "methods");
	for (int i = 0; i < GP_COUNT; i++)
		if (r->m[i].ran)
			json_method(&w, &gp_methods[i], &r->m[i]);
	json_arr_end(&w);
	json_obj_end(&w);
	ret = json_writer_finish(&w);
	if (!ret && fputc('\n', out) == EOF)
		ret = -EIO;
	return ret ? ret : w.error;
}
