#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# A default run's time boxes and stat passes, from its JSON: without -n a
# create phase held past its 3 s box (a test pause) stops there and the
# stat and delete phases after it take what it made, every stat phase
# lasts 0.5 s in whole passes over every file; without -s the block write
# held past its 8 s box leaves a shorter file to the phases after it.
# With -n and -s nothing is boxed and every stat phase is one pass.
. "$TESTLIB"
need_python3
scratch_dir || skip "no scratch directory"
W=$SCRATCH

# hold PHASE SECONDS ARGS...: clyde paused in PHASE's first operation that long
hold() {
	ph=$1 s=$2
	shift 2
	rm -f "$W/go" "$W/j.json" "$W/err"
	CLYDE_TEST_PAUSE=$ph CLYDE_TEST_RESUME=$W/go "$CLYDE" "$@" --json "$W/j.json" \
		>"$W/out" 2>"$W/err" &
	pid=$!
	if wait_pause "$W/err"; then ok; else fail "$ph: never paused: $(cat "$W/err")"; fi
	sleep "$s"
	touch "$W/go"
	wait "$pid"
	expect_eq "$ph held $s s: exit status" "$?" 0
}

# py EXPR...: the checks of a python3 snippet over the document d; prints the failures
py() {
	python3 - "$W/j.json" "$1" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
r = d["runs"][0]
ph = r["phases"]
bad = []
def need(cond, what):
    if not cond:
        bad.append(what)
exec(sys.argv[2])
print("; ".join(bad))
PY
}

mkdir "$W/d"
# 1. no -n: the random create held past its box (on a tmpfs, root's own
# or /dev/shm, so that the sequential create is not cut too)
D=$W/d
scratch_tmpfs_any 256m && D=$SCRATCH
hold ran_create 3.5 -d "$D" -s 0
out=$(py '
need(d["schema"] == "clyde-result/15", "schema %r" % d["schema"])
need(d["plan"] and d["plan"]["estimate_s"] > 0, "plan %r" % d["plan"])
need(d["elapsed_s"] and d["elapsed_s"] >= 3.5, "elapsed_s %r" % d["elapsed_s"])
planned = r["files"]["number"] * 1024
rc, rs, rd = ph["ran_create"], ph["ran_stat"], ph["ran_del"]
need(rc["time_box"]["seconds"] == 3, "ran_create box %r" % rc.get("time_box"))
need(rc["time_box"]["cut"] is True, "ran_create not cut: %r" % rc.get("time_box"))
# the box is looked at on whole units of 1024 files: held at its first
# file, the random create stops at 1024
need(rc["amount"] == 1024 < planned, "ran_create made %r of %r" % (rc["amount"], planned))
need(rd["amount"] == rc["amount"], "ran_del removed %r, made %r" % (rd["amount"], rc["amount"]))
need(rs["amount"] == rs["passes"] * rc["amount"], "ran_stat %r = %r passes x %r" % (rs["amount"], rs["passes"], rc["amount"]))
for n in ("seq_stat", "ran_stat"):
    need(ph[n]["elapsed_s"] >= 0.5, "%s lasted %r" % (n, ph[n]["elapsed_s"]))
    need(ph[n]["passes"] >= 1, "%s passes %r" % (n, ph[n]["passes"]))
    need(ph[n]["latency_us"]["count"] == ph[n]["amount"], "%s: latency of %r stats, amount %r" % (n, ph[n]["latency_us"]["count"], ph[n]["amount"]))
need(ph["seq_stat"]["amount"] == ph["seq_stat"]["passes"] * ph["seq_create"]["amount"], "seq_stat amount")
# the count in the table and the CSV is what the sequential create made
need(ph["seq_create"]["amount"] == planned, "seq_create made %r, the count says %r" % (ph["seq_create"]["amount"], planned))
for n in ("seq_create", "seq_del", "ran_create", "ran_del"):
    need(ph[n]["passes"] == 1, "%s passes %r" % (n, ph[n]["passes"]))
    need("estimate_s" in ph[n], "%s has no estimate_s" % n)
')
expect_eq "no -n, random create held: the document" "$out" ""
expect_file_has "no -n, random create held: the context line" "$W/err" "cut at their time limits: ran_create"

# 2. -n and -s given: one pass, no box, bonnie++ semantics
"$CLYDE" -d "$W/d" -s 0 -n 1 --json "$W/j.json" >"$W/out" 2>"$W/err"
expect_eq "-n 1: exit status" "$?" 0
out=$(py '
for n in ("seq_create", "seq_stat", "seq_del", "ran_create", "ran_stat", "ran_del"):
    need(ph[n]["passes"] == 1, "%s passes %r" % (n, ph[n]["passes"]))
    need("time_box" not in ph[n], "%s has a box" % n)
    need(ph[n]["amount"] == 1024, "%s amount %r" % (n, ph[n]["amount"]))
')
expect_eq "-n 1: one pass each, no box" "$out" ""

# 3. no -s: the block write held past its box leaves a shorter file
if [ "$(id -u)" = 0 ] && scratch_tmpfs 96m; then
	hold put_block 8.5 -d "$SCRATCH" -n 1 -f
	out=$(py '
pb, rw, gb = ph["put_block"], ph["rewrite"], ph["get_block"]
need(pb["time_box"]["seconds"] == 8 and pb["time_box"]["cut"] is True, "put_block box %r" % pb.get("time_box"))
# held at its first chunk past its box, it stops at the first whole MiB,
# and the size the CSV and JSON give is what it wrote (the plan: about 48 MiB)
need(pb["amount"] == 1024 == r["io"]["size_mib"] * 1024, "put_block wrote %r KiB, the size says %r MiB" % (pb["amount"], r["io"]["size_mib"]))
need(rw["amount"] == pb["amount"] and gb["amount"] == pb["amount"], "rewrite %r, read %r, write %r" % (rw["amount"], gb["amount"], pb["amount"]))
need("time_box" not in ph["seeks"], "seeks boxed")
')
	expect_eq "no -s, block write held: the document" "$out" ""
	expect_file_has "no -s, block write held: the context line" "$W/err" "cut at their time limits: put_block; the file tested: 1 MiB"
else
	echo "SKIP (counted): the block write's box needs root for a small tmpfs"
	T_SKIPPED=1
fi
# --plan -D: O_DIRECT leaves nothing in the page cache, so a write stopped at its box has
# nothing to sync, and the plan says so (it said the dirty limit's flush it did not count)
mkdir -p "$W/d"
if "$CLYDE" -d "$W/d" -n 0 -D --plan >"$W/plan" 2>"$W/err"; then
	expect_match "--plan -D: a boxed write has nothing to flush" "$(grep '^time boxes' "$W/plan")" \
		'syncs nothing: O_DIRECT'
	check "--plan -D: no page-cache flush" sh -c "! grep -q 'what the page cache took' '$W/plan'"
elif grep -q O_DIRECT "$W/err"; then
	echo "SKIP (counted): O_DIRECT refused here: $(cat "$W/err")"
	T_SKIPPED=1
else
	fail "--plan -D: $(cat "$W/err")"
fi
expect_empty_dir "nothing left" "$W/d"
# the seeks line counts its seekers in words that agree with the number
"$CLYDE" -d "$W/d" -s 8m:8k:100:1 -n 0 --plan >"$W/plan1" 2>"$W/err"
expect_match "--plan, one seeker" "$(grep '^seeks:' "$W/plan1")" '^seeks: 100 by 1 seeker;'
"$CLYDE" -d "$W/d" -s 8m:8k:100:3 -n 0 --plan >"$W/plan3" 2>"$W/err"
expect_match "--plan, three seekers" "$(grep '^seeks:' "$W/plan3")" '^seeks: 100 by 3 seekers;'
expect_empty_dir "nothing left after the plans" "$W/d"
[ "${T_SKIPPED:-0}" = 1 ] && [ "$T_FAILS" = 0 ] && { echo "$(basename "$0"): $T_CHECKS checks, 0 failed; the block write's box skipped"; exit 77; }
done_testing
