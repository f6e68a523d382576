// SPDX-License-Identifier: BSD-2-Clause
/*
 * The aio engine in a build without POSIX AIO (no aio.h, or no aio_read
 * in libc or librt): listed, with the reason, as engine_uring_stub.c.
 */
#include "config.h"

#include "engines/engine.h"

const struct engine_ops engine_aio = {
	.name = "aio",
	.flags = ENGINE_F_QUEUED | ENGINE_F_NO_RW_FLAGS | ENGINE_F_NOT_AUTO,
	.unavailable = "not built: configure found no POSIX AIO (aio.h, aio_read)",
	.tree_io = NULL,
};
