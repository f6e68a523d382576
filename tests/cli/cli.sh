#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# The command line as a user meets it: help, version, usage errors.
. "$TESTLIB"

MAN=$(dirname "$TESTLIB")/../man/clyde.1

out=$("$CLYDE" --help); rc=$?
expect_eq "--help exit status" "$rc" 0
for opt in -d -s -n -m -r -x -u -g -q -f -b -D --direct -c -z -Z -p -y -l \
	--cache --perchar --exact --engine --iodepth --seek-updates --json --help --version \
	--cleanup --cleanup-user --cleanup-any-ns; do
	expect_match "--help documents $opt" "$out" "(^|[ [,])$opt([ =,]|\$|\[)"
	# roff escapes the dashes: \- or \-\-
	esc=$(printf '%s' "$opt" | sed 's/-/\\\\-/g')
	if grep -q -- "$esc" "$MAN"; then ok; else fail "man page lacks $opt"; fi
done

out=$("$CLYDE" --version); rc=$?
expect_eq "--version exit status" "$rc" 0
expect_match "--version names clyde" "$out" '^clyde [0-9]+\.[0-9]+\.[0-9]+$'
expect_match "--version lists the engines" "$out" '^engines: .*psync'

# usage errors: exit 1 and a message naming the option
usage() {
	want=$1
	shift
	err=$("$CLYDE" "$@" 2>&1 >/dev/null); rc=$?
	expect_eq "clyde $* exits 1" "$rc" 1
	expect_match "clyde $* says why" "$err" "$want"
}
usage "unknown option '-k'" -k
usage "option '-s' needs an argument" -s
usage "chunk size 1000 must be a power of two from 256 to 1048576" -s 1G:1000
usage "seekers 0 is out of range \(1 to 256\)" -s 1G:8k:10:0
usage "seeks 0 is out of range \(1 to 1000000000\)" -s 1G::0
usage "number of files \(x1024\) 5000 is out of range \(0 to 4096\)" -n 5000
usage "write -f's size attached: -f64k" -f 64k
usage "may not contain a comma" -m a,b
usage "'x' must be s \(semaphore\) or p \(prompt\)" -y x
usage "'sometimes' must be drop, keep, uncached or system" --cache=sometimes
usage "--iodepth 8 needs a queued engine" --iodepth=8
usage "no such user 'no-such-user-here'" -u no-such-user-here -d /tmp
usage "-Z /nonexistent: No such file" -Z /nonexistent -d /tmp -s 1 -n 0

# the directory: exit 2
err=$("$CLYDE" -d /nonexistent/dir -s 1 2>&1 >/dev/null); rc=$?
expect_eq "missing -d exits 2" "$rc" 2
expect_match "missing -d is named" "$err" "-d /nonexistent/dir: No such file or directory"
err=$("$CLYDE" -d /etc/hostname -s 1 2>&1 >/dev/null); rc=$?
expect_eq "a file as -d exits 2" "$rc" 2
expect_match "a file as -d is named" "$err" "-d /etc/hostname: not a directory"

done_testing
