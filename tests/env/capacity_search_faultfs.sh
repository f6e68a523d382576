#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# --latency-target's search finds the bound (issue 45): faultfs
# (tests/tools/faultfs.c) serves one request at a time, and every read of
# the test file waits D there (DELAY_US, 4 ms), so its capacity is 1/D
# whatever the concurrency, and a read at concurrency c waits about c x D
# (the c - 1 ahead of it, then its own). Each read takes D and faultfs's
# own time, 0.15 ms (4.15 ms a read, its log's median, 2026-12-07), and a
# sleep never ends early: a read at 5 waits 5 D or more, always beyond a
# target of p99 <= 5 D, and one at 4 about 4.15 D (its p99 measured up to
# 4.62 D on a loaded machine; 4.5 D, the middle, left it no room). D is
# 4 ms, not 2: at 2 ms faultfs's own time (0.2 ms) put the capacity 7 to
# 11% under 1/D (443 to 467/s). So the
# windows at 1, 2 and 4 are within the target, 8 (and the bisection's 6
# and 5) beyond: the search settles on concurrency 4 (within one step: 3
# to 5; a tail of the machine's at 4 may put 4 beyond, then 8 is never
# tried and it settles on 3), its capacity 1/D (+-10%), every window at 6
# or more beyond the target, the first one beyond at 4 or 8, every one at
# 3 or less within. Nothing of the run is left on the mount. faultfs runs
# SCHED_FIFO, and clyde below it: faultfs stands in for a device, whose
# service time a CPU hog does not lengthen, and the test is of the search,
# not of the scheduler (under a load of 10, 2 ms sleeps overshot to 4.4 ms
# at p99 as an ordinary thread, 2.7 ms as a real-time one). A window ends
# at its 2000 samples, 8 s at 1/D, or at 10 steps: --capacity-step=2, so
# that a window slowed to 100/s still holds them (with a step of 1, a CI
# run with another test beside it saw the window at 5 run at 187/s, 0.75
# of 1/D, and end at 10 s with 1877). About a minute.
. "$TESTLIB"
FAULTFS_BACKING=32m
. "$(dirname "$TESTLIB")/env/faultfs_lib.sh"
need_cmd chrt "to run faultfs as a real-time thread"
tmo=""
command -v timeout >/dev/null 2>&1 && tmo="timeout 300"
DELAY_US=4000
TARGET_US=$((DELAY_US * 5))

# faultfs without its stats file and log (mount_ffs's): it would write
# them after every read, a tenth of a millisecond and more added to D on a
# loaded machine (the capacity 229/s with them, 240/s without, at a load
# of 10)
"$FAULTFS" --backing "$B" --rule "op=read,err=delay,delay_us=$DELAY_US,path=*io.0,count=0" \
	"$M" 2>"$W/ffs.err" &
PID=$!
i=0
until mounted; do
	if ! kill -0 "$PID" 2>/dev/null || [ $i -ge 100 ]; then
		fail "faultfs did not mount:"
		sed 's/^/    /' "$W/ffs.err"
		unmount
		done_testing
	fi
	sleep 0.1
	i=$((i + 1))
done
chrt -a -f -p 10 "$PID" || fail "chrt -f faultfs ($PID)"
# 2 MiB of 8 KiB chunks: the block read and the rewrite wait 256 x D each
$tmo chrt -f 5 "$CLYDE" -d "$M" -s 2m:8k:100:1 --seek-updates=0 -n 0 -f -r 0 -q \
	--latency-target=p99:${TARGET_US}us --capacity-phases=seeks --capacity-step=2 \
	--json "$W/s.json" >"$W/s.out" 2>"$W/s.err"
rc=$?
expect_eq "clyde --latency-target over faultfs: exit status" "$rc" 0
[ $rc = 0 ] || sed 's/^/    /' "$W/s.err"
expect_empty_dir "after the run" "$M"
unmount

python3 - "$W/s.json" "$DELAY_US" >"$W/py.out" 2>&1 <<'PY'
import json, sys
d = float(sys.argv[2]) / 1e6
s = json.load(open(sys.argv[1]))["runs"][0]["phases"]["seeks"]["capacity"]["search"]
print("D %.1f ms, target p%g <= %.1f ms: capacity %.1f/s at concurrency %d (1/D = %.0f/s)"
      % (d * 1e3, s["percentile"], s["target_s"] * 1e3, s["rate"], s["concurrency"], 1 / d))
for st in s["steps"]:
    print("  concurrency %2d: %6.1f/s, p%g %6.2f ms, %d samples in %.1f s, %s"
          % (st["concurrency"], st["rate"], s["percentile"], st["latency_s"] * 1e3,
             st["samples"], st["seconds"], "within" if st["within"] else "beyond"))


def check(ok, text):
    print("CHECK %s %s" % ("ok" if ok else "FAIL", text))


steps = s["steps"]
conc = [st["concurrency"] for st in steps]
check(s["met"], "the target was met")
check(3 <= s["concurrency"] <= 5, "the search settled on concurrency %d, 4 within one step (3 to 5)"
      % s["concurrency"])
check(abs(s["rate"] * d - 1) <= 0.10, "its capacity %.1f/s is 1/D = %.0f/s within 10%%"
      % (s["rate"], 1 / d))
check(conc[:3] == [1, 2, 4], "the windows doubled from 1: %s" % conc)
high = [st for st in steps if st["concurrency"] >= 6]
check(all(not st["within"] for st in high),
      "every window at concurrency 6 or more is beyond the target: %s"
      % [(st["concurrency"], st["within"]) for st in high])
first = next((st["concurrency"] for st in steps if not st["within"]), None)
check(first in (4, 8), "the first window beyond the target is at 4 or 8: %s" % first)
if 8 in conc:
    check(not steps[conc.index(8)]["within"], "concurrency 8's window is beyond the target")
check(all(st["within"] for st in steps if st["concurrency"] <= 3),
      "every window at concurrency 3 or less is within the target")
check(all(not st["few"] and st["samples"] >= s["min_samples"] for st in steps),
      "every window holds its %d samples" % s["min_samples"])
PY
[ $? = 0 ] || fail "the JSON's check failed"
relay_checks "$W/py.out" "the JSON's check"
done_testing
