// SPDX-License-Identifier: BSD-2-Clause
/*
 * clyde: a bonnie++ 2.00a-compatible file system benchmark.
 * main() is the only caller of exit: it parses, checks, runs, reports and
 * maps failures to the documented exit status. This file dispatches; the
 * session_*.c files beside it set up, run and report (session.h).
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "cluster/cluster.h"
#include "clyde/leftover.h"
#include "clyde/options.h"
#include "clyde/plan.h"
#include "clyde/session.h"
#include "core/clyde.h"
#include "engines/engine.h"
#include "lib/signals.h"
#include "phases/stall_reader.h"
#include "sys/semsync.h"
#include "tree/tree.h"

static void print_version(void)
{
	size_t n;
	const struct engine_ops *const *engines = engine_table(&n);

	printf("clyde %s\n", PACKAGE_VERSION);
	printf("engines:");
	for (size_t i = 0; i < n; i++)
		printf(" %s%s%s%s", engines[i]->name, engines[i]->unavailable ? " (" : "",
		       engines[i]->unavailable ? engines[i]->unavailable : "",
		       engines[i]->unavailable ? ")" : "");
	printf("\nlibraries: liburing %s, libnuma %s, hwloc %s, mpi %s, bpf %s\n",
#ifdef HAVE_LIBURING
	       "yes",
#else
	       "no",
#endif
#ifdef HAVE_LIBNUMA
	       "yes",
#else
	       "no",
#endif
#ifdef HAVE_HWLOC
	       "yes",
#else
	       "no",
#endif
#ifdef HAVE_MPI
	       "yes",
#else
	       "no",
#endif
#ifdef HAVE_BPF
	       "yes"
#else
	       "no"
#endif
	       );
}

static int usage_error(const char *msg)
{
	fprintf(stderr, "clyde: %s\nTry 'clyde --help' for more information.\n", msg);
	return CLYDE_EXIT_USAGE;
}

static int semaphore_command(const struct clyde_options *o)
{
	char err[256];
	int ret = o->sem_procs < 0 ? semsync_remove(err, sizeof(err))
				   : semsync_create(o->sem_procs, err, sizeof(err));

	if (ret) {
		fprintf(stderr, "clyde: %s\n", err);
		return CLYDE_EXIT_USAGE;
	}
	if (o->sem_procs > 0)
		fprintf(stderr, "clyde: semaphore ready for %d processes (run them with -y s)\n",
			o->sem_procs);
	return CLYDE_EXIT_OK;
}

/* --tree-list: the tree's listing on stdout, its size and hash on stderr; writes nothing. */
static int tree_list_command(const struct clyde_options *o)
{
	const struct tree_shape *shape = o->tree_shape;
	double scale = o->tree_scale;
	struct tree t;
	int ret;

	ret = tree_generate(shape, scale, o->tree_seed, &t);
	if (ret) {
		fprintf(stderr, "clyde: cannot generate the %s tree: %s\n", shape->name, strerror(-ret));
		return CLYDE_EXIT_IO;
	}
	tree_list(&t, stdout);
	fprintf(stderr, "clyde: tree %s x%g seed %" PRIu64 ": %" PRIu32 " directories %" PRIu32
		" files %" PRIu64 " bytes depth %" PRIu32 " hash %016" PRIx64 "\n", shape->name,
		scale, o->tree_seed, t.ndirs - 1, t.nfiles, t.bytes, t.max_depth, t.hash);
	tree_free(&t);
	return fflush(stdout) ? CLYDE_EXIT_IO : CLYDE_EXIT_OK;
}

static int clyde_main(int argc, char **argv)
{
	struct format_opts fo = { 0 };
	struct session s;
	char err[1024];
	int status;

	memset(&s, 0, sizeof(s));
	s.flame_fd = -1;
	options_defaults(&s.opt);
	if (options_parse(&s.opt, argc, argv, err, sizeof(err)))
		return usage_error(err);
	if (s.opt.help) {
		options_usage(stdout);
		return CLYDE_EXIT_OK;
	}
	if (s.opt.version) {
		print_version();
		return CLYDE_EXIT_OK;
	}
	if (s.opt.sem_procs_given)
		return semaphore_command(&s.opt);
	if (s.opt.tree_list)
		return tree_list_command(&s.opt);
	if (s.opt.cleanup_dir) {
		struct cleanup_opts co = {
			.user = s.opt.cleanup_user,
			.any_ns = s.opt.cleanup_any_ns,
		};

		return leftover_cleanup(s.opt.cleanup_dir, &co, stdout);
	}
	cluster_set_timeout(s.opt.mpi_timeout_s);
	if (signals_install()) {
		fprintf(stderr, "clyde: cannot install signal handlers: %s\n", strerror(errno));
		return CLYDE_EXIT_IO;
	}
	status = check_cluster(&s, err, sizeof(err));
	if (status)
		return usage_error(err);
	/* rank 0 alone speaks of progress; the others' text would only repeat it */
	if (cluster_rank() != 0)
		s.opt.quiet = true;
	status = prepare(&s, err, sizeof(err));
	status = ranks_agree(status, err, true);
	if (status)
		goto close_stacks;
	if (cluster_active() && share_plan(&s)) {
		fprintf(stderr, "clyde: MPI: cannot share rank 0's plan\n");
		status = CLYDE_EXIT_ENGINE;
		goto close_stacks;
	}
	fo.exact = s.opt.exact;
	if (s.opt.plan_only) {
		if (cluster_rank() == 0) {
			plan_print(stdout, &s.plan, &s.opt);
			age_plan_print(stdout, &s);
		}
		goto close_stacks;
	}
	if (cluster_active())
		s.clock_offset = cluster_clock_offset();
	status = run_all(&s, &fo);
	/* --profile's programs, maps and events: detached and freed, not left to the exit */
	if (s.opt.profile)
		prof_sampler_close(&s.prof);
close_stacks:
	/* what prepare opened for --profile=stacks and --flame, whichever it reached */
	flame_close(&s);
	prof_stacks_close(&s.prof);
	prof_stack_layers_close(&s.prof);
	return status;
}

int main(int argc, char **argv)
{
	char err[256];
	int status;

	/* the stall reader, clyde started again by itself: before MPI, which is not its */
	if (argc == 2 && !strcmp(argv[1], STALL_READER_ARG))
		return stall_reader_main();
	stall_reader_run_as(argv[0]);
	if (cluster_init(&argc, &argv, err, sizeof(err))) {
		fprintf(stderr, "clyde: MPI: %s\n", err);
		return CLYDE_EXIT_ENGINE;
	}
	leftover_set_command(argc, argv);
	status = clyde_main(argc, argv);
	/* every rank has cleaned up before any exits, so mpirun kills none mid-way */
	cluster_finish(status);
	return status;
}
