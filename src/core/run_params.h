/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef CLYDE_RUN_PARAMS_H
#define CLYDE_RUN_PARAMS_H

#include <stdint.h>

/* Labels of a run: what bonnie++ puts in CSV fields 0-8 and 21-25. */
struct run_params {
	char version[16];
	char name[128];
	unsigned concurrency;
	uint32_t seed;
	/* the big file as tested, whole MiB; 0: the I/O phases did not run */
	uint64_t file_bytes;
	uint32_t chunk;
	uint32_t seeks;
	uint32_t seekers;
	uint32_t files;		/* units of 1024; 0: file tests did not run */
	int64_t file_max;	/* bytes; -1 hard links, -2 symlinks */
	int64_t file_min;
	uint32_t file_dirs;
	uint32_t file_chunk;
	/*
	 * Which run this was, with the seed (clyde-result/10): the host it ran
	 * on and when it began, UTC wall clock to the microsecond
	 * ("2026-12-06T07:10:02.123456Z"); "" where not known.
	 */
	char host[128];
	char started_at[32];
};

/*
 * The run's parameters as bonnie++'s CSV writes them (fields 5-8 and
 * 20-25), "" where it leaves a field empty: chunk sizes in k-notation and
 * only when not the default (bon_csv2txt builds its size:chunk:seeks
 * label from them), the I/O fields empty when the I/O phases did not run,
 * the file fields when the file tests did not. clyde's CSV writes them and
 * clyde-report makes the same of a JSON document's figures.
 */
struct run_labels {
	char size[32], chunk[32], seeks[32], seekers[32];
	char files[32], max_size[32], min_size[32], dirs[32], file_chunk[32];
};
void run_labels_of(const struct run_params *p, struct run_labels *l);

#endif
