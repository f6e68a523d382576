// SPDX-License-Identifier: BSD-2-Clause
/*
 * The CPU no snapshot counted, named from a crafted stack set: samples of
 * tasks whose process was gone when the rings were read (stack_entry's
 * unseen) are summed by task, kworkers of one workqueue together whatever
 * their number, each named with the function most of its samples were in
 * (summed over its stacks, not the largest stack's) and that function's
 * layer; the tasks the snapshots saw are left out though they share a
 * name; the largest STACK_UNSEEN_MAX are kept, largest first, and the
 * total counts them all. The set's index keeps a seen and an unseen
 * stack of one text apart.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profile/stacks_layers.h"
#include "unit.h"

#define CHECK_NEAR(got, want, eps) do {					\
	double g_ = (got), w_ = (want);					\
	CHECK(g_ - w_ < (eps) && w_ - g_ < (eps), "got %.9g, want %.9g", g_, w_); \
} while (0)

static const char table_text[] =
	"btrfs\tk\tbtrfs_*\n"
	"checksum\tk\tcrc32c*\n"
	"page-cache\tk\tfilemap_*\n"
	"clyde\tu\t*\n";

static struct layer_table table;
static struct stack_set set;
static struct stack_index ix;

static void add(const char *folded, enum prof_group g, bool unseen, uint64_t count)
{
	CHECK(stack_set_add_task(&set, &ix, folded, g, unseen, count) == 0, "add %s", folded);
}

static const struct stack_unseen *named(const struct stack_summary *s, const char *task)
{
	for (unsigned k = 0; k < s->nunseen; k++)
		if (!strcmp(s->unseen[k].task, task))
			return &s->unseen[k];
	return NULL;
}

static void test_index_apart(void)
{
	struct stack_set s = { 0 };
	struct stack_index i = { 0 };

	CHECK(stack_set_add_task(&s, &i, "cc1", PROF_OTHER, false, 2) == 0, "seen");
	CHECK(stack_set_add_task(&s, &i, "cc1", PROF_OTHER, true, 3) == 0, "unseen");
	CHECK(stack_set_add(&s, &i, "cc1", PROF_OTHER, 4) == 0, "seen, the old call");
	CHECK(s.n == 2, "a seen and an unseen entry of one text: %zu entries", s.n);
	CHECK(s.n == 2 && s.v[0].count == 6 && !s.v[0].unseen && s.v[1].count == 3 &&
	      s.v[1].unseen, "counts 6 seen, 3 unseen");
	for (size_t k = 0; k < s.n; k++)
		free(s.v[k].folded);
	free(s.v);
	stack_index_free(&i);
}

static void test_named(void)
{
	struct stack_summary *s = NULL;
	const struct stack_unseen *u;
	char err[256] = "";

	CHECK(layer_table_parse(&table, table_text, "t", err, sizeof(err)) == 0, "%s", err);
	set.period_s = 0.01;
	/* seen: clyde, and a cc1 the snapshots counted, larger than everything unseen */
	add("clyde;[clyde];do_syscall_64_[k];btrfs_file_write_iter_[k]", PROF_CLYDE, false, 500);
	add("cc1", PROF_OTHER, false, 100);
	/*
	 * unseen kworkers of btrfs-endio, two numbers: btrfs_work_helper in
	 * two stacks (5 + 4 = 9) beats crc32c_le's one larger stack (7)
	 */
	add("kworker/u8:3-btrfs-endio;ret_from_fork_[k];btrfs_work_helper_[k]", PROF_FS, true, 5);
	add("kworker/u8:7-btrfs-endio;ret_from_fork_[k];worker_thread_[k];btrfs_work_helper_[k]",
	    PROF_FS, true, 4);
	add("kworker/u8:7-btrfs-endio;ret_from_fork_[k];crc32c_le_[k]", PROF_FS, true, 7);
	/* an unseen kworker that named no workqueue, and short-lived processes */
	add("kworker/u8:9;ret_from_fork_[k];filemap_get_folio_[k]", PROF_KWORKER, true, 3);
	add("cc1", PROF_OTHER, true, 30);
	add("ld;do_syscall_64_[k];filemap_read_[k]", PROF_OTHER, true, 2);
	add("[exited]", PROF_OTHER, true, 6);
	add("as", PROF_OTHER, true, 1);
	CHECK(stacks_summarize(&set, &table, &s) == 0 && s, "summarize");
	if (!s)
		return;
	/* 5 + 4 + 7 + 3 + 30 + 2 + 6 + 1: all of them, named or not */
	CHECK(s->unseen_samples == 58, "unseen samples %llu",
	      (unsigned long long)s->unseen_samples);
	CHECK(s->nunseen == STACK_UNSEEN_MAX, "%u named", s->nunseen);
	/* cc1 30, kworker btrfs-endio 16, [exited] 6, kworker 3, ld 2; as (1) left out */
	CHECK_STR(s->unseen[0].task, "cc1");
	CHECK_STR(s->unseen[1].task, "kworker btrfs-endio");
	CHECK_STR(s->unseen[2].task, "[exited]");
	CHECK_STR(s->unseen[3].task, "kworker");
	CHECK_STR(s->unseen[4].task, "ld");
	CHECK(!named(s, "as"), "the sixth task is not named");
	CHECK(!named(s, "clyde"), "clyde was seen");
	u = named(s, "cc1");
	CHECK(u && u->samples == 30, "cc1: its unseen samples only, not the seen 100");
	if (u) {
		CHECK_NEAR(u->cpu_s, 0.30, 1e-12);
		CHECK_STR(u->func, "[no frames]");
		CHECK_STR(u->layer, LAYER_OTHER_PROCS);
	}
	u = named(s, "kworker btrfs-endio");
	CHECK(u && u->samples == 16, "kworker btrfs-endio: both numbers together");
	if (u) {
		CHECK_STR(u->func, "btrfs_work_helper_[k]");
		CHECK_STR(u->layer, "btrfs");
		CHECK_NEAR(u->cpu_s, 0.16, 1e-12);
	}
	u = named(s, "kworker");
	CHECK(u && !strcmp(u->func, "filemap_get_folio_[k]") && !strcmp(u->layer, "page-cache"),
	      "an unnamed kworker's function and layer");
	u = named(s, "ld");
	CHECK(u && !strcmp(u->layer, LAYER_OTHER_PROCS), "another process stays another process");
	free(s);
}

static void test_none(void)
{
	struct stack_set s = { .period_s = 0.01 };
	struct stack_index i = { 0 };
	struct stack_summary *sum = NULL;

	CHECK(stack_set_add(&s, &i, "clyde;[clyde]", PROF_CLYDE, 10) == 0, "add");
	CHECK(stacks_summarize(&s, &table, &sum) == 0 && sum, "summarize");
	CHECK(sum && !sum->nunseen && !sum->unseen_samples, "every task seen: none named");
	free(sum);
	free(s.v[0].folded);
	free(s.v);
	stack_index_free(&i);
}

int main(void)
{
	test_index_apart();
	test_named();
	test_none();
	for (size_t k = 0; k < set.n; k++)
		free(set.v[k].folded);
	free(set.v);
	stack_index_free(&ix);
	layer_table_free(&table);
	return unit_verdict("unit_stacks_unseen");
}
