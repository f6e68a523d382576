#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# clyde-report and the phases' time series (clyde-result/8), from documents
# written by tests/report/series_doc.py from figures chosen there: the text's
# first, middle and last tenth and longest stall, worked by hand from the
# rows; the SVG's and the page's charts (one per phase with a series, a
# second axis exactly where dirty pages were measured, a point per row, the
# rate line's heights in the rates' order); columns found by name; the
# malformed series rejected with their line; documents without series
# (clyde-result/7, or /8 with every series null, or --series=off) reported
# as before; --series=only.
. "$TESTLIB"
need_built "$REPORT"
need_python3
GEN=$(dirname "$TESTLIB")/report/series_doc.py
G=${FORMAT_GOLDEN:-$(dirname "$TESTLIB")/data/format_golden}
scratch_dir
W=$SCRATCH

# doc KIND: the document of that kind as $W/KIND/doc.json (one name for every
# kind, since the page names its inputs)
doc() {
	mkdir -p "$W/$1"
	python3 "$GEN" "$1" >"$W/$1/doc.json"
}
for k in good shuffled nokey nulls no_t_end narrow gap unit; do
	doc "$k"
done

# report KIND [ARGS...]: clyde-report ARGS on KIND's document, in its folder:
# $W/KIND/out (the text), err, svg, html, rc
report() {
	kind=$1
	shift
	(cd "$W/$kind" && "$REPORT" --svg svg --html html "$@" doc.json >out 2>err)
	echo $? >"$W/$kind/rc"
}

# row FILE PHASE RUN: the cells after the phase name of the Over time row
row() {
	sed -n '/^Over time/,$p' "$1" | grep "^  $2  *$3 " | sed "s|^  $2  *$3 *||; s|  *| |g"
}

# 1. the text: block write 500 KiB/s for 2 s, then 50; no completion in
# [2.5, 2.8) and [3.3, 3.4). First tenth [0, 0.4]: 500; middle [1.8, 2.2]:
# (2 x 50 + 2 x 5) / 0.4 = 275; last [3.6, 4]: 4 x 5 / 0.4 = 50. Run 2 does
# 0.8 of the work: 400, 220, 40. Block read: 1000 throughout, no stall.
# In the page's unit of each row (MiB/s: its largest tenth is under 1 GiB/s),
# to 4 significant digits: 500 / 1024 = 0.4883, 275 / 1024 = 0.2686, ...
report good
expect_eq "good: exit status" "$(cat "$W/good/rc")" 0
expect_eq "good: nothing on stderr" "$(cat "$W/good/err")" ""
expect_eq "text: the block's head" "$(grep '^\[1\] .*with a series$' "$W/good/out")" \
	"[1] cliff -s 64M::8192:5: 2 of 2 runs with a series"
expect_eq "text: block write, run 1" "$(row "$W/good/out" 'Block write' 1)" "40 0.4883 0.2686 0.04883 MiB/s 0.300 2.500"
expect_eq "text: block write, run 2" "$(row "$W/good/out" 'Block write' 2)" "40 0.3906 0.2148 0.03906 MiB/s 0.300 2.500"
expect_eq "text: block read, no stall" "$(row "$W/good/out" 'Block read' 1)" "10 0.9766 0.9766 0.9766 MiB/s -"
expect_eq "text: rewrite (series null) and seeks (none) have no row" \
	"$(sed -n '/^Over time/,$p' "$W/good/out" | grep -c -e '^  Rewrite' -e '^  Random seeks')" 0
expect_eq "text: the main table still has its four phases" \
	"$(awk '/^\[1\]/ { on = 1 } on && /^$/ { exit } on' "$W/good/out" | grep -c -e '^  Block write' -e '^  Rewrite' -e '^  Block read' -e '^  Random seeks')" 4

# 2. the charts, read back with an XML parser
check "good: the SVG parses as XML" python3 -c 'import sys, xml.dom.minidom; xml.dom.minidom.parse(sys.argv[1])' "$W/good/svg"
check "good: the page parses as XML" python3 -c 'import sys, xml.dom.minidom; xml.dom.minidom.parse(sys.argv[1])' "$W/good/html"
cat >"$W/charts.py" <<'PY'
import json, sys
import xml.dom.minidom as md

SVG = "http://www.w3.org/2000/svg"
svg = md.parse(sys.argv[1]).documentElement
page = md.parse(sys.argv[2]).documentElement
doc = json.load(open(sys.argv[3]))
bad = []

def cls(root, tag, name):
    return [e for e in root.getElementsByTagNameNS(SVG, tag) if e.getAttribute("class") == name]

def texts(el):
    out = []
    for t in el.getElementsByTagNameNS(SVG, "text"):
        out.append("".join(c.data for c in t.childNodes if c.nodeType == c.TEXT_NODE))
    return out

def points(pl):
    return [tuple(float(v) for v in p.split(",")) for p in pl.getAttribute("points").split()]

def sign(v):
    return (v > 0) - (v < 0)

charts = cls(svg, "g", "series-chart")
if len(charts) != 2:
    bad.append("%d series charts, want 2 (block write, block read)" % len(charts))
else:
    want = [("Block write over time", True, [doc["runs"][0], doc["runs"][1]], "put_block"),
            ("Block read over time", False, [doc["runs"][0]], "get_block")]
    for ch, (title, dirty, runs, ph) in zip(charts, want):
        words = texts(ch)
        if not words[0].startswith(title):
            bad.append("chart %r, want %r" % (words[0], title))
        if bool(cls(ch, "g", "axis-dirty")) != dirty:
            bad.append("%s: a second axis: %s" % (title, not dirty))
        if any("dirty pages: not measured" in w for w in words) == dirty:
            bad.append("%s: 'dirty pages: not measured' said wrongly" % title)
        lines = cls(ch, "polyline", "rate")
        if len(lines) != len(runs):
            bad.append("%s: %d rate lines, want %d" % (title, len(lines), len(runs)))
            continue
        for pl, run in zip(lines, runs):
            rows = run["phases"][ph]["series"]["rows"]
            pts = points(pl)
            if len(pts) != len(rows):
                bad.append("%s: %d points for %d rows" % (title, len(pts), len(rows)))
                continue
            rates = [r[4] for r in rows]
            for k in range(1, len(rows)):
                if not pts[k][0] > pts[k - 1][0]:
                    bad.append("%s: x does not grow at row %d" % (title, k + 1))
                    break
                # SVG's y grows downwards: a higher rate is a smaller y
                if sign(rates[k] - rates[k - 1]) != -sign(pts[k][1] - pts[k - 1][1]):
                    bad.append("%s: rows %d, %d: rates %g, %g at y %g, %g" %
                               (title, k, k + 1, rates[k - 1], rates[k], pts[k - 1][1], pts[k][1]))
                    break
        dirt = cls(ch, "path", "dirty")
        if dirty and (len(dirt) != len(runs) or dirt[0].getAttribute("d").count("L") != 39):
            bad.append("%s: dirty lines %d, want one per run through every row" % (title, len(dirt)))
        if not dirty and dirt:
            bad.append("%s: a dirty line where none was measured" % title)
        if len(cls(ch, "path", "p99")) != len(runs):
            bad.append("%s: p99 steps %d, want %d" % (title, len(cls(ch, "path", "p99")), len(runs)))
if len(cls(page, "g", "series-chart")) != 2:
    bad.append("the page has %d series charts, want 2" % len(cls(page, "g", "series-chart")))
for root in (svg, page):
    for el in root.getElementsByTagName("*"):
        for a in ("href", "src", "xlink:href"):
            if el.hasAttribute(a):
                bad.append("%s has %s" % (el.tagName, a))
    if root.getElementsByTagName("script") or root.getElementsByTagName("link"):
        bad.append("script or link element")
print("\n".join(bad))
PY
expect_eq "SVG and page: the series charts" "$(python3 "$W/charts.py" "$W/good/svg" "$W/good/html" "$W/good/doc.json")" ""
expect_file_has "page: the Over time table" "$W/good/html" "<h2>Over time</h2>"
# the page's Over time rows have the text's units, row for row
expect_eq "page and text: the Over time units" \
	"$(sed -n 's|.*<td class="num">[^<]*</td><td>\([A-Za-z/]*\)</td>.*|\1|p' "$W/good/html" | tr '\n' ' ')" \
	"$(sed -n '/^Over time/,$p' "$W/good/out" | awk '/^  [A-Z]/ { for (i = 1; i <= NF; i++) if ($i ~ /\/s$/) print $i }' | tr '\n' ' ')"

# 3. columns by name: another order and two unknown columns read the same
report shuffled
expect_eq "shuffled: exit status" "$(cat "$W/shuffled/rc")" 0
check "shuffled: the same text" cmp -s "$W/good/out" "$W/shuffled/out"
check "shuffled: the same SVG" cmp -s "$W/good/svg" "$W/shuffled/svg"

# 4. malformed series: the run is rejected, with the line at fault; the
# other run (its own series good) is read
# at LINE-PATTERN KIND [N]: the line of the first match (plus N)
at() {
	echo $(($(grep -n "$1" "$W/$2/doc.json" | head -n 1 | cut -d: -f1) + ${3:-0}))
}
bad() {
	kind=$1
	want=$2
	report "$kind"
	expect_eq "$kind: exit status" "$(cat "$W/$kind/rc")" 0
	expect_eq "$kind: said on stderr" "$(head -n 1 "$W/$kind/err")" "doc.json:$want: skipped"
	expect_match "$kind: one run read" "$(head -n 1 "$W/$kind/out")" "^clyde-report: 1 run in 1 configuration; 1 malformed line skipped$"
}
bad no_t_end "$(at '"columns"' no_t_end): phase put_block series has no column \"t_end_s\""
bad narrow "$(at '"rows"' narrow 3): phase put_block series row 3 has 15 values, not one per column (16)"
bad gap "$(at '"rows"' gap 5): phase put_block series row 5 starts at 0.45 s, not where row 4 ended (0.4 s)"
bad unit "$(at '"series"' unit): phase put_block series has a work_unit that is not this phase's unit (KiB)"

# 5. without series, the outputs are what they were: a /7 document, the
# same as /8 with every series null, and the series document with
# --series=off (the page's summary names its inputs alike: doc.json)
report nokey
report nulls
for f in out svg html; do
	check "/7 and /8 with null series: the same $f" cmp -s "$W/nokey/$f" "$W/nulls/$f"
done
mkdir -p "$W/off" && cp "$W/good/doc.json" "$W/off/doc.json"
report off --series=off
for f in out svg html; do
	check "--series=off: the $f of the document without series" cmp -s "$W/nokey/$f" "$W/off/$f"
done
expect_eq "/7: no Over time" "$(grep -c -e 'Over time' -e 'series-chart' "$W/nokey/out" "$W/nokey/svg" "$W/nokey/html" | cut -d: -f2 | tr '\n' ' ')" "0 0 0 "
# clyde's own document of the golden runs: as /7 without series, and as /8
# with every series null, the same report
python3 - "$G/full.json" "$W" <<'PY'
import json, os, sys
d = json.load(open(sys.argv[1]))
for kind, schema in (("full7", "clyde-result/7"), ("full8", "clyde-result/8")):
    d["schema"] = schema
    for r in d["runs"]:
        for p in r["phases"].values():
            p.pop("series", None)
            if schema.endswith("8"):
                p["series"] = None
    os.makedirs(os.path.join(sys.argv[2], kind), exist_ok=True)
    json.dump(d, open(os.path.join(sys.argv[2], kind, "doc.json"), "w"), indent=1)
PY
report full7
report full8
expect_eq "full.json as /7: exit status" "$(cat "$W/full7/rc")" 0
expect_match "full.json as /7: its runs read" "$(head -n 1 "$W/full7/out")" "^clyde-report: [0-9]+ runs? in "
for f in out svg html; do
	check "full.json, /7 and /8 with null series: the same $f" cmp -s "$W/full7/$f" "$W/full8/$f"
done

# 6. --series=only: the series charts alone; a bad --series is a usage error
mkdir -p "$W/only" && cp "$W/good/doc.json" "$W/only/doc.json"
report only --series=only
expect_eq "--series=only: exit status" "$(cat "$W/only/rc")" 0
check "--series=only: the text of on" cmp -s "$W/good/out" "$W/only/out"
expect_eq "--series=only: SVG: 2 series charts, no bar" \
	"$(grep -c 'class="series-chart"' "$W/only/svg") $(grep -c 'class="bar"' "$W/only/svg")" "2 0"
expect_eq "--series=only: page: 2 series charts, no bar" \
	"$(grep -c 'class="series-chart"' "$W/only/html") $(grep -c 'class="bar"' "$W/only/html")" "2 0"
"$REPORT" --series=sometimes "$W/good/doc.json" >/dev/null 2>"$W/usage"
expect_eq "--series=sometimes: usage" "$?" 1
expect_file_has "--series=sometimes: said" "$W/usage" "--series sometimes: not on, off or only"
done_testing
