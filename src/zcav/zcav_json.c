// SPDX-License-Identifier: BSD-2-Clause
/*
 * clyde-zcav's --json (schema clyde-zcav/1): the options, and per target
 * its identity, every pass's blocks (offset, bytes, seconds, MiB/s, the
 * chunks' latency percentiles) and, with more than one pass, each
 * block's mean of the middle third. A figure not known is null.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <sys/utsname.h>

#include "lib/json_writer.h"
#include "zcav/zcav.h"

static void identity(struct json_writer *w, const struct zcav_sweep *sw)
{
	const struct zcav_identity *id = &sw->id;

	json_obj_begin(w, "identity");
	json_add_str(w, "kind", id->kind);
	json_add_text(w, "of", id->of);
	json_add_text(w, "name", id->name);
	json_add_text(w, "sysfs", id->sysfs);
	json_add_text(w, "model", id->model);
	json_add_tristate(w, "rotational", id->rotational);
	json_known_or_null(w, "logical_block_size", id->logical_block > 0, id->logical_block);
	json_known_or_null(w, "physical_block_size", id->physical_block > 0, id->physical_block);
	json_known_or_null(w, "queue_depth", id->queue_depth > 0, id->queue_depth);
	json_known_or_null(w, "nr_requests", id->nr_requests > 0, id->nr_requests);
	json_obj_end(w);
}

static void block(struct json_writer *w, const struct zcav_block *b)
{
	static const char *const names[6] = { "min", "p50", "p90", "p99", "p99_9", "max" };

	json_obj_begin(w, NULL);
	json_add_uint(w, "offset", b->offset);
	json_add_fixed(w, "offset_gib", (double)b->offset / (1024.0 * MIB), 6);
	json_add_uint(w, "bytes", b->bytes);
	json_add_double(w, "seconds", b->seconds);
	json_add_double(w, "mib_s", b->seconds > 0 ? (double)b->bytes / MIB / b->seconds : NAN);
	json_obj_begin(w, "latency_us");
	for (int i = 0; i < 6; i++)
		json_add_double(w, names[i], (double)b->lat_ns[i] / 1e3);
	json_obj_end(w);
	json_obj_end(w);
}

static void target(struct json_writer *w, const struct zcav_opts *o, const struct zcav_sweep *sw)
{
	json_obj_begin(w, NULL);
	json_add_str(w, "path", sw->t->path);
	json_add_str(w, "log", sw->t->log);
	json_add_uint(w, "size", sw->size);
	json_add_bool(w, "direct", sw->direct);
	json_add_text(w, "engine", sw->engine);
	json_add_text(w, "engine_detail", sw->engine_desc);
	identity(w, sw);
	json_add_str(w, "error", sw->error ? (sw->too_small ? "too small" : "failed") : NULL);
	json_arr_begin(w, "passes");
	for (unsigned p = 0; p < sw->npasses; p++) {
		const struct zcav_pass *ps = &sw->pass[p];

		json_obj_begin(w, NULL);
		json_add_uint(w, "pass", p + 1);
		json_add_double(w, "seconds", ps->seconds);
		json_add_uint(w, "mib", (uint64_t)ps->nblocks * o->block_mib);
		json_arr_begin(w, "blocks");
		for (size_t b = 0; b < ps->nblocks; b++)
			block(w, &ps->block[b]);
		json_arr_end(w);
		json_obj_end(w);
	}
	json_arr_end(w);
	if (sw->mean) {
		json_arr_begin(w, "mean");
		for (size_t b = 0; b < sw->pass[0].nblocks; b++) {
			json_obj_begin(w, NULL);
			json_add_uint(w, "offset", sw->pass[0].block[b].offset);
			json_add_fixed(w, "offset_gib", (double)sw->pass[0].block[b].offset /
				       (1024.0 * MIB), 6);
			json_add_double(w, "seconds", sw->mean[b]);
			json_add_double(w, "mib_s",
					sw->mean[b] > 0 ? o->block_mib / sw->mean[b] : NAN);
			json_obj_end(w);
		}
		json_arr_end(w);
	} else {
		json_add_null(w, "mean");
	}
	json_obj_end(w);
}

int zcav_json_write(FILE *out, const struct zcav_opts *o, const struct zcav_sweep *sw, unsigned n)
{
	struct json_writer w;
	struct utsname u;

	/* one block a line */
	json_writer_init(&w, out, 6);
	json_obj_begin(&w, NULL);
	json_add_str(&w, "schema", "clyde-zcav/1");
	json_add_str(&w, "clyde_version", PACKAGE_VERSION);
	json_add_str(&w, "host", uname(&u) ? NULL : u.nodename);
	json_obj_begin(&w, "options");
	json_add_uint(&w, "block_mib", o->block_mib);
	json_add_uint(&w, "chunk_mib", o->chunk_mib);
	json_add_uint(&w, "passes", o->passes);
	json_add_uint(&w, "first_mib", o->first_mib);
	if (o->last_mib)
		json_add_uint(&w, "last_mib", o->last_mib);
	else
		json_add_null(&w, "last_mib");
	json_add_uint(&w, "skip", o->skip);
	json_add_bool(&w, "write", o->write);
	json_add_bool(&w, "buffered", o->buffered);
	json_add_str(&w, "engine", o->engine);
	json_add_uint(&w, "iodepth", o->iodepth);
	json_obj_end(&w);
	json_arr_begin(&w, "targets");
	for (unsigned i = 0; i < n; i++)
		target(&w, o, &sw[i]);
	json_arr_end(&w);
	json_obj_end(&w);
	fputc('\n', out);
	if (json_writer_finish(&w))
		return w.error ? w.error : -EINVAL;
	return ferror(out) ? -EIO : 0;
}
