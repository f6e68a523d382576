// SPDX-License-Identifier: BSD-2-Clause
/*
 * The MPI glue of a session: the ranks agree on going on, share rank 0's
 * plan and learn each other's directories. Alone, each is a no-op.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cluster/cluster.h"
#include "clyde/session.h"
#include "phases/bench.h"

/*
 * Under mpirun the ranks go on together or not at all: each brings its
 * status (0 or an exit code) and its message. A rank that failed prints
 * its own message and keeps its status; the others stop with 3, rank 0
 * naming the failing rank, its host and message. Alone: status as is,
 * its message printed (when say) if it failed.
 */
int ranks_agree(int status, const char *msg, bool say)
{
	struct cluster_failure f;

	if (status && say)
		fprintf(stderr, "clyde: %s\n", msg);
	if (!cluster_active())
		return status;
	if (cluster_meet(status, msg, &f)) {
		/* the lowest rank that came has named the missing */
		if (cluster_timed_out())
			return status ? status : CLYDE_EXIT_IO;
		fprintf(stderr, "clyde: the ranks could not meet (MPI failed)\n");
		return status ? status : CLYDE_EXIT_ENGINE;
	}
	if (status || f.rank < 0)
		return status;
	if (cluster_rank() == 0)
		fprintf(stderr, "clyde: stopped: rank %d on %s failed: %s\n", f.rank, f.host, f.msg);
	return CLYDE_EXIT_IO;
}

/*
 * --mpi-read-other: every rank learns every rank's private directory and
 * reads from that of rank + K. Collective under mpirun; 0 or -errno.
 */
int read_other_dir(const struct session *s, struct bench *b)
{
	int n = cluster_size(), ret;
	char *all;

	if (!s->plan.read_other || !cluster_active())
		return 0;
	all = calloc((size_t)n, sizeof(b->workdir));
	if (!all)
		return -ENOMEM;
	ret = cluster_allgather(b->workdir, sizeof(b->workdir), all);
	if (!ret)
		memcpy(b->read_dir, all + (size_t)((cluster_rank() + s->plan.read_other) % n) *
		       sizeof(b->workdir), sizeof(b->read_dir));
	else
		snprintf(b->errmsg, sizeof(b->errmsg), "cannot learn the other ranks' directories: %s",
			 strerror(-ret));
	free(all);
	return ret;
}

/*
 * Under mpirun every rank runs rank 0's plan (the counts it calibrated)
 * with rank 0's seed, so all do the same work and --verify and
 * --mpi-read-other find the same data in every rank's file.
 */
int share_plan(struct session *s)
{
	struct run_plan *p = &s->plan;
	struct {
		uint64_t file_bytes;
		uint64_t perchar_bytes;
		uint32_t seeks;
		uint32_t files;
		uint32_t seed;
		bool seeks_timed;
		bool files_calibrated;
		double estimate_seconds;
		char size_note[sizeof(p->size_note)];
		char files_note[sizeof(p->files_note)];
	} w;

	memset(&w, 0, sizeof(w));
	w.file_bytes = p->file_bytes;
	w.perchar_bytes = p->perchar_bytes;
	w.seeks = p->seeks;
	w.files = p->files;
	w.seed = s->first_seed;
	w.seeks_timed = p->seeks_timed;
	w.files_calibrated = p->files_calibrated;
	w.estimate_seconds = p->estimate_seconds;
	memcpy(w.size_note, p->size_note, sizeof(w.size_note));
	memcpy(w.files_note, p->files_note, sizeof(w.files_note));
	if (cluster_bcast(&w, sizeof(w)))
		return -EIO;
	p->file_bytes = w.file_bytes;
	p->perchar_bytes = w.perchar_bytes;
	p->seeks = w.seeks;
	p->files = w.files;
	s->first_seed = w.seed;
	p->seeks_timed = w.seeks_timed;
	p->files_calibrated = w.files_calibrated;
	p->estimate_seconds = w.estimate_seconds;
	memcpy(p->size_note, w.size_note, sizeof(w.size_note));
	memcpy(p->files_note, w.files_note, sizeof(w.files_note));
	return 0;
}

/* The cluster's own conditions, once the ranks are known. */
int check_cluster(const struct session *s, char *err, size_t errlen)
{
	int n = cluster_size();

	if (s->opt.read_other && s->opt.read_other % n == 0) {
		snprintf(err, errlen, "--mpi-read-other=%d: with %d rank%s each would read its own "
			 "file; run under mpirun with a rank count that %d is not a multiple of",
			 s->opt.read_other, n, n == 1 ? "" : "s", s->opt.read_other);
		return CLYDE_EXIT_USAGE;
	}
	if (cluster_active() && s->opt.steady.on) {
		snprintf(err, errlen, "--steady: not under mpirun: each rank would settle at its "
			 "own time (run it on one client)");
		return CLYDE_EXIT_USAGE;
	}
	if (cluster_active() && s->opt.sync != SYNC_NONE) {
		snprintf(err, errlen, "-y: under mpirun the ranks already start each phase together");
		return CLYDE_EXIT_USAGE;
	}
	return 0;
}
