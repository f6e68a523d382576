// SPDX-License-Identifier: BSD-2-Clause
/*
 * Capacity under a latency bound, and open-loop load (issue 45).
 *
 * The search (--latency-target=PCT:TIME) runs the phase's operation
 * closed loop with c threads, each sending its next request when its last
 * completes, for a window of at least --capacity-step seconds and
 * capacity_min_samples(PCT) operations: c = 1, 2, 4 ... while the window's
 * PCT latency is within TIME, then halving the gap between the last
 * concurrency within and the first beyond.
 *
 * Open loop (--open-loop) gives each request a time: k / RATE from the
 * step's start, or a sum of exponential gaps. A thread takes the next
 * ticket, sleeps until its time and sends it; the latency counts from the
 * scheduled time, so a stall delays every request scheduled during it and
 * each is counted late by what it waited (coordinated omission, which a
 * closed loop's latency from the send hides: the service latency, kept
 * beside it). When every thread is busy the ticket waits: sent a
 * millisecond or more late, it is counted in sent_late; a step that runs
 * past twice its length stops, and its requests never sent are counted,
 * each with the time it had waited by then.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "lib/histogram.h"
#include "lib/rng.h"
#include "lib/signals.h"
#include "lib/timing.h"
#include "phases/capacity.h"
#include "phases/pipeline.h"

/* One window or step. */
struct cap_window {
	struct cap_ctx *ctx;
	bool open;
	/* closed: until both, or max_ns */
	uint64_t min_ns, max_ns, min_samples;
	/* open: tickets n, ticket k's time t0 + sched_ns(k), none sent after stop_ns */
	uint64_t n;
	double gap_ns;			/* fixed: 1e9 / rate */
	const uint64_t *offsets;	/* poisson: each ticket's time from t0 */
	uint64_t stop_ns;
	uint64_t limit;			/* the tickets there are (a delete's pool) */
	uint64_t t0;
	atomic_uint_fast64_t next;
	atomic_uint_fast64_t done;
	atomic_uint_fast64_t sent;
	atomic_bool stop;
	/* --open-loop-log: each ticket's times; NULL without */
	uint64_t *log_sent, *log_done;
	int32_t *log_res;
	/* the start line */
	pthread_mutex_t lock;
	pthread_cond_t cond;
	unsigned ready;
	bool go;
	int err;
	char msg[WORKPATH_MAX + 128];
};

struct cap_worker {
	struct cap_window *win;
	struct cap_thread th;
	pthread_t tid;
	bool started;
	struct histogram sched;		/* open: from the scheduled time; closed: each operation */
	struct histogram service;	/* open: from the time sent */
	uint64_t completed, late, errors, last_done;
};

static void window_fail(struct cap_window *win, int err)
{
	pthread_mutex_lock(&win->lock);
	if (!win->err) {
		win->err = err;
		snprintf(win->msg, sizeof(win->msg), "%s", win->ctx->err);
	}
	pthread_mutex_unlock(&win->lock);
	atomic_store(&win->stop, true);
}

static uint64_t ticket_time(const struct cap_window *win, uint64_t k)
{
	if (win->offsets)
		return win->t0 + win->offsets[k];
	return win->t0 + (uint64_t)((double)k * win->gap_ns);
}

/*
 * Sleep until now_ns() reaches t: nanosleep for what is left, again after
 * an interruption. Not clock_nanosleep's absolute time, which DragonFly's
 * libc declares but does not have (tests/bsd link check); the time left
 * is read just before each sleep, so no error accumulates from one
 * request to the next.
 */
static void sleep_until(uint64_t t)
{
	for (uint64_t now = now_ns(); now < t && !clyde_stop_requested(); now = now_ns()) {
		struct timespec ts = { .tv_sec = (time_t)((t - now) / 1000000000ull),
				       .tv_nsec = (long)((t - now) % 1000000000ull) };

		if (!nanosleep(&ts, NULL))
			return;
	}
}

static void closed_loop(struct cap_worker *cw)
{
	struct cap_window *win = cw->win;

	while (!atomic_load_explicit(&win->stop, memory_order_relaxed)) {
		uint64_t k = atomic_fetch_add(&win->next, 1), t, e, done;
		int ret;

		if (k >= win->limit)
			break;
		t = now_ns();
		ret = win->ctx->kind->op(win->ctx, &cw->th, k);
		e = now_ns();
		if (ret) {
			window_fail(win, ret);
			break;
		}
		hist_record(&cw->sched, e - t);
		cw->completed++;
		cw->last_done = e;
		done = atomic_fetch_add(&win->done, 1) + 1;
		if (e - win->t0 >= win->max_ns ||
		    (e - win->t0 >= win->min_ns && done >= win->min_samples))
			atomic_store(&win->stop, true);
		if (clyde_stop_requested()) {
			snprintf(win->ctx->err, sizeof(win->ctx->err), "stopped by a signal");
			window_fail(win, -EINTR);
		}
	}
}

static void open_loop(struct cap_worker *cw)
{
	struct cap_window *win = cw->win;

	for (;;) {
		uint64_t k, at, now, sent, e;
		int ret;

		if (atomic_load_explicit(&win->stop, memory_order_relaxed))
			break;
		k = atomic_fetch_add(&win->next, 1);
		if (k >= win->n)
			break;
		at = ticket_time(win, k);
		now = now_ns();
		if (now >= win->stop_ns) {
			/*
			 * never sent: it had waited this long when the step gave up (a
			 * Poisson ticket may lie past the end: it had not waited at all)
			 */
			hist_record(&cw->sched, now > at ? now - at : 0);
			atomic_store(&win->stop, true);
			break;
		}
		if (at > now)
			sleep_until(at);
		sent = now_ns();
		atomic_fetch_add(&win->sent, 1);
		if (sent - at >= CAP_LATE_NS && sent > at)
			cw->late++;
		ret = win->ctx->kind->op(win->ctx, &cw->th, k);
		e = now_ns();
		if (win->log_sent) {
			win->log_sent[k] = sent;
			win->log_done[k] = e;
			win->log_res[k] = ret;
		}
		if (ret) {
			cw->errors++;
			window_fail(win, ret);
			break;
		}
		hist_record(&cw->sched, e > at ? e - at : 0);
		hist_record(&cw->service, e - sent);
		cw->completed++;
		cw->last_done = e;
		if (clyde_stop_requested()) {
			snprintf(win->ctx->err, sizeof(win->ctx->err), "stopped by a signal");
			window_fail(win, -EINTR);
		}
	}
}

static void *cap_thread_main(void *arg)
{
	struct cap_worker *cw = arg;
	struct cap_window *win = cw->win;
	int ret = win->ctx->kind->thread_init(win->ctx, &cw->th);

	pthread_mutex_lock(&win->lock);
	if (ret && !win->err) {
		win->err = ret;
		snprintf(win->msg, sizeof(win->msg), "%s", win->ctx->err);
	}
	win->ready++;
	pthread_cond_broadcast(&win->cond);
	while (!win->go)
		pthread_cond_wait(&win->cond, &win->lock);
	pthread_mutex_unlock(&win->lock);
	if (!ret && !win->err) {
		if (win->open)
			open_loop(cw);
		else
			closed_loop(cw);
	}
	win->ctx->kind->thread_fini(win->ctx, &cw->th);
	return NULL;
}

/*
 * Run a window with nthreads threads, its figures folded into sched and
 * service; *last the latest completion. 0 or -errno (win->msg says).
 */
static int window_run(struct cap_window *win, unsigned nthreads, struct histogram *sched,
		      struct histogram *service, uint64_t *completed, uint64_t *late,
		      uint64_t *last)
{
	struct cap_worker *cw = calloc(nthreads, sizeof(*cw));
	unsigned started = 0;
	int ret = 0;

	if (!cw)
		return -ENOMEM;
	pthread_mutex_init(&win->lock, NULL);
	pthread_cond_init(&win->cond, NULL);
	atomic_init(&win->next, 0);
	atomic_init(&win->done, 0);
	atomic_init(&win->sent, 0);
	atomic_init(&win->stop, false);
	for (; started < nthreads; started++) {
		cw[started].win = win;
		cw[started].th.fd = -1;
		ret = -pthread_create(&cw[started].tid, NULL, cap_thread_main, &cw[started]);
		if (ret) {
			snprintf(win->msg, sizeof(win->msg), "start thread %u of %u", started + 1,
				 nthreads);
			break;
		}
	}
	pthread_mutex_lock(&win->lock);
	while (win->ready < started)
		pthread_cond_wait(&win->cond, &win->lock);
	/* open: a little ahead, so that the first tickets are not late by the wake-up */
	win->t0 = now_ns() + (win->open ? 1000000ull : 0);
	win->stop_ns += win->t0;
	if (ret)
		win->err = ret;
	win->go = true;
	pthread_cond_broadcast(&win->cond);
	pthread_mutex_unlock(&win->lock);
	for (unsigned i = 0; i < started; i++) {
		pthread_join(cw[i].tid, NULL);
		hist_merge(sched, &cw[i].sched);
		hist_merge(service, &cw[i].service);
		*completed += cw[i].completed;
		*late += cw[i].late;
		if (cw[i].last_done > *last)
			*last = cw[i].last_done;
	}
	ret = win->err;
	pthread_cond_destroy(&win->cond);
	pthread_mutex_destroy(&win->lock);
	free(cw);
	return ret;
}

/* The search through the engine's queue: one thread, depth requests in flight. */
struct queued_window {
	struct cap_window *win;
	struct histogram *h;
	uint64_t completed, last;
};

static bool queued_fill(void *arg, struct io_req *r)
{
	struct queued_window *q = arg;
	struct cap_window *win = q->win;
	uint64_t k;

	if (atomic_load_explicit(&win->stop, memory_order_relaxed))
		return false;
	k = atomic_fetch_add(&win->next, 1);
	if (k >= win->limit)
		return false;
	r->chunk = capacity_seek_chunk(win->ctx, k);
	r->off = r->chunk * r->len;
	r->op = IO_READ;
	r->state = capacity_seek_writes(win->ctx, k);
	return true;
}

static int queued_complete(void *arg, struct io_req *r)
{
	struct queued_window *q = arg;
	struct cap_window *win = q->win;
	struct cap_ctx *c = win->ctx;
	uint64_t e;

	if (r->res != (ssize_t)r->len) {
		snprintf(c->err, sizeof(c->err), "%s %s at offset %llu",
			 r->op == IO_READ ? "read" : "write", c->w->io_path,
			 (unsigned long long)r->off);
		return r->res < 0 ? (int)r->res : -EIO;
	}
	if (r->op == IO_READ && r->state) {
		((unsigned char *)r->buf)[r->chunk % r->len]++;
		r->op = IO_WRITE;
		return 1;
	}
	if (r->op == IO_WRITE && c->b->plan->fsync_each && fsync(r->fd)) {
		snprintf(c->err, sizeof(c->err), "fsync %s", c->w->io_path);
		return -errno;
	}
	e = now_ns();
	hist_record(q->h, e - r->t_start);
	q->completed++;
	q->last = e;
	if (e - win->t0 >= win->max_ns ||
	    (e - win->t0 >= win->min_ns && q->completed >= win->min_samples))
		atomic_store(&win->stop, true);
	return 0;
}

static int queued_window_run(struct cap_window *win, unsigned depth, struct histogram *h,
			     uint64_t *completed, uint64_t *last)
{
	struct cap_ctx *c = win->ctx;
	struct queued_window q = { .win = win, .h = h };
	struct pipeline p;
	int ret;

	atomic_init(&win->next, 0);
	atomic_init(&win->stop, false);
	ret = pipeline_init_depth(&p, c->b, c->b->plan->chunk, false, depth);
	if (ret) {
		snprintf(win->msg, sizeof(win->msg), "%s at depth %u", c->b->plan->engine->name, depth);
		return ret;
	}
	ret = pipeline_open_file(&p, c->w->io_path, io_open_flags(c->b, O_RDWR));
	if (ret) {
		snprintf(win->msg, sizeof(win->msg), "open %s", c->w->io_path);
		goto out;
	}
	win->t0 = now_ns();
	ret = pipeline_drive(&p, queued_fill, queued_complete, &q);
	if (ret)
		snprintf(win->msg, sizeof(win->msg), "%s", c->err[0] ? c->err : c->w->io_path);
	*completed = q.completed;
	*last = q.last;
out:
	pipeline_release(&p);
	return ret;
}

/* --open-loop-log, opened once by capacity_log_open; NULL without */
static FILE *cap_log;

int capacity_log_open(const struct capacity_spec *sp, char *err, size_t errlen)
{
	struct stat st;
	int fd, ret;

	if (!sp->log_path || cap_log)
		return 0;
	/*
	 * clyde runs as root: a link planted at the path would have it
	 * truncate a file it was never given. Not followed (Linux says ELOOP,
	 * the BSDs EMLINK), and no file with other names, nor one that is not
	 * a plain file (a FIFO would block: O_NONBLOCK). Opened once, before
	 * the run: a directory of the path swapped later changes nothing.
	 */
	fd = open(sp->log_path, O_WRONLY | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC,
		  0644);
	if (fd < 0) {
		ret = -errno;
		if (ret == -ELOOP || ret == -EMLINK)
			snprintf(err, errlen, "--open-loop-log: %s is a symbolic link: clyde does not "
				 "follow it (name a file of its own)", sp->log_path);
		else if (ret == -ENXIO)	/* a FIFO without a reader, a device without its driver */
			snprintf(err, errlen, "--open-loop-log: %s is not a regular file",
				 sp->log_path);
		else
			snprintf(err, errlen, "--open-loop-log: cannot write %s: %s", sp->log_path,
				 strerror(-ret));
		return ret;
	}
	if (fstat(fd, &st)) {
		ret = -errno;
		snprintf(err, errlen, "--open-loop-log: %s: %s", sp->log_path, strerror(-ret));
		goto close_fd;
	}
	ret = -EINVAL;
	if (!S_ISREG(st.st_mode)) {
		snprintf(err, errlen, "--open-loop-log: %s is not a regular file", sp->log_path);
		goto close_fd;
	}
	if (st.st_nlink > 1) {
		snprintf(err, errlen, "--open-loop-log: %s has other hard links: clyde does not "
			 "write through them (name a file of its own)", sp->log_path);
		goto close_fd;
	}
	if (ftruncate(fd, 0)) {
		ret = -errno;
		snprintf(err, errlen, "--open-loop-log: cannot truncate %s: %s", sp->log_path,
			 strerror(-ret));
		goto close_fd;
	}
	cap_log = fdopen(fd, "w");
	if (!cap_log) {
		ret = -errno;
		snprintf(err, errlen, "--open-loop-log: %s: %s", sp->log_path, strerror(-ret));
		goto close_fd;
	}
	return 0;
close_fd:
	close(fd);
	return ret;
}

static int log_step(const struct cap_ctx *c, const struct cap_window *win, unsigned step,
		    char *err, size_t errlen)
{
	if (!cap_log) {
		snprintf(err, errlen, "--open-loop-log: %s was not opened",
			 c->b->plan->capacity.log_path);
		return -EBADF;
	}
	for (uint64_t k = 0; k < win->n; k++)
		fprintf(cap_log, "%s %u %llu %llu %llu %d\n", c->d->csv_name, step,
			(unsigned long long)ticket_time(win, k),
			(unsigned long long)win->log_sent[k], (unsigned long long)win->log_done[k],
			win->log_res[k]);
	/* each step whole in the file, or the run's error */
	if (fflush(cap_log) | ferror(cap_log)) {
		snprintf(err, errlen, "--open-loop-log: cannot write %s",
			 c->b->plan->capacity.log_path);
		return -EIO;
	}
	return 0;
}

/* The search's concurrency is a queue's depth: a queued engine (uring, null) and its requests. */
static bool capacity_by_depth(const struct cap_ctx *c)
{
	return c->kind->queued && (c->b->plan->engine->flags & ENGINE_F_QUEUED);
}

/* The latency at q of h in seconds (0 when empty). */
static double hist_s(const struct histogram *h, double q)
{
	return h->count ? (double)hist_quantile(h, q) / 1e9 : 0;
}

/* One closed-loop window at concurrency conc, into st. */
static int search_window(struct cap_ctx *c, const struct capacity_result *cr, unsigned conc,
			 double rate_hint, struct cap_search_step *st, char *msg, size_t msglen)
{
	const struct capacity_spec *sp = &c->b->plan->capacity;
	struct cap_window win = {
		.ctx = c,
		.min_ns = (uint64_t)(sp->step_s * 1e9),
		.max_ns = (uint64_t)(sp->step_s * CAP_WINDOW_MAX_STEPS * 1e9),
		.min_samples = cr->min_samples,
		.limit = UINT64_MAX,
	};
	struct histogram *h = calloc(2, sizeof(*h));
	uint64_t completed = 0, late = 0, last = 0;
	int ret, eret;

	if (!h)
		return -ENOMEM;
	if (c->kind->consumes) {
		/*
		 * a window's worth at twice the best rate seen; a window that uses
		 * them up sooner ends there (few when short of its samples)
		 */
		double want = rate_hint * 2 * sp->step_s;

		if (want < (double)cr->min_samples * 2)
			want = (double)cr->min_samples * 2;
		if (want > 4e6)
			want = 4e6;
		win.limit = (uint64_t)want;
	}
	ret = c->kind->step_begin(c, win.limit);
	if (ret) {
		snprintf(msg, msglen, "%s", c->err);
		goto out;
	}
	if (capacity_by_depth(c))
		ret = queued_window_run(&win, conc, &h[0], &completed, &last);
	else
		ret = window_run(&win, conc, &h[0], &h[1], &completed, &late, &last);
	if (ret)
		snprintf(msg, msglen, "%s", win.msg);
	eret = c->kind->step_end(c, atomic_load(&win.next) < win.limit ? atomic_load(&win.next)
								       : win.limit);
	if (eret && !ret) {
		ret = eret;
		snprintf(msg, msglen, "%s", c->err);
	}
	if (ret)
		goto out;
	st->conc = conc;
	st->samples = completed;
	st->seconds = last > win.t0 ? (double)(last - win.t0) / 1e9 : 0;
	st->rate = st->seconds > 0 ? (double)completed / st->seconds : 0;
	st->latency_s = hist_s(&h[0], cr->pct / 100.0);
	st->within = completed && st->latency_s <= cr->target_s;
	st->few = completed < cr->min_samples;
out:
	free(h);
	return ret;
}

static int search(struct cap_ctx *c, struct capacity_result *cr, char *msg, size_t msglen)
{
	const struct capacity_spec *sp = &c->b->plan->capacity;
	unsigned lo = 0, hi = 0, conc = 1;
	double best = cr->unbounded_rate;
	int ret;

	cr->searched = true;
	cr->by_depth = capacity_by_depth(c);
	cr->pct = sp->target_pct;
	cr->target_s = sp->target_s;
	cr->min_samples = capacity_min_samples(sp->target_pct);
	while (cr->nsearch < CAP_MAX_SEARCH_STEPS) {
		struct cap_search_step *st = &cr->search[cr->nsearch];

		ret = search_window(c, cr, conc, best, st, msg, msglen);
		if (ret)
			return ret;
		cr->nsearch++;
		if (st->rate > best)
			best = st->rate;
		conc = capacity_search_next(&lo, &hi, conc, st->within, sp->max_conc);
		if (!conc)
			break;
	}
	/* the best rate within the target; its concurrency the highest as good (ties: noise) */
	for (unsigned i = 0; i < cr->nsearch; i++)
		if (cr->search[i].within && cr->search[i].rate > cr->rate)
			cr->rate = cr->search[i].rate;
	for (unsigned i = 0; i < cr->nsearch; i++)
		if (cr->search[i].within && cr->search[i].rate >= CAP_RATE_TIE_SHARE * cr->rate &&
		    cr->search[i].conc > cr->conc)
			cr->conc = cr->search[i].conc;
	cr->met = cr->conc > 0;
	return 0;
}

/* Ticket times for a Poisson step: the sum of exponential gaps of mean 1/rate. */
static uint64_t *poisson_offsets(uint64_t n, double rate, uint64_t seed)
{
	uint64_t *off = malloc((n ? n : 1) * sizeof(*off));
	struct rng r;
	double t = 0;

	if (!off)
		return NULL;
	rng_seed(&r, seed);
	for (uint64_t k = 0; k < n; k++) {
		/* u in (0, 1]: never log(0) */
		double u = ((double)(rng_next(&r) >> 11) + 1.0) / 9007199254740992.0;

		off[k] = (uint64_t)(t * 1e9);
		t += -log(u) / rate;
	}
	return off;
}

/* One open-loop step at rate, into st. */
static int open_step(struct cap_ctx *c, struct capacity_result *cr, double rate,
		     struct cap_open_step *st, char *msg, size_t msglen)
{
	const struct capacity_spec *sp = &c->b->plan->capacity;
	uint64_t n = (uint64_t)llround(rate * sp->step_s);
	struct cap_window win = {
		.ctx = c,
		.open = true,
		.gap_ns = 1e9 / rate,
		.stop_ns = (uint64_t)(2 * sp->step_s * 1e9),
	};
	struct histogram *h = calloc(2, sizeof(*h));
	uint64_t *offsets = NULL, completed = 0, late = 0, last = 0, taken, sent;
	unsigned slots = capacity_inflight(sp, rate);
	int ret, eret;

	if (n < 1)
		n = 1;
	win.n = win.limit = n;
	if (!h)
		return -ENOMEM;
	ret = -ENOMEM;
	if (sp->arrivals == CAP_ARRIVALS_POISSON) {
		offsets = poisson_offsets(n, rate, c->seed ^ ((uint64_t)cr->nopen << 40) ^ n);
		if (!offsets)
			goto out;
		win.offsets = offsets;
	}
	if (sp->log_path) {
		win.log_sent = calloc(n, sizeof(*win.log_sent));
		win.log_done = calloc(n, sizeof(*win.log_done));
		win.log_res = calloc(n, sizeof(*win.log_res));
		if (!win.log_sent || !win.log_done || !win.log_res)
			goto out;
	}
	ret = c->kind->step_begin(c, n);
	if (ret) {
		snprintf(msg, msglen, "%s", c->err);
		goto out;
	}
	ret = window_run(&win, slots, &h[0], &h[1], &completed, &late, &last);
	if (ret)
		snprintf(msg, msglen, "%s", win.msg);
	taken = atomic_load(&win.next) < n ? atomic_load(&win.next) : n;
	eret = c->kind->step_end(c, taken);
	if (eret && !ret) {
		ret = eret;
		snprintf(msg, msglen, "%s", c->err);
	}
	if (ret)
		goto out;
	/* the tickets no thread took: each had waited from its time to the step's end */
	for (uint64_t k = taken; k < n; k++) {
		uint64_t at = ticket_time(&win, k), end = last > win.stop_ns ? last : win.stop_ns;

		hist_record(&h[0], end > at ? end - at : 0);
	}
	sent = atomic_load(&win.sent);
	st->offered = rate;
	st->inflight = slots;
	st->scheduled = n;
	st->completed = completed;
	st->sent_late = late;
	st->unsent = n - sent;
	st->seconds = last > win.t0 ? (double)(last - win.t0) / 1e9 : 0;
	{
		/* over the schedule's span at least: a step that kept up is not faster than offered */
		double span = (double)n / rate;

		st->achieved = (double)completed / (st->seconds > span ? st->seconds : span);
	}
	st->p50_s = hist_s(&h[0], 0.5);
	st->p99_s = hist_s(&h[0], 0.99);
	st->p999_s = hist_s(&h[0], 0.999);
	st->max_s = h[0].count ? (double)h[0].max / 1e9 : 0;
	st->service_p50_s = hist_s(&h[1], 0.5);
	st->service_p99_s = hist_s(&h[1], 0.99);
	st->service_p999_s = hist_s(&h[1], 0.999);
	st->service_max_s = h[1].count ? (double)h[1].max / 1e9 : 0;
	if (slots > cr->inflight)
		cr->inflight = slots;
	if (win.log_sent)
		ret = log_step(c, &win, cr->nopen, msg, msglen);
out:
	free(win.log_sent);
	free(win.log_done);
	free(win.log_res);
	free(offsets);
	free(h);
	return ret;
}

static int open_loop_steps(struct cap_ctx *c, struct capacity_result *cr, char *msg,
			   size_t msglen)
{
	const struct capacity_spec *sp = &c->b->plan->capacity;
	double rate, spent = 0;
	int ret;

	cr->open = true;
	cr->sweep = sp->sweep;
	cr->arrivals = sp->arrivals;
	rate = sp->sweep ? cr->unbounded_rate / CAP_SWEEP_START_DIV : sp->rates[0];
	if (!(rate >= 1))
		rate = 1;
	for (unsigned i = 0; cr->nopen < CAP_MAX_OPEN_STEPS; i++) {
		struct cap_open_step *st = &cr->steps[cr->nopen];

		if (!sp->sweep && i >= sp->nrates)
			break;
		if (!sp->sweep)
			rate = sp->rates[i];
		ret = open_step(c, cr, rate, st, msg, msglen);
		if (ret)
			return ret;
		cr->nopen++;
		spent += st->seconds;
		if (!capacity_step_kept_up(st) && !cr->saturated) {
			cr->saturated = true;
			cr->knee = rate;
			/* a sweep takes one step past its knee, to show the rate stays there */
			if (sp->sweep) {
				rate *= CAP_SWEEP_GROWTH;
				continue;
			}
		}
		if (!sp->sweep)
			continue;
		if (cr->saturated)
			break;
		if (spent >= sp->time_s) {
			cr->timed_out = true;
			snprintf(cr->note, sizeof(cr->note), "the sweep did not saturate within "
				 "--capacity-time=%g s (last offered %.0f/s)", sp->time_s, rate);
			break;
		}
		if (rate * CAP_SWEEP_GROWTH > CAP_RATE_MAX) {
			cr->timed_out = true;
			snprintf(cr->note, sizeof(cr->note), "the sweep did not saturate below %g/s, "
				 "the most clyde schedules", CAP_RATE_MAX);
			break;
		}
		rate *= CAP_SWEEP_GROWTH;
	}
	if (sp->sweep && !cr->saturated && !cr->timed_out) {
		cr->timed_out = true;
		snprintf(cr->note, sizeof(cr->note), "the sweep did not saturate in %u steps",
			 CAP_MAX_OPEN_STEPS);
	}
	return 0;
}

int capacity_run(struct bench *b, struct worker *w, const struct phase_def *d,
		 struct phase_result *pr)
{
	struct cap_ctx c = { .b = b, .w = w, .d = d, .dirfd = -1, .parentfd = -1 };
	struct capacity_result *cr = calloc(1, sizeof(*cr));
	char msg[WORKPATH_MAX + 128] = "";
	int ret;

	if (!cr) {
		snprintf(b->errmsg, sizeof(b->errmsg), "%s: capacity: out of memory", d->name);
		return -ENOMEM;
	}
	c.kind = capacity_kind(d->id, &c.random);
	cr->unbounded_rate = phase_rate(pr);
	pr->capacity = cr;
	ret = c.kind->setup(&c);
	if (ret) {
		snprintf(msg, sizeof(msg), "%s", c.err);
		goto out;
	}
	if (b->plan->capacity.target_on)
		ret = search(&c, cr, msg, sizeof(msg));
	if (!ret && b->plan->capacity.open_on)
		ret = open_loop_steps(&c, cr, msg, sizeof(msg));
out:
	c.kind->teardown(&c);
	if (ret)
		snprintf(b->errmsg, sizeof(b->errmsg), "%s: capacity (%s): %.700s: %s", d->name,
			 c.kind->what, msg[0] ? msg : "setup", strerror(-ret));
	return ret;
}
