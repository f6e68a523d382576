// SPDX-License-Identifier: BSD-2-Clause
/*
 * --profile=stacks' pure part: kallsyms text read into a table and an
 * address found in it, folded frames kept to one line, a set's distinct
 * stacks counted by their text and group, the folded format written and
 * the set freed with the result.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "core/result.h"
#include "profile/stacks.h"
#include "unit.h"

static const char kallsyms[] =
	"ffffffff81000000 T _stext\n"
	"ffffffff81001000 t do_one_initcall\n"
	"ffffffff81002000 D some_data\n"			/* data: never a frame */
	"ffffffff81003000 W weak_function\n"
	"ffffffffc0a00000 t zstd_compress_pages\t[btrfs]\n"	/* a module's, tab before it */
	"ffffffffc0900000 T ZSTD_compressBlock_fast [zstd_compress]\n"
	"ffffffff81004000 T vfs_write\n"
	"not a line at all\n"
	"ffffffff81005000 A absolute_symbol\n";

static void test_ksyms(void)
{
	struct stack_ksyms k = { 0 };

	CHECK(stack_ksyms_parse(&k, kallsyms) == 0, "a table with addresses");
	CHECK(k.n == 6, "text and weak symbols only: %zu", k.n);
	CHECK(stack_ksyms_find(&k, 0xffffffff80000000ull) == NULL, "below the first symbol");
	CHECK_STR(stack_ksyms_find(&k, 0xffffffff81000000ull), "_stext");
	CHECK_STR(stack_ksyms_find(&k, 0xffffffff81001fffull), "do_one_initcall");
	/* the data symbol between them names nothing: the function before it does */
	CHECK_STR(stack_ksyms_find(&k, 0xffffffff81002800ull), "do_one_initcall");
	CHECK_STR(stack_ksyms_find(&k, 0xffffffff81003010ull), "weak_function");
	CHECK_STR(stack_ksyms_find(&k, 0xffffffff81004abcull), "vfs_write");
	/* modules lie above the kernel's text, their lines out of order in the file */
	CHECK_STR(stack_ksyms_find(&k, 0xffffffffc0900040ull), "ZSTD_compressBlock_fast");
	CHECK_STR(stack_ksyms_find(&k, 0xffffffffc0a00123ull), "zstd_compress_pages");
	stack_ksyms_free(&k);
	CHECK(k.n == 0 && k.v == NULL, "freed");

	/* kptr_restrict: every address 0 names nothing, said apart */
	CHECK(stack_ksyms_parse(&k, "0000000000000000 T _stext\n0000000000000000 t vfs_write\n")
	      == -ENOENT, "hidden addresses");
	stack_ksyms_free(&k);
	CHECK(stack_ksyms_parse(&k, "") == -ENOENT, "an empty file");
	stack_ksyms_free(&k);
}

static void test_line(void)
{
	struct stack_line l = { 0 };

	stack_line_frame(&l, "Web Content", NULL);
	stack_line_frame(&l, "[libc.so.6]", NULL);
	stack_line_frame(&l, "vfs_write", STACK_KERNEL_SUFFIX);
	CHECK_STR(l.s, "Web_Content;[libc.so.6];vfs_write_[k]");
	/* a task may name itself anything: nothing in a name ends a frame, the line or the count */
	stack_line_reset(&l);
	stack_line_frame(&l, "a;b c\nd\t\x7f" "e", NULL);
	stack_line_frame(&l, "", NULL);
	stack_line_frame(&l, "f 12", NULL);
	CHECK_STR(l.s, "a_b_c_d__e;_;f_12");
	CHECK(l.len == strlen(l.s), "its length kept: %zu", l.len);
	/* deep stacks grow the line */
	stack_line_reset(&l);
	for (int i = 0; i < 500; i++)
		stack_line_frame(&l, "a_rather_long_kernel_function_name", STACK_KERNEL_SUFFIX);
	CHECK(l.len == 500 * 39 - 1 && !l.err, "500 frames: %zu", l.len);
	stack_line_free(&l);
}

static uint64_t count_of(const struct stack_set *s, const char *folded, enum prof_group g)
{
	for (size_t i = 0; i < s->n; i++)
		if (s->v[i].group == g && !strcmp(s->v[i].folded, folded))
			return s->v[i].count;
	return 0;
}

static void test_set(void)
{
	struct stack_set *s = calloc(1, sizeof(*s));
	struct stack_index ix = { 0 };
	char text[64], *buf = NULL;
	size_t len = 0;
	uint64_t sum = 0;
	FILE *f;

	CHECK(stack_set_add(s, &ix, "clyde;write_[k]", PROF_CLYDE, 1) == 0, "add");
	CHECK(stack_set_add(s, &ix, "clyde;write_[k]", PROF_CLYDE, 2) == 0, "add again");
	/* the same text in another group is another stack */
	CHECK(stack_set_add(s, &ix, "clyde;write_[k]", PROF_FS, 5) == 0, "another group");
	CHECK(s->n == 2 && s->samples == 8, "two stacks, 8 samples: %zu %llu", s->n,
	      (unsigned long long)s->samples);
	CHECK(count_of(s, "clyde;write_[k]", PROF_CLYDE) == 3, "summed");
	CHECK(count_of(s, "clyde;write_[k]", PROF_FS) == 5, "kept apart");
	/* another program's samples are not the phase's: counted apart, in no folded line */
	CHECK(stack_set_add(s, &ix, "stress-ng;[stress-ng]", PROF_OTHER, 11) == 0, "other");
	CHECK(stack_set_add(s, &ix, "stress-ng;[stress-ng]", PROF_OTHER, 1) == 0, "other again");
	CHECK(s->n == 3 && s->samples == 8 && s->other == 12, "other apart: %zu %llu %llu", s->n,
	      (unsigned long long)s->samples, (unsigned long long)s->other);
	/* many distinct stacks: the index grows and finds each again */
	for (int round = 0; round < 2; round++)
		for (int i = 0; i < 5000; i++) {
			snprintf(text, sizeof(text), "kworker/u4:%d;worker_thread_[k]", i);
			CHECK(stack_set_add(s, &ix, text, PROF_KWORKER, (uint64_t)i + 1) == 0,
			      "add %d", i);
		}
	CHECK(s->n == 5003, "5000 more stacks: %zu", s->n);
	CHECK(count_of(s, "kworker/u4:4999;worker_thread_[k]", PROF_KWORKER) == 10000,
	      "found again");
	for (size_t i = 0; i < s->n; i++)
		sum += s->v[i].group == PROF_OTHER ? 0 : s->v[i].count;
	CHECK(sum == s->samples, "samples is the sum of the phase's counts");

	f = open_memstream(&buf, &len);
	CHECK(f && stack_set_write_folded(f, s) == 0, "written");
	if (f)
		fclose(f);
	CHECK(buf && !strncmp(buf, "clyde;write_[k] 3\nclyde;write_[k] 5\nkworker/u4:0;"
			      "worker_thread_[k] 2\n", 58), "the folded lines: %.80s", buf);
	CHECK(buf && !strstr(buf, "stress-ng"), "another program's stack written");
	free(buf);
	stack_index_free(&ix);
	/* freed with the run's result: ASan's leak check sees what is left */
	stack_set_release(s);
	stack_set_release(NULL);
}

int main(void)
{
	test_ksyms();
	test_line();
	test_set();
	return unit_verdict("unit_stacks");
}
