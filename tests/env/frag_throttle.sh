#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# The truth of issue 44's fragmentation: blk-throttle counts bios (split
# ones again) in 100 ms slices, and readahead and the queue's limits, not
# extents, set a buffered read's bytes per bio; so clyde reads here with
# O_DIRECT (-D) in 512 KiB chunks, and the bios its FIEMAP map predicts
# (for each chunk the extents it touches, each split by the queue's
# max_sectors_kb and max_segments where they bind) must be the reads the
# blkio cgroup counted (blkio.throttle.io_serviced) within 2%, the block
# read's time those bios over the throttle's read_iops within 10% (over
# at least 10 s), and the slowdown from the fresh filesystem to the one
# fragment_fs cut up (tests/env/frag_lib.sh: 256 KiB files written until
# it is full, every other one removed) the one the same prediction gives,
# within 10%; and the same for clyde's own --age (90% full, churned twice
# with files of 64 to 512 KiB from a profile file: the free space it
# leaves is in holes of that size). The throttle holds only the block
# read (set while clyde waits at before-get_block, lifted at
# after-get_block). About a minute and a half.
. "$TESTLIB"
. "$(dirname "$TESTLIB")/env/throttle_lib.sh"
need_built "$CLYDE"
. "$(dirname "$TESTLIB")/env/frag_lib.sh"

throttle_ext4 1G
throttle_group
Q=/sys/block/${LOOP#/dev/}/queue
MAXKB=$(cat "$Q/max_sectors_kb")
MAXSEG=$(cat "$Q/max_segments")
SIZE=128

# reads LABEL: the group's serviced reads of DEV so far
reads() {
	awk -v d="$DEV" '$1 == d && $2 == "Read" { print $3 }' "$CG/blkio.throttle.io_serviced"
}

# predict JSON: the bios the test file's map says a 512 KiB O_DIRECT read makes
predict() {
	python3 - "$1" "$MAXKB" "$MAXSEG" <<'PY'
import json, sys
run = json.load(open(sys.argv[1]))["runs"][0]
t = run["fragmentation"]["test_file"]
maxb, maxseg = int(sys.argv[2]) * 1024, int(sys.argv[3])
chunk, size = 512 * 1024, t["bytes"]
bios = 0
for c in range(0, size, chunk):
    for l, p, n in t["map"]:
        a, b = max(c, l), min(c + chunk, l + n)
        if a < b:
            part = b - a
            # one bio per extent touched, split where the queue's limits bind
            bios += max(-(-part // maxb), -(-part // (maxseg * 4096)))
print(bios)
PY
}

# one LABEL RATE [CLYDE-ARGS...]: clyde's block read under RATE reads a
# second; sets COUNTED, PREDICTED, ELAPSED (the JSON's get_block seconds)
one() {
	label=$1 rate=$2
	shift 2
	rm -f "$W/go"
	in_group env CLYDE_TEST_PAUSE=before-get_block:after-get_block CLYDE_TEST_RESUME="$W/go" \
		"$CLYDE" -D -d "$W/mnt" -s "${SIZE}m:512k" -n 0 -f -r 32m -q --json "$W/$label.json" \
		"$@" \
		>"$W/$label.out" 2>"$W/$label.err" &
	pid=$!
	wait_pause "$W/$label.err" 1 || { fail "$label: no pause before the block read"; kill $pid; wait $pid; return 1; }
	[ "$rate" -gt 0 ] && throttle_set "$CG/blkio.throttle.read_iops_device" "$rate"
	r0=$(reads)
	touch "$W/go"
	wait_pause "$W/$label.err" 2 || { fail "$label: no pause after the block read"; kill $pid; wait $pid; return 1; }
	r1=$(reads)
	throttle_set "$CG/blkio.throttle.read_iops_device" 0
	touch "$W/go"
	wait $pid
	expect_eq "$label: clyde's exit status" "$?" 0
	COUNTED=$((r1 - r0))
	PREDICTED=$(predict "$W/$label.json")
	ELAPSED=$(python3 -c 'import json, sys
print(json.load(open(sys.argv[1]))["runs"][0]["phases"]["get_block"]["elapsed_s"])' "$W/$label.json")
	echo "$label: predicted $PREDICTED bios, counted $COUNTED; block read $ELAPSED s at $rate reads/s"
}

# within A B PCT: A within PCT percent of B
within() {
	python3 -c 'import sys; a, b, p = map(float, sys.argv[1:]); sys.exit(0 if abs(a - b) <= b * p / 100 else 1)' "$@"
}

# fresh: a rate that makes its predicted bios last at least 11 s, in
# whole bios per 100 ms slice: blk-throttle allows iops * 0.1 bios a slice
# and trims the fraction away when the slice ends (throtl_trim_slice), so
# 23 reads/s gave 256 bios in 12.65 s (20.2/s, 14% slow: measured with one
# read in flight and with four), and a multiple of 10 is the rate it keeps.
one probe 0 || done_testing
RATE=$((PREDICTED / 11 / 10 * 10))
check "fresh: a rate of at least 10 reads/s ($RATE)" [ "$RATE" -ge 10 ]
one fresh "$RATE"
F_PRED=$PREDICTED F_EL=$ELAPSED
check "fresh: bios counted ($COUNTED) within 2% of the map's ($PREDICTED)" within "$COUNTED" "$PREDICTED" 2
check "fresh: at least 10 s ($ELAPSED)" python3 -c "import sys; sys.exit($ELAPSED < 10)"
check "fresh: $ELAPSED s within 10% of $PREDICTED bios at $RATE/s" within "$ELAPSED" \
	"$(python3 -c "print($PREDICTED / $RATE)")" 10

# aged_checks LABEL: the run one LABEL just made against the fresh one:
# many extents, the bios and the time the map predicts, the slowdown too
aged_checks() {
	n=$(python3 -c 'import json, sys
print(json.load(open(sys.argv[1]))["runs"][0]["fragmentation"]["test_file"]["extents"])' "$W/$1.json")
	check "$1: the test file in many extents ($n)" [ "$n" -gt 100 ]
	check "$1: bios counted ($COUNTED) within 2% of the map's ($PREDICTED)" within "$COUNTED" \
		"$PREDICTED" 2
	check "$1: $ELAPSED s within 10% of $PREDICTED bios at $RATE/s" within "$ELAPSED" \
		"$(python3 -c "print($PREDICTED / $RATE)")" 10
	slow=$(python3 -c "print($ELAPSED / $F_EL)")
	pslow=$(python3 -c "print($PREDICTED / $F_PRED)")
	echo "slowdown fresh to $1: measured $slow, predicted $pslow"
	check "$1: the slowdown ($slow) within 10% of the prediction's ($pslow)" within "$slow" \
		"$pslow" 10
}

# clyde's own aging, on the filesystem the fresh run left as it found it
printf 'size 64k 512k 1\n' >"$W/holes.profile"
one clyde_aged "$RATE" --age=90%:2:"$W/holes.profile" -z 44
aged_checks clyde_aged
check "clyde_aged: the filesystem as clyde found it" [ -z "$(ls "$W/mnt" | grep -v lost+found)" ]

fragment_fs "$W/mnt" 256 || { fail "fragment_fs failed"; done_testing; }
one aged "$RATE"
aged_checks aged
done_testing
