#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Where --profile=layers puts a cgroup throttle's wait: blk-throttle holds
# a bio before block_bio_queue fires, so the wait lands above the block
# layer, as clyde's text, its JSON and clyde(1) say. The loop device of
# tests/env/layers_faultfs.sh (faultfs's 20 ms a request) with clyde in a
# blkio cgroup of its own that holds the device to 10 reads and 10 writes
# a second (100 ms an operation): the seeks' device time stays the loop's
# own (p50 within 15% of the delay), the queue's p50 stays under a tenth
# of it, and at least half of clyde's operation time is above the block
# layer (tests/env/layers_truth.py). About 16 s.
. "$TESTLIB"
. "$(dirname "$TESTLIB")/env/throttle_lib.sh"
FAULTFS_BACKING=96m
# 40 seeks at 10 a second: 4 s; the block phases' 32 requests each, 3 s each
LAYERS_SIZE=2M:64k:40:1
LAYERS_RAM=1M
. "$(dirname "$TESTLIB")/env/faultfs_lib.sh"
. "$(dirname "$TESTLIB")/env/layers_lib.sh"
IOPS=10

layers_loop
throttle_group
throttle_set "$CG/blkio.throttle.read_iops_device" "$IOPS"
throttle_set "$CG/blkio.throttle.write_iops_device" "$IOPS"
layers_run "$W/t.json" in_group
truth_checks "$W/t.json" "$W/t.json.txt" "$DELAY_US" throttle "$IOPS"
done_testing
