// SPDX-License-Identifier: BSD-2-Clause
/*
 * Option rows: getopt's tables, the dispatch and --help, made from a
 * program's table (lib/opt.h).
 */
#include "config.h"

#include <getopt.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "lib/opt.h"

/*
 * Make the next getopt()/getopt_long() start afresh at argv[1], also after
 * a parse that stopped inside a cluster of short options ("-qf"), whose
 * rest the C library would otherwise go on reading from the old vector.
 * glibc and musl forget it when optind is 0; the BSDs and macOS want
 * optreset set (FreeBSD's getopt(3), NetBSD's, OpenBSD's, DragonFly's).
 */
#if defined(__FreeBSD__) || defined(__NetBSD__) || defined(__OpenBSD__) || \
	defined(__DragonFly__) || defined(__APPLE__)
static inline void getopt_restart(void)
{
	optreset = 1;
	optind = 1;
}
#else
static inline void getopt_restart(void)
{
	optind = 0;
}
#endif

/* getopt_long's value of a long-only row: above every short option's. */
#define LONG_ONLY	0x100

/* getopt_long's value for a row: its letter, else LONG_ONLY plus its index. */
static int row_value(const struct opt_table *t, size_t i)
{
	return t->rows[i].letter ? t->rows[i].letter : LONG_ONLY + (int)i;
}

/* "a:b::" after the prefix ("f::": -f's argument must be attached), and the long array. */
static void getopt_tables(const struct opt_table *t, char *shorts, struct option *longs)
{
	size_t s = 0, l = 0;

	for (const char *p = t->short_prefix ? t->short_prefix : ""; *p; p++)
		shorts[s++] = *p;
	for (size_t i = 0; i < t->count; i++) {
		const struct opt_row *r = &t->rows[i];

		if (r->letter) {
			shorts[s++] = r->letter;
			if (r->arg != no_argument)
				shorts[s++] = ':';
			if (r->arg == optional_argument)
				shorts[s++] = ':';
		}
		if (r->name)
			longs[l++] = (struct option){ r->name, r->arg, NULL, row_value(t, i) };
	}
	shorts[s] = '\0';
	longs[l] = (struct option){ NULL, 0, NULL, 0 };
}

static int say(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return OPT_BAD;
}

static int dispatch(const struct opt_table *t, void *ctx, int c, const char *arg, char *err,
		    size_t errlen)
{
	for (size_t i = 0; i < t->count; i++) {
		const struct opt_row *r = &t->rows[i];

		if ((!r->letter && !r->name) || row_value(t, i) != c)
			continue;
		if (r->does == OPT_HELP) {
			opt_usage(stdout, t);
			return OPT_DONE;
		}
		if (r->does == OPT_VERSION) {
			printf("%s %s\n", t->program, t->version);
			return OPT_DONE;
		}
		if (r->parse)
			return r->parse(ctx, arg, err, errlen);
		if (r->arg == no_argument)
			*(bool *)((char *)ctx + r->field) = true;
		else
			*(const char **)((char *)ctx + r->field) = arg;
		return 0;
	}
	return say(err, errlen, "internal: unhandled option %d", c);
}

/* What is wrong with the option getopt stopped at ('?' unknown, ':' no argument). */
static int bad_option(int c, char **argv, char *err, size_t errlen)
{
	const char *what = c == ':' ? "option '%s' needs an argument" : "unknown option '%s'";
	char shown[4] = { '-', (char)optopt, '\0' };

	if (optopt && optopt < LONG_ONLY)
		return say(err, errlen, what, shown);
	return say(err, errlen, what, argv[optind - 1]);
}

int opt_parse(const struct opt_table *t, void *ctx, int argc, char **argv, int *next,
	      char *err, size_t errlen)
{
	char *shorts = malloc(strlen(t->short_prefix ? t->short_prefix : "") + 3 * t->count + 1);
	struct option *longs = calloc(t->count + 1, sizeof(*longs));
	int c, ret = 0;

	if (!shorts || !longs) {
		ret = -ENOMEM;
		goto out_free;
	}
	getopt_tables(t, shorts, longs);
	opterr = t->getopt_says;
	getopt_restart();
	while ((c = getopt_long(argc, argv, shorts, longs, NULL)) != -1) {
		if (c == '?' || c == ':')
			ret = bad_option(c, argv, err, errlen);
		else if (c == 1 && t->operand)
			ret = t->operand(ctx, optarg, err, errlen);
		else
			ret = dispatch(t, ctx, c, optarg, err, errlen);
		if (ret)
			goto out_free;
	}
	*next = optind;
out_free:
	free(shorts);
	free(longs);
	return ret;
}

static int by_place(const void *a, const void *b)
{
	const struct opt_row *x = *(const struct opt_row *const *)a;
	const struct opt_row *y = *(const struct opt_row *const *)b;

	if (x->syn_at != y->syn_at)
		return x->syn_at < y->syn_at ? -1 : 1;
	return x < y ? -1 : x > y;
}

/* Each line of text, the first after lead, the others after indent spaces. */
static void put_lines(FILE *out, const char *lead, size_t indent, const char *text)
{
	fputs(lead, out);
	for (const char *p = text; *p; p++) {
		fputc(*p, out);
		if (*p == '\n')
			fprintf(out, "%*s", (int)indent, "");
	}
	fputc('\n', out);
}

/*
 * The main form: "Usage: PROG " and the fragments of line 0, then each
 * next line's under the first; then each row's own forms under it.
 */
static void put_synopsis(FILE *out, const struct opt_table *t)
{
	const struct opt_row **frag = calloc(t->count ? t->count : 1, sizeof(*frag));
	size_t n = 0, indent = strlen(t->usage) + strlen(t->program) + 2;

	fprintf(out, "%s %s", t->usage, t->program);
	for (size_t i = 0; frag && i < t->count; i++)
		if (t->rows[i].synopsis)
			frag[n++] = &t->rows[i];
	if (frag)
		qsort(frag, n, sizeof(*frag), by_place);
	for (size_t i = 0; i < n; i++) {
		bool new_line = i && frag[i]->syn_at / 64 != frag[i - 1]->syn_at / 64;

		if (new_line)
			fprintf(out, "\n%*s", (int)indent, "");
		else
			fputc(' ', out);
		fputs(frag[i]->synopsis, out);
	}
	fputc('\n', out);
	free(frag);
	for (size_t i = 0; i < t->count; i++) {
		for (const char *const *f = t->rows[i].forms; f && *f; f++) {
			fprintf(out, "%*s %s ", (int)strlen(t->usage), "", t->program);
			put_lines(out, "", indent, *f);
		}
	}
}

void opt_usage(FILE *out, const struct opt_table *t)
{
	put_synopsis(out, t);
	if (t->intro)
		fputs(t->intro, out);
	for (size_t i = 0; i < t->count; i++)
		if (t->rows[i].help)
			fputs(t->rows[i].help, out);
	if (t->outro)
		fputs(t->outro, out);
}
