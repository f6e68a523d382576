// SPDX-License-Identifier: BSD-2-Clause
/*
 * The built-in aging profiles: one row each. A size bucket draws a size
 * uniformly in [low, high]; a bucket is chosen by weight, so the weights
 * are a distribution of files by count. A depth row says how many
 * directories lie between the aging directory and the file.
 */
#include "config.h"

#include "age/age.h"

#define KIB 1024ull
#define MIB (1024ull * KIB)

/*
 * agrawal: files by count after Agrawal, Bolosky, Douceur and Lorch, "A
 * Five-Year Study of File-System Metadata", FAST '07: Figure 2 (histogram
 * of files by size, power-of-two bins, 2000-2004) and its text (the
 * median file near 4 KB, few files past 1 MB, a small share of empty
 * files). The buckets are clyde's own, read from the shape of that
 * histogram, not the paper's numbers: an approximation of the 2004 curve,
 * cut at 64 MiB. The depths are an approximation of Figure 11 (files by
 * namespace depth) shifted shallower, since the aging directory already
 * sits some levels below the root.
 */
static const struct age_bucket agrawal_sizes[] = {
	{ 0, 0, 20 },
	{ 1, 512, 80 },
	{ 513, 2 * KIB, 140 },
	{ 2 * KIB + 1, 4 * KIB, 180 },
	{ 4 * KIB + 1, 16 * KIB, 220 },
	{ 16 * KIB + 1, 64 * KIB, 150 },
	{ 64 * KIB + 1, 256 * KIB, 100 },
	{ 256 * KIB + 1, 1 * MIB, 60 },
	{ 1 * MIB + 1, 4 * MIB, 30 },
	{ 4 * MIB + 1, 16 * MIB, 15 },
	{ 16 * MIB + 1, 64 * MIB, 5 },
};

static const struct age_depth_row agrawal_depths[] = {
	{ 0, 5 }, { 1, 10 }, { 2, 20 }, { 3, 25 }, { 4, 20 }, { 5, 12 }, { 6, 8 },
};

/*
 * media: few large files (photos, audio, video), clyde's own choice and
 * no study's: a profile whose holes are large, against agrawal's many
 * small ones.
 */
static const struct age_bucket media_sizes[] = {
	{ 64 * KIB, 1 * MIB, 20 },
	{ 1 * MIB + 1, 16 * MIB, 50 },
	{ 16 * MIB + 1, 128 * MIB, 30 },
};

static const struct age_depth_row media_depths[] = {
	{ 0, 10 }, { 1, 50 }, { 2, 40 },
};

#define ROW(n, src, s, d) { .name = (n), .source = (src), .size = (s), \
	.nsize = sizeof(s) / sizeof((s)[0]), .depth = (d), .ndepth = sizeof(d) / sizeof((d)[0]) }

const struct age_profile_row age_profile_rows[] = {
	ROW("agrawal", "Agrawal et al. FAST '07, Figure 2 (approximated)", agrawal_sizes,
	    agrawal_depths),
	ROW("media", "clyde's own: large files", media_sizes, media_depths),
};

const unsigned age_profile_count = sizeof(age_profile_rows) / sizeof(age_profile_rows[0]);
