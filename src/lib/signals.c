// SPDX-License-Identifier: BSD-2-Clause
/*
 * Signal handling: a flag that the phases poll, no work in the handler;
 * and the tests' pause points, which wait on that flag.
 */
#include "config.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include "lib/signals.h"

static volatile sig_atomic_t stop_signal;

static void on_stop(int sig)
{
	/* A second signal while cleaning up kills at once. */
	if (stop_signal) {
		signal(sig, SIG_DFL);
		raise(sig);
		return;
	}
	stop_signal = sig;
}

int signals_install(void)
{
	/* SIGPIPE too: whoever read our output is gone, so clean up and stop. */
	static const int stops[] = { SIGINT, SIGTERM, SIGXCPU, SIGXFSZ, SIGPIPE };
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sigemptyset(&sa.sa_mask);
	/* No SA_RESTART: a blocked read or write returns EINTR and we look. */
	sa.sa_handler = on_stop;
	for (size_t i = 0; i < sizeof(stops) / sizeof(stops[0]); i++)
		if (sigaction(stops[i], &sa, NULL))
			return -errno;
	sa.sa_handler = SIG_IGN;
	if (sigaction(SIGHUP, &sa, NULL))
		return -errno;
	return 0;
}

bool clyde_stop_requested(void)
{
	return stop_signal != 0;
}

int clyde_stop_signal(void)
{
	return stop_signal;
}

/*
 * Tests stop here to send a signal, fill the disk or change the file
 * behind clyde's back at a known point. CLYDE_TEST_PAUSE names one phase
 * or several (or "remove", the remover inside a subdirectory; "before-NAME"
 * and "after-NAME" around a phase's window), separated
 * by colons; each pause lasts until a stop signal or until the file
 * CLYDE_TEST_RESUME names exists, which clyde then removes so that the
 * next pause waits again.
 */
void test_pause_named(const char *name)
{
	const char *want = getenv("CLYDE_TEST_PAUSE");
	const char *resume = getenv("CLYDE_TEST_RESUME");
	size_t len = strlen(name);
	bool hit = false;

	for (const char *p = want; p && *p; p += strcspn(p, ":"), p += *p == ':') {
		if (!strncmp(p, name, len) && (p[len] == ':' || !p[len]))
			hit = true;
	}
	if (!hit)
		return;
	fprintf(stderr, "clyde: test pause in %s\n", name);
	fflush(stderr);
	while (!clyde_stop_requested() && !(resume && !access(resume, F_OK)))
		usleep(10000);
	if (resume)
		unlink(resume);
}
