// SPDX-License-Identifier: BSD-2-Clause
/*
 * libFuzzer target for the results history's open path: any bytes as the
 * database file (the corpus starts from a real history, which the fuzzer
 * mutates, half the time in the file's header), opened to read (a
 * selection, a history's grouping and a comparison of two sets) and
 * opened to write (a migration, then an add of two runs). A crafted file may be refused, never crash, leak or trip
 * a sanitizer. Built and run by .ci/fuzz-report where the build has
 * SQLite, not by make.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "report/report.h"
#include "report/report_db.h"

/* Two runs of one configuration, added on every write open. */
static const char runs_csv[] =
	"1.98,0.1.0,box,1,7,8M,,1000,5,100000,50,+++++,+++,+++++,+++,99000,50,+++++,+++,1000,10,1,,,,,"
	"+++++,+++,+++++,+++,+++++,+++,+++++,+++,+++++,+++,+++++,+++,"
	"10us,10us,10us,10us,10us,10us,10us,10us,10us,10us,10us,10us\n"
	"1.98,0.1.0,box,1,8,8M,,1000,5,90000,50,+++++,+++,+++++,+++,98000,50,+++++,+++,1100,10,1,,,,,"
	"+++++,+++,+++++,+++,+++++,+++,+++++,+++,+++++,+++,+++++,+++,"
	"10us,10us,10us,10us,10us,10us,10us,10us,10us,10us,10us,10us\n";

static char dir[64], path[96], journal[112], wal[112], shm[112];
static FILE *sink;
static struct report_set runs;

static void cleanup(void)
{
	unlink(journal);
	unlink(wal);
	unlink(shm);
	unlink(path);
	rmdir(dir);
}

static int setup(void)
{
	const char *tmp = getenv("TMPDIR");

	if (!tmp || strlen(tmp) >= 32)
		tmp = "/tmp";
	snprintf(dir, sizeof(dir), "%s/clyde-fuzz-db.XXXXXX", tmp);
	if (!mkdtemp(dir))
		return -errno;
	snprintf(path, sizeof(path), "%s/h.db", dir);
	snprintf(journal, sizeof(journal), "%s-journal", path);
	snprintf(wal, sizeof(wal), "%s-wal", path);
	snprintf(shm, sizeof(shm), "%s-shm", path);
	atexit(cleanup);
	sink = fopen("/dev/null", "w");
	if (!sink)
		return -errno;
	report_set_init(&runs);
	return report_read_buffer(&runs, runs_csv, sizeof(runs_csv) - 1, "fuzz", NULL);
}

/* The input as the database file, and nothing SQLite left beside the last one. */
static int put_file(const uint8_t *data, size_t size)
{
	int fd;
	ssize_t n = 0;

	unlink(journal);
	unlink(wal);
	unlink(shm);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (fd < 0)
		return -errno;
	if (size)
		n = write(fd, data, size);
	close(fd);
	return n == (ssize_t)size ? 0 : -EIO;
}

static void read_side(void)
{
	struct report_points a = { 0 }, b = { 0 };
	struct report_db *db;
	struct report_gate gate;
	char err[512];

	if (report_db_open(&db, path, false, err, sizeof(err)))
		return;
	if (!report_db_select(db, "name=box", NULL, &a, err, sizeof(err)) &&
	    !report_db_select(db, "kernel=B", "kernel", &b, err, sizeof(err))) {
		report_sets_compare(sink, sink, &a, &b, "name=box", "kernel=B", 5, &gate);
		report_history_svg(sink, &a, "fuzz");
	}
	report_points_free(&a);
	report_points_free(&b);
	report_db_close(db);
}

static void write_side(void)
{
	static char label[] = "kernel=B";
	char *labels[] = { label };
	unsigned added, present;
	struct report_db *db;
	char err[512];

	if (report_db_open(&db, path, true, err, sizeof(err)))
		return;
	report_db_add(db, &runs, labels, 1, &added, &present, err, sizeof(err));
	report_db_close(db);
}

/*
 * Half the mutations go to the 100-byte header, where SQLite keeps the
 * user_version (offset 60), the application_id (68) and the other 4-byte
 * big-endian fields a reader trusts; a byte flipped at random anywhere in
 * a file of tens of KiB reaches them too rarely. The rest are libFuzzer's.
 */
size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max_size);
size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed);

size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed)
{
	static const unsigned fields[] = { 60, 68, 56, 64, 44, 48, 52, 28, 32, 36, 40, 92, 96 };
	static const uint32_t edges[] = {
		0, 1, 2, REPORT_DB_SCHEMA, REPORT_DB_SCHEMA + 1, 0x7fffffff, 0x80000000, 0xffffffff,
		(uint32_t)-1000000, REPORT_DB_APP_ID,
	};
	unsigned field, pick;
	uint32_t v;

	if (size < 100 || seed % 2)
		return LLVMFuzzerMutate(data, size, max_size);
	seed /= 2;
	field = fields[seed % (sizeof(fields) / sizeof(fields[0]))];
	seed /= sizeof(fields) / sizeof(fields[0]);
	pick = seed % (sizeof(edges) / sizeof(edges[0]) + 1);
	v = pick < sizeof(edges) / sizeof(edges[0]) ? edges[pick] : seed * 2654435761u;
	data[field] = (uint8_t)(v >> 24);
	data[field + 1] = (uint8_t)(v >> 16);
	data[field + 2] = (uint8_t)(v >> 8);
	data[field + 3] = (uint8_t)v;
	return size;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int ready = 1;

	if (ready > 0)
		ready = setup();
	if (ready < 0)
		return 0;
	if (put_file(data, size))
		return 0;
	read_side();
	write_side();
	read_side();
	return 0;
}
