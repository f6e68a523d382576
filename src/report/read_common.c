// SPDX-License-Identifier: BSD-2-Clause
/*
 * What every reader of clyde-report calls, and which calls no reader: the
 * complaints, the set of runs (a run is counted among the runs of its
 * own line and kind), the checks of a name or parameter, and each run's
 * key, origin and line identity. The readers are fed whatever a user
 * finds on disk, and a fuzzer: every field used is checked, nothing is
 * echoed back unfiltered, and a bad field rejects its whole line or run
 * rather than a guess.
 */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/clyde.h"
#include "lib/grow.h"
#include "report/read_private.h"
#include "report/report.h"
#include "report/report_flame.h"

void reader_malformed(struct reader *rd, unsigned line, const char *fmt, ...)
{
	va_list ap;

	rd->set->errors++;
	if (!rd->errs)
		return;
	if (rd->messages >= REPORT_MAX_MESSAGES) {
		rd->unprinted++;
		return;
	}
	rd->messages++;
	fprintf(rd->errs, "%s:%u: ", rd->source, line);
	va_start(ap, fmt);
	vfprintf(rd->errs, fmt, ap);
	va_end(ap);
	fputs(": skipped\n", rd->errs);
}

void report_where_free_folded(struct report_where *w)
{
	for (size_t i = 0; w->folded && i < w->nfolded; i++)
		free((char *)w->folded[i].folded);
	free(w->folded);
	w->folded = NULL;
	w->nfolded = 0;
}

void report_capacity_free(struct report_capacity *c)
{
	if (!c)
		return;
	free(c->probe);
	free(c->step);
	free(c);
}

void report_run_free_series(struct report_run *r)
{
	for (int ph = 0; ph < PH_COUNT; ph++) {
		free(r->series[ph]);
		r->series[ph] = NULL;
		if (r->where[ph])
			report_where_free_folded(r->where[ph]);
		free(r->where[ph]);
		r->where[ph] = NULL;
		report_capacity_free(r->capacity[ph]);
		r->capacity[ph] = NULL;
	}
	r->has_series = false;
	r->has_capacity = false;
}

/* A run of a clyde JSON document, not a CSV line (which may be the document's own). */
static bool run_from_json(const struct report_run *r)
{
	return !strcmp(r->format, "clyde-json");
}

/* r's line and kind: FNV-1a, the kinds apart */
static uint64_t line_hash(const struct report_run *r)
{
	uint64_t hash = run_from_json(r) ? 0x9e3779b97f4a7c15ull : 1469598103934665603ull;

	for (const char *p = r->line_identity; *p; p++)
		hash = (hash ^ (unsigned char)*p) * 1099511628211ull;
	return hash;
}

/* The slot of r's line and kind in the table: its own, or the empty one where it goes. */
static struct line_count *line_slot(const struct reader *rd, const struct report_run *r,
				    uint64_t hash)
{
	size_t mask = rd->lines_cap - 1;

	for (size_t i = hash & mask;; i = (i + 1) & mask) {
		struct line_count *e = &rd->lines[i];
		const struct report_run *o;

		if (!e->count)
			return e;
		o = &rd->set->runs[e->run];
		if (e->hash == hash && run_from_json(o) == run_from_json(r) &&
		    !strcmp(o->line_identity, r->line_identity))
			return e;
	}
}

static int lines_grow(struct reader *rd)
{
	struct line_count *old = rd->lines;
	size_t old_cap = rd->lines_cap, cap = old_cap ? old_cap * 2 : 64;
	struct line_count *lines = calloc(cap, sizeof(*lines));

	if (!lines)
		return -ENOMEM;
	rd->lines = lines;
	rd->lines_cap = cap;
	for (size_t i = 0; i < old_cap; i++)
		if (old[i].count)
			*line_slot(rd, &rd->set->runs[old[i].run], old[i].hash) = old[i];
	free(old);
	return 0;
}

int reader_add_run(struct reader *rd, const struct report_run *r)
{
	struct report_set *s = rd->set;
	uint64_t hash = line_hash(r);
	struct line_count *e;

	if (array_room(&s->runs, &s->cap, s->nruns, sizeof(*s->runs), 16))
		return -ENOMEM;
	if (2 * (rd->lines_used + 1) > rd->lines_cap && lines_grow(rd))
		return -ENOMEM;
	/*
	 * Its occurrence counted among runs of its own kind: a document's run
	 * and its own CSV line share the line, and in one input are one run,
	 * not two.
	 */
	e = line_slot(rd, r, hash);
	if (!e->count) {
		e->hash = hash;
		e->run = s->nruns;
		rd->lines_used++;
	}
	e->count++;
	s->runs[s->nruns] = *r;
	s->runs[s->nruns++].occurrence = e->count;
	return 0;
}

void report_line_key(char *buf, size_t len, const struct report_run *r)
{
	if (r->occurrence > 1)
		snprintf(buf, len, "%s#%u", r->line_identity, r->occurrence);
	else
		snprintf(buf, len, "%s", r->line_identity);
}

/* ---- names and parameters ---- */

/* Characters of a parameter: what bonnie++ and clyde write there, and no separator of the key. */
static bool token_char(char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       c == '.' || c == '_' || c == '-' || c == '+';
}

bool reader_printable(const char *p, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)p[i];

		if (c < 0x20 || c == 0x7f)
			return false;
	}
	return true;
}

bool reader_copy_param(char *dst, size_t len, const char *p, size_t n)
{
	if (n >= len)
		return false;
	for (size_t i = 0; i < n; i++)
		if (!token_char(p[i]))
			return false;
	memcpy(dst, p, n);
	dst[n] = '\0';
	return true;
}

/* ---- keys ---- */

/* "a:b:c" of the non-empty prefix of parts: trailing empty parts are left out. */
static void join_parts(char *buf, size_t len, const char *const *parts, int count)
{
	int last = count - 1;
	size_t used = 0;

	buf[0] = '\0';
	while (last >= 0 && !parts[last][0])
		last--;
	for (int i = 0; i <= last && used < len; i++) {
		int n = snprintf(buf + used, len - used, "%s%s", i ? ":" : "", parts[i]);

		if (n < 0)
			return;
		used += (size_t)n;
	}
}

void report_key(struct report_run *r)
{
	const char *seeks = r->seeks_timed && r->seeks[0] ? "*" : r->seeks;
	const char *io[] = { r->size, r->chunk, seeks, r->seekers };
	const char *files[] = { r->files, r->max_size, r->min_size, r->dirs, r->file_chunk };
	/* four and five parameters of at most 31 bytes, with their colons, and the tree: the key always fits */
	char io_spec[128] = "", files_spec[160] = "", conc[16] = "", tree[96] = "", seed[24];

	snprintf(seed, sizeof(seed), "%u", DEFAULT_TREE_SEED);
	if (r->tree[0] && !strcmp(r->tree_seed, seed))
		snprintf(tree, sizeof(tree), " --tree=%s", r->tree);
	else if (r->tree[0])
		snprintf(tree, sizeof(tree), " --tree=%s --tree-seed=%s", r->tree, r->tree_seed);
	if (r->size[0])
		join_parts(io_spec, sizeof(io_spec), io, 4);
	if (r->files[0])
		join_parts(files_spec, sizeof(files_spec), files, 5);
	if (r->concurrency > 1)
		snprintf(conc, sizeof(conc), " -c %u", r->concurrency);
	snprintf(r->key, sizeof(r->key), "%s%s%s%s%s%s%s", r->name[0] ? r->name : "(no name)",
		 io_spec[0] ? " -s " : "", io_spec, conc, files_spec[0] ? " -n " : "", files_spec, tree);
}

void report_key_setup(struct report_run *r)
{
	const struct report_env *e = &r->env;
	char depth[32] = "";
	size_t used = strlen(r->key);

	if (e->iodepth > 1)
		snprintf(depth, sizeof(depth), " --iodepth=%.0f", e->iodepth);
	/* the parts are each cut to their fields' sizes: together they fit beside the key */
	snprintf(r->key + used, sizeof(r->key) - used, "%s%s%s%s%s%s%s%s",
		 e->engine[0] && strcmp(e->engine, "psync") ? " --engine=" : "",
		 e->engine[0] && strcmp(e->engine, "psync") ? e->engine : "", depth,
		 e->direct ? " -D" : "",
		 e->data_pattern[0] && strcmp(e->data_pattern, "random") ? " --data=" : "",
		 e->data_pattern[0] && strcmp(e->data_pattern, "random") ? e->data_pattern : "",
		 e->fs_super_options[0] ? " super=" : "", e->fs_super_options);
}

void report_run_origin(char *buf, size_t len, const struct report_run *r)
{
	if (!strcmp(r->format, "clyde-csv"))
		snprintf(buf, len, "clyde %s CSV", r->version);
	else if (!strcmp(r->format, "clyde-json"))
		snprintf(buf, len, "clyde %s JSON", r->version[0] ? r->version : "?");
	else if (!strcmp(r->format, "bonnie-1.03"))
		snprintf(buf, len, "bonnie++ 1.03");
	else
		snprintf(buf, len, "bonnie++ %s", r->version);
}

void report_identity_csv(struct report_run *r, const char *p, size_t n)
{
	const size_t keep = sizeof(r->line_identity) - 32;
	uint64_t hash = 1469598103934665603ull;	/* FNV-1a */

	while (n && (p[n - 1] == ' ' || p[n - 1] == '\t' || p[n - 1] == '\r'))
		n--;
	if (n + 4 < sizeof(r->line_identity)) {
		snprintf(r->line_identity, sizeof(r->line_identity), "csv:%.*s", (int)n, p);
		return;
	}
	for (size_t i = 0; i < n; i++)
		hash = (hash ^ (unsigned char)p[i]) * 1099511628211ull;
	snprintf(r->line_identity, sizeof(r->line_identity), "csv:%.*s...%016llx", (int)keep, p,
		 (unsigned long long)hash);
}
