#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Issue 21's safety net: clyde-report's SVG and HTML for the fixed inputs
# of tests/data/report_golden, byte for byte, against what the last commit
# before the source move (c5a6645) wrote (tests/data/format_golden/README: do
# not regenerate them to pass). Its text for the same inputs is already
# compared whole in tests/report/report_cli.sh (mix.txt, mix-baseline.txt,
# profile.txt, tree.txt, tree-baseline.txt).
. "$TESTLIB"
IN=${REPORT_GOLDEN:-$(dirname "$TESTLIB")/data/report_golden}
G=${FORMAT_GOLDEN:-$(dirname "$TESTLIB")/data/format_golden}
need_built "$REPORT"
scratch_dir
W=$SCRATCH

# pages NAME ARGS...: the SVG and the page of clyde-report ARGS, run where
# the inputs are, so that the page names them as the goldens do
pages() {
	name=$1
	shift
	(cd "$IN" && "$REPORT" --svg "$W/$name.svg" --html "$W/$name.html" "$@") \
		>"$W/$name.txt" 2>"$W/$name.err"
	expect_eq "$name: exit status" "$?" 0
	expect_eq "$name: nothing on stderr" "$(cat "$W/$name.err")" ""
	expect_same_bytes "$G/report-$name.svg" "$W/$name.svg"
	expect_same_bytes "$G/report-$name.html" "$W/$name.html"
}

MIX="bonnie-1.97.csv bonnie-1.03.csv clyde-x3.csv clyde-x2.json clyde-r1.json bonnie-2.00a.csv"
# shellcheck disable=SC2086
pages mix $MIX
# shellcheck disable=SC2086
pages mix-baseline --baseline base $MIX
pages profile clyde-p3.json
pages tree-baseline --baseline "ext4t --tree=ports:0.1" clyde-t4.json
done_testing
