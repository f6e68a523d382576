#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# The cache modes: uncached (RWF_DONTCACHE) where the filesystem takes it
# and a clear refusal where it does not; system (drop_caches) for root.
. "$TESTLIB"
need_root

need_tmpfs 256m
MNT=$SCRATCH

# uncached: on a loop-mounted ext4 (Linux 6.14+ takes it) and on tmpfs
targets="$MNT"
if scratch_ext4 "$MNT.img"; then
	EXT4=$SCRATCH
	targets="$targets $EXT4"
fi
for dir in $targets; do
	for engine in psync uring; do
		"$CLYDE" --cache=uncached --engine=$engine -d "$dir" -s 8::500 -n 0 -f64k --exact \
			>"$MNT.out" 2>"$MNT.err"
		rc=$?
		case $rc in
		0)
			line=$(tail -n 1 "$MNT.out")
			expect_match "uncached ($engine, $dir) block read" "$(csv_field "$line" 17)" '^[0-9]+$'
			expect_match "uncached in the context line" "$(grep '^clyde ' "$MNT.err")" "; cache uncached \(RWF_DONTCACHE block and seek I/O; fsync"
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

# --cache=drop proved, not claimed: on the loop-mounted ext4 the file is
# out of the page cache before every read; with keep it is all there; on
# tmpfs the drop cannot work and the run says so in its label and loudly.
# resident PHASE JSON: the phase's resident percent, rounded
resident() {
	python3 -c 'import json,sys
p=json.load(open(sys.argv[2]))["runs"][0]["phases"][sys.argv[1]]["cache"]
print(p["method"], "unknown" if p["resident_pct"] is None else round(p["resident_pct"]))' "$1" "$2"
}
if [ -n "${EXT4:-}" ]; then
	"$CLYDE" -d "$EXT4" -s 16::500 -n 0 -f64k --json "$MNT.json" >"$MNT.out" 2>"$MNT.err"
	expect_eq "drop on ext4 exit status" "$?" 0
	for ph in rewrite getc get_block seeks; do
		expect_eq "drop: $ph reads a cold file" "$(resident $ph "$MNT.json")" "cachestat 0"
	done
	expect_eq "put_block is not measured (it reads nothing)" "$(python3 -c 'import json,sys
print("cache" in json.load(open(sys.argv[1]))["runs"][0]["phases"]["put_block"])' "$MNT.json")" False
	expect_match "drop label on ext4" "$(grep '^clyde ' "$MNT.err")" \
		"; cache drop \(fsync \+ fadvise DONTNEED after each I/O phase\): 0\.0% resident before reads at most;"
	# a warning only where the loop could not be given direct I/O (lib.sh: scratch_ext4)
	expect_eq "no warning on ext4 but of a cached loop" "$(grep -c WARNING "$MNT.err")" \
		"$(grep -c '^0$' "/sys/block/$(basename "$SCRATCH_LOOP")/loop/dio")"
	"$CLYDE" -d "$EXT4" --cache=keep -s 16::500 -n 0 -f64k --json "$MNT.json" >"$MNT.out" 2>"$MNT.err"
	expect_eq "keep on ext4 exit status" "$?" 0
	for ph in rewrite getc get_block seeks; do
		expect_eq "keep: $ph finds the file in memory" "$(resident $ph "$MNT.json")" "cachestat 100"
	done
	expect_match "keep label" "$(grep '^clyde ' "$MNT.err")" "; cache keep \(page cache kept as bonnie\+\+ keeps it\): 100\.0% resident before reads at most;"
	expect_empty_dir "nothing left on ext4" "$EXT4"

	# Each read phase is judged by what it reads: getc's 3 MiB, not the
	# whole file. Only those 3 MiB are brought back (after the drop that
	# follows the rewrite, before getc is measured): getc finds them all
	# in memory and the drop failed, although they are under 5% of the
	# 64 MiB file; the block read, after getc's drop, finds it cold.
	rm -f "$MNT.go"
	: >"$MNT.err"
	CLYDE_TEST_PAUSE=before-getc CLYDE_TEST_RESUME=$MNT.go "$CLYDE" -d "$EXT4" -s 64::200 -n 0 \
		--json "$MNT.json" >"$MNT.out" 2>"$MNT.err" &
	pid=$!
	if wait_pause "$MNT.err"; then
		dd if="$(ls "$EXT4"/clyde.*/io.0)" of=/dev/null bs=1M count=3 2>/dev/null
		touch "$MNT.go"
	else
		fail "no test pause before getc: $(cat "$MNT.err")"
		kill -INT $pid
	fi
	wait $pid
	expect_eq "getc range warmed: exit status" "$?" 0
	expect_eq "getc: its 3 MiB of the 64 MiB file measured" "$(python3 -c 'import json,sys
c=json.load(open(sys.argv[1]))["runs"][0]["phases"]["getc"]["cache"]
print(c["range_offset"], c["range_bytes"], c["file_bytes"])' "$MNT.json")" "0 3145728 67108864"
	expect_eq "getc: its range is all in memory" "$(resident getc "$MNT.json")" "cachestat 100"
	expect_eq "get_block: the whole file, cold" "$(resident get_block "$MNT.json")" "cachestat 0"
	expect_eq "seeks: the whole file, cold" "$(resident seeks "$MNT.json")" "cachestat 0"
	expect_match "the label says the drop failed for getc's range" "$(grep '^clyde ' "$MNT.err")" \
		": DROP FAILED: up to 100\.0% of the per-char read's 3\.0 MiB of the file resident before reads: read figures are page-cache figures;"
	expect_eq "and loudly" "$(grep -c "^clyde: WARNING: --cache=drop did not empty the page cache: up to 100.0% of the per-char read's 3.0 MiB of the file was resident" "$MNT.err")" 1
	expect_empty_dir "nothing left on ext4 after the warmed getc" "$EXT4"
else
	fail "no loop-mounted ext4 for the drop proof (mkfs.ext4 or loop devices missing)"
fi
"$CLYDE" -d "$MNT" -s 8::500 -n 0 -f64k --json "$MNT.json" >"$MNT.out" 2>"$MNT.err"
expect_eq "drop on tmpfs exit status" "$?" 0
expect_eq "tmpfs: get_block resident" "$(resident get_block "$MNT.json")" "cachestat 100"
expect_match "tmpfs: the label says the drop failed" "$(grep '^clyde ' "$MNT.err")" \
	": DROP FAILED: up to 100\.0% of the file resident before reads: read figures are page-cache figures;"
expect_eq "tmpfs: said loudly" "$(grep -c '^clyde: WARNING: --cache=drop did not empty the page cache: up to 100.0% of the test file' "$MNT.err")" 1
rm -f "$MNT.img" "$MNT.json" "$MNT.go"

# system: root drops every cache after every phase
"$CLYDE" --cache=system -d "$MNT" -s 4::500 -n 1 -f64k --exact >"$MNT.out" 2>"$MNT.err"
expect_eq "--cache=system as root" "$?" 0
expect_match "system in the context line" "$(grep '^clyde ' "$MNT.err")" "; cache system \(sync \+ drop_caches after every phase"
err=$("$CLYDE" --cache=system -u nobody -d /tmp -s 4 -n 0 2>&1 >/dev/null); rc=$?
expect_eq "--cache=system as nobody exits 1" "$rc" 1
expect_match "--cache=system refusal is named" "$err" "--cache=system writes /proc/sys/vm/drop_caches, which uid [0-9]+ cannot"
expect_empty_dir "nothing left" "$MNT"
rm -f "$MNT.out" "$MNT.err"
done_testing
