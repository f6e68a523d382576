#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Signals during a phase, made deterministic by the test pause point:
# SIGINT and SIGTERM stop the run (exit 5) and remove every file; SIGHUP
# is ignored.
. "$TESTLIB"
need_root

scratch_tmpfs 64m || skip "cannot mount a tmpfs"
MNT=$SCRATCH
scratch_dir
ERR=$SCRATCH/err

# start_paused PHASE ARGS...: run clyde in the background, paused in PHASE
start_paused() {
	phase=$1
	shift
	CLYDE_TEST_PAUSE=$phase "$CLYDE" -d "$MNT" "$@" >/dev/null 2>"$ERR" &
	pid=$!
	for i in $(seq 200); do
		grep -q "test pause in $phase" "$ERR" && return 0
		sleep 0.05
	done
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
CLYDE_TEST_PAUSE=put_block CLYDE_TEST_RESUME=$ERR.go "$CLYDE" -d "$MNT" -s 16 -n 0 -f \
	>"$ERR.out" 2>"$ERR" &
pid=$!
for i in $(seq 200); do grep -q "test pause" "$ERR" && break; sleep 0.05; done
kill -HUP $pid
sleep 0.2
touch "$ERR.go"
wait $pid
rc=$?
expect_eq "SIGHUP is ignored" "$rc" 0
expect_match "the run after SIGHUP finished" "$(tail -n 1 "$ERR.out")" '^1\.98,'
expect_empty_dir "nothing left after the SIGHUP run" "$MNT"
rm -f "$ERR.go" "$ERR.out"
done_testing
