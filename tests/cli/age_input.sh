#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# --age on a small tmpfs: bad input (FULL above 95, 0, not a number; a
# profile file's bad bucket, named by file:line; --age-size too small for
# FULL, naming the bytes; a FULL the phases' files leave no room for) is
# refused with status 1 before anything is written; --plan's bytes are
# the bytes the run's JSON says aging wrote (less the correction rounds',
# which follow statvfs); the phases see FULL within 2 points; two agings
# with one seed log the same operations, another seed others; SIGINT
# during aging exits 5 and ENOSPC (another writer takes the space while
# aging waits at its start) exits 7, both with everything removed;
# --age-time stops the churn early and the JSON and stderr say so.
. "$TESTLIB"
need_root
need_linux "tmpfs"
need_tmpfs 256m
T=$SCRATCH
D=$T/d
mkdir "$D"
W=$T.w
mkdir "$W"
T_DIRS="$T_DIRS $W"

# refused ARGS...: status 1, a message, nothing in -d
refused() {
	"$CLYDE" -d "$D" -s 16 -r 8 -n 0 -f "$@" >"$W/out" 2>"$W/err"
	rc=$?
	expect_eq "clyde $* exits 1" "$rc" 1
	expect_eq "clyde $*: -d unchanged" "$(ls -A "$D")" ""
}

refused --age=96
expect_file_has "FULL 96 says the limit" "$W/err" "above 95%"
refused --age=0
refused --age=abc:2
refused --age=50:x
refused --age=50:2:nosuch
expect_file_has "an unknown profile is named" "$W/err" "unknown profile 'nosuch'"
printf '# a comment\nsize 1k 4k 10\nsize 8k 2k 5\n' >"$W/p1"
refused "--age=50:1:$W/p1"
expect_file_has "LOW above HIGH names file:line" "$W/err" "$W/p1:3: LOW is above HIGH"
printf 'size 1k zz 10\n' >"$W/p2"
refused "--age=50:1:$W/p2"
expect_file_has "a bad number names file:line" "$W/err" "$W/p2:1:"
printf 'size 1k 4k 0\nsize 8k 16k 0\n' >"$W/p3"
refused "--age=50:1:$W/p3"
expect_file_has "zero total weight is refused" "$W/err" "no size bucket with a weight"
printf 'size 1k 4k 1\nblock 4k 1\n' >"$W/p4"
refused "--age=50:1:$W/p4"
expect_file_has "an unknown keyword names file:line" "$W/err" "$W/p4:2: unknown keyword"
refused --age=50 --age-size=10m
# 50% of 256 MiB less the 16 MiB file: 112 MiB
expect_file_has "--age-size names the bytes" "$W/err" "would write 117440512 bytes"
refused --age-size=10m
expect_file_has "--age-size alone wants --age" "$W/err" "want --age"
"$CLYDE" -d "$D" -s 200 -r 8 -n 0 -f --age=50 >"$W/out" 2>"$W/err"
expect_eq "a FULL the phases' file already passes: exit 1" "$?" 1
expect_file_has "and says so" "$W/err" "at or above 50%"

# the plan keeps its word
"$CLYDE" -d "$D" -s 16 -r 8 -n 0 -f -z 11 --age=60:1 --plan >"$W/plan" 2>"$W/err"
expect_eq "--plan with --age exits 0" "$?" 0
plan_total=$(sed -n 's/.*; total \([0-9]*\) bytes.*/\1/p' "$W/plan")
expect_match "--plan says the total" "$plan_total" '^[0-9]+$'
"$CLYDE" -d "$D" -s 16 -r 8 -n 0 -f -z 11 --age=60:1 --age-log="$W/log1" --json "$W/j1" \
	>"$W/out" 2>"$W/err"
expect_eq "an aged run exits 0" "$?" 0
num() { grep -o "\"$1\": [0-9.]*" "$2" | head -n 1 | sed 's/.*: //'; }
written=$(num written_bytes "$W/j1")
corr=$(num correction_bytes "$W/j1")
expect_eq "--plan's bytes are the run's (written less correction)" \
	"$((written - corr))" "$plan_total"
phases=$(num phases_pct "$W/j1")
expect_match "fill.phases_pct is 60 +- 2 ($phases)" "$phases" '^(58|59|60|61)\.'
expect_file_has "the stderr summary" "$W/err" "Aged: 60% of 256.0 MiB"
# a plan without -z names the seed its bytes are for, and the run with it writes them
"$CLYDE" -d "$D" -s 16 -r 8 -n 0 -f --age=60:1 --plan >"$W/plan2" 2>"$W/err"
zseed=$(sed -n 's/.*the run draws its own seed: give -z \([0-9]*\) for these operations.*/\1/p' \
	"$W/plan2")
expect_match "--plan without -z names the seed to give" "$zseed" '^[0-9]+$'
"$CLYDE" -d "$D" -s 16 -r 8 -n 0 -f -z "$zseed" --age=60:1 --json "$W/j2" >"$W/out" 2>"$W/err"
expect_eq "and that -z writes its bytes" \
	"$(($(num written_bytes "$W/j2") - $(num correction_bytes "$W/j2")))" \
	"$(sed -n 's/.*; total \([0-9]*\) bytes.*/\1/p' "$W/plan2")"
expect_eq "aged run: -d empty after" "$(ls -A "$D")" ""
"$CLYDE" -d "$D" -s 16 -r 8 -n 0 -f -z 11 --age=60:1 --age-log="$W/log2" >"$W/out" 2>"$W/err"
check "one seed, the same operations" cmp -s "$W/log1" "$W/log2"
"$CLYDE" -d "$D" -s 16 -r 8 -n 0 -f -z 12 --age=60:1 --age-log="$W/log3" >"$W/out" 2>"$W/err"
check "another seed, other operations" sh -c "! cmp -s '$W/log1' '$W/log3'"

# --age-time: 50 capacities (12.5 GiB) cannot be written in 0.3 s (tmpfs
# writes about 3 GiB/s here): the churn stops at the box and says so
"$CLYDE" -d "$D" -s 16 -r 8 -n 0 -f -z 11 --age=60:50 --age-time=0.3 --json "$W/jt" \
	>"$W/out" 2>"$W/err"
expect_eq "a time-boxed aging exits 0" "$?" 0
check "the JSON says the box was hit" grep -q '"time_box_hit": true' "$W/jt"
done_churn=$(num churn_done "$W/jt")
check "churn_done ($done_churn) below the 50 asked" \
	awk -v c="$done_churn" 'BEGIN { exit !(c < 50) }'
expect_file_has "stderr says the box cut it" "$W/err" "cut by --age-time"
expect_eq "time box: -d empty" "$(ls -A "$D")" ""

# SIGINT while aging waits after its fill: status 5, nothing left
CLYDE_TEST_PAUSE=age-fresh "$CLYDE" -d "$D" -s 16 -r 8 -n 0 -f --age=60:1 \
	>"$W/out" 2>"$W/err" &
pid=$!
if wait_pause "$W/err"; then
	check "the fill stands at the pause" test -n "$(ls -A "$D")"
	kill -INT $pid
fi
wait $pid
expect_eq "SIGINT during aging exits 5" "$?" 5
expect_eq "SIGINT: -d empty" "$(ls -A "$D")" ""

# ENOSPC: another writer takes the space while aging waits at its start
CLYDE_TEST_PAUSE=age-start CLYDE_TEST_RESUME=$W/go "$CLYDE" -d "$D" -s 16 -r 8 -n 0 -f \
	--age=60:1 >"$W/out" 2>"$W/err" &
pid=$!
if wait_pause "$W/err"; then
	dd if=/dev/zero of="$T/hog" bs=1M 2>/dev/null
	touch "$W/go"
fi
wait $pid
expect_eq "ENOSPC during aging exits 7" "$?" 7
expect_file_has "ENOSPC is said" "$W/err" "No space left"
expect_eq "ENOSPC: -d empty" "$(ls -A "$D")" ""
rm -f "$T/hog"
done_testing
