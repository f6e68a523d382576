// SPDX-License-Identifier: BSD-2-Clause
/* A live progress line on stderr, redrawn by a thread four times a second. */
#include "config.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "lib/progress.h"
#include "lib/size.h"
#include "lib/timing.h"

bool progress_live;
atomic_uint_fast64_t progress_ops;

static struct {
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t wake;
	bool running;
	bool stop;
	const char *label;
	uint64_t total;
	uint64_t unit;
} pg = { .lock = PTHREAD_MUTEX_INITIALIZER, .wake = PTHREAD_COND_INITIALIZER };

static void draw(uint64_t ops, double rate)
{
	char r[32], eta[32] = "";

	if (pg.unit) {
		size_human(r, sizeof(r), (uint64_t)(rate * (double)pg.unit));
		strcat(r, "/s");
	} else {
		snprintf(r, sizeof(r), "%.0f/s", rate);
	}
	/* the time left at the current rate, where there is a total and a rate */
	if (pg.total && rate > 0 && ops < pg.total)
		snprintf(eta, sizeof(eta), " ETA %.0f s", (double)(pg.total - ops) / rate);
	fprintf(stderr, "\r%s... %5.1f%% %16s%s ", pg.label,
		pg.total ? 100.0 * (double)ops / (double)pg.total : 0.0, r, eta);
	fflush(stderr);
}

static void *progress_main(void *arg)
{
	uint64_t last_ops = 0, last_t = now_ns();
	struct timespec until;

	(void)arg;
	pthread_mutex_lock(&pg.lock);
	while (!pg.stop) {
		clock_gettime(CLOCK_REALTIME, &until);
		until.tv_nsec += 250000000;
		if (until.tv_nsec >= 1000000000) {
			until.tv_sec++;
			until.tv_nsec -= 1000000000;
		}
		pthread_cond_timedwait(&pg.wake, &pg.lock, &until);
		if (pg.stop)
			break;
		uint64_t ops = atomic_load_explicit(&progress_ops, memory_order_relaxed);
		uint64_t t = now_ns();

		draw(ops, t > last_t ? (double)(ops - last_ops) * 1e9 / (double)(t - last_t) : 0);
		last_ops = ops;
		last_t = t;
	}
	pthread_mutex_unlock(&pg.lock);
	return NULL;
}

int progress_begin(const char *label, uint64_t total, uint64_t unit_bytes)
{
	int ret;

	atomic_store(&progress_ops, 0);
	pg.label = label;
	pg.total = total;
	pg.unit = unit_bytes;
	pg.stop = false;
	ret = -pthread_create(&pg.thread, NULL, progress_main, NULL);
	pg.running = !ret;
	return ret;
}

void progress_end(const char *result)
{
	if (pg.running) {
		pthread_mutex_lock(&pg.lock);
		pg.stop = true;
		pthread_cond_signal(&pg.wake);
		pthread_mutex_unlock(&pg.lock);
		pthread_join(pg.thread, NULL);
		pg.running = false;
	}
	/* Clear the live line and leave bonnie++'s "label...done". */
	fprintf(stderr, "\r%-60s\r%s...%s\n", "", pg.label ? pg.label : "", result);
	fflush(stderr);
}
