// SPDX-License-Identifier: BSD-2-Clause
/*
 * lib/opt: a program's options as rows. A table of this test's own is
 * parsed in every form getopt gives (separated, attached, clustered, long
 * with = or a space, operands in order with "-" first), its fields set and
 * kept, a parser's return passed on, a bad option said; and --help made
 * from it: the synopsis's fragments in the order of their place, lines
 * broken where the rows say, a row's own forms under it with their
 * continuation lines, then the rows' help between intro and outro.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/opt.h"
#include "unit.h"

struct t_opts {
	bool quiet, wide;
	const char *dir, *log, *json;
	char operands[128];
	int size;
};

static int t_size(void *ctx, const char *arg, char *err, size_t errlen)
{
	struct t_opts *o = ctx;

	if (strcmp(arg, "7") && strcmp(arg, "8")) {
		snprintf(err, errlen, "-s %s: not 7 or 8", arg);
		return 42;
	}
	o->size = atoi(arg);
	return 0;
}

static int t_operand(void *ctx, const char *arg, char *err, size_t errlen)
{
	struct t_opts *o = ctx;
	size_t used = strlen(o->operands);

	(void)err;
	(void)errlen;
	snprintf(o->operands + used, sizeof(o->operands) - used, "%s<%s>", arg,
		 o->log ? o->log : "-");
	o->log = NULL;
	return 0;
}

#define SETS(f)		OPT_FIELD(struct t_opts, f, bool)
#define KEEPS(f)	OPT_FIELD(struct t_opts, f, const char *)

static const char *const other_form[] = { "--list DIR\n[--all]", "--version", NULL };

static const struct opt_row rows[] = {
	{ .synopsis = "[-q]", .syn_at = OPT_SYN(1, 0),
	  .letter = 'q', .arg = no_argument, SETS(quiet), .help = "  -q  quiet\n" },
	{ .synopsis = "[-d dir]", .syn_at = OPT_SYN(0, 1),
	  .letter = 'd', .arg = required_argument, KEEPS(dir), .help = "  -d  dir\n" },
	{ .synopsis = "[-s 7|8]", .syn_at = OPT_SYN(0, 0),
	  .letter = 's', .arg = required_argument, .parse = t_size, .help = "  -s  size\n" },
	{ .synopsis = "[-l log] file...", .syn_at = OPT_SYN(2, 0),
	  .letter = 'l', .arg = required_argument, KEEPS(log) },
	{ .help = "Long ones:\n" },
	{ .synopsis = "[--wide]", .syn_at = OPT_SYN(1, 0), .forms = other_form,
	  .name = "wide", .letter = 'w', .arg = no_argument, SETS(wide), .help = "  --wide\n" },
	{ .synopsis = "[--json FILE]", .syn_at = OPT_SYN(1, 0),
	  .name = "json", .arg = required_argument, KEEPS(json) },
	{ .name = "version", .letter = 'V', .arg = no_argument, .does = OPT_VERSION },
};

static const struct opt_table table = {
	.program = "prog",
	.version = "9.9",
	.usage = "Usage:",
	.rows = rows,
	.count = sizeof(rows) / sizeof(rows[0]),
	.short_prefix = "-",
	.operand = t_operand,
	.intro = "Intro.\n",
	.outro = "Outro.\n",
};

static const struct opt_table posix_table = {
	.program = "prog",
	.usage = "usage:",
	.rows = rows,
	.count = sizeof(rows) / sizeof(rows[0]),
	.short_prefix = ":",
};

/* argv from a string of words (changed in place); parse it by t. */
static int parse(const struct opt_table *t, struct t_opts *o, char *line, int *next, char *err)
{
	char *argv[16] = { "prog" };
	int argc = 1;

	for (char *w = strtok(line, " "); w && argc < 15; w = strtok(NULL, " "))
		argv[argc++] = w;
	argv[argc] = NULL;
	memset(o, 0, sizeof(*o));
	err[0] = '\0';
	return opt_parse(t, o, argc, argv, next, err, 128);
}

int main(void)
{
	char line[256], err[128], *text = NULL;
	size_t len = 0;
	struct t_opts o;
	FILE *mem;
	int next, ret;

	/* separated, attached and clustered give the same options */
	const char *const forms[] = {
		"-q -w -s 7 -d /x --json j",
		"-q -w -s7 -d/x --json=j",
		"-qws 7 -d/x --json j",
		"-qws7 -qd/x --wide --json=j",
	};
	for (size_t i = 0; i < sizeof(forms) / sizeof(forms[0]); i++) {
		snprintf(line, sizeof(line), "%s", forms[i]);
		ret = parse(&table, &o, line, &next, err);
		CHECK(ret == 0 && o.quiet && o.wide && o.size == 7 && o.dir && !strcmp(o.dir, "/x") &&
		      o.json && !strcmp(o.json, "j"), "form '%s': %d (%s)", forms[i], ret, err);
	}

	/* "-" first: operands in their place among -l, each with the -l before it */
	snprintf(line, sizeof(line), "a -lL1 b -l L2 -s 8 c");
	ret = parse(&table, &o, line, &next, err);
	CHECK(ret == 0 && o.size == 8, "operands in order: %d (%s)", ret, err);
	CHECK_STR(o.operands, "a<->b<L1>c<L2>");

	/* without it, operands are left at next, after the options */
	snprintf(line, sizeof(line), "-q -s 7 a b");
	ret = parse(&posix_table, &o, line, &next, err);
	CHECK(ret == 0 && o.quiet && next == 4 && o.size == 7 && !o.operands[0],
	      "operands left: %d next %d", ret, next);

	/* a parser's return stops the parse and is passed on */
	snprintf(line, sizeof(line), "-s 9 -q");
	ret = parse(&table, &o, line, &next, err);
	CHECK(ret == 42 && !o.quiet, "the parser's return: %d", ret);
	CHECK_STR(err, "-s 9: not 7 or 8");

	/* --version's row prints and ends the parse */
	snprintf(line, sizeof(line), "-V -q");
	CHECK(parse(&table, &o, line, &next, err) == OPT_DONE && !o.quiet, "-V: done");

	/* bad options, said in err ("-" or ":" first: missing arguments apart) */
	snprintf(line, sizeof(line), "-k");
	CHECK(parse(&posix_table, &o, line, &next, err) == OPT_BAD, "unknown short");
	CHECK_STR(err, "unknown option '-k'");
	snprintf(line, sizeof(line), "--bogus");
	CHECK(parse(&posix_table, &o, line, &next, err) == OPT_BAD, "unknown long");
	CHECK_STR(err, "unknown option '--bogus'");
	snprintf(line, sizeof(line), "-q -d");
	CHECK(parse(&posix_table, &o, line, &next, err) == OPT_BAD, "missing argument");
	CHECK_STR(err, "option '-d' needs an argument");
	snprintf(line, sizeof(line), "--json");
	CHECK(parse(&posix_table, &o, line, &next, err) == OPT_BAD, "missing long argument");
	CHECK_STR(err, "option '--json' needs an argument");

	/* --help from the rows */
	mem = open_memstream(&text, &len);
	CHECK(mem != NULL, "memstream");
	if (!mem)
		return unit_verdict("unit_opt");
	opt_usage(mem, &table);
	fclose(mem);
	CHECK_STR(text,
		  "Usage: prog [-s 7|8] [-d dir]\n"
		  "            [-q] [--wide] [--json FILE]\n"
		  "            [-l log] file...\n"
		  "       prog --list DIR\n"
		  "            [--all]\n"
		  "       prog --version\n"
		  "Intro.\n"
		  "  -q  quiet\n"
		  "  -d  dir\n"
		  "  -s  size\n"
		  "Long ones:\n"
		  "  --wide\n"
		  "Outro.\n");
	free(text);
	return unit_verdict("unit_opt");
}
