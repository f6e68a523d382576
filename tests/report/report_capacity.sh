#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# clyde-report's capacity under a latency bound (clyde-result/15, issue
# 45), from clyde-cap.json (written by hand from the interface:
# tests/data/report_golden/clyde-cap.py): the text's table against the
# fixture's figures worked out here by Python (medians over the runs, the
# target, each step's offered, achieved and latencies, the knee or "not
# saturated"), not read from the program; the SVG's charts (one curve per
# configuration on one chart, the y = x line, the knees, the latency on a
# log axis with ticks at powers of ten); an older document (/14) read as
# before with no capacity table; malformed capacity objects refused with
# a message that names the key, exit 3 when no run is left; the history
# (--db, schema 6) keeps the figures, read back with Python's sqlite3.
. "$TESTLIB"
[ -x "$REPORT" ] || skip "no $REPORT"
need_cmd python3
scratch_dir
W=$SCRATCH
CAP=$REPORT_GOLDEN/clyde-cap.json
OLD=$FORMAT_GOLDEN/full.json

status() {
	rc=0
	"$@" >"$W/out" 2>"$W/err" || rc=$?
	echo "$rc"
}

# 1. the text: every figure of the capacity table against the fixture
expect_eq "the report of the capacity runs" "$(status "$REPORT" -o "$W/cap.txt" --svg "$W/cap.svg" \
	--html "$W/cap.html" "$CAP")" 0
expect_file_has "the table's heading" "$W/cap.txt" "Capacity under a latency bound"
python3 - "$CAP" "$W/cap.txt" >"$W/check.out" 2>&1 <<'EOF'
import json, statistics, sys

doc = json.load(open(sys.argv[1]))
text = open(sys.argv[2]).read().split("\n")
start = next(i for i, l in enumerate(text) if l.startswith("Capacity under a latency bound"))
lines = text[start + 1:]
bad = []

def close(a, b, tol):
    return abs(a - b) <= tol

def target(pct, t):
    for scale, unit in ((1, "s"), (1e-3, "ms"), (1e-6, "us"), (1e-9, "ns")):
        if t >= scale * (1 - 1e-9) or unit == "ns":
            return "p%s<=%s%s" % (("%g" % pct), ("%g" % (t / scale)), unit)

configs = []
for r in doc["runs"]:
    if not configs or configs[-1][0] != r["name"]:
        configs.append((r["name"], []))
    configs[-1][1].append(r)

phases = ["seeks", "seq_create"]
for k, (name, runs) in enumerate(configs):
    head = "[%d] %s, %d run%s" % (k + 1, name, len(runs), "" if len(runs) == 1 else "s")
    if head not in lines:
        bad.append("no heading " + head)
        continue
    block = lines[lines.index(head) + 1:]
    end = next((i for i, l in enumerate(block) if l.startswith("[") or not l.startswith("  ")), len(block))
    block = [l.split() for l in block[:end]]
    search = [b for b in block if b and b[0] in phases and len(b) == 7]
    # the searches: runs, unbounded, target, capacity (0 when not met), concurrency (met runs), met
    want = []
    for ph in phases:
        s = [r["phases"][ph]["capacity"]["search"] for r in runs]
        met = [x for x in s if x["met"]]
        want.append((ph, len(s), statistics.median(x["unbounded_rate"] for x in s),
                     target(s[0]["percentile"], s[0]["target_s"]),
                     statistics.median(x["rate"] if x["met"] else 0 for x in s),
                     statistics.median(x["concurrency"] for x in met) if met else None,
                     "%d/%d" % (len(met), len(s))))
    if len(search) != len(want):
        bad.append("%s: %d search rows, not %d" % (name, len(search), len(want)))
    for got, w in zip(search, want):
        ok = (got[0] == w[0] and int(got[1]) == w[1] and close(float(got[2]), w[2], 0.0501) and
              got[3] == w[3] and close(float(got[4]), w[4], 0.0501) and
              (got[5] == "-" if w[5] is None else close(float(got[5]), w[5], 0.05)) and got[6] == w[6])
        if not ok:
            bad.append("%s search: got %s, want %s" % (name, got, w))
    # the open-loop steps, per run in order: offered, achieved, p50/p99/p99.9 in ms, late, unsent
    steps = [b for b in block if len(b) == 9 and b[1].startswith("#")]
    knees = [b for b in block if len(b) > 2 and b[1].startswith("#") and b[2] in ("knee", "not")]
    want_steps, want_knees = [], []
    for ph in phases:
        for j, r in enumerate(runs):
            ol = r["phases"][ph]["capacity"].get("open_loop")
            if not ol:
                continue
            for st in ol["steps"]:
                want_steps.append((ph, "#%d" % (j + 1), st["offered"], st["achieved"], st["p50_s"] * 1e3,
                                   st["p99_s"] * 1e3, st["p999_s"] * 1e3, st["sent_late"], st["unsent"]))
            want_knees.append((ph, "#%d" % (j + 1), ol["knee"]))
    if len(steps) != len(want_steps):
        bad.append("%s: %d step rows, not %d" % (name, len(steps), len(want_steps)))
    for got, w in zip(steps, want_steps):
        ok = got[0] == w[0] and got[1] == w[1] and all(
            close(float(g), x, tol) for g, x, tol in zip(got[2:], w[2:], (0.0501, 0.0501, 5.01e-4, 5.01e-4, 5.01e-4, 0, 0)))
        if not ok:
            bad.append("%s step: got %s, want %s" % (name, got, w))
    if len(knees) != len(want_knees):
        bad.append("%s: %d knee lines, not %d" % (name, len(knees), len(want_knees)))
    for got, w in zip(knees, want_knees):
        if (got[0], got[1]) != w[:2]:
            bad.append("%s knee line: got %s, want %s" % (name, got, w))
        elif w[2] is None and got[2:4] != ["not", "saturated"]:
            bad.append("%s %s %s: want not saturated, got %s" % (name, w[0], w[1], got))
        elif w[2] is not None and (got[2] != "knee" or not close(float(got[3].rstrip("/s")), w[2], 0.05)):
            bad.append("%s %s %s: want knee %s, got %s" % (name, w[0], w[1], w[2], got))
print("\n".join(bad) if bad else "ok")
EOF
expect_eq "the capacity table holds the fixture's figures" "$(cat "$W/check.out")" ok

# 2. the charts: per phase, one curve per configuration on one chart, and a log latency axis
python3 - "$W/cap.svg" >"$W/svg.out" 2>&1 <<'EOF'
import math, re, sys
import xml.etree.ElementTree as ET

NS = "{http://www.w3.org/2000/svg}"
root = ET.parse(sys.argv[1]).getroot()
charts = {}
for g in root.iter(NS + "g"):
    cls = g.get("class", "").split()
    if "cap-chart" in cls:
        charts[(g.get("data-phase"), cls[1])] = g

def classed(g, tag, c):
    return [e for e in g.iter(NS + tag) if c in e.get("class", "").split()]

out = []
for ph, ncurves in (("seeks", 2), ("seq_create", 1)):
    rate = charts.get((ph, "cap-rate-chart"))
    lat = charts.get((ph, "cap-latency-chart"))
    if rate is None or lat is None:
        out.append("%s: no charts" % ph)
        continue
    curves = classed(rate, "path", "cap-achieved")
    colours = {c.get("stroke") for c in curves}
    keys = ["".join(k.itertext()) for k in classed(rate, "g", "cap-key")]
    out.append("%s: %d curves, %d colours, configs %s, %d diagonal, %d knees, key %s" % (
        ph, len(curves), len(colours), ",".join(c.get("data-config") for c in curves),
        len(classed(rate, "line", "cap-diagonal")), len(classed(rate, "g", "cap-knee")), "; ".join(keys)))
    lines = classed(lat, "path", "cap-latency")
    per = {}
    for l in lines:
        per.setdefault(l.get("data-config"), set()).add(l.get("class").split()[1])
    out.append("%s latency: %s" % (ph, " ".join("%s:%s" % (c, ",".join(sorted(v))) for c, v in sorted(per.items()))))
    # the ticks: powers of ten, one decade apart, equally spaced
    ticks = [(t.text, float(t.get("y"))) for t in classed(lat, "text", "cap-log-tick")]
    unit = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1}
    vals = []
    for text, y in ticks:
        m = re.fullmatch(r"(1|10|100)(ns|us|ms|s)", text)
        vals.append((math.log10(int(m.group(1)) * unit[m.group(2)]) if m else None, y))
    decades = all(v is not None and abs(v - round(v)) < 1e-9 for v, _ in vals)
    steps = {round(vals[i + 1][0] - vals[i][0], 6) for i in range(len(vals) - 1)} if decades else set()
    gaps = {round(vals[i][1] - vals[i + 1][1], 1) for i in range(len(vals) - 1)}
    out.append("%s ticks: %s; powers of ten %s, a decade apart %s, equally spaced %s" % (
        ph, " ".join(t for t, _ in ticks), decades, steps == {1.0}, len(gaps) == 1))
print("\n".join(out))
EOF
expect_eq "the charts: one curve per configuration, the log axis" "$(cat "$W/svg.out")" \
"seeks: 2 curves, 2 colours, configs 1,2, 1 diagonal, 2 knees, key [1] ext4-cap; [2] xfs-cap
seeks latency: 1:cap-p50,cap-p99,cap-p999 2:cap-p50,cap-p99,cap-p999
seeks ticks: 100us 1ms 10ms 100ms 1s; powers of ten True, a decade apart True, equally spaced True
seq_create: 1 curves, 1 colours, configs 1, 1 diagonal, 0 knees, key [1] ext4-cap
seq_create latency: 1:cap-p50,cap-p99,cap-p999
seq_create ticks: 10us 100us 1ms; powers of ten True, a decade apart True, equally spaced True"
expect_file_has "the page has the section" "$W/cap.html" "<h2>Capacity under a latency bound</h2>"
expect_eq "the page has the charts" "$(grep -c 'class="cap-chart' "$W/cap.html")" 4
python3 -c 'import sys, xml.dom.minidom; [xml.dom.minidom.parse(f) for f in sys.argv[1:]]' "$W/cap.html" "$W/cap.svg"
expect_eq "the page and the SVG parse as XML" "$?" 0

# 3. an older document (/14): read as before, no capacity table and no capacity charts
expect_eq "a /14 document" "$(status "$REPORT" -o "$W/old.txt" --svg "$W/old.svg" "$OLD")" 0
check "no capacity table for it" sh -c "! grep -q 'Capacity under' '$W/old.txt'"
check "no capacity chart for it" sh -c "! grep -q 'cap-chart' '$W/old.svg'"
check "its table as before" grep -q '^\[1\] full-ext4' "$W/old.txt"

# 4. malformed capacity objects: the run is skipped, the message names the key
# bad NAME PYTHON: clyde-cap.json's first run alone, changed by PYTHON (r: the run)
bad() {
	python3 - "$CAP" "$W/$1.json" "$2" <<'EOF'
import json, sys
doc = json.load(open(sys.argv[1]))
r = doc["runs"][0]
exec(sys.argv[3])
doc["runs"] = [r]
json.dump(doc, open(sys.argv[2], "w"), indent=1)
EOF
}
bad nooffered 'del r["phases"]["seeks"]["capacity"]["open_loop"]["steps"][2]["offered"]'
bad string 'r["phases"]["seq_create"]["capacity"]["open_loop"]["steps"][0]["p99_s"] = "fast"'
bad rate 'r["phases"]["seeks"]["capacity"]["search"]["rate"] = "498.2"'
bad knee 'r["phases"]["seeks"]["capacity"]["open_loop"]["saturated"] = False'
bad nometa 'del r["phases"]["seeks"]["capacity"]["search"]["met"]'
for f in nooffered string rate knee nometa; do
	expect_eq "$f: no run left, exit 3" "$(status "$REPORT" "$W/$f.json")" 3
	cp "$W/err" "$W/$f.err"
done
msg() { sed -n 1p "$W/$1.err" | sed 's/^[^:]*:[0-9]*: //'; }
expect_eq "a step without offered" "$(msg nooffered)" \
	'phase seeks capacity: open_loop step 3 has no "offered": skipped'
expect_eq "a string where a latency goes" "$(msg string)" \
	'phase seq_create capacity: open_loop step 1 has a "p99_s" that is not a number or null: skipped'
expect_eq "a string where the capacity goes" "$(msg rate)" \
	'phase seeks capacity: search has a "rate" that is not a number: skipped'
expect_eq "a knee where not saturated" "$(msg knee)" \
	'phase seeks capacity: open_loop is not saturated but its knee is a rate: skipped'
expect_eq "no met" "$(msg nometa)" \
	'phase seeks capacity: search has no "met", or one that is not true or false: skipped'
expect_eq "with a good document beside it: exit 0, the good runs read" \
	"$(status "$REPORT" "$W/nooffered.json" "$CAP")|$(grep -c '^\[[12]\] ' "$W/out")" "0|4"

# 5. the history keeps the capacity figures
rc=0
"$REPORT" --db "$W/probe.db" --history name=x >"$W/probe.out" 2>&1 || rc=$?
# without SQLite (--with-sqlite3=no: report_db_none.c) --db exits 6, and the rest needs the history
[ "$rc" != 6 ] || { done_testing; exit; }
python3 -c 'import sqlite3' 2>/dev/null || { done_testing; exit; }
sql() {
	python3 - "$1" "$2" <<'EOF'
import sqlite3, sys
con = sqlite3.connect(sys.argv[1])
for row in con.execute(sys.argv[2]):
    print("|".join("" if v is None else str(v) for v in row))
EOF
}
DB=$W/h.db
expect_eq "add the capacity runs" "$(status "$REPORT" --db "$DB" --add "$CAP")" 0
expect_eq "schema 6" "$(sql "$DB" 'pragma user_version')" 6
expect_eq "a /15 run without an age is fresh, as a /14 one" "$(sql "$DB" 'select distinct age from runs')" fresh
python3 - "$CAP" "$DB" >"$W/db.out" 2>&1 <<'EOF'
import json, sqlite3, sys
doc = json.load(open(sys.argv[1]))
con = sqlite3.connect(sys.argv[2])
bad = []
for r in doc["runs"]:
    (rid,) = con.execute("select id from runs where seed = ? and name = ?", (str(r["seed"]), r["name"])).fetchone()
    for ph in ("seeks", "seq_create"):
        c = r["phases"][ph]["capacity"]
        s, o = c.get("search"), c.get("open_loop")
        row = con.execute("select percentile, target_s, unbounded_rate, met, rate, concurrency, arrivals,"
                          " mode, inflight, knee, saturated from capacity where run_id = ? and phase = ?",
                          (rid, ph)).fetchone()
        want = (s["percentile"], s["target_s"], s["unbounded_rate"], int(s["met"]), s["rate"], s["concurrency"],
                o and o["arrivals"], o and o["mode"], o and o["inflight"], o and o["knee"],
                None if o is None else int(o["saturated"]))
        if row != want:
            bad.append("%s %s: %s, not %s" % (r["seed"], ph, row, want))
        steps = con.execute("select offered, achieved, sent_late, unsent, p99_s from capacity_steps"
                            " where run_id = ? and phase = ? order by step", (rid, ph)).fetchall()
        want = [(t["offered"], t["achieved"], t["sent_late"], t["unsent"], t["p99_s"])
                for t in (o["steps"] if o else [])]
        if steps != want:
            bad.append("%s %s steps: %s, not %s" % (r["seed"], ph, steps, want))
print("\n".join(bad) if bad else "ok")
EOF
expect_eq "each run's capacity read back" "$(cat "$W/db.out")" ok
expect_eq "added again: found, not added" "$(status "$REPORT" --db "$DB" --add "$CAP")|$(sql "$DB" \
	'select count(*) from capacity')|$(sql "$DB" 'select count(*) from capacity_steps')" "0|8|54"
# a schema-5 history (this one with the tables and version of 5): an add migrates it
O=$W/five.db
expect_eq "a history of the /14 run" "$(status "$REPORT" --db "$O" --add "$OLD")" 0
sql "$O" 'drop table capacity' >/dev/null
sql "$O" 'drop table capacity_steps' >/dev/null
python3 -c 'import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.execute("pragma user_version = 5"); c.commit()' "$O"
expect_eq "read as it is" "$(status "$REPORT" --db "$O" --history name=full-ext4 --svg "$W/five.svg")|$(sql "$O" \
	'pragma user_version')" "0|5"
expect_eq "an add migrates it" "$(status "$REPORT" --db "$O" --add "$CAP")|$(sql "$O" 'pragma user_version')" "0|6"
expect_eq "the old run has no capacity, the new ones theirs" "$(sql "$O" "select r.name, count(c.phase) from runs r \
	left join capacity c on c.run_id = r.id group by r.id order by r.id" | tr '\n' ';')" \
	"full-ext4|0;ext4-cap|2;ext4-cap|2;ext4-cap|2;xfs-cap|2;"
done_testing
