// SPDX-License-Identifier: BSD-2-Clause
/* --stonewall's limit and wear-out (see stonewall.h). */
#include "config.h"

#include "cluster/cluster.h"
#include "lib/timing.h"
#include "phases/stonewall.h"

void stonewall_init(struct stonewall *sw, double seconds, unsigned workers)
{
	sw->seconds = seconds;
	sw->workers = workers;
	pthread_mutex_init(&sw->lock, NULL);
	pthread_cond_init(&sw->cond, NULL);
	sw->waiting = sw->finished = 0;
	sw->most = 0;
	sw->all = false;
	atomic_init(&sw->decided, false);
	sw->target = UINT64_MAX;
}

void stonewall_destroy(struct stonewall *sw)
{
	pthread_cond_destroy(&sw->cond);
	pthread_mutex_destroy(&sw->lock);
}

bool stonewall_stop(struct stonewall *sw, uint64_t start_ns, uint64_t done)
{
	bool stop;

	if (!sw || !done)
		return false;
	if (atomic_load(&sw->decided))
		return done >= sw->target;
	if ((double)(now_ns() - start_ns) < sw->seconds * 1e9)
		return false;
	pthread_mutex_lock(&sw->lock);
	sw->waiting++;
	if (done > sw->most)
		sw->most = done;
	pthread_cond_broadcast(&sw->cond);
	while (!atomic_load(&sw->decided))
		pthread_cond_wait(&sw->cond, &sw->lock);
	stop = done >= sw->target;
	pthread_mutex_unlock(&sw->lock);
	return stop;
}

void stonewall_worker_done(struct stonewall *sw)
{
	pthread_mutex_lock(&sw->lock);
	sw->finished++;
	if (!atomic_load(&sw->decided))
		sw->all = true;
	pthread_cond_broadcast(&sw->cond);
	pthread_mutex_unlock(&sw->lock);
}

int stonewall_decide(struct stonewall *sw)
{
	uint64_t target;
	int ret;

	pthread_mutex_lock(&sw->lock);
	while (sw->waiting + sw->finished < sw->workers)
		pthread_cond_wait(&sw->cond, &sw->lock);
	target = sw->all ? UINT64_MAX : sw->most;
	pthread_mutex_unlock(&sw->lock);
	/* every rank's most; one that finished everything makes all do everything */
	ret = cluster_max_u64(&target, 1);
	pthread_mutex_lock(&sw->lock);
	sw->target = ret ? UINT64_MAX : target;
	atomic_store(&sw->decided, true);
	pthread_cond_broadcast(&sw->cond);
	pthread_mutex_unlock(&sw->lock);
	return ret;
}
