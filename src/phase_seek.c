// SPDX-License-Identifier: BSD-2-Clause
/*
 * Random seeks: seeker threads share one pool of tickets; ticket t reads
 * the chunk that the seed and t choose, and every tenth ticket also
 * changes a byte and writes the chunk back. The rate is seeks over the
 * span from the first seeker's start to the last one's end.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench.h"
#include "pattern.h"
#include "pipeline.h"
#include "rng.h"
#include "timing.h"


/* r->state bits: this seek writes back; it holds its chunk (--verify). */
enum { ST_UPDATE = 1, ST_OWNER = 2 };

struct seek_pool {
	atomic_uint_fast64_t next;
	uint64_t total;
	uint64_t nchunks;
	uint64_t seed;
	unsigned update_pct;
	/*
	 * --verify only: a flag per chunk that one seeker holds while its seek
	 * on the chunk is in flight, since a read that races another seeker's
	 * write of the same chunk may see it half written.
	 */
	atomic_uchar *busy;
};

struct seeker {
	struct worker *w;
	struct seek_pool *pool;
	struct phase_sample sample;
	struct pipeline *p;
	uint64_t done;
};

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
	uint64_t t = atomic_fetch_add(&sk->pool->next, 1);

	if (t >= sk->pool->total)
		return false;
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
		return sample_fail(&sk->sample, PH_SEEKS, (int)r->res, "%s %s at offset %llu",
				   r->op == IO_READ ? "read" : "write", path,
				   (unsigned long long)r->off);
	if ((size_t)r->res != r->len)
		return sample_fail(&sk->sample, PH_SEEKS, -EIO, "short %s of %s at offset %llu",
				   r->op == IO_READ ? "read" : "write", path,
				   (unsigned long long)r->off);
	if (r->op == IO_READ && (r->state & ST_OWNER)) {
		uint64_t bad;

		if (verify_check(r->buf, r->len, r->off, sk->w->b->verify_key, &bad))
			verify_mismatch(&sk->sample, PH_SEEKS, path, bad);
	}
	if (r->op == IO_READ && (r->state & ST_UPDATE)) {
		if (sk->w->b->opt->verify)
			verify_bump(r->buf, r->len, r->off, sk->w->b->verify_key);
		else
			((unsigned char *)r->buf)[r->chunk % r->len]++;
		r->op = IO_WRITE;
		return 1;
	}
	if (r->op == IO_WRITE && sk->w->b->opt->fsync_each && fsync(r->fd))
		return sample_fail(&sk->sample, PH_SEEKS, -errno, "fsync %s", path);
	if (r->state & ST_OWNER)
		atomic_store(&sk->pool->busy[r->chunk], 0);
	sample_latency(&sk->sample, r->t_start, now_ns());
	if (++sk->done == 1)
		test_pause_point(PH_SEEKS);
	return 0;
}

static void *seeker_main(void *arg)
{
	struct seeker *sk = arg;
	const struct bench *b = sk->w->b;
	struct pipeline p;
	int ret;

	sk->sample.start_ns = now_ns();
	ret = pipeline_open(&p, b, sk->w->io_path, io_open_flags(b, O_RDWR), b->opt->chunk, false);
	if (ret) {
		sample_fail(&sk->sample, PH_SEEKS, ret, "open %s", sk->w->io_path);
		return NULL;
	}
	sk->p = &p;
	ret = pipeline_drive(&p, seek_fill, seek_complete, sk);
	if (ret)
		sample_fail(&sk->sample, PH_SEEKS, ret, "%s", sk->w->io_path);
	ret = pipeline_close(&p, false, NULL);
	sk->sample.end_ns = now_ns();
	if (ret)
		sample_fail(&sk->sample, PH_SEEKS, ret, "close %s", sk->w->io_path);
	sk->sample.amount = (double)sk->done;
	return NULL;
}

int phase_seeks(struct worker *w, struct phase_sample *s)
{
	const struct bench *b = w->b;
	unsigned n = b->opt->seekers, started = 0;
	struct seek_pool pool = {
		.total = b->opt->seeks,
		.nchunks = b->file_bytes / b->opt->chunk,
		.seed = ((uint64_t)b->seed << 32) ^ w->index,
		.update_pct = b->opt->seek_updates,
	};
	struct seeker *sk = calloc(n, sizeof(*sk));
	pthread_t *threads = calloc(n, sizeof(*threads));
	int ret = 0;

	atomic_init(&pool.next, 0);
	if (b->opt->verify)
		pool.busy = calloc(pool.nchunks, sizeof(*pool.busy));
	if (!sk || !threads || (b->opt->verify && !pool.busy)) {
		ret = sample_fail(s, PH_SEEKS, -ENOMEM, "seekers");
		goto out_free;
	}
	for (; started < n; started++) {
		sk[started].w = w;
		sk[started].pool = &pool;
		ret = -pthread_create(&threads[started], NULL, seeker_main, &sk[started]);
		if (ret) {
			sample_fail(s, PH_SEEKS, ret, "start seeker %u", started);
			/* Let the running seekers finish the pool. */
			break;
		}
	}
	for (unsigned i = 0; i < started; i++)
		pthread_join(threads[i], NULL);
	for (unsigned i = 0; i < started; i++)
		sample_merge(s, &sk[i].sample);
	ret = s->err;
out_free:
	free(pool.busy);
	free(threads);
	free(sk);
	return ret;
}
