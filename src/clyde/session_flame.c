// SPDX-License-Identifier: BSD-2-Clause
/*
 * --profile=stacks' notes and --flame DIR: each phase's sampled stacks as
 * a folded-stack file. clyde runs as root and DIR may be anyone's: it is
 * opened once, by descriptor, and each file is created new in it
 * (O_CREAT | O_EXCL | O_NOFOLLOW), so that a name planted there, a
 * symbolic link or a hard link to another file, is refused and nothing
 * is written through it.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cluster/cluster.h"
#include "clyde/session.h"
#include "core/phase.h"
#include "profile/stacks.h"

/* Fewer samples than this in a phase, idle included, say little about it. */
#define FEW_SAMPLES	20

int flame_open(struct session *s, char *err, size_t errlen)
{
	const char *dir = s->opt.flame_dir;
	struct stat st;
	int fd;

	s->flame_fd = -1;
	if (!dir)
		return 0;
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0) {
		snprintf(err, errlen, "--flame %s: %s (it must be a directory that exists)", dir,
			 strerror(errno));
		return CLYDE_EXIT_USAGE;
	}
	if (fstat(fd, &st) || faccessat(fd, ".", W_OK | X_OK, AT_EACCESS)) {
		snprintf(err, errlen, "--flame %s: %s: clyde cannot create files there", dir,
			 strerror(errno));
		close(fd);
		return CLYDE_EXIT_USAGE;
	}
	s->flame_fd = fd;
	return 0;
}

void flame_close(struct session *s)
{
	if (s->flame_fd >= 0)
		close(s->flame_fd);
	s->flame_fd = -1;
}

/*
 * put_block.folded; under mpirun each rank's put_block.r3.folded; with -x
 * each run's put_block.x2.folded (both: put_block.r3.x2.folded).
 */
static void flame_name(char *buf, size_t len, const char *csv_name, uint32_t run, bool runs,
		       int rank)
{
	char rank_tag[16] = "", run_tag[16] = "";

	if (rank >= 0)
		snprintf(rank_tag, sizeof(rank_tag), ".r%d", rank);
	if (runs)
		snprintf(run_tag, sizeof(run_tag), ".x%" PRIu32, run + 1);
	snprintf(buf, len, "%s%s%s.folded", csv_name, rank_tag, run_tag);
}

static int write_one(int dirfd, const char *dir, const char *name, const struct stack_set *set)
{
	int fd = openat(dirfd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
	int ret = 0;
	FILE *f;

	if (fd < 0) {
		fprintf(stderr, "clyde: --flame %s: %s: %s%s\n", dir, name, strerror(errno),
			errno == EEXIST ? " (clyde creates new files only, and writes through "
			"no link)" : "");
		return -1;
	}
	f = fdopen(fd, "w");
	if (!f) {
		close(fd);
		fprintf(stderr, "clyde: --flame %s: %s: %s\n", dir, name, strerror(errno));
		return -1;
	}
	if (stack_set_write_folded(f, set) || ferror(f))
		ret = -1;
	if (fclose(f))
		ret = -1;
	if (ret)
		fprintf(stderr, "clyde: --flame %s: %s: cannot write it whole\n", dir, name);
	return ret;
}

int flame_write_run(const struct session *s, const struct run_result *res, uint32_t run)
{
	int rank = cluster_active() ? cluster_rank() : -1, status = 0;

	if (!s->opt.flame_dir || s->flame_fd < 0)
		return 0;
	for (int i = 0; i < PH_COUNT; i++) {
		const struct stack_set *set = res->phase[i].profile.stack_set;
		char name[128];

		if (!res->phase[i].ran || !set)
			continue;
		flame_name(name, sizeof(name), phase_get((enum phase_id)i)->csv_name, run,
			   s->opt.repeats > 1, rank);
		if (write_one(s->flame_fd, s->opt.flame_dir, name, set))
			status = CLYDE_EXIT_IO;
	}
	return status;
}

void stacks_notes(FILE *log, const struct run_result *res)
{
	for (int i = 0; i < PH_COUNT; i++) {
		const struct prof_phase *pp = &res->phase[i].profile;
		const struct stack_set *set = pp->stack_set;
		const char *name = phase_get((enum phase_id)i)->name;

		if (!res->phase[i].ran || !set)
			continue;
		if (set->lost)
			fprintf(log, "clyde: note: --profile=stacks: %s: %" PRIu64 " samples lost "
				"beside %" PRIu64 " kept (a CPU's ring filled: the phase outlasted "
				"what it holds at this --stack-hz)\n", name, set->lost,
				set->samples + set->idle);
		if (set->samples + set->idle < FEW_SAMPLES)
			fprintf(log, "clyde: note: --profile=stacks: %s: %" PRIu64 " samples in "
				"%.3f s: too few to say where its time went (raise --stack-hz or "
				"the phase's size)\n", name, set->samples + set->idle,
				pp->window_s);
	}
}
