/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef CLYDE_GETC_PUTC_H
#define CLYDE_GETC_PUTC_H

/*
 * clyde-getc-putc: bonnie++ 2.00a getc_putc's table of the ways to move
 * one byte at a time (write(2)/read(2), stdio putc/getc in a process
 * without threads, putc/getc, putc_unlocked/getc_unlocked), and the
 * stdio rows again once an idle thread exists. One row per method in
 * gp_methods[]; the measurement fills a gp_result; the outputs (the
 * table, the CSV line, the JSON) are pure functions of it.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/* The methods, in the order they run and print; the first GP_CSV_COUNT are getc_putc's. */
enum gp_id {
	GP_WRITE,
	GP_READ,
	GP_PUTC_NT,
	GP_GETC_NT,
	GP_PUTC,
	GP_GETC,
	GP_PUTC_U,
	GP_GETC_U,
	GP_CSV_COUNT,
	GP_PUTC_T = GP_CSV_COUNT,
	GP_GETC_T,
	GP_PUTC_UT,
	GP_GETC_UT,
	GP_COUNT,
};

enum gp_call {
	GP_SYSCALL,	/* write(2) / read(2) of one byte */
	GP_STDIO,	/* putc / getc */
	GP_UNLOCKED,	/* putc_unlocked / getc_unlocked */
};

enum gp_where {
	GP_MAIN,	/* this process, before any thread is started */
	GP_HELPER,	/* a process of its own, exec'd afresh: never had a thread */
	GP_THREADED,	/* this process, with one idle thread beside it */
};

struct gp_method {
	const char *column;	/* the table's and CSV's heading: "putcNT" */
	const char *json;	/* the JSON's name: "putc_no_thread" */
	const char *call;	/* what one byte costs: "putc(c, fp)" */
	enum gp_call how;
	enum gp_where where;
	bool writes;
	unsigned fraction;	/* of the size it moves: 64 for write(2) and read(2), else 1 */
};

extern const struct gp_method gp_methods[GP_COUNT];

/* getc_putc's rule: a measurement under this many seconds prints ++++++. */
#define GP_MIN_TIME_S	0.5
/* -s's default and grain, KiB: 512 MiB, a multiple of 64 KiB (write(2) moves a 64th). */
#define GP_DEFAULT_KIB	(512u << 10)
#define GP_SIZE_GRAIN_KIB	64u
/* The exit status, as clyde's (clyde(1) EXIT STATUS). */
enum gp_exit {
	GP_EXIT_OK = 0,
	GP_EXIT_USAGE = 1,
	GP_EXIT_DIR = 2,
	GP_EXIT_IO = 3,
	GP_EXIT_SIGNAL = 5,
};

struct gp_measure {
	bool ran;
	uint64_t bytes;
	uint64_t elapsed_ns;
	double cpu_user_s, cpu_sys_s;	/* of the process that ran it */
};

struct gp_result {
	const char *machine;
	const char *dir;
	const char *fs_type;		/* "" when unknown */
	const char *helper;		/* how the helper process was started */
	uint64_t size_kib;
	struct gp_measure m[GP_COUNT];
};

/*
 * gp_measure.c. gp_measure_run: every method on the open file fd of
 * size_kib KiB (already written), in order; exe and argv0 start the
 * helper. 0 or -errno with err set (-EINTR: a signal asked to stop).
 * gp_helper_main: the helper's own work on fd (its --helper mode),
 * results as text lines on stdout; the exit status.
 */
int gp_measure_run(struct gp_result *r, int fd, const char *argv0, bool quiet, char *err,
		   size_t errlen);
int gp_helper_main(const char *spec);
/* Writes bytes to fd from its start, in 1 MiB writes, then fsync: 0 or -errno. */
int gp_extend(int fd, uint64_t bytes);

/*
 * gp_output.c. A cell as getc_putc prints it: "" not measured, "++++++"
 * under GP_MIN_TIME_S, else the whole KiB/s. The table (stderr), the
 * CSV line (stdout) and the JSON document (0 or -errno).
 */
double gp_kib_per_s(const struct gp_measure *m);
void gp_cell(char *buf, size_t len, const struct gp_measure *m);
void gp_print_table(FILE *out, const struct gp_result *r, const char *version);
void gp_print_csv(FILE *out, const struct gp_result *r);
int gp_write_json(FILE *out, const struct gp_result *r, const char *version);

#endif
