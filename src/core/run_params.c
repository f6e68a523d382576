// SPDX-License-Identifier: BSD-2-Clause
/* A run's parameters as bonnie++'s CSV fields: one writer for clyde's CSV and clyde-report. */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "core/clyde.h"
#include "core/run_params.h"
#include "lib/size.h"

void run_labels_of(const struct run_params *p, struct run_labels *l)
{
	memset(l, 0, sizeof(*l));
	if (p->file_bytes) {
		size_label(l->size, sizeof(l->size), p->file_bytes >> 20, "MGT");
		if (p->chunk != DEFAULT_CHUNK)
			size_label(l->chunk, sizeof(l->chunk), p->chunk, " km");
		snprintf(l->seeks, sizeof(l->seeks), "%" PRIu32, p->seeks);
		snprintf(l->seekers, sizeof(l->seekers), "%" PRIu32, p->seekers);
	}
	if (!p->files)
		return;
	snprintf(l->files, sizeof(l->files), "%" PRIu32, p->files);
	if (p->file_max == -1)
		snprintf(l->max_size, sizeof(l->max_size), "link");
	else if (p->file_max == -2)
		snprintf(l->max_size, sizeof(l->max_size), "symlink");
	else if (p->file_max > 0)
		snprintf(l->max_size, sizeof(l->max_size), "%" PRId64, p->file_max);
	if (p->file_max > 0 && p->file_min > 0)
		snprintf(l->min_size, sizeof(l->min_size), "%" PRId64, p->file_min);
	if (p->file_dirs > 1)
		snprintf(l->dirs, sizeof(l->dirs), "%" PRIu32, p->file_dirs);
	if (p->file_chunk != DEFAULT_FILE_CHUNK)
		size_label(l->file_chunk, sizeof(l->file_chunk), p->file_chunk, " km");
}
