#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# clyde-zcav -w writes the descriptor its guard opened and checked, on a
# loop device: a symlink to the device (as /dev/disk/by-id names are) is
# followed and written; swapped for a symlink to a regular file while
# clyde-zcav waits between its check and its sweep (CLYDE_TEST_PAUSE=
# zcav_write), the file stays as it was and the device is written; the
# device cannot be mounted meanwhile (held with O_EXCL); a mounted device
# named through a symlink is refused; -r and -s write only blocks inside
# -r's MiB, the rest of the device as it was; the device named twice (by
# its name and a link) is refused. About 5 s.
. "$TESTLIB"
need_loops mkfs.ext4 blockdev
. "$(dirname "$TESTLIB")/env/zcav_lib.sh"
scratch_dir
W=$SCRATCH

if ! loop_mkfs "$W/img" 64M true; then
	fail "a 64 MiB loop device"
	done_testing
fi
# the device's bytes, past the page cache
device_bytes() { dd if="$LOOP" of="$1" bs=1M iflag=direct status=none; }
# same_mib A B FROM TO: MiB FROM to TO of files A and B hold the same bytes
same_mib() { cmp -s -i $(($3 * 1048576)):$(($3 * 1048576)) -n $((($4 - $3) * 1048576)) "$1" "$2"; }
# zero_mib FILE FROM TO: MiB FROM to TO of FILE are zeros
zero_mib() { cmp -s -i $(($2 * 1048576)):0 -n $((($3 - $2) * 1048576)) "$1" /dev/zero; }

# 1. a symlink to the device, swapped for one to a regular file after the check
mkfs.ext4 -q -F "$LOOP" >/dev/null 2>&1
head -c $((8 * 1048576)) /dev/urandom >"$W/victim"
cp "$W/victim" "$W/victim.orig"
ln -s "$LOOP" "$W/by-id"
mkdir "$W/mnt"
: >"$W/race.err"
CLYDE_TEST_PAUSE=zcav_write CLYDE_TEST_RESUME=$W/go "$ZCAV" -w --force -b 8 "$W/by-id" \
	>"$W/o" 2>"$W/race.err" &
pid=$!
if wait_pause "$W/race.err"; then
	if mount "$LOOP" "$W/mnt" 2>/dev/null; then
		fail "the device was mounted while clyde-zcav held it to write"
		umount "$W/mnt"
	else
		ok
	fi
	ln -sfn "$W/victim" "$W/by-id"
	touch "$W/go"
else
	fail "-w: never paused between its check and its sweep: $(cat "$W/race.err")"
	kill $pid
fi
wait $pid
expect_eq "-w --force through a symlink to the device: exit status" "$?" 0
expect_file_has "-w --force through a symlink: names the ext4 it writes over" "$W/race.err" \
	"writing zeros over its signature: "
expect_file_has "-w --force through a symlink: says how much and where" "$W/race.err" \
	"writing zeros over 64 MiB: 8 blocks of 8 MiB, from MiB 0 to MiB 64; the last byte written is at offset 67108863"
check "the symlink swapped to a regular file after the check: the file untouched" \
	cmp -s "$W/victim" "$W/victim.orig"
device_bytes "$W/after"
check "the device the guard checked was written: every byte zero" \
	cmp -s -n $((64 * 1048576)) "$W/after" /dev/zero

# 2. a mounted device, named through a symlink: refused even with --force
mkfs.ext4 -q -F "$LOOP" >/dev/null 2>&1
ln -sfn "$LOOP" "$W/by-id"
if mount "$LOOP" "$W/mnt"; then
	"$ZCAV" -w --force -b 8 "$W/by-id" >"$W/o" 2>"$W/e"
	expect_eq "-w --force on a mounted device through a symlink: refused (3)" "$?" 3
	expect_file_has "-w --force on a mounted device: names the mount" "$W/e" \
		"mounted: $LOOP (ext4) at $W/mnt"
	umount "$W/mnt"
else
	fail "cannot mount the loop device's ext4"
fi
check "-w refused on the mounted device: the ext4 still there" \
	sh -c "blkid -p '$LOOP' | grep -q ext4"

# 3. -r and -s on the device: blocks of 4 MiB inside MiB 8 to 40, every third
dd if=/dev/urandom of="$LOOP" bs=1M count=64 oflag=direct status=none
device_bytes "$W/before"
"$ZCAV" -w --force -r 8:40 -b 4 -s 3 "$W/by-id" >"$W/o" 2>"$W/e"
expect_eq "-w -r 8:40 -b 4 -s 3: exit status" "$?" 0
expect_file_has "-w -r 8:40 -b 4 -s 3: says what it writes" "$W/e" \
	"writing zeros over 12 MiB: 3 blocks of 4 MiB, every 3rd block, from MiB 8 to MiB 36; the last byte written is at offset 37748735"
device_bytes "$W/after"
check "-w -r 8:40 -s 3: MiB 0-8 as they were" same_mib "$W/after" "$W/before" 0 8
for r in "8 12" "20 24" "32 36"; do
	set -- $r
	check "-w -r 8:40 -s 3: MiB $1-$2 zeros" zero_mib "$W/after" "$1" "$2"
done
for r in "12 20" "24 32" "36 64"; do
	set -- $r
	check "-w -r 8:40 -s 3: MiB $1-$2 as they were" same_mib "$W/after" "$W/before" "$1" "$2"
done

# 4. the device and a link to it, both named: refused, nothing written
device_bytes "$W/before"
"$ZCAV" -w --force -b 8 -l /dev/null "$LOOP" -l /dev/null "$W/by-id" >"$W/o" 2>"$W/e"
expect_eq "-w --force on the device and a link to it: refused (3)" "$?" 3
expect_file_has "-w --force on the device twice: says so" "$W/e" \
	"$W/by-id: refused: an earlier target is the same device or file"
device_bytes "$W/after"
check "-w --force on the device twice: nothing written" cmp -s "$W/after" "$W/before"
done_testing
