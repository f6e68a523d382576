#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# --profile against what the kernel's own counters must show, on
# filesystems made here on direct-I/O loop devices (tests/env/profile_btrfs.sh:
# btrfs's threads):
#  - ext4 with a 4 MiB journal and data=journal writes every block twice
#    (write amplification near 2), data=ordered once (near 1), for a file
#    32 times the journal's size.
. "$TESTLIB"
need_loops mkfs.ext4
. "$(dirname "$TESTLIB")/env/profile_loop_lib.sh"

# ext4, data=journal and data=ordered
for mode in journal ordered; do
	if ! loop_mkfs "$W/img" 512M mkfs.ext4 -q -F -J size=4 || ! mount -o data=$mode "$LOOP" "$W/mnt"; then
		fail "ext4 data=$mode: cannot make it"
		loop_detach
		continue
	fi
	"$CLYDE" -d "$W/mnt" -s 128:8192:500 -n 0 -f --profile --json "$W/e.json" >"$W/e.out" 2>"$W/e.err"
	expect_eq "ext4 data=$mode run" "$?" 0
	wa=$(field "$W/e.json" put_block 'p["device"]["write_amplification"]')
	case $mode in
	journal) expect_match "ext4 data=journal: WA near 2 ($wa)" "$wa" '^(1\.[89]|2\.[0-2])' ;;
	ordered) expect_match "ext4 data=ordered: WA near 1 ($wa)" "$wa" '^(0\.9[5-9]|1\.0|1\.1)' ;;
	esac
	expect_eq "ext4 data=$mode: the loop device is measured" \
		"$(field "$W/e.json" put_block 'p["device"]["names"]')" "['$(basename "$LOOP")']"
	expect_match "ext4 data=$mode: the device table" "$(grep -A2 '^Profile device:' "$W/e.out" | tail -n 1)" \
		'^Per-char write|^Block write +[0-9]+ +[0-9.]+ +[0-9]+ +[0-9.]+ +[0-9]+ +[0-9.]+ +[0-9.]+ +[0-9.]+ +-$'
	loop_detach
done

done_testing
