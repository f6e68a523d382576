#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# clyde over faultfs (tests/tools/faultfs.c): a fault injected into each I/O
# phase and each file-test phase, armed while clyde waits after the
# phase's first operation. Each run exits 3, names the phase, the file
# and the offset or name, and the error, prints no CSV line, writes a
# JSON document with the failure, and leaves nothing in the filesystem
# (looked at beneath faultfs). Also: fsync EIO and ENOSPC, short writes
# and reads (reported, never counted as full), an unlink that fails while
# clyde removes its files (it removes the rest and names what is left),
# and a slow device (2 ms more per write) whose figures agree with
# faultfs's own count of the writes and the time it added.
. "$TESTLIB"
FAULTFS_BACKING=256m
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
# operation, RULE is armed through the control file, clyde goes on; RC
fault() {
	phase=$1
	rule=$2
	shift 2
	rm -f "$W/ctl" "$W/go" "$W/j.json" "$W/err"
	CLYDE_TEST_PAUSE=$phase CLYDE_TEST_RESUME=$W/go $tmo "$CLYDE" -d "$M" "$@" \
		--json "$W/j.json" >"$W/out" 2>"$W/err" &
	cp=$!
	wait_pause "$W/err"
	printf '%s\n' "$rule" >"$W/ctl"
	# every worker (the seeks' five seekers each) pauses and takes the file
	while kill -0 $cp 2>/dev/null; do
		[ -e "$W/go" ] || touch "$W/go"
		sleep 0.02
	done
	wait $cp
	RC=$?
	rm -f "$W/ctl" "$W/go"
}

# expect_fault LABEL CSV-NAME MESSAGE-REGEX: exit 3, said, JSON, nothing left
expect_fault() {
	expect_eq "$1: exit 3" "$RC" 3
	expect_match "$1: names the phase, file, where and why" \
		"$(grep -v '^clyde: test pause' "$W/err" | grep '^clyde: ' | tail -n 1)" "$3"
	expect_eq "$1: no CSV line" "$(grep -c '^1\.98,' "$W/out")" 0
	expect_eq "$1: the JSON's failure" "$(jq_ 'f["phase"], f["exit_status"], r["csv"]')" "('$2', 3, None)"
	expect_eq "$1: nothing left" "$(ls -A "$B")" ""
}

D="$M/clyde\\.[A-Za-z0-9]{6}"
EIO="Input/output error; removed $D"

fault putc "op=write,path=*io.0,after=9" -s 4 -n 0 -f64k
expect_fault "per-char write" putc "^clyde: per-char write: write $D/io\\.0 at byte [1-9][0-9]*: $EIO\$"
expect_eq "per-char write: the JSON's offset is the message's" \
	"$(jq_ 'f["offset"]')" "$(sed -n 's/.* at byte \([0-9]*\):.*/\1/p' "$W/err" | tail -n 1)"

fault put_block "op=write,path=*io.0,after=4" -s 4 -n 0 -f
expect_fault "block write" put_block "^clyde: block write: write $D/io\\.0 at offset [1-9][0-9]*: $EIO\$"
expect_eq "block write: offset on a chunk, in the JSON too" \
	"$(jq_ 'f["offset"] % 8192 == 0 and f["offset"] > 0, f["errno"], f["path"].endswith("/io.0")')" "(True, 5, True)"

fault rewrite "op=write,path=*io.0,after=4" -s 4 -n 0 -f
expect_fault "rewrite" rewrite "^clyde: rewrite: write $D/io\\.0 at offset [1-9][0-9]*: $EIO\$"
expect_eq "rewrite: the block write before it kept its figures" \
	"$(jq_ 'r["phases"]["put_block"]["ran"], r["phases"]["put_block"]["amount"]')" "(True, 4096)"

fault getc "op=read,path=*io.0,after=9" -s 4 -n 0 -f64k
expect_fault "per-char read" getc "^clyde: per-char read: read $D/io\\.0 at byte [1-9][0-9]*: $EIO\$"

fault get_block "op=read,path=*io.0,after=4" -s 4 -n 0 -f
expect_fault "block read" get_block "^clyde: block read: read $D/io\\.0 at offset [1-9][0-9]*: $EIO\$"

fault seeks "op=read,path=*io.0,after=4" -s 4:8k:2000 -n 0 -f
expect_fault "random seeks" seeks "^clyde: random seeks: read $D/io\\.0 at offset [0-9]+: $EIO\$"

for p in "seq_create create sequential create" "seq_stat stat sequential stat" \
	"seq_del unlink sequential delete" "ran_create create random create" \
	"ran_stat stat random stat" "ran_del unlink random delete"; do
	set -- $p
	csv=$1 op=$2
	shift 2
	name="$*"
	# a stat the kernel revalidates a dentry with fails it quietly and looks
	# the name up again: fail both, so the stat clyde made sees the error
	count=1
	[ "$op" = stat ] && count=2
	fault "$csv" "op=$op,path=*files.0/*,after=4,count=$count" -s 0 -n 1
	expect_fault "$name" "$csv" "^clyde: $name: $op $D/files\\.0/[^ ]+: $EIO\$"
	expect_match "$name: the JSON names the file" "$(jq_ 'f["path"]')" "^$D/files\\.0/[^/]+\$"
done

fault put_block "op=fsync,path=*io.0" -s 4 -n 0 -f
expect_fault "block write's fsync EIO" put_block "^clyde: block write: fsync/close $D/io\\.0: $EIO\$"
fault put_block "op=fsync,err=ENOSPC,path=*io.0" -s 4 -n 0 -f
expect_fault "block write's fsync ENOSPC" put_block \
	"^clyde: block write: fsync/close $D/io\\.0: No space left on device; removed $D\$"

# short transfers: psync completes them (pwrite again for the rest), io_uring
# reports them; never counted as full: --verify reads back every byte
fault put_block "op=write,err=short,path=*io.0,after=2" -s 4 -n 0 -f --verify
expect_eq "a short write, psync: completed, the data intact" "$RC $(jq_ 'f, r["data"]["mismatches"], r["phases"]["put_block"]["amount"]')" "0 (None, 0, 4096)"
expect_eq "a short write, psync: faultfs cut one write" "$(st 'faults write short')" 1
fault get_block "op=read,err=short,path=*io.0,after=2" -s 4 -n 0 -f --verify
expect_eq "a short read, psync: completed, the data intact" "$RC $(jq_ 'f, r["data"]["mismatches"]')" "0 (None, 0)"
expect_eq "a short read, psync: faultfs cut one read" "$(st 'faults read short')" 1
if "$CLYDE" --version | grep -q '^engines:.* uring\( \|$\)'; then
	fault put_block "op=write,err=short,path=*io.0,after=2" -s 4 -n 0 -f --verify --engine=uring
	# (Linux's FUSE turns a short asynchronous direct write into EIO: reported either way;
	# exit 4, the kernel refusing io_uring, fails here as in tests/cli/uring.sh)
	if [ "$RC" = 4 ]; then
		fail "a short write, uring: exit 4 (io_uring refused) where uring is built"
	elif [ "$RC" = 0 ]; then
		expect_eq "a short write, uring: completed, the data intact" \
			"$(jq_ 'f, r["data"]["mismatches"], r["phases"]["put_block"]["amount"]')" "(None, 0, 4096)"
	else
		expect_fault "a short write, uring: reported" put_block \
			"^clyde: block write: (short write of|write) $D/io\\.0 at offset [1-9][0-9]*( \\([0-9]+ of 8192 bytes\\))?: Input/output error; removed $D\$"
	fi
fi

# the removal fails on io.0: the rest goes, io.0 is named; the marker
# stays, unnamed, for a later --cleanup
fault put_block "op=write,path=*io.0,after=2
op=unlink,path=*io.0,count=0" -s 4 -n 0 -f
expect_eq "unlink faulted: exit 3" "$RC" 3
expect_match "unlink faulted: says it could not remove all" \
	"$(grep '^clyde: warning: could not remove all' "$W/err")" "^clyde: warning: could not remove all of $D: Input/output error\$"
expect_match "unlink faulted: names what is left" "$(grep '^clyde:   left: ' "$W/err")" "^clyde:   left: $D/io\\.0\$"
expect_match "unlink faulted: the last line says so" "$(tail -n 1 "$W/err")" \
	"^clyde: block write: write $D/io\\.0 at offset [0-9]+: Input/output error; could not remove all of $D\$"
expect_eq "unlink faulted: only io.0 and the marker stay" "$(cd "$B" && find . -mindepth 1 | sort | sed 's|^\./clyde\.[^/]*|D|' | tr '\n' ' ')" "D D/.clyde-run D/io.0 "
rm -rf "$B"/clyde.*

# a slow device: every write to io.0 2 ms late (the seeks write nothing back)
printf 'op=write,err=delay,delay_us=2000,path=*io.0,count=0\n' >"$W/ctl"
$tmo "$CLYDE" -d "$M" -s 4:8k:100 --seek-updates=0 -n 0 -f --exact --json "$W/j.json" \
	>"$W/out" 2>"$W/err"
expect_eq "slow writes: exit 0" "$?" 0
rm -f "$W/ctl"
writes=$(jq_ 'r["phases"]["put_block"]["latency_us"]["count"] + r["phases"]["rewrite"]["latency_us"]["count"]')
expect_eq "slow writes: clyde counted 512 writes in block write and 512 in rewrite" "$writes" 1024
expect_eq "slow writes: faultfs delayed as many" "$(st 'faults write delay')" "$writes"
expect_eq "slow writes: and added 2 ms to each" "$(st delay_us_total)" $((writes * 2000))
expect_eq "slow writes: block write's p50 at least 2 ms, its time at least 512 x 2 ms, its rate at most 4000 KiB/s" \
	"$(jq_ '[(p["latency_us"]["p50"] >= 2000, p["elapsed_s"] >= 1.024, p["rate"] <= 4000.0) for p in [r["phases"]["put_block"]]][0]')" \
	"(True, True, True)"
expect_eq "slow writes: the reads were not slowed (block read p50 under 2 ms)" \
	"$(jq_ 'r["phases"]["get_block"]["latency_us"]["p50"] < 2000')" "True"
expect_eq "slow writes: nothing left" "$(ls -A "$B")" ""
done_testing
