// SPDX-License-Identifier: BSD-2-Clause
/* Signal handling: a flag that the phases poll, no work in the handler. */
#include "config.h"

#include <errno.h>
#include <signal.h>
#include <string.h>

#include "signals.h"

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
