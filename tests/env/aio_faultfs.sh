#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# The aio engine over faultfs (tests/tools/faultfs.c). (a) An EIO on a
# block write and on a block read is reported by aio at depth 8 exactly as
# by psync: exit 3, the same message but for the offset, the JSON's
# failure; a short write and a short read are finished (the rest sent
# again) and --verify finds every byte. (b) glibc's pool really runs the
# depth asked for: with each read of the test file held 20 ms by faultfs,
# clyde's threads (/proc/PID/task) at --iodepth=8 peak at least 7 above
# its peak at --iodepth=1. glibc runs one descriptor's requests one after
# another on one thread (rt/aio_misc.c): without a dup(2) per slot
# (AIO_HOST_DUP_PER_SLOT) the two peaks are the same.
. "$TESTLIB"
need_linux "/proc/PID/task, glibc's AIO"
"$CLYDE" --version | grep -q '^engines:.* aio\( \|$\)' || skip "aio not built"
FAULTFS_BACKING=128m
. "$(dirname "$TESTLIB")/env/faultfs_lib.sh"
mount_ffs

# jq_ EXPR: python's value of EXPR over the last run (r) of $W/j.json
jq_() {
	python3 - "$W/j.json" "$1" <<'PY' 2>&1
import json, sys
d = json.load(open(sys.argv[1]))
r = d["runs"][-1]
f = r["failure"]
print(eval(sys.argv[2]))
PY
}

# fault PHASE RULE CLYDE-ARGS...: clyde pauses after PHASE's first
# operation, RULE is armed through the control file, clyde goes on; RC,
# and MSG: clyde's last message with the offset and directory made N and D
fault() {
	phase=$1
	rule=$2
	shift 2
	rm -f "$W/ctl" "$W/go" "$W/j.json" "$W/err"
	CLYDE_TEST_PAUSE=$phase CLYDE_TEST_RESUME=$W/go $tmo "$CLYDE" -d "$M" "$@" \
		--json "$W/j.json" >"$W/out" 2>"$W/err" &
	cp=$!
	wait_pause "$W/err"
	printf '%s\n' "$rule" >"$W/ctl.new"
	mv "$W/ctl.new" "$W/ctl"
	while kill -0 $cp 2>/dev/null; do
		[ -e "$W/go" ] || touch "$W/go"
		sleep 0.02
	done
	wait $cp
	RC=$?
	rm -f "$W/ctl" "$W/go"
	MSG=$(grep -v '^clyde: test pause' "$W/err" | grep '^clyde: ' | tail -n 1 |
		sed -E -e 's/ at offset [0-9]+/ at offset N/' -e 's|clyde\.[A-Za-z0-9]{6}|D|g')
}

# (a) errors: aio as psync
for p in "put_block write block" "get_block read block"; do
	set -- $p
	phase=$1 op=$2
	rule="op=$op,path=*io.0,after=4"
	fault "$phase" "$rule" -s 4 -n 0 -f --engine=psync
	prc=$RC pmsg=$MSG
	fault "$phase" "$rule" -s 4 -n 0 -f --engine=aio --iodepth=8
	expect_eq "$op EIO: psync exits 3" "$prc" 3
	expect_eq "$op EIO: aio exits as psync" "$RC" "$prc"
	expect_match "$op EIO: psync's message" "$pmsg" \
		"^clyde: block $op: $op $M/D/io\\.0 at offset N: Input/output error; removed $M/D\$"
	expect_eq "$op EIO: aio's message is psync's" "$MSG" "$pmsg"
	expect_eq "$op EIO: aio's JSON failure" \
		"$(jq_ 'f["phase"], f["errno"], f["exit_status"], f["offset"] % 8192, r["csv"]')" \
		"('$phase', 5, 3, 0, None)"
	expect_eq "$op EIO: nothing left" "$(ls -A "$B")" ""
done

# short transfers: half of one write, half of one read; the rest is sent again
fault put_block "op=write,err=short,path=*io.0,after=2" -s 4 -n 0 -f --verify --engine=aio --iodepth=8
expect_eq "a short write, aio: completed, the data intact" \
	"$RC $(jq_ 'f, r["data"]["mismatches"], r["phases"]["put_block"]["amount"]')" "0 (None, 0, 4096)"
expect_eq "a short write, aio: faultfs cut one write" "$(st 'faults write short')" 1
fault get_block "op=read,err=short,path=*io.0,after=2" -s 4 -n 0 -f --verify --engine=aio --iodepth=8
expect_eq "a short read, aio: completed, the data intact" \
	"$RC $(jq_ 'f, r["data"]["mismatches"], r["phases"]["get_block"]["amount"]')" "0 (None, 0, 4096)"
expect_eq "a short read, aio: faultfs cut one read" "$(st 'faults read short')" 1
expect_eq "short transfers: nothing left" "$(ls -A "$B")" ""

# (b) the depth in glibc's threads. peak_threads DEPTH: clyde's most
# threads at once, sampled every 10 ms while every read of io.0 (the
# block read's 128 and the one seeker's 64) waits 20 ms in faultfs
peak_threads() {
	printf 'op=read,err=delay,delay_us=20000,path=*io.0,count=0\n' >"$W/ctl.new"
	mv "$W/ctl.new" "$W/ctl"
	$tmo "$CLYDE" -d "$M" -s 1:8k:64:1 -n 0 -f --exact --engine=aio --iodepth="$1" \
		>"$W/out" 2>"$W/err" &
	cp=$!
	before=$(st 'faults read delay')
	peak=0
	# clyde itself: timeout's child, where timeout runs it
	pid=""
	while kill -0 $cp 2>/dev/null; do
		if [ -z "$pid" ]; then
			if [ -n "$tmo" ]; then
				pid=$(cat /proc/$cp/task/$cp/children 2>/dev/null | awk '{ print $1 }')
				[ -n "$pid" ] || pid=$(pgrep -P $cp 2>/dev/null | head -n 1)
			else
				pid=$cp
			fi
		fi
		if [ -n "$pid" ]; then
			n=$(ls /proc/$pid/task 2>/dev/null | wc -l)
			[ "$n" -gt "$peak" ] && peak=$n
		fi
		sleep 0.01
	done
	wait $cp
	RC=$?
	rm -f "$W/ctl"
	delayed=$(($(st 'faults read delay') - before))
	echo "    --iodepth=$1: exit $RC, at most $peak threads, $delayed reads held 20 ms"
}
peak_threads 1
one=$peak
expect_eq "delayed reads at depth 1: exit 0" "$RC" 0
expect_eq "depth 1: faultfs held the reads" "$((delayed >= 192))" 1
peak_threads 8
eight=$peak
expect_eq "delayed reads at depth 8: exit 0" "$RC" 0
expect_eq "depth 8: faultfs held the reads" "$((delayed >= 192))" 1
# at depth 8 glibc makes a thread for each request that finds none idle:
# 8 requests at once on 8 descriptors, 8 threads, where depth 1 had one.
# No tolerance: measured 3 and 10 in each of 6 runs, 3 of them beside
# stress-ng --cpu 2. The other threads are clyde's own in both runs, and a
# pool thread goes idle (or takes the next request) under the lock that
# aio_suspend and aio_read take too (rt/aio_misc.c), so at depth 1 a request never finds the one thread
# busy and makes a second; at depth 8 a thread idle for a second exits,
# but the 20 ms reads keep all 8 busy for the whole block read.
[ "$one" -gt 0 ] || fail "clyde's threads were never seen (/proc/PID/task)"
if [ $((eight - one)) -ge 7 ]; then ok; else
	fail "glibc's pool did not run 8 at once: $eight threads at depth 8, $one at depth 1 (want 7 more)"
fi
expect_eq "depth runs: nothing left" "$(ls -A "$B")" ""
done_testing
