#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# The text and the page in the same units: for the golden inputs of
# tests/report/report_cli.sh, report_units.py works each configuration's
# byte-phase rates out of the CSV lines and JSON documents themselves (in
# KiB/s, with its own medians and means) and checks every Rate, Min..Max
# and Mean rate cell of the text against them within the printed rounding,
# and each phase's unit in the text against the page's column unit.
. "$TESTLIB"
G=${REPORT_GOLDEN:-$(dirname "$TESTLIB")/data/report_golden}
CHECK=$(dirname "$0")/report_units.py
need_built "$REPORT"
need_python3 "to work the rates out of the inputs"
scratch_dir
W=$SCRATCH
MIX="$G/bonnie-1.97.csv $G/bonnie-1.03.csv $G/clyde-x3.csv $G/clyde-x2.json $G/clyde-r1.json $G/bonnie-2.00a.csv"

# units NAME MODE [ARGS...]: the text and the page of clyde-report ARGS MIX, checked
units() {
	name=$1
	mode=$2
	shift 2
	# shellcheck disable=SC2086
	"$REPORT" --html "$W/$name.html" "$@" $MIX >"$W/$name.txt" 2>"$W/$name.err"
	expect_eq "$name: exit status" "$?" 0
	# shellcheck disable=SC2086
	python3 "$CHECK" "$W/$name.txt" "$W/$name.html" "$mode" $MIX >"$W/$name.check" 2>&1
	check "$name: every rate cell is the inputs' figure, in the page's unit" test "$?" -eq 0
	sed "s/^/# $name: /" "$W/$name.check"
}

units mix absolute
units mix-baseline baseline --baseline base

# 1.97 alone: every byte phase below 1 GiB/s, so MiB/s where the mix has GiB/s
"$REPORT" --html "$W/one.html" "$G/bonnie-1.97.csv" >"$W/one.txt" 2>"$W/one.err"
python3 "$CHECK" "$W/one.txt" "$W/one.html" absolute "$G/bonnie-1.97.csv" >"$W/one.check" 2>&1
check "1.97 alone: every rate cell is the inputs' figure, in the page's unit" test "$?" -eq 0
sed "s/^/# one: /" "$W/one.check"
done_testing
