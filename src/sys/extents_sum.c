/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Extents and free space added up, pure: the same on every OS, called by
 * the OS's part (extents_linux.c, extents_bsd.c) for each piece it is
 * told and by extents.c, and tested on crafted maps
 * (tests/unit/unit_extents.c).
 */
#include "config.h"

#include <string.h>

#include "sys/extents.h"

void extent_figures_init(struct extent_figures *f)
{
	memset(f, 0, sizeof(*f));
}

void free_space_figures_init(struct free_space_figures *f)
{
	memset(f, 0, sizeof(*f));
}

void extent_file_begin(struct extent_file *x, struct extent_figures *f, struct extent_map *map)
{
	x->f = f;
	x->map = map;
	x->open = false;
	x->run_end = 0;
	x->run_bytes = 0;
}

static void extent_run_close(struct extent_file *x)
{
	if (x->open && x->run_bytes > x->f->largest_run)
		x->f->largest_run = x->run_bytes;
	x->open = false;
}

/*
 * A piece continues the open run when it starts where the run ends on the
 * device: a read across both is one request there. Pieces with no place
 * (unknown, inline) end any run and start none.
 */
void extent_file_piece(struct extent_file *x, const struct extent_piece *p)
{
	struct extent_figures *f = x->f;

	f->extents++;
	f->bytes += p->length;
	f->unwritten += !!(p->flags & EXTENT_UNWRITTEN);
	f->unknown += !!(p->flags & EXTENT_UNKNOWN);
	f->inline_data += !!(p->flags & EXTENT_INLINE);
	f->encoded += !!(p->flags & EXTENT_ENCODED);
	f->shared += !!(p->flags & EXTENT_SHARED);
	if (x->map) {
		if (x->map->count < x->map->max)
			x->map->pieces[x->map->count++] = *p;
		else
			x->map->truncated = true;
	}
	if (p->flags & (EXTENT_UNKNOWN | EXTENT_INLINE)) {
		extent_run_close(x);
		return;
	}
	if (x->open && p->physical == x->run_end) {
		x->run_bytes += p->length;
	} else {
		extent_run_close(x);
		x->open = true;
		x->run_bytes = p->length;
		f->runs++;
	}
	x->run_end = p->physical + p->length;
}

void extent_file_end(struct extent_file *x)
{
	extent_run_close(x);
	x->f->files++;
}

void free_space_begin(struct free_space_walk *w, struct free_space_figures *f)
{
	w->f = f;
	w->open = false;
	w->end = 0;
	w->bytes = 0;
}

unsigned free_space_bucket(uint64_t bytes)
{
	unsigned b = 0;

	while (b + 1 < FREE_BUCKETS && bytes >= FREE_BUCKET_MIN << (b + 1))
		b++;
	return b;
}

const char *free_space_bucket_name(unsigned bucket)
{
	static const char *const names[FREE_BUCKETS] = {
		"4k", "8k", "16k", "32k", "64k", "128k", "256k", "512k", "1m", "2m", "4m",
		"8m", "16m", "32m", "64m", "128m", "256m", "512m", "1g+",
	};

	return bucket < FREE_BUCKETS ? names[bucket] : "?";
}

static void free_piece_close(struct free_space_walk *w)
{
	struct free_space_figures *f = w->f;

	if (!w->open)
		return;
	f->pieces++;
	f->buckets[free_space_bucket(w->bytes)]++;
	if (w->bytes > f->largest)
		f->largest = w->bytes;
	w->open = false;
}

/*
 * Records in physical order; one that starts where the open piece ends
 * continues it (ext4 reports free space per block group, and a free run
 * may cross from one group into the next).
 */
void free_space_record(struct free_space_walk *w, uint64_t physical, uint64_t length)
{
	w->f->records++;
	w->f->bytes += length;
	if (w->open && physical == w->end) {
		w->bytes += length;
	} else {
		free_piece_close(w);
		w->open = true;
		w->bytes = length;
	}
	w->end = physical + length;
}

void free_space_end(struct free_space_walk *w)
{
	free_piece_close(w);
}
