# SPDX-License-Identifier: BSD-2-Clause
# Sourced after tests/lib.sh by the tests that hold clyde's time series to
# a truth the kernel (or faultfs) enforces: gives truth_checks, which runs
# tests/env/series_truth.py and counts each check it makes. Uses W (a
# scratch directory) for its output.
TRUTH=$(dirname "$TESTLIB")/env/series_truth.py

# truth_checks ARGS...: python3 series_truth.py ARGS; its "CHECK ok TEXT"
# lines are passed checks (shown), "CHECK FAIL TEXT" failed ones, other
# lines are shown; the script failing, or making no check, is a failure
truth_checks() {
	python3 "$TRUTH" "$@" >"$W/truth.out" 2>&1 || fail "series_truth.py $*: exit status $?"
	relay_checks "$W/truth.out" "series_truth.py $*"
}
