#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# --open-loop=sweep against a device whose capacity the kernel enforces
# (issue 45): a loop ext4 whose device cgroup v1's blkio throttle holds to
# CAP = 500 reads a second (blkio.throttle.read_iops_device), clyde in
# the group reading with O_DIRECT and writing nothing back (-D
# --seek-updates=0), the seek phase's sweep in steps of 10 s. The seek
# phase itself is held to CAP too, so the sweep starts at about CAP / 8
# and grows x1.25 a step. Asserted, from the JSON:
# - the sweep saturates: the knee is reported, and the last two steps
#   (the knee's and the one after it) achieve CAP (+-10%);
# - the knee lies between CAP / 0.95 and 1.25 x CAP / 0.95: the knee is
#   the first offered rate whose achieved rate falls below 95% of it, and
#   a device that delivers CAP keeps up with any rate up to CAP / 0.95
#   (fio's rate_iops on this setup: 500 -> 499 achieved, 520 -> 502,
#   560 -> 502), so the knee is the first step above CAP / 0.95, one
#   x1.25 step at most above it (the issue asked for "the knee between 80%
#   and 100% of CAP", which its own definition of the knee rules out);
# - every step below the knee kept up (achieved within 5% of offered);
# - past the knee the backlog grows at offered - achieved a second, so a
#   request scheduled t into the step waits about t x (offered / achieved
#   - 1): the p99 of the last two steps is 0.99 x STEP x (offered /
#   achieved - 1) (+-25%; measured 1.37 s for 1.53 s, 4.46 s for 4.43 s),
#   and every step that kept up has a p99 under a fifth of the knee's.
# The issue also asked that p99 rise before saturation (the throttle
# releasing about CAP / 10 requests a 100 ms slice). It did not, in four
# sweeps: the p99 of the last step that kept up (466/s) was 0.6 to 2.3
# times the first's (62/s), both 4 to 70 ms, with fixed and with Poisson
# arrivals. Fixed arrivals at 466/s bring 46.6 requests a slice, never
# over its budget of 50, so none waits for the throttle; Poisson ones
# seldom queue past a slice's budget at 93% of CAP (the service p99, from
# the send, stayed 5 to 37 ms); what is left is the machine's (the loop
# device's worker waiting for a CPU): not a bound to test.
# Nothing but lost+found is left in the mount after the run. clyde runs
# SCHED_FIFO (as in tests/env/capacity_search_faultfs.sh) so that its own
# waits for a CPU do not make a step fall short. About 2.5 minutes.
. "$TESTLIB"
. "$(dirname "$TESTLIB")/env/throttle_lib.sh"
need_cmd chrt "to run clyde as a real-time thread"
CAP=500
STEP_S=10
tmo=""
command -v timeout >/dev/null 2>&1 && tmo="timeout 480"

throttle_ext4 256M
throttle_group
throttle_set "$CG/blkio.throttle.read_iops_device" $CAP
# 8 MiB of 8 KiB chunks: the rewrite's and the block read's 1024 reads take
# 2 s each at CAP, the 1000 seeks 2 s; the sweep from CAP / 8 to its knee
# and one step past it, 11 or 12 steps of 10 s
# shellcheck disable=SC2086 # tmo: empty, or timeout and its seconds
in_group $tmo chrt -f 5 "$CLYDE" -d "$W/mnt" -D -s 8m:8k:1000:1 --seek-updates=0 -n 0 -f -r 0 -q \
	--capacity-phases=seeks --open-loop=sweep --capacity-step=$STEP_S --capacity-time=400 \
	--json "$W/t.json" >"$W/t.out" 2>"$W/t.err"
rc=$?
expect_eq "clyde --open-loop=sweep on the throttled device: exit status" "$rc" 0
[ $rc = 0 ] || sed 's/^/    /' "$W/t.err"
expect_empty_dir "after the run" "$W/mnt"

python3 - "$W/t.json" $CAP $STEP_S >"$W/py.out" 2>&1 <<'PY'
import json, sys
cap, step_s = float(sys.argv[2]), float(sys.argv[3])
ph = json.load(open(sys.argv[1]))["runs"][0]["phases"]["seeks"]
ol = ph["capacity"]["open_loop"]
steps = ol["steps"]
print("the seek phase: %.1f/s; the sweep's knee: %s, slots up to %d" % (ph["rate"], ol["knee"],
                                                                      ol["inflight"]))
for st in steps:
    print("  offered %6.1f/s: achieved %6.1f/s in %.1f s, p50 %.4f s, p99 %.4f s, max %.4f s, "
          "service p99 %.4f s, sent late %d, unsent %d"
          % (st["offered"], st["achieved"], st["seconds"], st["p50_s"], st["p99_s"], st["max_s"],
             st["service_p99_s"], st["sent_late"], st["unsent"]))


def check(ok, text):
    print("CHECK %s %s" % ("ok" if ok else "FAIL", text))


check(ol["mode"] == "sweep" and ol["saturated"] and ol["knee"] is not None,
      "the sweep saturated, its knee reported")
knee = ol["knee"] or 0
check(cap / 0.95 <= knee <= 1.25 * cap / 0.95, "the knee %.1f/s lies between CAP / 0.95 = %.1f "
      "and 1.25 x CAP / 0.95 = %.1f" % (knee, cap / 0.95, 1.25 * cap / 0.95))
check(len(steps) >= 2 and steps[-2]["offered"] == knee, "one step after the knee's")
last = steps[-2:]
check(all(abs(st["achieved"] / cap - 1) <= 0.10 for st in last),
      "the last two steps achieve CAP = %g within 10%%: %s"
      % (cap, ["%.1f" % st["achieved"] for st in last]))
kept = [st for st in steps if st["offered"] < knee]
check(kept and all(st["achieved"] >= 0.95 * st["offered"] for st in kept),
      "the %d steps below the knee kept up" % len(kept))
check(all(st["errors"] == 0 for st in steps), "no step had an error")
for st in last:
    want = 0.99 * step_s * (st["offered"] / st["achieved"] - 1)
    check(abs(st["p99_s"] / want - 1) <= 0.25, "at %.1f/s the p99 %.3f s is the backlog's "
          "0.99 x STEP x (offered / achieved - 1) = %.3f s within 25%%"
          % (st["offered"], st["p99_s"], want))
if kept:
    print("p99: the first step's (%.1f/s) %.4f s, the last that kept up (%.1f/s) %.4f s: x%.1f"
          % (kept[0]["offered"], kept[0]["p99_s"], kept[-1]["offered"], kept[-1]["p99_s"],
             kept[-1]["p99_s"] / max(kept[0]["p99_s"], 1e-9)))
    check(all(st["p99_s"] < last[0]["p99_s"] / 5 for st in kept),
          "every step that kept up has a p99 under a fifth of the knee's (at most %.4f s)"
          % max(st["p99_s"] for st in kept))
PY
[ $? = 0 ] || fail "the JSON's check failed"
relay_checks "$W/py.out" "the JSON's check"
done_testing
