#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# aio (depth 32) against psync and null on three filesystems: a tmpfs, ext4
# on a zram device of the test's own and ext4 on a loop device. Same seed
# (-z), fixed sizes and seek count: each I/O phase must count the same
# amount, the same requests (its latency count, and the ops of its time
# series) with aio, psync and null; with --verify aio and psync find no
# mismatch on a clean run and the same mismatches, at the same offset,
# when a byte of the file is changed before the block read. (null moves no
# data: --verify is refused with it, so null is held to the counts alone.)
. "$TESTLIB"
need_root
need_linux "zram, loop devices"
need_python3 "to read the JSON"
need_loops mkfs.ext4
"$CLYDE" --version | grep -q '^engines:.* aio\( \|$\)' || skip "aio not built"
[ -w /sys/class/zram-control/hot_add ] || modprobe zram num_devices=0 2>/dev/null
[ -r /sys/class/zram-control/hot_add ] || skip "no zram here (/sys/class/zram-control): modprobe zram"

need_tmpfs 320m
TMP=$SCRATCH
scratch_dir
W=$SCRATCH
SIZE="-s 24:8k:2000:2 -n 0 -f --exact"

# a zram device of the test's own (hot_add: never one that may hold swap),
# reset and removed at exit
ZRAM=""
zram_remove() {
	[ -n "$ZRAM" ] || return 0
	for m in $(awk -v d="/dev/zram$ZRAM" '$1 == d { print $2 }' /proc/self/mounts); do
		umount "$m" 2>/dev/null || umount -l "$m" 2>/dev/null
	done
	echo 1 >"/sys/block/zram$ZRAM/reset" 2>/dev/null
	echo "$ZRAM" >/sys/class/zram-control/hot_remove 2>/dev/null
	ZRAM=""
}
trap 'zram_remove; t_cleanup' EXIT

# signature FILE: each phase that ran as "phase amount unit requests ops
# mismatches", then the run's verify and mismatches
signature() {
	python3 - "$1" <<'PY' 2>&1
import json, sys
r = json.load(open(sys.argv[1]))["runs"][-1]
for name, p in r["phases"].items():
    if not p["ran"]:
        continue
    ops = r"n/a"
    if p.get("series"):
        col = p["series"]["columns"].index("ops")
        ops = sum(row[col] for row in p["series"]["rows"])
    print(name, p["amount"], p["amount_unit"], p["latency_us"]["count"], ops, p.get("mismatches"))
print("verify", r["data"]["verify"], r["data"]["mismatches"], r["failure"] and r["failure"]["phase"])
PY
}

# run FS LABEL ENGINE DEPTH [ARGS]: clyde on FS; RC, and $W/LABEL.json, .err
run() {
	r_dir=$1 r_label=$2 r_engine=$3 r_depth=$4
	shift 4
	"$CLYDE" --engine="$r_engine" --iodepth="$r_depth" -d "$r_dir" $SIZE -z 46 \
		--json "$W/$r_label.json" "$@" >"$W/$r_label.out" 2>"$W/$r_label.err"
	RC=$?
}

# corrupt FS LABEL ENGINE DEPTH: a byte of io.0 changed while clyde waits
# before the block read: exit 6 expected
corrupt() {
	rm -f "$W/go"
	CLYDE_TEST_PAUSE=before-get_block CLYDE_TEST_RESUME=$W/go "$CLYDE" --engine="$3" \
		--iodepth="$4" --verify -d "$1" $SIZE -z 46 --json "$W/$2.json" \
		>"$W/$2.out" 2>"$W/$2.err" &
	cp=$!
	if wait_pause "$W/$2.err"; then
		flip_byte "$(ls "$1"/clyde.*/io.0)" 3000000 || fail "$2: could not change a byte of io.0"
	else
		fail "$2: clyde never paused before the block read"
	fi
	touch "$W/go"
	wait $cp
	RC=$?
	rm -f "$W/go"
}

compare() {
	fs=$1 dir=$2
	run "$dir" "$fs-psync" psync 1 --verify
	expect_eq "$fs: psync --verify exit 0" "$RC" 0
	run "$dir" "$fs-aio" aio 32 --verify
	expect_eq "$fs: aio --verify exit 0" "$RC" 0
	[ "$RC" = 0 ] || sed 's/^/    /' "$W/$fs-aio.err"
	run "$dir" "$fs-null" null 32
	expect_eq "$fs: null exit 0" "$RC" 0
	ps=$(signature "$W/$fs-psync.json")
	printf '%s\n' "$ps" | sed "s/^/    $fs psync: /"
	expect_match "$fs: psync's phases" "$(printf '%s\n' "$ps" | awk '{ print $1 }' | tr '\n' ' ')" \
		'^put_block rewrite get_block seeks verify $'
	expect_match "$fs: psync's clean --verify" "$(printf '%s\n' "$ps" | tail -n 1)" '^verify True 0 None$'
	expect_eq "$fs: aio's amounts, requests and --verify are psync's" "$(signature "$W/$fs-aio.json")" "$ps"
	# null: the counts, not the data (no --verify, its mismatches none)
	expect_eq "$fs: null's amounts and requests are psync's" \
		"$(signature "$W/$fs-null.json" | sed '$d' | cut -d' ' -f1-5)" \
		"$(printf '%s\n' "$ps" | sed '$d' | cut -d' ' -f1-5)"
	expect_empty_dir "$fs: clean runs left nothing" "$dir"

	corrupt "$dir" "$fs-psync-bad" psync 1
	expect_eq "$fs: psync, a changed byte: exit 6" "$RC" 6
	corrupt "$dir" "$fs-aio-bad" aio 32
	expect_eq "$fs: aio, a changed byte: exit 6" "$RC" 6
	ps=$(signature "$W/$fs-psync-bad.json")
	expect_match "$fs: psync's block read met the byte" "$(printf '%s\n' "$ps" | grep '^get_block ')" \
		' 1$'
	expect_eq "$fs: aio's mismatches are psync's" "$(signature "$W/$fs-aio-bad.json")" "$ps"
	expect_eq "$fs: aio names the byte as psync" \
		"$(grep '^clyde: verify: block read' "$W/$fs-aio-bad.err" | sed 's|clyde\.[A-Za-z0-9]*|D|')" \
		"$(grep '^clyde: verify: block read' "$W/$fs-psync-bad.err" | sed 's|clyde\.[A-Za-z0-9]*|D|')"
	expect_empty_dir "$fs: nothing left" "$dir"
}

# 1. tmpfs
scratch_dir
mount -t tmpfs -o size=96m clyde-test "$SCRATCH" || fail "cannot mount a tmpfs"
T_MOUNTS="$SCRATCH $T_MOUNTS"
compare tmpfs "$SCRATCH"

# 2. ext4 on zram
if ZRAM=$(cat /sys/class/zram-control/hot_add); then
	scratch_dir
	if echo 128M >"/sys/block/zram$ZRAM/disksize" && mkfs.ext4 -q -F "/dev/zram$ZRAM" &&
		mount "/dev/zram$ZRAM" "$SCRATCH"; then
		compare zram "$SCRATCH"
	else
		fail "cannot make ext4 on /dev/zram$ZRAM"
	fi
	zram_remove
else
	ZRAM=""
	fail "zram-control gave no device"
fi

# 3. ext4 on a loop device (direct I/O below where the kernel takes it)
if scratch_ext4 "$TMP/ext4.img"; then
	compare loop-ext4 "$SCRATCH"
else
	fail "cannot loop-mount an ext4 image"
fi
done_testing
