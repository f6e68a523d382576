// SPDX-License-Identifier: BSD-2-Clause
/*
 * clyde's context lines, on stderr: what ran, where, on what, and what the
 * cache really was. They carry no commas: consumers that read stdout and
 * stderr together (2>&1) take any line with a comma for a CSV line.
 */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>

#include "core/phase.h"
#include "formats/format.h"
#include "lib/size.h"

/*
 * The phases a time box or --stonewall stopped, and what that left: the
 * size and the file count the table and the CSV line give (a phase whose
 * cut sets its family's amount, as runner.c's label_cut).
 */
static void format_context_cuts(FILE *out, const struct run_result *r)
{
	const char *sep = "cut at their time limits:";

	for (int i = 0; i < PH_COUNT; i++) {
		if (!r->phase[i].ran || !r->phase[i].limit_cut)
			continue;
		fprintf(out, "%s %s", sep, phase_csv_name((enum phase_id)i));
		sep = "";
	}
	if (*sep)
		return;
	for (int i = 0; i < PH_COUNT; i++) {
		const struct phase_def *d = phase_get((enum phase_id)i);

		if (!(d->flags & PF_CUT_SETS_AMOUNT) || !r->phase[i].limit_cut)
			continue;
		switch (phase_family((enum phase_id)i)->amount) {
		case AMOUNT_SIZE:
			fprintf(out, "; the file tested: %" PRIu64 " MiB",
				r->params.file_bytes >> 20);
			break;
		case AMOUNT_FILES:
			fprintf(out, "; the files tested: %" PRIu32 " x 1024", r->params.files);
			break;
		default:
			break;
		}
	}
	fputc('\n', out);
}

/* A loop device: its backing file, its direct I/O and, without, what of the file was cached. */
static void format_context_loop(FILE *out, const struct run_env *e)
{
	char bytes[32];

	if (!e->loop_backing[0])
		return;
	fprintf(out, "; loop over %s with direct I/O %s", e->loop_backing,
		e->loop_dio < 0 ? "unknown" : e->loop_dio ? "on" : "off");
	if (e->loop_dio)
		return;
	if (!e->loop_backing_measured)
		return;
	if (e->loop_backing_worst < 0) {
		fputs(": its residency unknown", out);
	} else {
		size_human(bytes, sizeof(bytes), e->loop_backing_worst_bytes);
		fprintf(out, ": up to %s (%.1f%%) of it resident before reads", bytes,
			e->loop_backing_worst);
	}
}

/*
 * "Fragmentation: test file 1.0 GiB in 37 extents (0.04 per MiB; largest
 * run 512 MiB; FIEMAP); free space 12 pieces (largest 300 MiB; GETFSMAP)",
 * with what was not measured and why; the aged state's free space when
 * the run aged. No comma: a context line is never taken for CSV. Nothing
 * where nothing could be measured (tmpfs): the JSON says why.
 */
static void format_context_frag(FILE *out, const struct run_fragmentation *f)
{
	const struct extent_figures *t = &f->test_file;
	const struct frag_state *st = f->aged.present ? &f->aged : &f->fresh;
	const struct free_space_figures *fs = &st->free_space;
	const char *sep = " ";
	char a[32], b[32];

	if (!t->measured && !fs->measured)
		return;
	fputs("Fragmentation:", out);
	if (t->measured) {
		size_human(a, sizeof(a), t->bytes);
		size_human(b, sizeof(b), t->largest_run);
		fprintf(out, " test file %s in %llu extents (%.2f per MiB; largest run %s; %s)",
			a, (unsigned long long)t->extents,
			t->bytes ? (double)t->extents * 1048576.0 / (double)t->bytes : 0.0, b,
			t->method);
		sep = "; ";
	} else if (t->why[0]) {
		fprintf(out, " test file not measured: %s", t->why);
		sep = "; ";
	}
	if (fs->measured) {
		size_human(a, sizeof(a), fs->largest);
		fprintf(out, "%s%sfree space %llu pieces (largest %s; %s)", sep,
			f->aged.present ? "aged " : "", (unsigned long long)fs->pieces, a,
			fs->method);
	} else if (st->present) {
		fprintf(out, "%sfree space not measured: %s", sep, fs->why);
	}
	fputc('\n', out);
}

void format_context(FILE *out, const struct run_result *r)
{
	const struct run_env *e = &r->env;
	char ram[32];

	fprintf(out, "clyde %s: engine %s%s (%s); cache %s (%s): %s; per-char %s; seed %u\n",
		r->params.version, e->engine, e->direct ? " with O_DIRECT" : "", e->engine_desc,
		e->cache, e->cache_note, e->cache_outcome, e->perchar_stdio ? "stdio" : "syscall",
		(unsigned)r->params.seed);
	if (e->size_note[0] || e->seeks_timed || e->files_calibrated) {
		const char *sep = "counts: ";

		if (e->size_note[0]) {
			fprintf(out, "%s%s", sep, e->size_note);
			sep = "; ";
		}
		if (e->seeks_timed) {
			/* the phase's rule (-s's help): a slow device takes far longer */
			fprintf(out, "%s%u seeks: at least %u and on to a second (no count given)",
				sep, r->params.seeks, DEFAULT_SEEKS);
			sep = "; ";
		}
		if (e->files_calibrated)
			fprintf(out, "%s%s", sep, e->files_note);
		fputc('\n', out);
	}
	format_context_cuts(out, r);
	size_human(ram, sizeof(ram), e->ram_bytes);
	/* the mount's options, then the filesystem's own where the OS reports them */
	if (e->fs_type[0])
		fprintf(out, "filesystem: %s %s on %s (%s%s%s); %u CPUs; %s RAM\n",
			e->fs_type, e->fs_source, e->fs_mountpoint, e->fs_options,
			e->fs_super_options[0] ? "; super " : "", e->fs_super_options,
			e->cpus, ram);
	else
		fprintf(out, "filesystem: unknown; %u CPUs; %s RAM\n", e->cpus, ram);
	fprintf(out, "environment: %s %s %s; CPU %s", e->os, e->kernel, e->arch,
		e->cpu_model[0] ? e->cpu_model : "unknown");
	if (e->blockdev[0]) {
		fprintf(out, "; device %s", e->blockdev);
		if (e->driver[0])
			fprintf(out, " driver %s", e->driver);
		if (e->rotational >= 0)
			fprintf(out, " %s", e->rotational ? "rotational" : "non-rotational");
		if (e->scheduler[0])
			fprintf(out, "; scheduler %s", e->scheduler);
		if (e->read_ahead_kb >= 0)
			fprintf(out, "; read-ahead %d KiB", e->read_ahead_kb);
		format_context_loop(out, e);
	} else {
		fputs("; no block device", out);
	}
	fputc('\n', out);
	format_context_frag(out, &r->frag);
}
