#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# The io_uring engine: its phases, queue depth, O_DIRECT on a filesystem
# the test makes, a filesystem that refuses O_DIRECT, and the fallback
# when the kernel refuses io_uring (a seccomp filter on clyde alone).
. "$TESTLIB"
need_root

need_tmpfs 256m
MNT=$SCRATCH
VERSION=$("$CLYDE" --version | sed -n 's/^clyde //p')
DROP="cache drop (fsync + fadvise DONTNEED after each I/O phase)"
FAILED="DROP FAILED: up to 100.0% of the file resident before reads: read figures are page-cache figures"
# context_is LABEL FILE ENGINE-DESCRIPTION OUTCOME SEED: clyde's first
# context line (on stderr); ENGINE-DESCRIPTION may hold FLAGS, the ring's
# setup flags, which depend on the kernel
context_is() {
	got=$(grep "^clyde $VERSION: " "$2")
	for flags in "SINGLE_ISSUER|DEFER_TASKRUN" COOP_TASKRUN "no setup flags"; do
		want="clyde $VERSION: engine $(printf '%s' "$3" | sed "s/FLAGS/$flags/"); $DROP: $4; per-char syscall; seed $5"
		[ "$got" = "$want" ] && { ok; return; }
	done
	fail "$1: got '$got', want '$want' (or other setup flags)"
}

if "$CLYDE" --version | grep -q 'uring (not built'; then
	# the portable build: uring is listed with its reason and refused
	err=$("$CLYDE" --engine=uring -d "$MNT" -s 1 -n 0 2>&1 >/dev/null); rc=$?
	expect_eq "uring not built exits 4" "$rc" 4
	expect_match "the reason is given" "$err" "--engine=uring: not built: configure did not find liburing"
	line=$("$CLYDE" --engine=auto --iodepth=8 -d "$MNT" -s 1::8192 -n 0 -f 2>"$MNT.err" | tail -n 1)
	expect_match "auto falls back to psync" "$line" '^1\.98,'
	expect_file_has "auto says so" "$MNT.err" "uring cannot be used (not built"
	rm -f "$MNT.err"
	done_testing
fi

# 1. all phases through uring at depth 16
"$CLYDE" --engine=uring --iodepth=16 -d "$MNT" -s 16::8192 -n 0 -f64k --exact -z 1 >"$MNT.out" 2>"$MNT.err"
rc=$?
if [ $rc = 4 ]; then
	skip "io_uring is not available to this process: $(cat "$MNT.err")"
fi
expect_eq "uring run exit status" "$rc" 0
line=$(tail -n 1 "$MNT.out")
context_is "context names uring, depth and flags" "$MNT.err" \
	"uring (QD 16; FLAGS; registered buffers and file)" "$FAILED" 1
expect_match "stdout: the table, then the CSV" "$(head -n 1 "$MNT.out") $(wc -l <"$MNT.out")" '^Version .* 6$'
for f in 11 13 17 19; do
	expect_match "uring field $f is a rate" "$(csv_field "$line" $f)" '^[0-9]+(\.[0-9])?$'
done
for pct in 0 100; do
	line=$("$CLYDE" --engine=uring --iodepth=4 --seek-updates=$pct -d "$MNT" -s 4::8192 -n 0 -f --exact 2>/dev/null | tail -n 1)
	expect_match "--seek-updates=$pct seeks" "$(csv_field "$line" 19)" '^[0-9]+(\.[0-9])?$'
done
expect_empty_dir "after uring runs" "$MNT"

# 2. O_DIRECT at depth 32 on an ext4 the test makes
if command -v mkfs.ext4 >/dev/null; then
	if scratch_ext4 "$MNT/ext4.img"; then
		EXT4=$SCRATCH
		"$CLYDE" --engine=uring --iodepth=32 -D -d "$EXT4" -s 16::8192 -n 0 --exact -z 2 >"$MNT.out" 2>"$MNT.err"
		expect_eq "uring O_DIRECT on ext4" "$?" 0
		line=$(tail -n 1 "$MNT.out")
		expect_eq "per-char skipped under -D" "$(csv_field "$line" 9)$(csv_field "$line" 15)" ""
		expect_match "direct block read" "$(csv_field "$line" 17)" '^[0-9]+$'
		# O_DIRECT and the drop keep ext4's page cache empty
		context_is "context says O_DIRECT, and nothing resident" "$MNT.err" \
			"uring with O_DIRECT (QD 32; FLAGS; registered buffers and file)" \
			"0.0% resident before reads at most" 2
		expect_eq "no drop warning on ext4" "$(grep -c 'did not empty' "$MNT.err")" 0
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
		"$NO_URING" $e "$CLYDE" --engine=auto --iodepth=8 -d "$MNT" -s 2::8192 -n 0 -f64k -z 3 >"$MNT.out" 2>"$MNT.err"
		expect_eq "auto runs when uring is refused ($e)" "$?" 0
		case $e in
		EPERM) why="io_uring is refused (EPERM: kernel.io_uring_disabled or a seccomp filter)" ;;
		ENOSYS) why="the kernel has no io_uring (ENOSYS)" ;;
		esac
		context_is "auto reports psync ($e)" "$MNT.err" \
			"psync (pread/pwrite; --engine=auto fell back: uring $why)" "$FAILED" 3
		expect_file_has "auto notes the fallback ($e)" "$MNT.err" \
			"clyde: note: --engine=auto: uring cannot be used ($why); running psync at queue depth 1"
	done
fi
expect_empty_dir "nothing left" "$MNT"
rm -f "$MNT.out" "$MNT.err"
done_testing
