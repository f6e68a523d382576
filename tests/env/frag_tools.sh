#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Fragmentation measured, not assumed (issue 44): clyde's figures against
# the filesystems' own tools, on loop filesystems fragmented by the test
# (fragment_fs, tests/env/frag_lib.sh: filled with 64 KiB files, every
# other one removed, so that the free space is thousands of holes and a
# big file written after lands in many of them).
#   ext4: the free space's pieces at the run's start against e2freefrag's
#   "Num. free extent", taken while clyde waits before its block write
#   (CLYDE_TEST_PAUSE=before-put_block); the test file's extents after the
#   block write against filefrag's "N extents found" (after-put_block).
#   XFS: the same against xfs_spaceman's freesp and filefrag.
# btrfs: the test file's extents against filefrag; it has no GETFSMAP,
# which the JSON says (checked).
. "$TESTLIB"
need_loops mkfs.ext4 mkfs.xfs
need_cmd filefrag "filefrag (e2fsprogs)"
need_cmd e2freefrag "e2freefrag (e2fsprogs)"
need_cmd xfs_spaceman "xfs_spaceman (xfsprogs)"
need_python3 "to read the JSON"
need_built "$CLYDE"
. "$(dirname "$TESTLIB")/env/frag_lib.sh"
need_tmpfs 2000M
W=$SCRATCH

# jget FILE EXPR: a figure of the run's fragmentation (d) from clyde's JSON
jget() {
	python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))["runs"][0]["fragmentation"]
print(eval(sys.argv[2]))' "$1" "$2"
}

# one FS MKFS...: a fragmented loop FS; clyde paused before and after its
# block write while the tools look; its JSON at W/FS.json
one() {
	fs=$1
	shift
	mkdir -p "$W/$fs"
	if ! loop_mkfs "$W/$fs.img" 600M "$@" || ! mount "$LOOP" "$W/$fs"; then
		fail "$fs: cannot make a loop filesystem"
		return 1
	fi
	# btrfs: 80% full, short of its metadata's own ENOSPC
	fragment_fs "$W/$fs" 64 "$([ "$fs" = btrfs ] && echo 80 || echo 100)" ||
		{ fail "$fs: fragment_fs failed"; return 1; }
	rm -f "$W/go"
	CLYDE_TEST_PAUSE=before-put_block:after-put_block CLYDE_TEST_RESUME=$W/go \
		"$CLYDE" -d "$W/$fs" -s 96m:512k -n 0 -f -r 32m --json "$W/$fs.json" \
		>"$W/$fs.out" 2>"$W/$fs.err" &
	pid=$!
	if ! wait_pause "$W/$fs.err" 1; then
		fail "$fs: clyde never paused before its block write"
		kill $pid
		wait $pid
		return 1
	fi
	case $fs in
	ext4) e2freefrag "$LOOP" >"$W/$fs.free" 2>&1
	      FREE=$(awk '/Num. free extent/ { print $NF }' "$W/$fs.free") ;;
	xfs) xfs_spaceman -c 'freesp -s' "$W/$fs" >"$W/$fs.free" 2>&1
	     FREE=$(awk '/total free extents/ { print $4 }' "$W/$fs.free") ;;
	*) FREE="-" ;;
	esac
	touch "$W/go"
	wait_pause "$W/$fs.err" 2 || fail "$fs: clyde never paused after its block write"
	FILE=$(find "$W/$fs" -name 'io.0' -type f)
	EXTENTS=$(filefrag "$FILE" | sed -n 's/.*: \([0-9]*\) extents\{0,1\} found$/\1/p')
	filefrag -v "$FILE" >"$W/$fs.filefrag" 2>&1
	touch "$W/go"
	wait $pid
	expect_eq "$fs: clyde's exit status" "$?" 0
	echo "$fs: free space $FREE pieces by its tool, $(jget "$W/$fs.json" 'd["fresh"]["free_space"].get("pieces", "-")') by clyde; test file $EXTENTS extents by filefrag, $(jget "$W/$fs.json" 'd["test_file"]["extents"]') by clyde"
}

one ext4 mkfs.ext4 -q -F
expect_eq "ext4: free space pieces against e2freefrag (GETFSMAP, records that touch merged)" \
	"$(jget "$W/ext4.json" 'd["fresh"]["free_space"]["pieces"]')" "$FREE"
expect_eq "ext4: the test file's extents against filefrag" \
	"$(jget "$W/ext4.json" 'd["test_file"]["runs"]')" "$EXTENTS"
N=$(jget "$W/ext4.json" 'd["test_file"]["extents"]')
check "ext4: the test file is fragmented (more than 100 extents: $N)" [ "$N" -gt 100 ]
# every extent of the map is one of filefrag's: its physical block and length
jget "$W/ext4.json" '"\n".join("%d %d" % (p // 4096, n // 4096) for l, p, n in d["test_file"]["map"])' \
	>"$W/ext4.map"
awk '$1 ~ /^[0-9]+:$/ { sub(/\.\..*/, "", $4); sub(/:$/, "", $4); n = $6; sub(/:$/, "", n); print $4, n }' \
	"$W/ext4.filefrag" >"$W/ext4.ffmap"
check "ext4: the map's physical blocks and lengths are filefrag's" cmp "$W/ext4.map" "$W/ext4.ffmap"
expect_match "ext4: the context line on stderr" "$(cat "$W/ext4.err")" \
	"Fragmentation: test file 96.0 MiB in $N extents"
check "ext4: nothing of it on stdout" sh -c "! grep -q Fragmentation '$W/ext4.out'"

one xfs mkfs.xfs -q -f
expect_eq "xfs: free space pieces against xfs_spaceman freesp" \
	"$(jget "$W/xfs.json" 'd["fresh"]["free_space"]["pieces"]')" "$FREE"
expect_eq "xfs: the test file's extents against filefrag" \
	"$(jget "$W/xfs.json" 'd["test_file"]["runs"]')" "$EXTENTS"
N=$(jget "$W/xfs.json" 'd["test_file"]["extents"]')
check "xfs: the test file is fragmented (more than 100 extents: $N)" [ "$N" -gt 100 ]

# btrfs: FIEMAP tells the file's extents; no GETFSMAP, said so
if command -v mkfs.btrfs >/dev/null 2>&1 && grep -qw btrfs /proc/filesystems; then
	one btrfs mkfs.btrfs -q -f
	expect_eq "btrfs: the test file's extents against filefrag" \
		"$(jget "$W/btrfs.json" 'd["test_file"]["runs"]')" "$EXTENTS"
	expect_eq "btrfs: free space not measured" \
		"$(jget "$W/btrfs.json" 'd["fresh"]["free_space"]["measured"]')" False
	expect_eq "btrfs: why" "$(jget "$W/btrfs.json" 'd["fresh"]["free_space"]["why"]')" \
		"btrfs has no GETFSMAP"
else
	echo "btrfs: not here (no mkfs.btrfs or no btrfs in the kernel)"
fi

# tmpfs: no FIEMAP, no GETFSMAP: not measured, and why
mkdir "$W/t"
mount -t tmpfs -o size=200m clyde-test "$W/t" && T_MOUNTS="$W/t $T_MOUNTS"
"$CLYDE" -d "$W/t" -s 16m:512k -n 0 -f -r 8m --json "$W/t.json" >/dev/null 2>"$W/t.err"
expect_eq "tmpfs: the test file not measured" "$(jget "$W/t.json" 'd["test_file"]["measured"]')" False
expect_match "tmpfs: why" "$(jget "$W/t.json" 'd["test_file"]["why"]')" "tmpfs has no FIEMAP"
expect_match "tmpfs: free space why" "$(jget "$W/t.json" 'd["fresh"]["free_space"]["why"]')" \
	"tmpfs has no GETFSMAP"
done_testing
