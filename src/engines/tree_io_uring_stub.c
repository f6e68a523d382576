// SPDX-License-Identifier: BSD-2-Clause
/* The tree phases' io_uring backend in a build without liburing. */
#include "config.h"

#include <errno.h>
#include <stdio.h>

#include "tree/tree.h"

static int stub_setup(struct tree_io *io, unsigned depth, char *desc, size_t len)
{
	(void)io;
	(void)depth;
	snprintf(desc, len, "not built: configure did not find liburing");
	return -ENOSYS;
}

static int stub_run(struct tree_io *io, struct tree_op *ops, unsigned n)
{
	(void)io;
	(void)ops;
	(void)n;
	return -ENOSYS;
}

static void stub_teardown(struct tree_io *io)
{
	(void)io;
}

const struct tree_io_ops tree_io_uring = {
	.name = "uring",
	.setup = stub_setup,
	.run = stub_run,
	.teardown = stub_teardown,
};
