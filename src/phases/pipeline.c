// SPDX-License-Identifier: BSD-2-Clause
/* Keeping requests in flight through an engine, for block and seek phases. */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/signals.h"
#include "lib/timing.h"
#include "phases/pattern.h"
#include "phases/pipeline.h"
#include "placement/placement.h"
#include "sys/compat.h"

/* O_DIRECT wants the buffer aligned to the logical block; 4 KiB covers it. */
#define BUFFER_ALIGN 4096
/*
 * Block write cycles through this much distinct data (at least): farther
 * apart than the windows of LZ4 (64 KiB), gzip (32 KiB) and a 128 KiB
 * compression record, yet small enough to copy from the CPU's L2 cache.
 */
#define POOL_MIN (256u << 10)

int pipeline_init(struct pipeline *p, const struct bench *b, size_t len, bool with_pool)
{
	return pipeline_init_depth(p, b, len, with_pool, b->plan->depth ? b->plan->depth : 1);
}

int pipeline_init_depth(struct pipeline *p, const struct bench *b, size_t len, bool with_pool,
			unsigned depth)
{
	const struct run_plan *plan = b->plan;
	struct engine_params params = {
		.depth = depth,
		.direct = plan->direct,
		.rw_flags = plan->cache == CACHE_UNCACHED ? RWF_DONTCACHE : 0,
	};
	void *mem = NULL;
	struct rng r;
	int ret;

	memset(p, 0, sizeof(*p));
	p->fd = -1;
	p->depth = params.depth;
	p->len = len;
	if (posix_memalign(&mem, BUFFER_ALIGN, p->depth * len))
		return -ENOMEM;
	p->bufs = mem;
	rng_seed(&r, b->seed);
	pattern_fill(p->bufs, p->depth * len, plan->data, plan->data_zero_pct, &r);
	/* Touched now, so its pages have a node: the report says which. */
	place_note_buffer(p->bufs);
	if (with_pool) {
		p->pool_len = p->depth * len > POOL_MIN ? p->depth * len : POOL_MIN;
		if (posix_memalign(&mem, BUFFER_ALIGN, p->pool_len)) {
			free(p->bufs);
			return -ENOMEM;
		}
		p->pool = mem;
		/* Chunk by chunk, so compressible:P holds for every chunk. */
		for (size_t off = 0; off < p->pool_len; off += len)
			pattern_fill(p->pool + off, len, plan->data, plan->data_zero_pct, &r);
	}
	params.bufs = p->bufs;
	params.buf_len = len;
	params.pool = p->pool;
	params.pool_len = p->pool_len;
	ret = engine_setup(&p->eng, plan->engine, &params);
	if (ret) {
		free(p->bufs);
		free(p->pool);
		p->bufs = p->pool = NULL;
		return ret;
	}
	p->reqs = calloc(p->depth, sizeof(*p->reqs));
	p->free = calloc(p->depth, sizeof(*p->free));
	p->batch = calloc(p->depth, sizeof(*p->batch));
	p->done = calloc(p->depth, sizeof(*p->done));
	if (!p->reqs || !p->free || !p->batch || !p->done) {
		ret = -ENOMEM;
		goto out_mem;
	}
	for (unsigned i = 0; i < p->depth; i++) {
		p->reqs[i].buf = p->bufs + (size_t)i * len;
		p->reqs[i].len = len;
		p->reqs[i].slot = i;
		p->reqs[i].buf_index = i;
		p->free[p->nfree++] = &p->reqs[i];
	}
	return 0;

out_mem:
	pipeline_release(p);
	return ret;
}

int pipeline_open_file(struct pipeline *p, const char *path, int flags)
{
	int ret = p->eng.ops->open(&p->eng, path, flags, 0600, &p->fd);

	if (ret)
		return ret;
	for (unsigned i = 0; i < p->depth; i++)
		p->reqs[i].fd = p->fd;
	return 0;
}

int pipeline_open(struct pipeline *p, const struct bench *b, const char *path,
		  int flags, size_t len, bool with_pool)
{
	int ret = pipeline_init(p, b, len, with_pool);

	if (ret)
		return ret;
	ret = pipeline_open_file(p, path, flags);
	if (ret)
		pipeline_release(p);
	return ret;
}

int pipeline_drive(struct pipeline *p, pipeline_fill_fn fill,
		   pipeline_complete_fn complete, void *ctx)
{
	bool more = true;
	int ret, n;

	for (;;) {
		while (more && p->nfree) {
			struct io_req *r = p->free[--p->nfree];

			if (!fill(ctx, r)) {
				p->free[p->nfree++] = r;
				more = false;
				break;
			}
			r->t_start = now_ns();
			p->batch[p->nbatch++] = r;
		}
		if (p->nbatch) {
			ret = p->eng.ops->submit(&p->eng, p->batch, p->nbatch);
			if (ret)
				return ret;
			p->inflight += p->nbatch;
			p->nbatch = 0;
		}
		if (!p->inflight)
			return 0;
		n = p->eng.ops->reap(&p->eng, 1, p->done, p->depth);
		if (n < 0)
			return n;
		for (int i = 0; i < n; i++) {
			struct io_req *r = p->done[i];

			p->inflight--;
			ret = complete(ctx, r);
			if (ret < 0)
				return ret;
			if (ret == 1)
				p->batch[p->nbatch++] = r;
			else
				p->free[p->nfree++] = r;
		}
		if (clyde_stop_requested())
			return -EINTR;
	}
}

int pipeline_finish(struct pipeline *p, bool sync, uint64_t *flush_ns)
{
	uint64_t t0 = now_ns();
	int ret = 0, cr;

	if (p->fd < 0)
		return 0;
	if (sync && fsync(p->fd))
		ret = -errno;
	if (sync && flush_ns)
		*flush_ns = now_ns() - t0;
	cr = p->eng.ops->close(&p->eng, p->fd);
	p->fd = -1;
	return ret ? ret : cr;
}

void pipeline_release(struct pipeline *p)
{
	if (p->fd >= 0)
		pipeline_finish(p, false, NULL);
	engine_teardown(&p->eng);
	free(p->reqs);
	free(p->free);
	free(p->batch);
	free(p->done);
	free(p->bufs);
	free(p->pool);
	memset(p, 0, sizeof(*p));
	p->fd = -1;
}

void pipeline_use_pool(struct pipeline *p, struct io_req *r, uint64_t k)
{
	r->buf = p->pool + (size_t)(k * r->len % p->pool_len);
	r->buf_index = p->depth;
}
