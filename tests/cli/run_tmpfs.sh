#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Whole runs at tiny sizes on a private tmpfs, checked field by field.
. "$TESTLIB"
need_root

need_tmpfs 256m
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

# the context lines clyde writes on stderr for a psync run on $MNT
CPU_MODEL=$(sed -n 's/^\(model name\|Model\)[[:space:]]*: *//p' /proc/cpuinfo | head -n 1 | sed 's/[[:space:]]*$//')
RAM=$(echo "$(getconf _PHYS_PAGES) $(getconf PAGESIZE)" | awk '{v = $1 * $2; u = 0
	split("bytes KiB MiB GiB TiB", n); while (v >= 1024 && u < 4) { v /= 1024; u++ }
	if (u) printf "%.1f %s", v, n[u + 1]; else printf "%d bytes", v }')
# the mount's options, then the filesystem's own (mountinfo's last field)
FS_LINE=$(awk -v m="$MNT" '$5 == m { for (i = 7; $i != "-"; i++); o = $6; gsub(",", " ", o)
	so = $(i + 3); gsub(",", " ", so)
	print "filesystem: " $(i + 1) " " $(i + 2) " on " m " (" o "; super " so ")" }' /proc/self/mountinfo)
FS_LINE="$FS_LINE; $(getconf _NPROCESSORS_ONLN) CPUs; $RAM RAM"
ENV_LINE="environment: $(uname -s) $(uname -r) $(uname -m); CPU ${CPU_MODEL:-unknown}; no block device"
DROP="cache drop (fsync + fadvise DONTNEED after each I/O phase)"
FAILED="DROP FAILED: up to 100.0% of the file resident before reads: read figures are page-cache figures"
WARN="clyde: WARNING: --cache=drop did not empty the page cache: up to 100.0% of the test file was resident before a read phase (tmpfs on $MNT); the read figures of this run are page-cache figures"
PROGRESS="Writing a byte at a time...done
Writing intelligently...done
Rewriting...done
Reading a byte at a time...done
Reading intelligently...done
Random seeks...done
Create files in sequential order...done
Stat files in sequential order...done
Delete files in sequential order...done
Create files in random order...done
Stat files in random order...done
Delete files in random order...done"

# 1. everything, --exact, fixed seed, bonnie++'s seek count given
"$CLYDE" -d "$MNT" -s 16::8192 -n 1 -f64k -m testbox -z 4242 --exact >"$MNT.out" 2>"$MNT.err"
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
# stdout as bonnie++'s: the table, then the CSV line last, nothing else
expect_eq "table header" "$(sed -n 1p "$MNT.out")" "Version $VERSION       ------Sequential Output------ --Sequential Input- --Random-"
expect_eq "column names" "$(sed -n 3p "$MNT.out")" "Name:Size etc        /sec %CP  /sec %CP  /sec %CP  /sec %CP  /sec %CP  /sec %CP"
expect_eq "I/O label (8192 seeks: no seek count shown)" "$(sed -n 4p "$MNT.out" | cut -c1-20)" "testbox         16M "
expect_eq "file table header" "$(sed -n 6p "$MNT.out")" "Version $VERSION       ------Sequential Create------ --------Random Create--------"
expect_match "file row shows rates, not the count" "$(sed -n 9p "$MNT.out")" '^                  1 +[0-9]+k? +[0-9]+ '
expect_eq "stdout: 10 table lines and the CSV" "$(wc -l <"$MNT.out")" 11
expect_eq "no context line on stdout" "$(grep -cE '^(clyde|counts:|filesystem:|environment:)' "$MNT.out")" 0
# the table's per-char cell is the CSV's number
cell=$(sed -n 4p "$MNT.out" | cut -c20-29)
expect_match "per-char cell matches CSV" "$cell" "^ +${putc}k +[0-9]+$|^ +[0-9.]+m +[0-9]+$"
# stderr, line for line: progress, the context lines (no counts line: the
# counts were given), the failed drop warning
expect_eq "stderr" "$(cat "$MNT.err")" "$PROGRESS
clyde $VERSION: engine psync (pread/pwrite); $DROP: $FAILED; per-char syscall; seed 4242
$FS_LINE
$ENV_LINE
$WARN"
expect_empty_dir "after a full run" "$MNT"

# 2. without --exact, phases this short print +++++ when the counts are
# given (per-char left out: on a slow machine 64k calls may take 0.5 s)
line=$("$CLYDE" -d "$MNT" -s 4::8192 -n 1 -f64k 2>/dev/null | tail -n 1)
expect_eq "block write, rewrite too short" "$(printf '%s' "$line" | cut -d, -f12-15)" "+++++,+++,+++++,+++"
expect_eq "block read, 8192 seeks too short" "$(printf '%s' "$line" | cut -d, -f18-21)" "+++++,+++,+++++,+++"
expect_eq "-n 1: file phases too short" "$(printf '%s' "$line" | cut -d, -f27-38)" \
	"+++++,+++,+++++,+++,+++++,+++,+++++,+++,+++++,+++,+++++,+++"

# 2b. no seek count: at least 8192 seeks for about a second, the count in
# field 7, the label and the counts line; its rate is measured, not +++++
"$CLYDE" -d "$MNT" -s 4 -n 0 -f -m ts -z 7 >"$MNT.out" 2>"$MNT.err"
line=$(tail -n 1 "$MNT.out")
n=$(csv_field "$line" 7)
expect_match "timed seeks: a count in field 7" "$n" '^[1-9][0-9]*$'
[ "${n:-0}" -ge 8192 ] 2>/dev/null && ok || fail "timed seeks: $n seeks, want at least 8192"
rate=$(csv_field "$line" 19)
expect_match "timed seeks: a measured rate" "$rate" '^[1-9][0-9]*$'
# about a second: the rate is the count over 0.9 to 3 seconds
[ "$((rate * 9))" -le "$((n * 10))" ] && [ "$((rate * 3))" -ge "$n" ] && ok ||
	fail "timed seeks: $n seeks at $rate/s is not about a second"
expect_eq "timed seeks: block write still +++++" "$(csv_field "$line" 11)" "+++++"
expect_eq "timed seeks: label" "$(sed -n 4p "$MNT.out" | cut -c1-19)" \
	"$(awk -v s="4M:::$n" 'BEGIN { w = 19 - length(s) - 1; printf("%-" w "s %s", "ts", s) }')"
expect_eq "timed seeks: context lines" "$(grep -v 'done$' "$MNT.err")" \
"clyde $VERSION: engine psync (pread/pwrite); $DROP: $FAILED; per-char syscall; seed 7
counts: $n seeks: at least 8192 and on to a second (no count given)
$FS_LINE
$ENV_LINE
$WARN"

# 3. -q: only the CSV on stdout, the table and context on stderr
"$CLYDE" -q -d "$MNT" -s 4::8192 -n 0 -f64k -z 3 -m qq >"$MNT.out" 2>"$MNT.err"
expect_eq "-q stdout is one line" "$(wc -l <"$MNT.out")" 1
expect_match "-q stdout is CSV" "$(cat "$MNT.out")" '^1\.98,([^,]*,){48}[^,]*$'
expect_eq "-q: stderr is the context, the warning, the table" "$(head -n 7 "$MNT.err"; sed -n 8p "$MNT.err" | cut -c1-20)" \
"clyde $VERSION: engine psync (pread/pwrite); $DROP: $FAILED; per-char syscall; seed 3
$FS_LINE
$ENV_LINE
$WARN
Version $VERSION       ------Sequential Output------ --Sequential Input- --Random-
                    -Per Chr- --Block-- -Rewrite- -Per Chr- --Block-- --Seeks--
Name:Size etc        /sec %CP  /sec %CP  /sec %CP  /sec %CP  /sec %CP  /sec %CP
qq               4M "
expect_eq "-q: stderr is 9 lines" "$(wc -l <"$MNT.err")" 9
expect_eq "-q: no progress lines" "$(grep -c 'done$' "$MNT.err")" 0

# 4. -s 0, -n 0, -f alone: those fields stay empty
"$CLYDE" -d "$MNT" -s 0 -n 1 --exact >"$MNT.out" 2>"$MNT.err"
line=$(tail -n 1 "$MNT.out")
expect_eq "-s 0 leaves fields 5-20 empty" "$(printf '%s' "$line" | cut -d, -f6-21 | tr -d ,)" ""
phase_ok "$line" 26
# the table's file-test cells are the CSV's numbers: both truncate
# (bonnie++ 2.00a's int(stat)); a cell too wide shows thousands (k) or
# millions (m), truncated too
expect_eq "file-test cells equal their CSV fields" "$(python3 - "$MNT.out" <<'PY'
import sys
lines = open(sys.argv[1]).read().splitlines()
cells, csv = lines[3].split(), lines[-1].split(",")
bad = []
for i in range(6):
    cell, field = cells[1 + 2 * i], csv[26 + 2 * i]
    div = {"k": 1000, "m": 1000000}.get(cell[-1], 1)
    if int(cell.rstrip("km")) != int(field) // div:
        bad.append("%s vs %s" % (cell, field))
print(" ".join(bad) or "same")
PY
)" same
expect_eq "-s 0: no file read, no counts line" "$(grep -v 'done$' "$MNT.err" | head -n 2)" \
"clyde $VERSION: engine psync (pread/pwrite); $DROP: no phase read the file; per-char syscall; seed $(csv_field "$line" 4)
$FS_LINE"
line=$("$CLYDE" -d "$MNT" -s 4::8192 -n 0 -f --exact 2>/dev/null | tail -n 1)
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
expect_eq "I/O label" "$(sed -n 4p "$MNT.out" | cut -c1-20)" 'lbl  8M:16k:2:100:2 '
expect_eq "file label" "$(sed -n 9p "$MNT.out" | cut -c1-20)" '  1:4096:1024/4:16k '
expect_empty_dir "after -c 2" "$MNT"

# 6. hard links and symlinks
line=$("$CLYDE" -d "$MNT" -s 0 -n 1:-1 --exact 2>/dev/null | tail -n 1)
expect_eq "links" "$(csv_field "$line" 22)" link
phase_ok "$line" 30
line=$("$CLYDE" -d "$MNT" -s 0 -n 1:-2 --exact 2>/dev/null | tail -n 1)
expect_eq "symlinks" "$(csv_field "$line" 22)" symlink
phase_ok "$line" 34

# 7. stdio per-char, -b, and -D (tmpfs takes O_DIRECT since Linux 6.6)
"$CLYDE" -d "$MNT" -s 4::8192 -n 0 -f64k --perchar=stdio -b --exact -z 5 >"$MNT.out" 2>"$MNT.err"
line=$(tail -n 1 "$MNT.out")
phase_ok "$line" 9
phase_ok "$line" 13
expect_eq "stdio in the context line" "$(grep '^clyde ' "$MNT.err")" \
	"clyde $VERSION: engine psync (pread/pwrite); $DROP: $FAILED; per-char stdio; seed 5"
if "$CLYDE" -d "$MNT" -s 4::8192 -n 0 -D --exact -z 6 >"$MNT.out" 2>"$MNT.err"; then
	line=$(tail -n 1 "$MNT.out")
	phase_empty "$line" 9
	phase_ok "$line" 11
	phase_ok "$line" 17
	expect_file_has "-D note" "$MNT.err" "per-char phases are skipped"
	expect_eq "-D in the context line" "$(grep '^clyde ' "$MNT.err")" \
		"clyde $VERSION: engine psync with O_DIRECT (pread/pwrite); $DROP: $FAILED; per-char syscall; seed 6"
else
	grep -q "O_DIRECT" "$MNT.err" && ok || fail "-D failed without naming O_DIRECT: $(cat "$MNT.err")"
fi

# 8. --cache=keep: its outcome in the context line, no drop warning
"$CLYDE" -d "$MNT" -s 4::8192 -n 0 -f --cache=keep -z 1 >"$MNT.out" 2>"$MNT.err"
expect_file_has "keep warns about RAM" "$MNT.err" "fits in"
expect_eq "keep in the context line" "$(grep '^clyde ' "$MNT.err")" \
	"clyde $VERSION: engine psync (pread/pwrite); cache keep (page cache kept as bonnie++ keeps it): 100.0% resident before reads at most; per-char syscall; seed 1"
expect_eq "keep: no drop warning" "$(grep -c 'did not empty' "$MNT.err")" 0
expect_empty_dir "after all runs" "$MNT"
rm -f "$MNT.out" "$MNT.err"
done_testing
