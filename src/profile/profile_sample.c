// SPDX-License-Identifier: BSD-2-Clause
/*
 * --profile's sampler: one snapshot of every counter it reads, taken
 * just before a phase's timed part and just after it. The machine's
 * counters are read nearest the phase's edges, the slow process list
 * farthest from them; what a snapshot costs is measured and reported.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "lib/strutil.h"
#include "lib/timing.h"
#include "profile/profile.h"

static int take_dev_list(struct prof_sampler *p, const char *list, char *err, size_t errlen)
{
	struct prof_devices *d = &p->devs;
	const char *s = list;

	memset(d, 0, sizeof(*d));
	while (*s) {
		size_t len = strcspn(s, ",");
		struct prof_dev_counters c;
		int ret;

		if (!len || len >= PROF_DEV_LEN || d->count == PROF_MAX_DEVS) {
			snprintf(err, errlen, "--profile-dev=%s: give up to %d device names of "
				 "at most %d characters, separated by commas", list, PROF_MAX_DEVS,
				 PROF_DEV_LEN - 1);
			return -EINVAL;
		}
		memcpy(d->name[d->count], s, len);
		d->name[d->count][len] = '\0';
		ret = prof_os_dev_read(d->name[d->count], &c);
		if (ret) {
			snprintf(err, errlen, "--profile-dev: %s: no such block device's counters "
				 "(%s)", d->name[d->count], strerror(-ret));
			return ret;
		}
		d->count++;
		s += len + (s[len] == ',');
	}
	if (!d->count) {
		snprintf(err, errlen, "--profile-dev: no device named");
		return -EINVAL;
	}
	d->state = PROF_DEV_MEASURED;
	str_copy(d->via, sizeof(d->via), "--profile-dev");
	return 0;
}

int prof_sampler_init(struct prof_sampler *p, const char *dir, const struct fsinfo *fs,
		  const char *dev_list, char *err, size_t errlen)
{
	struct stack_sampler *stacks = p->stacks;

	/* --profile=stacks' events, opened before -u dropped root (prof_stacks_open) */
	memset(p, 0, sizeof(*p));
	p->stacks = stacks;
	for (int i = 0; i < PERF_COUNTERS; i++)
		p->perf_fd[i] = -1;
	p->self_pid = (int)getpid();
	str_copy(p->fs_type, sizeof(p->fs_type), fs->type);
	prof_os_clock(p);
	if (dev_list) {
		int ret = take_dev_list(p, dev_list, err, errlen);

		if (ret)
			return ret;
	} else {
		prof_os_devices(dir, fs, &p->devs);
	}
	prof_os_perf_open(p);
	return 0;
}

void prof_sampler_close(struct prof_sampler *p)
{
	prof_stacks_close(p);
	prof_os_perf_close(p);
	layers_probe_close(p->layers);
	p->layers = NULL;
}

void prof_layers_init(struct prof_sampler *p, const char *dir)
{
	const char *names[PROF_MAX_DEVS];
	unsigned n = 0;
	struct stat st;

	p->layers_asked = true;
	if (stat(dir, &st)) {
		snprintf(p->layers_why, sizeof(p->layers_why), "%s: %s", dir, strerror(errno));
		return;
	}
	if (p->devs.state == PROF_DEV_MEASURED)
		for (; n < p->devs.count; n++)
			names[n] = p->devs.name[n];
	if (layers_probe_open(&p->layers, names, n, (uint64_t)st.st_dev, p->layers_why,
			      sizeof(p->layers_why)))
		return;
	p->layers_queue = layers_probe_request_queue(p->layers);
	str_copy(p->layers_devs, sizeof(p->layers_devs), layers_probe_devs(p->layers));
}

/* The window's counts at its end, first of all, as the machine counters are. */
static void take_layers(struct prof_sampler *p, struct prof_snapshot *s)
{
	if (!p->layers)
		return;
	if (!s->layers)
		s->layers = calloc(1, sizeof(*s->layers));
	if (s->layers)
		layers_probe_end(p->layers, s->layers);
}

static void take_rusage(struct prof_snapshot *s)
{
	struct rusage ru;

	if (getrusage(RUSAGE_SELF, &ru))
		return;
	s->self_user = (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6;
	s->self_sys = (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
	s->nvcsw = (uint64_t)ru.ru_nvcsw;
	s->nivcsw = (uint64_t)ru.ru_nivcsw;
	s->minflt = (uint64_t)ru.ru_minflt;
	s->majflt = (uint64_t)ru.ru_majflt;
}

static void take_devices(const struct prof_sampler *p, struct prof_snapshot *s)
{
	s->dev_valid = p->devs.state == PROF_DEV_MEASURED;
	for (unsigned i = 0; s->dev_valid && i < p->devs.count; i++)
		if (prof_os_dev_read(p->devs.name[i], &s->dev[i]))
			s->dev_valid = false;
}

static void take_machine(struct prof_sampler *p, struct prof_snapshot *s)
{
	/* A clock rate not read makes every tick count meaningless. */
	s->machine_valid = p->hz > 0 &&
			   !prof_os_machine(s, p->machine_why, sizeof(p->machine_why));
	s->t = (double)now_ns() / 1e9;
}

static void take_tasks(struct prof_sampler *p, struct prof_snapshot *s)
{
	s->tasks_valid = p->task_hz > 0 &&
			 !prof_os_tasks(p, s, p->tasks_why, sizeof(p->tasks_why));
	if (s->tasks_valid)
		prof_sort_tasks(s);
}

void prof_snapshot_take(struct prof_sampler *p, struct prof_snapshot *s, bool at_start)
{
	double wall0 = (double)now_ns() / 1e9, cpu0 = thread_cpu_seconds();

	if (at_start) {
		take_tasks(p, s);
		take_devices(p, s);
		prof_os_perf_read(p, s->perf);
		take_rusage(s);
		take_machine(p, s);
		if (p->layers)
			layers_probe_begin(p->layers);
	} else {
		take_layers(p, s);
		take_machine(p, s);
		take_rusage(s);
		prof_os_perf_read(p, s->perf);
		take_devices(p, s);
		take_tasks(p, s);
	}
	s->cost_cpu = thread_cpu_seconds() - cpu0;
	s->cost_wall = (double)now_ns() / 1e9 - wall0;
}

void prof_snapshot_free(struct prof_snapshot *s)
{
	free(s->tasks);
	free(s->cpus.v);
	free(s->layers);
	memset(s, 0, sizeof(*s));
}
