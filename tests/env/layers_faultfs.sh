#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# --profile=layers against a device whose service time is known: a loop
# device (direct I/O) on a file of faultfs (tests/tools/faultfs.c) that
# delays every read and write by 20 ms, one request at a time. clyde runs
# its block phases and seeks there with O_DIRECT, 64 KiB chunks (one
# FUSE request each) and one seeker. The device time's p50 of the block
# read and the seeks is within 15% of the delay; in the seeks at least 90%
# of clyde's operation time is at the device (tests/env/layers_truth.py).
# Every request the seeks' split timed was one faultfs delayed. About 8 s.
. "$TESTLIB"
FAULTFS_BACKING=96m
. "$(dirname "$TESTLIB")/env/faultfs_lib.sh"
. "$(dirname "$TESTLIB")/env/layers_lib.sh"

layers_loop
layers_run "$W/l.json"
truth_checks "$W/l.json" "$W/l.json.txt" "$DELAY_US" plain
check "the text has the seeks' split" grep -q '^Random seeks  *[0-9]' "$W/l.json.txt"
delayed=$(($(st "faults read delay") + $(st "faults write delay")))
timed=$(python3 -c 'import json, sys; r = json.load(open(sys.argv[1]))["runs"][0]
print(r["phases"]["seeks"]["profile"]["layers"]["device"]["requests"])' "$W/l.json")
[ "$timed" -ge 100 ] && [ "$timed" -le "$delayed" ] && ok ||
	fail "the seeks' split timed $timed requests: at least the 100 seeks," \
		"at most the $delayed faultfs delayed"
done_testing
