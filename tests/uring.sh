#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# The io_uring engine: its phases, queue depth, O_DIRECT on a filesystem
# the test makes, a filesystem that refuses O_DIRECT, and the fallback
# when the kernel refuses io_uring (a seccomp filter on clyde alone).
. "$TESTLIB"
need_root

scratch_tmpfs 256m || skip "cannot mount a tmpfs"
MNT=$SCRATCH
VERSION=$("$CLYDE" --version | sed -n 's/^clyde //p')

if "$CLYDE" --version | grep -q 'uring (not built'; then
	# the portable build: uring is listed with its reason and refused
	err=$("$CLYDE" --engine=uring -d "$MNT" -s 1 -n 0 2>&1 >/dev/null); rc=$?
	expect_eq "uring not built exits 4" "$rc" 4
	expect_match "the reason is given" "$err" "--engine=uring: not built: configure did not find liburing"
	line=$("$CLYDE" --engine=auto --iodepth=8 -d "$MNT" -s 1 -n 0 -f 2>"$MNT.err" | tail -n 1)
	expect_match "auto falls back to psync" "$line" '^1\.98,'
	expect_file_has "auto says so" "$MNT.err" "uring cannot be used (not built"
	rm -f "$MNT.err"
	done_testing
fi

# 1. all phases through uring at depth 16
"$CLYDE" --engine=uring --iodepth=16 -d "$MNT" -s 16 -n 0 -f64k --exact >"$MNT.out" 2>"$MNT.err"
rc=$?
if [ $rc = 4 ]; then
	skip "io_uring is not available to this process: $(cat "$MNT.err")"
fi
expect_eq "uring run exit status" "$rc" 0
line=$(tail -n 1 "$MNT.out")
expect_match "context names uring, depth and flags" "$(head -n 1 "$MNT.out")" \
	"^clyde $VERSION: engine uring \(QD 16, [A-Z_|]+|no setup flags"
for f in 11 13 17 19; do
	expect_match "uring field $f is a rate" "$(csv_field "$line" $f)" '^[0-9]+(\.[0-9])?$'
done
for pct in 0 100; do
	line=$("$CLYDE" --engine=uring --iodepth=4 --seek-updates=$pct -d "$MNT" -s 4 -n 0 -f --exact 2>/dev/null | tail -n 1)
	expect_match "--seek-updates=$pct seeks" "$(csv_field "$line" 19)" '^[0-9]+(\.[0-9])?$'
done
expect_empty_dir "after uring runs" "$MNT"

# 2. O_DIRECT at depth 32 on an ext4 the test makes
if command -v mkfs.ext4 >/dev/null; then
	if scratch_ext4 "$MNT/ext4.img"; then
		EXT4=$SCRATCH
		"$CLYDE" --engine=uring --iodepth=32 -D -d "$EXT4" -s 16 -n 0 --exact >"$MNT.out" 2>"$MNT.err"
		expect_eq "uring O_DIRECT on ext4" "$?" 0
		line=$(tail -n 1 "$MNT.out")
		expect_eq "per-char skipped under -D" "$(csv_field "$line" 9)$(csv_field "$line" 15)" ""
		expect_match "direct block read" "$(csv_field "$line" 17)" '^[0-9]+$'
		expect_match "context says O_DIRECT" "$(head -n 1 "$MNT.out")" "engine uring with O_DIRECT \(QD 32"
		expect_empty_dir "ext4 left clean" "$EXT4"
		umount "$EXT4"
	else
		fail "cannot loop-mount the ext4 image"
	fi
	rm -f "$MNT/ext4.img"
else
	echo "mkfs.ext4 missing: O_DIRECT on ext4 not checked"
fi

# 3. a filesystem that refuses O_DIRECT: ramfs
scratch_dir
RAM=$SCRATCH
if mount -t ramfs ramfs "$RAM" 2>/dev/null; then
	T_MOUNTS="$RAM $T_MOUNTS"
	err=$("$CLYDE" --engine=uring -D -d "$RAM" -s 4 -n 0 2>&1 >/dev/null); rc=$?
	expect_eq "O_DIRECT refused exits 2" "$rc" 2
	expect_match "O_DIRECT refusal is named" "$err" "-D: the filesystem refuses O_DIRECT \(Invalid argument\)"
	expect_empty_dir "ramfs left clean" "$RAM"
fi

# 4. the kernel refuses io_uring: EPERM (io_uring_disabled, seccomp) and ENOSYS
if [ -x "${NO_URING:-}" ]; then
	for e in EPERM ENOSYS; do
		err=$("$NO_URING" $e "$CLYDE" --engine=uring -d "$MNT" -s 1 -n 0 2>&1 >/dev/null); rc=$?
		[ $rc = 77 ] && { echo "seccomp unavailable: fallback not checked"; break; }
		expect_eq "uring refused ($e) exits 4" "$rc" 4
		expect_match "uring refusal ($e) is named" "$err" "--engine=uring: .*\($e"
		"$NO_URING" $e "$CLYDE" --engine=auto --iodepth=8 -d "$MNT" -s 2 -n 0 -f64k >"$MNT.out" 2>"$MNT.err"
		expect_eq "auto runs when uring is refused ($e)" "$?" 0
		expect_match "auto reports psync ($e)" "$(head -n 1 "$MNT.out")" \
			"engine psync \(pread/pwrite; --engine=auto fell back: uring .*$e"
		expect_file_has "auto notes the fallback ($e)" "$MNT.err" "running psync at queue depth 1"
	done
fi
expect_empty_dir "nothing left" "$MNT"
rm -f "$MNT.out" "$MNT.err"
done_testing
