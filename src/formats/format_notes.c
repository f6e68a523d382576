// SPDX-License-Identifier: BSD-2-Clause
/*
 * A run's notes on stderr, walked with the formats (format_registry.c
 * says when each applies): a drop that did not empty the page cache, a
 * loop device that caches its backing file, seeks no rotational device
 * reaches, random data on a compressing file system, --verify's
 * mismatches.
 */
#include "config.h"

#include <string.h>

#include "formats/format.h"
#include "lib/size.h"

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

void format_loop_warning(FILE *out, const struct run_result *runs, unsigned count,
			 const struct format_request *req)
{
	const struct run_env *e = &runs->env;
	char bytes[32] = "";

	(void)count;
	(void)req;
	if (e->loop_backing_measured && e->loop_backing_worst >= 0)
		size_human(bytes, sizeof(bytes), e->loop_backing_worst_bytes);
	/* no comma: consumers that read 2>&1 take a line with one for CSV */
	fprintf(out, "clyde: WARNING: %s is a loop device without direct I/O: the pages of its "
		"backing file %s sit in the page cache below the loop where the drop of the "
		"test file does not reach; the read figures may be cache figures%s%s%s. "
		"For reads from the disk: losetup --direct-io=on /dev/%s (after mount -o loop: "
		"on the loop device it made)\n", e->blockdev, e->loop_backing,
		bytes[0] ? " (up to " : "", bytes, bytes[0] ? " of it resident before a read)" : "",
		e->blockdev);
}

void format_cache_below_note(FILE *out, const struct run_result *runs, unsigned count,
			     const struct format_request *req)
{
	const struct run_env *e = &runs->env;

	(void)count;
	(void)req;
	/* no comma: consumers that read 2>&1 take a line with one for CSV */
	if (e->seeks_beyond_rotational > 0)
		fprintf(out, "clyde: note: seeks at %.0f/s on %s which says it is rotational: no "
			"rotational device seeks faster than about %.0f/s. A cache below clyde "
			"answered them (likely a hypervisor's page cache on the host or a "
			"controller's) and the read figures may be that cache's\n",
			e->seeks_beyond_rotational, e->blockdev, ROTATIONAL_SEEKS_MAX);
	if (e->reads_beyond_rotational > 0)
		fprintf(out, "clyde: note: block reads at %.0f MiB/s of a file clyde found uncached "
			"on %s which says it is rotational: no rotational disk streams faster than "
			"about %.0f MiB/s. A cache below clyde served them (likely a hypervisor's "
			"page cache on the host or a controller's)\n",
			e->reads_beyond_rotational / 1024, e->blockdev, ROTATIONAL_READ_MAX_KIBS / 1024);
}

/*
 * Where the data is random and the file system's options (the mount's or
 * its own) name a compression ("compress=zstd:3", btrfs's
 * "compress-force=", f2fs's "compress_algorithm="): true, and the option
 * in buf.
 */
bool format_compress_option(const struct run_env *e, char *buf, size_t len)
{
	const char *const lists[] = { e->fs_super_options, e->fs_options };

	if (strcmp(e->data, "random"))
		return false;
	for (size_t i = 0; i < sizeof(lists) / sizeof(lists[0]); i++) {
		const char *at = strstr(lists[i], "compress"), *start, *end;

		if (!at)
			continue;
		for (start = at; start > lists[i] && start[-1] != ' ' && start[-1] != ','; start--)
			;
		end = start + strcspn(start, " ,");
		if (buf && len)
			snprintf(buf, len, "%.*s", (int)(end - start), start);
		return true;
	}
	return false;
}

void format_compression_note(FILE *out, const struct run_result *runs, unsigned count,
			     const struct format_request *req)
{
	char option[64] = "";

	(void)count;
	(void)req;
	format_compress_option(&runs->env, option, sizeof(option));
	/* no comma: consumers that read 2>&1 take a line with one for CSV */
	fprintf(out, "clyde: note: the file system compresses (%s) and clyde's data is random "
		"(--data=random: the default) which no compressor shrinks: the figures are "
		"incompressible data's and show little of the compressor's cost on data that "
		"shrinks. For that: --data=compressible:P (P percent zeros) or --data=zero\n",
		option);
}

void format_verify_note(FILE *out, const struct run_result *runs, unsigned count,
			const struct format_request *req)
{
	(void)count;
	fprintf(out, "clyde: verify: %llu mismatches in run %u\n",
		(unsigned long long)runs->mismatches, req->run + 1);
}
