#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# tests/summary, .ci/test's last word: it counts the automake results
# (.trs) in every folder under each build tree's tests/, so a failure in a
# subfolder (tests/report/, tests/env/, build/bsd/tests/) fails CI. Fake
# build trees here: the counts, and the exit status (1 on a failure
# anywhere, 1 when nothing ran, 0 otherwise).
. "$TESTLIB"
SUMMARY=$(dirname "$TESTLIB")/summary
need_built "$SUMMARY"
scratch_dir
W=$SCRATCH

# trs TREE PATH RESULT: an automake result file TREE/tests/PATH.trs (and its
# .log) as the parallel test harness writes them
trs() {
	mkdir -p "$(dirname "$1/tests/$2")"
	printf ':test-result: %s\n:global-test-result: %s\n:recheck: %s\n:copy-in-global-log: %s\n' \
		"$3" "$3" "$([ "$3" = PASS ] && echo no || echo yes)" "$([ "$3" = PASS ] && echo no || echo yes)" \
		>"$1/tests/$2.trs"
	echo "$3: $2" >"$1/tests/$2.log"
}
# summary TREE...: "STATUS: the line it printed"
summary() {
	out=$(sh "$SUMMARY" "$@" 2>&1)
	echo "$?: $out"
}

# one tree, a failure in a subfolder
trs "$W/a" unit/x PASS
trs "$W/a" cli/w PASS
trs "$W/a" report/y FAIL
trs "$W/a" env/z SKIP
expect_eq "a FAIL in tests/report/" "$(summary "$W/a")" "1: 2 passed, 1 failed, 1 skipped"

# the same without the failure
trs "$W/b" unit/x PASS
trs "$W/b" cli/w PASS
trs "$W/b" report/y PASS
trs "$W/b" env/z SKIP
expect_eq "all passed or skipped, in every subfolder" "$(summary "$W/b")" "0: 3 passed, 0 failed, 1 skipped"

# ERROR and XPASS are failures, XFAIL a pass, however deep the folder
trs "$W/c" unit/x PASS
trs "$W/c" env/deep/er ERROR
expect_eq "an ERROR two folders down" "$(summary "$W/c")" "1: 1 passed, 1 failed, 0 skipped"
trs "$W/d" unit/x PASS
trs "$W/d" report/xp XPASS
trs "$W/d" report/xf XFAIL
expect_eq "XPASS fails, XFAIL passes" "$(summary "$W/d")" "1: 2 passed, 1 failed, 0 skipped"

# several trees, as .ci/test passes them: the counts add up, and a failure
# in any tree's subfolder (build/bsd/tests/, build/distcheck/tests/) fails
trs "$W/bsd" bsd-freebsd PASS
trs "$W/bsd" bsd-netbsd SKIP
expect_eq "two trees, all well" "$(summary "$W/b" "$W/bsd")" "0: 4 passed, 0 failed, 2 skipped"
trs "$W/dist" distcheck FAIL
expect_eq "two trees, the second fails" "$(summary "$W/b" "$W/bsd" "$W/dist")" \
	"1: 4 passed, 1 failed, 2 skipped"
expect_eq "a tree that is not there counts nothing" "$(summary "$W/b" "$W/nowhere")" \
	"0: 3 passed, 0 failed, 1 skipped"

# nothing ran: a failure, not a pass
mkdir -p "$W/empty/tests/unit"
expect_eq "no results at all" "$(summary "$W/empty")" "1: 0 passed, 0 failed, 0 skipped"
trs "$W/skipped" env/z SKIP
expect_eq "only skips" "$(summary "$W/skipped")" "1: 0 passed, 0 failed, 1 skipped"
expect_eq "no tree" "$(summary)" "1: 0 passed, 0 failed, 0 skipped"
done_testing
