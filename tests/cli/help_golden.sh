#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Issue 21's safety net: `clyde --help` and `clyde-report --help`, byte for
# byte, against what the last commit before the source move (c5a6645)
# printed (tests/data/format_golden/README: do not regenerate them to pass).
# The one options table that the move builds --help from must print the
# same text; so must clyde-zcav's and clyde-getc-putc's, whose help was
# hand-written before issue 42 made it from their rows.
. "$TESTLIB"
G=${FORMAT_GOLDEN:-$(dirname "$TESTLIB")/data/format_golden}
need_built "$REPORT"
scratch_dir
W=$SCRATCH

"$CLYDE" --help >"$W/clyde" 2>"$W/clyde.err"
expect_eq "clyde --help: exit status" "$?" 0
expect_eq "clyde --help: nothing on stderr" "$(cat "$W/clyde.err")" ""
expect_same_bytes "$G/clyde-help.txt" "$W/clyde"
"$REPORT" --help >"$W/report" 2>"$W/report.err"
expect_eq "clyde-report --help: exit status" "$?" 0
expect_eq "clyde-report --help: nothing on stderr" "$(cat "$W/report.err")" ""
expect_same_bytes "$G/clyde-report-help.txt" "$W/report"
# clyde-zcav's and clyde-getc-putc's, as they printed before their options became rows
for p in clyde-zcav clyde-getc-putc; do
	"$(dirname "$CLYDE")/$p" --help >"$W/$p" 2>"$W/$p.err"
	expect_eq "$p --help: exit status" "$?" 0
	expect_eq "$p --help: nothing on stderr" "$(cat "$W/$p.err")" ""
	expect_same_bytes "$G/$p-help.txt" "$W/$p"
done
done_testing
