#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# clyde-report on position sweeps: zcav's text written here by hand with
# known figures (two sweeps of a file, one of them the means of three
# passes), near misses of zcav's lines that must not be taken for them,
# real zcav output (bonnie++'s, on a file here), clyde-zcav/1 JSON with
# a bad block; checked in the text's table (blocks, ++++, min, median,
# max), the SVG's lines (one per sweep, a point per block with a rate)
# and the page; runs and sweeps together, in the text, the page and one
# SVG; nothing to report, exit 3.
. "$TESTLIB"
need_built "$REPORT"
scratch_dir
W=$SCRATCH

cat >"$W/disk.zcav" <<'Z'
#block offset (GiB), MiB/s, time
0.00 150.00 3.413
0.50 140.00 3.657
#1.00 ++++ 0.800
1.50 100.00 5.120
# Read 2048 megs in 13 seconds, 157 megabytes per second.
Z
cat >"$W/means.zcav" <<'Z'
# Read 1024 megs in 8 seconds, 120 megabytes per second.
# Read 1024 megs in 8 seconds, 121 megabytes per second.
# Read 1024 megs in 8 seconds, 119 megabytes per second.
#loops: 3
#block offset (GiB), MiB/s, time
0.00 130.00 3.938
0.50 110.00 4.654
Z
# near misses: two decimals where zcav has three, a missing field, a word
cat >"$W/near.txt" <<'Z'
0.00 150.00 3.41
0.00 150.00
#0.00 +++ 0.800
0.00 fast 3.413
Z
"$REPORT" "$W/disk.zcav" "$W/means.zcav" "$W/near.txt" --svg "$W/r.svg" --html "$W/r.html" \
	>"$W/r.txt" 2>"$W/r.err"
expect_eq "hand-written zcav text: exit status" "$?" 0
expect_eq "hand-written zcav text: nothing on stderr" "$(cat "$W/r.err")" ""
# row N: the table's row of sweep N, its cells one space apart
row() { grep "^\[$1\] " "$W/r.txt" | sed 's/  */ /g'; }
expect_eq "sweep 1: 4 blocks, 1 without a rate, min 100, median 140, max 150" "$(row 1)" \
	"[1] $W/disk.zcav 4 1 100.0 140.0 150.0"
expect_eq "sweep 2: the means of 3 passes, 2 blocks" "$(row 2)" \
	"[2] $W/means.zcav, mean of 3 passes 2 0 110.0 120.0 130.0"
expect_eq "the near misses are no sweep" "$(grep -c '^\[' "$W/r.txt")" 2
expect_eq "the SVG: a line per sweep" "$(grep -c '<path class="sweep"' "$W/r.svg")" 2
# the first line: M, then L to each block with a rate after it (the ++++ one breaks it: M again)
expect_eq "the SVG: the first sweep's points, broken at ++++" \
	"$(grep -m 1 '<path class="sweep"' "$W/r.svg" | sed 's/.* d="\([^"]*\)".*/\1/' | tr -d '0-9. ')" "MLM"
expect_file_has "the SVG: blocks under a second counted" "$W/r.svg" "1 block under a second"
expect_file_has "the page: the section" "$W/r.html" "<h2>Rate by position</h2>"
expect_file_has "the page: the mean's row" "$W/r.html" "mean of 3 passes"

# bonnie++'s zcav itself, on a file here, and clyde-zcav/1 JSON with one bad block
ZCAV=$(command -v zcav 2>/dev/null || { [ -x /usr/sbin/zcav ] && echo /usr/sbin/zcav; })
if [ -n "$ZCAV" ]; then
	head -c $((8 * 1048576)) /dev/urandom >"$W/file"
	"$ZCAV" -b 1 "$W/file" >"$W/real.zcav" 2>/dev/null
	"$REPORT" "$W/real.zcav" >"$W/real.txt" 2>"$W/real.err"
	expect_eq "real zcav output: exit status" "$?" 0
	expect_eq "real zcav output: one sweep of 8 blocks" \
		"$(grep '^\[1\] ' "$W/real.txt" | awk '{ print $3 }')" 8
else
	echo "note: bonnie++'s zcav not found: its own output not read"
fi
cat >"$W/z.json" <<'J'
{"schema": "clyde-zcav/1", "targets": [{"path": "/dev/sdz", "passes": [
 {"pass": 1, "blocks": [{"offset": 0, "bytes": 1048576, "seconds": 0.01, "mib_s": 100},
  {"offset": 1048576, "bytes": 1048576, "seconds": 0.005, "mib_s": 200}]},
 {"pass": 2, "blocks": [{"offset": 0, "bytes": 1048576, "mib_s": 100}]}],
 "mean": [{"offset": 0, "seconds": 0.01, "mib_s": 100}, {"offset": 1048576, "seconds": 0.01, "mib_s": 100}]}]}
J
"$REPORT" "$W/z.json" >"$W/j.txt" 2>"$W/j.err"
expect_eq "clyde-zcav JSON: exit status" "$?" 0
expect_file_has "clyde-zcav JSON: the bad block said" "$W/j.err" "without offset, mib_s or seconds: skipped"
expect_eq "clyde-zcav JSON: pass 1 and the means, pass 2 skipped" \
	"$(grep '^\[' "$W/j.txt" | sed 's/  */ /g' | tr '\n' '|')" \
	"[1] /dev/sdz, pass 1 2 0 100.0 150.0 200.0|[2] /dev/sdz, mean of 2 passes 2 0 100.0 100.0 100.0|"

# runs and sweeps together: both in the text and the page
G=${REPORT_GOLDEN:-$(dirname "$TESTLIB")/data/report_golden}
"$REPORT" "$G/bonnie-2.00a.csv" "$W/disk.zcav" --html "$W/both.html" --svg "$W/both.svg" \
	>"$W/both.txt" 2>"$W/both.err"
expect_eq "runs and sweeps: exit status" "$?" 0
expect_file_has "runs and sweeps: the runs" "$W/both.txt" "clyde-report: "
expect_file_has "runs and sweeps: the sweeps" "$W/both.txt" "Position sweeps (zcav)"
expect_file_has "runs and sweeps: the page's section" "$W/both.html" "<h2>Rate by position</h2>"
expect_file_has "runs and sweeps: the SVG's bar charts" "$W/both.svg" "charts per phase and measure"
expect_eq "runs and sweeps: the SVG's sweep" "$(grep -c '<path class="sweep"' "$W/both.svg")" 1
expect_eq "runs and sweeps: one SVG document" "$(grep -c '<?xml' "$W/both.svg")" 1
if command -v xmllint >/dev/null 2>&1; then
	check "runs and sweeps: the SVG is well-formed XML" xmllint --noout "$W/both.svg"
fi
# getc_putc's records and sweeps, no runs: both in the text and the page
printf 'vm,1100,2200,155000,150000,160000,190000,++++++,700000\n' >"$W/g.csv"
"$REPORT" "$W/g.csv" "$W/disk.zcav" --html "$W/gz.html" >"$W/gz.txt" 2>"$W/gz.err"
expect_eq "getc_putc records and sweeps: exit status" "$?" 0
expect_file_has "getc_putc records and sweeps: the records" "$W/gz.txt" "one byte at a time, KiB/s"
expect_file_has "getc_putc records and sweeps: the sweeps" "$W/gz.txt" "Position sweeps (zcav)"
expect_file_has "getc_putc records and sweeps: the page's sweeps" "$W/gz.html" \
	"<h2>Rate by position</h2>"
expect_file_has "getc_putc records and sweeps: the page's records" "$W/gz.html" \
	"<h2>One byte at a time (getc_putc)</h2>"
# only near misses: nothing to report
"$REPORT" "$W/near.txt" >"$W/n.txt" 2>"$W/n.err"
expect_eq "near misses alone: nothing to report (3)" "$?" 3
done_testing
