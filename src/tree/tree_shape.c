// SPDX-License-Identifier: BSD-2-Clause
/*
 * The tree shapes: distributions of file size, files per directory,
 * directory depth and name length, as measured by bench/tree-shapes
 * (output: bench/results/2026-11-30/tree-shapes.txt, which also gives
 * each table's error after rounding and its mean against the real one).
 *
 * source: Debian linux-source-6.1 6.1.192-3, the listing of
 *   /usr/src/linux-source-6.1.tar.xz: 78579 files (3.9x the default
 *   20000), 5095 directories, 1.2 GiB, mean file 16527 B.
 * ports: MidnightBSD's mports (a 2006 fork of FreeBSD ports, same
 *   category/port layout), git commit 01ce5d01bc72 (2026-08-22),
 *   `git ls-tree -r -l`: 58359 files (2.9x the default 20000), 13820
 *   directories, 170 MiB, mean file 3062 B. FreeBSD's own tree could not
 *   be fetched (too large); it has about 30k ports, about twice as many.
 * mixed: no real tree. file_size is a mixture (45% documents, 45% JPEG
 *   images, 10% MP3 audio by count; the weights are an assumption) of
 *   per-kind size ranges from published figures cited in bench/tree-shapes;
 *   mean 2.25 MB, so 186 files keep the default tree under 400 MiB. Its
 *   files_per_dir, dir_depth and name lengths are NOT measured: the
 *   provisional tables are kept.
 *
 * Integer distributions (files_per_dir, dir_depth, name lengths) are
 * tables whose samples, rounded to the nearest integer, follow the
 * measured frequencies: a knot { F(k), k + 0.49 } makes u in
 * [F(k-1), F(k)) land on k. file_size is interpolated in log(size) and
 * starts at 1 byte (30 of the kernel's files and 2 of the ports' files
 * are empty).
 */
#include "config.h"

#include <string.h>

#include "tree/tree.h"

static const struct tree_shape shapes[TREE_SHAPES] = {
	[TREE_PORTS] = {
		.id = TREE_PORTS, .name = "ports",
		.what = "a ports collection: thousands of small directories of tiny files",
		.files = 20000,	/* the measured tree: 58359 */
		.file_size = { 16, { { 0, 1 }, { 0.01, 43 }, { 0.05, 97 }, { 0.1, 145 }, { 0.25, 204 }, { 0.5, 478 }, { 0.75, 912 }, { 0.9, 2185 }, { 0.95, 4542 }, { 0.98, 12617 }, { 0.99, 29934 }, { 0.995, 75165 }, { 0.999, 519238 }, { 0.9995, 744468 }, { 0.9999, 2060812 }, { 1, 3348789 } }, true },
		.files_per_dir = { 16, { { 0, 0 }, { 0.001302, 0.49 }, { 0.13957, 1.49 }, { 0.209464, 2.49 }, { 0.91115, 4.49 }, { 0.950221, 5.49 }, { 0.961797, 6.49 }, { 0.969467, 7.49 }, { 0.977787, 9.49 }, { 0.980609, 10.49 }, { 0.99139, 16.49 }, { 0.992837, 18.49 }, { 0.995008, 24.49 }, { 0.997612, 36.49 }, { 0.999204, 72.49 }, { 1, 1647.49 } }, false },
		.dir_depth = { 10, { { 0, 1 }, { 0.004559, 1.49 }, { 0.757453, 2.49 }, { 0.991823, 3.49 }, { 0.993922, 4.49 }, { 0.994573, 5.49 }, { 0.995152, 6.49 }, { 0.995658, 7.49 }, { 0.999421, 8.49 }, { 1, 9.49 } }, false },
		.name_len = { 16, { { 0, 1 }, { 0.000788, 5.49 }, { 0.003753, 7.49 }, { 0.352148, 8.49 }, { 0.605168, 9.49 }, { 0.609298, 10.49 }, { 0.724241, 20.49 }, { 0.773197, 27.49 }, { 0.846005, 40.49 }, { 0.903134, 54.49 }, { 0.952552, 68.49 }, { 0.974862, 78.49 }, { 0.98487, 84.49 }, { 0.995168, 96.49 }, { 0.99928, 114.49 }, { 1, 153.49 } }, false },
		.dir_name_len = { 16, { { 0, 1 }, { 0.002967, 2.49 }, { 0.018524, 3.49 }, { 0.045586, 4.49 }, { 0.310854, 5.49 }, { 0.674385, 13.49 }, { 0.751013, 15.49 }, { 0.815919, 17.49 }, { 0.841968, 18.49 }, { 0.883285, 20.49 }, { 0.926918, 23.49 }, { 0.95644, 26.49 }, { 0.967656, 28.49 }, { 0.982562, 33.49 }, { 0.998625, 52.49 }, { 1, 69.49 } }, false },
		.source = "MidnightBSD mports git 01ce5d01bc72 (2026-08-22), measured by bench/tree-shapes",
	},
	[TREE_SOURCE] = {
		.id = TREE_SOURCE, .name = "source",
		.what = "a kernel source tree: deep, files of a few KiB, a long tail to tens of MiB",
		.files = 20000,	/* the measured tree: 78579 */
		.file_size = { 16, { { 0, 1 }, { 0.01, 73 }, { 0.05, 254 }, { 0.1, 446 }, { 0.25, 1280 }, { 0.5, 3874 }, { 0.75, 11416 }, { 0.9, 28759 }, { 0.95, 48093 }, { 0.98, 83945 }, { 0.99, 124858 }, { 0.995, 191202 }, { 0.999, 1120270 }, { 0.9995, 2103101 }, { 0.9999, 11394491 }, { 1, 23944620 } }, true },
		.files_per_dir = { 16, { { 0, 0 }, { 0.062991, 0.49 }, { 0.41405, 4.49 }, { 0.476845, 5.49 }, { 0.578297, 7.49 }, { 0.651491, 9.49 }, { 0.707418, 11.49 }, { 0.798666, 17.49 }, { 0.860675, 24.49 }, { 0.900706, 32.49 }, { 0.949568, 51.49 }, { 0.974294, 84.49 }, { 0.989796, 152.49 }, { 0.995879, 222.49 }, { 0.999411, 543.49 }, { 1, 2541.49 } }, false },
		.dir_depth = { 10, { { 0, 1 }, { 0.004711, 1.49 }, { 0.124043, 2.49 }, { 0.419431, 3.49 }, { 0.690873, 4.49 }, { 0.85476, 5.49 }, { 0.911089, 6.49 }, { 0.95682, 7.49 }, { 0.989009, 8.49 }, { 1, 9.49 } }, false },
		.name_len = { 16, { { 0, 2 }, { 0.000204, 3.49 }, { 0.010932, 4.49 }, { 0.10261, 6.49 }, { 0.171751, 7.49 }, { 0.273763, 8.49 }, { 0.429491, 10.49 }, { 0.630792, 13.49 }, { 0.780527, 16.49 }, { 0.818425, 17.49 }, { 0.877245, 19.49 }, { 0.916046, 21.49 }, { 0.95411, 24.49 }, { 0.983494, 29.49 }, { 0.996386, 36.49 }, { 1, 60.49 } }, false },
		.dir_name_len = { 16, { { 0, 1 }, { 0.000196, 1.49 }, { 0.033759, 2.49 }, { 0.227478, 3.49 }, { 0.371148, 4.49 }, { 0.634936, 6.49 }, { 0.752699, 7.49 }, { 0.835918, 8.49 }, { 0.890481, 9.49 }, { 0.921884, 10.49 }, { 0.945437, 11.49 }, { 0.974092, 13.49 }, { 0.983317, 14.49 }, { 0.989598, 15.49 }, { 0.999019, 20.49 }, { 1, 23.49 } }, false },
		.source = "linux-source-6.1 6.1.192-3 (Debian), measured by bench/tree-shapes",
	},
	[TREE_MIXED] = {
		.id = TREE_MIXED, .name = "mixed",
		.what = "documents, images and audio: KiB to tens of MiB",
		.files = 186,	/* x mean 2.25 MB: 400 MiB; no real tree */
		.file_size = { 16, { { 0, 10000 }, { 0.01, 11482 }, { 0.05, 19955 }, { 0.1, 39821 }, { 0.25, 171584 }, { 0.5, 636736 }, { 0.75, 3171142 }, { 0.9, 5684453 }, { 0.95, 9146127 }, { 0.98, 12349224 }, { 0.99, 17320584 }, { 0.995, 23136130 }, { 0.999, 29348172 }, { 0.9995, 30645416 }, { 0.9999, 31724376 }, { 1, 32000000 } }, true },
		/* not measured: the provisional tables */
		.files_per_dir = { 5, { { 0, 0 }, { 0.2, 3 }, { 0.5, 10 }, { 0.9, 30 }, { 1, 200 } }, true },
		.dir_depth = { 4, { { 0, 1 }, { 0.3, 2 }, { 0.8, 3 }, { 1, 4.49 } }, false },
		.name_len = { 4, { { 0, 5 }, { 0.5, 14 }, { 0.9, 30 }, { 1, 60 } }, false },
		.dir_name_len = { 4, { { 0, 3 }, { 0.5, 10 }, { 0.9, 20 }, { 1, 40 } }, false },
		.source = "model: published document/JPEG/MP3 sizes, mixed by bench/tree-shapes; layout provisional",
	},
};

const struct tree_shape *tree_shape_get(enum tree_shape_id id)
{
	return id < TREE_SHAPES ? &shapes[id] : NULL;
}

const struct tree_shape *tree_shape_find(const char *name)
{
	for (int i = 0; i < TREE_SHAPES; i++)
		if (!strcmp(shapes[i].name, name))
			return &shapes[i];
	return NULL;
}
