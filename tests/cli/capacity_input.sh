#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# --latency-target and --open-loop on a small tmpfs, each run short:
# bad input (PCT outside (0,100), TIME 0, a rate of 0 or above 1e6/s, an
# unknown --arrivals, --capacity-phases naming a phase it cannot measure
# or nothing, a tuning option alone, -c 2, no phase to measure) is refused
# with status 1, a message and nothing written; open loop at given rates
# writes the table for the phases --capacity-phases names and no others,
# a log with one line per scheduled request, and JSON whose steps keep
# completed + unsent <= scheduled, achieved <= offered x 1.05 and
# p50 <= p99 <= p99.9 <= max; a sweep that cannot saturate within
# --capacity-time exits 8 with its outputs written (timed_out in the
# JSON); the search's concurrencies are 1, 2, 4, ... while within the
# target, then the bisection; no capacity.N is left behind.
. "$TESTLIB"
need_root
need_linux "a tmpfs to mount"
need_python3 "to read the JSON"
need_tmpfs 256m
D=$SCRATCH
W=$D.w
mkdir "$W"
T_DIRS="$T_DIRS $W"

# the phases' own work kept small: 1024 empty files in one directory, and
# a 16 MiB file (and its second of seeks) only for the runs that measure seeks
SMALL="-s 0 -n 1:0:0:1"
SEEKS="-s 16 -r 8 -n 1:0:0:1 -f"

# refused MESSAGE ARGS...: status 1, MESSAGE on stderr, nothing in -d
refused() {
	want=$1
	shift
	# shellcheck disable=SC2086
	"$CLYDE" -d "$D" $SMALL "$@" >"$W/out" 2>"$W/err"
	expect_eq "clyde $* exits 1" "$?" 1
	expect_file_has "clyde $*: says why" "$W/err" "$want"
	expect_empty_dir "clyde $*" "$D"
}

refused "the percentile 'p100' is not a number between 0 and 100" --latency-target=p100:5ms
refused "the percentile 'p0' is not a number between 0 and 100" --latency-target=p0:1ms
refused "the time '0ms' is not a time above 0" --latency-target=p99:0ms
refused "is not 'sweep' or a list of rates above 0" --open-loop=0
refused "is not 'sweep' or a list of rates above 0" --open-loop=100,0
refused "2e+06 a second is more than clyde can schedule" --open-loop=2000000
refused "--arrivals: 'bursty' is not fixed or poisson" --open-loop=100 --arrivals=bursty
refused "--capacity-phases: 'putc' is not one of" --open-loop=100 --capacity-phases=putc
refused "--capacity-phases: 'nonsense' is not one of" --open-loop=100 \
	--capacity-phases=seeks,nonsense
refused "want --latency-target or --open-loop" --capacity-step=0.5
refused "want --latency-target or --open-loop" --open-loop-log="$W/never.log"
refused "not with -c above 1" --open-loop=100 -c 2
# -s 0 -n 0: neither the seeks nor a file phase runs
"$CLYDE" -d "$D" -s 0 -n 0 --open-loop=100 >"$W/out" 2>"$W/err"
expect_eq "--open-loop with -s 0 -n 0 exits 1" "$?" 1
expect_file_has "-s 0 -n 0: says why" "$W/err" "none of those runs here"
# seeks only, and no big file for them
"$CLYDE" -d "$D" -s 0 -n 1 --open-loop=100 --capacity-phases=seeks >"$W/out" 2>"$W/err"
expect_eq "--capacity-phases=seeks with -s 0 exits 1" "$?" 1
expect_file_has "-s 0, seeks: says why" "$W/err" "none of those --capacity-phases names runs here"
expect_empty_dir "-s 0 -n 0" "$D"
[ -e "$W/never.log" ] && fail "a refused run wrote its --open-loop-log"

# check.py: what the outputs must hold (each failure a line, status 1)
cat >"$W/check.py" <<'EOF'
import json, sys
from collections import Counter

fails = []
def want(cond, what):
    if not cond:
        fails.append(what)

def phases(path):
    return json.load(open(path))["runs"][0]["phases"]

def open_loop(path, asked, log=None):
    """every open step's rules; capacity only in the phases asked; the log's lines"""
    ph = phases(path)
    got = sorted(n for n, p in ph.items() if p.get("capacity"))
    want(got == sorted(asked), "capacity in %s, asked %s" % (got, sorted(asked)))
    lines = Counter()
    unsent_lines = Counter()
    if log:
        for ln in open(log):
            f = ln.split()
            want(len(f) == 6, "log line %r: not 6 fields" % ln)
            if len(f) != 6:
                continue
            name, step, sched, sent, done, res = f[0], int(f[1]), int(f[2]), int(f[3]), int(f[4]), int(f[5])
            lines[(name, step)] += 1
            if sent == 0:
                unsent_lines[(name, step)] += 1
                want(done == 0, "log: unsent but done: %r" % ln)
            else:
                want(done >= sent and sched > 0, "log: done before sent: %r" % ln)
                want(res == 0, "log: an error: %r" % ln)
    for n in asked:
        ol = ph[n]["capacity"]["open_loop"]
        want(len(ol["steps"]) > 0, "%s: no step" % n)
        for i, st in enumerate(ol["steps"]):
            at = "%s step %d" % (n, i)
            want(st["completed"] + st["unsent"] <= st["scheduled"],
                 "%s: completed %d + unsent %d > scheduled %d" % (at, st["completed"], st["unsent"], st["scheduled"]))
            want(st["achieved"] <= st["offered"] * 1.05,
                 "%s: achieved %g > offered %g x 1.05" % (at, st["achieved"], st["offered"]))
            for pre in ("", "service_"):
                q = [st[pre + k] for k in ("p50_s", "p99_s", "p999_s", "max_s")]
                want(q == sorted(q), "%s: %sp50/p99/p999/max not in order: %s" % (at, pre, q))
            want(st["inflight"] <= ol["inflight"], "%s: inflight above the phase's" % at)
            if log:
                want(lines[(n, i)] == st["scheduled"],
                     "%s: %d log lines, scheduled %d" % (at, lines[(n, i)], st["scheduled"]))
                want(unsent_lines[(n, i)] == st["unsent"],
                     "%s: %d unsent log lines, unsent %d" % (at, unsent_lines[(n, i)], st["unsent"]))
    if log:
        extra = set(k for k in lines if k[0] not in asked or
                    k[1] >= len(ph[k[0]]["capacity"]["open_loop"]["steps"]))
        want(not extra, "log lines of no step: %s" % sorted(extra))

def rates(path, asked, given):
    for n in asked:
        ol = phases(path)[n]["capacity"]["open_loop"]
        want(ol["mode"] == "rates" and [s["offered"] for s in ol["steps"]] == given,
             "%s: mode %s offered %s, given %s" % (n, ol["mode"], [s["offered"] for s in ol["steps"]], given))
        want(not ol["timed_out"], "%s: rates given, timed out" % n)

def unsaturated(path, name):
    ol = phases(path)[name]["capacity"]["open_loop"]
    want(ol["mode"] == "sweep" and ol["timed_out"] is True and ol["saturated"] is False and
         ol["knee"] is None and "--capacity-time" in ol.get("note", ""),
         "%s: not a timed-out sweep: %s" % (name, {k: ol.get(k) for k in ("mode", "timed_out", "saturated", "knee", "note")}))

def inflight(path, name, n):
    ol = phases(path)[name]["capacity"]["open_loop"]
    want(ol["inflight"] == n and all(s["inflight"] == n for s in ol["steps"]),
         "%s: --open-loop-inflight=%d, the JSON says %s" % (name, n, [ol["inflight"]] + [s["inflight"] for s in ol["steps"]]))

def search(path, asked, maxc, seq=None, met=None):
    """the concurrencies follow the rule from the windows' within; the capacity from them"""
    ph = phases(path)
    got = sorted(n for n, p in ph.items() if p.get("capacity"))
    want(got == sorted(asked), "capacity in %s, asked %s" % (got, sorted(asked)))
    for n in asked:
        s = ph[n]["capacity"]["search"]
        steps = s["steps"]
        concs = [st["concurrency"] for st in steps]
        if seq is not None:
            want(concs == seq, "%s: concurrencies %s, want %s" % (n, concs, seq))
        lo = hi = 0
        c = 1
        expect = []
        for st in steps:
            expect.append(c)
            if st["within"]:
                lo = c
            else:
                hi = c
            if not hi and c >= maxc:
                break
            if not hi:
                c = min(c * 2, maxc)
            elif hi - lo > 1:
                c = lo + (hi - lo) // 2
            else:
                break
        want(concs == expect, "%s: concurrencies %s, the rule from their within says %s" % (n, concs, expect))
        for st in steps:
            lat, t = st["latency_s"], s["target_s"]
            if abs(lat - t) > 1e-3 * t:
                want(st["within"] == (st["samples"] > 0 and lat <= t),
                     "%s c=%d: latency %g target %g within %s" % (n, st["concurrency"], lat, t, st["within"]))
        inside = [st for st in steps if st["within"]]
        best = max([st["rate"] for st in inside], default=0)
        want(s["met"] == bool(inside), "%s: met %s" % (n, s["met"]))
        want(abs(s["rate"] - best) <= 1e-6 * max(best, 1), "%s: rate %g, best within %g" % (n, s["rate"], best))
        cc = max([st["concurrency"] for st in inside if st["rate"] >= 0.95 * best], default=0)
        want(s["concurrency"] == cc, "%s: concurrency %d, want %d" % (n, s["concurrency"], cc))
        if met is not None:
            want(s["met"] == met, "%s: met %s, want %s" % (n, s["met"], met))

what = sys.argv[1]
args = [json.loads(a) for a in sys.argv[3:]]
globals()[what](sys.argv[2], *args)
for f in fails:
    print(f)
sys.exit(1 if fails else 0)
EOF
# pycheck CHECK FILE ARGS...: check.py CHECK on FILE, each failure its line
pycheck() {
	if out=$(python3 "$W/check.py" "$@" 2>&1); then
		ok
	else
		fail "check.py $1 $(basename "$2"):"
		printf '%s\n' "$out" | sed 's/^/    /'
	fi
}

# left_none WHAT ERRFILE: -d empty, and the capacity removed its
# capacity.N itself (no warning that it could not; the run's own removal
# would hide one kept)
left_none() {
	expect_empty_dir "$1: no capacity.N left" "$D"
	check "$1: capacity.N removed by the capacity" sh -c "! grep -q 'cannot remove' '$2'"
}

# open loop at two given rates, two phases of the seven, with the log
# shellcheck disable=SC2086
"$CLYDE" -d "$D" $SMALL --open-loop=200,400 --capacity-step=0.2 \
	--capacity-phases=seq_create,ran_stat --open-loop-log="$W/ol.log" --json "$W/ol.json" \
	>"$W/ol.out" 2>"$W/ol.err"
expect_eq "open loop at 200,400/s: exit status" "$?" 0
pycheck open_loop "$W/ol.json" '["seq_create", "ran_stat"]' '"'"$W/ol.log"'"'
pycheck rates "$W/ol.json" '["seq_create", "ran_stat"]' '[200, 400]'
expect_file_has "the open-loop table on stdout" "$W/ol.out" "Open loop             offered"
rows=$(sed -n 's/^\([A-Z][a-z]*[ a-z/]*[a-z]\) *(fixed arrivals, rates given, .*/\1/p' "$W/ol.out" |
	tr '\n' ';')
expect_eq "the table's phases: those asked, in order" "$rows" "Seq create;Random stat/read;"
check "no search table without --latency-target" sh -c "! grep -q '^Capacity ' '$W/ol.out'"
left_none "open loop" "$W/ol.err"

# a sweep that cannot saturate: one step at an eighth of the phase's
# rate, then --capacity-time is spent. The step keeps up unless its last
# completion is 5% of it late: beside stress-ng --cpu 2 on a loaded
# machine of 2 CPUs the last completion of a 1 s step came up to 56 ms
# late (256 slots; 32 ms with 32): a step of 2 s allows 100 ms
# shellcheck disable=SC2086
"$CLYDE" -d "$D" $SMALL --open-loop=sweep --capacity-step=2 --open-loop-inflight=32 \
	--capacity-time=0.1 --capacity-phases=ran_stat --json "$W/sw.json" >"$W/sw.out" 2>"$W/sw.err"
expect_eq "a sweep within 0.1 s never saturates: exit 8" "$?" 8
expect_file_has "stderr says so" "$W/sw.err" "an --open-loop sweep never saturated"
expect_file_has "the table says why no knee" "$W/sw.out" \
	"no knee: the sweep did not saturate within --capacity-time=0.1 s"
pycheck unsaturated "$W/sw.json" '"ran_stat"'
pycheck inflight "$W/sw.json" '"ran_stat"' 32
pycheck open_loop "$W/sw.json" '["ran_stat"]'
left_none "sweep" "$W/sw.err"

# the search: every window within a second at p50: 1, 2, 4 (--capacity-max)
# shellcheck disable=SC2086
"$CLYDE" -d "$D" $SMALL --latency-target=p50:1s --capacity-step=0.1 --capacity-max=4 \
	--capacity-phases=seq_del --json "$W/s1.json" >"$W/s1.out" 2>"$W/s1.err"
expect_eq "search within p50:1s: exit status" "$?" 0
pycheck search "$W/s1.json" '["seq_del"]' 4 '[1, 2, 4]' true
expect_match "the search table's row" "$(grep '^Seq delete ' "$W/s1.out")" \
	'^Seq delete +[0-9]+ p50<=1000ms +[0-9]+ +[124] +3  files/s$'
left_none "search" "$W/s1.err"
# ...none within a nanosecond: concurrency 1, then the bisection has nowhere to go
# shellcheck disable=SC2086
"$CLYDE" -d "$D" $SEEKS --latency-target=p99:1ns --capacity-step=0.1 --capacity-max=4 \
	--capacity-phases=seeks --json "$W/s2.json" >"$W/s2.out" 2>"$W/s2.err"
expect_eq "search within p99:1ns: exit status" "$?" 0
pycheck search "$W/s2.json" '["seeks"]' 4 '[1]' false
expect_match "the table says not met" "$(grep '^Random seeks ' "$W/s2.out")" \
	'not met at concurrency 1'
# ...a target near what a tmpfs takes: whatever each window gives, the
# next concurrency is the rule's (powers of two up to 8 = 2^3, or to the
# first beyond, then halving the gap)
# shellcheck disable=SC2086
"$CLYDE" -d "$D" $SEEKS --latency-target=p90:20us --capacity-step=0.1 --capacity-max=8 \
	--capacity-phases=seeks,ran_create,ran_del --json "$W/s3.json" >"$W/s3.out" 2>"$W/s3.err"
expect_eq "search within p90:20us: exit status" "$?" 0
pycheck search "$W/s3.json" '["seeks", "ran_create", "ran_del"]' 8
left_none "searches" "$W/s3.err"
done_testing
