// SPDX-License-Identifier: BSD-2-Clause
/*
 * One run: the phases in bonnie++'s order, each on every worker at once,
 * timed from the first worker's start to the last one's end, with the
 * CPU of the whole process over the same span.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bench.h"
#include "cache.h"
#include "compat.h"
#include "semsync.h"
#include "signals.h"
#include "timing.h"

struct phase_desc {
	enum phase_id id;
	phase_fn fn;
	const char *progress;
	bool io_file;		/* touches the big file: drop its cache after */
};

static const struct phase_desc phases[PH_COUNT] = {
	{ PH_PUTC, phase_putc, "Writing a byte at a time", true },
	{ PH_PUT_BLOCK, phase_put_block, "Writing intelligently", true },
	{ PH_REWRITE, phase_rewrite, "Rewriting", true },
	{ PH_GETC, phase_getc, "Reading a byte at a time", true },
	{ PH_GET_BLOCK, phase_get_block, "Reading intelligently", true },
	{ PH_SEEKS, phase_seeks, "Random seeks", true },
	{ PH_SEQ_CREATE, phase_seq_create, "Create files in sequential order", false },
	{ PH_SEQ_STAT, phase_seq_stat, "Stat files in sequential order", false },
	{ PH_SEQ_DEL, phase_seq_del, "Delete files in sequential order", false },
	{ PH_RAN_CREATE, phase_ran_create, "Create files in random order", false },
	{ PH_RAN_STAT, phase_ran_stat, "Stat files in random order", false },
	{ PH_RAN_DEL, phase_ran_del, "Delete files in random order", false },
};

int sample_fail(struct phase_sample *s, enum phase_id id, int err, const char *fmt, ...)
{
	char what[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	if (!s->err) {
		s->err = err;
		if (err == -EINTR)
			snprintf(s->msg, sizeof(s->msg), "%s: stopped by a signal", phase_name(id));
		else
			snprintf(s->msg, sizeof(s->msg), "%s: %s: %s", phase_name(id), what, strerror(-err));
	}
	return err;
}

int io_open_flags(const struct bench *b, int access)
{
	int flags = access | O_NOFOLLOW | O_CLOEXEC;

	if (b->opt->direct)
		flags |= O_DIRECT;
	return flags;
}

/*
 * Tests stop here to send a signal or fill the disk at a known point: the
 * pause lasts until a stop signal, or until the file CLYDE_TEST_RESUME
 * names exists.
 */
void test_pause_point(enum phase_id id)
{
	const char *want = getenv("CLYDE_TEST_PAUSE");
	const char *resume = getenv("CLYDE_TEST_RESUME");

	if (!want || strcmp(want, phase_csv_name(id)))
		return;
	fprintf(stderr, "clyde: test pause in %s\n", phase_csv_name(id));
	fflush(stderr);
	while (!clyde_stop_requested() && !(resume && !access(resume, F_OK)))
		usleep(10000);
}

void sample_merge(struct phase_sample *total, const struct phase_sample *s)
{
	if (s->err && !total->err) {
		total->err = s->err;
		memcpy(total->msg, s->msg, sizeof(total->msg));
	}
	if (!total->start_ns || s->start_ns < total->start_ns)
		total->start_ns = s->start_ns;
	if (s->end_ns > total->end_ns)
		total->end_ns = s->end_ns;
	if (s->flush_ns > total->flush_ns)
		total->flush_ns = s->flush_ns;
	hist_merge(&total->hist, &s->hist);
	total->mismatches += s->mismatches;
	total->amount += s->amount;
}

/* Name at most this many mismatches on stderr; all of them are counted. */
#define MISMATCH_REPORTS 10

void verify_mismatch(struct phase_sample *s, enum phase_id id, const char *path, uint64_t off)
{
	static atomic_uint reported;

	s->mismatches++;
	if (atomic_fetch_add(&reported, 1) < MISMATCH_REPORTS)
		fprintf(stderr, "clyde: verify: %s: %s: data differ at offset %llu\n",
			phase_name(id), path, (unsigned long long)off);
}

struct worker_job {
	struct worker *w;
	phase_fn fn;
	struct phase_sample sample;
};

static void *worker_main(void *arg)
{
	struct worker_job *job = arg;

	job->fn(job->w, &job->sample);
	return NULL;
}

/* Run fn on every worker at once; the first failure wins. */
static int run_workers(struct worker *workers, unsigned n, phase_fn fn,
		       struct phase_sample *total)
{
	struct worker_job *jobs = calloc(n, sizeof(*jobs));
	pthread_t *threads = calloc(n, sizeof(*threads));
	unsigned started = 0;
	int ret = 0;

	if (!jobs || !threads) {
		ret = -ENOMEM;
		goto out_free;
	}
	for (unsigned i = 0; i < n; i++) {
		jobs[i].w = &workers[i];
		jobs[i].fn = fn;
	}
	if (n == 1) {
		worker_main(&jobs[0]);
		started = 1;
	} else {
		for (; started < n; started++) {
			ret = -pthread_create(&threads[started], NULL, worker_main, &jobs[started]);
			if (ret)
				break;
		}
		for (unsigned i = 0; i < started; i++)
			pthread_join(threads[i], NULL);
	}
	memset(total, 0, sizeof(*total));
	for (unsigned i = 0; i < started; i++)
		sample_merge(total, &jobs[i].sample);
	if (ret && !total->err) {
		total->err = ret;
		snprintf(total->msg, sizeof(total->msg), "cannot start a worker thread: %s",
			 strerror(-ret));
	}
out_free:
	free(threads);
	free(jobs);
	return ret ? ret : total->err;
}

/* Operations a phase times, all workers together: for the progress line. */
static uint64_t phase_ops(const struct bench *b, enum phase_id id)
{
	uint64_t per;

	if (id == PH_PUTC || id == PH_GETC)
		per = (b->perchar_bytes + b->opt->chunk - 1) / b->opt->chunk;
	else if (id < PH_SEEKS)
		per = b->file_bytes / b->opt->chunk;
	else if (id == PH_SEEKS)
		per = b->opt->seeks;
	else
		per = (uint64_t)b->opt->files * FILES_UNIT;
	return per * b->workers;
}

static uint64_t phase_op_bytes(const struct bench *b, enum phase_id id)
{
	return id < PH_SEEKS ? b->opt->chunk : 0;
}

static bool phase_wanted(const struct bench *b, enum phase_id id)
{
	if (id == PH_PUTC || id == PH_GETC)
		return b->file_bytes && b->perchar_bytes;
	if (id < PH_FIRST_FILE)
		return b->file_bytes != 0;
	return b->opt->files != 0;
}

static int phase_sync(const struct bench *b, unsigned index, enum phase_id id,
		      char *err, size_t errlen)
{
	switch (b->opt->sync) {
	case SYNC_SEMAPHORE:
		return semsync_wait(index, err, errlen);
	case SYNC_PROMPT:
		return prompt_wait(phase_name(id), err, errlen);
	default:
		return 0;
	}
}

static int setup_workers(struct bench *b, struct worker *workers)
{
	for (unsigned i = 0; i < b->workers; i++) {
		struct worker *w = &workers[i];

		w->b = b;
		w->index = i;
		snprintf(w->io_path, sizeof(w->io_path), "%s/io.%u", b->workdir, i);
		snprintf(w->files_dir, sizeof(w->files_dir), "%s/files.%u", b->workdir, i);
	}
	return 0;
}

static void drop_io_cache(struct bench *b, struct worker *workers)
{
	for (unsigned i = 0; i < b->workers; i++) {
		int ret = cache_drop_file(workers[i].io_path);

		if (ret && ret != -ENOENT)
			fprintf(stderr, "clyde: warning: cannot drop the cache of %s: %s\n",
				workers[i].io_path, strerror(-ret));
	}
}

static void drop_caches_after(struct bench *b, struct worker *workers,
			      const struct phase_desc *d)
{
	int ret;

	switch (b->opt->cache) {
	case CACHE_DROP:
	case CACHE_UNCACHED:
		if (d->io_file)
			drop_io_cache(b, workers);
		break;
	case CACHE_SYSTEM:
		ret = cache_drop_system();
		if (ret)
			fprintf(stderr, "clyde: warning: drop_caches failed: %s\n", strerror(-ret));
		break;
	default:
		break;
	}
}

int bench_run(struct bench *b, struct run_result *res)
{
	struct worker *workers = calloc(b->workers, sizeof(*workers));
	int ret = 0;

	if (!workers) {
		snprintf(b->errmsg, sizeof(b->errmsg), "out of memory");
		return -ENOMEM;
	}
	setup_workers(b, workers);
	for (size_t i = 0; i < PH_COUNT; i++) {
		const struct phase_desc *d = &phases[i];
		struct phase_result *pr = &res->phase[d->id];
		struct cpu_sample c0, c1;
		struct phase_sample total;
		uint64_t w0, w1;

		if (!phase_wanted(b, d->id))
			continue;
		ret = phase_sync(b, (*b->sync_count)++, d->id, b->errmsg, sizeof(b->errmsg));
		if (ret)
			break;
		if (progress_live) {
			progress_begin(d->progress, phase_ops(b, d->id), phase_op_bytes(b, d->id));
		} else if (!b->opt->quiet) {
			fprintf(stderr, "%s...", d->progress);
			fflush(stderr);
		}
		w0 = now_ns();
		cpu_sample_take(&c0);
		ret = run_workers(workers, b->workers, d->fn, &total);
		cpu_sample_take(&c1);
		w1 = now_ns();
		if (progress_live)
			progress_end(ret ? "failed" : "done");
		else if (!b->opt->quiet)
			fprintf(stderr, ret ? "failed\n" : "done\n");
		if (ret) {
			if (ret == -EINTR || clyde_stop_requested()) {
				ret = -EINTR;
				snprintf(b->errmsg, sizeof(b->errmsg), "%s: stopped by signal %d",
					 phase_name(d->id), clyde_stop_signal());
			} else {
				snprintf(b->errmsg, sizeof(b->errmsg), "%s", total.msg);
			}
			break;
		}
		pr->ran = true;
		pr->elapsed = (double)(total.end_ns - total.start_ns) / 1e9;
		pr->cpu_user = c1.user - c0.user;
		pr->cpu_sys = c1.sys - c0.sys;
		pr->cpu_window = (double)(w1 - w0) / 1e9;
		pr->max_latency = (double)total.hist.max / 1e9;
		pr->latency_count = total.hist.count;
		for (int q = 0; q < LAT_QUANTILES; q++)
			pr->latency_q[q] = (double)hist_quantile(&total.hist, latency_quantiles[q]) / 1e9;
		pr->flush = (double)total.flush_ns / 1e9;
		pr->mismatches = total.mismatches;
		res->mismatches += total.mismatches;
		pr->amount = total.amount;
		drop_caches_after(b, workers, d);
		if (clyde_stop_requested()) {
			ret = -EINTR;
			snprintf(b->errmsg, sizeof(b->errmsg), "stopped by signal %d after %s",
				 clyde_stop_signal(), phase_name(d->id));
			break;
		}
	}
	for (unsigned i = 0; i < b->workers; i++)
		file_set_free(workers[i].files);
	free(workers);
	return ret;
}
