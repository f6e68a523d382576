#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# --tree on btrfs made here on a direct-I/O loop device: what tests/env/tree_loop.sh
# checks on ext4 (every shape and engine, the JSON's counts, the cache
# drop, nothing left), on its own so that a machine without mkfs.btrfs skips it,
# counted, rather than passing without it.
. "$TESTLIB"
need_loops mkfs.btrfs
. "$(dirname "$TESTLIB")/env/tree_loop_lib.sh"

tree_fs_runs btrfs mkfs.btrfs -q -f
tree_nothing_left
done_testing
