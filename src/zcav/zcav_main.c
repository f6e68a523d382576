// SPDX-License-Identifier: BSD-2-Clause
/*
 * clyde-zcav: bonnie++ zcav's position sweep in clyde's house. main() is
 * the only caller of exit: the options, -u/-g, every target opened (for
 * -w by its guard, which checks the descriptors it opened), the logs,
 * then every target measured through those descriptors,
 * at the same time when there are several (as zcav does), the hints,
 * and --json at the end.
 */
#include "config.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engines/engine.h"
#include "lib/signals.h"
#include "sys/privs.h"
#include "zcav/zcav.h"

struct job {
	const struct zcav_opts *o;
	struct zcav_sweep *sw;
	pthread_t thread;
	bool started;
};

static void *job_main(void *arg)
{
	struct job *j = arg;

	zcav_sweep_run(j->o, j->sw);
	return NULL;
}

/* Every target's log open: 0, or ZCAV_EXIT_IO with the complaint said. */
static int open_logs(const struct zcav_opts *o, struct zcav_sweep *sw)
{
	for (unsigned i = 0; i < o->ntargets; i++) {
		const char *log = o->target[i].log;

		if (!strcmp(log, "-")) {
			sw[i].log = stdout;
			continue;
		}
		sw[i].log = fopen(log, "w");
		if (!sw[i].log) {
			fprintf(stderr, "clyde-zcav: -l %s: %s\n", log, strerror(errno));
			return ZCAV_EXIT_IO;
		}
	}
	return 0;
}

/* Closes the logs; false when one could not be written (said). */
static bool close_logs(const struct zcav_opts *o, struct zcav_sweep *sw)
{
	bool ok = true;

	for (unsigned i = 0; i < o->ntargets; i++) {
		if (!sw[i].log)
			continue;
		if (sw[i].log == stdout ? fflush(stdout) : fclose(sw[i].log)) {
			fprintf(stderr, "clyde-zcav: -l %s: %s\n", o->target[i].log, strerror(errno));
			ok = false;
		}
		sw[i].log = NULL;
	}
	return ok;
}

static int run_all(const struct zcav_opts *o, struct zcav_sweep *sw)
{
	struct job jobs[ZCAV_MAX_TARGETS];
	int ret = 0;

	if (o->ntargets == 1)
		return zcav_sweep_run(o, &sw[0]);
	for (unsigned i = 0; i < o->ntargets; i++) {
		jobs[i] = (struct job){ .o = o, .sw = &sw[i] };
		ret = pthread_create(&jobs[i].thread, NULL, job_main, &jobs[i]);
		if (ret) {
			fprintf(stderr, "clyde-zcav: %s: cannot start its thread: %s\n",
				o->target[i].path, strerror(ret));
			break;
		}
		jobs[i].started = true;
	}
	for (unsigned i = 0; i < o->ntargets; i++)
		if (jobs[i].started)
			pthread_join(jobs[i].thread, NULL);
	for (unsigned i = 0; i < o->ntargets && !ret; i++)
		ret = sw[i].error;
	return ret;
}

static int write_json(const struct zcav_opts *o, const struct zcav_sweep *sw)
{
	FILE *f = fopen(o->json, "w");
	int ret;

	if (!f) {
		fprintf(stderr, "clyde-zcav: --json %s: %s\n", o->json, strerror(errno));
		return ZCAV_EXIT_OUTPUT;
	}
	ret = zcav_json_write(f, o, sw, o->ntargets);
	if (fclose(f) && !ret)
		ret = -errno;
	if (ret) {
		fprintf(stderr, "clyde-zcav: --json %s: %s\n", o->json, strerror(-ret));
		return ZCAV_EXIT_OUTPUT;
	}
	return 0;
}

int main(int argc, char **argv)
{
	static struct zcav_sweep sw[ZCAV_MAX_TARGETS];
	struct engine_choice engine;
	struct zcav_opts o;
	char err[256];
	int ret, measured;

	ret = zcav_options_parse(&o, argc, argv);
	if (ret)
		return ret < 0 ? ZCAV_EXIT_OK : ret;
	if (signals_install()) {
		fputs("clyde-zcav: cannot install the signal handlers\n", stderr);
		return ZCAV_EXIT_IO;
	}
	if (zcav_engine_pick(&o, &engine, err, sizeof(err))) {
		fprintf(stderr, "clyde-zcav: %s\n", err);
		return ZCAV_EXIT_USAGE;
	}
	if (engine.refused)
		fprintf(stderr, "clyde-zcav: note: --engine auto: %s cannot be used (%s); running "
			"psync at depth 1\n", engine.refused, engine.why);
	if ((o.user || o.group) && privs_drop(o.user, o.group, err, sizeof(err))) {
		fprintf(stderr, "clyde-zcav: %s\n", err);
		return ZCAV_EXIT_USAGE;
	}
	for (unsigned i = 0; i < o.ntargets; i++) {
		sw[i].t = &o.target[i];
		sw[i].fd = -1;
	}
	/* each target opened once; the sweep uses that descriptor, never the name */
	ret = o.write ? zcav_guard(&o, sw, stderr) : zcav_open_targets(&o, sw, stderr);
	if (ret)
		goto out;
	/* tests change the path here: what the guard checked must be what is written */
	test_pause_named("zcav_write");
	ret = open_logs(&o, sw);
	if (ret)
		goto out;
	measured = run_all(&o, sw);
	for (unsigned i = 0; i < o.ntargets; i++)
		if (!sw[i].error)
			zcav_text_hint(stderr, &o, &sw[i]);
	ret = measured ? ZCAV_EXIT_IO : 0;
	if (o.json && write_json(&o, sw))
		ret = ZCAV_EXIT_OUTPUT;
out:
	if (!close_logs(&o, sw) && !ret)
		ret = ZCAV_EXIT_IO;
	for (unsigned i = 0; i < o.ntargets; i++)
		zcav_sweep_free(&sw[i]);
	return ret;
}
