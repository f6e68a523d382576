// SPDX-License-Identifier: BSD-2-Clause
/*
 * clyde-report's readers, statistics and text: golden lines of every
 * format (bonnie++ 2.00a's are real, from tests/data/report_golden/), malformed
 * input of every kind, and the statistics on numbers worked by hand.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/phase.h"
#include "report/report.h"
#include "report/report_db.h"
#include "unit.h"

#define NEAR(got, want, tol) (fabs((got) - (want)) <= (tol))
#define CHECK_NEAR(got, want, tol) \
	CHECK(NEAR(got, want, tol), "got %.10g, want %.10g", (double)(got), (double)(want))

/* Real bonnie++ 2.00a lines (reference/bonnie++-2.00a: ext4-4G-n64, opts-chunk-files-dirs-conc, ext4-default-2xRAM). */
static const char line_ext4[] =
	"1.98,2.00a,ext4,1,1796006540,4G,,8192,5,595,99,420292,77,842502,64,670,99,3076378,98,5411,35,"
	"64,,,,,58625,98,+++++,+++,112298,83,4614,99,+++++,+++,109202,85,16824us,8960us,16343us,14044us,"
	"878us,8065us,504us,257us,1816us,2132us,98us,2085us";
static const char line_label[] =
	"1.98,2.00a,label,2,12345,1G,,8192,5,649,99,786945,99,+++++,+++,670,99,+++++,+++,+++++,+++,4,"
	"65536,1024,,4,+++++,+++,+++++,+++,+++++,+++,+++++,+++,+++++,+++,+++++,+++,28871us,638us,161us,"
	"26045us,192us,8059us,1821us,764us,2758us,1173us,225us,2670us";
static const char line_default[] =
	"1.98,2.00a,default,1,1796007047,48208M,,8192,5,607,99,566684,90,512665,72,582,99,717009,44,"
	"621.9,12,16,,,,,+++++,+++,+++++,+++,+++++,+++,+++++,+++,+++++,+++,+++++,+++,18649us,491ms,"
	"1007ms,27852us,53912us,14405us,649us,237us,1904us,710us,185us,6489us";
/* Real clyde 0.1.0 line (tests/data/report_golden/clyde-x3.csv). */
static const char line_clyde[] =
	"1.98,0.1.0,tmpfs-clyde,1,3952314521,64M,,219154,5,,,992936,51,821445,56,,,2672037,84,218720,"
	"77,1,,,,,109248,60,245958,66,125203,51,68777,41,258393,67,132594,62,,4186us,4493us,,2139us,"
	"106ms,848us,666us,956us,2365us,343us,627us";
/* Written by hand from bonnie++ 1.97's and 1.03's formats (tests/data/report_golden/README). */
static const char line_197[] =
	"1.97,1.97,base,1,1000,4G,,500,98,100000,10,50000,8,600,97,200000,12,400.0,5,16,,,,,20000,50,"
	"+++++,+++,30000,40,21000,50,+++++,+++,29000,40,20ms,100ms,200ms,15ms,50ms,80ms,1000us,500us,"
	"900us,1100us,400us,800us";
static const char line_196[] =
	"1.96,1.96,old196,1,1234,2G,16k,,,90000,9,45000,7,,,180000,11,350.5,4,16,,,,,19000,49,+++++,"
	"+++,28000,39,20000,49,+++++,+++,27000,39,,90ms,190ms,,45ms,75ms,1100us,,950us,1200us,,850us";
static const char line_103[] =
	"new103,4G,505,98,200000,10,52000,8,605,97,200000,12,800.0,5,16,40000,50,+++++,+++,60000,40,"
	"42000,50,+++++,+++,58000,40";
static const char line_103_packed[] =
	"packed,300M:32k,,,150000,20,70000,15,,,160000,15,1200.0,9,16:10240:1024/4,5000,60,+++++,+++,"
	"9000,55,,,,,,";
static const char line_103_links[] =
	"links103,,,,,,,,,,,,,,16:link,+++++,+++,+++++,+++,+++++,+++,+++++,+++,+++++,+++,+++++,+++";

/* A clyde-result/2 document cut to what the report reads, with a name that needs escapes. */
static const char json_doc[] =
	"{\n"
	"  \"schema\": \"clyde-result/2\",\n"
	"  \"clyde_version\": \"0.1.0\",\n"
	"  \"runs\": [\n"
	"    {\n"
	"      \"name\": \"caf\\u00e9 \\ud83d\\ude00\",\n"
	"      \"concurrency\": 1,\n"
	"      \"io\": {\"size_mib\": 64, \"chunk\": 16384, \"seeks\": 12345, \"seekers\": 5},\n"
	"      \"files\": {\"number\": 2, \"max_size\": -1, \"min_size\": 0, \"dirs\": 1, \"chunk\": 8192},\n"
	"      \"counts\": {\"seeks_timed\": true, \"files_calibrated\": false},\n"
	"      \"phases\": {\n"
	"        \"putc\": {\"ran\": false},\n"
	"        \"put_block\": {\"ran\": true, \"elapsed_s\": 0.5, \"amount\": 65536, \"rate\": 131072,"
	" \"too_short\": false, \"cpu_user_s\": 0.1, \"cpu_sys_s\": 0.3, \"max_latency_us\": 1500.5},\n"
	"        \"seeks\": {\"ran\": true, \"amount\": 12345, \"rate\": 24690, \"too_short\": true,"
	" \"cpu_user_s\": 0.2, \"cpu_sys_s\": 0.2469, \"max_latency_us\": 0},\n"
	"        \"seq_create\": {\"ran\": true, \"amount\": 2048, \"rate\": 4096, \"cpu_user_s\": 0,"
	" \"cpu_sys_s\": 1.024, \"max_latency_us\": 77}\n"
	"      }\n"
	"    }\n"
	"  ]\n"
	"}\n";

/*
 * A clyde-result/3 document: one run whose put_block, seeks and
 * seq_create carry a --profile (cut to what the report reads, and a
 * little of what it leaves), get_block one of a device it could not
 * measure, rewrite none. seq_create's machine was not readable: caused_s
 * and the outside share are null.
 */
#define GET_BLOCK_PROFILE "{\"caused_s\": 0.33, \"outside_fraction\": 0.0909, \"per_unit\": {\"unit\": \"GiB\"," \
	" \"clyde_s\": 0.3, \"caused_s\": 0.33}, \"device\": {\"state\": \"unknown\", \"why\": \"no /sys/block entry\"}}"
static const char json_doc3[] =
	"{\n"
	"  \"schema\": \"clyde-result/3\",\n"
	"  \"clyde_version\": \"0.1.0\",\n"
	"  \"runs\": [\n"
	"    {\n"
	"      \"name\": \"prof\",\n"
	"      \"io\": {\"size_mib\": 1024, \"chunk\": 8192, \"seeks\": 8000, \"seekers\": 5},\n"
	"      \"files\": {\"number\": 16, \"max_size\": 0, \"min_size\": 0, \"dirs\": 1, \"chunk\": 8192},\n"
	"      \"phases\": {\n"
	"        \"put_block\": {\"ran\": true, \"amount\": 1048576, \"rate\": 524288, \"cpu_user_s\": 0.04,"
	" \"cpu_sys_s\": 0.36, \"profile\": {\"window_s\": 2.001, \"sampler\": {\"cpu_s\": 0.002, \"wall_s\": 0.002,"
	" \"fraction\": 0.001}, \"groups\": {\"clyde_s\": 0.4, \"top\": [{\"name\": \"jbd2/loop0-8\","
	" \"group\": \"filesystem\", \"s\": 0.06}]}, \"caused_s\": 0.52, \"outside_s\": 0.12,"
	" \"outside_fraction\": 0.2308, \"per_unit\": {\"unit\": \"GiB\", \"clyde_s\": 0.4, \"caused_s\": 0.52},"
	" \"device\": {\"state\": \"measured\", \"why\": \"\", \"names\": [\"loop0\"], \"via\": \"mount source\","
	" \"shared\": \"\", \"read_ios\": 0, \"read_bytes\": 0, \"write_ios\": 2048, \"write_bytes\": 1095216660,"
	" \"busy_s\": 1.9, \"write_amplification\": 1.02, \"read_amplification\": null}}},\n"
	"        \"rewrite\": {\"ran\": true, \"amount\": 1048576, \"rate\": 262144},\n"
	"        \"get_block\": {\"ran\": true, \"amount\": 1048576, \"rate\": 1048576, \"profile\": "
	GET_BLOCK_PROFILE "},\n"
	"        \"seeks\": {\"ran\": true, \"amount\": 8000, \"rate\": 4000, \"profile\": {\"caused_s\": 0.12,"
	" \"outside_s\": 0.0216, \"outside_fraction\": 0.18, \"per_unit\": {\"unit\": \"1000 seeks\","
	" \"clyde_s\": 0.0123, \"caused_s\": 0.015}, \"device\": {\"state\": \"measured\", \"read_bytes\": 262144000,"
	" \"write_amplification\": 2.5, \"read_amplification\": 8}}},\n"
	"        \"seq_create\": {\"ran\": true, \"amount\": 16384, \"rate\": 8192, \"profile\": {\"machine\": null,"
	" \"machine_why\": \"/proc/stat: Permission denied\", \"groups\": null, \"caused_s\": null,"
	" \"outside_s\": null, \"outside_fraction\": null, \"per_unit\": {\"unit\": \"1000 files\","
	" \"clyde_s\": 0.05, \"caused_s\": null}, \"device\": {\"state\": \"measured\","
	" \"write_amplification\": 3.1, \"read_amplification\": null}}}\n"
	"      }\n"
	"    }\n"
	"  ]\n"
	"}\n";

/*
 * A clyde-result/4 document: one run of clyde -s 0 -n 0 --tree=source:0.5
 * (cut to what the report reads, and a little of what it leaves), whose
 * extract, walk and delete ran; delete moved no bytes.
 */
#define TREE_OBJECT "{\"shape\": \"source\", \"scale\": 0.5, \"seed\": 1, \"dirs\": 101, \"files\": 1000," \
	" \"max_depth\": 6, \"bytes\": 52428800, \"hash\": \"00ff00ff00ff00ff\", \"io\": \"uring\", \"depth\": 8}"
static const char json_doc4[] =
	"{\n"
	"  \"schema\": \"clyde-result/4\",\n"
	"  \"clyde_version\": \"0.1.0\",\n"
	"  \"runs\": [\n"
	"    {\n"
	"      \"name\": \"trees\",\n"
	"      \"io\": {\"size_mib\": 0, \"chunk\": 8192, \"seeks\": 8192, \"seekers\": 5},\n"
	"      \"files\": {\"number\": 0, \"max_size\": 0, \"min_size\": 0, \"dirs\": 1, \"chunk\": 8192},\n"
	"      \"tree\": " TREE_OBJECT ",\n"
	"      \"phases\": {\n"
	"        \"putc\": {\"ran\": false},\n"
	"        \"tree_extract\": {\"ran\": true, \"elapsed_s\": 2, \"amount\": 1000, \"rate\": 500,"
	" \"cpu_user_s\": 0.1, \"cpu_sys_s\": 0.5, \"dead_s\": 1.9, \"max_latency_us\": 9000,"
	" \"tree\": {\"files\": 1000, \"dirs\": 100, \"entries\": 0, \"bytes\": 52428800, \"mib_per_s\": 25,"
	" \"ops\": {\"create\": {\"via_ring\": 1000, \"latency_us\": {\"count\": 1000, \"max\": 9000}}}}},\n"
	"        \"tree_walk\": {\"ran\": true, \"elapsed_s\": 0.011, \"amount\": 1100, \"rate\": 100000,"
	" \"cpu_user_s\": 0.001, \"cpu_sys_s\": 0.01, \"dead_s\": 0.01, \"max_latency_us\": 40,"
	" \"tree\": {\"files\": 1000, \"dirs\": 100, \"entries\": 1100, \"bytes\": 52428800, \"mib_per_s\": 4545.45}},\n"
	"        \"tree_delete\": {\"ran\": true, \"elapsed_s\": 4, \"amount\": 2000, \"rate\": 500,"
	" \"cpu_user_s\": 0, \"cpu_sys_s\": 1, \"dead_s\": 4, \"max_latency_us\": 30000,"
	" \"tree\": {\"files\": 2000, \"dirs\": 200, \"entries\": 0, \"bytes\": 0, \"mib_per_s\": 0}}\n"
	"      }\n"
	"    }\n"
	"  ]\n"
	"}\n";

/* Reads text as one input named "t"; messages go to a buffer that msgs (may be NULL) receives. */
static int read_text(struct report_set *s, const char *text, size_t len, char **msgs)
{
	char *buf = NULL;
	size_t blen = 0;
	FILE *errs = open_memstream(&buf, &blen);
	int ret = report_read_buffer(s, text, len, "t", errs);

	fclose(errs);
	if (msgs)
		*msgs = buf;
	else
		free(buf);
	return ret;
}

static int read_str(struct report_set *s, const char *text)
{
	return read_text(s, text, strlen(text), NULL);
}

static const struct report_run *read_one(struct report_set *s, const char *text)
{
	report_set_free(s);
	CHECK(read_str(s, text) == 0, "read");
	CHECK(s->nruns == 1 && s->errors == 0, "one run, no error: %zu runs, %u errors", s->nruns, s->errors);
	return s->nruns ? &s->runs[0] : NULL;
}

static void test_bonnie_198(struct report_set *s)
{
	const struct report_run *r = read_one(s, line_ext4);

	if (!r)
		return;
	CHECK_STR(r->format, "bonnie-1.98");
	CHECK_STR(r->version, "2.00a");
	CHECK_STR(r->name, "ext4");
	CHECK_STR(r->key, "ext4 -s 4G::8192:5 -n 64");
	CHECK(!r->seeks_timed, "bonnie++'s seek count is fixed");
	CHECK(r->has[PH_PUTC][RM_RATE] && r->v[PH_PUTC][RM_RATE] == 595, "putc");
	/* (99 / 100) / 595 KiB/s * 1024 KiB/MiB */
	CHECK_NEAR(r->v[PH_PUTC][RM_CPU], 0.99 / 595 * 1024, 1e-12);
	CHECK_NEAR(r->v[PH_SEEKS][RM_CPU], 0.35 / 5411 * 1000, 1e-12);
	CHECK_NEAR(r->v[PH_SEQ_CREATE][RM_CPU], 0.98 / 58625 * 1000, 1e-12);
	CHECK(r->v[PH_PUTC][RM_LATENCY] == 16824 && r->v[PH_GET_BLOCK][RM_LATENCY] == 878, "latency");
	CHECK(r->hidden[PH_SEQ_STAT] && !r->has[PH_SEQ_STAT][RM_RATE] && !r->has[PH_SEQ_STAT][RM_CPU],
	      "+++++ is hidden, without a value");
	CHECK(r->has[PH_SEQ_STAT][RM_LATENCY] && r->v[PH_SEQ_STAT][RM_LATENCY] == 257,
	      "a hidden phase keeps its latency");
	CHECK(r->line == 1 && !strcmp(r->source, "t"), "source and line");

	r = read_one(s, line_label);
	if (r) {
		/* bonnie++ 2.00's shift: the 4 directories sit in file_chunk_size */
		CHECK_STR(r->key, "label -s 1G::8192:5 -c 2 -n 4:65536:1024:4");
		CHECK(r->concurrency == 2, "concurrency %u", r->concurrency);
		CHECK_STR(r->dirs, "4");
		CHECK_STR(r->file_chunk, "");
	}
	r = read_one(s, line_default);
	if (r) {
		CHECK(r->v[PH_PUT_BLOCK][RM_LATENCY] == 491000 && r->v[PH_REWRITE][RM_LATENCY] == 1007000,
		      "ms latencies in us");
		CHECK(r->v[PH_SEEKS][RM_RATE] == 621.9, "seeks below 1000 keep their decimal");
		CHECK_STR(r->key, "default -s 48208M::8192:5 -n 16");
	}
}

static void test_clyde_csv(struct report_set *s)
{
	const struct report_run *r = read_one(s, line_clyde);

	if (!r)
		return;
	CHECK_STR(r->format, "clyde-csv");
	CHECK_STR(r->version, "0.1.0");
	CHECK(r->seeks_timed, "clyde's seek count may be timed");
	CHECK_STR(r->seeks, "219154");
	CHECK_STR(r->key, "tmpfs-clyde -s 64M::*:5 -n 1");
	CHECK(!r->has[PH_PUTC][RM_RATE] && !r->hidden[PH_PUTC], "putc not run");
	CHECK(r->v[PH_SEEKS][RM_LATENCY] == 106000, "106ms");
	CHECK_NEAR(r->v[PH_PUT_BLOCK][RM_CPU], 0.51 / 992936 * 1024, 1e-15);
}

static void test_bonnie_197_103(struct report_set *s)
{
	const struct report_run *r = read_one(s, line_197);

	if (r) {
		CHECK_STR(r->format, "bonnie-1.97");
		CHECK_STR(r->key, "base -s 4G -n 16");
		CHECK(r->v[PH_PUT_BLOCK][RM_LATENCY] == 100000 && r->v[PH_RAN_DEL][RM_LATENCY] == 800, "latency");
		CHECK(r->v[PH_SEEKS][RM_RATE] == 400 && r->v[PH_RAN_DEL][RM_RATE] == 29000, "rates");
		CHECK_NEAR(r->v[PH_PUT_BLOCK][RM_CPU], 0.10 / 100000 * 1024, 1e-15);
	}
	r = read_one(s, line_196);
	if (r) {
		CHECK_STR(r->key, "old196 -s 2G:16k -n 16");
		CHECK(!r->has[PH_PUTC][RM_LATENCY] && r->v[PH_REWRITE][RM_LATENCY] == 190000, "empty latency");
	}
	r = read_one(s, line_103);
	if (r) {
		CHECK_STR(r->format, "bonnie-1.03");
		CHECK_STR(r->version, "");
		CHECK_STR(r->key, "new103 -s 4G -n 16");
		CHECK(r->concurrency == 1, "1.03 has no concurrency: 1");
		CHECK(r->v[PH_SEEKS][RM_RATE] == 800 && r->v[PH_RAN_DEL][RM_RATE] == 58000, "rates");
		CHECK(!r->has[PH_PUTC][RM_LATENCY], "1.03 has no latency");
		CHECK_NEAR(r->v[PH_RAN_DEL][RM_CPU], 0.40 / 58000 * 1000, 1e-15);
	}
	r = read_one(s, line_103_packed);
	if (r) {
		CHECK_STR(r->key, "packed -s 300M:32k -n 16:10240:1024:4");
		CHECK_STR(r->chunk, "32k");
		CHECK_STR(r->max_size, "10240");
		CHECK_STR(r->min_size, "1024");
		CHECK_STR(r->dirs, "4");
	}
	r = read_one(s, line_103_links);
	if (r) {
		CHECK_STR(r->key, "links103 -n 16:link");
		CHECK(r->hidden[PH_SEQ_CREATE] && !r->has[PH_PUTC][RM_RATE], "links");
	}
	r = read_one(s, "zeromin,1G,480,97,90000,12,40000,9,590,96,150000,10,380.2,4,8:4096:0,"
		     "+++++,+++,+++++,+++,+++++,+++,+++++,+++,+++++,+++,+++++,+++");
	if (r)
		CHECK_STR(r->key, "zeromin -s 1G -n 8:4096");
}

/*
 * PH_TEST, empty in clyde (no test program filled it), is never read: a
 * document that names a phase as the empty row is named ("-") has it
 * ignored, as any name of no phase is.
 */
static void test_json_empty_slot(struct report_set *s)
{
	static const char from[] = "\"putc\": {\"ran\": false}";
	static const char to[] = "\"-\": {\"ran\": true, \"amount\": 8, \"rate\": 7,"
				 " \"cpu_user_s\": 0, \"cpu_sys_s\": 1}";
	const char *at = strstr(json_doc, from);
	char doc[sizeof(json_doc) + sizeof(to)];
	const struct report_run *r;

	CHECK(at && phase_get(PH_TEST)->kind == KIND_NONE, "the empty slot");
	if (!at)
		return;
	snprintf(doc, sizeof(doc), "%.*s%s%s", (int)(at - json_doc), json_doc, to,
		 at + strlen(from));
	r = read_one(s, doc);
	for (int m = 0; r && m < RM_ALL; m++)
		CHECK(!r->has[PH_TEST][m], "the empty slot's measure %d read", m);
	CHECK(r && r->has[PH_PUT_BLOCK][RM_RATE], "the rest read");
}

static void test_json(struct report_set *s)
{
	const struct report_run *r = read_one(s, json_doc);
	char *v1;

	if (r) {
		CHECK_STR(r->format, "clyde-json");
		CHECK_STR(r->version, "0.1.0");
		CHECK_STR(r->name, "caf\xc3\xa9 \xf0\x9f\x98\x80");
		CHECK_STR(r->key, "caf\xc3\xa9 \xf0\x9f\x98\x80 -s 64M:16k:*:5 -n 2:link");
		CHECK(r->line == 5, "a JSON run's line is its '{': %u", r->line);
		CHECK(!r->has[PH_PUTC][RM_RATE], "ran: false");
		CHECK(r->v[PH_PUT_BLOCK][RM_RATE] == 131072, "rate");
		/* (0.1 + 0.3) s over 65536 KiB = 64 MiB */
		CHECK_NEAR(r->v[PH_PUT_BLOCK][RM_CPU], 0.4 / 64, 1e-15);
		CHECK(r->v[PH_PUT_BLOCK][RM_LATENCY] == 1500.5, "max_latency_us");
		/* too_short: JSON carries the measured figure, as --exact prints it */
		CHECK(!r->hidden[PH_SEEKS] && r->v[PH_SEEKS][RM_RATE] == 24690, "short phase kept");
		CHECK_NEAR(r->v[PH_SEEKS][RM_CPU], 0.4469 / 12345 * 1000, 1e-15);
		CHECK(!r->has[PH_SEEKS][RM_LATENCY], "a latency of 0 is none, as in the CSV");
		CHECK_NEAR(r->v[PH_SEQ_CREATE][RM_CPU], 1.024 / 2048 * 1000, 1e-15);
	}
	/* clyde-result/1 has no counts: the seek count is part of the key */
	v1 = strdup(json_doc);
	memcpy(strstr(v1, "result/2"), "result/1", 8);
	memcpy(strstr(v1, "\"counts\""), "\"xounts\"", 8);
	r = read_one(s, v1);
	if (r)
		CHECK_STR(r->key, "caf\xc3\xa9 \xf0\x9f\x98\x80 -s 64M:16k:12345:5 -n 2:link");
	free(v1);
}

static void test_mixed_stream(struct report_set *s)
{
	char *text = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&text, &len);

	fprintf(m, "format_version,bonnie_version,name\nVersion 2.00a text\n%s\n\n%s%s\r\n"
		"name,file_size,putc\n%s\n", line_ext4, json_doc, line_197, line_103);
	fclose(m);
	report_set_free(s);
	CHECK(read_str(s, text) == 0, "read");
	CHECK(s->nruns == 4 && s->errors == 0, "%zu runs, %u errors", s->nruns, s->errors);
	CHECK(s->text_lines == 1, "one text line: %u", s->text_lines);
	if (s->nruns == 4) {
		CHECK(s->runs[0].line == 3 && s->runs[1].line == 9, "lines %u %u", s->runs[0].line, s->runs[1].line);
		CHECK(s->runs[2].line == 24 && s->runs[3].line == 26, "lines %u %u", s->runs[2].line, s->runs[3].line);
		CHECK_STR(s->runs[2].format, "bonnie-1.97");
	}
	free(text);
}

/* Each malformed text: how many runs and errors it leaves, and a message that names the line. */
static void expect_read(struct report_set *s, const char *what, const char *text, size_t len,
			size_t runs, unsigned errors, const char *message)
{
	char *msgs = NULL;

	report_set_free(s);
	CHECK(read_text(s, text, len, &msgs) == 0, "%s: read", what);
	CHECK(s->nruns == runs && s->errors == errors, "%s: %zu runs, %u errors; want %zu, %u",
	      what, s->nruns, s->errors, runs, errors);
	if (message)
		CHECK(msgs && strstr(msgs, message), "%s: messages '%s' lack '%s'", what, msgs ? msgs : "", message);
	free(msgs);
}

/* expect_read of a string literal, without its terminating NUL */
#define EXPECT_TEXT(s, what, text, runs, errors, message) \
	expect_read(s, what, text, sizeof(text) - 1, runs, errors, message)

static void test_malformed(struct report_set *s)
{
	char *long_line, *bad, *binary;
	size_t n = 1 << 20;

	EXPECT_TEXT(s, "empty", "", 0, 0, NULL);
	EXPECT_TEXT(s, "blank lines", "\n\n  \r\n\t\n", 0, 0, NULL);
	expect_read(s, "truncated", line_ext4, 100, 0, 1, "t:1: a format 1.98 line with 27 fields, not 50");
	EXPECT_TEXT(s, "wrong count", "x\na,b,c\n", 0, 1, "t:2: not a clyde or bonnie++ CSV line (3 fields");
	EXPECT_TEXT(s, "garbage", "%$#@!,,garbage;;", 0, 1, "t:1: not a clyde");
	bad = strdup(line_ext4);
	memcpy(bad, "1.97,1.97", 9);
	expect_read(s, "1.97 as 1.98", bad, strlen(bad), 0, 1, "a format 1.97 line with 50 fields, not 48");
	free(bad);
	bad = strdup(line_ext4);
	memcpy(strstr(bad, ",420292,"), ",42x292,", 8);
	expect_read(s, "a rate", bad, strlen(bad), 0, 1, "field 12 (put_block) is not a rate");
	free(bad);
	bad = strdup(line_ext4);
	memcpy(strstr(bad, ",77,"), ",-7,", 4);
	expect_read(s, "a CPU%", bad, strlen(bad), 0, 1, "field 13 (put_block_cpu) is not a CPU%");
	free(bad);
	bad = strdup(line_ext4);
	memcpy(strstr(bad, ",878us,"), ",878xs,", 7);
	expect_read(s, "a latency", bad, strlen(bad), 0, 1, "field 43 (get_block_latency) is not a latency");
	free(bad);
	EXPECT_TEXT(s, "inf", "x,inf,nan,1e9,0x10,,,,,,,,,,,,,,,,,,,,,,", 0, 1, "field 3 (putc) is not a rate");

	long_line = malloc(n + 1);
	for (size_t i = 0; i < n; i++)
		long_line[i] = i % 2 ? ',' : '7';
	long_line[n] = '\0';
	expect_read(s, "very long line", long_line, n, 0, 1, "(524289 fields, not 50, 48 or 27)");
	/* a name of almost 1 MiB in a 1.03 line: 26 commas */
	memset(long_line, 'n', n);
	memset(long_line + n - 26, ',', 26);
	expect_read(s, "very long name", long_line, n, 0, 1, "the name is longer than 127 bytes");
	free(long_line);

	binary = malloc(4096);
	for (int i = 0; i < 4096; i++)
		binary[i] = (char)((i * 2654435761u) >> 13);
	report_set_free(s);
	CHECK(read_text(s, binary, 4096, NULL) == 0 && s->nruns == 0 && s->errors > 0, "binary: %u errors", s->errors);
	free(binary);

	expect_read(s, "JSON cut", json_doc, 200, 0, 1, "t:1: JSON document: the input ends inside it");
	EXPECT_TEXT(s, "JSON schema", "{\"schema\": \"other/1\", \"runs\": []}", 0, 1, "schema is not clyde-result/1 to /15");
	/* after a broken document, reading resumes at the next line that starts with '{' */
	EXPECT_TEXT(s, "JSON not JSON", "{nope}\n1.97,x\n{\"schema\":1}", 0, 2,
		    "t:1: JSON document: an object member without a name (line 1): skipped\n"
		    "t:3: a JSON document whose schema is not clyde-result/1 to /15: skipped\n");
	EXPECT_TEXT(s, "JSON deep", "{\"a\":[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]}", 0, 1,
		    "JSON document: nested too deep");
	EXPECT_TEXT(s, "JSON huge number", "{\"schema\": 1e999}", 0, 1, "a number out of range");
	bad = strdup(json_doc);
	memcpy(strstr(bad, "\"rate\": 131072"), "\"rate\": \"fast\"", 14);
	expect_read(s, "JSON bad rate", bad, strlen(bad), 0, 1, "t:13: phase put_block has no rate");
	free(bad);
	bad = strdup(json_doc);
	memcpy(strstr(bad, "caf\\u00e9"), "caf\\u0007", 9);
	expect_read(s, "JSON control name", bad, strlen(bad), 0, 1, "t:5: run: no name, or one that is not text");
	free(bad);
	/* every prefix of a document and of a line: no crash, never a run from a cut line */
	for (size_t i = 0; i < sizeof(json_doc) - 2; i++) {
		report_set_free(s);
		read_text(s, json_doc, i, NULL);
		CHECK(s->nruns == 0 && s->errors == (i > 0), "JSON prefix %zu: %zu runs %u errors", i, s->nruns, s->errors);
	}
	for (size_t i = 0; i < sizeof(line_197) - 1; i++) {
		report_set_free(s);
		read_text(s, line_197, i, NULL);
		/* cut just after its last comma, the line reads as one with an empty last latency */
		CHECK(s->nruns == (i == (size_t)(strrchr(line_197, ',') - line_197) + 1),
		      "CSV prefix %zu: %zu runs", i, s->nruns);
	}
}

/* doc with its first "from" replaced by "to" (the same length or not). */
static char *doc_with(const char *doc, const char *from, const char *to)
{
	const char *at = strstr(doc, from);
	size_t head, n;
	char *out;

	if (!at)
		return NULL;
	head = (size_t)(at - doc);
	n = strlen(doc) - strlen(from) + strlen(to);
	out = malloc(n + 1);
	if (!out)
		return NULL;
	memcpy(out, doc, head);
	strcpy(out + head, to);
	strcat(out, at + strlen(from));
	return out;
}

static char *doc3_with(const char *from, const char *to)
{
	return doc_with(json_doc3, from, to);
}

static void test_json_profile(struct report_set *s)
{
	const struct report_run *r = read_one(s, json_doc3);
	const struct report_profile *p;
	char *bad;

	if (r) {
		CHECK(r->has_profile, "a /3 run with profiles");
		CHECK_STR(r->key, "prof -s 1G::8000:5 -n 16");
		p = &r->prof[PH_PUT_BLOCK];
		CHECK(p->has, "put_block profiled");
		CHECK_STR(p->unit, "GiB");
		CHECK(p->clyde_per_unit == 0.4 && p->caused_per_unit == 0.52, "per GiB: %g %g",
		      p->clyde_per_unit, p->caused_per_unit);
		CHECK(p->outside_fraction == 0.2308 && p->write_amp == 1.02, "outside %g, WA %g",
		      p->outside_fraction, p->write_amp);
		CHECK(isnan(p->read_amp), "read_amplification null: not known, %g", p->read_amp);
		/* the profile leaves the phase's own figures as they were */
		CHECK_NEAR(r->v[PH_PUT_BLOCK][RM_CPU], 0.4 / 1024, 1e-15);
		CHECK(!r->prof[PH_REWRITE].has && r->has[PH_REWRITE][RM_RATE], "rewrite: no profile");
		p = &r->prof[PH_GET_BLOCK];
		CHECK(p->has && p->clyde_per_unit == 0.3 && p->outside_fraction == 0.0909, "get_block");
		CHECK(isnan(p->write_amp) && isnan(p->read_amp), "a device not measured: amplification not known");
		p = &r->prof[PH_SEEKS];
		CHECK_STR(p->unit, "1000 seeks");
		CHECK(p->clyde_per_unit == 0.0123 && p->caused_per_unit == 0.015 && p->outside_fraction == 0.18 &&
		      p->write_amp == 2.5 && p->read_amp == 8, "seeks");
		p = &r->prof[PH_SEQ_CREATE];
		CHECK_STR(p->unit, "1000 files");
		CHECK(p->has && p->clyde_per_unit == 0.05 && p->write_amp == 3.1, "seq_create");
		CHECK(isnan(p->caused_per_unit) && isnan(p->outside_fraction),
		      "caused_s null: not known, never 0: %g %g", p->caused_per_unit, p->outside_fraction);
		CHECK(report_prof_value(p, RP_CLYDE) == 0.05 && isnan(report_prof_value(p, RP_CAUSED)), "values");
	}
	/* a /2 document has no profile, and reads as before */
	r = read_one(s, json_doc);
	if (r) {
		CHECK(!r->has_profile, "/2: no profile");
		for (int ph = 0; ph < PH_COUNT; ph++)
			CHECK(!r->prof[ph].has, "/2: phase %d has no profile", ph);
	}
	/* "profile": null is no profile; a profile without what the report reads is one, all unknown */
	bad = doc3_with(GET_BLOCK_PROFILE, "null");
	r = bad ? read_one(s, bad) : NULL;
	CHECK(r && !r->prof[PH_GET_BLOCK].has && r->prof[PH_PUT_BLOCK].has, "profile null");
	free(bad);
	bad = doc3_with(GET_BLOCK_PROFILE, "{\"caused_s\": 0.33, \"machine\": {\"cpus\": 4}}");
	r = bad ? read_one(s, bad) : NULL;
	CHECK(r && r->prof[PH_GET_BLOCK].has && isnan(r->prof[PH_GET_BLOCK].clyde_per_unit) &&
	      isnan(r->prof[PH_GET_BLOCK].outside_fraction) && !r->prof[PH_GET_BLOCK].unit[0], "empty profile");
	free(bad);

	/* a bad field the report reads rejects the run, as every other field does */
	bad = doc3_with("\"clyde_s\": 0.4, \"caused_s\": 0.52", "\"clyde_s\": \"0.4\", \"caused_s\": 0.52");
	expect_read(s, "profile: a string for a number", bad, strlen(bad), 0, 1,
		    "t:10: phase put_block has a profile.per_unit CPU time that is not a number of seconds: skipped");
	free(bad);
	bad = doc3_with("\"write_amplification\": 1.02", "\"write_amplification\": -1.02");
	expect_read(s, "profile: a negative write amplification", bad, strlen(bad), 0, 1,
		    "phase put_block has a profile.device amplification that is not a ratio");
	free(bad);
	bad = doc3_with("\"read_amplification\": 8", "\"read_amplification\": true");
	expect_read(s, "profile: a boolean read amplification", bad, strlen(bad), 0, 1,
		    "phase seeks has a profile.device amplification that is not a ratio");
	free(bad);
	bad = doc3_with("\"outside_fraction\": 0.2308", "\"outside_fraction\": 23.08");
	expect_read(s, "profile: a percentage for a fraction", bad, strlen(bad), 0, 1,
		    "phase put_block has a profile.outside_fraction that is not a fraction");
	free(bad);
	bad = doc3_with("\"unit\": \"1000 seeks\"", "\"unit\": \"1000 files\"");
	expect_read(s, "profile: another phase's unit", bad, strlen(bad), 0, 1,
		    "phase seeks has a profile.per_unit without this phase's unit");
	free(bad);
	bad = doc3_with("\"unit\": \"GiB\"", "\"unit\": \"MiB\"");
	expect_read(s, "profile: per MiB", bad, strlen(bad), 0, 1,
		    "phase put_block has a profile.per_unit without this phase's unit");
	free(bad);
	bad = doc3_with("\"state\": \"unknown\"", "\"state\": \"\\u001b[31m\"");
	expect_read(s, "profile: a device state of escapes", bad, strlen(bad), 0, 1,
		    "phase get_block has a profile.device.state that is not measured, no block device or unknown");
	free(bad);
	bad = doc3_with("\"device\": {\"state\": \"unknown\"", "\"device\": {\"stat\": \"unknown\"");
	expect_read(s, "profile: a device without a state", bad, strlen(bad), 0, 1,
		    "phase get_block has a profile.device without a state");
	free(bad);
	bad = doc3_with(GET_BLOCK_PROFILE, "[" GET_BLOCK_PROFILE "]");
	expect_read(s, "profile: an array", bad, strlen(bad), 0, 1, "phase get_block has a profile that is not an object");
	free(bad);
	/* a bad profile costs its own run only */
	bad = doc3_with("\"write_amplification\": 1.02", "\"write_amplification\": -1");
	if (bad) {
		size_t n = strlen(bad) + sizeof(json_doc3);
		char *two = malloc(n);

		snprintf(two, n, "%s%s", bad, json_doc);
		expect_read(s, "profile: the next document", two, strlen(two), 1, 1, NULL);
		free(two);
	}
	free(bad);
	/* every prefix of the /3 document: no crash, never a run */
	for (size_t i = 0; i < sizeof(json_doc3) - 2; i++) {
		report_set_free(s);
		read_text(s, json_doc3, i, NULL);
		CHECK(s->nruns == 0 && s->errors == (i > 0), "/3 prefix %zu: %zu runs %u errors", i, s->nruns, s->errors);
	}
}

/* Medians over a configuration's profiled runs: unknown figures left out, unprofiled runs not counted. */
static void test_json_tree(struct report_set *s)
{
	static const struct {
		const char *what, *from, *to, *message;
	} bad[] = {
		{ "tree phases without a tree", TREE_OBJECT, "null",
		  "t:12: phase tree_extract ran, but the run has no \"tree\": skipped" },
		{ "tree: a string for the scale", "\"scale\": 0.5", "\"scale\": \"0.5\"",
		  "t:5: run: a \"tree\" that is not an object with shape, scale, seed, files, dirs and bytes: skipped" },
		{ "tree: a shape with a blank", "\"shape\": \"source\"", "\"shape\": \"sou rce\"",
		  "a \"tree\" that is not an object" },
		{ "tree: a negative dead time", "\"dead_s\": 4", "\"dead_s\": -4",
		  "t:14: phase tree_delete has a dead_s that is not a number of seconds: skipped" },
		{ "tree: a null mib_per_s", "\"mib_per_s\": 25", "\"mib_per_s\": null",
		  "has a tree that is not an object, or a mib_per_s" },
	};
	const struct report_run *r = read_one(s, json_doc4);
	const struct report_config *c;
	char *doc, *two;

	if (r) {
		CHECK_STR(r->key, "trees --tree=source:0.5");
		CHECK_STR(r->tree, "source:0.5");
		CHECK_STR(r->tree_seed, "1");
		CHECK(r->tree_files == 1000 && r->tree_dirs == 101 && r->tree_bytes == 52428800, "the tree");
		CHECK(!r->has[PH_PUTC][RM_RATE] && !r->has[PH_SEQ_CREATE][RM_RATE], "no bonnie++ phase");
		CHECK(r->has[PH_TREE_EXTRACT][RM_RATE] && r->v[PH_TREE_EXTRACT][RM_RATE] == 500, "extract rate");
		/* (0.1 + 0.5) s over 1000 files */
		CHECK_NEAR(r->v[PH_TREE_EXTRACT][RM_CPU], 0.6, 1e-12);
		CHECK(r->v[PH_TREE_EXTRACT][RM_LATENCY] == 9000, "extract latency");
		CHECK(r->has[PH_TREE_EXTRACT][RM_DEAD] && r->v[PH_TREE_EXTRACT][RM_DEAD] == 1.9, "dead_s");
		CHECK(r->has[PH_TREE_EXTRACT][RM_MIBS] && r->v[PH_TREE_EXTRACT][RM_MIBS] == 25, "mib_per_s");
		CHECK(r->v[PH_TREE_WALK][RM_RATE] == 100000 && r->v[PH_TREE_WALK][RM_MIBS] == 4545.45, "walk");
		CHECK_NEAR(r->v[PH_TREE_WALK][RM_CPU], 0.011 / 1100 * 1000, 1e-15);
		CHECK(r->has[PH_TREE_DELETE][RM_DEAD] && r->v[PH_TREE_DELETE][RM_DEAD] == 4, "delete's dead time");
		CHECK(!r->has[PH_TREE_DELETE][RM_MIBS], "delete moves no bytes: no MiB/s");
		CHECK(!r->has[PH_TREE_COPY][RM_RATE] && !r->has[PH_TREE_READ][RM_DEAD], "copy and read did not run");
	}
	/* a tree's seed other than 1 is in the key; a null tree is none */
	doc = doc_with(json_doc4, "\"seed\": 1,", "\"seed\": 1234567890123,");
	r = doc ? read_one(s, doc) : NULL;
	if (r)
		CHECK_STR(r->key, "trees --tree=source:0.5 --tree-seed=1234567890123");
	free(doc);
	doc = doc_with(json_doc4, "\"tree_extract\"", "\"tree_extract_x\"");
	two = doc ? doc_with(doc, "\"tree_walk\"", "\"tree_walk_x\"") : NULL;
	free(doc);
	doc = two ? doc_with(two, "\"tree_delete\"", "\"tree_delete_x\"") : NULL;
	free(two);
	two = doc ? doc_with(doc, TREE_OBJECT, "null") : NULL;
	r = two ? read_one(s, two) : NULL;
	if (r)
		CHECK(!strcmp(r->key, "trees") && !r->tree[0], "tree null: no tree, key '%s'", r->key);
	free(two);
	free(doc);
	/* a bad tree, or a tree phase without its tree, rejects the run */
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		doc = doc_with(json_doc4, bad[i].from, bad[i].to);
		CHECK(doc != NULL, "%s", bad[i].what);
		if (doc)
			expect_read(s, bad[i].what, doc, strlen(doc), 0, 1, bad[i].message);
		free(doc);
	}

	/* CSV stops at bonnie++'s twelve phases */
	r = read_one(s, line_clyde);
	for (int ph = 0; r && ph < PH_COUNT; ph++)
		for (int m = 0; m < RM_ALL; m++)
			CHECK(phase_get((enum phase_id)ph)->kind == KIND_BONNIE || !r->has[ph][m],
			      "CSV: phase %d measure %d", ph, m);

	/* two runs on one tree and one on another: two configurations; dead time and MiB/s compared */
	doc = doc_with(json_doc4, "\"dead_s\": 1.9", "\"dead_s\": 0.95");
	two = doc ? doc_with(doc, "\"mib_per_s\": 25", "\"mib_per_s\": 50") : NULL;
	free(doc);
	doc = doc_with(json_doc4, "\"scale\": 0.5", "\"scale\": 2");
	report_set_free(s);
	CHECK(two && doc && read_str(s, json_doc4) == 0 && read_str(s, two) == 0 && read_str(s, doc) == 0, "read");
	free(two);
	free(doc);
	CHECK(report_group(s) == 0 && s->nconfigs == 2, "%zu configurations", s->nconfigs);
	if (s->nconfigs == 2) {
		CHECK_STR(s->configs[1].key, "trees --tree=source:2");
		report_compare(s, 1);
		c = &s->configs[0];
		CHECK(c->runs == 2 && c->stat[PH_TREE_EXTRACT][RM_DEAD].n == 2, "two runs");
		CHECK_NEAR(c->stat[PH_TREE_EXTRACT][RM_DEAD].median, 1.425, 1e-12);
		CHECK_NEAR(c->stat[PH_TREE_EXTRACT][RM_MIBS].median, 37.5, 1e-12);
		/* less dead time and more MiB/s are better: 1.9 / 1.425 and 37.5 / 25 */
		CHECK_NEAR(c->ratio[PH_TREE_EXTRACT][RM_DEAD], 1.9 / 1.425, 1e-12);
		CHECK_NEAR(c->ratio[PH_TREE_EXTRACT][RM_MIBS], 1.5, 1e-12);
		CHECK(c->untestable[PH_TREE_EXTRACT][RM_DEAD] && c->untestable[PH_TREE_EXTRACT][RM_MIBS],
		      "one run on the baseline's side: cannot tell");
		CHECK(!c->has_ratio[PH_TREE_DELETE][RM_MIBS] && c->has_ratio[PH_TREE_DELETE][RM_DEAD], "delete");
		CHECK(c->geomean_n == 3 && c->geomean == 1, "rate ratios of the three tree phases: %u, %g",
		      c->geomean_n, c->geomean);
	}
	CHECK(report_higher_is_better(RM_MIBS) && !report_higher_is_better(RM_DEAD), "directions");
	CHECK(report_measure_applies(PH_TREE_WALK, RM_DEAD) && !report_measure_applies(PH_SEEKS, RM_MIBS) &&
	      report_measure_applies(PH_SEEKS, RM_LATENCY), "the tree phases' own measures");
}

static void test_profile_median(struct report_set *s)
{
	char *text = NULL, *b, *c, *out = NULL;
	size_t len = 0, olen = 0;
	FILE *m = open_memstream(&text, &len);
	double v = -1;

	/* three runs of "prof": the document, one with other figures, one without a profile */
	b = doc3_with("\"clyde_s\": 0.4, \"caused_s\": 0.52", "\"clyde_s\": 0.5, \"caused_s\": 0.6");
	c = doc3_with("\"schema\": \"clyde-result/3\"", "\"schema\": \"clyde-result/2\"");
	if (c)
		memcpy(strstr(c, "\"profile\": {\"window_s\""), "\"pxofile\"", 9);
	fprintf(m, "%s%s%s", json_doc3, b ? b : "", c ? c : "");
	fclose(m);
	free(b);
	free(c);
	report_set_free(s);
	CHECK(read_str(s, text) == 0 && s->nruns == 3 && s->errors == 0, "%zu runs, %u errors", s->nruns, s->errors);
	free(text);
	CHECK(report_group(s) == 0 && s->nconfigs == 1, "one configuration");
	if (s->nconfigs != 1 || s->nruns != 3)
		return;
	CHECK(!s->runs[2].prof[PH_PUT_BLOCK].has && s->runs[2].prof[PH_SEEKS].has, "third run: put_block unprofiled");
	CHECK(report_prof_runs(s, 0, PH_PUT_BLOCK) == 2 && report_prof_runs(s, 0, PH_SEEKS) == 3 &&
	      report_prof_runs(s, 0, PH_REWRITE) == 0, "profiled runs per phase");
	/* (0.4 + 0.5) / 2 and (0.52 + 0.6) / 2 */
	CHECK(report_prof_median(s, 0, PH_PUT_BLOCK, RP_CLYDE, &v) == 0, "median");
	CHECK_NEAR(v, 0.45, 1e-15);
	CHECK(report_prof_median(s, 0, PH_PUT_BLOCK, RP_CAUSED, &v) == 0, "median");
	CHECK_NEAR(v, 0.56, 1e-15);
	CHECK(report_prof_median(s, 0, PH_SEQ_CREATE, RP_CAUSED, &v) == -ENOENT, "null in every run: no median");
	CHECK(report_prof_median(s, 0, PH_REWRITE, RP_CLYDE, &v) == -ENOENT, "no profile: no median");
	CHECK(report_prof_median(s, 0, PH_SEEKS, RP_READ_AMP, &v) == 0 && v == 8, "read amplification");

	m = open_memstream(&out, &olen);
	CHECK(report_text(m, s) == 0, "text");
	fclose(m);
	CHECK(strstr(out, "\n[1] prof -s 1G::8000:5 -n 16: 3 of 3 runs profiled\n"
		      "  Phase         Clyde s  Caused s  per         Outside%  Write amp  Read amp  n\n") != NULL,
	      "cost block:\n%s", out);
	CHECK(strstr(out, "\n  Block write     0.450     0.560  GiB             23.1       1.02            2\n") != NULL,
	      "put_block: medians of two, no read amplification for a write:\n%s", out);
	CHECK(strstr(out, "\n  Block read      0.300     0.330  GiB              9.1          -         -  3\n") != NULL,
	      "get_block: a device not measured");
	CHECK(strstr(out, "\n  Random seeks   0.0123    0.0150  1000 seeks      18.0       2.50      8.00  3\n") != NULL,
	      "seeks");
	CHECK(strstr(out, "\n  Seq create     0.0500         -  1000 files         -       3.10            3\n") != NULL,
	      "seq_create: caused not known");
	CHECK(strstr(out, "CPU cost") && !strstr(strstr(out, "CPU cost"), "Rewrite"),
	      "no cost row for a phase nobody profiled");
	free(out);
}

static void test_message_limit(struct report_set *s)
{
	char text[64 * 4];
	char *msgs = NULL;

	for (int i = 0; i < 64; i++)
		memcpy(text + 4 * i, "a,b\n", 4);
	report_set_free(s);
	read_text(s, text, sizeof(text), &msgs);
	CHECK(s->errors == 64, "64 errors counted: %u", s->errors);
	CHECK(msgs && strstr(msgs, "t:20: ") && !strstr(msgs, "t:21: ") &&
	      strstr(msgs, "t: 44 more malformed lines not shown"), "messages: %s", msgs ? msgs : "");
	free(msgs);
}

static void test_incomplete_beta(void)
{
	CHECK_NEAR(report_incomplete_beta(1, 1, 0.3), 0.3, 1e-12);
	CHECK_NEAR(report_incomplete_beta(2, 1, 0.3), 0.09, 1e-12);		/* x^a */
	CHECK_NEAR(report_incomplete_beta(1, 3, 0.3), 1 - 0.7 * 0.7 * 0.7, 1e-12);	/* 1 - (1-x)^b */
	CHECK_NEAR(report_incomplete_beta(3, 3, 0.5), 0.5, 1e-12);		/* symmetry */
	/* I_x(a, n-a+1) = P(Binomial(n, x) >= a): n = 4, x = 0.4, a = 2: 1 - 0.6^4 - 4*0.4*0.6^3 */
	CHECK_NEAR(report_incomplete_beta(2, 3, 0.4), 0.5248, 1e-12);
	CHECK_NEAR(report_incomplete_beta(2, 3, 0.9), 1 - 0.1 * 0.1 * 0.1 * 0.1 - 4 * 0.9 * 0.001, 1e-12);
	CHECK(isnan(report_incomplete_beta(0, 1, 0.5)) && isnan(report_incomplete_beta(1, 1, 1.5)), "domain");
}

/*
 * Welch's test on rates near the double's top (a crafted history): the
 * standard error squared overflowed to inf and p came out NaN, which
 * compared neither below nor at the noise level, so the verdict fell
 * through to better or worse. The test is scale-free: rates 1e150 times
 * larger give the same p; a spread that is inf gives no p, within noise.
 */
static void test_welch_huge(void)
{
	struct report_stat a = { .n = 5, .mean = 1000, .sd = 50 };
	struct report_stat b = { .n = 5, .mean = 900, .sd = 60 };
	double small = report_welch_p(&a, &b), p, ratio;

	a.mean *= 1e157;
	a.sd *= 1e157;
	b.mean *= 1e157;
	b.sd *= 1e157;
	p = report_welch_p(&a, &b);
	CHECK(small > 0 && small < REPORT_NOISE_P && fabs(p - small) <= 1e-9 * small,
	      "rates 1e157 times larger: p %g, want %g", p, small);
	CHECK(report_verdict_of(&a, &b, RM_RATE, &ratio, &p) == RV_WORSE && p >= 0,
	      "huge rates: worse with p %g", p);
	b.sd = INFINITY;
	CHECK(report_verdict_of(&a, &b, RM_RATE, &ratio, &p) == RV_NOISE,
	      "an inf spread: no p (%g), within noise", p);
	b.sd = NAN;
	CHECK(report_verdict_of(&a, &b, RM_RATE, &ratio, &p) == RV_NOISE,
	      "a NaN spread: no p (%g), within noise", p);
}

static void test_t_distribution(void)
{
	/*
	 * Hand-worked: two-sided p = 1 - 2 * integral from 0 to t of the t
	 * density, by Simpson's rule with 200000 intervals in Python's math
	 * (no scipy): t=2, df=10: 0.0733880348; t=1, df=5: 0.3632174676;
	 * t=3.5, df=3.2: 0.0356526627. Closed forms: df=1 (Cauchy)
	 * p = 1 - 2 atan(t) / pi; df=2 p = 1 - t / sqrt(2 + t^2).
	 */
	CHECK_NEAR(report_t_two_sided_p(2.0, 10), 0.0733880348, 1e-9);
	CHECK_NEAR(report_t_two_sided_p(-2.0, 10), 0.0733880348, 1e-9);
	CHECK_NEAR(report_t_two_sided_p(1.0, 5), 0.3632174676, 1e-9);
	CHECK_NEAR(report_t_two_sided_p(3.5, 3.2), 0.0356526627, 1e-9);
	CHECK_NEAR(report_t_two_sided_p(1.0, 1), 0.5, 1e-12);
	CHECK_NEAR(report_t_two_sided_p(7.0, 1), 1 - 2 * atan(7.0) / M_PI, 1e-12);
	CHECK_NEAR(report_t_two_sided_p(5.0, 2), 1 - 5 / sqrt(27), 1e-12);
	CHECK_NEAR(report_t_two_sided_p(0, 4), 1, 1e-15);
	CHECK(report_t_two_sided_p(INFINITY, 4) == 0 && isnan(report_t_two_sided_p(1, 0)), "edges");
	CHECK(report_t_two_sided_p(50, 1000) < 1e-100, "far tail: %g", report_t_two_sided_p(50, 1000));
}

/* The history's verdicts (report_sets.c), on values whose answer is known. */
static void test_verdicts(void)
{
	double a[] = { 99.5, 99.7, 100, 100.3, 100.5 }, slow[5], fast[5];
	double noisy_a[] = { 95, 97.5, 100, 102.5, 105 }, noisy_b[] = { 93.1, 95.55, 98, 100.45, 102.9 };
	double two[] = { 90, 91 };
	struct report_stat sa, ss, sf, na, nb, st;
	double ratio, p;

	/* critical values of Student's t, two-sided, from the printed tables */
	CHECK_NEAR(report_t_two_sided_p(2.228138852, 10), 0.05, 1e-8);
	CHECK_NEAR(report_t_two_sided_p(2.570581836, 5), 0.05, 1e-8);
	CHECK_NEAR(report_t_two_sided_p(3.169272667, 10), 0.01, 1e-8);
	for (int i = 0; i < 5; i++) {
		slow[i] = a[i] * 0.9;
		fast[i] = a[i] * 1.2;
	}
	report_stat_fill(&sa, a, 5);
	report_stat_fill(&ss, slow, 5);
	report_stat_fill(&sf, fast, 5);
	report_stat_fill(&na, noisy_a, 5);
	report_stat_fill(&nb, noisy_b, 5);
	report_stat_fill(&st, two, 2);
	CHECK(report_verdict_of(&sa, &ss, RM_RATE, &ratio, &p) == RV_WORSE, "10%% slower: worse");
	CHECK_NEAR(ratio, 0.9, 1e-12);
	CHECK(p >= 0 && p < 1e-6, "p %g", p);
	CHECK(report_verdict_of(&sa, &sf, RM_RATE, &ratio, &p) == RV_BETTER, "20%% faster: better");
	CHECK(report_verdict_of(&na, &nb, RM_RATE, &ratio, &p) == RV_NOISE, "2%% in 5%% noise: p %g", p);
	CHECK_NEAR(ratio, 0.98, 1e-12);
	CHECK(report_verdict_of(&sa, &st, RM_RATE, &ratio, &p) == RV_TOO_FEW && p == -1, "2 runs: too few");
	/* CPU: lower is better, so more of it is worse */
	CHECK(report_verdict_of(&sa, &sf, RM_CPU, &ratio, &p) == RV_WORSE, "more CPU: worse");
	CHECK_STR(report_verdict_name(RV_NOISE), "within noise");
	CHECK(report_db_selection_ok("kernel=6.1,fs=ext4", &(const char *){ NULL }), "a selection");
	CHECK(!report_db_selection_ok("kernel", &(const char *){ NULL }) &&
	      !report_db_selection_ok("kernel=", &(const char *){ NULL }) &&
	      !report_db_selection_ok("a b=c", &(const char *){ NULL }) &&
	      !report_db_selection_ok("a=b,", &(const char *){ NULL }), "bad selections");
	{
		/* --match=params: the key less its run's name; a key that is not its name's is kept */
		struct report_point pt[4] = {
			{ .config = "ext4 -s 4G -n 16", .name = "ext4" },
			{ .config = "(no name) -s 1G", .name = "" },
			{ .config = "ext4x -s 4G", .name = "ext4" },
			{ .config = "xfs", .name = "xfs" },
		};
		struct report_points pts = { .p = pt, .n = 4, .cap = 4 };

		report_points_by_params(&pts);
		CHECK_STR(pt[0].config, "(any name) -s 4G -n 16");
		CHECK_STR(pt[1].config, "(any name) -s 1G");
		CHECK_STR(pt[2].config, "ext4x -s 4G");
		CHECK_STR(pt[3].config, "(any name)");
	}
}

static int cmp_sorted(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;

	return a < b ? -1 : a > b;
}

static struct report_stat stat_of(double *v, unsigned n)
{
	struct report_stat st;

	report_stat_fill(&st, v, n);
	return st;
}

/* n values: k of lo, then the rest hi (sorted when lo <= hi). */
static void two_values(double *v, unsigned n, unsigned k, double lo, double hi)
{
	for (unsigned i = 0; i < n; i++)
		v[i] = i < k ? lo : hi;
}

/*
 * Sets whose median and mean disagree: the verdict's direction, size and
 * noise are the mean's alone (its ratio and Welch's test of it), never
 * the median's direction with the mean's p.
 */
static void test_verdict_one_statistic(void)
{
	double a[40], b[40], t, se;
	struct report_stat sa, sb;
	double ratio, p;
	uint64_t x = 88172645463325252ull;

	/*
	 * Issue 40's bimodal set: A 7 runs at 100000 and 5 at 80000 (median
	 * 100000, mean 91666.67), B 12 at 99000. By hand: A's squares about
	 * its mean 7 * 8333.33^2 + 5 * 11666.67^2 = 1166666667, sd
	 * sqrt(1166666667 / 11) = 10298.6, t = 7333.33 / (10298.6 / sqrt(12))
	 * = 2.4667 with df 11 (B has no spread): B is 8% better, p 0.031 -
	 * where the medians said 1% worse with the same p.
	 */
	two_values(a, 12, 5, 80000, 100000);
	two_values(b, 12, 12, 99000, 99000);
	sa = stat_of(a, 12);
	sb = stat_of(b, 12);
	se = sqrt(1166666666.6666667 / 11 / 12);
	t = (99000 - 1100000 / 12.0) / se;
	CHECK(report_verdict_of(&sa, &sb, RM_RATE, &ratio, &p) == RV_BETTER, "bimodal: better, p %g",
	      p);
	CHECK_NEAR(ratio, 99000 / (1100000 / 12.0), 1e-12);
	CHECK_NEAR(p, report_t_two_sided_p(t, 11), 1e-12);
	CHECK(p > 0.030 && p < 0.032, "bimodal: p %g", p);
	/* the other way round, B's runs as the baseline: worse by the same statistic */
	CHECK(report_verdict_of(&sb, &sa, RM_RATE, &ratio, &p) == RV_WORSE,
	      "bimodal, reversed: worse");
	CHECK_NEAR(ratio, (1100000 / 12.0) / 99000, 1e-12);

	/*
	 * Skewed: A 28 runs at 100 and 12 at 200 (median 100, mean 130), B
	 * 40 runs at 109 and 111 (median and mean 110). The medians said B is
	 * 10% better; the means say it is 15% worse, and Welch: A's sd
	 * sqrt(84000 / 39), B's sqrt(40 / 39), t = 20 / sqrt((84000 + 40) /
	 * 39 / 40) = 2.7246, p about 0.01.
	 */
	two_values(a, 40, 28, 100, 200);
	for (int i = 0; i < 40; i++)
		b[i] = i < 20 ? 109 : 111;
	sa = stat_of(a, 40);
	sb = stat_of(b, 40);
	CHECK(sa.median == 100 && sb.median == 110, "skewed: the medians %g %g", sa.median,
	      sb.median);
	CHECK(report_verdict_of(&sa, &sb, RM_RATE, &ratio, &p) == RV_WORSE, "skewed: worse, p %g",
	      p);
	CHECK_NEAR(ratio, 110.0 / 130, 1e-12);
	CHECK(p > 0.005 && p < 0.015, "skewed: p %g", p);
	/* CPU per unit (lower is better): the same values as CPU make B the better */
	CHECK(report_verdict_of(&sa, &sb, RM_CPU, &ratio, &p) == RV_BETTER, "skewed CPU: better");
	CHECK_NEAR(ratio, 130.0 / 110, 1e-12);

	/*
	 * Unequal sizes: A 3 runs {90, 100, 140} (median 100, mean 110), B 9
	 * runs at 104: the ratio is 104 / 110, and the difference noise (t =
	 * 6 / (26.458 / sqrt(3)) = 0.393, df 2, p 0.73).
	 */
	a[0] = 90;
	a[1] = 100;
	a[2] = 140;
	two_values(b, 9, 9, 104, 104);
	sa = stat_of(a, 3);
	sb = stat_of(b, 9);
	CHECK(report_verdict_of(&sa, &sb, RM_RATE, &ratio, &p) == RV_NOISE,
	      "unequal sizes: noise, p %g", p);
	CHECK_NEAR(ratio, 104.0 / 110, 1e-12);
	CHECK_NEAR(p, report_t_two_sided_p(6 / sqrt(700.0 / 3), 2), 1e-12);

	/*
	 * Any sets: a verdict other than noise points the way the means do,
	 * and the ratio is theirs (random sets of 3 to 40 runs, a quarter of
	 * each side's runs from a second, slower mode).
	 */
	for (int round = 0; round < 2000; round++) {
		unsigned na, nb;
		enum report_verdict v;

		x = x * 6364136223846793005ull + 1442695040888963407ull;
		na = 3 + (unsigned)(x >> 59) % 38;
		nb = 3 + (unsigned)(x >> 40) % 38;
		for (unsigned i = 0; i < na + nb; i++) {
			double *dst = i < na ? &a[i] : &b[i - na];

			x = x * 6364136223846793005ull + 1442695040888963407ull;
			*dst = (i < na ? 1000 : 1030) + (double)(x >> 54) -
			       ((x >> 33) % 4 ? 0 : 600);
		}
		qsort(a, na, sizeof(double), cmp_sorted);
		qsort(b, nb, sizeof(double), cmp_sorted);
		sa = stat_of(a, na);
		sb = stat_of(b, nb);
		v = report_verdict_of(&sa, &sb, RM_RATE, &ratio, &p);
		if (fabs(ratio - sb.mean / sa.mean) > 1e-12 ||
		    (v == RV_BETTER && !(sb.mean > sa.mean)) ||
		    (v == RV_WORSE && !(sb.mean < sa.mean)) ||
		    (v != RV_NOISE) != (p < REPORT_NOISE_P)) {
			CHECK(false, "round %d: %u vs %u runs, means %g %g, medians %g %g: %s, "
			      "ratio %g, p %g", round, na, nb, sa.mean, sb.mean, sa.median,
			      sb.median, report_verdict_name(v), ratio, p);
			break;
		}
	}
}

static void test_stats(void)
{
	double odd[] = { 1, 3, 9 }, even[] = { 2, 4, 4, 4, 5, 5, 7, 9 };
	double a[] = { 100000, 110000, 120000 }, b[] = { 200000, 220000, 240000 };
	double c[] = { 500, 510, 520 }, d[] = { 505, 515, 525 }, same[] = { 7, 7 }, other[] = { 8, 8 };
	struct report_stat st, sa, sb, sc, sd, s1;
	double r;

	CHECK(report_median(odd, 3) == 3 && report_median(even, 8) == 4.5 && report_median(odd, 0) == 0, "median");
	st = stat_of(even, 8);
	/* mean 5; squares about it sum to 32; sample sd sqrt(32 / 7) */
	CHECK(st.n == 8 && st.mean == 5 && st.min == 2 && st.max == 9 && st.median == 4.5, "stat");
	CHECK_NEAR(st.sd, sqrt(32.0 / 7), 1e-12);
	CHECK_NEAR(st.cv_percent, sqrt(32.0 / 7) / 5 * 100, 1e-10);
	st = stat_of(odd, 1);
	CHECK(st.sd == 0 && st.cv_percent == 0 && st.median == 1, "one value");

	/* direction: > 1 is better for every measure */
	CHECK(report_ratio(RM_RATE, 200, 100, &r) && r == 2, "rate: higher is better");
	CHECK(report_ratio(RM_CPU, 0.5, 1, &r) && r == 2, "CPU: less is better");
	CHECK(report_ratio(RM_LATENCY, 200, 100, &r) && r == 0.5, "latency: lower is better");
	CHECK(!report_ratio(RM_RATE, 1, 0, &r) && !report_ratio(RM_CPU, 0, 1, &r), "undefined ratios");
	CHECK(report_ratio(RM_CPU, 0, 0, &r) && r == 1, "no CPU on either side");
	CHECK(report_higher_is_better(RM_RATE) && !report_higher_is_better(RM_CPU) &&
	      !report_higher_is_better(RM_LATENCY), "directions");

	/*
	 * Welch by hand: means 110000 and 220000, variances of the means
	 * 1e8/3 and 4e8/3: t = 110000 / sqrt(5e8/3) = 8.5205634,
	 * df = (5/3)^2 / ((1/3)^2/2 + (4/3)^2/2) = 50/17 = 2.9411765,
	 * p = 0.0036599556 (Simpson, as above).
	 */
	sa = stat_of(a, 3);
	sb = stat_of(b, 3);
	CHECK_NEAR(report_welch_p(&sa, &sb), 0.0036599556, 1e-9);
	CHECK_NEAR(report_welch_p(&sb, &sa), 0.0036599556, 1e-9);
	/* t = 5 / sqrt(100/3 + 100/3) = 0.6123724, df = 4: p = 0.5733922538 */
	sc = stat_of(c, 3);
	sd = stat_of(d, 3);
	CHECK_NEAR(report_welch_p(&sc, &sd), 0.5733922538, 1e-9);
	st = stat_of(same, 2);
	sd = stat_of(other, 2);
	CHECK(report_welch_p(&st, &st) == 1 && report_welch_p(&st, &sd) == 0, "no spread");
	s1 = stat_of(odd, 1);
	CHECK(report_welch_p(&s1, &sa) == -1 && report_welch_p(&sa, &s1) == -1, "n < 2: cannot tell");
}

/* A clyde CSV line of NAME, SEED and a per-char write (putc) rate, its other phases +++++. */
static void putc_line(FILE *m, const char *name, unsigned seed, unsigned putc)
{
	fprintf(m, "1.98,0.1.0,%s,1,%u,8M,,1000,5,%u,50,+++++,+++,+++++,+++,+++++,+++,+++++,+++,"
		"+++++,+++,1,,,,,+++++,+++,+++++,+++,+++++,+++,+++++,+++,+++++,+++,+++++,+++,"
		"10us,10us,10us,10us,10us,10us,10us,10us,10us,10us,10us,10us\n", name, seed, putc);
}

/* The report's baseline comparison gives the history's verdict: the same ratio, the same p. */
static void test_report_one_statistic(struct report_set *s)
{
	struct report_stat sa, sb;
	const struct report_config *c;
	char *text = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&text, &len);
	double ratio, p;

	for (unsigned i = 0; i < 12; i++)
		putc_line(m, "bimodal", 100 + i, i < 7 ? 100000 : 80000);
	for (unsigned i = 0; i < 12; i++)
		putc_line(m, "steady", 200 + i, 99000);
	fclose(m);
	report_set_free(s);
	CHECK(read_str(s, text) == 0 && s->nruns == 24 && report_group(s) == 0 && s->nconfigs == 2,
	      "read %zu runs", s->nruns);
	free(text);
	if (s->nconfigs != 2)
		return;
	report_compare(s, 0);
	c = &s->configs[1];
	sa = s->configs[0].stat[PH_PUTC][RM_RATE];
	sb = c->stat[PH_PUTC][RM_RATE];
	CHECK(report_verdict_of(&sa, &sb, RM_RATE, &ratio, &p) == RV_BETTER, "the history: better");
	CHECK(c->has_ratio[PH_PUTC][RM_RATE] && c->ratio[PH_PUTC][RM_RATE] == ratio &&
	      c->p_value[PH_PUTC][RM_RATE] == p && !c->within_noise[PH_PUTC][RM_RATE],
	      "the report: ratio %g p %g, the history's %g %g", c->ratio[PH_PUTC][RM_RATE],
	      c->p_value[PH_PUTC][RM_RATE], ratio, p);
	CHECK_NEAR(c->ratio[PH_PUTC][RM_RATE], 99000 / (1100000 / 12.0), 1e-12);
	CHECK_NEAR(c->geomean, 99000 / (1100000 / 12.0), 1e-12);
}

static void test_group_compare(struct report_set *s)
{
	char *text = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&text, &len);
	const struct report_config *c;

	/* base (1.97) x3, new103 (1.03) x3 with rates 2x on put_block and the same rewrite mean, ext4 x1 */
	fprintf(m, "%s\n", line_197);
	fprintf(m, "%s\n", "1.97,1.97,base,1,1001,4G,,510,98,110000,11,60000,8,610,97,200000,12,410.0,5,16,,,,,"
		"21000,50,+++++,+++,31000,40,22000,50,+++++,+++,30000,40,20ms,110ms,200ms,15ms,50ms,80ms,"
		"1000us,500us,900us,1100us,400us,800us");
	fprintf(m, "%s\n%s\n", line_103, line_ext4);
	fprintf(m, "%s\n", "1.97,1.97,base,1,1002,4G,,520,98,120000,12,70000,8,620,97,200000,12,420.0,5,16,,,,,"
		"22000,50,+++++,+++,32000,40,23000,50,+++++,+++,31000,40,20ms,120ms,200ms,15ms,50ms,80ms,"
		"1000us,500us,900us,1100us,400us,800us");
	fprintf(m, "%s\n", "new103,4G,515,98,220000,11,60000,8,615,97,200000,12,820.0,5,16,42000,50,+++++,+++,"
		"62000,40,44000,50,+++++,+++,60000,40");
	fprintf(m, "%s\n", "new103,4G,525,98,240000,12,68000,8,625,97,200000,12,840.0,5,16,44000,50,+++++,+++,"
		"64000,40,46000,50,+++++,+++,62000,40");
	/* the same name with other parameters: another configuration */
	fprintf(m, "%s\n", line_196);
	fprintf(m, "%s\n", "1.96,1.96,old196,1,1234,1G,16k,,,90000,9,45000,7,,,180000,11,350.5,4,16,,,,,19000,49,"
		"+++++,+++,28000,39,20000,49,+++++,+++,27000,39,,90ms,190ms,,45ms,75ms,1100us,,950us,1200us,,850us");
	fclose(m);
	report_set_free(s);
	CHECK(read_str(s, text) == 0 && s->nruns == 9 && s->errors == 0, "read %zu", s->nruns);
	free(text);
	CHECK(report_group(s) == 0 && s->nconfigs == 5, "%zu configurations", s->nconfigs);
	if (s->nconfigs != 5)
		return;
	CHECK_STR(s->configs[0].key, "base -s 4G -n 16");
	CHECK_STR(s->configs[1].key, "new103 -s 4G -n 16");
	CHECK_STR(s->configs[2].key, "ext4 -s 4G::8192:5 -n 64");
	CHECK(s->configs[0].runs == 3 && s->configs[1].runs == 3 && s->configs[2].runs == 1, "runs");
	CHECK(s->configs[0].first_run == 0 && s->configs[1].first_run == 2 && s->configs[2].first_run == 3, "first runs");
	CHECK_STR(s->configs[1].origins, "bonnie++ 1.03");
	c = &s->configs[0];
	CHECK(c->stat[PH_PUT_BLOCK][RM_RATE].median == 110000 && c->stat[PH_PUT_BLOCK][RM_RATE].n == 3, "median");
	CHECK_NEAR(c->stat[PH_PUT_BLOCK][RM_RATE].cv_percent, 10000.0 / 110000 * 100, 1e-9);
	CHECK(c->hidden[PH_SEQ_STAT] == 3 && c->stat[PH_SEQ_STAT][RM_RATE].n == 0, "hidden counted");
	CHECK(c->stat[PH_PUT_BLOCK][RM_LATENCY].median == 110000, "latency median");

	CHECK(report_find_config(s, "first") == 0, "first");
	CHECK(report_find_config(s, "new103") == 1, "by name");
	CHECK(report_find_config(s, "ext4 -s 4G::8192:5 -n 64") == 2, "by key");
	CHECK(report_find_config(s, "old196") == -EINVAL, "ambiguous name");
	CHECK(report_find_config(s, "old196 -s 1G:16k -n 16") == 4, "its key");
	CHECK(report_find_config(s, "nothing") == -ENOENT, "missing");

	report_compare(s, 0);
	c = &s->configs[1];
	CHECK(s->baseline == 0, "baseline");
	CHECK(c->has_ratio[PH_PUT_BLOCK][RM_RATE] && c->ratio[PH_PUT_BLOCK][RM_RATE] == 2, "rate ratio");
	CHECK_NEAR(c->p_value[PH_PUT_BLOCK][RM_RATE], 0.0036599556, 1e-9);
	CHECK(!c->within_noise[PH_PUT_BLOCK][RM_RATE] && !c->untestable[PH_PUT_BLOCK][RM_RATE], "a difference");
	/* the same CPU per MiB in every run on each side (10%/100000 ... 12%/120000): no spread, p = 0 */
	CHECK_NEAR(c->ratio[PH_PUT_BLOCK][RM_CPU], 2, 1e-12);
	CHECK(c->p_value[PH_PUT_BLOCK][RM_CPU] == 0 && !c->within_noise[PH_PUT_BLOCK][RM_CPU], "CPU differs");
	CHECK(c->ratio[PH_REWRITE][RM_RATE] == 1 && c->within_noise[PH_REWRITE][RM_RATE] &&
	      c->p_value[PH_REWRITE][RM_RATE] == 1, "rewrite: the same mean");
	CHECK(!c->has_ratio[PH_PUT_BLOCK][RM_LATENCY], "1.03 has no latency to compare");
	CHECK(!c->has_ratio[PH_SEQ_STAT][RM_RATE], "hidden on both sides");
	/*
	 * rate ratios: putc 515/510, put_block 2, rewrite 1, getc 615/610, get_block 1, seeks 2, four
	 * file phases 2; the means cover the phases every configuration has, and the fourth and
	 * fifth (1.96) have no putc or getc: 2^6 over 8 phases, the same 8 for every configuration
	 */
	CHECK(c->geomean_n == 8 && s->geomean_phases == 8, "geomean over %u", c->geomean_n);
	CHECK_NEAR(c->geomean, pow(64, 1.0 / 8), 1e-12);
	CHECK(s->configs[3].geomean_n == 8, "the fourth's over %u", s->configs[3].geomean_n);
	{
		char which[64];

		CHECK(report_geomean_left_out(s, PH_PUTC, which, sizeof(which)) && !strcmp(which, "[4], [5]"),
		      "putc left out for [4] and [5]: %s", which);
		CHECK(!report_geomean_left_out(s, PH_PUT_BLOCK, which, sizeof(which)), "put_block in");
		CHECK(!report_geomean_left_out(s, PH_SEQ_STAT, which, sizeof(which)),
		      "hidden everywhere: not left out, never in");
	}
	c = &s->configs[2];
	CHECK(c->untestable[PH_PUT_BLOCK][RM_RATE] && c->within_noise[PH_PUT_BLOCK][RM_RATE] &&
	      c->p_value[PH_PUT_BLOCK][RM_RATE] == -1, "one run: cannot tell");
	/* latency: 110 ms over 8960 us is better */
	CHECK_NEAR(c->ratio[PH_PUT_BLOCK][RM_LATENCY], 110000.0 / 8960, 1e-12);
	c = &s->configs[0];
	CHECK(c->ratio[PH_PUT_BLOCK][RM_RATE] == 1 && c->p_value[PH_PUT_BLOCK][RM_RATE] == -1 &&
	      c->geomean == 1 && c->geomean_n == 8, "the baseline: 1.00");
	report_compare(s, -1);
	CHECK(s->baseline == -1 && !s->configs[1].has_ratio[PH_PUT_BLOCK][RM_RATE], "cleared");
}

static void test_text(struct report_set *s)
{
	char *text = NULL;
	size_t len = 0;
	FILE *m;

	/* test_group_compare's set */
	m = open_memstream(&text, &len);
	CHECK(report_text(m, s) == 0, "text");
	fclose(m);
	CHECK(strstr(text, "clyde-report: 9 runs in 5 configurations\n") != NULL, "head");
	CHECK(strstr(text, "\n[2] new103 -s 4G -n 16: 3 runs (bonnie++ 1.03)\n") != NULL, "block head");
	/* the page's unit for block write: MiB/s, every median under 1 GiB/s: 110000 / 1024 */
	CHECK(strstr(text, "  Block write        107.4  MiB/s      97.66..117.2   9.1    3   0.00102  MiB             110000\n") != NULL,
	      "absolute row:\n%s", text);
	CHECK(!strstr(text, "CPU cost"), "no run profiled: no cost table");
	free(text);
	text = NULL;
	report_compare(s, 0);
	m = open_memstream(&text, &len);
	CHECK(report_text(m, s) == 0, "text");
	fclose(m);
	CHECK(strstr(text, "Welch's t-test, p < 0.05") != NULL, "the legend names the test");
	CHECK(strstr(text, "geometric mean of rate ratios 1.68 over 8 phases") != NULL, "geomean");
	CHECK(strstr(text, "Every mean is over the same 8 phases, those every configuration with a\n"
			   "  rate ratio has one for; left out of all:\n"
			   "  Per-char write: no rate in [4], [5]\n  Per-char read: no rate in [4], [5]\n") != NULL,
	      "the phases left out:\n%s", text);
	CHECK(strstr(text, "  Block write        2.00   1.82..2.18   9.1    3     2.00                214.8  MiB/s\n") != NULL, "ratio row:\n%s", text);
	CHECK(strstr(text, "  Rewrite            1.00~  0.87..1.13  13.3    3     1.01~               58.59  MiB/s\n") != NULL, "noise");
	CHECK(strstr(text, "  Block write        3.82?           -     -    1     0.55?   12.28?      410.4  MiB/s\n") != NULL, "one run");
	free(text);
}

/*
 * A time series' summaries from rows set here: the rate over a window
 * that cuts intervals (their work in proportion), the tenths, an interval
 * of no width at the end, the longest stall (the first of two as long).
 */
static void test_series_summaries(void)
{
	/* 0.25 s each: 400/s, nothing, 200/s, nothing; then 10 done in no time */
	static const double rows[][3] = {
		{ 0, 0.25, 100 }, { 0.25, 0.5, 0 }, { 0.5, 0.75, 50 }, { 0.75, 1, 0 }, { 1, 1, 10 },
	};
	struct report_series *se = calloc(1, sizeof(*se) + 5 * sizeof(se->row[0]));
	struct report_stall st;
	double tenth[3];

	CHECK(se != NULL, "calloc");
	if (!se)
		return;
	se->n = 5;
	for (int k = 0; k < 5; k++) {
		se->row[k].t_start = rows[k][0];
		se->row[k].t_end = rows[k][1];
		se->row[k].work = rows[k][2];
		se->row[k].ops = rows[k][2] > 0;
		if (rows[k][1] > rows[k][0])
			se->row[k].rate = rows[k][2] / (rows[k][1] - rows[k][0]);
	}
	CHECK(report_series_end(se) == 1, "end %g", report_series_end(se));
	CHECK(fabs(report_series_rate(se, 0, 0.25) - 400) < 1e-9, "first quarter");
	/* [0.125, 0.625]: half of the first (50), nothing, half of the third (25): 75 / 0.5 */
	CHECK(fabs(report_series_rate(se, 0.125, 0.625) - 150) < 1e-9, "straddling %g",
	      report_series_rate(se, 0.125, 0.625));
	/* the interval of no width at 1 s counts whole in a window that reaches 1 s */
	CHECK(fabs(report_series_rate(se, 0.9, 1) - 100) < 1e-9, "last tenth %g", report_series_rate(se, 0.9, 1));
	CHECK(isnan(report_series_rate(se, 0.5, 0.5)), "an empty window");
	report_series_tenths(se, tenth);
	CHECK(fabs(tenth[0] - 400) < 1e-9 && fabs(tenth[1] - 100) < 1e-9 &&
	      fabs(tenth[2] - 100) < 1e-9, "tenths %g %g %g", tenth[0], tenth[1], tenth[2]);
	CHECK(report_series_stall(se, &st) && st.intervals == 1 && st.length_s == 0.25 &&
	      st.start_s == 0.25, "stall %zu intervals, %g s at %g s", st.intervals, st.length_s, st.start_s);
	se->row[4].ops = 0;
	se->row[2].ops = 0;
	/* now 0.25..1 without a completion: three intervals and the empty one, 0.75 s */
	CHECK(report_series_stall(se, &st) && st.intervals == 4 && st.length_s == 0.75 &&
	      st.start_s == 0.25, "longer stall %zu intervals, %g s at %g s", st.intervals, st.length_s, st.start_s);
	for (int k = 0; k < 5; k++)
		se->row[k].ops = 1;
	CHECK(!report_series_stall(se, &st), "no stall");
	free(se);
}

int main(void)
{
	struct report_set s;

	report_set_init(&s);
	test_bonnie_198(&s);
	test_clyde_csv(&s);
	test_bonnie_197_103(&s);
	test_json(&s);
	test_json_empty_slot(&s);
	test_json_profile(&s);
	test_json_tree(&s);
	test_profile_median(&s);
	test_mixed_stream(&s);
	test_malformed(&s);
	test_message_limit(&s);
	test_incomplete_beta();
	test_t_distribution();
	test_verdicts();
	test_verdict_one_statistic();
	test_stats();
	test_welch_huge();
	test_report_one_statistic(&s);
	test_group_compare(&s);
	test_text(&s);
	test_series_summaries();
	report_set_free(&s);
	return unit_verdict("unit_report");
}
