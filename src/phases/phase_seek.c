// SPDX-License-Identifier: BSD-2-Clause
/*
 * Random seeks: seeker threads share one pool of tickets; ticket t reads
 * the chunk that the seed and t choose, and every tenth ticket also
 * changes a byte and writes the chunk back. Each seeker opens the file,
 * seeks, and ends with fsync and close, all inside the timing, as
 * bonnie++'s seekers do. With no count given the seekers go on past the
 * default count until the phase has lasted about a second.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/rng.h"
#include "lib/timing.h"
#include "phases/bench.h"
#include "phases/phase_clock.h"
#include "phases/pattern.h"
#include "phases/pipeline.h"
#include "phases/steady_watch.h"


/* r->state bits: this seek writes back; it holds its chunk (--verify). */
enum { ST_UPDATE = 1, ST_OWNER = 2 };

struct seek_pool {
	atomic_uint_fast64_t next;
	uint64_t total;		/* tickets; the least when timed */
	bool timed;
	uint64_t deadline_ns;	/* timed: no new ticket after this */
	uint64_t t0;		/* the phase's timed start: the seekers' series begin there */
	atomic_bool over;	/* timed: past both the count and the deadline */
	/* The seekers' start line: all prepared, then the clock, then go. */
	pthread_mutex_t lock;
	pthread_cond_t cond;
	unsigned ready;
	bool go;
	uint32_t *versions;	/* --verify: what each chunk should hold */
	uint64_t nchunks;
	uint64_t seed;
	unsigned update_pct;
	/*
	 * --verify only: a flag per chunk that one seeker holds while its seek
	 * on the chunk is in flight, since a read that races another seeker's
	 * write of the same chunk may see it half written.
	 */
	atomic_uchar *busy;
	/* --steady: the tickets past total are drawn until the watch stops them */
	struct steady_watch *steady;
};

struct seeker {
	struct worker *w;
	struct seek_pool *pool;
	struct phase_sample sample;
	struct pipeline *p;
	uint64_t done;
	struct steady_cursor *cursor;	/* --steady; NULL without */
	uint64_t t_next, t_end;		/* the tickets it holds: [t_next, t_end) */
};

/*
 * A seeker takes its tickets from the pool TICKET_BATCH at a time: one
 * shared counter bumped by every seek moved its cache line between the
 * CPUs at each seek. Which chunks the run seeks, and which seeks write,
 * depend on the tickets alone, so the batches change neither.
 */
#define TICKET_BATCH 16

/* The chunk of ticket t: a function of the seed, so runs with -z repeat. */
static uint64_t ticket_chunk(const struct seek_pool *pool, uint64_t t)
{
	struct rng r;

	rng_seed(&r, pool->seed ^ (t * 0x9e3779b97f4a7c15ull));
	return rng_below(&r, pool->nchunks);
}

static bool seek_fill(void *arg, struct io_req *r)
{
	struct seeker *sk = arg;
	struct seek_pool *pool = sk->pool;
	uint64_t t;

	if (pool->steady) {
		steady_tick(pool->steady, sk->cursor, sk->sample.series);
		if (steady_stopped(pool->steady))
			return false;
	}
	/* past the deadline, a seeker still does the tickets it holds below the count */
	if (pool->timed && atomic_load(&pool->over) &&
	    !(sk->t_next < sk->t_end && sk->t_next < pool->total))
		return false;
	if (sk->t_next == sk->t_end) {
		sk->t_next = atomic_fetch_add(&pool->next, TICKET_BATCH);
		sk->t_end = sk->t_next + TICKET_BATCH;
	}
	t = sk->t_next++;
	if (t >= pool->total && pool->steady) {
		steady_floor_done(pool->steady, sk->cursor);
	} else if (t >= pool->total) {
		if (!pool->timed || now_ns() >= pool->deadline_ns) {
			atomic_store(&pool->over, true);
			return false;
		}
	}
	r->chunk = ticket_chunk(sk->pool, t);
	r->off = r->chunk * r->len;
	r->op = IO_READ;
	/* Ticket t writes back when (t * pct) mod 100 < pct: exactly pct in 100. */
	r->state = (t * sk->pool->update_pct) % 100 < sk->pool->update_pct ? ST_UPDATE : 0;
	/* Under --verify a chunk in flight elsewhere is read, unchecked and unchanged. */
	if (sk->pool->busy) {
		if (atomic_exchange(&sk->pool->busy[r->chunk], 1))
			r->state = 0;
		else
			r->state |= ST_OWNER;
	}
	return true;
}

static int seek_complete(void *arg, struct io_req *r)
{
	struct seeker *sk = arg;
	const char *path = sk->w->io_path;

	if (r->res < 0)
		return sample_fail_at(&sk->sample, PH_SEEKS, (int)r->res, path, NULL, (int64_t)r->off,
				      "%s %s at offset %llu", r->op == IO_READ ? "read" : "write",
				      path, (unsigned long long)r->off);
	if ((size_t)r->res != r->len)
		return sample_fail_at(&sk->sample, PH_SEEKS, -EIO, path, NULL, (int64_t)r->off,
				      "short %s of %s at offset %llu", r->op == IO_READ ? "read" : "write",
				      path, (unsigned long long)r->off);
	if (r->op == IO_READ && (r->state & ST_OWNER)) {
		uint64_t bad;

		if (verify_check(r->buf, r->len, r->off, sk->w->b->verify_key,
				 sk->pool->versions[r->chunk], &bad))
			verify_mismatch(&sk->sample, PH_SEEKS, path, bad);
	}
	if (r->op == IO_READ && (r->state & ST_UPDATE)) {
		if (sk->w->b->plan->verify)
			verify_fill(r->buf, r->len, r->off, sk->w->b->verify_key,
				    ++sk->pool->versions[r->chunk]);
		else
			((unsigned char *)r->buf)[r->chunk % r->len]++;
		r->op = IO_WRITE;
		return 1;
	}
	if (r->op == IO_WRITE && sk->w->b->plan->fsync_each && fsync(r->fd))
		return sample_fail_at(&sk->sample, PH_SEEKS, -errno, path, NULL, -1, "fsync %s", path);
	if (r->state & ST_OWNER)
		atomic_store(&sk->pool->busy[r->chunk], 0);
	sample_latency(&sk->sample, r->t_start, now_ns(), 1);
	if (++sk->done == 1)
		test_pause_point(PH_SEEKS);
	return 0;
}

/*
 * CLYDE_TEST_SEEKER_CPU=N, for the tests only: the seekers move to CPU N,
 * away from their worker thread, so that a test can tell whose CPUs the
 * placement report shows.
 */
static void test_seeker_cpu(void)
{
	const char *want = getenv("CLYDE_TEST_SEEKER_CPU");
	struct place_worker pw = { .bind = true, .core = -1, .node = -1 };
	char note[96] = "";

	if (!want || !*want)
		return;
	place_mask_set(&pw.cpus, (unsigned)atoi(want));
	if (place_thread(&pw, note, sizeof(note)))
		fprintf(stderr, "clyde: test: seeker not moved to CPU %s: %s\n", want, note);
}

/* The CPU a seeker is on now, for its sample: where the seeks really ran. */
static int seeker_cpu(struct seeker *sk)
{
	int cpu = place_current_cpu();

	if (cpu >= 0)
		place_mask_set(&sk->sample.ran_on, (unsigned)cpu);
	return cpu;
}

/* Wait for the go; the worker gives it once every seeker is ready. */
static void seeker_ready(struct seek_pool *pool)
{
	pthread_mutex_lock(&pool->lock);
	pool->ready++;
	pthread_cond_broadcast(&pool->cond);
	while (!pool->go)
		pthread_cond_wait(&pool->cond, &pool->lock);
	pthread_mutex_unlock(&pool->lock);
}

static void *seeker_main(void *arg)
{
	struct seeker *sk = arg;
	const struct bench *b = sk->w->b;
	const char *path = sk->w->io_path;
	struct pipeline p;
	double cpu0 = 0;
	int ret, cret;

	test_seeker_cpu();
	ret = pipeline_init(&p, b, b->plan->chunk, false);
	seeker_ready(sk->pool);
	if (ret) {
		sample_fail(&sk->sample, PH_SEEKS, ret, "seeker buffers for %s", path);
		return NULL;
	}
	sk->sample.start_ns = now_ns();
	sample_series_begin(&sk->sample, b->plan, sk->pool->t0);
	sk->sample.sampler = b->clock->sampler;
	sk->sample.stacks = b->clock->profiler && b->clock->profiler->stacks ? b->clock->profiler
									     : NULL;
	sk->cursor = steady_join(sk->pool->steady);
	sk->sample.cpu_first = seeker_cpu(sk);
	cpu0 = thread_cpu_seconds();
	ret = pipeline_open_file(&p, path, io_open_flags(b, O_RDWR));
	if (ret) {
		sample_fail_at(&sk->sample, PH_SEEKS, ret, path, NULL, -1, "open %s", path);
		goto out;
	}
	sk->p = &p;
	ret = pipeline_drive(&p, seek_fill, seek_complete, sk);
	steady_leave(sk->pool->steady, sk->cursor, sk->sample.series, false);
	if (ret)
		sample_fail_at(&sk->sample, PH_SEEKS, ret, path, NULL, -1, "%s", path);
	/* The updates reach the device inside the timing, as in bonnie++. */
	cret = pipeline_finish(&p, !ret, &sk->sample.flush_ns);
	sk->sample.end_ns = now_ns();
	sk->sample.cpu_last = seeker_cpu(sk);
	if (cret)
		sample_fail_at(&sk->sample, PH_SEEKS, cret, path, NULL, -1, "fsync/close %s", path);
out:
	steady_leave(sk->pool->steady, sk->cursor, sk->sample.series, false);
	sk->sample.cpu_s = thread_cpu_seconds() - cpu0;
	pipeline_release(&p);
	sk->sample.amount = (double)sk->done;
	sk->sample.count = sk->done;
	return NULL;
}

int phase_seeks(struct worker *w, struct phase_sample *s)
{
	const struct run_plan *plan = w->b->plan;
	unsigned n = plan->seekers, started = 0;
	bool steady = plan_steady(plan, PH_SEEKS) && w->b->steady;
	struct seek_pool pool = {
		.total = plan->seeks,
		/* --steady: the count is the least, and the watch says when to stop */
		.timed = plan->seeks_timed && !steady,
		.steady = steady ? w->b->steady : NULL,
		/*
		 * what the writes left: --stonewall may have cut them, --steady
		 * may have grown them
		 */
		.nchunks = (w->file_bytes < plan->file_bytes || steady ? w->file_bytes
								       : plan->file_bytes) /
			   plan->chunk,
		.seed = ((uint64_t)w->b->seed << 32) ^ w->index,
		.update_pct = plan->seek_updates,
		.versions = w->versions,
	};
	struct seeker *sk = calloc(n, sizeof(*sk));
	pthread_t *threads = calloc(n, sizeof(*threads));
	int ret = 0;

	atomic_init(&pool.next, 0);
	atomic_init(&pool.over, false);
	pthread_mutex_init(&pool.lock, NULL);
	pthread_cond_init(&pool.cond, NULL);
	if (plan->verify)
		pool.busy = calloc(pool.nchunks, sizeof(*pool.busy));
	if (!sk || !threads || (plan->verify && !pool.busy)) {
		ret = sample_fail(s, PH_SEEKS, -ENOMEM, "seekers");
		goto out_free;
	}
	for (; started < n; started++) {
		sk[started].w = w;
		sk[started].pool = &pool;
		sk[started].sample.cpu_first = sk[started].sample.cpu_last = -1;
		sk[started].sample.live = s->live;
		ret = -pthread_create(&threads[started], NULL, seeker_main, &sk[started]);
		if (ret) {
			sample_fail(s, PH_SEEKS, ret, "start seeker %u", started);
			/* Let the running seekers finish the pool. */
			break;
		}
	}
	pthread_mutex_lock(&pool.lock);
	while (pool.ready < started)
		pthread_cond_wait(&pool.cond, &pool.lock);
	pthread_mutex_unlock(&pool.lock);
	sample_start(w, s);
	pool.deadline_ns = s->start_ns + (uint64_t)(plan->seek_seconds * 1e9);
	pool.t0 = s->start_ns;
	pthread_mutex_lock(&pool.lock);
	pool.go = true;
	pthread_cond_broadcast(&pool.cond);
	pthread_mutex_unlock(&pool.lock);
	for (unsigned i = 0; i < started; i++)
		pthread_join(threads[i], NULL);
	sample_stop(w, s);
	/*
	 * This thread only waited: where the phase ran is where its seekers
	 * ran (every seeker's CPUs; the first seeker's at its start and end).
	 */
	memset(&s->ran_on, 0, sizeof(s->ran_on));
	s->cpu_first = started ? sk[0].sample.cpu_first : -1;
	s->cpu_last = started ? sk[0].sample.cpu_last : -1;
	for (unsigned i = 0; i < started; i++) {
		/* The phase's span is the shared clock's; keep the workers' flush and counts. */
		sk[i].sample.start_ns = s->start_ns;
		sk[i].sample.end_ns = s->end_ns;
		sample_merge(s, &sk[i].sample);
		series_free(sk[i].sample.series);
	}
	ret = s->err;
out_free:
	pthread_cond_destroy(&pool.cond);
	pthread_mutex_destroy(&pool.lock);
	free(pool.busy);
	free(threads);
	free(sk);
	return ret;
}
