#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# --age on file systems made here on loop devices (ext4; XFS and btrfs
# where their mkfs is installed, which CI's machine has):
# (a) reproducible: two fresh ext4 of one size, one seed: the same write
#     and delete lines in --age-log (the correction rounds' fix- lines
#     follow statvfs, which varies by a few blocks), and the aged files'
#     extents (filefrag, an independent tool) within 15% of each other;
#     another seed: other lines. Five agings with one seed measured
#     668, 676, 683, 684, 706 extents (a range of 5.6% of their mean):
#     15% is near three times that.
# (b) full means full: aged to 80%, statvfs says 80 +- 2 points at the
#     start of the block read (a pause there) and the JSON's
#     fill.phases_pct agrees; after the run the used bytes are back to
#     where they were (within 1% of the capacity: ext4's directories and
#     the journal's own blocks) and no clyde.* entry is left.
# (c) --age-only keeps its directory; a later plain run counts it
#     (fill.before_pct near the aged fill).
. "$TESTLIB"
need_loops mkfs.ext4 filefrag
private_mounts "$@"
scratch_dir
W=$SCRATCH
mkdir "$W/m1" "$W/m2"

# pct DIR: used over what an ordinary user may use, percent, from statvfs
pct() {
	stat -f -c '%b %f %a' "$1" | awk '{ printf "%.2f\n", 100 * ($1 - $2) / ($1 - $2 + $3) }'
}
used() {
	stat -f -c '%b %f %S' "$1" | awk '{ printf "%d\n", ($1 - $2) * $3 }'
}
cap() {
	stat -f -c '%b %f %a %S' "$1" | awk '{ printf "%d\n", ($1 - $2 + $3) * $4 }'
}
num() { grep -o "\"$1\": [0-9.]*" "$2" | head -n 1 | sed 's/.*: //'; }
# within A B TOL: |A - B| <= TOL (decimals)
within() { awk -v a="$1" -v b="$2" -v t="$3" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= t) }'; }
extents() {
	find "$1" -type f -name 'f*' -exec filefrag {} + | awk '{ s += $(NF - 2) } END { print s + 0 }'
}

fresh() {
	loop_mkfs "$W/$1.img" 256M mkfs.ext4 -q -F && mount "$LOOP" "$W/$1"
}

# (a)
if fresh m1 && fresh m2; then
	for m in m1 m2; do
		"$CLYDE" -d "$W/$m" -s 16 -r 8 -n 0 -f -z 5 --age=80:2 --age-only \
			--age-log="$W/$m.log" >"$W/$m.out" 2>"$W/$m.err"
		expect_eq "(a) $m: --age-only exits 0" "$?" 0
	done
	grep -v '^fix-' "$W/m1.log" >"$W/m1.ops"
	grep -v '^fix-' "$W/m2.log" >"$W/m2.ops"
	check "(a) one seed: the same operations" cmp -s "$W/m1.ops" "$W/m2.ops"
	check "(a) the log is not empty" test -s "$W/m1.ops"
	e1=$(extents "$W/m1") e2=$(extents "$W/m2")
	check "(a) extents within 15% ($e1, $e2)" \
		within "$e1" "$e2" "$(awk -v a="$e1" -v b="$e2" 'BEGIN { print 0.15 * (a + b) / 2 }')"
	rm -rf "$W"/m2/clyde.age.*
	"$CLYDE" -d "$W/m2" -s 16 -r 8 -n 0 -f -z 6 --age=80:2 --age-only \
		--age-log="$W/m3.log" >"$W/m3.out" 2>"$W/m3.err"
	grep -v '^fix-' "$W/m3.log" >"$W/m3.ops"
	check "(a) another seed: other operations" sh -c "! cmp -s '$W/m1.ops' '$W/m3.ops'"
else
	fail "(a) cannot make two ext4 file systems"
fi
loop_detach

# full FS MKFS...: (b) and (c) on a fresh FS
full() {
	fs=$1
	shift
	if ! loop_mkfs "$W/$fs.img" 512M "$@" || ! mount "$LOOP" "$W/m1"; then
		fail "$fs: cannot make it"
		return
	fi
	D=$W/m1
	sync -f "$D"
	u0=$(used "$D") c0=$(cap "$D")
	rm -f "$W/go"
	CLYDE_TEST_PAUSE=before-get_block CLYDE_TEST_RESUME=$W/go "$CLYDE" -d "$D" -s 32 -r 16 \
		-n 0 -f -z 9 --age=80:1 --json "$W/$fs.json" >"$W/$fs.out" 2>"$W/$fs.err" &
	pid=$!
	if wait_pause "$W/$fs.err"; then
		at=$(pct "$D")
		touch "$W/go"
	else
		at=-1
		kill $pid
	fi
	wait $pid
	expect_eq "(b) $fs: the aged run exits 0" "$?" 0
	check "(b) $fs: statvfs says 80 +- 2 at the block read ($at)" within "$at" 80 2
	ph=$(num phases_pct "$W/$fs.json")
	check "(b) $fs: fill.phases_pct ($ph) agrees with statvfs ($at)" within "$ph" "$at" 0.5
	check "(b) $fs: the age object" grep -q '"spec": "80:1:agrawal"' "$W/$fs.json"
	sync -f "$D"
	u1=$(used "$D")
	check "(b) $fs: used bytes back ($u0 then $u1, capacity $c0)" \
		within "$u1" "$u0" "$((c0 / 100))"
	expect_eq "(b) $fs: nothing left" "$(ls -A "$D" | grep -c '^clyde\.')" 0
	# (c)
	"$CLYDE" -d "$D" -s 32 -r 16 -n 0 -f -z 9 --age=60:0 --age-only --json "$W/$fs.c.json" \
		>"$W/$fs.c.out" 2>"$W/$fs.c.err"
	expect_eq "(c) $fs: --age-only exits 0" "$?" 0
	kept=$(sed -n 's/^clyde: --age-only: kept //p' "$W/$fs.c.err")
	check "(c) $fs: the directory is kept ($kept)" test -d "$kept"
	check "(c) $fs: and named in the JSON" grep -q "\"kept_dir\": \"$kept\"" "$W/$fs.c.json"
	aged=$(num fill_aged_pct "$W/$fs.c.json")
	rm -f "$W/go"
	CLYDE_TEST_PAUSE=before-get_block CLYDE_TEST_RESUME=$W/go "$CLYDE" -d "$D" -s 32 -r 16 \
		-n 0 -f --json "$W/$fs.d.json" >"$W/$fs.d.out" 2>"$W/$fs.d.err" &
	pid=$!
	if wait_pause "$W/$fs.d.err"; then
		# a plain run makes no sync of its own: btrfs shows its file after one
		sync -f "$D"
		at=$(pct "$D")
		touch "$W/go"
	else
		at=-1
		kill $pid
	fi
	wait $pid
	expect_eq "(c) $fs: a plain run after it exits 0" "$?" 0
	before=$(num before_pct "$W/$fs.d.json")
	check "(c) $fs: the plain run counts the aged files ($before, aged $aged)" \
		within "$before" "$aged" 2
	check "(c) $fs: the kept directory stays" test -d "$kept"
	# --age-only reserved the -s of the runs that follow: their block read finds 60%
	check "(c) $fs: statvfs says 60 +- 2 at the plain run's block read ($at)" within "$at" 60 2
	umount "$W/m1"
	loop_detach
}

full ext4 mkfs.ext4 -q -F
for fs in xfs btrfs; do
	if command -v "mkfs.$fs" >/dev/null 2>&1; then
		full "$fs" "mkfs.$fs" -q -f
	elif [ "${CI:-}" = true ]; then
		fail "CI=true: no mkfs.$fs"
	else
		echo "no mkfs.$fs: its case not run"
	fi
done
done_testing
