#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Each phase's time series in the JSON (clyde-result/8), checked by
# tests/cli/series_check.py against the figures it must add up to: the
# rows tile [0, elapsed], their work sums to the amount, their operations
# to the latency's count, their CPU to the phase's, latencies in order.
# On a tmpfs (adaptive intervals, several workers, the tree), on this
# machine's own filesystem with a small -s, with --interval=250 (full
# intervals of 0.25 s) and --interval=off (null). The loop ext4 variant is
# tests/env/series_loop.sh.
. "$TESTLIB"
need_root
need_linux "a tmpfs to mount"
need_python3 "to read the JSON"
CHECKER=$(dirname "$TESTLIB")/cli/series_check.py
need_tmpfs 256m
MNT=$SCRATCH
scratch_dir
W=$SCRATCH

# run NAME MODE WIDTH CLYDE-ARGS...: a run into W/NAME.json, then the checker
run() {
	name=$1 mode=$2 width=$3
	shift 3
	"$CLYDE" "$@" -q --json "$W/$name.json" >"$W/$name.out" 2>"$W/$name.err"
	expect_eq "$name: exit status" "$?" 0
	# the machine's own note of a cache below a "rotational" disk is no word on the series
	if grep 'warning\|note' "$W/$name.err" | grep -qv 'which says it is rotational'; then
		fail "$name: stderr says: $(grep 'warning\|note' "$W/$name.err")"
	else
		ok
	fi
	out=$(python3 "$CHECKER" "$W/$name.json" "$mode" "$width" 2>&1)
	expect_eq "$name: the series add up${out:+ ($out)}" "$?" 0
	printf '%s\n' "$out" | head -n 1
}

run tmpfs adaptive "" -d "$MNT" -s 16:8192:3000 -r 8 -n 1 -c 2
expect_match "tmpfs: every phase checked" "$out" \
	'^checked: putc put_block rewrite getc get_block seeks seq_create seq_stat seq_del ran_create ran_stat ran_del'
# a default-width phase of the seeks has its intervals of 0.1 s
w=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["runs"][0]["phases"]["putc"]["series"]["interval_s"])' "$W/tmpfs.json")
expect_eq "tmpfs: adaptive intervals start at 100 ms" "$w" 0.1
# the machine's columns on Linux: /proc/meminfo, and cachestat where the kernel has it
src=$(python3 -c 'import json,sys; s=json.load(open(sys.argv[1]))["runs"][0]["phases"]["put_block"]["series"]; print(s["dirty_source"], "|", s["file_cache_source"], "|", s["device_source"])' "$W/tmpfs.json")
expect_match "tmpfs: what the dirty columns read" "$src" '^Linux /proc/meminfo Dirty, Writeback \| (cachestat|None) \| None$'

run tree adaptive "" -d "$MNT" --tree=ports:0.1 -s 0 -n 0
expect_eq "tree: its five phases checked" "$out" "checked: tree_extract tree_copy tree_walk tree_read tree_delete"

run fixed fixed 0.25 -d "$MNT" -s 8 -r 4 -n 1 --interval=250
# the seeks last about a second: full intervals of 0.25 s
rows=$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["runs"][0]["phases"]["seeks"]["series"]["rows"]))' "$W/fixed.json")
[ "$rows" -ge 4 ] && ok || fail "--interval=250: the seeks have $rows intervals, not 4 or more"

run off off "" -d "$MNT" -s 8 -r 4 -n 1 --interval=off

# this machine's own filesystem (page cache, write-back), a small -s
run disk adaptive "" -d "$W" -s 8 -r 4 -n 1

# the stall reader: a child clyde during a phase that holds only what it
# reads and writes (/proc/meminfo, its board, its socket, /dev/null for
# stdio: not the worker's descriptors, the test file, the ring or
# clyde's stdio), is gone when clyde has ended, and goes by itself when
# clyde is killed (SIGKILL leaves it no one to stop it); the rest of its
# life is tests/cli/stall_reader.sh's
for end in resume kill; do
	# the last run's stderr goes first: the shell truncates it only once the
	# background child runs, and wait_pause must not take its pause line
	rm -f "$W/resume" "$W/reader.err"
	CLYDE_TEST_PAUSE=get_block CLYDE_TEST_RESUME=$W/resume \
		"$CLYDE" -d "$MNT" -s 16 -n 0 -f -q --json "$W/reader.json" \
		>"$W/reader.out" 2>"$W/reader.err" &
	cpid=$!
	if ! wait_pause "$W/reader.err"; then
		fail "stall reader ($end): clyde did not pause in the block read"
		kill $cpid
		wait $cpid
		continue
	fi
	kids=$(pgrep -P $cpid -x clyde)
	expect_eq "stall reader ($end): one child clyde in the block read" "$(echo $kids | wc -w)" 1
	held=$(ls -l "/proc/$kids/fd" 2>/dev/null | sed -n 's/.* -> //p' |
		grep -v -e '^/proc/meminfo$' -e '^socket:' -e '^/dev/null$' \
			-e '^/memfd:clyde-stall-board (deleted)$' | sort -u)
	expect_eq "stall reader ($end): holds nothing but meminfo, its board and its socket" \
		"$held" ""
	expect_eq "stall reader ($end): its three descriptors and stdio" \
		"$(ls "/proc/$kids/fd" | wc -l)" 6
	if [ "$end" = resume ]; then
		touch "$W/resume"
		wait $cpid
		expect_eq "stall reader: clyde exit status" "$?" 0
	else
		kill -9 $cpid
		wait $cpid 2>/dev/null
	fi
	n=0
	while kill -0 "$kids" 2>/dev/null && [ $n -lt 50 ]; do
		sleep 0.1
		n=$((n + 1))
	done
	kill -0 "$kids" 2>/dev/null && fail "stall reader ($end): still there 5 s after clyde" || ok
	[ -d "$MNT" ] && find "$MNT" -mindepth 1 -delete
done

# what --interval refuses
for bad in 50 0 abc 3600001 ''; do
	"$CLYDE" -d "$MNT" --interval="$bad" >/dev/null 2>"$W/bad.err"
	expect_eq "--interval=$bad refused" "$?" 1
	expect_file_has "--interval=$bad: the reason" "$W/bad.err" \
		"--interval: '$bad' is not off or a number of milliseconds from 100 to 3600000"
done
done_testing
