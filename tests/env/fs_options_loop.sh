#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# The filesystem's own options, which the mount's do not show, in clyde's
# filesystem line, its JSON (filesystem.super_options) and clyde-report's
# history (fs_super_options), on filesystems made here on loop devices:
# ext4 mounted with data=journal, and btrfs with compress=zstd:3 where
# mkfs.btrfs is installed. On Linux these options are only in the last
# field of /proc/self/mountinfo: "rw,relatime" is all the mount's say.
. "$TESTLIB"
need_loops mkfs.ext4
need_python3 "to read the JSON"
scratch_dir
W=$SCRATCH
mkdir "$W/mnt"

# one FS OPTION: clyde on $W/mnt, whose mount was given OPTION; its text,
# JSON and a history of it all name OPTION
one() {
	"$CLYDE" -d "$W/mnt" -s 0 -n 1 -m "$1" --json "$W/$1.json" >"$W/$1.out" 2>"$W/$1.err"
	expect_eq "$1: the run" "$?" 0
	expect_match "$1: the filesystem line names $2" "$(grep '^filesystem: ' "$W/$1.err")" \
		"^filesystem: $1 .*; super [^)]*$2[^)]*\\); "
	expect_match "$1: the JSON's super_options name $2" "$(python3 -c 'import json,sys
d = json.load(open(sys.argv[1])); f = d["runs"][0]["filesystem"]
print(d["schema"], f["super_options"], "|", f["options"])' "$W/$1.json")" \
		"^clyde-result/15 .*$2.* \\| "
	expect_eq "$1: the mount's options do not (why the line was needed)" \
		"$(python3 -c 'import json,sys
print("'"$2"'" in json.load(open(sys.argv[1]))["runs"][0]["filesystem"]["options"])' "$W/$1.json")" False
	if "$REPORT" --db "$W/probe.db" --history name=x >/dev/null 2>&1 || [ $? != 6 ]; then
		"$REPORT" --db "$W/h.db" --add "$W/$1.json" >"$W/$1.add" 2>&1
		expect_eq "$1: clyde-report --add" "$?" 0
		expect_match "$1: the history's fs_super_options" "$(python3 -c 'import sqlite3,sys
print(sqlite3.connect(sys.argv[1]).execute("select fs_super_options from runs where name = ?",
      (sys.argv[2],)).fetchone()[0])' "$W/h.db" "$1")" "$2"
	fi
}

if loop_mkfs "$W/ext4.img" 128M mkfs.ext4 -q -F && mount -o data=journal "$LOOP" "$W/mnt"; then
	one ext4 data=journal
	check "ext4: no compression note" sh -c "! grep -q 'file system compresses' '$W/ext4.err'"
else
	fail "ext4 data=journal: cannot make it"
fi
loop_detach

if ! command -v mkfs.btrfs >/dev/null 2>&1; then
	# CI's machine has btrfs-progs (tests/env/profile_btrfs.sh needs them)
	if [ "${CI:-}" = true ]; then
		fail "CI=true: no mkfs.btrfs for the btrfs compress=zstd:3 case"
	else
		echo "no mkfs.btrfs (btrfs-progs): the btrfs compress=zstd:3 case not run"
	fi
elif loop_mkfs "$W/btrfs.img" 256M mkfs.btrfs -q -f &&
	mount -o compress=zstd:3 "$LOOP" "$W/mnt"; then
	one btrfs compress=zstd:3
	# random data (the default) on a compressing file system: said, with what to use instead
	expect_match "btrfs: random data on compress=zstd:3 is noted" \
		"$(grep '^clyde: note: the file system compresses' "$W/btrfs.err")" \
		'^clyde: note: the file system compresses \(compress=zstd:3\) and clyde.s data is random .*--data=compressible:P'
	# btrfs's files have an anonymous device: the disk is the mount's source
	expect_match "btrfs: the environment line names its loop device" \
		"$(grep '^environment: ' "$W/btrfs.err")" "; device ${LOOP#/dev/}[ ;]"
	"$CLYDE" -d "$W/mnt" -s 0 -n 1 --data=zero >/dev/null 2>"$W/zero.err"
	expect_eq "btrfs: --data=zero runs" "$?" 0
	check "btrfs: --data=zero gets no such note" sh -c "! grep -q 'file system compresses' '$W/zero.err'"
else
	fail "btrfs compress=zstd:3: cannot make it"
fi
loop_detach
done_testing
