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

/* The crafted set: 60 ext4 (40 + 20 through memcpy), 30 vfs, 10 clyde; 3 other apart. */
static const struct {
	const char *folded;
	uint64_t count;
	enum prof_group group;
} rows[] = {
	{ "clyde;vfs_write_[k];ext4_da_write_begin_[k]", 40, PROF_CLYDE },
	{ "clyde;vfs_write_[k];ext4_copy_[k];memcpy_[k]", 20, PROF_CLYDE },
	{ "clyde;vfs_write_[k]", 30, PROF_CLYDE },
	{ "clyde;fill_buffer<int, char>", 10, PROF_CLYDE },
	{ "bash;vfs_read_[k]", 3, PROF_OTHER },
};
#define SAMPLES 100

/* test_unseen: bash's process was gone when the rings were read (stack_entry.unseen) */
static bool bash_unseen;

static void build(struct run_result *r, struct layer_table *t)
{
	struct stack_set set = { .period_s = 0.004, .idle = 250, .lost = 2, .drain_cpu_s = 0.025,
				 .drain_wakeups = 7 };
	struct stack_index ix = { 0 };
	char err[200] = "";
	struct phase_result *p = &r->phase[PH_PUT_BLOCK];

	memset(r, 0, sizeof(*r));
	CHECK(layer_table_parse(t, table_text, "t", err, sizeof(err)) == 0, "%s", err);
	/* through the sampler's own way in: other programs' samples go apart there */
	for (size_t k = 0; k < sizeof(rows) / sizeof(rows[0]); k++)
		CHECK(stack_set_add_task(&set, &ix, rows[k].folded, rows[k].group,
					 bash_unseen && rows[k].group == PROF_OTHER, rows[k].count) == 0,
		      "add %s", rows[k].folded);
	stack_index_free(&ix);
	p->ran = true;
	p->elapsed = 2.0;
	p->amount = 1024.0 * 1024;
	p->profile.valid = true;
	p->profile.window_s = 2.0;
	CHECK(prof_stacks_finish(&p->profile, &set, t) == 0, "finish");
	for (size_t k = 0; k < set.n; k++)
		free(set.v[k].folded);
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
	snprintf(want, sizeof(want), "%-18s 0.400 s in %d samples of 4.000 ms; idle 250; other processes 3; lost 2\n",
		 row, SAMPLES);
	CHECK(strstr(text, want) != NULL, "want '%s' in:\n%s", want, text);
	/* the largest first: fs 60 (memcpy's 20 is ext4's), vfs 30, clyde 10; other apart */
	CHECK(strstr(text, "\n  layers    fs 60.0%  vfs 30.0%  clyde 10.0%\n"),
	      "the layers:\n%s", text);
	/* self: ext4_da_write_begin 40, vfs_write 30, memcpy 20; total: vfs_write 90 */
	CHECK(strstr(text, "\n  self      ext4_da_write_begin_[k] 40.0%  vfs_write_[k] 30.0%  "
		     "memcpy_[k] 20.0%\n"), "self:\n%s", text);
	CHECK(strstr(text, "\n  total     vfs_write_[k] 90.0%  ext4_da_write_begin_[k] 40.0%  "
		     "ext4_copy_[k] 20.0%\n"), "total:\n%s", text);
	/* the folds' CPU after the sampler's: 25 ms of the 2 s window */
	CHECK(strstr(text, "\nProfile stacks read during phases: 25.0 ms of CPU in 7 folds (in "
		     "clyde's CPU); at most 1.25% of a phase of 1 s or more\n"), "the folds:\n%s",
	      text);
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
	CHECK_STR(str(doc, "schema"), "clyde-result/15");
	st = json_get(phase_profile(doc, "put_block"), "stacks");
	CHECK(st && st->type == JSON_OBJECT, "profile.stacks:\n%s", buf);
	CHECK(num(st, "samples") == SAMPLES && num(st, "idle") == 250 && num(st, "lost") == 2 &&
	      num(st, "other") == 3,
	      "counts");
	CHECK(fabs(num(st, "period_s") - 0.004) < 1e-12, "period");
	CHECK(fabs(num(st, "drain_cpu_s") - 0.025) < 1e-12 && num(st, "drain_wakeups") == 7,
	      "the folds' CPU and count");
	CHECK(fabs(num(st, "cpu_s") - SAMPLES * 0.004) < 1e-12, "cpu_s %g", num(st, "cpu_s"));
	layers = json_get(st, "layers");
	/* the table's order: fs, vfs, clyde; other programs in none */
	CHECK_STR(str(element(layers, 0), "layer"), "fs");
	CHECK_STR(str(element(layers, 1), "layer"), "vfs");
	CHECK_STR(str(element(layers, 2), "layer"), "clyde");
	CHECK(!element(layers, 3), "three layers");
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

/*
 * The unattributed CPU named (clyde-result/14): the run's note says what
 * the samples found in tasks no snapshot counted, or that they found none
 * there; the JSON's profile.stacks.unattributed holds the same.
 */
static void test_unseen(void)
{
	struct run_result r;
	struct layer_table t;
	struct prof_phase *pp;
	char *text, *buf = NULL;
	struct json_node *doc;
	const struct json_node *u, *task;

	for (int pass = 0; pass < 2; pass++) {
		bash_unseen = pass == 0;
		build(&r, &t);
		pp = &r.phase[PH_PUT_BLOCK].profile;
		pp->groups_valid = pp->machine_valid = true;
		pp->ncpu = 2;
		pp->hz = 100;
		pp->unattributed_s = 0.25;
		text = text_of(&r);
		if (pass == 0)
			CHECK(text && strstr(text, "was 0.250 s at most; the stack samples name it "
					     "(0.012 s in tasks no snapshot counted): bash 0.012 s "
					     "(vfs_read_[k] in other-processes)\n"), "the note:\n%s",
			      text ? text : "");
		else
			CHECK(text && strstr(text, "was 0.250 s at most; the stack samples found no "
					     "CPU in tasks that came and went: it is the counters' "
					     "rounding and no task (or in the 2 samples lost)\n"),
			      "the note without unseen tasks:\n%s", text ? text : "");
		CHECK(text && !strchr(text, ','), "a comma in:\n%s", text ? text : "");
		free(text);
		doc = json_of(&r, &buf);
		u = json_get(json_get(phase_profile(doc, "put_block"), "stacks"), "unattributed");
		CHECK(u && u->type == JSON_OBJECT, "profile.stacks.unattributed");
		task = element(json_get(u, "tasks"), 0);
		if (pass == 0) {
			CHECK(num(u, "samples") == 3 && fabs(num(u, "cpu_s") - 0.012) < 1e-12,
			      "three samples");
			CHECK_STR(str(task, "name"), "bash");
			CHECK_STR(str(task, "function"), "vfs_read_[k]");
			CHECK_STR(str(task, "layer"), "other-processes");
			CHECK(num(task, "samples") == 3, "bash's samples");
		} else {
			CHECK(num(u, "samples") == 0 && !task, "none");
		}
		json_free(doc);
		free(buf);
		buf = NULL;
		free(pp->stacks);
		layer_table_free(&t);
	}
	bash_unseen = false;
}

int main(void)
{
	test_text();
	test_json();
	test_unseen();
	return unit_verdict("unit_format_stacks");
}
