// SPDX-License-Identifier: BSD-2-Clause
/* --steady in a running phase (see steady_watch.h). */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "phases/steady_watch.h"

int steady_watch_init(struct steady_watch *sw, const struct steady_spec *spec, unsigned threads,
		      uint64_t fixed_ns)
{
	memset(sw, 0, sizeof(*sw));
	sw->spec = *spec;
	sw->expected = threads;
	sw->capcur = threads ? threads : 1;
	sw->spread = -1;
	atomic_init(&sw->stop, false);
	atomic_init(&sw->start_overs, 0);
	atomic_init(&sw->evictions, 0);
	atomic_init(&sw->evict_err, 0);
	sw->cur = calloc(sw->capcur, sizeof(*sw->cur));
	sw->sum = series_new(0, fixed_ns, false);
	if (!sw->cur || !sw->sum) {
		free(sw->cur);
		series_free(sw->sum);
		return -ENOMEM;
	}
	pthread_mutex_init(&sw->lock, NULL);
	return 0;
}

void steady_watch_destroy(struct steady_watch *sw)
{
	pthread_mutex_destroy(&sw->lock);
	series_free(sw->sum);
	free(sw->cur);
	free(sw->vals);
}

struct steady_cursor *steady_join(struct steady_watch *sw)
{
	struct steady_cursor *c = NULL;

	if (!sw)
		return NULL;
	pthread_mutex_lock(&sw->lock);
	if (sw->ncur < sw->capcur) {
		c = &sw->cur[sw->ncur++];
		c->joined = true;
	}
	pthread_mutex_unlock(&sw->lock);
	return c;
}

/* The sum's slot i, or an empty one past what it holds. */
static const struct series_slot *sum_slot(const struct steady_watch *sw, uint64_t i)
{
	static const struct series_slot none;

	return i < sw->sum->cap ? &sw->sum->slot[i] : &none;
}

/* The window of n intervals that ends at the sum's interval k: measured and decided. */
static bool check_window(struct steady_watch *sw, uint64_t k, unsigned n)
{
	double width_s = (double)sw->sum->width_ns / 1e9, spread;
	struct series_slot all = { 0 };
	bool ok;

	if (n > sw->nvals) {
		double *v = realloc(sw->vals, n * sizeof(*v));

		if (!v)
			return false;
		sw->vals = v;
		sw->nvals = n;
	}
	for (unsigned i = 0; i < n; i++) {
		const struct series_slot *sl = sum_slot(sw, k - n + i);

		if (sw->spec.metric == STEADY_P99)
			sw->vals[i] = sl->ops ? (double)series_slot_quantile(sl, 0.99) / 1e9 : 0;
		else
			sw->vals[i] = (double)sl->work / width_s;
	}
	ok = steady_check(&sw->spec, sw->vals, n, width_s, &spread);
	sw->spread = spread;
	sw->checks++;
	/* the window's figures, kept with the decision */
	for (unsigned i = 0; i < n; i++) {
		const struct series_slot *sl = sum_slot(sw, k - n + i);

		all.work += sl->work;
		all.ops += sl->ops;
		if (sl->max_ns > all.max_ns)
			all.max_ns = sl->max_ns;
		for (unsigned b = 0; b < SERIES_BUCKETS; b++)
			all.sketch[b] += sl->sketch[b];
	}
	sw->at_ns = k * sw->sum->width_ns;
	sw->window_ns = n * sw->sum->width_ns;
	sw->work = all.work;
	sw->ops = all.ops;
	sw->p99_ns = all.ops ? series_slot_quantile(&all, 0.99) : 0;
	return ok;
}

static void decide(struct steady_watch *sw, enum steady_end end, bool settled)
{
	sw->end = end;
	sw->settled = settled;
	atomic_store(&sw->stop, true);
}

/* Every thread's intervals before T are in the sum: decide on the last one that ends by T. */
static void evaluate(struct steady_watch *sw)
{
	uint64_t t = UINT64_MAX, w = sw->sum->width_ns, k;
	/* a thread that has not joined yet has not done its planned work */
	bool floors = sw->ncur >= sw->expected;
	unsigned n;

	if (atomic_load(&sw->stop))
		return;
	for (unsigned i = 0; i < sw->ncur; i++) {
		if (sw->cur[i].gone)
			continue;
		if (sw->cur[i].pub_ns < t)
			t = sw->cur[i].pub_ns;
		floors &= sw->cur[i].floor_done;
	}
	if (t == UINT64_MAX)
		return;
	k = t / w;
	if (!k || k * w <= sw->checked)
		return;
	sw->checked = k * w;
	n = steady_window_slots(&sw->spec, (double)w / 1e9);
	if (k >= n && check_window(sw, k, n) && floors)
		decide(sw, STEADY_END_SETTLED, true);
	else if ((double)(k * w) / 1e9 >= sw->spec.max_s)
		decide(sw, STEADY_END_MAX_TIME, false);
}

/* Fold the thread's slots from its cursor up to upto (ns from the origin) into the sum. */
static void fold(struct steady_watch *sw, struct steady_cursor *c, const struct series *s,
		 uint64_t upto)
{
	uint64_t w = s->width_ns;

	/* the sum's intervals start at the phase's start, every thread's origin */
	if (!sw->sum->origin_ns)
		series_start(sw->sum, s->origin_ns);
	/* a coarsening by more than one step since the last time: what straddles it is lost */
	if (c->pub_ns % w)
		c->pub_ns += w - c->pub_ns % w;
	if (upto <= c->pub_ns)
		return;
	if (series_merge_range(sw->sum, s, (unsigned)(c->pub_ns / w), (unsigned)(upto / w)))
		atomic_store(&sw->stop, true);
	c->pub_ns = upto;
}

void steady_publish(struct steady_watch *sw, struct steady_cursor *c, const struct series *s)
{
	uint64_t rel = s->hot_start - s->origin_ns, two = 2 * s->width_ns;
	/* only at ends a coarsening keeps (pairs of intervals), so no slot straddles the cursor */
	uint64_t upto = rel / two * two;

	c->next_abs = s->origin_ns + upto + two;
	if (!c->joined)
		return;
	pthread_mutex_lock(&sw->lock);
	fold(sw, c, s, upto);
	evaluate(sw);
	pthread_mutex_unlock(&sw->lock);
}

void steady_evicted(struct steady_watch *sw, int ret)
{
	int none = 0;

	if (!sw)
		return;
	if (ret)
		atomic_compare_exchange_strong(&sw->evict_err, &none, ret);
	else
		atomic_fetch_add(&sw->evictions, 1);
}

void steady_started_over(struct steady_watch *sw, uint64_t n)
{
	if (sw && n)
		atomic_fetch_add(&sw->start_overs, (unsigned)n);
}

void steady_floor_done(struct steady_watch *sw, struct steady_cursor *c)
{
	if (!c || c->floor_done)
		return;
	pthread_mutex_lock(&sw->lock);
	c->floor_done = true;
	pthread_mutex_unlock(&sw->lock);
}

void steady_leave(struct steady_watch *sw, struct steady_cursor *c, const struct series *s,
		  bool max_size)
{
	bool all_gone = true;
	uint64_t k, w;

	if (!c || c->gone)
		return;
	pthread_mutex_lock(&sw->lock);
	if (s)
		fold(sw, c, s, (uint64_t)s->used * s->width_ns);
	c->gone = true;
	c->floor_done = true;
	sw->size_capped |= max_size;
	for (unsigned i = 0; i < sw->ncur; i++)
		all_gone &= sw->cur[i].gone;
	if (!all_gone || atomic_load(&sw->stop)) {
		evaluate(sw);
		goto out;
	}
	/* the last thread ended before a decision: the window of its last whole interval */
	w = sw->sum->width_ns;
	k = s && s->hot_start > s->origin_ns ? (s->hot_start - s->origin_ns) / w : 0;
	if (k >= steady_window_slots(&sw->spec, (double)w / 1e9) &&
	    check_window(sw, k, steady_window_slots(&sw->spec, (double)w / 1e9)))
		decide(sw, sw->size_capped ? STEADY_END_MAX_SIZE : STEADY_END_NONE, true);
	else
		decide(sw, sw->size_capped ? STEADY_END_MAX_SIZE : STEADY_END_NONE, false);
out:
	pthread_mutex_unlock(&sw->lock);
}
