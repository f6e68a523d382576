#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# --profile=layers against a device whose service time is known: a loop
# device (direct I/O) on a file of faultfs (tests/tools/faultfs.c) that
# delays every read and write by 20 ms, one request at a time. clyde runs
# its block phases and seeks there with O_DIRECT, 64 KiB chunks (one
# FUSE request each) and one seeker. The device time's p50 of the block
# read and the seeks is within 15% of the delay; in the seeks at least 90%
# of clyde's operation time is at the device (tests/env/layers_truth.py).
# Every request the seeks' split timed was one faultfs delayed; the
# programs' cost counted at least a run per request timed and bio queued,
# and the text says it. About 8 s.
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
# the programs' own cost, from the kernel's run-time statistics: every
# request timed and every bio queued ran a program, so the counts are at least those
cost=$(python3 -c 'import json, sys; l = json.load(open(sys.argv[1]))["runs"][0]
l = l["phases"]["seeks"]["profile"]["layers"]; c = l["cost"]; p = c["programs"]
print(c["measured"], c["events"], l["device"]["requests"], l["bios"],
      p["rq_complete"]["events"], p["bio_queue"]["events"], c["cpu_s"] is not None, c["why"])' \
	"$W/l.json")
echo "seeks' cost: measured, events, requests, bios, rq_complete's, bio_queue's, time, why: $cost"
set -- $cost
expect_eq "the seeks' cost measured (BPF_ENABLE_STATS, Linux 5.8)" "$1" True
[ "$1" = True ] && [ "$2" -ge "$3" ] && [ "$5" -ge "$3" ] && [ "$6" -ge "$4" ] &&
	[ "$7" = True ] && ok ||
	fail "the seeks' cost counted $2 events ($5 completions, $6 bios queued)" \
		"for $3 requests timed and $4 bios"
check "the text has the seeks' cost line" grep -q \
	'^Profile layers: Random seeks: profiled: BPF programs took [0-9.]* ms in [0-9]* events' \
	"$W/l.json.txt"
done_testing
