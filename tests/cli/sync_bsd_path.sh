#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# The sync that closes the create and delete phases. Linux: syncfs(2), no
# fsync. Where no whole-filesystem sync waits (the BSDs, whose sync(2)
# only starts the writes), the phases fsync what they changed: each file
# created and each directory after a create, each directory after a
# delete. CLYDE_TEST_NO_SYNCFS=1 takes that path here; strace counts.
. "$TESTLIB"
need_root
need_cmd strace
strace -f -c -o /dev/null true >/dev/null 2>&1 || skip "strace cannot trace here"

# LeakSanitizer cannot run under ptrace: the sanitizer build checks leaks
# everywhere else, not under strace.
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
export ASAN_OPTIONS

need_tmpfs 64m
MNT=$SCRATCH
OUT=$MNT.trace

# calls SYSCALL: how many calls strace -c counted in $OUT (0 if none)
calls() {
	awk -v s="$1" '$NF == s { n = $4 } END { print n + 0 }' "$OUT"
}

# A normal run: syncfs closes each of the 4 phases, nothing is fsynced.
strace -f -c -o "$OUT" "$CLYDE" -d "$MNT" -s 0 -n 1 >"$MNT.out" 2>"$MNT.err"
expect_eq "syncfs run: exit status" "$?" 0
expect_eq "syncfs run: syncfs closes create and delete, twice" "$(calls syncfs)" 4
expect_eq "syncfs run: no fsync" "$(calls fsync)" 0

# The per-file path, one directory: (1024 files + 1 directory) for each
# create phase, 1 directory for each delete phase; no syncfs, no sync.
CLYDE_TEST_NO_SYNCFS=1 strace -f -c -o "$OUT" "$CLYDE" -d "$MNT" -s 0 -n 1 \
	>"$MNT.out" 2>"$MNT.err"
expect_eq "fsync run: exit status" "$?" 0
expect_eq "fsync run: files and directory, twice, then the directory twice" \
	"$(calls fsync)" $((2 * (1024 + 1) + 2 * 1))
expect_eq "fsync run: no syncfs" "$(calls syncfs)" 0
expect_eq "fsync run: no sync" "$(calls sync)" 0
line=$(tail -n 1 "$MNT.out")
expect_eq "fsync run: 1024 files" "$(csv_field "$line" 21)" 1
expect_match "fsync run: sequential create timed" "$(csv_field "$line" 44)" '^[0-9]+(us|ms|s)$'
expect_match "fsync run: random delete timed" "$(csv_field "$line" 49)" '^[0-9]+(us|ms|s)$'

# Three directories, each fsync told apart by its path (strace -y): the
# files, the three directories after each phase, and after each create
# the directory that holds them.
CLYDE_TEST_NO_SYNCFS=1 strace -f -y -e trace=fsync,syncfs,sync -o "$OUT" \
	"$CLYDE" -d "$MNT" -s 0 -n 1:0:0:3 >"$MNT.out" 2>"$MNT.err"
expect_eq "three directories: exit status" "$?" 0
# count REGEX: fsync calls on the paths that match
count() {
	grep -cE "fsync\([0-9]+<[^>]*$1>\) = 0" "$OUT"
}
expect_eq "three directories: every file, in both creates" "$(count '/files\.[0-9]+/[0-9]{5}/[^/]+')" 2048
expect_eq "three directories: each directory, after each phase" "$(count '/files\.[0-9]+/[0-9]{5}')" 12
expect_eq "three directories: their parent, after each create" "$(count '/files\.[0-9]+')" 2
expect_eq "three directories: nothing else" "$(grep -cE '^[0-9]+ +(fsync|syncfs|sync)\(' "$OUT")" 2062

# Hard links: the one target and the directory, for each create.
CLYDE_TEST_NO_SYNCFS=1 strace -f -y -e trace=fsync -o "$OUT" \
	"$CLYDE" -d "$MNT" -s 0 -n 1:-1 >"$MNT.out" 2>"$MNT.err"
expect_eq "links: exit status" "$?" 0
expect_eq "links: the target, once per create" "$(count '/link-target\.[0-9]+')" 2
expect_eq "links: the directory, after each phase" "$(count '/files\.[0-9]+')" 4

expect_empty_dir "nothing left" "$MNT"
rm -f "$OUT"
done_testing
