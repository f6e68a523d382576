#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# --steady on a tmpfs: the block read settles with --steady=rate:50:0.5:10
# and its JSON agrees with its series' rows (tests/cli/steady_check.py);
# a PCT no real device meets never settles: the table marks it with ~, the
# CSV stays numbers, the JSON says so, --live says it is settling; the
# read's start-overs drop the file's pages under --cache=drop, not under
# keep; -c 2 settles once on the workers' added intervals; --plan says what
# --steady does; bad input is refused with exit status 1 and a reason. The
# throttled-device cases are tests/env's.
. "$TESTLIB"
need_root
need_linux "a tmpfs to mount"
need_python3 "to read the JSON"
CHECKER=$(dirname "$TESTLIB")/cli/steady_check.py
need_tmpfs 512m
MNT=$SCRATCH
scratch_dir
W=$SCRATCH

# PCT 50 over half a second: a tmpfs's rate is the CPU's, and on a
# loaded machine of two CPUs its 0.1 s intervals differ by 40% (seen)
"$CLYDE" -d "$MNT" -s 32 -r 16 -n 0 -f --steady=rate:50:0.5:10 --json "$W/s.json" \
	>"$W/s.out" 2>"$W/s.err"
expect_eq "settles: exit status" "$?" 0
out=$(python3 "$CHECKER" "$W/s.json" get_block settled 2>&1)
expect_eq "block read settled, its JSON consistent ($out)" "$?" 0
expect_file_has "the note on stderr" "$W/s.err" "clyde: note: block read: settled at"
# the CSV line: numbers where the rates are, whatever settled
csv=$(tail -n 1 "$W/s.out")
expect_match "the CSV's block read and seeks are numbers" "$(echo "$csv" | cut -d, -f18-21)" \
	'^[0-9]+,[0-9]+,[0-9]+,[0-9]+$'

# the block read's 32 MiB took well under SECONDS: it started over, and
# under --cache=drop each new pass dropped the file's pages first
stv() {
	python3 -c 'import json, sys
st = json.load(open(sys.argv[1]))["runs"][0]["phases"][sys.argv[2]]["steady"]
print(" ".join(str(st[k]) for k in sys.argv[3:]))' "$@"
}
set -- $(stv "$W/s.json" get_block start_overs start_over_drops start_over_drop)
expect_match "the block read started over (start_overs $1)" "$1" '^[1-9][0-9]*$'
expect_eq "--cache=drop: every start-over dropped the file" "$2" "$1"
expect_eq "--cache=drop: how" "$3 $4 $5 $6" "fsync + fadvise DONTNEED"
set -- $(stv "$W/s.json" seeks start_overs start_over_drops start_over_drop)
expect_eq "the seeks draw, never start over" "$*" "0 0 None"

# --cache=keep leaves the page cache alone at a start-over too; -c 2: the
# two workers' intervals are added and the phase settles once, both
# workers' planned work (the read's: the files as the write left them) counted
"$CLYDE" -d "$MNT" -s 16 -r 8 -n 0 -f -c 2 --cache=keep --steady=rate:50:0.5:10 \
	--json "$W/c.json" >"$W/c.out" 2>"$W/c.err"
expect_eq "-c 2 --cache=keep: exit status" "$?" 0
out=$(python3 "$CHECKER" "$W/c.json" get_block settled 2>&1)
expect_eq "-c 2: block read settled, its JSON consistent ($out)" "$?" 0
set -- $(stv "$W/c.json" get_block start_overs start_over_drops start_over_drop planned_amount)
written=$(python3 -c 'import json, sys
print(json.load(open(sys.argv[1]))["runs"][0]["phases"]["put_block"]["amount"])' "$W/c.json")
expect_match "-c 2: both workers started over (start_overs $1)" "$1" '^([2-9]|[1-9][0-9]+)$'
expect_eq "--cache=keep: no drop at a start-over" "$2 $3" "0 None"
expect_eq "-c 2: the read's planned_amount is both workers' files as written" "$4" "$written"
expect_eq "-c 2: one note for the phase" \
	"$(grep -c 'clyde: note: block read: settled at' "$W/c.err")" 1

# never: 0.001% is more than any real interval holds still
"$CLYDE" -d "$MNT" -s 32 -r 16 -n 0 -f --steady=rate:0.001:0.5:2 --json "$W/n.json" --live \
	>"$W/n.out" 2>"$W/n.err"
expect_eq "never: exit status" "$?" 0
out=$(python3 "$CHECKER" "$W/n.json" get_block never 2>&1)
expect_eq "block read never settled ($out)" "$?" 0
expect_file_has "never: the note" "$W/n.err" "clyde: note: block read: never settled"
# past its planned reads --live says what the phase waits for, not 100%
expect_match "never: --live says the block read is settling, and how far" \
	"$(grep '^clyde: live: block read settling' "$W/n.err" | tail -n 1)" \
	'^clyde: live: block read settling \(last check: rate [0-9.]+%, wants under 0\.001%\) +[0-9.]+ s  now '
expect_match "never: --live's last block read line is 100%" \
	"$(grep '^clyde: live: block read ' "$W/n.err" | tail -n 1)" '^clyde: live: block read +100\.0% .* end$'
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
