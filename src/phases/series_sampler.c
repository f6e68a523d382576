// SPDX-License-Identifier: BSD-2-Clause
/* The machine's side of a phase's series: one reading per interval (see series_sampler.h). */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/phase.h"
#include "lib/size.h"
#include "phases/phase_clock.h"
#include "phases/series_sampler.h"
#include "phases/stall_reader.h"
#include "phases/steady_watch.h"

/* The devices' counters summed; 0 or -errno. */
static int dev_read(const struct prof_devices *devs, struct prof_dev_counters *sum)
{
	memset(sum, 0, sizeof(*sum));
	for (unsigned i = 0; i < devs->count; i++) {
		struct prof_dev_counters c;
		int ret = prof_os_dev_read(devs->name[i], &c);

		if (ret)
			return ret;
		sum->rd_bytes += c.rd_bytes;
		sum->wr_bytes += c.wr_bytes;
	}
	return 0;
}

/* The test files' dirty and writeback pages, summed; 0 or -errno. */
static int files_read(const struct series_sampler *ss, struct sys_dirty *sum)
{
	sum->dirty_kib = sum->writeback_kib = 0;
	for (unsigned i = 0; i < ss->nfds; i++) {
		struct sys_dirty d;
		int ret;

		if (ss->fds[i] < 0)
			return -EBADF;
		ret = sys_file_dirty(ss->fds[i], &d);
		if (ret)
			return ret;
		sum->dirty_kib += d.dirty_kib;
		sum->writeback_kib += d.writeback_kib;
	}
	return 0;
}

/*
 * cachestat(2) walks every cached page of the range: about 1 ms for a
 * 200 MiB file on a tmpfs (6 us on ext4's large folios). Inside a phase
 * a read of the test files is followed by as many intervals without one
 * as keep their cost at 1/FILE_COST_SHARE of the time (none where it is
 * cheap), so one slow read, preempted say, pauses them rather than ends
 * them; the phase's last reading, after its end, always reads them. The
 * read before the clock counts as the first: it is taken by the thread
 * that then does the phase's work (series_sampler_tick runs in the
 * workers), so a first interval that read them again cost a 1 GiB tmpfs
 * file's block read 5% of its time.
 */
#define FILE_COST_SHARE 200

/* Intervals to go without reading the files after a read that took cost_ns. */
static uint64_t file_rest_after(uint64_t cost_ns, uint64_t width_ns)
{
	return cost_ns * FILE_COST_SHARE / width_ns;
}

/* One reading, for the interval that ends at when_ns; cpu: the process's now. */
static void take(struct series_sampler *ss, uint64_t when_ns, const struct cpu_sample *cpu,
		 bool last)
{
	struct series_machine m = {
		.set = true,
		.cpu_user = cpu->user - ss->cpu_prev.user,
		.cpu_sys = cpu->sys - ss->cpu_prev.sys,
		.dirty_kib = -1, .writeback_kib = -1,
		.file_dirty_kib = -1, .file_writeback_kib = -1,
		.dev_read_bytes = -1, .dev_write_bytes = -1,
	};
	struct prof_dev_counters dev;
	struct sys_dirty d;

	ss->cpu_prev = *cpu;
	ss->last_dirty_kib = -1;
	if (ss->dirty_ok && !sys_dirty_read(&ss->dirty, &d)) {
		ss->last_dirty_kib = d.dirty_kib;
		m.dirty_kib = d.dirty_kib;
		m.writeback_kib = d.writeback_kib;
	}
	if (ss->file_ok && (last || !ss->file_rest)) {
		uint64_t t0 = now_ns();

		if (!files_read(ss, &d)) {
			m.file_dirty_kib = d.dirty_kib;
			m.file_writeback_kib = d.writeback_kib;
		}
		ss->file_cost_ns = now_ns() - t0;
		ss->file_rest = file_rest_after(ss->file_cost_ns, ss->machine->width_ns);
	} else if (ss->file_rest) {
		ss->file_rest--;
	}
	if (ss->dev_ok && !dev_read(ss->devs, &dev)) {
		m.dev_read_bytes = (int64_t)(dev.rd_bytes - ss->dev_prev.rd_bytes);
		m.dev_write_bytes = (int64_t)(dev.wr_bytes - ss->dev_prev.wr_bytes);
		ss->dev_prev = dev;
	}
	series_machine_add(ss->machine, when_ns, &m);
}

/* What can be read, once the clock has opened (the test files exist by then). */
static void open_sources(struct series_sampler *ss)
{
	struct sys_dirty d;

	ss->dirty_ok = !sys_dirty_open(&ss->dirty);
	ss->file_ok = ss->nfds > 0 && sys_file_dirty_source();
	for (unsigned i = 0; i < ss->nfds; i++) {
		ss->fds[i] = open(ss->paths[i], O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
		if (ss->fds[i] < 0)
			ss->file_ok = false;
	}
	if (ss->file_ok) {
		uint64_t t0 = now_ns();

		ss->file_ok = !files_read(ss, &d);
		ss->file_cost_ns = now_ns() - t0;
		ss->file_rest = file_rest_after(ss->file_cost_ns, ss->machine->width_ns);
	}
	ss->dev_ok = ss->devs && !dev_read(ss->devs, &ss->dev_prev);
}

/* The reader's gauges into the intervals up to end_ns that have none. */
static void stall_fill(struct series_sampler *ss, const struct stall_reading *r, unsigned n,
		       uint64_t end_ns)
{
	for (unsigned i = 0; i < n; i++) {
		struct series_machine g = {
			.dirty_kib = r[i].machine.dirty_kib,
			.writeback_kib = r[i].machine.writeback_kib,
			.file_dirty_kib = -1, .file_writeback_kib = -1,
		};

		if (r[i].end_ns < end_ns)
			series_machine_fill(ss->machine, r[i].end_ns, &g);
	}
}

/* "1.25 ms": a latency for the live line. */
static void latency_text(char *buf, size_t len, uint64_t ns)
{
	if (!ns)
		snprintf(buf, len, "-");
	else if (ns < 1000000)
		snprintf(buf, len, "%.0f us", (double)ns / 1e3);
	else if (ns < 1000000000)
		snprintf(buf, len, "%.1f ms", (double)ns / 1e6);
	else
		snprintf(buf, len, "%.2f s", (double)ns / 1e9);
}

/* A rate in the phase's unit: "123.4 MiB/s" for bytes, "5123 seeks/s". */
static void rate_text(const struct series_sampler *ss, char *buf, size_t len, double per_s)
{
	if (ss->d->unit == UNIT_KIB) {
		size_human(buf, len, per_s > 0 ? (uint64_t)per_s : 0);
		strncat(buf, "/s", len - strlen(buf) - 1);
	} else {
		snprintf(buf, len, "%.0f %s/s", per_s, phase_unit_names(ss->d->id)->amount);
	}
}

/*
 * How far the phase is: the percent of its planned operations, or under
 * --steady, once they are all done, that it goes on until it settles and
 * how far the last check was from it (a line stuck at 100% says nothing).
 */
static void done_text(const struct series_sampler *ss, char *buf, size_t len, double pct,
		      bool final)
{
	struct steady_watch *sw = ss->steady;
	double spread;

	if (!sw || pct < 100 || final) {
		snprintf(buf, len, "%5.1f%%", pct);
		return;
	}
	pthread_mutex_lock(&sw->lock);
	spread = sw->spread;
	pthread_mutex_unlock(&sw->lock);
	if (spread < 0)
		snprintf(buf, len, "settling");
	else
		snprintf(buf, len, "settling (last check: %s %.1f%%, wants under %g%%)",
			 steady_metric_name(&sw->spec), spread, sw->spec.pct);
}

/*
 * --live: the phase at when_ns, from the workers' running totals; the rate
 * and p99 of what completed since the last line. On stderr only, once an
 * interval, by whoever reads the machine then.
 */
static void live_show(struct series_sampler *ss, uint64_t when_ns, bool final)
{
	static bool csv_header;
	uint32_t now_sketch[SERIES_BUCKETS] = { 0 }, diff[SERIES_BUCKETS];
	uint64_t work = 0, ops = 0, p99;
	double t, dt, cur, avg, pct, scale = ss->d->unit == UNIT_KIB ? 1024.0 : 1.0;
	char dirty[32], lat[32], r1[48], r2[48], done[80], line[320];
	int n;

	for (unsigned i = 0; i < ss->ncounters; i++) {
		struct series_live *l = &ss->counters[i];

		work += atomic_load_explicit(&l->work, memory_order_relaxed);
		ops += atomic_load_explicit(&l->ops, memory_order_relaxed);
		for (unsigned b = 0; b < SERIES_BUCKETS; b++)
			now_sketch[b] += atomic_load_explicit(&l->sketch[b], memory_order_relaxed);
	}
	for (unsigned b = 0; b < SERIES_BUCKETS; b++) {
		diff[b] = now_sketch[b] - ss->shown_sketch[b];
		ss->shown_sketch[b] = now_sketch[b];
	}
	t = (double)(when_ns - ss->t0) / 1e9;
	dt = (double)(when_ns - ss->shown_t) / 1e9;
	cur = dt > 0 ? (double)(work - ss->shown_work) / dt : 0;
	avg = t > 0 ? (double)work / t : 0;
	pct = ss->total_ops ? 100.0 * (double)ops / (double)ss->total_ops : 0;
	if (pct > 100)
		pct = 100;
	p99 = series_sketch_quantile(diff, 0.99);
	ss->shown_t = when_ns;
	ss->shown_work = work;
	if (ss->live == LIVE_CSV) {
		if (!csv_header)
			fprintf(stderr, "clyde-live,phase,t_s,done_pct,rate,avg_rate,rate_unit,p99_s,"
				"dirty_mib,end\n");
		csv_header = true;
		if (p99)
			snprintf(lat, sizeof(lat), "%.9g", (double)p99 / 1e9);
		else
			lat[0] = '\0';
		if (ss->last_dirty_kib >= 0)
			snprintf(dirty, sizeof(dirty), "%.1f", (double)ss->last_dirty_kib / 1024.0);
		else
			dirty[0] = '\0';
		fprintf(stderr, "clyde-live,%s,%.3f,%.1f,%.6g,%.6g,%s/s,%s,%s,%d\n",
			phase_csv_name(ss->d->id), t, pct, cur / scale, avg / scale,
			phase_unit_names(ss->d->id)->amount, lat, dirty, final);
		fflush(stderr);
		return;
	}
	latency_text(lat, sizeof(lat), p99);
	rate_text(ss, r1, sizeof(r1), cur);
	rate_text(ss, r2, sizeof(r2), avg);
	if (ss->last_dirty_kib >= 0)
		snprintf(dirty, sizeof(dirty), "%.1f MiB", (double)ss->last_dirty_kib / 1024.0);
	else
		snprintf(dirty, sizeof(dirty), "-");
	done_text(ss, done, sizeof(done), pct, final);
	n = snprintf(line, sizeof(line), "%s %s %7.2f s  now %s  avg %s  p99 %s  dirty %s%s",
		     ss->d->name, done, t, r1, r2, lat, dirty, final ? "  end" : "");
	if (ss->tty) {
		/* one line, redrawn: blanks over what a longer one left */
		fprintf(stderr, "\r%s%*s%s", line, ss->shown_len > n ? ss->shown_len - n : 0, "",
			final ? "\n" : "");
		ss->shown_len = final ? 0 : n;
	} else {
		fprintf(stderr, "clyde: live: %s\n", line);
	}
	fflush(stderr);
}

void series_sampler_prepare(struct series_sampler *ss)
{
	double c0;

	if (!ss->on)
		return;
	c0 = thread_cpu_seconds();
	open_sources(ss);
	ss->cpu_s += thread_cpu_seconds() - c0;
}

void series_sampler_begin(struct series_sampler *ss, uint64_t t0, const struct cpu_sample *cpu0)
{
	if (!ss->on)
		return;
	ss->t0 = ss->last_ns = ss->shown_t = t0;
	ss->cpu_prev = *cpu0;
	/* a write on its socket: the reader was started with the run, not here */
	if (ss->stall && ss->dirty_ok)
		ss->stall_on = stall_reader_begin(ss->stall, t0, ss->fixed_ns);
	series_start(ss->machine, t0);
	ss->open = true;
}

void series_sampler_tick(struct series_sampler *ss, uint64_t now_ns)
{
	struct cpu_sample cpu;
	uint64_t end;
	double c0;

	/* open is set before the clock releases the workers: no lock to read it */
	if (!ss->open || now_ns <= ss->t0 || pthread_mutex_trylock(&ss->lock))
		return;
	end = ss->t0 + (now_ns - ss->t0) / ss->machine->width_ns * ss->machine->width_ns;
	if (end > ss->last_ns) {
		c0 = thread_cpu_seconds();
		cpu_sample_take(&cpu);
		take(ss, end, &cpu, false);
		if (ss->live)
			live_show(ss, end, false);
		ss->last_ns = end;
		ss->cpu_s += thread_cpu_seconds() - c0;
	}
	pthread_mutex_unlock(&ss->lock);
}

int series_sampler_start(struct series_sampler *ss, const struct bench *b,
			 const struct worker *workers, const struct phase_def *d, uint64_t total_ops)
{
	const struct run_plan *p = b->plan;
	int ret;

	memset(ss, 0, sizeof(*ss));
	ss->dirty.fd = -1;
	ss->reader_cpu_s = -1;
	if (p->series_ns < 0)
		return 0;
	ss->fixed_ns = p->series_ns > 0 ? (uint64_t)p->series_ns : 0;
	ss->last_dirty_kib = -1;
	ss->d = d;
	if (p->live && b->live) {
		ss->live = p->live;
		ss->tty = isatty(STDERR_FILENO);
		ss->counters = b->live;
		ss->ncounters = p->workers;
		ss->total_ops = total_ops;
		ss->steady = b->steady;
	}
	if (b->profiler && b->profiler->devs.state == PROF_DEV_MEASURED)
		ss->devs = &b->profiler->devs;
	if (b->stall_reader && b->stall_reader->pid > 0)
		ss->stall = b->stall_reader;
	if (d->flags & PF_IO_FILE) {
		ss->nfds = p->workers;
		ss->fds = malloc(ss->nfds * sizeof(*ss->fds));
		ss->paths = malloc(ss->nfds * sizeof(*ss->paths));
		if (!ss->fds || !ss->paths) {
			ret = -ENOMEM;
			goto out_free;
		}
		for (unsigned i = 0; i < ss->nfds; i++) {
			ss->fds[i] = -1;
			snprintf(ss->paths[i], sizeof(ss->paths[i]), "%s",
				 d->flags & PF_READS_OTHER_RANK ? workers[i].read_path
								: workers[i].io_path);
		}
	}
	ss->machine = series_new(0, ss->fixed_ns, true);
	if (!ss->machine) {
		ret = -ENOMEM;
		goto out_free;
	}
	pthread_mutex_init(&ss->lock, NULL);
	ss->on = true;
	return 0;

out_free:
	free(ss->fds);
	free(ss->paths);
	ss->fds = NULL;
	ss->paths = NULL;
	return ret;
}

/* "vda" or "sda,sdb": the devices counted. */
static void dev_names(const struct prof_devices *devs, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (unsigned i = 0; i < devs->count && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s%s", i ? "," : "", devs->name[i]);
}

struct series *series_sampler_stop(struct series_sampler *ss, struct phase_clock *c,
				   uint64_t end_ns)
{
	struct series *m = ss->machine;
	const struct stall_reading *r = NULL;
	struct cpu_sample reader;
	unsigned n = 0;
	double c0;

	if (!ss->on)
		return NULL;
	pthread_mutex_lock(&ss->lock);
	c0 = thread_cpu_seconds();
	/* the reader's CPU is its own process's: apart, never in the phase's */
	if (ss->stall_on && !stall_reader_end(ss->stall, &r, &n, &reader))
		ss->reader_cpu_s = reader.user + reader.sys;
	ss->stall_on = false;
	/* the last interval ends with the phase: its CPU is the clock's own end sample */
	if (ss->open && c->stopped == c->workers) {
		take(ss, c->t1, &c->cpu1, true);
		stall_fill(ss, r, n, c->t1);
		if (ss->live)
			live_show(ss, end_ns > ss->t0 ? end_ns : c->t1, true);
	}
	ss->cpu_s += thread_cpu_seconds() - c0;
	pthread_mutex_unlock(&ss->lock);
	m->sampler_cpu_s = ss->cpu_s;
	if (ss->dirty_ok)
		snprintf(m->dirty_source, sizeof(m->dirty_source), "%s", ss->dirty.source);
	if (ss->file_ok)
		snprintf(m->file_source, sizeof(m->file_source), "%s", sys_file_dirty_source());
	if (ss->dev_ok)
		dev_names(ss->devs, m->dev_source, sizeof(m->dev_source));
	sys_dirty_close(&ss->dirty);
	for (unsigned i = 0; i < ss->nfds; i++)
		if (ss->fds[i] >= 0)
			close(ss->fds[i]);
	free(ss->fds);
	free(ss->paths);
	pthread_mutex_destroy(&ss->lock);
	ss->machine = NULL;
	ss->on = false;
	return m;
}
