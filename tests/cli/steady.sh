#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# --steady on a tmpfs: the block read settles with --steady=rate:20:1:5
# and its JSON agrees with its series' rows (tests/cli/steady_check.py);
# a PCT no real device meets never settles: the table marks it with ~, the
# CSV stays numbers, the JSON says so; --plan says what --steady does; bad
# input is refused with exit status 1 and a reason. The throttled-device
# cases are tests/env's.
. "$TESTLIB"
need_root
need_linux "a tmpfs to mount"
need_python3 "to read the JSON"
CHECKER=$(dirname "$TESTLIB")/cli/steady_check.py
need_tmpfs 512m
MNT=$SCRATCH
scratch_dir
W=$SCRATCH

"$CLYDE" -d "$MNT" -s 32 -r 16 -n 0 -f --steady=rate:20:1:5 --json "$W/s.json" \
	>"$W/s.out" 2>"$W/s.err"
expect_eq "settles: exit status" "$?" 0
out=$(python3 "$CHECKER" "$W/s.json" get_block settled 2>&1)
expect_eq "block read settled, its JSON consistent ($out)" "$?" 0
expect_file_has "the note on stderr" "$W/s.err" "clyde: note: block read: settled at"
# the CSV line: numbers where the rates are, whatever settled
csv=$(tail -n 1 "$W/s.out")
expect_match "the CSV's block read and seeks are numbers" "$(echo "$csv" | cut -d, -f18-21)" \
	'^[0-9]+,[0-9]+,[0-9]+,[0-9]+$'

# never: 0.001% is more than any real interval holds still
"$CLYDE" -d "$MNT" -s 32 -r 16 -n 0 -f --steady=rate:0.001:0.5:2 --json "$W/n.json" \
	>"$W/n.out" 2>"$W/n.err"
expect_eq "never: exit status" "$?" 0
out=$(python3 "$CHECKER" "$W/n.json" get_block never 2>&1)
expect_eq "block read never settled ($out)" "$?" 0
expect_file_has "never: the note" "$W/n.err" "clyde: note: block read: never settled"
row=$(grep -A 3 '^Name:Size' "$W/n.out" | sed -n 2p)
expect_match "the table marks the block read with ~" "$row" '[0-9.]+[kmg]?~ *[0-9]+ *[0-9.]+[kmg]?~'
csv=$(tail -n 1 "$W/n.out")
case $csv in
*'~'*) fail "the CSV line carries a ~: $csv" ;;
*) ok ;;
esac
expect_match "never: the CSV's block read rate is a number" "$(echo "$csv" | cut -d, -f18)" '^[0-9]+$'

# --plan says what it does, and its most time
"$CLYDE" -d "$MNT" -s 32 -r 16 -n 0 -f --steady=rate_slope:5:1:7 --plan >"$W/p.out" 2>&1
expect_eq "--plan: exit status" "$?" 0
expect_file_has "--plan: the rule" "$W/p.out" \
	"steady (--steady=rate_slope:5:1:7): put_block rewrite get_block seeks each do their planned work"
expect_file_has "--plan: at most MAX" "$W/p.out" "at most 7 s each"
expect_file_has "--plan: the file's most" "$W/p.out" "the block write may grow each file to"

# refusals: exit 1 and what is wrong
refuse() {
	want=$1
	shift
	"$CLYDE" -d "$MNT" -s 8 -n 0 "$@" >/dev/null 2>"$W/bad.err"
	expect_eq "$* refused" "$?" 1
	expect_file_has "$*: the reason" "$W/bad.err" "$want"
}
refuse "the metric 'bw' is not rate, p99, rate_slope or p99_slope" --steady=bw:20:1
refuse "PCT and SECONDS are missing" --steady=rate
refuse "PCT is not a percentage from 0.001 to 100" --steady=rate:101:1
refuse "SECONDS is not a number of seconds from 0.2 to 3600" --steady=rate:20:0.1
refuse "MAX is not a number of seconds from SECONDS (2) to 86400" --steady=rate:20:2:1
refuse "too many fields" --steady=rate:20:1:5:6
refuse "--steady and --stonewall both say when a phase stops" --steady=rate:20:1 --stonewall=3
refuse "--steady decides on the time series: not with --interval=off" --steady=rate:20:1 \
	--interval=off
refuse "--steady's SECONDS (0.5) must hold at least two --interval=500 intervals" \
	--steady=rate:20:0.5 --interval=500
done_testing
