// SPDX-License-Identifier: BSD-2-Clause
/*
 * What every phase shares: the clock that starts the timed part on all
 * workers at once, failure messages, merging workers' samples, --verify
 * reports and the tests' pause point.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/signals.h"
#include "lib/timing.h"
#include "phases/bench.h"
#include "phases/phase_clock.h"
#include "phases/series_sampler.h"
#include "placement/placement.h"
#include "sys/compat.h"

void phase_clock_init(struct phase_clock *c, unsigned workers, struct prof_sampler *profiler)
{
	memset(c, 0, sizeof(*c));
	c->profiler = profiler;
	pthread_mutex_init(&c->lock, NULL);
	pthread_cond_init(&c->go, NULL);
	c->workers = workers;
}

void phase_clock_destroy(struct phase_clock *c)
{
	prof_snapshot_free(&c->prof0);
	prof_snapshot_free(&c->prof1);
	pthread_cond_destroy(&c->go);
	pthread_mutex_destroy(&c->lock);
}

/* A series of its own for a thread that records, allocated before its timed part. */
static void series_prepare(struct phase_sample *s, const struct run_plan *p)
{
	if (p->series_ns < 0 || s->series)
		return;
	s->series = series_new(0, (uint64_t)p->series_ns, false);
	if (!s->series)
		s->series_lost = true;
}

void sample_series_begin(struct phase_sample *s, const struct run_plan *p, uint64_t origin_ns)
{
	series_prepare(s, p);
	if (s->series)
		series_start(s->series, origin_ns);
}

void sample_start(struct worker *w, struct phase_sample *s)
{
	struct phase_clock *c = w->b->clock;

	if (s->clock_state)
		return;
	series_prepare(s, w->b->plan);
	pthread_mutex_lock(&c->lock);
	if (++c->started == c->workers) {
		/* The last worker ready starts everyone's clock and the CPU's. */
		if (c->profiler) {
			prof_snapshot_take(c->profiler, &c->prof0, true);
			prof_stacks_start(c->profiler);
		}
		if (c->sampler)
			series_sampler_prepare(c->sampler);
		cpu_sample_take(&c->cpu0);
		c->t0 = now_ns();
		if (c->sampler)
			series_sampler_begin(c->sampler, c->t0, &c->cpu0);
		c->open = true;
		pthread_cond_broadcast(&c->go);
	}
	while (!c->open)
		pthread_cond_wait(&c->go, &c->lock);
	s->start_ns = c->t0;
	s->sampler = c->sampler;
	s->stacks = c->profiler && c->profiler->stacks ? c->profiler : NULL;
	pthread_mutex_unlock(&c->lock);
	if (s->series)
		series_start(s->series, s->start_ns);
	s->clock_state = 1;
	s->cpu_first = place_current_cpu();
	if (s->cpu_first >= 0)
		place_mask_set(&s->ran_on, (unsigned)s->cpu_first);
	s->cpu_mark = thread_cpu_seconds();
}

void sample_stop(struct worker *w, struct phase_sample *s)
{
	struct phase_clock *c = w->b->clock;

	if (s->clock_state != 1)
		return;
	s->end_ns = now_ns();
	s->cpu_s += thread_cpu_seconds() - s->cpu_mark;
	s->cpu_last = place_current_cpu();
	if (s->cpu_last >= 0)
		place_mask_set(&s->ran_on, (unsigned)s->cpu_last);
	pthread_mutex_lock(&c->lock);
	if (++c->stopped == c->workers) {
		cpu_sample_take(&c->cpu1);
		c->t1 = now_ns();
		if (c->profiler) {
			prof_stacks_stop(c->profiler);
			prof_snapshot_take(c->profiler, &c->prof1, false);
		}
	}
	pthread_mutex_unlock(&c->lock);
	s->clock_state = 2;
}

void sample_settle(struct worker *w, struct phase_sample *s)
{
	sample_start(w, s);
	sample_stop(w, s);
}

static int fail_v(struct phase_sample *s, enum phase_id id, int err, const char *fmt, va_list ap)
{
	char what[512];

	vsnprintf(what, sizeof(what), fmt, ap);
	if (!s->err) {
		s->err = err;
		if (err == -EINTR)
			snprintf(s->msg, sizeof(s->msg), "%s: stopped by a signal", phase_name(id));
		else
			snprintf(s->msg, sizeof(s->msg), "%s: %s: %s", phase_name(id), what, strerror(-err));
	}
	return err;
}

int sample_fail(struct phase_sample *s, enum phase_id id, int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	if (!s->err)
		s->err_offset = -1;
	err = fail_v(s, id, err, fmt, ap);
	va_end(ap);
	return err;
}

int sample_fail_at(struct phase_sample *s, enum phase_id id, int err, const char *dir,
		   const char *name, int64_t off, const char *fmt, ...)
{
	va_list ap;

	if (!s->err) {
		snprintf(s->err_path, sizeof(s->err_path), "%s%s%s", dir, name ? "/" : "",
			 name ? name : "");
		s->err_offset = off;
	}
	va_start(ap, fmt);
	err = fail_v(s, id, err, fmt, ap);
	va_end(ap);
	return err;
}

/* The workers' series add up on the phase's clock; one that could not be kept loses them all. */
static void sample_series_merge(struct phase_sample *total, const struct phase_sample *s)
{
	total->series_lost |= s->series_lost;
	if (!s->series || total->series_lost)
		return;
	if (!total->series) {
		total->series = series_new(s->series->origin_ns,
					   s->series->fixed ? s->series->width_ns : 0, false);
		if (!total->series) {
			total->series_lost = true;
			return;
		}
		total->series->fixed = s->series->fixed;
	}
	if (series_merge(total->series, s->series))
		total->series_lost = true;
}

void sample_merge(struct phase_sample *total, const struct phase_sample *s)
{
	if (s->err && !total->err) {
		total->err = s->err;
		memcpy(total->msg, s->msg, sizeof(total->msg));
		memcpy(total->err_path, s->err_path, sizeof(total->err_path));
		total->err_offset = s->err_offset;
	}
	if (!total->start_ns || s->start_ns < total->start_ns)
		total->start_ns = s->start_ns;
	if (s->end_ns > total->end_ns)
		total->end_ns = s->end_ns;
	if (s->flush_ns > total->flush_ns)
		total->flush_ns = s->flush_ns;
	hist_merge(&total->hist, &s->hist);
	timeline_merge(&total->done, &s->done);
	sample_series_merge(total, s);
	total->mismatches += s->mismatches;
	total->cpu_s += s->cpu_s;
	total->amount += s->amount;
	total->count += s->count;
	for (int i = 0; i < PLACE_MASK_WORDS; i++)
		total->ran_on.w[i] |= s->ran_on.w[i];
	if (s->passes > total->passes)
		total->passes = s->passes;
	if (s->tree)
		tree_sample_merge(total, s->tree);
}

void tree_sample_merge(struct phase_sample *total, const struct tree_sample *t)
{
	struct tree_sample *into = total->tree;

	if (!into) {
		into = total->tree = calloc(1, sizeof(*into));
		if (!into)
			return;
		memcpy(into->io_desc, t->io_desc, sizeof(into->io_desc));
		into->ring_kinds = t->ring_kinds;
	}
	for (int k = 0; k < TOP_KINDS; k++) {
		hist_merge(&into->op[k], &t->op[k]);
		into->via_ring[k] += t->via_ring[k];
	}
	hist_merge(&into->list, &t->list);
	into->files += t->files;
	into->dirs += t->dirs;
	into->entries += t->entries;
	into->bytes += t->bytes;
}

int io_open_flags(const struct bench *b, int access)
{
	int flags = access | O_NOFOLLOW | O_CLOEXEC;

	if (b->plan->direct)
		flags |= O_DIRECT;
	return flags;
}

/* Name at most this many mismatches on stderr; all of them are counted. */
#define MISMATCH_REPORTS 10

static atomic_uint mismatches_reported;

void verify_mismatch(struct phase_sample *s, enum phase_id id, const char *path, uint64_t off)
{
	s->mismatches++;
	if (atomic_fetch_add(&mismatches_reported, 1) < MISMATCH_REPORTS)
		fprintf(stderr, "clyde: verify: %s: %s: data differ at offset %llu\n",
			phase_name(id), path, (unsigned long long)off);
}

void verify_size_mismatch(struct phase_sample *s, enum phase_id id, const char *path,
			  uint64_t size, uint64_t expected)
{
	s->mismatches++;
	if (atomic_fetch_add(&mismatches_reported, 1) < MISMATCH_REPORTS)
		fprintf(stderr, "clyde: verify: %s: %s: size %llu, written %llu\n",
			phase_name(id), path, (unsigned long long)size,
			(unsigned long long)expected);
}

void test_pause_point(enum phase_id id)
{
	test_pause_named(phase_csv_name(id));
}

void test_pause_before(enum phase_id id)
{
	char name[64];

	snprintf(name, sizeof(name), "before-%s", phase_csv_name(id));
	test_pause_named(name);
}

void test_pause_after(enum phase_id id)
{
	char name[64];

	snprintf(name, sizeof(name), "after-%s", phase_csv_name(id));
	test_pause_named(name);
}
