// SPDX-License-Identifier: BSD-2-Clause
/*
 * The names of the tree phases' operations, as the tables, the JSON and
 * the engines' messages say them: with the operations' list (tree.h), so
 * that what prints them needs no engine.
 */
#include "config.h"

#include "tree/tree.h"

static const char *const op_names[TOP_KINDS] = {
	[TOP_MKDIR] = "mkdir",
	[TOP_CREATE] = "create",
	[TOP_OPEN] = "open",
	[TOP_WRITE] = "write",
	[TOP_READ] = "read",
	[TOP_CLOSE] = "close",
	[TOP_STAT] = "stat",
	[TOP_UNLINK] = "unlink",
	[TOP_RMDIR] = "rmdir",
};

const char *tree_op_name(enum tree_op_kind k)
{
	return k < TOP_KINDS ? op_names[k] : "?";
}
