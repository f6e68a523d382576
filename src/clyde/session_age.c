// SPDX-License-Identifier: BSD-2-Clause
/*
 * --age in the session: planned once the run plan is (so the phases'
 * files are reserved), done once before the first run, removed after the
 * last one, whatever happened.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "age/age.h"
#include "cluster/cluster.h"
#include "clyde/session.h"
#include "core/clyde.h"
#include "lib/size.h"
#include "sys/extents.h"

/* Files of the aging sampled for their extents at each point: the first by name. */
#define AGE_SAMPLE_FILES 512u

/*
 * Fragmentation at aging's two points: after the fill (its files written
 * into the free space as it was before aging: "fresh", whose free space
 * age_begin measured before aging began) and after the churn ("aged":
 * the free space and the files then).
 */
static void age_sample_point(void *ctx, int age_dir_fd, enum age_point point)
{
	struct session *s = ctx;

	if (point == AGE_POINT_FRESH) {
		extent_figures_init(&s->age_fresh.small_files);
		extents_sample_dir(age_dir_fd, AGE_SAMPLE_FILES, &s->age_fresh.small_files);
		return;
	}
	frag_state_measure(age_dir_fd, age_dir_fd, AGE_SAMPLE_FILES, &s->age_aged);
}

/* The free space of -d's file system before aging writes anything. */
static void age_measure_before(struct session *s)
{
	int dirfd = open(s->opt.dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	memset(&s->age_fresh, 0, sizeof(s->age_fresh));
	memset(&s->age_aged, 0, sizeof(s->age_aged));
	if (dirfd < 0)
		return;
	frag_state_measure(dirfd, -1, 0, &s->age_fresh);
	close(dirfd);
}

int age_prepare(struct session *s, char *err, size_t errlen)
{
	struct clyde_options *o = &s->opt;
	const struct run_plan *p = &s->plan;
	uint64_t file, reserve, later;
	int ret;

	if (!o->age.on) {
		if (!o->age_extra_given)
			return 0;
		snprintf(err, errlen, "--age-size, --age-time, --age-log and --age-only want --age");
		return CLYDE_EXIT_USAGE;
	}
	if (cluster_active()) {
		snprintf(err, errlen, "--age: not under mpirun (each rank would age the same "
			 "file system)");
		return CLYDE_EXIT_USAGE;
	}
	/* the big files stand at the block read; the file tests' come after it */
	file = p->steady_file_bytes > p->file_bytes ? p->steady_file_bytes : p->file_bytes;
	/*
	 * --age-only too: the runs that follow on the aged file system (a
	 * copy of it, clyde-fsmatrix's) find it FULL% full at their block
	 * read when it was aged with their -s, -n and -c
	 */
	reserve = file * p->workers;
	later = plan_space_bytes(p) - reserve;
	ret = age_plan_make(o->dir, &o->age, s->first_seed, reserve, later, s->cal.write_bps,
			    s->cal.create_s, &s->age_plan, err, errlen);
	if (ret)
		return ret == -EINVAL ? CLYDE_EXIT_USAGE : CLYDE_EXIT_DIR;
	return 0;
}

void age_plan_print(FILE *out, const struct session *s)
{
	const struct age_plan *a = &s->age_plan;
	const struct age_spec *sp = &s->opt.age;
	char cap[32], fill[32], churn[32], total[32];

	if (!sp->on)
		return;
	size_human(cap, sizeof(cap), a->start.capacity);
	size_human(fill, sizeof(fill), a->fill_bytes);
	size_human(churn, sizeof(churn), a->churn_bytes);
	size_human(total, sizeof(total), a->fill_bytes + a->churn_bytes);
	fprintf(out, "age: %g%% of %s, churn %gx, profile %s, seed %" PRIu64 "; fill %" PRIu64
		" bytes (%s) in %" PRIu64 " files, churn %" PRIu64 " bytes (%s) in %" PRIu64
		" files with %" PRIu64 " deletes; total %" PRIu64 " bytes (%s); ",
		sp->full_pct, cap, sp->churn, sp->profile.name, a->seed, a->fill_bytes, fill,
		a->fill_files, a->churn_bytes, churn, a->churn_files, a->deletes,
		a->fill_bytes + a->churn_bytes, total);
	/* the operations follow the seed: a plan without -z drew one the run will not */
	if (!s->opt.seed_given && !s->opt.seed_file)
		fprintf(out, "the run draws its own seed: give -z %" PRIu64 " for these operations; ",
			a->seed);
	if (a->estimate_s > 0)
		fprintf(out, "estimate %.0f s (the calibration's write rate and file cost)\n",
			a->estimate_s);
	else
		fprintf(out, "no estimate (the write rate was not calibrated: -s given)\n");
}

static void age_summary(struct session *s, const struct age_outcome *out)
{
	struct run_age *r = &s->age_result;
	const struct age_spec *sp = &s->opt.age;
	char cap[32], written[32];

	memset(r, 0, sizeof(*r));
	r->on = true;
	snprintf(r->spec, sizeof(r->spec), "%g:%g:%s", sp->full_pct, sp->churn,
		 sp->profile.name);
	snprintf(r->profile, sizeof(r->profile), "%s", sp->profile.name);
	r->target_pct = sp->full_pct;
	r->churn = sp->churn;
	r->churn_done = out->churn_done;
	r->seed = s->age_plan.seed;
	r->capacity_bytes = s->age_plan.start.capacity;
	r->fill_before_pct = out->fill_before_pct;
	r->fill_aged_pct = out->fill_aged_pct;
	r->written_bytes = out->written_bytes;
	r->correction_bytes = out->correction_bytes;
	r->files_written = out->files_written;
	r->files_deleted = out->files_deleted;
	r->live_files = out->live_files;
	r->live_bytes = out->live_bytes;
	r->seconds = out->seconds;
	r->time_box_hit = out->time_box_hit;
	if (sp->keep)
		snprintf(r->kept_dir, sizeof(r->kept_dir), "%s", out->dir);
	size_human(cap, sizeof(cap), r->capacity_bytes);
	size_human(written, sizeof(written), r->written_bytes);
	fprintf(stderr, "Aged: %g%% of %s, churn %.2fx of %gx%s (%s, seed %" PRIu64 "): %s "
		"written (%" PRIu64 " files, %" PRIu64 " deleted, %" PRIu64 " bytes by the "
		"correction) in %.1f s; fill %.1f%% before, %.1f%% aged\n", sp->full_pct, cap,
		r->churn_done, sp->churn, r->time_box_hit ? ", cut by --age-time" : "",
		r->profile, r->seed, written, r->files_written, r->files_deleted,
		r->correction_bytes, r->seconds, r->fill_before_pct, r->fill_aged_pct);
}

int age_begin(struct session *s, char *msg, size_t len)
{
	struct age_outcome out;
	int ret;

	if (!s->opt.age.on)
		return 0;
	age_measure_before(s);
	ret = age_run(s->opt.dir, &s->opt.age, &s->age_plan, age_sample_point, s, &s->age, &out,
		      msg, len);
	if (ret) {
		fprintf(stderr, "clyde: %s; the aging directory %s removed\n", msg,
			out.dir[0] ? out.dir : "was not made, nothing");
		if (ret == -EINTR)
			return CLYDE_EXIT_SIGNAL;
		if (ret == -ENOSPC || ret == -EDQUOT)
			return CLYDE_EXIT_AGE_NOSPACE;
		return CLYDE_EXIT_IO;
	}
	age_summary(s, &out);
	if (s->opt.age.keep) {
		fprintf(stderr, "clyde: --age-only: kept %s\n", out.dir);
		age_keep(s->age);
		s->age = NULL;
	}
	return 0;
}

int age_end(struct session *s)
{
	int ret = age_remove(s->age);

	s->age = NULL;
	return ret ? CLYDE_EXIT_IO : 0;
}
