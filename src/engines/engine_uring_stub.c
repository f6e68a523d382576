// SPDX-License-Identifier: BSD-2-Clause
/*
 * The io_uring engine in a build without liburing: listed, with the
 * reason, so --version names it and --engine=uring says why not. Being
 * unavailable it is never probed, set up, or asked for its tree I/O.
 */
#include "config.h"

#include "engines/engine.h"

const struct engine_ops engine_uring = {
	.name = "uring",
	.flags = ENGINE_F_QUEUED,
	.unavailable = "not built: configure did not find liburing",
	.tree_io = NULL,
};
