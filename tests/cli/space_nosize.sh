#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# A file system that reports no size (statvfs f_blocks 0: tmpfs size=0,
# ramfs) holds what memory holds. clyde took its free space as unlimited:
# --steady planned to grow each file to 8 EiB and wrote until its time
# cap, and any -s passed the free-space check. Now the free space is the
# memory it may fill (MemAvailable), and clyde says so: on stderr before
# anything is written, in --plan, in the run's context and the JSON's
# size_note. Only --plan is asked of the cases that would write gigabytes
# (--steady, a size past memory), so the test never fills memory; the
# one real run writes 4 MiB.
. "$TESTLIB"
need_root
need_linux "MemAvailable in /proc/meminfo"
need_python3 "to read the JSON"
grep -q '^MemAvailable:' /proc/meminfo || skip "no MemAvailable in /proc/meminfo"
need_tmpfs 0
Z=$SCRATCH
scratch_dir
R=$SCRATCH
mount -t ramfs clyde-test "$R" 2>/dev/null || skip "cannot mount a ramfs"
T_MOUNTS="$R $T_MOUNTS"
scratch_dir
W=$SCRATCH
for d in "$Z" "$R"; do
	expect_eq "$d reports no size" "$(stat -f -c %b "$d")" 0
done

mem_bytes() {
	echo $(($(sed -n 's/^MemAvailable: *\([0-9]*\) kB$/\1/p' /proc/meminfo) * 1024))
}
# bytes TEXT: "11.4 GiB" and the like as bytes (rounded down)
bytes() {
	python3 -c 'import sys
n, unit = sys.argv[1].split()
k = {"bytes": 0, "KiB": 1, "MiB": 2, "GiB": 3, "TiB": 4, "PiB": 5, "EiB": 6}[unit]
print(int(float(n) * 1024 ** k))' "$1"
}
note="the file system reports no size: its free space taken as the memory it may fill: [0-9.]+ [KMGT]iB \\(MemAvailable in /proc/meminfo\\)"

for d in "$Z" "$R"; do
	# --steady's growth: half of what the file system may hold, as planned
	"$CLYDE" -d "$d" -s 16 -n 0 -f --steady=rate:50:0.5:2 --plan >"$W/plan" 2>"$W/err"
	expect_eq "$d --steady --plan: exit 0" "$?" 0
	expect_match "$d: said on stderr, before anything is written" \
		"$(grep '^clyde: note: -d ' "$W/err")" "^clyde: note: -d $d: $note$"
	expect_match "$d --plan: the file line says so" "$(grep '^file: ' "$W/plan")" \
		"^file: 16\\.0 MiB in 8192-byte chunks; $note$"
	grow=$(sed -n 's/.*the block write may grow each file to \([0-9.]* [A-Za-z]*\) (half the free space).*/\1/p' \
		"$W/plan")
	mem=$(mem_bytes)
	grown=$(bytes "${grow:-1 EiB}")
	if [ "$grown" -le "$mem" ] && [ "$grown" -ge $((16 << 20)) ]; then
		ok
	else
		fail "$d --steady: each file may grow to $grow ($grown bytes): more than MemAvailable, $mem"
	fi

	# a size past what memory holds is refused, not written until memory runs out
	big=$((mem / 1048576 * 2))
	"$CLYDE" -d "$d" -s "$big" -n 0 -f --plan >"$W/plan" 2>"$W/err"
	expect_eq "$d -s $big (twice MemAvailable): exit 2" "$?" 2
	expect_match "$d -s $big: too little free space, and why" "$(cat "$W/err")" \
		"-d $d: too little free space: the run needs [0-9.]+ GiB, [0-9.]+ GiB is free \\($note\\)"
done

# a real run, 4 MiB: the context line and the JSON's size_note say it too
"$CLYDE" -d "$R" -s 4 -n 0 -f --json "$W/r.json" >"$W/r.out" 2>"$W/r.err"
expect_eq "a 4 MiB run on ramfs: exit 0" "$?" 0
expect_match "the run's context says so" "$(grep '^counts: ' "$W/r.err")" "^counts: $note(; |$)"
size_note=$(python3 -c 'import json, sys
print(json.load(open(sys.argv[1]))["runs"][0]["counts"]["size_note"])' "$W/r.json" 2>&1)
expect_match "the JSON's size_note says so" "$size_note" "^$note$"
expect_eq "nothing left on the ramfs" "$(ls -A "$R")" ""

done_testing
