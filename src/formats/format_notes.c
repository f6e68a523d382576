// SPDX-License-Identifier: BSD-2-Clause
/*
 * A run's notes on stderr, walked with the formats (format_registry.c
 * says when each applies): a drop that did not empty the page cache,
 * --verify's mismatches.
 */
#include "config.h"

#include <string.h>

#include "formats/format.h"

void format_cache_warning(FILE *out, const struct run_result *runs, unsigned count,
			  const struct format_request *req)
{
	const struct run_env *e = &runs->env;

	(void)count;
	fprintf(out, "clyde: WARNING: --cache=%s did not empty the page cache: up to %.1f%% "
		"of %s was resident before a read phase (%s on %s); the read "
		"figures of this run are page-cache figures\n", e->cache, e->resident_worst,
		e->resident_worst_tree ? "the tree's data" :
		!strcmp(e->resident_worst_what, "the file") ? "the test file" : e->resident_worst_what,
		e->fs_type[0] ? e->fs_type : "unknown filesystem", req->dir);
}

void format_verify_note(FILE *out, const struct run_result *runs, unsigned count,
			const struct format_request *req)
{
	(void)count;
	fprintf(out, "clyde: verify: %llu mismatches in run %u\n",
		(unsigned long long)runs->mismatches, req->run + 1);
}
