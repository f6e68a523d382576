/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef CLYDE_H
#define CLYDE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/phase_list.h"

/* Exit status, documented in clyde(1) under EXIT STATUS. */
enum clyde_exit {
	CLYDE_EXIT_OK = 0,
	CLYDE_EXIT_USAGE = 1,
	CLYDE_EXIT_DIR = 2,
	CLYDE_EXIT_IO = 3,
	CLYDE_EXIT_ENGINE = 4,
	CLYDE_EXIT_SIGNAL = 5,
	CLYDE_EXIT_VERIFY = 6,
	CLYDE_EXIT_AGE_NOSPACE = 7,	/* --age ran out of space (ENOSPC, EDQUOT) */
	CLYDE_EXIT_UNSATURATED = 8,	/* an --open-loop=sweep never reached its knee */
};

/* The phases (core/phase_list.h): what each is, and its place in the CSV, its row says. */
#define PHASE_ID(id, ...) id,
enum phase_id {
	PHASE_LIST(PHASE_ID)
	/*
	 * A test program's own phase, given to phase_register; in clyde an
	 * empty row (KIND_NONE) that never runs and no output names.
	 */
	PH_TEST,
	PH_COUNT,
};
#undef PHASE_ID


/* bonnie++'s defaults. */
#define DEFAULT_CHUNK		8192u
#define DEFAULT_SEEKS		8192u
#define DEFAULT_SEEKERS		5u
#define DEFAULT_PERCHAR_BYTES	(3u << 20)
#define DEFAULT_FILES		16u
#define DEFAULT_FILE_CHUNK	8192u
#define FILES_UNIT		1024u
/* clyde's own: --tree's seed when --tree-seed does not say (the report leaves it out of keys). */
#define DEFAULT_TREE_SEED	1u
/* A phase shorter than this prints as +++++ (bonnie++'s MinTime). */
#define MIN_REPORT_SECONDS	0.5

const char *phase_name(enum phase_id id);
const char *phase_csv_name(enum phase_id id);

#endif
