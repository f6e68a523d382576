#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# clyde-zcav on a loop device and on a regular file, beside bonnie++'s zcav
# on the same ones: every line is one of zcav's, the same lines in the same
# order with the same block offsets (-b, -c, -s, -r; the rates differ: zcav
# reads through the page cache); --json's identity is the device's; and -w:
# refused without --force (a signature named), refused even with --force on
# a mounted device, swap, a device held open exclusively and a file behind a
# loop device, and with --force on a scratch device it writes zeros that a
# read pass then finds. About 10 s.
. "$TESTLIB"
need_loops mkfs.ext4 blkid blockdev
need_python3 "to read the JSON"
. "$(dirname "$TESTLIB")/env/zcav_lib.sh"
[ -n "$REAL_ZCAV" ] || skip "bonnie++'s zcav not found (the bonnie++ package)"
scratch_dir
W=$SCRATCH
HOLDER=""
trap '[ -n "$HOLDER" ] && kill "$HOLDER" 2>/dev/null; swapoff "${LOOP:-/nonexistent}" 2>/dev/null; t_cleanup' EXIT

SIZE=$((64 * 1048576))
if ! loop_mkfs "$W/img" 64M true; then
	fail "a 64 MiB loop device"
	done_testing
fi
dd if=/dev/urandom of="$LOOP" bs=1M count=64 oflag=direct status=none

# The kinds of lines in order, numbers that differ between runs taken out:
# H header, B block (a rate or ++++, and its offset), R "# Read" (its megs), L "#loops".
shape() {
	awk '/^#block offset/ { print "H"; next }
	/^#?[0-9]+\.[0-9][0-9] / { sub(/^#/, ""); print "B", $1; next }
	/^# Read / { print "R", $3; next }
	{ print "L", $0 }' "$1"
}

# same_as_zcav WHAT TARGET ARGS...: clyde-zcav and zcav with ARGS on TARGET
same_as_zcav() {
	what=$1 target=$2
	shift 2
	"$ZCAV" "$@" "$target" >"$W/c.out" 2>"$W/c.err"
	expect_eq "$what: clyde-zcav's exit status" "$?" 0
	"$REAL_ZCAV" "$@" "$target" >"$W/z.out" 2>"$W/z.err"
	expect_eq "$what: zcav's exit status" "$?" 0
	check "$what: every line of clyde-zcav's is one of zcav's" zcav_lines "$W/c.out"
	check "$what: every line of zcav's own output passes the same check" zcav_lines "$W/z.out"
	shape "$W/c.out" >"$W/c.shape"
	shape "$W/z.out" >"$W/z.shape"
	if cmp -s "$W/c.shape" "$W/z.shape"; then
		ok
	else
		fail "$what: not zcav's lines and offsets (diff zcav clyde-zcav):"
		diff "$W/z.shape" "$W/c.shape" | head -n 10 | sed 's/^/    /'
	fi
}

same_as_zcav "-b 4 on the loop device" "$LOOP" -b 4
expect_eq "-b 4: 16 blocks" "$(zcav_offsets "$W/c.out" | wc -l | tr -d ' ')" 16
expect_eq "-b 4: the header first" "$(head -n 1 "$W/c.out")" "#block offset (GiB), MiB/s, time"
expect_match "-b 4: says O_DIRECT and the engine" "$(cat "$W/c.err")" "O_DIRECT.*engine psync"
same_as_zcav "-c 3 -b 8" "$LOOP" -c 3 -b 8
expect_eq "-c 3: three passes, then #loops: 3, the header and 8 means" \
	"$(tr '\n' ' ' <"$W/c.shape" | sed 's/B [0-9.]* /B /g')" "R 64 R 64 R 64 L #loops: 3 H B B B B B B B B "
same_as_zcav "-s 2 -b 8" "$LOOP" -s 2 -b 8
expect_eq "-s 2 -b 8: every other block" "$(zcav_offsets "$W/c.out" | tr '\n' ' ')" "0.00 0.02 0.03 0.05 "
# zcav counts the megs of -r from 0 (48 here); clyde-zcav counts those it read
"$ZCAV" -r 16:48 -b 8 "$LOOP" >"$W/c.out" 2>"$W/c.err"
"$REAL_ZCAV" -r 16:48 -b 8 "$LOOP" >"$W/z.out" 2>"$W/z.err"
expect_eq "-r 16:48 -b 8: zcav's offsets" "$(zcav_offsets "$W/c.out" | tr '\n' ' ')" \
	"$(zcav_offsets "$W/z.out" | tr '\n' ' ')"
expect_file_has "-r 16:48 -b 8: the 32 MiB read" "$W/c.out" "# Read 32 megs in "

# a regular file (on the scratch directory's file system)
dd if=/dev/urandom of="$W/file" bs=1M count=24 status=none
same_as_zcav "-b 2 on a regular file" "$W/file" -b 2
expect_eq "the file: 12 blocks" "$(zcav_offsets "$W/c.out" | wc -l | tr -d ' ')" 12
# standard input, as zcav reads it
"$ZCAV" -b 4 - <"$W/file" >"$W/c.out" 2>"$W/c.err"
expect_eq "standard input: exit status" "$?" 0
expect_eq "standard input: 6 blocks" "$(zcav_offsets "$W/c.out" | wc -l | tr -d ' ')" 6

# --json: every block, and the device's identity
"$ZCAV" -b 4 --json "$W/j.json" "$LOOP" >"$W/c.out" 2>"$W/c.err"
expect_eq "--json: exit status" "$?" 0
python3 - "$W/j.json" "$(basename "$LOOP")" "$(blockdev --getss "$LOOP")" \
	"$(blockdev --getpbsz "$LOOP")" >"$W/py.out" 2>&1 <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["schema"] == "clyde-zcav/1", d["schema"]
t = d["targets"][0]
i = t["identity"]
assert i["kind"] == "block device" and i["name"] == sys.argv[2], i
assert i["logical_block_size"] == int(sys.argv[3]), i
assert i["physical_block_size"] == int(sys.argv[4]), i
assert isinstance(i["rotational"], bool) and i["nr_requests"] > 0, i
assert t["direct"] is True and t["engine"] == "psync", t
assert t["size"] == 64 << 20, t["size"]
b = t["passes"][0]["blocks"]
assert [x["offset"] for x in b] == [k << 22 for k in range(16)], [x["offset"] for x in b]
for x in b:
    l = x["latency_us"]
    assert 0 < l["min"] <= l["p50"] <= l["p99"] <= l["max"], l
    assert abs(x["mib_s"] - 4 / x["seconds"]) <= 1e-6 * x["mib_s"], x
    assert l["max"] <= x["seconds"] * 1e6 * 1.01, x
print("ok")
EOF
if [ "$(tail -n 1 "$W/py.out")" = ok ]; then ok; else fail "--json:"; sed 's/^/    /' "$W/py.out"; fi

# --iodepth above 1: io_uring where built (auto), the same blocks
"$ZCAV" -b 4 --iodepth 8 --json "$W/u.json" "$LOOP" >"$W/c.out" 2>"$W/c.err"
rc=$?
if grep -q "not built" "$W/c.err"; then
	expect_eq "--iodepth 8 without io_uring built: a usage error" "$rc" 1
else
	expect_eq "--iodepth 8: exit status" "$rc" 0
	expect_match "--iodepth 8: says io_uring at depth 8" "$(cat "$W/c.err")" "engine uring .*depth 8"
	expect_eq "--iodepth 8: 16 blocks, uring in the JSON" \
		"$(python3 -c 'import json, sys; t = json.load(open(sys.argv[1]))["targets"][0]; print(t["engine"], len(t["passes"][0]["blocks"]))' "$W/u.json")" \
		"uring 16"
fi

# -w: never without --force
first_mib() { dd if="$LOOP" bs=1M count=1 iflag=direct status=none | od -An -tx1 | tr -d ' \n*' | tr -d 0; }
"$ZCAV" -w -b 8 "$LOOP" >"$W/c.out" 2>"$W/c.err"
expect_eq "-w without --force: refused (3)" "$?" 3
expect_file_has "-w without --force: says so" "$W/c.err" "refused without --force"
check "-w without --force: the data still there" test -n "$(first_mib)"
# a filesystem's signature is named
mkfs.ext4 -q -F "$LOOP" >/dev/null 2>&1
"$ZCAV" -w -b 8 "$LOOP" >"$W/c.out" 2>"$W/c.err"
expect_eq "-w over ext4 without --force: refused (3)" "$?" 3
expect_file_has "-w over ext4 without --force: names it" "$W/c.err" "TYPE=ext4"
# mounted: refused even with --force
mkdir "$W/mnt"
if mount "$LOOP" "$W/mnt"; then
	"$ZCAV" -w --force -b 8 "$LOOP" >"$W/c.out" 2>"$W/c.err"
	expect_eq "-w --force on a mounted device: refused (3)" "$?" 3
	expect_file_has "-w --force on a mounted device: names the mount" "$W/c.err" "mounted: $LOOP (ext4) at $W/mnt"
	umount "$W/mnt"
else
	fail "cannot mount the loop device's ext4"
fi
check "-w refused: the ext4 still there" sh -c "blkid -p '$LOOP' | grep -q ext4"
# swap: refused even with --force
if mkswap "$LOOP" >/dev/null 2>&1 && swapon "$LOOP" 2>/dev/null; then
	"$ZCAV" -w --force -b 8 "$LOOP" >"$W/c.out" 2>"$W/c.err"
	expect_eq "-w --force on swap: refused (3)" "$?" 3
	expect_file_has "-w --force on swap: says so" "$W/c.err" "in use as swap: $LOOP"
	swapoff "$LOOP"
else
	echo "note: swapon refused here: the swap case not run"
fi
# held open exclusively by another: refused even with --force
python3 -c 'import os, sys, time; fd = os.open(sys.argv[1], os.O_RDONLY | os.O_EXCL); print("held", flush=True); time.sleep(60)' \
	"$LOOP" >"$W/hold.out" &
HOLDER=$!
i=0
until grep -q held "$W/hold.out" 2>/dev/null || [ $i -ge 100 ]; do sleep 0.05; i=$((i + 1)); done
"$ZCAV" -w --force -b 8 "$LOOP" >"$W/c.out" 2>"$W/c.err"
expect_eq "-w --force on a device held open exclusively: refused (3)" "$?" 3
expect_file_has "-w --force on a held device: says so" "$W/c.err" "O_EXCL open: EBUSY"
kill "$HOLDER"
wait "$HOLDER" 2>/dev/null
HOLDER=""
# the file behind the loop device: refused even with --force
"$ZCAV" -w --force -b 8 "$W/img" >"$W/c.out" 2>"$W/c.err"
expect_eq "-w --force on a loop device's backing file: refused (3)" "$?" 3
expect_file_has "-w --force on a backing file: names the loop device" "$W/c.err" "attached to $LOOP"

# --force on the scratch device: zeros, over its (swap) signature, said; then a read pass
"$ZCAV" -w --force -b 8 "$LOOP" >"$W/c.out" 2>"$W/c.err"
expect_eq "-w --force: exit status" "$?" 0
expect_file_has "-w --force: says what it writes over" "$W/c.err" "writing zeros over"
check "-w --force: every line one of zcav's" zcav_lines "$W/c.out"
expect_file_has "-w --force: all 64 MiB" "$W/c.out" "# Read 64 megs in"
"$ZCAV" -b 8 "$LOOP" >"$W/c.out" 2>"$W/c.err"
expect_eq "the read pass after it: exit status" "$?" 0
expect_eq "the read pass after it: 8 blocks" "$(zcav_offsets "$W/c.out" | wc -l | tr -d ' ')" 8
check "every byte of the device is zero after -w" cmp -s -n $SIZE "$LOOP" /dev/zero
check "and blkid finds no signature" sh -c "! blkid -p '$LOOP' >/dev/null 2>&1"
done_testing
