// SPDX-License-Identifier: BSD-2-Clause
/*
 * The adding up of extents and free space (sys/extents.c) on crafted maps
 * where the easy statistics disagree: many tiny free pieces and one huge
 * (the mean says small, the largest says huge, the buckets say both);
 * extents that continue each other on the device (more extents than runs,
 * the largest run longer than any extent).
 */
#include "config.h"

#include <string.h>

#include "sys/extents.h"
#include "unit.h"

#define KIB 1024ULL
#define MIB (1024ULL * KIB)
#define GIB (1024ULL * MIB)

static void buckets(void)
{
	CHECK(free_space_bucket(0) == 0, "0 bytes: bucket %u", free_space_bucket(0));
	CHECK(free_space_bucket(4 * KIB) == 0, "4k: bucket %u", free_space_bucket(4 * KIB));
	CHECK(free_space_bucket(8 * KIB - 1) == 0, "8k-1: bucket %u",
	      free_space_bucket(8 * KIB - 1));
	CHECK(free_space_bucket(8 * KIB) == 1, "8k: bucket %u", free_space_bucket(8 * KIB));
	CHECK(free_space_bucket(1 * MIB) == 8, "1m: bucket %u", free_space_bucket(1 * MIB));
	CHECK(free_space_bucket(GIB - 1) == 17, "1g-1: bucket %u", free_space_bucket(GIB - 1));
	CHECK(free_space_bucket(GIB) == FREE_BUCKETS - 1, "1g: bucket %u",
	      free_space_bucket(GIB));
	CHECK(free_space_bucket(1ULL << 50) == FREE_BUCKETS - 1, "1p: bucket %u",
	      free_space_bucket(1ULL << 50));
	CHECK_STR(free_space_bucket_name(0), "4k");
	CHECK_STR(free_space_bucket_name(8), "1m");
	CHECK_STR(free_space_bucket_name(FREE_BUCKETS - 1), "1g+");
}

/* 1000 free 4 KiB pieces a block apart, then one of 3 GiB told as three touching records. */
static void tiny_and_huge(void)
{
	struct free_space_figures f;
	struct free_space_walk w;
	uint64_t at = 0;

	free_space_figures_init(&f);
	free_space_begin(&w, &f);
	for (int i = 0; i < 1000; i++, at += 8 * KIB)
		free_space_record(&w, at, 4 * KIB);
	/* per-group records that continue each other: one piece on the device */
	for (int i = 0; i < 3; i++, at += GIB)
		free_space_record(&w, at, GIB);
	free_space_end(&w);
	CHECK(f.records == 1003, "records %llu, want 1003", (unsigned long long)f.records);
	CHECK(f.pieces == 1001, "pieces %llu, want 1001 (the touching records merged)",
	      (unsigned long long)f.pieces);
	CHECK(f.bytes == 4000 * KIB + 3 * GIB, "bytes %llu", (unsigned long long)f.bytes);
	CHECK(f.largest == 3 * GIB, "largest %llu, want 3 GiB", (unsigned long long)f.largest);
	CHECK(f.buckets[0] == 1000, "4k bucket %llu, want 1000",
	      (unsigned long long)f.buckets[0]);
	CHECK(f.buckets[FREE_BUCKETS - 1] == 1, "1g+ bucket %llu, want 1",
	      (unsigned long long)f.buckets[FREE_BUCKETS - 1]);
	for (unsigned i = 1; i < FREE_BUCKETS - 1; i++)
		CHECK(!f.buckets[i], "bucket %s holds %llu", free_space_bucket_name(i),
		      (unsigned long long)f.buckets[i]);
}

static void piece(struct extent_file *x, uint64_t logical, uint64_t physical, uint64_t length,
		  unsigned flags)
{
	struct extent_piece p = { logical, physical, length, flags };

	extent_file_piece(x, &p);
}

/*
 * Five extents: three that continue each other on the device (ext4's 128
 * MiB extent limit cuts a contiguous file so), a jump, one back to back
 * with it, and one with no place; then a second file with one extent.
 */
static void merged_runs(void)
{
	struct extent_piece kept[4];
	struct extent_map map = { .pieces = kept, .max = 4 };
	struct extent_figures f;
	struct extent_file x;

	extent_figures_init(&f);
	extent_file_begin(&x, &f, &map);
	piece(&x, 0, 10 * GIB, 128 * MIB, 0);
	piece(&x, 128 * MIB, 10 * GIB + 128 * MIB, 128 * MIB, 0);
	piece(&x, 256 * MIB, 10 * GIB + 256 * MIB, 64 * MIB, EXTENT_UNWRITTEN);
	piece(&x, 320 * MIB, 2 * GIB, 200 * MIB, 0);
	piece(&x, 520 * MIB, 2 * GIB + 200 * MIB, 100 * MIB, 0);
	piece(&x, 620 * MIB, 0, 4 * KIB, EXTENT_UNKNOWN);
	extent_file_end(&x);
	CHECK(f.files == 1, "files %llu", (unsigned long long)f.files);
	CHECK(f.extents == 6, "extents %llu, want 6", (unsigned long long)f.extents);
	CHECK(f.runs == 2, "runs %llu, want 2 (the unknown piece starts none)",
	      (unsigned long long)f.runs);
	CHECK(f.largest_run == 320 * MIB, "largest run %llu MiB, want 320 (three merged)",
	      (unsigned long long)(f.largest_run / MIB));
	CHECK(f.unwritten == 1 && f.unknown == 1, "unwritten %llu unknown %llu",
	      (unsigned long long)f.unwritten, (unsigned long long)f.unknown);
	CHECK(map.count == 4 && map.truncated, "map %zu pieces, truncated %d; want 4, 1",
	      map.count, map.truncated);
	CHECK(map.pieces[3].physical == 2 * GIB, "map's 4th piece at %llu",
	      (unsigned long long)map.pieces[3].physical);

	/* a second file whose extent starts where the first file's last run ended: no merge */
	extent_file_begin(&x, &f, NULL);
	piece(&x, 0, 2 * GIB + 300 * MIB, 400 * MIB, 0);
	extent_file_end(&x);
	CHECK(f.files == 2 && f.runs == 3, "files %llu runs %llu, want 2, 3",
	      (unsigned long long)f.files, (unsigned long long)f.runs);
	CHECK(f.largest_run == 400 * MIB, "largest run %llu MiB, want 400",
	      (unsigned long long)(f.largest_run / MIB));
}

int main(void)
{
	buckets();
	tiny_and_huge();
	merged_runs();
	return unit_verdict("unit_extents");
}
