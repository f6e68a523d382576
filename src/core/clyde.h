/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef CLYDE_H
#define CLYDE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Exit status, documented in clyde(1) under EXIT STATUS. */
enum clyde_exit {
	CLYDE_EXIT_OK = 0,
	CLYDE_EXIT_USAGE = 1,
	CLYDE_EXIT_DIR = 2,
	CLYDE_EXIT_IO = 3,
	CLYDE_EXIT_ENGINE = 4,
	CLYDE_EXIT_SIGNAL = 5,
	CLYDE_EXIT_VERIFY = 6,
};

/* The phases, in bonnie++'s order; the CSV and table follow this order. */
enum phase_id {
	PH_PUTC,
	PH_PUT_BLOCK,
	PH_REWRITE,
	PH_GETC,
	PH_GET_BLOCK,
	PH_SEEKS,
	PH_SEQ_CREATE,
	PH_SEQ_STAT,
	PH_SEQ_DEL,
	PH_RAN_CREATE,
	PH_RAN_STAT,
	PH_RAN_DEL,
	/* clyde's own: the tree workloads (--tree), after bonnie++'s twelve */
	PH_TREE_EXTRACT,
	PH_TREE_COPY,
	PH_TREE_WALK,
	PH_TREE_READ,
	PH_TREE_DELETE,
	PH_COUNT,
};

#define PH_FIRST_FILE PH_SEQ_CREATE
#define PH_FIRST_TREE PH_TREE_EXTRACT
/* bonnie++'s phases: the CSV, its table and its readers stop here. */
#define PH_BONNIE_COUNT PH_FIRST_TREE

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
