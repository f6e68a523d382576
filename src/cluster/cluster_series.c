// SPDX-License-Identifier: BSD-2-Clause
/*
 * The ranks' time series of one phase merged on rank 0's clock (see
 * cluster_result.h): every rank re-bins its closed series onto a grid
 * they all compute alike from agreed figures, then the rows are summed
 * (work, operations, sketches, CPU, readings) onto rank 0 and the
 * slowest operation and the other ranks' machine-wide gauges are taken
 * at their largest. Rank 0 keeps its own test file's and device's
 * columns.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cluster/cluster.h"
#include "cluster/cluster_result.h"

/* What the ranks agree on first, each the largest of the ranks'. */
enum { AG_WIDTH, AG_MISSING, AG_FIXED, AG_CAPPED, AG_RECORD, AG_COUNT };

/* A row's sums: work, ops, CPU (ns), readings, then the sketch. */
enum { SU_WORK, SU_OPS, SU_USER, SU_SYS, SU_READS, SU_SKETCH, SU_ROW = SU_SKETCH + SERIES_BUCKETS };

/* A row's maxima: the slowest operation, the other ranks' gauges plus one (0: none). */
enum { MX_MAX_NS, MX_DIRTY, MX_WRITEBACK, MX_ROW };

/* Seconds to whole nanoseconds, as a single process's times are. */
uint64_t cluster_span_ns(double first_start, double last_end)
{
	double d = (last_end - first_start) * 1e9;

	return d > 0 ? (uint64_t)llround(d) : 0;
}

static uint64_t to_ns(double s)
{
	return s > 0 ? (uint64_t)llround(s * 1e9) : 0;
}

/* A gauge read (-1: not measured) into the largest so far, plus one (0: none). */
static void gauge_max(uint64_t *most, int64_t kib)
{
	if (kib >= 0 && (uint64_t)kib + 1 > *most)
		*most = (uint64_t)kib + 1;
}

/* The grid's row of a position (ns from its origin). */
static unsigned row_of(uint64_t at, uint64_t width, unsigned rows)
{
	uint64_t g = at / width;

	return g < rows ? (unsigned)g : rows - 1;
}

/* This rank's series onto the grid: its rows' sums and maxima; rank 0's readings into grid. */
static void rebin(const struct series *s, double t_start, double offset_s, double first_start,
		  uint64_t width, unsigned rows, uint64_t *sum, uint64_t *max, struct series *grid)
{
	double d = (t_start - offset_s - first_start) * 1e9;
	uint64_t at0 = d > 0 ? (uint64_t)llround(d) : 0;
	uint64_t span = s->end_ns > s->origin_ns ? s->end_ns - s->origin_ns : 0;

	for (unsigned k = 0; k < series_rows(s) && k < s->cap; k++) {
		const struct series_slot *sl = &s->slot[k];
		const struct series_machine *m = s->mach ? &s->mach[k] : NULL;
		uint64_t start = (uint64_t)k * s->width_ns, end = start + s->width_ns;
		unsigned g = row_of(at0 + start, width, rows);
		uint64_t *su = &sum[(size_t)g * SU_ROW], *mx;

		/* the operations by the slot's start, as timeline_merge does */
		su[SU_WORK] += sl->work;
		su[SU_OPS] += sl->ops;
		for (unsigned b = 0; b < SERIES_BUCKETS; b++)
			su[SU_SKETCH + b] += sl->sketch[b];
		if (sl->max_ns > max[(size_t)g * MX_ROW + MX_MAX_NS])
			max[(size_t)g * MX_ROW + MX_MAX_NS] = sl->max_ns;
		if (!m || !m->set)
			continue;
		/* a reading by its slot's end, when it was taken: the last one in the last row */
		if (end > span)
			end = span;
		g = row_of(at0 + end > 0 ? at0 + end - 1 : 0, width, rows);
		su = &sum[(size_t)g * SU_ROW];
		mx = &max[(size_t)g * MX_ROW];
		if (m->gauges_only) {
			/* the stall reader's: gauges, no CPU or bytes */
			if (grid && (!grid->mach[g].set || grid->mach[g].gauges_only)) {
				struct series_machine *gm = &grid->mach[g];

				if (!gm->set)
					*gm = *m;
				gm->dirty_kib = m->dirty_kib;
				gm->writeback_kib = m->writeback_kib;
			} else if (!grid) {
				gauge_max(&mx[MX_DIRTY], m->dirty_kib);
				gauge_max(&mx[MX_WRITEBACK], m->writeback_kib);
			}
			continue;
		}
		su[SU_USER] += to_ns(m->cpu_user);
		su[SU_SYS] += to_ns(m->cpu_sys);
		su[SU_READS]++;
		if (grid) {
			struct series_machine *gm = &grid->mach[g];
			bool fresh = !gm->set || gm->gauges_only;
			bool dev = fresh || gm->dev_read_bytes >= 0;

			/* rank 0's reading: the latest gauges, the device's bytes added */
			gm->dirty_kib = m->dirty_kib;
			gm->writeback_kib = m->writeback_kib;
			gm->file_dirty_kib = m->file_dirty_kib;
			gm->file_writeback_kib = m->file_writeback_kib;
			if (dev && m->dev_read_bytes >= 0) {
				if (fresh)
					gm->dev_read_bytes = gm->dev_write_bytes = 0;
				gm->dev_read_bytes += m->dev_read_bytes;
				gm->dev_write_bytes += m->dev_write_bytes;
			} else {
				gm->dev_read_bytes = gm->dev_write_bytes = -1;
			}
			gm->set = true;
			gm->gauges_only = false;
		} else {
			gauge_max(&mx[MX_DIRTY], m->dirty_kib);
			gauge_max(&mx[MX_WRITEBACK], m->writeback_kib);
		}
	}
}

/* Rank 0: the grid's rows from the sums and maxima. */
static void fill(struct series *grid, const uint64_t *sum, const uint64_t *max)
{
	for (unsigned g = 0; g < grid->used; g++) {
		const uint64_t *su = &sum[(size_t)g * SU_ROW], *mx = &max[(size_t)g * MX_ROW];
		struct series_slot *sl = &grid->slot[g];
		struct series_machine *gm = &grid->mach[g];

		sl->work = su[SU_WORK];
		sl->ops = su[SU_OPS];
		sl->max_ns = mx[MX_MAX_NS];
		for (unsigned b = 0; b < SERIES_BUCKETS; b++) {
			uint64_t c = su[SU_SKETCH + b];

			sl->sketch[b] = c > UINT32_MAX ? UINT32_MAX : (uint32_t)c;
		}
		if (!su[SU_READS])
			continue;
		if (!gm->set) {
			/* none of rank 0's here: the others' gauges, not its file or device */
			gm->dirty_kib = (int64_t)mx[MX_DIRTY] - 1;
			gm->writeback_kib = (int64_t)mx[MX_WRITEBACK] - 1;
			gm->file_dirty_kib = gm->file_writeback_kib = -1;
			gm->dev_read_bytes = gm->dev_write_bytes = -1;
			gm->set = true;
		}
		/* the ranks' readings' CPU, beside rank 0's stall reader's gauges */
		gm->gauges_only = false;
		gm->cpu_user = (double)su[SU_USER] / 1e9;
		gm->cpu_sys = (double)su[SU_SYS] / 1e9;
	}
}

int cluster_series(const struct phase_result *pr, double offset_s, double first_start,
		   double last_end, struct series **out)
{
	const struct series *s = pr->ran ? pr->series : NULL;
	bool root = cluster_rank() == 0;
	uint64_t agree[AG_COUNT] = {
		[AG_WIDTH] = s ? s->width_ns : 0,
		[AG_MISSING] = pr->ran && !s,
		[AG_FIXED] = s && s->fixed,
		[AG_CAPPED] = s && s->capped,
		[AG_RECORD] = s ? s->record_bytes : 0,
	};
	uint64_t span, width, *sum = NULL, *total = NULL, *max = NULL, lost, sampler;
	struct series *grid = NULL;
	unsigned rows, limit;
	size_t nsum;
	int ret;

	*out = NULL;
	/* every decision below is on agreed figures: every rank makes the same calls */
	ret = cluster_max_u64(agree, AG_COUNT);
	if (ret || !isfinite(first_start) || !isfinite(last_end) || agree[AG_MISSING] ||
	    !agree[AG_WIDTH])
		return ret;
	span = cluster_span_ns(first_start, last_end);
	width = agree[AG_WIDTH];
	limit = series_max_rows(agree[AG_FIXED], true);
	for (;;) {
		uint64_t n = span ? (span + width - 1) / width : 1;

		if (n <= limit) {
			rows = (unsigned)n;
			break;
		}
		width *= 2;
		if (agree[AG_FIXED])
			agree[AG_CAPPED] = 1;
	}
	nsum = (size_t)rows * SU_ROW + 1;
	sum = calloc(nsum, sizeof(*sum));
	max = calloc((size_t)rows * MX_ROW, sizeof(*max));
	if (root) {
		total = calloc(nsum, sizeof(*total));
		grid = series_grid(width, rows, span, agree[AG_FIXED]);
	}
	lost = !sum || !max || (root && (!total || !grid));
	ret = cluster_max_u64(&lost, 1);
	if (ret || lost) {
		ret = ret ? ret : -ENOMEM;
		goto out;
	}
	if (s) {
		rebin(s, pr->t_start, offset_s, first_start, width, rows, sum, max,
		      root ? grid : NULL);
		sum[nsum - 1] = to_ns(s->sampler_cpu_s);
	}
	ret = cluster_sum_u64(sum, total, nsum);
	if (!ret)
		ret = cluster_max_u64(max, (size_t)rows * MX_ROW);
	if (ret || !root)
		goto out;
	fill(grid, total, max);
	grid->capped = agree[AG_CAPPED];
	grid->record_bytes = agree[AG_RECORD];
	sampler = total[nsum - 1];
	grid->sampler_cpu_s = (double)sampler / 1e9;
	if (s) {
		memcpy(grid->dirty_source, s->dirty_source, sizeof(grid->dirty_source));
		memcpy(grid->file_source, s->file_source, sizeof(grid->file_source));
		memcpy(grid->dev_source, s->dev_source, sizeof(grid->dev_source));
	}
	*out = grid;
	grid = NULL;
out:
	series_free(grid);
	free(sum);
	free(total);
	free(max);
	return ret;
}
