// SPDX-License-Identifier: BSD-2-Clause
/* The io_uring engine in a build without liburing: listed, with the reason. */
#include "config.h"

#include "engines/engine.h"

const struct engine_ops engine_uring = {
	.name = "uring",
	.flags = ENGINE_F_QUEUED,
	.unavailable = "not built: configure did not find liburing",
};
