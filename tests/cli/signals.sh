#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Signals during a phase, made deterministic by the test pause point:
# SIGINT and SIGTERM stop the run (exit 5) and remove every file; SIGHUP
# is ignored.
. "$TESTLIB"
need_root

need_tmpfs 64m
MNT=$SCRATCH
scratch_dir
ERR=$SCRATCH/err

# start_paused PHASE ARGS...: run clyde in the background, paused in PHASE
start_paused() {
	phase=$1
	shift
	# the stderr file emptied first: wait_pause must not count an earlier run's pauses
	: >"$ERR"
	CLYDE_TEST_PAUSE=$phase "$CLYDE" -d "$MNT" "$@" >/dev/null 2>"$ERR" &
	pid=$!
	wait_pause "$ERR" && return 0
	fail "clyde never paused in $phase: $(cat "$ERR")"
	return 1
}

# stop_in PHASE SIGNAL ARGS...
stop_in() {
	phase=$1
	sig=$2
	shift 2
	start_paused "$phase" "$@" || { kill -KILL $pid; return; }
	# files exist while it waits
	[ -n "$(find "$MNT" -mindepth 2 -print -quit)" ] && ok || fail "$phase: no files while paused"
	kill -"$sig" $pid
	wait $pid
	rc=$?
	expect_eq "SIG$sig in $phase exits 5" "$rc" 5
	expect_match "SIG$sig in $phase is reported" "$(cat "$ERR")" "stopped by signal .*removed $MNT/clyde\\."
	expect_empty_dir "nothing left after SIG$sig in $phase" "$MNT"
}

stop_in put_block INT -s 16 -n 0 -f
stop_in rewrite TERM -s 16 -n 0 -f
stop_in getc INT -s 16 -n 0 -f64k
stop_in seeks TERM -s 16 -n 0 -f
stop_in seq_create INT -s 0 -n 1
stop_in seq_stat TERM -s 0 -n 1:4k:1k:4
stop_in ran_del INT -s 0 -n 1

# SIGHUP is ignored: the run goes on and finishes normally
: >"$ERR"
CLYDE_TEST_PAUSE=put_block CLYDE_TEST_RESUME=$ERR.go "$CLYDE" -d "$MNT" -s 16::8192 -n 0 -f \
	>"$ERR.out" 2>"$ERR" &
pid=$!
wait_pause "$ERR"
kill -HUP $pid
sleep 0.2
touch "$ERR.go"
wait $pid
rc=$?
expect_eq "SIGHUP is ignored" "$rc" 0
expect_match "the run after SIGHUP finished" "$(tail -n 1 "$ERR.out")" '^1\.98,'
expect_empty_dir "nothing left after the SIGHUP run" "$MNT"
expect_eq "the resume file is removed after the pause" "$(ls "$ERR.go" 2>/dev/null)" ""

# several pauses, one resume file: clyde removes it after each pause, so
# each pause waits again. While paused, the file names are bonnie++'s: the
# index in 10 hex digits and 0 to 12 random characters, those first in the
# random phases.
# names PATTERN SED: the 1024 names match PATTERN and carry the indexes
# 0..1023, which the sed -E script SED takes out
names() {
	find "$MNT" -mindepth 3 -type f | sed 's,.*/,,' >"$ERR.names"
	expect_eq "$phase: 1024 files" "$(wc -l <"$ERR.names")" 1024
	expect_eq "$phase: every name matches $1" "$(grep -cvE "$1" "$ERR.names")" 0
	expect_eq "$phase: the indexes 0 to 1023" \
		"$(sed -E "$2" "$ERR.names" | sort | md5sum)" \
		"$(i=0; while [ $i -lt 1024 ]; do printf '%010x\n' $i; i=$((i + 1)); done | md5sum)"
	# 0 to 12 random characters: with 1024 names both ends occur
	expect_eq "$phase: names of 10 to 22 characters" \
		"$(awk '{print length}' "$ERR.names" | sort -n | sed -n '1p;$p' | tr '\n' ' ')" "10 22 "
}
rm -f "$ERR.go"
: >"$ERR"
CLYDE_TEST_PAUSE=seq_stat:ran_stat CLYDE_TEST_RESUME=$ERR.go "$CLYDE" -d "$MNT" -s 0 -n 1 \
	>"$ERR.out" 2>"$ERR" &
pid=$!
n=0
for phase in seq_stat ran_stat; do
	n=$((n + 1))
	wait_pause "$ERR" $n
	expect_eq "paused in $phase" "$(grep -c "test pause in $phase" "$ERR")" 1
	expect_eq "$phase: the resume file is gone" "$(ls "$ERR.go" 2>/dev/null)" ""
	if [ $phase = seq_stat ]; then
		names '^[0-9a-f]{10}[0-9A-Za-z]{0,12}$' 's/^(.{10}).*/\1/'
		expect_eq "still paused in seq_stat" "$(grep -c 'test pause in ran_stat' "$ERR")" 0
	else
		names '^[0-9A-Za-z]{0,12}[0-9a-f]{10}$' 's/.*(.{10})$/\1/'
	fi
	touch "$ERR.go"
done
wait $pid
expect_eq "the run with two pauses" "$?" 0
expect_eq "two pauses, no more" "$(grep -c 'test pause' "$ERR")" 2
expect_match "it finished" "$(tail -n 1 "$ERR.out")" '^1\.98,'
expect_empty_dir "nothing left after two pauses" "$MNT"
rm -f "$ERR.go" "$ERR.out" "$ERR.names"
done_testing
