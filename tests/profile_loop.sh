#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# --profile against what the kernel's own counters must show, on
# filesystems made here on direct-I/O loop devices:
#  - btrfs with compress=zstd writing half-compressible data: a third or
#    more of block write's CPU is spent outside clyde's process, in btrfs's
#    threads, which the profile names;
#  - ext4 with a 4 MiB journal and data=journal writes every block twice
#    (write amplification near 2), data=ordered once (near 1), for a file
#    32 times the journal's size.
. "$TESTLIB"
need_loops mkfs.ext4
command -v python3 >/dev/null || skip "python3 is needed to read the JSON"

scratch_dir
W=$SCRATCH
LOOP=""
detach() {
	[ -n "$LOOP" ] && { umount "$W/mnt" 2>/dev/null; losetup -d "$LOOP"; }
	LOOP=""
	rm -f "$W/img"
}
trap 'detach; t_cleanup' EXIT
mkdir "$W/mnt"

# mkloop SIZE MKFS...: a filesystem on a fresh direct-I/O loop device at $W/mnt
mkloop() {
	size=$1
	shift
	truncate -s "$size" "$W/img" && LOOP=$(losetup --direct-io=on -f --show "$W/img") &&
		"$@" "$LOOP" >/dev/null 2>&1
}

# field JSON PHASE PYTHON-EXPRESSION-OF-p: a value of the phase's profile
field() {
	python3 -c 'import json,sys; p=json.load(open(sys.argv[1]))["runs"][0]["phases"][sys.argv[2]]["profile"]; print(eval(sys.argv[3]))' "$1" "$2" "$3"
}

# 1. btrfs, zstd
if command -v mkfs.btrfs >/dev/null 2>&1 && mkloop 2G mkfs.btrfs -q -f &&
	mount -o compress=zstd "$LOOP" "$W/mnt"; then
	"$CLYDE" -d "$W/mnt" -s 768:8192:500 -n 0 -f --data=compressible:50 --profile \
		--json "$W/b.json" >"$W/b.out" 2>"$W/b.err"
	expect_eq "btrfs zstd run" "$?" 0
	frac=$(field "$W/b.json" put_block 'p["outside_fraction"]')
	expect_match "btrfs zstd: block write's CPU outside clyde ($frac)" "$frac" '^0\.(3[3-9]|[4-9])'
	share=$(field "$W/b.json" put_block 'round(p["groups"]["filesystem_s"] / p["outside_s"], 2)')
	expect_match "btrfs zstd: a quarter or more of that in btrfs's threads ($share)" "$share" '^(0\.(2[5-9]|[3-9])|1\.)'
	expect_match "btrfs zstd: the where line names btrfs's threads" \
		"$(grep '^Profile where: Block write' "$W/b.out")" 'btrfs-[a-z-]+ [0-9.]+ \(filesystem\)'
	expect_eq "btrfs: the device found from the mount source" \
		"$(field "$W/b.json" put_block 'p["device"]["via"]')" "the mount source"
	# half the data is zeros and zstd squeezes it: fewer bytes reach the device than were written
	wa=$(field "$W/b.json" put_block 'p["device"]["write_amplification"]')
	expect_match "btrfs zstd: compression shows as write amplification below 1 ($wa)" "$wa" '^0\.'
else
	echo "btrfs: not tested (no mkfs.btrfs or no btrfs in this kernel)"
fi
detach

# 2. ext4, data=journal and data=ordered
for mode in journal ordered; do
	if ! mkloop 512M mkfs.ext4 -q -F -J size=4 || ! mount -o data=$mode "$LOOP" "$W/mnt"; then
		fail "ext4 data=$mode: cannot make it"
		detach
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
	detach
done

[ "$T_FAILS" = 0 ]
