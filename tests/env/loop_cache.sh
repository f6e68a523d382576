#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# A filesystem on a loop device that reads its backing file through the
# page cache (direct I/O off, what mount -o loop makes): the file's pages
# stay cached below the loop, where the drop of the test file does not
# reach, and the read phases may read the cache. clyde names the loop's
# backing file and direct I/O in its environment line and JSON
# (device.loop), measures the backing file's residency before each read
# phase (backing_cache), and warns with the fix; after that fix
# (losetup --direct-io=on on the same device) it says direct I/O is on
# and warns of nothing. Attacked: the backing file's path made to name a
# FIFO (a mount over its directory) holds no run up.
. "$TESTLIB"
need_loops mkfs.ext4 mkfifo timeout
need_python3 "to read the JSON"
private_mounts "$@"
scratch_dir
W=$SCRATCH
mkdir "$W/mnt" "$W/imgdir"
IMG=$W/imgdir/img

# a plain loop device, as mount -o loop makes it: no direct I/O
truncate -s 256M "$IMG" || skip "truncate failed"
LOOP=$(losetup -f --show "$IMG") || skip "losetup $IMG failed"
T_LOOPS="$T_LOOPS $LOOP=$IMG"
DEV=$(basename "$LOOP")
expect_eq "a plain loop device reads through the page cache" "$(cat "/sys/block/$DEV/loop/dio")" 0
mkfs.ext4 -q -F "$LOOP" >"$W/mkfs" 2>&1 && mount "$LOOP" "$W/mnt" || skip "mkfs.ext4 or mount on $LOOP failed"

# run NAME: clyde writes and reads a 32 MiB file on $W/mnt
run() {
	timeout 300 "$CLYDE" -d "$W/mnt" -s 32M -n 0 -f --json "$W/$1.json" >"$W/$1.out" 2>"$W/$1.err"
	expect_eq "$1: the run" "$?" 0
}
# j NAME PYTHON-EXPRESSION-OF-r: a value of the run's JSON
j() {
	python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))["runs"][0]; print(eval(sys.argv[2]))' \
		"$W/$1.json" "$2"
}

run off
expect_file_has "direct I/O off: the warning names the cache below the loop" "$W/off.err" \
	"clyde: WARNING: $DEV is a loop device without direct I/O: the pages of its backing file $IMG sit in the page cache below the loop"
expect_file_has "and the fix" "$W/off.err" "losetup --direct-io=on /dev/$DEV"
# consumers that read 2>&1 take a line with a comma for CSV (tests/cli/consumers.sh)
check "no comma on stderr" sh -c '! grep -q , "$1"' - "$W/off.err"
expect_match "the environment line: the backing file, direct I/O off, its residency" \
	"$(grep '^environment: ' "$W/off.err")" \
	"; device $DEV .*; loop over $IMG with direct I/O off: up to [0-9.]+ [KMG]iB \\([0-9.]+%\\) of it resident before reads$"
expect_eq "the JSON's device.loop" "$(j off 'r["device"]["loop"]["backing_file"], r["device"]["loop"]["direct_io"]')" \
	"('$IMG', False)"
# the block write's 32 MiB went through the loop into the backing file's pages
for ph in get_block seeks; do
	expect_eq "$ph: the backing file was resident before it (what was written)" \
		"$(j off 'r["phases"]["'$ph'"]["backing_cache"]["resident_bytes"] >= 16 << 20, r["phases"]["'$ph'"]["backing_cache"]["file_bytes"]')" \
		"(True, 268435456)"
done
expect_eq "the worst of them in device.loop" \
	"$(j off 'r["device"]["loop"]["backing_resident_worst_bytes"] == max(p["backing_cache"]["resident_bytes"] for p in r["phases"].values() if "backing_cache" in p)')" True
# what the residency is measured with agrees with the kernel's own count, from outside
if command -v fincore >/dev/null 2>&1; then
	now=$(fincore -b -n -o RES "$IMG" | tr -d ' ')
	expect_eq "the backing file is still cached after the run (fincore: $now bytes)" \
		"$([ "$now" -ge $((16 << 20)) ] && echo yes)" yes
fi

# the backing file's path names a FIFO now (a mount over its directory; the
# loop keeps its file): the run goes on, the residency unknown, not hung
mkdir "$W/evil" && mkfifo "$W/evil/img" && mount --bind "$W/evil" "$W/imgdir" ||
	skip "cannot put a FIFO at $IMG (mount --bind)"
T_MOUNTS="$W/imgdir $T_MOUNTS"
run fifo
expect_file_has "a FIFO at the path: still warned of" "$W/fifo.err" "clyde: WARNING: $DEV is a loop device"
expect_eq "and its residency unknown: no regular file" \
	"$(j fifo 'r["phases"]["get_block"]["backing_cache"]["resident_pct"], r["phases"]["get_block"]["backing_cache"]["why"], r["device"]["loop"]["backing_resident_worst_pct"]')" \
	"(None, 'not a regular file', None)"
expect_match "the environment line says so" "$(grep '^environment: ' "$W/fifo.err")" \
	"; loop over $IMG with direct I/O off: its residency unknown$"
umount "$W/imgdir"

# the fix the warning gives, on the same device, mounted
losetup --direct-io=on "$LOOP" 2>"$W/dio.err" ||
	skip "losetup --direct-io=on $LOOP refused here: $(cat "$W/dio.err")"
expect_eq "direct I/O on" "$(cat "/sys/block/$DEV/loop/dio")" 1
run on
check "direct I/O on: no warning" sh -c '! grep -q "WARNING" "$1"' - "$W/on.err"
expect_match "the environment line says direct I/O is on" "$(grep '^environment: ' "$W/on.err")" \
	"; loop over $IMG with direct I/O on$"
expect_eq "the JSON's device.loop: direct I/O, no residency to give" \
	"$(j on 'r["device"]["loop"]["direct_io"], r["device"]["loop"]["backing_resident_worst_pct"]')" "(True, None)"
expect_eq "and no phase measured the backing file" \
	"$(j on 'sum("backing_cache" in p for p in r["phases"].values())')" 0
loop_detach
done_testing
