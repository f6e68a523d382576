// SPDX-License-Identifier: BSD-2-Clause
/* Keeping requests in flight through an engine, for block and seek phases. */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "compat.h"
#include "pipeline.h"
#include "signals.h"
#include "timing.h"

/* O_DIRECT wants the buffer aligned to the logical block; 4 KiB covers it. */
#define BUFFER_ALIGN 4096

int pipeline_open(struct pipeline *p, const struct bench *b, const char *path,
		  int flags, size_t len)
{
	struct engine_params params = {
		.depth = b->depth ? b->depth : 1,
		.direct = b->opt->direct,
		.rw_flags = b->opt->cache == CACHE_UNCACHED ? RWF_DONTCACHE : 0,
	};
	void *mem = NULL;
	int ret;

	memset(p, 0, sizeof(*p));
	p->fd = -1;
	p->depth = params.depth;
	p->len = len;
	if (posix_memalign(&mem, BUFFER_ALIGN, p->depth * len))
		return -ENOMEM;
	p->bufs = mem;
	memset(p->bufs, 0, p->depth * len);
	params.bufs = p->bufs;
	params.buf_len = len;
	ret = engine_setup(&p->eng, b->engine, &params);
	if (ret) {
		free(p->bufs);
		p->bufs = NULL;
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
		p->free[p->nfree++] = &p->reqs[i];
	}
	ret = p->eng.ops->open(&p->eng, path, flags, 0600, &p->fd);
	if (ret)
		goto out_mem;
	for (unsigned i = 0; i < p->depth; i++)
		p->reqs[i].fd = p->fd;
	return 0;

out_mem:
	free(p->reqs);
	free(p->free);
	free(p->batch);
	free(p->done);
	engine_teardown(&p->eng);
	free(p->bufs);
	memset(p, 0, sizeof(*p));
	p->fd = -1;
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

int pipeline_close(struct pipeline *p, bool sync)
{
	int ret = 0;

	if (p->fd >= 0) {
		if (sync && fsync(p->fd))
			ret = -errno;
		int cr = p->eng.ops->close(&p->eng, p->fd);

		if (!ret)
			ret = cr;
	}
	engine_teardown(&p->eng);
	free(p->reqs);
	free(p->free);
	free(p->batch);
	free(p->done);
	free(p->bufs);
	memset(p, 0, sizeof(*p));
	p->fd = -1;
	return ret;
}
