#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# tests/lib.sh's skip() itself: a skip is exit 77; after a failed check it
# is a failure (exit 1) that says so; with CI=true a once-per-run test
# (named in CLYDE_ONCE_TESTS, as Makefile.am passes ONCE_TESTS) that skips
# fails, other tests still skip; skip_allowed_in_ci skips even then. The
# need_* helpers skip through skip(), saying what is missing.
. "$TESTLIB"
scratch_dir
W=$SCRATCH
mkdir "$W/tests"

# body NAME TEXT: a test script tests/NAME that sources tests/lib.sh, then TEXT
body() {
	printf '. "%s"\n%s\n' "$TESTLIB" "$2" >"$W/tests/$1"
}
# outcome NAME [VAR=VALUE...]: "STATUS: last line of output", run from $W
outcome() {
	name=$1
	shift
	out=$(cd "$W" && env -u CI -u CLYDE_ONCE_TESTS "$@" sh "tests/$name" 2>&1)
	echo "$?: $(printf '%s\n' "$out" | tail -n 1)"
}

body plain.sh 'skip "no frobnicator"'
expect_eq "a skip" "$(outcome plain.sh)" "77: SKIP: no frobnicator"
body failed.sh 'expect_eq one 1 2
skip "no frobnicator"'
expect_eq "a skip after a failed check fails" "$(outcome failed.sh)" \
	"1: FAIL: 1 failed check(s) above; then it cannot go on: no frobnicator"
body passed.sh 'expect_eq one 1 1
skip "no frobnicator"'
expect_eq "a skip after passed checks is a skip" "$(outcome passed.sh)" "77: SKIP: no frobnicator"
ONCE="tests/x.sh tests/plain.sh tests/y.sh"
expect_eq "CI=true: a once-per-run test's skip fails" \
	"$(outcome plain.sh CI=true CLYDE_ONCE_TESTS="$ONCE")" \
	"1: FAIL: CI=true: a once-per-run test (ONCE_TESTS) must run, not skip: no frobnicator"
expect_eq "CI=true: another test's skip is a skip" \
	"$(outcome passed.sh CI=true CLYDE_ONCE_TESTS="$ONCE")" "77: SKIP: no frobnicator"
expect_eq "no CI: a once-per-run test's skip is a skip" \
	"$(outcome plain.sh CLYDE_ONCE_TESTS="$ONCE")" "77: SKIP: no frobnicator"
expect_eq "CI=true without the list (a build with ONCE_TESTS= empty): a skip" \
	"$(outcome plain.sh CI=true)" "77: SKIP: no frobnicator"
body allowed.sh 'skip_allowed_in_ci "no frobnicator" "CI has none"'
ONCE="tests/allowed.sh"
expect_eq "skip_allowed_in_ci: a skip even in CI" \
	"$(outcome allowed.sh CI=true CLYDE_ONCE_TESTS="$ONCE")" "77: SKIP: no frobnicator (allowed in CI: CI has none)"

body needcmd.sh 'need_cmd clyde-no-such-command "the frobnicator package"'
expect_eq "need_cmd: a skip naming what is missing" "$(outcome needcmd.sh)" \
	"77: SKIP: clyde-no-such-command not found (the frobnicator package)"
ONCE="tests/needcmd.sh"
expect_eq "need_cmd: CI=true, a once-per-run test: it fails" \
	"$(outcome needcmd.sh CI=true CLYDE_ONCE_TESTS="$ONCE")" \
	"1: FAIL: CI=true: a once-per-run test (ONCE_TESTS) must run, not skip: clyde-no-such-command not found (the frobnicator package)"
body needfailed.sh 'expect_eq one 1 2
need_built /clyde-no-such-program'
expect_eq "need_built after a failed check fails" "$(outcome needfailed.sh)" \
	"1: FAIL: 1 failed check(s) above; then it cannot go on: /clyde-no-such-program not built"
body needmet.sh 'need_cmd sh
need_built "$(command -v sh)" "a shell"
echo went on'
expect_eq "need_cmd and need_built met: it goes on" "$(outcome needmet.sh)" "0: went on"
if [ "$(id -u)" = 0 ]; then
	body needtmpfs.sh 'need_tmpfs 1m clyde_no_such_option=1'
	expect_match "need_tmpfs: a skip with what mount said" "$(outcome needtmpfs.sh)" \
		'^77: SKIP: cannot mount a tmpfs: .+'
fi
done_testing
