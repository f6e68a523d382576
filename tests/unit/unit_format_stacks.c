// SPDX-License-Identifier: BSD-2-Clause
/*
 * --profile=stacks in clyde's outputs, from a result whose phase carries
 * the summary of a crafted set: the text's "where the time went" lines
 * (the layers' shares, the top functions, no commas) and the JSON's
 * profile.stacks, their figures computed here from the set's counts;
 * without stacks, neither says a word of them.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/phase.h"
#include "formats/format.h"
#include "lib/json_reader.h"
#include "profile/stacks_layers.h"
#include "unit.h"

static const char table_text[] =
	"-\tk\tmemcpy*\n"
	"fs\tk\text4_*\n"
	"vfs\tk\tvfs_*\n"
	"clyde\tu\t*\n";

/* The crafted set: 60 ext4 (40 + 20 through memcpy), 30 vfs, 9 clyde, 1 other. */
static const struct {
	const char *folded;
	uint64_t count;
	enum prof_group group;
} rows[] = {
	{ "clyde;vfs_write_[k];ext4_da_write_begin_[k]", 40, PROF_CLYDE },
	{ "clyde;vfs_write_[k];ext4_copy_[k];memcpy_[k]", 20, PROF_CLYDE },
	{ "clyde;vfs_write_[k]", 30, PROF_CLYDE },
	{ "clyde;fill_buffer<int, char>", 9, PROF_CLYDE },
	{ "bash;vfs_read_[k]", 1, PROF_OTHER },
};
#define SAMPLES 100

static void build(struct run_result *r, struct layer_table *t)
{
	struct stack_set set = { .period_s = 0.004, .idle = 250, .lost = 2, .drain_cpu_s = 0.025,
				 .drain_wakeups = 7 };
	char err[200] = "";
	struct phase_result *p = &r->phase[PH_PUT_BLOCK];

	memset(r, 0, sizeof(*r));
	CHECK(layer_table_parse(t, table_text, "t", err, sizeof(err)) == 0, "%s", err);
	set.v = calloc(sizeof(rows) / sizeof(rows[0]), sizeof(*set.v));
	for (size_t k = 0; k < sizeof(rows) / sizeof(rows[0]); k++) {
		set.v[set.n].folded = (char *)rows[k].folded;
		set.v[set.n].group = rows[k].group;
		set.v[set.n++].count = rows[k].count;
		set.samples += rows[k].count;
	}
	p->ran = true;
	p->elapsed = 2.0;
	p->amount = 1024.0 * 1024;
	p->profile.valid = true;
	p->profile.window_s = 2.0;
	CHECK(prof_stacks_finish(&p->profile, &set, t) == 0, "finish");
	free(set.v);
}

static char *text_of(const struct run_result *r)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);

	if (!m)
		return NULL;
	format_profile_tables(m, r);
	fclose(m);
	return buf;
}

static void test_text(void)
{
	struct run_result r;
	struct layer_table t;
	char *text, want[256];
	const char *row = phase_get(PH_PUT_BLOCK)->row_name;

	build(&r, &t);
	text = text_of(&r);
	CHECK(text != NULL, "memstream");
	if (!text)
		return;
	CHECK(strstr(text, "Profile where the time went: ") != NULL, "the header:\n%s", text);
	/* 100 samples of 4 ms: 0.4 s */
	snprintf(want, sizeof(want), "%-18s 0.400 s in %d samples of 4.000 ms; idle 250; lost 2\n",
		 row, SAMPLES);
	CHECK(strstr(text, want) != NULL, "want '%s' in:\n%s", want, text);
	/* the largest first: fs 60 (memcpy's 20 is ext4's), vfs 30, clyde 9, other 1 */
	CHECK(strstr(text, "\n  layers    fs 60.0%  vfs 30.0%  clyde 9.0%  other-processes 1.0%\n"),
	      "the layers:\n%s", text);
	/* self: ext4_da_write_begin 40, vfs_write 30, memcpy 20; total: vfs_write 90 */
	CHECK(strstr(text, "\n  self      ext4_da_write_begin_[k] 40.0%  vfs_write_[k] 30.0%  "
		     "memcpy_[k] 20.0%\n"), "self:\n%s", text);
	CHECK(strstr(text, "\n  total     vfs_write_[k] 90.0%  ext4_da_write_begin_[k] 40.0%  "
		     "ext4_copy_[k] 20.0%\n"), "total:\n%s", text);
	/* the drainer's CPU after the sampler's: 25 ms of the 2 s window */
	CHECK(strstr(text, "\nProfile stacks' drainer: 25.0 ms of CPU in 7 wakeups (in clyde's "
		     "CPU); at most 1.25% of a phase of 1 s or more\n"), "the drainer:\n%s", text);
	/* bonnie++'s tools read a comma's line as CSV: the C++ name's comma goes */
	CHECK(!strchr(text, ','), "a comma in:\n%s", text);
	free(text);
	/* no stacks, no lines */
	free(r.phase[PH_PUT_BLOCK].profile.stacks);
	r.phase[PH_PUT_BLOCK].profile.stacks = NULL;
	text = text_of(&r);
	CHECK(text && !strstr(text, "where the time went") && !strstr(text, "  layers"),
	      "lines without stacks:\n%s", text ? text : "");
	free(text);
	layer_table_free(&t);
}

static const struct json_node *element(const struct json_node *arr, unsigned k)
{
	const struct json_node *n = arr ? arr->child : NULL;

	while (n && k--)
		n = n->next;
	return n;
}

static double num(const struct json_node *obj, const char *key)
{
	const struct json_node *n = json_get(obj, key);

	return n && n->type == JSON_NUMBER ? n->number : NAN;
}

static const char *str(const struct json_node *obj, const char *key)
{
	const struct json_node *n = json_get(obj, key);

	return n && n->type == JSON_STRING ? n->string : "";
}

static struct json_node *json_of(const struct run_result *r, char **buf)
{
	struct format_opts fo = { .exact = true };
	struct json_parser jp = { 0 };
	size_t len = 0;
	FILE *m = open_memstream(buf, &len);

	if (!m)
		return NULL;
	format_json(m, r, 1, &fo, 0, NULL);
	fclose(m);
	return json_parse(&jp, *buf, len, 1);
}

static const struct json_node *phase_profile(const struct json_node *doc, const char *name)
{
	const struct json_node *run = element(json_get(doc, "runs"), 0);
	const struct json_node *ph = json_get(run, "phases");

	return json_get(json_get(ph, name), "profile");
}

static void test_json(void)
{
	struct run_result r;
	struct layer_table t;
	char *buf = NULL;
	struct json_node *doc;
	const struct json_node *st, *layers, *l, *f;
	double sum = 0;
	uint64_t counts = 0;

	build(&r, &t);
	doc = json_of(&r, &buf);
	CHECK(doc != NULL, "the document parses:\n%s", buf);
	if (!doc)
		goto out;
	CHECK_STR(str(doc, "schema"), "clyde-result/13");
	st = json_get(phase_profile(doc, "put_block"), "stacks");
	CHECK(st && st->type == JSON_OBJECT, "profile.stacks:\n%s", buf);
	CHECK(num(st, "samples") == SAMPLES && num(st, "idle") == 250 && num(st, "lost") == 2,
	      "counts");
	CHECK(fabs(num(st, "period_s") - 0.004) < 1e-12, "period");
	CHECK(fabs(num(st, "drain_cpu_s") - 0.025) < 1e-12 && num(st, "drain_wakeups") == 7,
	      "the drainer's CPU and wakeups");
	CHECK(fabs(num(st, "cpu_s") - SAMPLES * 0.004) < 1e-12, "cpu_s %g", num(st, "cpu_s"));
	layers = json_get(st, "layers");
	/* the table's order: fs, vfs, clyde, then clyde's own other-processes */
	CHECK_STR(str(element(layers, 0), "layer"), "fs");
	CHECK_STR(str(element(layers, 1), "layer"), "vfs");
	CHECK_STR(str(element(layers, 2), "layer"), "clyde");
	CHECK_STR(str(element(layers, 3), "layer"), "other-processes");
	CHECK(!element(layers, 4), "four layers");
	for (unsigned k = 0; (l = element(layers, k)); k++) {
		sum += num(l, "share");
		counts += (uint64_t)num(l, "samples");
		CHECK(fabs(num(l, "cpu_s") - num(l, "samples") * 0.004) < 1e-12, "cpu_s of %s",
		      str(l, "layer"));
	}
	CHECK(counts == SAMPLES, "the layers' samples add up: %llu", (unsigned long long)counts);
	CHECK(fabs(sum - 1) < 1e-9, "the shares add up: %.12f", sum);
	CHECK(num(element(layers, 0), "samples") == 60, "fs 60");
	f = element(json_get(st, "top_self"), 0);
	CHECK_STR(str(f, "function"), "ext4_da_write_begin_[k]");
	CHECK(num(f, "self") == 40 && num(f, "total") == 40 && fabs(num(f, "self_share") - 0.4)
	      < 1e-12, "top self");
	f = element(json_get(st, "top_total"), 0);
	CHECK_STR(str(f, "function"), "vfs_write_[k]");
	CHECK(num(f, "total") == 90 && num(f, "self") == 30 && fabs(num(f, "total_share") - 0.9)
	      < 1e-12, "top total");
	f = element(json_get(st, "folded"), 0);
	CHECK_STR(str(f, "stack"), rows[0].folded);
	CHECK(num(f, "count") == 40, "folded count");
	CHECK_STR(str(f, "layer"), "fs");
	f = element(json_get(st, "folded"), 3);
	CHECK_STR(str(f, "stack"), "clyde;fill_buffer<int, char>");
	CHECK(num(st, "folded_merged") == 0, "nothing merged");
	json_free(doc);
	free(buf);
	buf = NULL;
	/* without stacks: no key at all, as in /11 */
	free(r.phase[PH_PUT_BLOCK].profile.stacks);
	r.phase[PH_PUT_BLOCK].profile.stacks = NULL;
	doc = json_of(&r, &buf);
	CHECK(doc && phase_profile(doc, "put_block") &&
	      !json_get(phase_profile(doc, "put_block"), "stacks"),
	      "no stacks key without stacks");
	json_free(doc);
out:
	free(buf);
	layer_table_free(&t);
}

int main(void)
{
	test_text();
	test_json();
	return unit_verdict("unit_format_stacks");
}
