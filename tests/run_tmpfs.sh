#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Whole runs at tiny sizes on a private tmpfs, checked field by field.
. "$TESTLIB"
need_root

scratch_tmpfs 256m || skip "cannot mount a tmpfs"
MNT=$SCRATCH
VERSION=$("$CLYDE" --version | sed -n 's/^clyde //p')
RATE='^[0-9]+$'
LAT='^[0-9]+(us|ms|s)$'

# check_csv LINE: the 50 fields, whatever ran
check_fields() {
	line=$1
	n=$(printf '%s\n' "$line" | awk -F, '{print NF}')
	expect_eq "CSV field count" "$n" 50
	expect_eq "format version" "$(csv_field "$line" 0)" 1.98
	expect_eq "version field carries clyde's" "$(csv_field "$line" 1)" "$VERSION"
}

# phase_ok LINE RATEFIELD: a measured rate and CPU, and the latency
phase_ok() {
	r=$(csv_field "$1" "$2")
	c=$(csv_field "$1" $(($2 + 1)))
	expect_match "field $2 is a rate" "$r" '^[0-9]+(\.[0-9])?$'
	expect_match "field $(($2 + 1)) is a CPU percent" "$c" '^[0-9]+$'
	[ "$c" -le $((100 * $(nproc) + 50)) ] && ok || fail "CPU $c% above what $(nproc) CPUs give"
	if [ "$2" -le 20 ]; then li=$((38 + ($2 - 9) / 2)); else li=$((44 + ($2 - 26) / 2)); fi
	expect_match "latency field $li" "$(csv_field "$1" $li)" "$LAT"
}

phase_empty() {
	expect_eq "field $2 empty" "$(csv_field "$1" "$2")$(csv_field "$1" $(($2 + 1)))" ""
}

# 1. everything, --exact, fixed seed
"$CLYDE" -d "$MNT" -s 16 -n 1 -f64k -m testbox -z 4242 --exact >"$MNT.out" 2>"$MNT.err"
rc=$?
expect_eq "full run exit status" "$rc" 0
line=$(tail -n 1 "$MNT.out")
check_fields "$line"
expect_eq "name" "$(csv_field "$line" 2)" testbox
expect_eq "concurrency" "$(csv_field "$line" 3)" 1
expect_eq "seed" "$(csv_field "$line" 4)" 4242
expect_eq "size" "$(csv_field "$line" 5)" 16M
expect_eq "default chunk left empty" "$(csv_field "$line" 6)" ""
expect_eq "seeks" "$(csv_field "$line" 7)" 8192
expect_eq "seekers" "$(csv_field "$line" 8)" 5
for f in 9 11 13 15 17 19 26 28 30 32 34 36; do phase_ok "$line" $f; done
expect_eq "num_files" "$(csv_field "$line" 21)" 1
expect_eq "max/min/dirs/chunk empty" "$(csv_field "$line" 22)$(csv_field "$line" 23)$(csv_field "$line" 24)$(csv_field "$line" 25)" ""
# per-char over 64 KiB at one system call per byte cannot beat 1 GiB/s
putc=$(csv_field "$line" 9)
[ "$putc" -gt 0 ] && [ "$putc" -lt 1048576 ] && ok || fail "per-char write rate $putc KiB/s is not plausible"
# the table: context lines first, then bonnie++'s layout, then the CSV last
expect_match "context line" "$(sed -n 1p "$MNT.out")" "^clyde $VERSION: engine psync \(pread/pwrite\), cache drop"
expect_match "filesystem line" "$(sed -n 2p "$MNT.out")" "^filesystem: tmpfs "
expect_match "environment line" "$(sed -n 3p "$MNT.out")" "^environment: "
expect_match "table header" "$(sed -n 4p "$MNT.out")" "^Version $VERSION       ------Sequential Output------"
expect_match "I/O row" "$(sed -n 7p "$MNT.out")" '^testbox         16M '
expect_match "file row shows rates, not the count" "$(sed -n 12p "$MNT.out")" '^                  1 +[0-9]+k? +[0-9]+ '
expect_eq "CSV is the last line" "$(wc -l <"$MNT.out")" 14
# the table's per-char cell is the CSV's number
cell=$(sed -n 7p "$MNT.out" | cut -c20-29)
expect_match "per-char cell matches CSV" "$cell" "^ +${putc}k +[0-9]+$|^ +[0-9.]+m +[0-9]+$"
expect_file_has "progress on stderr" "$MNT.err" "Writing intelligently...done"
expect_empty_dir "after a full run" "$MNT"

# 2. without --exact, phases this short print +++++
line=$("$CLYDE" -d "$MNT" -s 4 -n 1 -f64k 2>/dev/null | tail -n 1)
expect_eq "block write too short" "$(csv_field "$line" 11),$(csv_field "$line" 12)" "+++++,+++"

# 3. -q: only the CSV on stdout, the table on stderr
"$CLYDE" -q -d "$MNT" -s 4 -n 0 -f64k >"$MNT.out" 2>"$MNT.err"
expect_eq "-q stdout is one line" "$(wc -l <"$MNT.out")" 1
expect_match "-q stdout is CSV" "$(cat "$MNT.out")" '^1\.98,'
expect_file_has "-q table on stderr" "$MNT.err" "Name:Size etc"
expect_eq "-q: no progress lines" "$(grep -c 'done$' "$MNT.err")" 0

# 4. -s 0, -n 0, -f alone: those fields stay empty
line=$("$CLYDE" -d "$MNT" -s 0 -n 1 --exact 2>/dev/null | tail -n 1)
expect_eq "-s 0 leaves fields 5-20 empty" "$(printf '%s' "$line" | cut -d, -f6-21 | tr -d ,)" ""
phase_ok "$line" 26
line=$("$CLYDE" -d "$MNT" -s 4 -n 0 -f --exact 2>/dev/null | tail -n 1)
phase_empty "$line" 9
phase_empty "$line" 15
phase_ok "$line" 11
expect_eq "-n 0 leaves fields 21-37 empty" "$(printf '%s' "$line" | cut -d, -f22-38 | tr -d ,)" ""

# 5. the labels: chunk, seeks, seekers, concurrency
"$CLYDE" -d "$MNT" -s 8:16k:100:2 -c 2 -n 1:4k:1k:4:16k -f64k --exact -m lbl >"$MNT.out" 2>/dev/null
line=$(tail -n 1 "$MNT.out")
expect_eq "concurrency 2" "$(csv_field "$line" 3)" 2
expect_eq "chunk in k-notation" "$(csv_field "$line" 6)" 16k
expect_eq "seeks" "$(csv_field "$line" 7)" 100
expect_eq "seekers" "$(csv_field "$line" 8)" 2
expect_eq "max,min,dirs,chunk" "$(printf '%s' "$line" | cut -d, -f23-26)" "4096,1024,4,16k"
phase_ok "$line" 19
phase_ok "$line" 28
expect_match "I/O label" "$(sed -n 7p "$MNT.out")" '^lbl  8M:16k:2:100:2 '
expect_match "file label" "$(sed -n 12p "$MNT.out")" '^ +1:4096:1024/4:16k '
expect_empty_dir "after -c 2" "$MNT"

# 6. hard links and symlinks
line=$("$CLYDE" -d "$MNT" -s 0 -n 1:-1 --exact 2>/dev/null | tail -n 1)
expect_eq "links" "$(csv_field "$line" 22)" link
phase_ok "$line" 30
line=$("$CLYDE" -d "$MNT" -s 0 -n 1:-2 --exact 2>/dev/null | tail -n 1)
expect_eq "symlinks" "$(csv_field "$line" 22)" symlink
phase_ok "$line" 34

# 7. stdio per-char, -b, and -D (tmpfs takes O_DIRECT since Linux 6.6)
line=$("$CLYDE" -d "$MNT" -s 4 -n 0 -f64k --perchar=stdio -b --exact 2>"$MNT.err" | tail -n 1)
phase_ok "$line" 9
phase_ok "$line" 13
if "$CLYDE" -d "$MNT" -s 4 -n 0 -D --exact >"$MNT.out" 2>"$MNT.err"; then
	line=$(tail -n 1 "$MNT.out")
	phase_empty "$line" 9
	phase_ok "$line" 11
	phase_ok "$line" 17
	expect_file_has "-D note" "$MNT.err" "per-char phases are skipped"
	expect_match "-D in the context line" "$(head -n 1 "$MNT.out")" "engine psync with O_DIRECT"
else
	grep -q "O_DIRECT" "$MNT.err" && ok || fail "-D failed without naming O_DIRECT: $(cat "$MNT.err")"
fi

# 8. the same seed repeats the same file names and seek offsets: same
# CSV labels; a cache-keep run says so
line=$("$CLYDE" -d "$MNT" -s 4 -n 0 -f --cache=keep -z 1 2>"$MNT.err" | tail -n 1)
expect_file_has "keep warns about RAM" "$MNT.err" "fits in"
expect_empty_dir "after all runs" "$MNT"
rm -f "$MNT.out" "$MNT.err"
done_testing
