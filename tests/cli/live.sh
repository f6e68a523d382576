#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# --live on stderr when it is not a terminal: a line per interval per
# phase, the last one ending "end"; --live=csv parsed and held against the
# JSON of the same run (the last line of a phase is its elapsed time and
# its average rate); nothing on stdout; the refusals.
. "$TESTLIB"
need_root
need_linux "a tmpfs to mount"
need_python3 "to read the CSV and the JSON"
need_tmpfs 256m
MNT=$SCRATCH
scratch_dir
W=$SCRATCH

"$CLYDE" -d "$MNT" -s 16:8192:3000 -r 8 -n 1 --live -q >"$W/text.out" 2>"$W/text.err"
expect_eq "--live: exit status" "$?" 0
if grep -q 'live' "$W/text.out"; then fail "--live wrote on stdout"; else ok; fi
expect_match "--live: stdout is the CSV line alone" "$(cat "$W/text.out")" '^1\.98,[^\n]*$'
for p in "per-char write" "block write" "rewrite" "per-char read" "block read" "random seeks" \
	"sequential create" "random delete"; do
	expect_match "--live: $p ends" "$(grep "^clyde: live: $p " "$W/text.err" | tail -n 1)" \
		"^clyde: live: $p +[0-9.]+% +[0-9.]+ s  now .*/s  avg .*/s  p99 .*  dirty [0-9.]+ MiB  end$"
done
expect_match "--live: the per-char write has more than its last line" \
	"$(grep -c '^clyde: live: per-char write ' "$W/text.err")" '^([2-9]|[1-9][0-9]+)$'
if grep -q '\.\.\.done' "$W/text.err"; then fail "--live: the phase...done words are still there"; else ok; fi

"$CLYDE" -d "$MNT" -s 16:8192:3000 -r 8 -n 1 --live=csv -q --json "$W/csv.json" >"$W/csv.out" 2>"$W/csv.err"
expect_eq "--live=csv: exit status" "$?" 0
out=$(python3 - "$W/csv.err" "$W/csv.json" <<'PY'
import json, sys
problems = []
def need(cond, what):
    if not cond:
        problems.append(what)
lines = [l.rstrip("\n") for l in open(sys.argv[1]) if l.startswith("clyde-live,")]
phases = json.load(open(sys.argv[2]))["runs"][0]["phases"]
head = "clyde-live,phase,t_s,done_pct,rate,avg_rate,rate_unit,p99_s,dirty_mib,end"
need(lines and lines[0] == head, "header %r" % (lines[:1],))
need(sum(1 for l in lines if l == head) == 1, "one header")
rows = [l.split(",") for l in lines[1:]]
need(all(len(r) == 10 for r in rows), "ten fields")
seen = {}
for r in rows:
    name, t, pct, rate, avg, unit, p99, dirty, end = r[1], float(r[2]), float(r[3]), \
        float(r[4]), float(r[5]), r[6], r[7], r[8], r[9]
    need(name in phases and phases[name]["ran"], "phase %s" % name)
    prev = seen.get(name)
    need(prev is None or (t >= prev[0] and prev[1] == "0"), "%s: out of order or after its end" % name)
    seen[name] = (t, end)
    need(0 <= pct <= 100 and rate >= 0 and avg >= 0, "%s: values %r" % (name, r))
    need(unit == phases[name]["rate_unit"], "%s: unit %s" % (name, unit))
    need(p99 == "" or float(p99) > 0, "%s: p99 %r" % (name, p99))
    need(dirty == "" or float(dirty) >= 0, "%s: dirty %r" % (name, dirty))
    if end == "1":
        p = phases[name]
        need(abs(t - p["elapsed_s"]) < 0.002, "%s: ends at %s, the phase at %s" % (name, t, p["elapsed_s"]))
        need(abs(avg - p["rate"]) <= 0.01 * p["rate"] + 1e-6,
             "%s: average %s, the phase's rate %s" % (name, avg, p["rate"]))
        need(pct == 100.0, "%s: %s%% at its end" % (name, pct))
ran = [n for n, p in phases.items() if p["ran"]]
need(sorted(seen) == sorted(ran), "phases %s, ran %s" % (sorted(seen), sorted(ran)))
need(all(e == "1" for _, e in seen.values()), "every phase has its end line")
print("; ".join(problems))
PY
)
expect_eq "--live=csv: the lines agree with the JSON" "$out" ""

"$CLYDE" -d "$MNT" --live --interval=off >/dev/null 2>"$W/bad.err"
expect_eq "--live --interval=off refused" "$?" 1
expect_file_has "--live --interval=off: why" "$W/bad.err" \
	"--live shows the series' intervals: not with --interval=off"
"$CLYDE" -d "$MNT" --live=json >/dev/null 2>"$W/bad.err"
expect_eq "--live=json refused" "$?" 1
expect_file_has "--live=json: why" "$W/bad.err" "--live: 'json' is not csv"
done_testing
