#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# --profile on btrfs with compress=zstd, made here on a direct-I/O loop
# device, writing half-compressible data: a large part of block write's
# CPU is spent outside clyde's process, in btrfs's threads, which the
# profile names; fewer bytes reach the device than were written. Its own
# test (not a case of tests/env/profile_loop.sh) so that a machine without
# btrfs skips it, counted.
. "$TESTLIB"
need_loops mkfs.btrfs
. "$(dirname "$TESTLIB")/env/profile_loop_lib.sh"

# a 2 GiB btrfs: mkfs.btrfs failing is a failure, the kernel refusing to
# mount it a skip (no btrfs in this kernel), each with what it said
if ! loop_mkfs "$W/img" 2G mkfs.btrfs -q -f; then
	fail "a loop device with mkfs.btrfs -q -f on $W/img (above)"
	done_testing
fi
mount -o compress=zstd "$LOOP" "$W/mnt" 2>"$W/mount.err" ||
	skip "cannot mount btrfs (no btrfs in this kernel?): $(cat "$W/mount.err")"

"$CLYDE" -d "$W/mnt" -s 768:8192:500 -n 0 -f --data=compressible:50 --profile \
	--json "$W/b.json" >"$W/b.out" 2>"$W/b.err"
rc=$?
expect_eq "btrfs zstd run" "$rc" 0
[ $rc = 0 ] || { sed 's/^/    /' "$W/b.err"; done_testing; }
# 51% to 65% measured on an idle machine (DESIGN.md); a quarter or more
# leaves room for a busy one, and is still far from ext4's 4-7%
frac=$(field "$W/b.json" put_block 'p["outside_fraction"]')
expect_match "btrfs zstd: block write's CPU outside clyde ($frac)" "$frac" '^0\.(2[5-9]|[3-9])'
share=$(field "$W/b.json" put_block 'round(p["groups"]["filesystem_s"] / p["outside_s"], 2)')
expect_match "btrfs zstd: a quarter or more of that in btrfs's threads ($share)" "$share" '^(0\.(2[5-9]|[3-9])|1\.)'
expect_match "btrfs zstd: the where line names btrfs's threads" \
	"$(grep '^Profile where: Block write' "$W/b.out")" 'btrfs-[a-z-]+ [0-9.]+ \(filesystem\)'
expect_eq "btrfs: the device found from the mount source" \
	"$(field "$W/b.json" put_block 'p["device"]["via"]')" "the mount source"
# half the data is zeros and zstd squeezes it: fewer bytes reach the device than were written
wa=$(field "$W/b.json" put_block 'p["device"]["write_amplification"]')
expect_match "btrfs zstd: compression shows as write amplification below 1 ($wa)" "$wa" '^0\.'
loop_detach
expect_eq "no loop device left on the image" "$(losetup -a | grep -F "$W/")" ""
done_testing
