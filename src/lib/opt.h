/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef CLYDE_OPT_H
#define CLYDE_OPT_H

/*
 * A program's command line as a table of rows: each row names an option
 * (long, short or both), its argument, what it does (a parser, or a field
 * it sets or keeps) and its part of --help: its fragment of the synopsis
 * and its lines below. getopt's short string and long array, the dispatch
 * and the whole --help text are made from the rows, for every program.
 */

#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct opt_row {
	const char *name;	/* the long name, or NULL: short only */
	char letter;		/* the short name, or 0: long only */
	int arg;		/* no_argument, required_argument or optional_argument */
	/*
	 * 0 to go on; anything else stops the parse and is what opt_parse
	 * returns (a program's exit status, -EINVAL with err, ...). NULL: the
	 * option sets the bool at .field (no argument), or keeps its argument
	 * there (a const char *).
	 */
	int (*parse)(void *ctx, const char *arg, char *err, size_t errlen);
	size_t field;
	/*
	 * Its fragment of the synopsis ("[-d dir]"), or NULL; where: the
	 * synopsis line (OPT_SYN(line, place)), fragments of a line in the
	 * order of place, then of the rows.
	 */
	const char *synopsis;
	unsigned syn_at;
	/* Whole synopsis lines of a form of the program's own ("--cleanup DIR ..."), or NULL. */
	const char *const *forms;
	const char *help;	/* its lines of --help, or NULL */
	/* OPT_HELP prints --help on stdout, OPT_VERSION "PROGRAM VERSION"; both then OPT_DONE. */
	int does;
};

enum { OPT_PARSES = 0, OPT_HELP, OPT_VERSION };

#define OPT_SYN(line, place)	((unsigned)(line) * 64u + (unsigned)(place))

/* A flag sets this bool of TYPE; a plain string is kept in this field (else a compile error). */
#define OPT_FIELD(type, f, ftype)	.field = offsetof(type, f) + \
	0 * sizeof(_Generic(((type *)0)->f, ftype: 1))

struct opt_table {
	const char *program;	/* "clyde-zcav" */
	const char *usage;	/* "Usage:" or "usage:" */
	const struct opt_row *rows;
	size_t count;
	/*
	 * Before the short options in getopt's string: ":" to hear of a
	 * missing argument apart, "-" to have the operands in order, as
	 * option 1 (operand then takes them).
	 */
	const char *short_prefix;
	int (*operand)(void *ctx, const char *arg, char *err, size_t errlen);
	/* getopt says what is wrong itself (opterr), or err does ("unknown option '-k'"). */
	bool getopt_says;
	const char *version;	/* for an OPT_VERSION row */
	const char *intro;	/* after the synopsis, before the rows' help */
	const char *outro;	/* after them */
};

/* What opt_parse returns for an unknown option or a missing argument. */
#define OPT_BAD	(-EINVAL)
/* ... after an OPT_HELP or OPT_VERSION row did its work: the program ends, status 0. */
#define OPT_DONE	(-1)

/*
 * Parse argv by the table into ctx, from the first argument: 0 with
 * *next the first operand left; OPT_BAD with err said (and getopt's own
 * message, where getopt_says); -ENOMEM; or a parser's nonzero return.
 */
int opt_parse(const struct opt_table *t, void *ctx, int argc, char **argv, int *next,
	      char *err, size_t errlen);

/* --help: the synopsis from the rows' fragments and forms, intro, the rows' help, outro. */
void opt_usage(FILE *out, const struct opt_table *t);

#endif
