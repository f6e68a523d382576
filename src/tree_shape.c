// SPDX-License-Identifier: BSD-2-Clause
/*
 * The tree shapes: distributions of file size, files per directory,
 * directory depth and name length. PROVISIONAL numbers, replaced by the
 * figures bench/tree-shapes measures.
 */
#include "config.h"

#include <string.h>

#include "tree.h"

static const struct tree_shape shapes[TREE_SHAPES] = {
	[TREE_PORTS] = {
		.id = TREE_PORTS, .name = "ports",
		.what = "a ports collection: thousands of small directories of tiny files",
		.files = 20000,
		.file_size = { 7, { { 0, 60 }, { 0.1, 200 }, { 0.25, 400 }, { 0.5, 900 },
				    { 0.75, 1800 }, { 0.95, 6000 }, { 1, 200000 } }, true },
		.files_per_dir = { 6, { { 0, 0 }, { 0.1, 1 }, { 0.5, 3 }, { 0.9, 8 },
					{ 0.99, 40 }, { 1, 300 } }, true },
		.dir_depth = { 4, { { 0, 1 }, { 0.02, 1.5 }, { 0.6, 2.49 }, { 1, 3.49 } }, false },
		.name_len = { 5, { { 0, 4 }, { 0.25, 8 }, { 0.5, 9 }, { 0.9, 24 }, { 1, 60 } }, false },
		.dir_name_len = { 4, { { 0, 3 }, { 0.5, 10 }, { 0.9, 18 }, { 1, 40 } }, false },
		.source = "provisional",
	},
	[TREE_SOURCE] = {
		.id = TREE_SOURCE, .name = "source",
		.what = "a kernel source tree: deep, files of a few KiB with a tail to 1 MiB",
		.files = 20000,
		.file_size = { 7, { { 0, 20 }, { 0.1, 1000 }, { 0.25, 2500 }, { 0.5, 7000 },
				    { 0.75, 18000 }, { 0.99, 150000 }, { 1, 1500000 } }, true },
		.files_per_dir = { 6, { { 0, 0 }, { 0.2, 2 }, { 0.5, 6 }, { 0.9, 30 },
					{ 0.99, 150 }, { 1, 1000 } }, true },
		.dir_depth = { 5, { { 0, 1 }, { 0.1, 2.5 }, { 0.5, 4 }, { 0.9, 5.5 }, { 1, 9.49 } }, false },
		.name_len = { 5, { { 0, 3 }, { 0.25, 8 }, { 0.5, 12 }, { 0.9, 22 }, { 1, 50 } }, false },
		.dir_name_len = { 4, { { 0, 2 }, { 0.5, 7 }, { 0.9, 14 }, { 1, 30 } }, false },
		.source = "provisional",
	},
	[TREE_MIXED] = {
		.id = TREE_MIXED, .name = "mixed",
		.what = "documents, images and audio: KiB to tens of MiB",
		.files = 600,
		.file_size = { 7, { { 0, 1000 }, { 0.1, 20000 }, { 0.25, 200000 }, { 0.5, 1500000 },
				    { 0.75, 4000000 }, { 0.95, 9000000 }, { 1, 40000000 } }, true },
		.files_per_dir = { 5, { { 0, 0 }, { 0.2, 3 }, { 0.5, 10 }, { 0.9, 30 }, { 1, 200 } }, true },
		.dir_depth = { 4, { { 0, 1 }, { 0.3, 2 }, { 0.8, 3 }, { 1, 4.49 } }, false },
		.name_len = { 4, { { 0, 5 }, { 0.5, 14 }, { 0.9, 30 }, { 1, 60 } }, false },
		.dir_name_len = { 4, { { 0, 3 }, { 0.5, 10 }, { 0.9, 20 }, { 1, 40 } }, false },
		.source = "provisional",
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
