#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# --engine=null runs the block and seek phases with no I/O: every request
# completes at once, the phases count the whole file, and the file is a
# sparse one of the size they wrote (no block of data; reading it gives
# zeros), paused before the seeks to look. --verify is refused with it.
. "$TESTLIB"
scratch_dir
W=$SCRATCH
D=$W/d
mkdir "$D"
MIB=8
RATE='^[0-9]+(\.[0-9])?$'

CLYDE_TEST_PAUSE=before-seeks CLYDE_TEST_RESUME=$W/go "$CLYDE" --engine=null --iodepth=4 \
	-d "$D" -s $MIB -n 0 -f --exact -z 7 >"$W/out" 2>"$W/err" &
pid=$!
if wait_pause "$W/err"; then
	f=$(ls "$D"/clyde.*/* 2>/dev/null | head -n 1)
	if [ -f "$f" ]; then
		expect_eq "the file has the size the writes would have left" \
			"$(stat -c %s "$f")" $((MIB * 1048576))
		expect_eq "and no block of data" "$(stat -c %b "$f")" 0
		check "reading it gives zeros" cmp -s "$f" /dev/zero -n $((MIB * 1048576))
	else
		fail "no test file in the private directory: $(ls -R "$D")"
	fi
	touch "$W/go"
else
	fail "never paused before the seeks: $(cat "$W/err")"
	kill $pid
fi
wait $pid
expect_eq "--engine=null: exit 0" "$?" 0
line=$(tail -n 1 "$W/out")
for f in 11 13 17 19; do
	expect_match "CSV field $f is a rate" "$(csv_field "$line" $f)" "$RATE"
done
expect_eq "per-char phases left out (-f)" "$(csv_field "$line" 9)$(csv_field "$line" 15)" ""
expect_file_has "the context line names the engine" "$W/err" "engine null (QD 4; no I/O)"
# no device was reached: no note that a cache below clyde answered
expect_eq "no note of a cache below clyde" "$(grep -c 'A cache below clyde' "$W/err")" 0
expect_empty_dir "the private directory went" "$D"

"$CLYDE" --engine=null --verify -d "$D" -s $MIB -n 0 -f >"$W/out" 2>"$W/err"
expect_eq "--verify with --engine=null: exit 1 (usage)" "$?" 1
expect_file_has "... saying why" "$W/err" \
	"clyde: --verify checks the data the phases wrote: --engine=null moves none"
done_testing
