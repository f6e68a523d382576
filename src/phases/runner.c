// SPDX-License-Identifier: BSD-2-Clause
/*
 * One run: the phases of the registry in bonnie++'s order, each on every
 * worker at once. A phase's rate and CPU cover the same interval, from
 * the moment every worker has prepared to the last worker's end.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cluster/cluster.h"
#include "core/phase.h"
#include "lib/signals.h"
#include "lib/size.h"
#include "lib/timing.h"
#include "phases/bench.h"
#include "phases/capacity.h"
#include "phases/phase_clock.h"
#include "phases/runner.h"
#include "phases/series_sampler.h"
#include "phases/stall_reader.h"
#include "phases/steady_watch.h"
#include "phases/stonewall.h"
#include "placement/placement.h"
#include "profile/profile.h"
#include "profile/stacks.h"
#include "profile/stacks_layers.h"
#include "sys/cache.h"
#include "sys/fsfill.h"
#include "sys/extents.h"
#include "sys/residency.h"
#include "sys/semsync.h"

struct worker_job {
	struct worker *w;
	const struct phase_def *d;
	struct phase_sample sample;
	/* Where it ran: its CPU set, the node of its buffer, what the kernel said. */
	struct place_mask cpus;
	bool cpus_known;
	int buffer_node;
	char note[96];
};

/* The worker's thread takes its place first; its seekers inherit it. */
static void place_worker(struct worker_job *job)
{
	const struct place_plan *plan = job->w->b->placement;
	const struct place_worker *pw = plan ? &plan->w[job->w->index] : NULL;

	if (pw && (pw->bind || pw->mem != MEM_DEFAULT))
		place_thread(pw, job->note, sizeof(job->note));
	job->cpus_known = !place_thread_cpus(&job->cpus);
}

static void *worker_main(void *arg)
{
	struct worker_job *job = arg;

	job->sample.cpu_first = job->sample.cpu_last = -1;
	job->sample.live = job->w->b->live ? &job->w->b->live[job->w->index] : NULL;
	place_worker(job);
	phase_ops_get(job->d->id)->fn(job->w, &job->sample);
	if (job->w->b->stonewall)
		stonewall_worker_done(job->w->b->stonewall);
	job->buffer_node = place_take_buffer_node();
	/* A worker that failed early must not keep the others at the start line. */
	sample_settle(job->w, &job->sample);
	return NULL;
}

/* A histogram's percentiles and maximum, in seconds, as every result holds them. */
static void latency_of(const struct histogram *h, double q_s[LAT_QUANTILES], double *max_s,
		       uint64_t *count)
{
	*max_s = (double)h->max / 1e9;
	*count = h->count;
	for (int q = 0; q < LAT_QUANTILES; q++)
		q_s[q] = (double)hist_quantile(h, latency_quantiles[q]) / 1e9;
}

static void fill_worker_result(struct worker_result *wr, const struct worker_job *job)
{
	const struct phase_sample *s = &job->sample;

	wr->t_start = (double)s->start_ns / 1e9;
	wr->t_end = (double)s->end_ns / 1e9;
	wr->amount = s->amount;
	wr->cpu_s = s->cpu_s;
	latency_of(&s->hist, wr->latency_q, &wr->max_latency, &wr->latency_count);
	wr->cpu_first = s->cpu_first;
	wr->cpu_last = s->cpu_last;
	place_mask_format(&s->ran_on, wr->ran_on, sizeof(wr->ran_on));
	wr->buffer_node = job->buffer_node;
	if (job->cpus_known)
		place_mask_format(&job->cpus, wr->cpus, sizeof(wr->cpus));
	snprintf(wr->note, sizeof(wr->note), "%s", job->note);
}

/* Run a phase on every worker at once; the first failure wins. */
static int run_workers(struct bench *b, struct worker *workers, const struct phase_def *d,
		       struct phase_sample *total, struct phase_result *pr)
{
	unsigned n = b->plan->workers, started = 0;
	struct worker_job *jobs = calloc(n, sizeof(*jobs));
	pthread_t *threads = calloc(n, sizeof(*threads));
	int ret = 0;

	memset(total, 0, sizeof(*total));
	if (!jobs || !threads) {
		ret = -ENOMEM;
		goto out_free;
	}
	for (unsigned i = 0; i < n; i++) {
		jobs[i].w = &workers[i];
		jobs[i].d = d;
	}
	/* --stonewall's decision is the main thread's: the workers need threads of their own */
	if (n == 1 && !b->stonewall) {
		worker_main(&jobs[0]);
		started = 1;
	} else {
		for (; started < n; started++) {
			ret = -pthread_create(&threads[started], NULL, worker_main, &jobs[started]);
			if (ret)
				break;
		}
		/* Stand in for the workers that never started, so the rest can go. */
		for (unsigned i = started; i < n; i++) {
			struct phase_sample dummy = { 0 };

			sample_settle(&workers[i], &dummy);
			series_free(dummy.series);
			if (b->stonewall)
				stonewall_worker_done(b->stonewall);
		}
		if (b->stonewall && stonewall_decide(b->stonewall) && !ret)
			ret = -EIO;
		for (unsigned i = 0; i < started; i++)
			pthread_join(threads[i], NULL);
	}
	for (unsigned i = 0; i < started; i++) {
		sample_merge(total, &jobs[i].sample);
		free(jobs[i].sample.tree);
		series_free(jobs[i].sample.series);
	}
	free(pr->workers);
	pr->nworkers = 0;
	pr->workers = calloc(started, sizeof(*pr->workers));
	for (unsigned i = 0; pr->workers && i < started; i++)
		fill_worker_result(&pr->workers[i], &jobs[i]);
	if (pr->workers)
		pr->nworkers = started;
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
static uint64_t progress_total(const struct run_plan *p, const struct phase_def *d)
{
	return phase_family(d->id)->ops_per_worker(p) * p->workers;
}

static int phase_sync(const struct bench *b, unsigned index, enum phase_id id,
		      char *err, size_t errlen)
{
	switch (b->plan->sync) {
	case SYNC_SEMAPHORE:
		return semsync_wait(index, err, errlen);
	case SYNC_PROMPT:
		return prompt_wait(phase_name(id), err, errlen);
	default:
		return 0;
	}
}

/*
 * Under mpirun every rank meets here with its status; when one failed,
 * the others stop too, naming it. ret unchanged without MPI.
 */
static int cluster_check(struct bench *b, int ret)
{
	struct cluster_failure f;

	if (!cluster_active())
		return ret;
	if (cluster_meet(ret, ret ? b->errmsg : "", &f)) {
		if (ret)
			return ret;
		if (!cluster_timed_out()) {
			snprintf(b->errmsg, sizeof(b->errmsg), "the ranks could not meet (MPI failed)");
			return -EIO;
		}
		/* the lowest rank that came has named the missing */
		snprintf(b->errmsg, sizeof(b->errmsg), "stopped: a rank did not come to the "
			 "meeting within --mpi-timeout");
		return -ECANCELED;
	}
	if (f.rank < 0 || ret)
		return ret;
	snprintf(b->errmsg, sizeof(b->errmsg), "stopped: rank %d on %s failed: %s", f.rank, f.host,
		 f.msg);
	return -ECANCELED;
}

static int setup_workers(struct bench *b, struct worker *workers)
{
	const struct run_plan *p = b->plan;

	for (unsigned i = 0; i < p->workers; i++) {
		struct worker *w = &workers[i];

		w->b = b;
		w->index = i;
		snprintf(w->io_path, sizeof(w->io_path), "%s/io.%u", b->workdir, i);
		snprintf(w->read_path, sizeof(w->read_path), "%s/io.%u",
			 b->read_dir[0] ? b->read_dir : b->workdir, i);
		w->file_bytes = p->file_bytes;
		w->files_made = 0;
		snprintf(w->files_dir, sizeof(w->files_dir), "%s/files.%u", b->workdir, i);
		snprintf(w->tree_dir, sizeof(w->tree_dir), "%s/tree.%u", b->workdir, i);
		snprintf(w->copy_dir, sizeof(w->copy_dir), "%s/tree.%u.copy", b->workdir, i);
		/* --steady's block write may grow the file: --verify keeps every chunk's version */
		w->nchunks = p->chunk ? (p->steady_file_bytes > p->file_bytes ? p->steady_file_bytes
							: p->file_bytes) / p->chunk : 0;
		if (p->verify && w->nchunks) {
			w->versions = calloc(w->nchunks, sizeof(*w->versions));
			if (!w->versions)
				return -ENOMEM;
		}
	}
	return 0;
}

static void free_workers(struct bench *b, struct worker *workers)
{
	for (int i = 0; i < PH_COUNT; i++) {
		const struct phase_ops *ops = phase_ops_get((enum phase_id)i);

		for (unsigned k = 0; k < b->plan->workers; k++)
			ops->cleanup(&workers[k]);
	}
	for (unsigned k = 0; k < b->plan->workers; k++)
		free(workers[k].versions);
	free(workers);
}

static void drop_io_cache(struct bench *b, struct worker *workers)
{
	for (unsigned i = 0; i < b->plan->workers; i++) {
		int ret = cache_evict_file(workers[i].io_path);

		if (ret && ret != -ENOENT)
			fprintf(stderr, "clyde: warning: cannot evict %s from the page cache "
				"(%s): %s\n", workers[i].io_path, cache_evict_method(), strerror(-ret));
	}
}

static void drop_tree_cache(struct bench *b, struct worker *workers)
{
	char what[WORKPATH_MAX + 8192];

	for (unsigned i = 0; i < b->plan->workers; i++) {
		int ret = tree_evict(&workers[i], what, sizeof(what));

		if (ret) {
			fprintf(stderr, "clyde: warning: cannot evict %s from the page cache "
				"(%s): %s\n", what, cache_evict_method(), strerror(-ret));
			return;
		}
	}
}

static void drop_caches_after(struct bench *b, struct worker *workers,
			      const struct phase_def *d)
{
	int ret;

	switch (b->plan->cache) {
	case CACHE_DROP:
	case CACHE_UNCACHED:
		if (d->flags & PF_IO_FILE)
			drop_io_cache(b, workers);
		if (d->flags & PF_TREE_DATA)
			drop_tree_cache(b, workers);
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

/*
 * How much of what the phase will read it will find in memory: the bytes
 * getc reads for the per-char read (a few MiB of a file that may be GiBs,
 * which would otherwise hide a fully cached range under the drop's
 * tolerance), the whole file for the others. The worst worker, or unknown
 * when any worker's could not be told.
 */
static void measure_residency(struct bench *b, struct worker *workers, const struct phase_def *d,
			      struct phase_result *pr)
{
	pr->residency_measured = true;
	pr->resident_pct = 0;
	for (unsigned i = 0; i < b->plan->workers; i++) {
		const char *path = d->flags & PF_READS_OTHER_RANK ? workers[i].read_path
								  : workers[i].io_path;
		uint64_t len = phase_family(d->id)->perchar_span ? perchar_read_bytes(&workers[i])
								 : RESIDENCY_TO_END;
		struct residency r;
		double pct;

		if (residency_measure_range(path, 0, len, &r)) {
			pr->resident_pct = -1;
			snprintf(pr->residency_method, sizeof(pr->residency_method), "unknown");
			snprintf(pr->residency_why, sizeof(pr->residency_why),
				 "cannot open the test file of worker %u", i);
			return;
		}
		snprintf(pr->residency_method, sizeof(pr->residency_method), "%s",
			 residency_method_name(r.method));
		pct = residency_percent(&r);
		if (pct < 0) {
			pr->resident_pct = -1;
			snprintf(pr->residency_why, sizeof(pr->residency_why), "%s", r.why);
			return;
		}
		if (!i || pct > pr->resident_pct) {
			pr->resident_pct = pct;
			pr->residency_range_offset = r.range_offset;
			pr->residency_range_bytes = r.range_bytes;
			pr->residency_file_bytes = r.file_bytes;
		}
	}
}

/*
 * A loop device's backing file in the page cache before a read: the
 * loop's reads without direct I/O find it there, below the test file's
 * drop, and a read phase then measures the cache however cold its own
 * file was.
 */
static void measure_backing_residency(const char *path, struct phase_result *pr)
{
	struct residency r;
	int ret = residency_measure(path, &r);

	pr->backing_measured = true;
	pr->backing_resident_pct = ret ? -1 : residency_percent(&r);
	snprintf(pr->backing_method, sizeof(pr->backing_method), "%s",
		 ret ? "unknown" : residency_method_name(r.method));
	if (ret)
		snprintf(pr->backing_why, sizeof(pr->backing_why), "cannot open it: %s",
			 strerror(-ret));
	else if (pr->backing_resident_pct < 0)
		snprintf(pr->backing_why, sizeof(pr->backing_why), "%s", r.why);
	else
		pr->backing_resident_bytes = r.resident_bytes;
	pr->backing_file_bytes = ret ? 0 : r.file_bytes;
}

/* The tree's files in the page cache before a tree phase reads them: all workers' bytes. */
static void measure_tree_residency(struct bench *b, struct worker *workers,
				   struct phase_result *pr)
{
	uint64_t resident = 0, total = 0;

	pr->residency_measured = true;
	pr->resident_pct = 0;
	for (unsigned i = 0; i < b->plan->workers; i++) {
		if (tree_residency(&workers[i], &resident, &total, pr->residency_method,
				   sizeof(pr->residency_method), pr->residency_why,
				   sizeof(pr->residency_why))) {
			pr->resident_pct = -1;
			return;
		}
	}
	pr->resident_pct = total ? 100.0 * (double)resident / (double)total : 0;
}

static void fill_tree_op(struct tree_op_result *o, const struct histogram *h, uint64_t ring)
{
	latency_of(h, o->latency_q, &o->max_latency, &o->count);
	o->via_ring = ring;
}

static void fill_tree_result(struct phase_tree *pt, const struct tree_sample *ts)
{
	pt->valid = true;
	pt->files = ts->files;
	pt->dirs = ts->dirs;
	pt->entries = ts->entries;
	pt->bytes = ts->bytes;
	for (int k = 0; k < TOP_KINDS; k++)
		fill_tree_op(&pt->op[k], &ts->op[k], ts->via_ring[k]);
	fill_tree_op(&pt->list, &ts->list, 0);
}

static void fill_phase_result(struct phase_result *pr, const struct phase_sample *total,
			      const struct phase_clock *clock, bool plus_when_short)
{
	pr->ran = true;
	pr->elapsed = (double)(total->end_ns - total->start_ns) / 1e9;
	pr->t_start = (double)total->start_ns / 1e9;
	pr->t_end = (double)total->end_ns / 1e9;
	pr->cpu_user = clock->cpu1.user - clock->cpu0.user;
	pr->cpu_sys = clock->cpu1.sys - clock->cpu0.sys;
	pr->cpu_window = (double)(clock->t1 - clock->t0) / 1e9;
	latency_of(&total->hist, pr->latency_q, &pr->max_latency, &pr->latency_count);
	free(pr->hist);
	pr->hist = malloc(sizeof(*pr->hist));
	if (pr->hist)
		memcpy(pr->hist, &total->hist, sizeof(*pr->hist));
	free(pr->done);
	pr->done = malloc(sizeof(*pr->done));
	if (pr->done)
		memcpy(pr->done, &total->done, sizeof(*pr->done));
	pr->flush = (double)total->flush_ns / 1e9;
	pr->mismatches = total->mismatches;
	pr->amount = total->amount;
	pr->passes = total->passes ? total->passes : 1;
	pr->plus_when_short = plus_when_short;
	pr->at_deadline = -1;
}

static void progress_start(const struct run_plan *p, const struct phase_def *d)
{
	if (p->live)
		return;	/* the series' sampler says it (series_sampler.c) */
	if (progress_live) {
		progress_begin(d->progress, progress_total(p, d), d->unit == UNIT_KIB ? p->chunk : 0);
	} else if (!p->quiet) {
		fprintf(stderr, "%s...", d->progress);
		fflush(stderr);
	}
}

static void progress_finish(const struct run_plan *p, int ret)
{
	if (p->live)
		return;
	if (progress_live)
		progress_end(ret ? "failed" : "done");
	else if (!p->quiet)
		fprintf(stderr, ret ? "failed\n" : "done\n");
}

/* Where a phase failed, for the JSON document of the failed run. */
static void note_failure(struct run_result *res, enum phase_id id, int err, const char *path,
			 int64_t offset)
{
	struct run_failure *f = &res->failure;

	f->failed = true;
	f->phase = (int)id;
	f->err = err;
	snprintf(f->path, sizeof(f->path), "%s", path);
	f->offset = offset;
}

/*
 * --stonewall cuts the sequential phases, as IOR's does its transfers;
 * a default run's time boxes cut the phases whose amount clyde chose.
 */
static bool stonewalled(const struct run_plan *p, const struct phase_def *d)
{
	return plan_phase_limit(p, d->id) > 0;
}

/*
 * A limit that cut a phase whose cut sets its family's amount (the block
 * write, the sequential create) left a smaller file or fewer files (equal
 * on every worker: the wear-out): the table's and the CSV's size and
 * count say what was tested, not what was planned.
 */
static void label_cut(struct run_result *res, const struct worker *workers,
		      const struct phase_def *d)
{
	if (!(d->flags & PF_CUT_SETS_AMOUNT))
		return;
	switch (phase_family(d->id)->amount) {
	case AMOUNT_SIZE:
		res->params.file_bytes = workers[0].file_bytes >> 20 << 20;
		break;
	case AMOUNT_FILES:
		res->params.files = workers[0].files_made / FILES_UNIT;
		break;
	default:
		break;
	}
}

/*
 * The phase's series: the workers' and the sampler's, closed on the
 * phase's end so its rows tile [0, elapsed]. None when --interval=off,
 * and none, said once, when one could not be kept.
 */
static void fill_series(struct phase_result *pr, struct phase_sample *total,
			struct series *machine, const struct phase_def *d)
{
	static bool warned;
	struct series *s = total->series;
	int ret = 0;

	series_free(pr->series);
	pr->series = NULL;
	if (!s && !total->series_lost)
		return;
	if (s && machine)
		ret = series_merge(s, machine);
	if (s && !ret)
		ret = series_close(s, total->end_ns);
	if (!s || ret || total->series_lost) {
		if (!warned)
			fprintf(stderr, "clyde: warning: %s: no time series: out of memory\n", d->name);
		warned = true;
		return;
	}
	if (s->capped)
		fprintf(stderr, "clyde: note: %s: --interval's intervals would take more than "
			"%u KiB per worker: %.3f s each instead\n", d->name, SERIES_MAX_BYTES / 1024,
			(double)s->width_ns / 1e9);
	pr->series = s;
	total->series = NULL;
}

/*
 * --steady: how the phase ended, from the watch's decision: the steady
 * window's rate in the phase's unit (the series' work is bytes for a
 * phase in KiB), its place, and what the phase would have done without it.
 */
static void fill_steady(struct phase_result *pr, const struct steady_watch *sw,
			const struct run_plan *p, const struct worker *workers,
			const struct phase_def *d)
{
	struct phase_steady *st = &pr->steady;
	double unit = d->unit == UNIT_KIB ? 1024.0 : 1.0;
	static const char *const ends[] = {
		[STEADY_END_NONE] = "ended", [STEADY_END_SETTLED] = "settled",
		[STEADY_END_MAX_TIME] = "max_time", [STEADY_END_MAX_SIZE] = "max_size",
	};

	memset(st, 0, sizeof(*st));
	st->on = true;
	st->settled = sw->settled;
	snprintf(st->end, sizeof(st->end), "%s", ends[sw->end]);
	st->at_s = sw->checks ? (double)sw->at_ns / 1e9 : -1;
	st->window_s = sw->checks ? (double)sw->window_ns / 1e9 : -1;
	st->rate = sw->checks && sw->window_ns ? (double)sw->work / unit /
		   ((double)sw->window_ns / 1e9) : -1;
	st->p99_s = sw->checks && sw->ops ? (double)sw->p99_ns / 1e9 : -1;
	st->spread_pct = sw->checks ? sw->spread : -1;
	st->checks = sw->checks;
	if (d->unit == UNIT_SEEK) {
		st->planned_amount = (double)p->seeks * p->workers;
	} else {
		for (unsigned i = 0; i < p->workers; i++)
			st->planned_amount += (double)(d->flags & PF_CUT_SETS_AMOUNT ?
						       p->file_bytes : workers[i].file_bytes);
		st->planned_amount /= 1024.0;
	}
	st->start_overs = atomic_load(&sw->start_overs);
	st->start_over_drops = atomic_load(&sw->evictions);
	if (st->start_overs && p->cache != CACHE_KEEP)
		snprintf(st->drop_method, sizeof(st->drop_method), "%s",
			 p->cache == CACHE_SYSTEM ? "sync + drop_caches" : cache_evict_method());
	if (atomic_load(&sw->evict_err))
		fprintf(stderr, "clyde: warning: %s: --steady's start-over could not drop the file "
			"from the page cache (%s): %s; a pass may have read it from memory\n",
			d->name, p->cache == CACHE_SYSTEM ? "drop_caches" : cache_evict_method(),
			strerror(-atomic_load(&sw->evict_err)));
	if (p->quiet)
		return;
	if (st->settled)
		fprintf(stderr, "clyde: note: %s: settled at %.1f s (%s over the last %.1f s within "
			"%g%%: %.2f%%); its figure is that window's\n", d->name, st->at_s,
			steady_metric_name(&p->steady), st->window_s, p->steady.pct, st->spread_pct);
	else
		fprintf(stderr, "clyde: note: %s: never settled (%s; the last check %s %.2f%%, "
			"--steady wants under %g%%): its figure is the whole phase's, marked ~\n",
			d->name, !strcmp(st->end, "max_time") ? "MAX seconds passed" :
			!strcmp(st->end, "max_size") ? "the file reached its largest size" :
			"the phase ended", steady_metric_name(&p->steady), st->spread_pct,
			p->steady.pct);
}

/* --profile=stacks: the rings read after the timed part, into the phase's result. */
static void collect_stacks(struct prof_sampler *prof, struct prof_phase *pp, const char *name)
{
	struct stack_set *set = calloc(1, sizeof(*set));

	if (!set) {
		fprintf(stderr, "clyde: warning: %s: no memory for the sampled stacks\n", name);
		return;
	}
	if (prof_stacks_collect(prof, set))
		fprintf(stderr, "clyde: warning: %s: out of memory: the sampled stacks are "
			"partial\n", name);
	pp->stack_set = set;
	/* the layers and top functions, which the outputs read: here, not in a formatter */
	if (prof->stack_layers && prof_stacks_finish(pp, set, prof->stack_layers))
		fprintf(stderr, "clyde: warning: %s: no memory for the stacks' summary\n", name);
}

/*
 * How full the file system is as the phases see it: at the start of the
 * block read, or of the first phase when none reads the file; with
 * --age after a sync, before the phase's clock starts (btrfs's figures
 * lag until a transaction commits, and the phases' fsyncs go to its log
 * tree).
 */
static void measure_fill(const struct bench *b, enum phase_id id, struct run_result *res)
{
	struct run_fill *f = &res->fill;
	struct fs_fill now;

	if (!f->measured || (f->phases_pct >= 0 && id != PH_GET_BLOCK))
		return;
	if (!fs_fill_read_path(b->workdir, b->fill_sync, &now))
		f->phases_pct = fs_fill_pct(&now);
}

/* One phase on every worker; 0, or -errno with b->errmsg set. */
static int run_phase(struct bench *b, struct worker *workers, const struct phase_def *d,
		     struct run_result *res)
{
	const struct run_plan *p = b->plan;
	struct phase_result *pr = &res->phase[d->id];
	struct arc_stats arc0, arc1;
	struct phase_clock clock;
	struct phase_sample total;
	struct series_sampler sampler;
	struct series *machine;
	struct stonewall wall;
	struct steady_watch watch;
	int ret;

	/* before the start meeting: a rank held here holds the others there */
	measure_fill(b, d->id, res);
	test_pause_before(d->id);
	ret = phase_sync(b, (*b->sync_count)++, d->id, b->errmsg, sizeof(b->errmsg));
	ret = cluster_check(b, ret);
	if (ret)
		return ret;
	if (d->flags & PF_READS_FILE)
		measure_residency(b, workers, d, pr);
	if (d->flags & PF_READS_TREE)
		measure_tree_residency(b, workers, pr);
	if (b->loop_backing && ((d->flags & PF_READS_FILE) || (d->flags & PF_READS_TREE)))
		measure_backing_residency(b->loop_backing, pr);
	arc_stats_read(&arc0);
	progress_start(p, d);
	phase_clock_init(&clock, p->workers, b->profiler);
	b->clock = &clock;
	if (plan_steady(p, d->id)) {
		ret = steady_watch_init(&watch, &p->steady, p->workers *
					(d->unit == UNIT_SEEK ? p->seekers : 1),
					p->series_ns > 0 ? (uint64_t)p->series_ns : 0);
		if (ret) {
			snprintf(b->errmsg, sizeof(b->errmsg), "%s: --steady: %s", d->name,
				 strerror(-ret));
			phase_clock_destroy(&clock);
			b->clock = NULL;
			return ret;
		}
		b->steady = &watch;
	}
	if (stonewalled(p, d)) {
		stonewall_init(&wall, plan_phase_limit(p, d->id), p->workers);
		b->stonewall = &wall;
	}
	if (p->live) {
		b->live = aligned_alloc(_Alignof(struct series_live),
					p->workers * sizeof(struct series_live));
		if (b->live)
			memset(b->live, 0, p->workers * sizeof(struct series_live));
	}
	if (series_sampler_start(&sampler, b, workers, d, progress_total(p, d)))
		fprintf(stderr, "clyde: warning: %s: the series' sampler did not start: no "
			"machine columns\n", d->name);
	clock.sampler = sampler.on ? &sampler : NULL;
	ret = run_workers(b, workers, d, &total, pr);
	machine = series_sampler_stop(&sampler, &clock, total.end_ns);
	free(b->live);
	b->live = NULL;
	if (b->stonewall) {
		/* every worker stopped at the limit: the phase did less than planned */
		pr->limit_cut = atomic_load(&wall.decided) && wall.target != UINT64_MAX;
		stonewall_destroy(&wall);
		b->stonewall = NULL;
	}
	b->clock = NULL;
	progress_finish(p, ret);
	if (ret) {
		if (ret == -EINTR || clyde_stop_requested()) {
			ret = -EINTR;
			snprintf(b->errmsg, sizeof(b->errmsg), "%s: stopped by signal %d",
				 d->name, clyde_stop_signal());
		} else {
			snprintf(b->errmsg, sizeof(b->errmsg), "%s", total.msg);
		}
		note_failure(res, d->id, ret, total.err ? total.err_path : "",
			     total.err ? total.err_offset : -1);
		goto out;
	}
	fill_phase_result(pr, &total, &clock, p->plus_when_short[d->id]);
	pr->stall_reader_cpu_s = sampler.reader_cpu_s;
	fill_series(pr, &total, machine, d);
	if (b->steady)
		fill_steady(pr, b->steady, p, workers, d);
	/* a limit cut it, or --steady grew it or MAX cut it: the file as written */
	if (pr->limit_cut || (b->steady && workers[0].file_bytes != p->file_bytes))
		label_cut(res, workers, d);
	pr->time_box_s = p->phase_box_s[d->id];
	pr->estimate_s = p->phase_est_s[d->id];
	if (stonewalled(p, d) && pr->elapsed > plan_phase_limit(p, d->id))
		pr->at_deadline = rank_amount_by(pr->done, pr->amount, pr->t_end,
						 pr->t_start + plan_phase_limit(p, d->id));
	if (total.tree) {
		fill_tree_result(&pr->tree, total.tree);
		snprintf(res->tree.io_desc, sizeof(res->tree.io_desc), "%s", total.tree->io_desc);
	}
	if (b->profiler)
		prof_compute(b->profiler, &clock.prof0, &clock.prof1, &pr->profile);
	if (b->profiler && pr->hist)
		layers_above(&pr->profile.layers, pr->latency_count, hist_mean(pr->hist) / 1e9);
	/* a profiler beside clyde (tests/env/stacks_btrfs.sh) stops here, as the rings did */
	test_pause_after(d->id);
	if (b->profiler && b->profiler->stacks)
		collect_stacks(b->profiler, &pr->profile, d->name);
	arc_stats_read(&arc1);
	if (arc0.available && arc1.available) {
		pr->arc_valid = true;
		pr->arc_hits = arc1.hits - arc0.hits;
		pr->arc_misses = arc1.misses - arc0.misses;
	}
	res->mismatches += total.mismatches;
	/* the seeks a worker did, on average: a timed phase sets its own count */
	if (phase_family(d->id)->amount == AMOUNT_SEEKS)
		res->params.seeks = (uint32_t)((total.count + p->workers / 2) / p->workers);
	drop_caches_after(b, workers, d);
	if (clyde_stop_requested()) {
		ret = -EINTR;
		snprintf(b->errmsg, sizeof(b->errmsg), "stopped by signal %d after %s",
			 clyde_stop_signal(), d->name);
	}
out:
	if (b->steady) {
		steady_watch_destroy(b->steady);
		b->steady = NULL;
	}
	free(total.tree);
	series_free(total.series);
	series_free(machine);
	phase_clock_destroy(&clock);
	/* every rank ends the phase together, a failure anywhere stopping all */
	return cluster_check(b, ret);
}

/* What a phase's residency measured, in words: the file, the tree, or a part of the file. */
static void resident_what(const struct phase_result *pr, enum phase_id id, char *buf, size_t len)
{
	char part[32];

	if (phase_get(id)->flags & PF_READS_TREE) {
		snprintf(buf, len, "the tree");
	} else if (pr->residency_range_bytes < pr->residency_file_bytes) {
		size_human(part, sizeof(part), pr->residency_range_bytes);
		snprintf(buf, len, "the %s's %s of the file", phase_name(id), part);
	} else {
		snprintf(buf, len, "the file");
	}
}

/*
 * Seeks faster than any rotational device on one that says it is: a cache
 * below clyde answered them, one no residency clyde measures shows (a
 * hypervisor's page cache on the host, a controller's). Not on a loop
 * device, whose rotational flag describes no disk, nor on an array (md,
 * dm), whose rates are its disks' sum, nor under mpirun, whose rate is
 * every rank's, nor through an engine that moves no data (null).
 */
static void device_ceiling(const struct run_plan *p, struct run_result *res)
{
	const struct phase_result *pr = &res->phase[PH_SEEKS], *rd = &res->phase[PH_GET_BLOCK];
	struct run_env *e = &res->env;
	/* one disk: not a loop, not an array of disks (md, dm), not every rank's sum */
	bool disk = e->rotational == 1 && !e->loop_backing[0] && !e->stacked && !res->cluster &&
		    !(p->engine->flags & ENGINE_F_NO_DATA);
	double rate = pr->elapsed > 0 ? pr->amount / pr->elapsed : 0;
	double read = rd->elapsed > 0 ? rd->amount / rd->elapsed : 0;

	e->seeks_beyond_rotational = 0;
	e->reads_beyond_rotational = 0;
	if (disk && pr->ran && rate > ROTATIONAL_SEEKS_MAX)
		e->seeks_beyond_rotational = rate;
	/* a read of a file clyde found in memory is the page cache's: said apart */
	if (disk && rd->ran && rd->residency_measured && rd->resident_pct >= 0 &&
	    rd->resident_pct <= RESIDENT_TOLERANCE_PCT && read > ROTATIONAL_READ_MAX_KIBS)
		e->reads_beyond_rotational = read;
}

void bench_cache_outcome(const struct run_plan *p, struct run_result *res)
{
	struct run_env *e = &res->env;
	const char *why = "";
	bool any = false;

	device_ceiling(p, res);
	e->resident_worst = 0;
	e->resident_known = true;
	snprintf(e->resident_worst_what, sizeof(e->resident_worst_what), "the file");
	e->loop_backing_measured = false;
	e->loop_backing_worst = 0;
	e->loop_backing_worst_bytes = 0;
	for (int i = 0; i < PH_COUNT; i++) {
		const struct phase_result *pr = &res->phase[i];

		if (pr->ran && pr->backing_measured && e->loop_backing_worst >= 0 &&
		    (!e->loop_backing_measured || pr->backing_resident_pct < 0 ||
		     pr->backing_resident_pct > e->loop_backing_worst)) {
			e->loop_backing_worst = pr->backing_resident_pct;
			e->loop_backing_worst_bytes = pr->backing_resident_bytes;
		}
		e->loop_backing_measured |= pr->ran && pr->backing_measured;
		if (!pr->ran || !pr->residency_measured)
			continue;
		any = true;
		if (pr->resident_pct < 0) {
			e->resident_known = false;
			why = pr->residency_why;
		} else if (pr->resident_pct > e->resident_worst) {
			e->resident_worst = pr->resident_pct;
			e->resident_worst_tree = phase_get((enum phase_id)i)->flags & PF_READS_TREE;
			resident_what(pr, (enum phase_id)i, e->resident_worst_what,
				      sizeof(e->resident_worst_what));
		}
	}
	if (!any) {
		e->resident_known = false;
		snprintf(e->cache_outcome, sizeof(e->cache_outcome), "no phase read the file");
	} else if (!e->resident_known) {
		snprintf(e->cache_outcome, sizeof(e->cache_outcome), "residency unknown: %s", why);
	} else if (p->cache != CACHE_KEEP && e->resident_worst > RESIDENT_TOLERANCE_PCT) {
		snprintf(e->cache_outcome, sizeof(e->cache_outcome),
			 "DROP FAILED: up to %.1f%% of %s resident before reads: "
			 "read figures are page-cache figures", e->resident_worst,
			 e->resident_worst_what);
	} else if (strcmp(e->resident_worst_what, "the file")) {
		snprintf(e->cache_outcome, sizeof(e->cache_outcome),
			 "%.1f%% resident before reads at most (%s)", e->resident_worst,
			 e->resident_worst_what);
	} else {
		snprintf(e->cache_outcome, sizeof(e->cache_outcome),
			 "%.1f%% resident before reads at most", e->resident_worst);
	}
}

/* The tree of --tree, generated once for every worker; what the run says of it. */
static int tree_make(struct bench *b, struct run_result *res, struct tree *t)
{
	const struct run_plan *p = b->plan;
	struct run_tree *rt = &res->tree;
	int ret;

	if (!p->tree_shape)
		return 0;
	ret = tree_generate(p->tree_shape, p->tree_scale, p->tree_seed, t);
	if (ret) {
		snprintf(b->errmsg, sizeof(b->errmsg), "cannot generate the %s tree: %s",
			 p->tree_shape->name, strerror(-ret));
		return ret;
	}
	b->tree = t;
	rt->on = true;
	snprintf(rt->shape, sizeof(rt->shape), "%s", p->tree_shape->name);
	rt->scale = p->tree_scale;
	rt->seed = p->tree_seed;
	rt->dirs = t->ndirs - 1;	/* below the root, as the listing counts them */
	rt->files = t->nfiles;
	rt->max_depth = t->max_depth;
	rt->bytes = t->bytes;
	rt->hash = t->hash;
	snprintf(rt->io, sizeof(rt->io), "%s", p->engine->tree_io->name);
	rt->depth = p->tree_depth;
	snprintf(rt->walk_cache, sizeof(rt->walk_cache), "%s",
		 p->cache == CACHE_SYSTEM ? "dentries and inodes dropped (drop_caches) before the walk"
		 : "dentries and inodes cached: extract and copy left them in memory");
	return 0;
}

/*
 * The stall reader, started once for the run's phases, before any clock
 * (stall_reader.h); without one the intervals in which nothing completes
 * have no gauges, as without a dirty-page source.
 */
static void stall_reader_start(struct bench *b, struct stall_reader *sr)
{
	const struct run_plan *p = b->plan;
	int ret;

	b->stall_reader = NULL;
	if (p->series_ns < 0)
		return;
	ret = stall_reader_spawn(sr, series_max_rows(p->series_ns > 0, true));
	if (!ret)
		b->stall_reader = sr;
	else if (ret != -ENOSYS && !p->quiet)
		fprintf(stderr, "clyde: note: the stall reader did not start (%s): intervals in "
			"which nothing completes have no dirty-page readings\n", strerror(-ret));
}

/*
 * The free space at the run's start, the filesystem as this run found it
 * ("fresh"); with --age the aging measured it before and after itself.
 */
static void measure_fresh(const struct bench *b, struct run_result *res)
{
	int dirfd;

	if (res->frag.fresh.present)
		return;
	dirfd = open(b->workdir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (dirfd < 0)
		return;
	frag_state_measure(dirfd, -1, 0, &res->frag.fresh);
	close(dirfd);
}

/*
 * The big file's extents as the phase that laid it out left them (worker
 * 0's, with its map): where the reads after it go on the device.
 */
static void measure_test_file(const struct bench *b, const struct worker *workers,
			      struct run_result *res)
{
	struct run_fragmentation *fr = &res->frag;
	int fd, ret;

	extent_figures_init(&fr->test_file);
	if (!fr->test_map.pieces) {
		fr->test_map.pieces = calloc(FRAG_MAP_MAX, sizeof(*fr->test_map.pieces));
		fr->test_map.max = fr->test_map.pieces ? FRAG_MAP_MAX : 0;
	}
	fr->test_map.count = 0;
	fr->test_map.truncated = false;
	fd = open(workers[0].io_path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0) {
		ret = -errno;
		goto said;
	}
	ret = extents_map_fd(fd, &fr->test_file, fr->test_map.pieces ? &fr->test_map : NULL);
	close(fd);
said:
	if (ret) {
		fr->test_file.measured = false;
		snprintf(fr->test_file.why, sizeof(fr->test_file.why), "%s", strerror(-ret));
		if (!b->plan->quiet)
			fprintf(stderr, "clyde: warning: %s: its extents not measured: %s\n",
				workers[0].io_path, strerror(-ret));
	}
}

int bench_run(struct bench *b, struct run_result *res)
{
	struct worker *workers = calloc(b->plan->workers, sizeof(*workers));
	struct stall_reader reader;
	struct tree tree = { 0 };
	int ret = 0;

	if (!workers || setup_workers(b, workers)) {
		snprintf(b->errmsg, sizeof(b->errmsg), "out of memory");
		if (workers)
			free_workers(b, workers);
		return -ENOMEM;
	}
	measure_fresh(b, res);
	stall_reader_start(b, &reader);
	ret = cluster_check(b, tree_make(b, res, &tree));
	for (int i = 0; i < PH_COUNT && !ret; i++) {
		const struct phase_def *d = phase_get((enum phase_id)i);

		if (!b->plan->run[i])
			continue;
		ret = run_phase(b, workers, d, res);
		if (!ret && (d->flags & PF_LAYS_OUT_FILE))
			measure_test_file(b, workers, res);
		/* after the phase, before the next: its files and the big file are as it left them */
		if (!ret && capacity_wanted(b->plan, d->id))
			ret = capacity_run(b, &workers[0], d, &res->phase[d->id]);
	}
	if (b->stall_reader)
		stall_reader_stop(b->stall_reader);
	b->stall_reader = NULL;
	bench_cache_outcome(b->plan, res);
	free_workers(b, workers);
	b->tree = NULL;
	tree_free(&tree);
	return ret;
}
