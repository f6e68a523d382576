// SPDX-License-Identifier: BSD-2-Clause
/* clyde's context lines above the table: what ran, where, on what. */
#include "config.h"

#include <stdio.h>

#include "format.h"
#include "size.h"

void format_context(FILE *out, const struct run_result *r)
{
	const struct run_env *e = &r->env;
	char ram[32];

	fprintf(out, "clyde %s: engine %s%s (%s), cache %s (%s), per-char %s, seed %u\n",
		r->params.version, e->engine, e->direct ? " with O_DIRECT" : "", e->engine_desc,
		e->cache, e->cache_note, e->perchar_stdio ? "stdio" : "syscall",
		(unsigned)r->params.seed);
	size_human(ram, sizeof(ram), e->ram_bytes);
	if (e->fs_type[0])
		fprintf(out, "filesystem: %s %s on %s (%s); %u CPUs, %s RAM\n",
			e->fs_type, e->fs_source, e->fs_mountpoint, e->fs_options,
			e->cpus, ram);
	else
		fprintf(out, "filesystem: unknown; %u CPUs, %s RAM\n", e->cpus, ram);
	fprintf(out, "environment: %s %s %s; CPU %s", e->os, e->kernel, e->arch,
		e->cpu_model[0] ? e->cpu_model : "unknown");
	if (e->blockdev[0]) {
		fprintf(out, "; device %s", e->blockdev);
		if (e->rotational >= 0)
			fprintf(out, " %s", e->rotational ? "rotational" : "non-rotational");
		if (e->scheduler[0])
			fprintf(out, ", scheduler %s", e->scheduler);
		if (e->read_ahead_kb >= 0)
			fprintf(out, ", read-ahead %d KiB", e->read_ahead_kb);
	} else {
		fputs("; no block device", out);
	}
	fputc('\n', out);
}
