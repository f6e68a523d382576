#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# The cache modes: uncached (RWF_DONTCACHE) where the filesystem takes it
# and a clear refusal where it does not; system (drop_caches) for root.
. "$TESTLIB"
need_root

scratch_tmpfs 256m || skip "cannot mount a tmpfs"
MNT=$SCRATCH

# uncached: on a loop-mounted ext4 (Linux 6.14+ takes it) and on tmpfs
targets="$MNT"
if scratch_ext4 "$MNT.img"; then
	EXT4=$SCRATCH
	targets="$targets $EXT4"
fi
for dir in $targets; do
	for engine in psync uring; do
		"$CLYDE" --cache=uncached --engine=$engine -d "$dir" -s 8 -n 0 -f64k --exact \
			>"$MNT.out" 2>"$MNT.err"
		rc=$?
		case $rc in
		0)
			line=$(tail -n 1 "$MNT.out")
			expect_match "uncached ($engine, $dir) block read" "$(csv_field "$line" 17)" '^[0-9]+$'
			expect_match "uncached in the context line" "$(head -n 1 "$MNT.out")" "cache uncached \(RWF_DONTCACHE"
			;;
		2)
			expect_match "uncached refusal ($engine, $dir) is named" "$(cat "$MNT.err")" \
				"--cache=uncached: the kernel or the filesystem refuses RWF_DONTCACHE"
			;;
		4)
			expect_match "uring unavailable is named" "$(cat "$MNT.err")" "--engine=uring"
			;;
		*)
			fail "uncached ($engine, $dir): exit $rc: $(cat "$MNT.err")"
			;;
		esac
		expect_empty_dir "uncached left $dir clean" "$dir"
	done
done
rm -f "$MNT.img"

# system: root drops every cache after every phase
"$CLYDE" --cache=system -d "$MNT" -s 4 -n 1 -f64k --exact >"$MNT.out" 2>"$MNT.err"
expect_eq "--cache=system as root" "$?" 0
expect_match "system in the context line" "$(head -n 1 "$MNT.out")" "cache system \(sync \+ drop_caches after every phase"
err=$("$CLYDE" --cache=system -u nobody -d /tmp -s 4 -n 0 2>&1 >/dev/null); rc=$?
expect_eq "--cache=system as nobody exits 1" "$rc" 1
expect_match "--cache=system refusal is named" "$err" "--cache=system writes /proc/sys/vm/drop_caches, which uid [0-9]+ cannot"
expect_empty_dir "nothing left" "$MNT"
rm -f "$MNT.out" "$MNT.err"
done_testing
