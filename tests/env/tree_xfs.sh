#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# --tree on xfs made here on a direct-I/O loop device: what tests/env/tree_loop.sh
# checks on ext4 (every shape and engine, the JSON's counts, the cache
# drop, nothing left), on its own so that a machine without mkfs.xfs skips it,
# counted, rather than passing without it.
. "$TESTLIB"
need_loops mkfs.xfs
. "$(dirname "$TESTLIB")/env/tree_loop_lib.sh"

tree_fs_runs xfs mkfs.xfs -q -f
tree_nothing_left
done_testing
