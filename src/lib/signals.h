/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef CLYDE_SIGNALS_H
#define CLYDE_SIGNALS_H

#include <stdbool.h>

/*
 * SIGINT, SIGTERM, SIGXCPU, SIGXFSZ and SIGPIPE ask the run to stop: phases check
 * clyde_stop_requested() per chunk or file and unwind with -EINTR so that
 * main can remove the files. SIGHUP is ignored, as bonnie++ ignores it.
 */
int signals_install(void);
bool clyde_stop_requested(void);
int clyde_stop_signal(void);

/*
 * Test-only pause point for any named place (CLYDE_TEST_PAUSE=NAME[:NAME...],
 * see clyde(1)): "remove" in the remover, a phase's CSV name in a phase.
 */
void test_pause_named(const char *name);

#endif
