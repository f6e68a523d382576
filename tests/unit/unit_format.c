// SPDX-License-Identifier: BSD-2-Clause
/*
 * Formatters against golden files. The golden tables in tests/data/golden are
 * bonnie++ 2.00a's own output (shared/reference), changed only where
 * bonnie++ is wrong: the file-test row shows rates, and CSV fields 6, 24
 * and 25 hold what the header names. Each case builds a run_result from
 * the golden CSV line, formats it, and must reproduce both files byte for
 * byte.
 */
#include "config.h"

#include <errno.h>

#include "formats/format.h"
#include "lib/size.h"
#include "unit.h"

#define MAX_OUT 8192

static const char *golden_dir(void)
{
	const char *g = getenv("GOLDEN");

	return g ? g : "tests/data/golden";
}

static char *slurp(const char *name)
{
	static char buf[MAX_OUT];
	char path[1024];
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "%s/%s", golden_dir(), name);
	f = fopen(path, "r");
	if (!f) {
		fprintf(stderr, "cannot open %s: %s\n", path, strerror(errno));
		exit(99);
	}
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

static int split_csv(char *line, char **f, int max)
{
	int n = 0;

	line[strcspn(line, "\n")] = '\0';
	f[n++] = line;
	for (char *p = line; *p && n < max; p++) {
		if (*p == ',') {
			*p = '\0';
			f[n++] = p + 1;
		}
	}
	return n;
}

static double latency_seconds(const char *s)
{
	char *end;
	double v = strtod(s, &end);

	if (!strcmp(end, "us"))
		return (v + 0.5) / 1e6;
	if (!strcmp(end, "ms"))
		return (v + 0.5) / 1e3;
	if (!strcmp(end, "s"))
		return v + 0.5;
	return 0;
}

static void fill_phase(struct phase_result *p, const char *rate, const char *cpu,
		       const char *lat)
{
	memset(p, 0, sizeof(*p));
	if (!*rate)
		return;
	p->ran = true;
	/* bonnie++ ran with the counts its user gave: its +++++ rule holds. */
	p->plus_when_short = true;
	p->max_latency = latency_seconds(lat);
	if (!strcmp(rate, "+++++")) {
		p->elapsed = 0.1;	/* too short to report */
		p->amount = 1;
		return;
	}
	p->elapsed = 1.0;
	p->amount = strtod(rate, NULL);
	/* Half a percent up, since the percent is truncated as in bonnie++. */
	p->cpu_user = (atof(cpu) + 0.5) / 100.0;
}

static uint64_t parse_size(const char *s, uint64_t unit, uint64_t dflt)
{
	uint64_t v;

	if (!*s)
		return dflt;
	CHECK(size_parse(s, unit, &v) == 0, "size '%s'", s);
	return v;
}

/* The inverse of format_csv, for building cases from golden lines. */
static void result_from_csv(const char *csv, struct run_result *r)
{
	char line[MAX_OUT], *f[64];
	int n;

	snprintf(line, sizeof(line), "%s", csv);
	n = split_csv(line, f, 64);
	CHECK(n == 50, "golden CSV has %d fields, want 50", n);
	if (n != 50)
		exit(1);
	memset(r, 0, sizeof(*r));
	snprintf(r->params.version, sizeof(r->params.version), "%s", f[1]);
	snprintf(r->params.name, sizeof(r->params.name), "%s", f[2]);
	r->params.concurrency = (unsigned)atoi(f[3]);
	r->params.seed = (uint32_t)strtoul(f[4], NULL, 10);
	r->params.file_bytes = parse_size(f[5], 1 << 20, 0) >> 20 << 20;
	r->params.chunk = (uint32_t)parse_size(f[6], 1, 8192);
	r->params.seeks = *f[7] ? (uint32_t)atoi(f[7]) : 8192;
	r->params.seekers = *f[8] ? (uint32_t)atoi(f[8]) : 5;
	r->params.files = (uint32_t)atoi(f[21]);
	r->params.file_max = !strcmp(f[22], "link") ? -1 : !strcmp(f[22], "symlink") ? -2
			   : (int64_t)parse_size(f[22], 1, 0);
	r->params.file_min = (int64_t)parse_size(f[23], 1, 0);
	r->params.file_dirs = *f[24] ? (uint32_t)atoi(f[24]) : 1;
	r->params.file_chunk = (uint32_t)parse_size(f[25], 1, 8192);
	for (int s = 0; s < SLOT_COUNT; s++) {
		int field = s < SLOT_FIRST_FILE ? 9 + 2 * s : 26 + 2 * (s - SLOT_FIRST_FILE);

		fill_phase(&r->phase[phase_in_slot((enum csv_slot)s)], f[field], f[field + 1],
			   f[38 + s]);
	}
}

static char *format_to_string(void (*fn)(FILE *, const struct run_result *,
					 const struct format_opts *),
			      const struct run_result *r, const struct format_opts *fo)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	fn(f, r, fo);
	fclose(f);
	return buf;
}

static void check_golden(const char *name, const char *got, const char *file)
{
	const char *want = slurp(file);

	CHECK(!strcmp(got, want), "%s: output differs from %s\n--- got:\n%s--- want:\n%s",
	      name, file, got, want);
}

static void golden_case(const char *name)
{
	struct format_opts fo = { .exact = false };
	struct run_result r;
	char file[256], csv[MAX_OUT];
	char *out;

	snprintf(file, sizeof(file), "%s.csv", name);
	snprintf(csv, sizeof(csv), "%s", slurp(file));
	result_from_csv(csv, &r);

	out = format_to_string(format_csv, &r, &fo);
	check_golden(name, out, file);
	free(out);

	snprintf(file, sizeof(file), "%s.txt", name);
	out = format_to_string(format_table, &r, &fo);
	check_golden(name, out, file);
	free(out);
}

static void set_phase(struct run_result *r, enum phase_id id, double elapsed,
		      double amount, double cpu, double latency)
{
	struct phase_result *p = &r->phase[id];

	p->ran = true;
	p->elapsed = elapsed;
	p->amount = amount;
	p->cpu_user = cpu * elapsed / 100.0 * 0.6;
	p->cpu_sys = cpu * elapsed / 100.0 * 0.4 + 1e-9;
	p->max_latency = latency;
	p->plus_when_short = true;
}

/* What only clyde prints: --exact, wide counts, long names, big latencies. */
static void exact_case(void)
{
	struct format_opts fo = { .exact = true };
	struct run_result r;
	char *out;

	memset(&r, 0, sizeof(r));
	snprintf(r.params.version, sizeof(r.params.version), "0.1.0");
	snprintf(r.params.name, sizeof(r.params.name), "a-very-long-machine-name");
	r.params.concurrency = 3;
	r.params.seed = 42;
	r.params.file_bytes = (uint64_t)16 << 20;
	r.params.chunk = 65536;
	r.params.seeks = 8192;
	r.params.seekers = 2;
	r.params.files = 1;
	r.params.file_max = 4096;
	r.params.file_dirs = 1;
	r.params.file_chunk = 16384;
	set_phase(&r, PH_PUTC, 0.2, 2000, 98, 0.000123);
	set_phase(&r, PH_PUT_BLOCK, 0.3, 3000.0 * 1024, 50, 0.5);
	set_phase(&r, PH_REWRITE, 2, 2e12, 150, 123.4);
	set_phase(&r, PH_GETC, 1, 10000, 99, 0.0999);
	set_phase(&r, PH_GET_BLOCK, 1, 99.96 * 1024, 99, 0.1);
	set_phase(&r, PH_SEEKS, 0.25, 112345 * 0.25, 199, 0.004);
	set_phase(&r, PH_SEQ_CREATE, 0.01, 1024, 100, 0.000064);
	set_phase(&r, PH_SEQ_STAT, 0.001, 1024, 100, 0.000008);
	set_phase(&r, PH_SEQ_DEL, 2, 1024, 100, 0.002);
	set_phase(&r, PH_RAN_CREATE, 1, 99999, 100, 1.5);
	set_phase(&r, PH_RAN_STAT, 1, 12345678, 100, 0.000001);
	set_phase(&r, PH_RAN_DEL, 1, 999.4, 100, 0.02);

	out = format_to_string(format_table, &r, &fo);
	check_golden("exact", out, "exact.txt");
	free(out);
	out = format_to_string(format_csv, &r, &fo);
	check_golden("exact", out, "exact.csv");
	free(out);
	/* Without --exact the short phases hide their numbers again. */
	fo.exact = false;
	out = format_to_string(format_csv, &r, &fo);
	CHECK(strstr(out, ",16M,64k,8192,2,+++++,+++,+++++,+++,") != NULL, "plain CSV: %s", out);
	free(out);
	/*
	 * Counts that clyde chose (no -n, no seek count): a short phase shows
	 * its measured figure even without --exact; a phase that took no time
	 * at all still has none.
	 */
	for (int i = 0; i < PH_COUNT; i++)
		r.phase[i].plus_when_short = false;
	out = format_to_string(format_csv, &r, &fo);
	CHECK(strstr(out, ",16M,64k,8192,2,10000,98,10240000,50,") != NULL, "measured CSV: %s", out);
	CHECK(!strstr(out, "+++++"), "no +++++ when clyde chose the counts: %s", out);
	free(out);
	r.phase[PH_SEQ_STAT].elapsed = 0;
	out = format_to_string(format_csv, &r, &fo);
	CHECK(strstr(out, ",100,+++++,+++,") != NULL, "a phase of no time is +++++: %s", out);
	free(out);
}

static void header_case(void)
{
	char *buf = NULL, *f[64];
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	int n;

	format_csv_header(m);
	fclose(m);
	n = split_csv(buf, f, 64);
	CHECK(n == 50, "header names %d fields, want 50", n);
	CHECK_STR(f[0], "format_version");
	CHECK_STR(f[7], "num_seeks");
	CHECK_STR(f[8], "seek_proc_count");
	CHECK_STR(f[24], "num_dirs");
	CHECK_STR(f[25], "file_chunk_size");
	CHECK_STR(f[49], "ran_del_latency");
	free(buf);
}

static void cells_case(void)
{
	char b[32];

	format_latency(b, sizeof(b), 0.016824);
	CHECK_STR(b, "16824us");
	format_latency(b, sizeof(b), 0.491);
	CHECK_STR(b, "491ms");
	format_latency(b, sizeof(b), 1.007);
	CHECK_STR(b, "1007ms");
	format_latency(b, sizeof(b), 100.5);
	CHECK_STR(b, "100s");
	format_latency(b, sizeof(b), 0);
	CHECK_STR(b, "");
	format_kib_rate(b, sizeof(b), 9999);
	CHECK_STR(b, "9999k");
	format_kib_rate(b, sizeof(b), 10000);
	CHECK_STR(b, " 9.8m");
	format_kib_rate(b, sizeof(b), 420292);
	CHECK_STR(b, " 410m");
	format_kib_rate(b, sizeof(b), 3076378);
	CHECK_STR(b, " 2.9g");
	format_kib_rate(b, sizeof(b), 99.96 * 1024);
	CHECK_STR(b, " 100m");
	format_count5(b, sizeof(b), 621.94, true);
	CHECK_STR(b, "621.9");
	format_count5(b, sizeof(b), 5411.2, true);
	CHECK_STR(b, " 5411");
	format_count5(b, sizeof(b), 112298, false);
	CHECK_STR(b, " 112k");
	format_count5(b, sizeof(b), 99999, false);
	CHECK_STR(b, "99999");
	format_count5(b, sizeof(b), 12345678, false);
	CHECK_STR(b, "  12m");
	/* files per second truncate, as the CSV does: 72630.9 is 72630 in both */
	format_count5(b, sizeof(b), 72630.9, false);
	CHECK_STR(b, "72630");
	format_count5(b, sizeof(b), 99999.7, false);
	CHECK_STR(b, "99999");
	format_count5(b, sizeof(b), 9999999.9, false);
	CHECK_STR(b, "9999k");
	format_count5(b, sizeof(b), 0.9, false);
	CHECK_STR(b, "    0");
	format_count5(b, sizeof(b), 1e30, false);
	CHECK_STR(b, "1000000000000m");
	/* seeks round, as the CSV's %.0f does */
	format_count5(b, sizeof(b), 5411.6, true);
	CHECK_STR(b, " 5412");
}

/* A file-test rate: the table's cell and the CSV's field agree. */
static void check_file_rate_table_csv(void)
{
	struct run_result r;
	struct format_opts fo = { .exact = true };
	char *table = NULL, *csv = NULL;
	size_t tlen = 0, clen = 0;
	FILE *out;

	memset(&r, 0, sizeof(r));
	snprintf(r.params.name, sizeof(r.params.name), "t");
	r.params.files = 1;
	r.phase[PH_SEQ_CREATE].ran = true;
	r.phase[PH_SEQ_CREATE].elapsed = 1.0;
	r.phase[PH_SEQ_CREATE].amount = 72630.9;
	out = open_memstream(&table, &tlen);
	CHECK(out != NULL, "memstream");
	if (!out)
		return;
	format_table(out, &r, &fo);
	fclose(out);
	out = open_memstream(&csv, &clen);
	CHECK(out != NULL, "memstream");
	if (!out)
		goto out_free;
	format_csv(out, &r, &fo);
	fclose(out);
	CHECK(strstr(table, " 72630 ") && !strstr(table, "72631"), "table: %s", table);
	CHECK(strstr(csv, ",72630,") && !strstr(csv, "72631"), "csv: %s", csv);
out_free:
	free(table);
	free(csv);
}

/*
 * The context line of the cuts: every phase a limit stopped, then what the
 * cuts that set an amount left (the block write's file, the sequential
 * create's count), in the phases' order; a cut rewrite or random create
 * sets none.
 */
static void cuts_case(void)
{
	static const struct {
		enum phase_id cut[3];
		const char *want;
	} cases[] = {
		{ { PH_PUT_BLOCK, PH_SEQ_CREATE, PH_COUNT },
		  "cut at their time limits: put_block seq_create; the file tested: 3 MiB; "
		  "the files tested: 2 x 1024\n" },
		{ { PH_REWRITE, PH_RAN_CREATE, PH_COUNT },
		  "cut at their time limits: rewrite ran_create\n" },
		{ { PH_SEQ_CREATE, PH_COUNT }, "cut at their time limits: seq_create; "
		  "the files tested: 2 x 1024\n" },
		{ { PH_COUNT }, "" },
	};

	for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		struct run_result r;
		char *buf = NULL, line[160];
		size_t len = 0;
		FILE *f;

		memset(&r, 0, sizeof(r));
		r.params.file_bytes = (uint64_t)3 << 20;
		r.params.files = 2;
		for (int i = 0; i < PH_COUNT; i++)
			r.phase[i].ran = true;
		for (int i = 0; cases[k].cut[i] != PH_COUNT; i++)
			r.phase[cases[k].cut[i]].limit_cut = true;
		f = open_memstream(&buf, &len);
		if (!f) {
			CHECK(f, "open_memstream");
			return;
		}
		format_context(f, &r);
		fclose(f);
		/* a line of its own, after the first */
		snprintf(line, sizeof(line), "\n%s", *cases[k].want ? cases[k].want : "cut at");
		CHECK(buf && (strstr(buf, line) != NULL) == (*cases[k].want != '\0'),
		      "case %zu: the cuts' line of\n%s--- want:\n%s", k, buf, cases[k].want);
		free(buf);
	}
}

int main(void)
{
	static const char *const cases[] = {
		"ext4-4G-n64",
		"ext4-default-2xRAM",
		"tmpfs-2G-n16",
		"opts-chunk-files-dirs-conc",
		"links-only-files",
		"symlinks-only-files",
		"fast-no-perchar-no-files",
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		golden_case(cases[i]);
	exact_case();
	header_case();
	cells_case();
	check_file_rate_table_csv();
	cuts_case();
	return unit_verdict("unit_format");
}
