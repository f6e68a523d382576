// SPDX-License-Identifier: BSD-2-Clause
/*
 * The layers and the summary of --profile=stacks on crafted sets: a
 * sample's one layer from its frames, the self and total rankings where
 * they disagree, recursion counted once, unknown frames, an empty set,
 * skewed and bimodal counts, a cap on the folded stacks, and sums that
 * must add up; the table's bad lines named by file and line.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "profile/stacks_layers.h"
#include "unit.h"

static const char small_table[] =
	"# a table of a few rows\n"
	"-\tk\tmemcpy* copy_*_iter\n"
	"fs\tk\text4_*\n"
	"\n"
	"vfs\tk\tvfs_* ksys_*\n"
	"syscall k entry_SYSCALL_64 do_syscall_64\n"
	"fs\tk\tjbd2_*\n"
	"clyde\tu\t*\n";

static struct layer_table table;

static void add(struct stack_set *s, const char *folded, uint64_t count, enum prof_group g)
{
	s->v = realloc(s->v, (s->n + 1) * sizeof(*s->v));
	s->v[s->n++] = (struct stack_entry){ .folded = strdup(folded), .count = count,
					     .group = g };
	s->samples += count;
}

static void set_free(struct stack_set *s)
{
	for (size_t k = 0; k < s->n; k++)
		free(s->v[k].folded);
	free(s->v);
	memset(s, 0, sizeof(*s));
}

static const char *layer(const char *folded, enum prof_group g)
{
	return table.name[layer_of_stack(&table, folded, g)];
}

static const struct stack_layer *find_layer(const struct stack_summary *s, const char *name)
{
	for (unsigned k = 0; k < s->nlayers; k++)
		if (!strcmp(s->layer[k].name, name))
			return &s->layer[k];
	return NULL;
}

static void test_parse(void)
{
	char err[256] = "";

	CHECK(layer_table_parse(&table, small_table, "small", err, sizeof(err)) == 0, "%s", err);
	/* the table's own three in order of first appearance, then clyde's two */
	CHECK(table.nlayers == 6, "%u layers", table.nlayers);
	CHECK_STR(table.name[0], "fs");
	CHECK_STR(table.name[1], "vfs");
	CHECK_STR(table.name[2], "syscall");
	CHECK_STR(table.name[3], "clyde");
	CHECK_STR(table.name[4], LAYER_OTHER_PROCS);
	CHECK_STR(table.name[5], LAYER_UNKNOWN);
}

static void expect_refused(const char *text, const char *want)
{
	struct layer_table t;
	char err[256] = "";

	CHECK(layer_table_parse(&t, text, "bad.layers", err, sizeof(err)) == -EINVAL,
	      "'%s' accepted", text);
	CHECK(strstr(err, want) != NULL, "'%s': message '%s', want '%s'", text, err, want);
}

static void test_bad_lines(void)
{
	expect_refused("fs k ext4_*\nvfs x vfs_*\n", "bad.layers:2: the second word must be k");
	expect_refused("# only\n\nfs k\n", "bad.layers:3: a row needs a pattern");
	expect_refused("fs\n", "bad.layers:1: the second word");
	expect_refused("unknown k foo\n", "bad.layers:1: other-processes and unknown");
	expect_refused("a_layer_name_of_more_than_31_chars k foo\n", "bad.layers:1: a layer name");
	expect_refused("# nothing\n", "bad.layers: no layer rows");
}

static void test_load(void)
{
	struct layer_table t;
	char err[256] = "", path[] = "/tmp/unit_stacks_layersXXXXXX";
	int fd;

	CHECK(layer_table_load(&t, "/nonexistent/layers", err, sizeof(err)) == -ENOENT, "no file");
	CHECK(strstr(err, "/nonexistent/layers: ") == err, "'%s'", err);
	fd = mkstemp(path);
	CHECK(fd >= 0, "mkstemp");
	if (fd < 0)
		return;
	CHECK(write(fd, "fs k ext4_*\n\0vfs k x\n", 21) == 21, "write");
	close(fd);
	CHECK(layer_table_load(&t, path, err, sizeof(err)) == -EINVAL, "a NUL read as text");
	CHECK(strstr(err, "not a text file") != NULL, "'%s'", err);
	unlink(path);
}

/*
 * clyde runs as root and CLYDE_LAYERS names any path: a device that never
 * ends, a FIFO no one writes, a directory or a huge file is refused at
 * once; a symbolic link to a table is the table (the user named it).
 */
static void test_load_attacks(void)
{
	char dir[] = "/tmp/unit_stacks_layersXXXXXX", fifo[64], link[64], big[64], good[64];
	struct layer_table t;
	char err[256];
	FILE *f;

	alarm(20);	/* a blocked open or an endless read fails here, not by hanging */
	CHECK(layer_table_load(&t, "/dev/zero", err, sizeof(err)) == -EINVAL, "/dev/zero read");
	CHECK(strstr(err, "not a regular file") != NULL, "'%s'", err);
	if (!mkdtemp(dir)) {
		CHECK(0, "mkdtemp: %s", strerror(errno));
		return;
	}
	snprintf(fifo, sizeof(fifo), "%s/fifo", dir);
	snprintf(link, sizeof(link), "%s/link", dir);
	snprintf(big, sizeof(big), "%s/big", dir);
	snprintf(good, sizeof(good), "%s/good", dir);
	CHECK(mkfifo(fifo, 0600) == 0, "mkfifo");
	CHECK(layer_table_load(&t, fifo, err, sizeof(err)) == -EINVAL, "a FIFO read");
	CHECK(layer_table_load(&t, dir, err, sizeof(err)) == -EINVAL, "a directory read");
	f = fopen(big, "w");
	if (f) {
		for (int k = 0; k < LAYER_TABLE_MAX_BYTES / 16 + 1; k++)
			fputs("fs k ext4_aaaaa\n", f);
		fclose(f);
	}
	CHECK(layer_table_load(&t, big, err, sizeof(err)) == -EINVAL, "a table over the limit");
	CHECK(strstr(err, "bytes at most") != NULL, "'%s'", err);
	f = fopen(good, "w");
	if (f) {
		fputs("fs k ext4_*\n", f);
		fclose(f);
	}
	CHECK(symlink(good, link) == 0, "symlink");
	CHECK(layer_table_load(&t, link, err, sizeof(err)) == 0, "a link to a table: %s", err);
	if (t.npat)
		layer_table_free(&t);
	unlink(fifo);
	unlink(link);
	unlink(big);
	unlink(good);
	rmdir(dir);
	alarm(0);
}

/* '*' only; and a table of many stars costs no more than its length times a frame's. */
static void test_glob(void)
{
	static const struct {
		const char *glob, *frame;
		bool match;
	} cases[] = {
		{ "a*b", "ab", true }, { "a*b", "axxb", true }, { "a*b", "abx", false },
		{ "*", "x", true }, { "a**", "a", true }, { "*b*", "abc", true },
		{ "abc", "ab", false }, { "ab", "abc", false }, { "*ab", "aab", true },
		{ "a*a*b", "aaab", true }, { "a*a*b", "aab", true }, { "a*a*b", "ab", false },
		{ "[lib*.so*]", "[libc.so.6]", true }, { "[lib*.so*]", "libc.so.6", false },
	};
	char text[4096], frame[320] = "clyde;";
	struct layer_table t;
	char err[256] = "";

	for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		snprintf(text, sizeof(text), "hit u %s\n", cases[k].glob);
		if (layer_table_parse(&t, text, "g", err, sizeof(err))) {
			CHECK(0, "%s: %s", cases[k].glob, err);
			continue;
		}
		snprintf(frame, sizeof(frame), "clyde;%s", cases[k].frame);
		CHECK(!strcmp(t.name[layer_of_stack(&t, frame, PROF_CLYDE)], "hit") == cases[k].match,
		      "'%s' against '%s'", cases[k].glob, cases[k].frame);
		layer_table_free(&t);
	}
	/* 40 stars against 300 a's and no b: a recursion takes years, this a blink */
	strcpy(text, "slow u ");
	for (int k = 0; k < 40; k++)
		strcat(text, "*a");
	strcat(text, "*b\n");
	memset(frame + 6, 'a', 300);
	frame[306] = '\0';
	alarm(20);
	CHECK(layer_table_parse(&t, text, "g", err, sizeof(err)) == 0, "%s", err);
	CHECK_STR(t.name[layer_of_stack(&t, frame, PROF_CLYDE)], LAYER_UNKNOWN);
	alarm(0);
	layer_table_free(&t);
}

/* One layer a sample: the first frame with one from the leaf; "-" frames pass. */
static void test_one_layer(void)
{
	CHECK_STR(layer("clyde;main;entry_SYSCALL_64_[k];ksys_write_[k];ext4_write_[k]",
			PROF_CLYDE), "fs");
	/* memcpy under ext4: ext4's copy */
	CHECK_STR(layer("clyde;entry_SYSCALL_64_[k];ext4_write_[k];memcpy_orig_[k]", PROF_CLYDE),
		  "fs");
	/* copy_page_to_iter under vfs_read: the VFS's, not a layer of its own */
	CHECK_STR(layer("clyde;entry_SYSCALL_64_[k];vfs_read_[k];copy_page_to_iter_[k]",
			PROF_CLYDE), "vfs");
	/* an unknown kernel function under the entry: the entry decides */
	CHECK_STR(layer("clyde;entry_SYSCALL_64_[k];mystery_fn_[k]", PROF_CLYDE), "syscall");
	/* a user frame at the leaf: clyde's row "u *" */
	CHECK_STR(layer("clyde;main;fill_pattern", PROF_CLYDE), "clyde");
	/* ext4_ as a user function is no kernel frame */
	CHECK_STR(layer("clyde;ext4_lookalike", PROF_CLYDE), "clyde");
	/* a kernel thread with nothing known */
	CHECK_STR(layer("kworker/u4:2;worker_thread_[k];mystery_[k]", PROF_WRITEBACK),
		  LAYER_UNKNOWN);
	/* the journal's thread: jbd2 rows add to fs here */
	CHECK_STR(layer("jbd2/vda1-8;kthread_[k];jbd2_journal_commit_transaction_[k]", PROF_FS),
		  "fs");
	/* other processes by their task, whatever their frames */
	CHECK_STR(layer("bash;entry_SYSCALL_64_[k];ext4_write_[k]", PROF_OTHER),
		  LAYER_OTHER_PROCS);
	/* the task's name alone, or only passed-over frames */
	CHECK_STR(layer("clyde", PROF_CLYDE), LAYER_UNKNOWN);
	CHECK_STR(layer("clyde;memcpy_[k]", PROF_CLYDE), LAYER_UNKNOWN);
	/* a task named like a layer's function is no frame */
	CHECK_STR(layer("ext4_fake;mystery_[k]", PROF_KTHREAD), LAYER_UNKNOWN);
	/* empty frames are no frames */
	CHECK_STR(layer("clyde;;;", PROF_CLYDE), LAYER_UNKNOWN);
}

static const struct stack_func *find_func(const struct stack_func *v, unsigned n, const char *name)
{
	for (unsigned k = 0; k < n; k++)
		if (!strcmp(v[k].name, name))
			return &v[k];
	return NULL;
}

/*
 * Self and total disagree: vfs_write_[k] is on every stack (total 100)
 * but never sampled itself; ext4_da_write_begin_[k] has the most self.
 * Recursion: a;b;a;b counts a and b once each for that stack's total.
 */
static void test_summary(void)
{
	struct stack_set set = { .period_s = 0.001, .idle = 500, .lost = 3, .other = 7 };
	struct stack_summary *s;
	const struct stack_func *f;
	const struct stack_layer *l;
	uint64_t sum = 0;
	double share = 0;

	add(&set, "clyde;entry_SYSCALL_64_[k];vfs_write_[k];ext4_da_write_begin_[k]", 40,
	    PROF_CLYDE);
	add(&set, "clyde;entry_SYSCALL_64_[k];vfs_write_[k];ext4_x_[k];memcpy_[k]", 30, PROF_CLYDE);
	add(&set, "clyde;entry_SYSCALL_64_[k];vfs_write_[k];rec_[k];vfs_write_[k];rec_[k]", 25,
	    PROF_CLYDE);
	add(&set, "clyde;entry_SYSCALL_64_[k];vfs_write_[k]", 5, PROF_CLYDE);
	add(&set, "clyde;pattern_fill", 13, PROF_CLYDE);
	CHECK(stacks_summarize(&set, &table, &s) == 0, "summarize");
	CHECK(s->samples == 113, "%" PRIu64 " samples", s->samples);
	CHECK(s->idle == 500 && s->lost == 3 && s->other == 7, "idle, other and lost apart");
	/* the layers: fs 70, vfs 25 + 5, clyde 13; nothing unknown, other apart */
	for (unsigned k = 0; k < s->nlayers; k++) {
		sum += s->layer[k].samples;
		share += s->layer[k].share;
		CHECK(s->layer[k].cpu_s == s->layer[k].samples * 0.001, "%s cpu", s->layer[k].name);
	}
	CHECK(sum == 113, "layers sum to %" PRIu64, sum);
	CHECK(share > 1 - 1e-12 && share < 1 + 1e-12, "shares sum to %.15f", share);
	CHECK((l = find_layer(s, "fs")) && l->samples == 70, "fs");
	CHECK((l = find_layer(s, "vfs")) && l->samples == 30, "vfs");
	CHECK((l = find_layer(s, "clyde")) && l->samples == 13, "clyde");
	CHECK(!find_layer(s, LAYER_OTHER_PROCS), "other programs' samples are in no layer");
	CHECK(!find_layer(s, LAYER_UNKNOWN), "no unknown layer where none was");
	CHECK(!find_layer(s, "syscall"), "an empty layer is left out");
	CHECK(s->nlayers == 3, "%u layers", s->nlayers);
	CHECK_STR(s->layer[0].name, "fs");	/* the table's order */
	/* self: ext4_da_write_begin 40, memcpy 30, rec 25, pattern_fill 13, vfs_write 5 */
	CHECK(s->nself == 5, "%u self", s->nself);
	CHECK_STR(s->top_self[0].name, "ext4_da_write_begin_[k]");
	CHECK_STR(s->top_self[1].name, "memcpy_[k]");
	CHECK_STR(s->top_self[2].name, "rec_[k]");
	CHECK_STR(s->top_self[3].name, "pattern_fill");
	CHECK_STR(s->top_self[4].name, "vfs_write_[k]");
	CHECK(s->top_self[4].self == 5, "vfs_write self %" PRIu64, s->top_self[4].self);
	/* total: vfs_write and the entry on 100, once per stack in spite of the recursion */
	CHECK_STR(s->top_total[0].name, "entry_SYSCALL_64_[k]");
	CHECK_STR(s->top_total[1].name, "vfs_write_[k]");
	CHECK(s->top_total[1].total == 100, "vfs_write total %" PRIu64, s->top_total[1].total);
	f = find_func(s->top_total, s->ntotal, "rec_[k]");
	CHECK(f && f->total == 25 && f->self == 25, "rec once a stack");
	/* the task's name is no function */
	CHECK(!find_func(s->top_total, s->ntotal, "clyde"), "the task is not a frame");
	/* folded stacks by count, each with its layer */
	CHECK(s->nfolded == 5 && !s->folded_merged, "%zu folded", s->nfolded);
	CHECK(s->folded[0].count == 40 && !strcmp(s->folded[0].layer, "fs"), "first folded");
	CHECK(s->folded[4].count == 5 && !strcmp(s->folded[4].layer, "vfs"), "last folded");
	free(s);
	set_free(&set);
}

/*
 * The frames that name no function ("[unknown]" at the root, a library's
 * "[libc.so.6]", a kernel frame without its symbol) are on nearly every
 * stack: by total they would come first and say nothing (perf report
 * --children tops its list with the entry points). Total ranks the named
 * functions only; self and the folded stacks keep every frame.
 */
static void test_pseudo_frames(void)
{
	struct stack_set set = { .period_s = 0.001 };
	struct stack_summary *s;

	add(&set, "clyde;[unknown];[libc.so.6];write_block;entry_SYSCALL_64_[k];vfs_write_[k]", 60,
	    PROF_CLYDE);
	add(&set, "clyde;[unknown];[libc.so.6];write_block;pattern_fill", 30, PROF_CLYDE);
	add(&set, "clyde;[unknown];[libc.so.6]", 8, PROF_CLYDE);
	add(&set, "kworker;[unknown]_[k]", 2, PROF_KWORKER);
	CHECK(stacks_summarize(&set, &table, &s) == 0, "summarize");
	if (!s)
		return;
	CHECK(s->ntotal == 4, "%u by total: the named functions", s->ntotal);
	CHECK_STR(s->top_total[0].name, "write_block");
	CHECK(s->top_total[0].total == 90, "write_block total %" PRIu64, s->top_total[0].total);
	CHECK_STR(s->top_total[1].name, "entry_SYSCALL_64_[k]");
	CHECK_STR(s->top_total[2].name, "vfs_write_[k]");
	CHECK_STR(s->top_total[3].name, "pattern_fill");
	for (unsigned k = 0; k < s->ntotal; k++)
		CHECK(s->top_total[k].name[0] != '[', "by total: %s names no function",
		      s->top_total[k].name);
	/* self keeps them: 8 samples hit the library itself, 2 an unknown kernel function */
	CHECK(find_func(s->top_self, s->nself, "[libc.so.6]") &&
	      find_func(s->top_self, s->nself, "[libc.so.6]")->self == 8, "self keeps [libc.so.6]");
	CHECK(find_func(s->top_self, s->nself, "[unknown]_[k]") != NULL, "self keeps [unknown]_[k]");
	CHECK(s->nfolded == 4 && strstr(s->folded[0].folded, "[unknown];[libc.so.6]"),
	      "the folded stacks keep every frame");
	CHECK(stack_frame_named("vfs_write_[k]") && stack_frame_named("main") &&
	      !stack_frame_named("[clyde]") && !stack_frame_named("[unknown]_[k]"),
	      "stack_frame_named");
	free(s);
	set_free(&set);
}

static void test_empty(void)
{
	struct stack_set set = { .period_s = 0.01, .idle = 7 };
	struct stack_summary *s;

	CHECK(stacks_summarize(&set, &table, &s) == 0, "summarize");
	if (!s)
		return;
	CHECK(s->samples == 0 && s->nlayers == 0 && s->nself == 0 && s->ntotal == 0 &&
	      s->nfolded == 0 && s->idle == 7, "an empty set sums to nothing");
	free(s);
}

/*
 * Skewed (2^40 against 1) and bimodal counts: the shares and seconds
 * from whole counts, a small layer neither lost nor rounded into another.
 */
static void test_skewed(void)
{
	struct stack_set set = { .period_s = 1.0 / 997 };
	struct stack_summary *s;
	const struct stack_layer *l;
	uint64_t big = UINT64_C(1) << 40;

	add(&set, "clyde;ext4_a_[k]", big, PROF_CLYDE);
	add(&set, "clyde;vfs_b_[k]", 1, PROF_CLYDE);
	add(&set, "clyde;entry_SYSCALL_64_[k]", 1000, PROF_CLYDE);
	add(&set, "clyde;do_syscall_64_[k]", 1000, PROF_CLYDE);
	CHECK(stacks_summarize(&set, &table, &s) == 0, "summarize");
	CHECK(s->samples == big + 2001, "samples");
	CHECK((l = find_layer(s, "vfs")) && l->samples == 1, "the one sample kept");
	CHECK(l && l->share == 1.0 / (double)(big + 2001), "its share");
	CHECK((l = find_layer(s, "syscall")) && l->samples == 2000, "two modes of one layer");
	CHECK(l && l->cpu_s > 2000.0 / 997 - 1e-12 && l->cpu_s < 2000.0 / 997 + 1e-12,
	      "seconds %.9f", l ? l->cpu_s : -1);
	CHECK(s->top_self[0].self == big, "the big one first");
	/* equal counts ranked by name */
	CHECK_STR(s->top_self[1].name, "do_syscall_64_[k]");
	CHECK_STR(s->top_self[2].name, "entry_SYSCALL_64_[k]");
	free(s);
	set_free(&set);
}

/* More distinct stacks than kept: the rest in one remainder, every sample still there. */
static void test_cap(void)
{
	struct stack_set set = { .period_s = 0.001 };
	struct stack_summary *s;
	uint64_t sum = 0, want = 0;
	char name[64];
	size_t n = STACK_FOLDED_MAX + 500;

	for (size_t k = 0; k < n; k++) {
		snprintf(name, sizeof(name), "clyde;ext4_f%zu_[k]", k);
		add(&set, name, k + 1, PROF_CLYDE);
		want += k + 1;
	}
	CHECK(stacks_summarize(&set, &table, &s) == 0, "summarize");
	CHECK(s->nfolded == STACK_FOLDED_MAX, "%zu kept", s->nfolded);
	CHECK(s->folded_merged == 501, "%" PRIu64 " merged", s->folded_merged);
	CHECK_STR(s->folded[s->nfolded - 1].folded, STACK_REMAINDER);
	CHECK(s->folded[s->nfolded - 1].layer[0] == '\0', "the remainder has no one layer");
	for (size_t k = 0; k < s->nfolded; k++)
		sum += s->folded[k].count;
	CHECK(sum == want && s->samples == want, "%" PRIu64 " of %" PRIu64, sum, want);
	/* the largest kept: the count n first */
	CHECK(s->folded[0].count == n, "largest first");
	/* the remainder holds the 501 smallest: 1 .. 501 */
	CHECK(s->folded[s->nfolded - 1].count == 501 * 502 / 2, "remainder %" PRIu64,
	      s->folded[s->nfolded - 1].count);
	free(s);
	set_free(&set);
}

/* The table clyde installs: a few stacks whose layer is not in doubt. */
static void test_shipped_table(void)
{
	const char *path = getenv("LAYERS_TABLE");
	struct layer_table t;
	char err[256] = "";
	struct {
		const char *folded;
		enum prof_group g;
		const char *want;
	} cases[] = {
		{ "clyde;[libc.so.6];entry_SYSCALL_64_[k];do_syscall_64_[k];ksys_write_[k];"
		  "vfs_write_[k];ext4_buffered_write_iter_[k];generic_perform_write_[k];"
		  "copy_page_from_iter_atomic_[k];rep_movs_alternative_[k]", PROF_CLYDE,
		  "page-cache" },
		{ "clyde;entry_SYSCALL_64_[k];ext4_file_write_iter_[k]", PROF_CLYDE, "ext4" },
		{ "kworker/u4:1-btrfs-endio-write;btrfs_work_helper_[k];compress_file_range_[k];"
		  "zstd_compress_folios_[k];ZSTD_compressBlock_doubleFast_[k]", PROF_FS,
		  "compression" },
		{ "btrfs-worker;btrfs_csum_one_bio_[k];crc32c_pcl_intel_update_[k]", PROF_FS,
		  "checksum" },
		{ "jbd2/vda1-8;kjournald2_[k];jbd2_journal_commit_transaction_[k]", PROF_FS,
		  "journal" },
		{ "xfsaild/vdb;xfsaild_[k];xlog_cil_push_work_[k]", PROF_FS, "journal" },
		{ "kworker/0:1H-kblockd;blk_mq_run_work_fn_[k];virtio_queue_rq_[k]", PROF_BLOCK,
		  "driver" },
		{ "clyde;entry_SYSCALL_64_[k];ksys_read_[k];blk_mq_submit_bio_[k]", PROF_CLYDE,
		  "block" },
		{ "clyde;entry_SYSCALL_64_[k];__schedule_[k]", PROF_CLYDE, "sched" },
		{ "clyde;entry_SYSCALL_64_[k];vfs_fsync_range_[k];mystery_[k]", PROF_CLYDE, "vfs" },
		{ "clyde;entry_SYSCALL_64_[k];do_syscall_64_[k];mystery_[k]", PROF_CLYDE,
		  "syscall" },
		{ "clyde;main;phase_block_write", PROF_CLYDE, "clyde" },
		{ "clyde;main;[libc.so.6]", PROF_CLYDE, "libraries" },
		{ "fuse-worker;fuse_dev_do_read_[k]", PROF_KTHREAD, "fuse" },
		{ "clyde;entry_SYSCALL_64_[k];shmem_file_write_iter_[k]", PROF_CLYDE, "tmpfs" },
		{ "zram;zram_bvec_write_[k];lzo1x_1_do_compress_[k]", PROF_BLOCK, "compression" },
		{ "kswapd0;kswapd_[k];shrink_node_[k]", PROF_KSWAPD, "page-cache" },
		/* --profile=layers' own programs, JIT code named in /proc/kallsyms */
		{ "clyde;entry_SYSCALL_64_[k];submit_bio_noacct_[k];bpf_trace_run2_[k];"
		  "bpf_prog_6deef7357e7b4530_on_bio_queue_[k]", PROF_CLYDE, "profiler" },
		{ "ksoftirqd/1;blk_complete_reqs_[k];__bpf_trace_block_rq_completion_[k]",
		  PROF_KTHREAD, "profiler" },
	};

	if (!path) {
		fprintf(stderr, "unit_stacks_layers: LAYERS_TABLE unset: the shipped table "
			"is not checked\n");
		CHECK(path, "LAYERS_TABLE set by the test environment");
		return;
	}
	CHECK(layer_table_load(&t, path, err, sizeof(err)) == 0, "%s", err);
	for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++)
		CHECK_STR(t.name[layer_of_stack(&t, cases[k].folded, cases[k].g)], cases[k].want);
	layer_table_free(&t);
}

/* The phase's summary hangs off its profile and goes with it. */
static void test_finish(void)
{
	struct stack_set set = { .period_s = 0.002 };
	struct prof_phase pp = { .valid = true };

	add(&set, "clyde;ext4_a_[k]", 3, PROF_CLYDE);
	CHECK(prof_stacks_finish(&pp, &set, &table) == 0, "finish");
	CHECK(pp.stacks && pp.stacks->samples == 3 && pp.stacks->layer[0].cpu_s > 0.006 - 1e-15 &&
	      pp.stacks->layer[0].cpu_s < 0.006 + 1e-15,
	      "the summary in the phase");
	CHECK(prof_stacks_finish(&pp, &set, &table) == 0, "a second time replaces it");
	free(pp.stacks);
	set_free(&set);
}

int main(void)
{
	test_parse();
	test_bad_lines();
	test_load();
	test_load_attacks();
	test_glob();
	test_one_layer();
	test_summary();
	test_pseudo_frames();
	test_empty();
	test_skewed();
	test_cap();
	test_shipped_table();
	test_finish();
	layer_table_free(&table);
	return unit_verdict("unit_stacks_layers");
}
