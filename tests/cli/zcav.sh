#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# clyde-zcav on regular files, as any user runs it: bad options refused
# with what is wrong (exit 1); zcav's lines (tests/env/zcav_lib.sh checks
# their shapes) for a file, standard input and -l/-f pairs measured at
# once; a file too small for one block (exit 2); the hint naming a block
# size when every line came out a comment; --json with every block; -w
# refused without --force (exit 3, the file as it was), and with it the
# file zeroed at its size; -w refused on a symlink to a file, on a file
# through a directory symlink, on a hard-linked file and on character
# devices; -w -r -s writing only inside -r's MiB (a sparse file's
# far bytes untouched); the path swapped after -w's check (a pause point)
# writes the file checked, not the new one; -u as root; --help and
# clyde-zcav(1) naming the same options; clyde-report reading what it wrote.
. "$TESTLIB"
. "$(dirname "$TESTLIB")/env/zcav_lib.sh"
need_python3 "to read the JSON"
scratch_dir
W=$SCRATCH
MAN=$(dirname "$TESTLIB")/../man/clyde-zcav.1

# bad input: exit 1 and the option named
bad() {
	want=$1
	shift
	"$ZCAV" "$@" >"$W/o" 2>"$W/e"
	expect_eq "clyde-zcav $*: exit status" "$?" 1
	expect_file_has "clyde-zcav $*: says why" "$W/e" "$want"
}
bad "no file to read"
bad "chunk is larger than the block" -b 4:8 x
bad "-c 0: not a whole number from 1 to 100" -c 0 x
bad "-s 1: not a whole number from 2 to 20" -s 1 x
bad "first is not before last" -r 10:5 x
bad "--force is for -w only" --force x
bad "-l $W/log: no file after it" x -l "$W/log"
bad "no engine nope" --engine nope x
bad "needs a queued engine" --iodepth 4 --engine psync x
# clyde's null engine moves no data: a sweep through it would time nothing and -w write nothing
bad "--engine null moves no data" --engine null x
bad "--engine null moves no data" -w --force --engine null x
"$ZCAV" -b 1 "$W/none" >"$W/o" 2>"$W/e"
expect_eq "a file that is not there: exit status 2" "$?" 2
expect_file_has "a file that is not there: named" "$W/e" "$W/none: No such file or directory"

head -c $((12 * 1048576)) /dev/urandom >"$W/a"
cp "$W/a" "$W/a.orig"
DIRECT=""
"$ZCAV" -b 1 "$W/a" >"$W/o" 2>"$W/e"
rc=$?
if [ $rc = 2 ] && grep -q "O_DIRECT refused" "$W/e"; then
	echo "note: O_DIRECT refused on $W's file system: --buffered"
	DIRECT=--buffered
	"$ZCAV" $DIRECT -b 1 "$W/a" >"$W/o" 2>"$W/e"
	rc=$?
fi
expect_eq "-b 1 on a 12 MiB file: exit status" "$rc" 0
check "-b 1: every line one of zcav's" zcav_lines "$W/o"
expect_eq "-b 1: 12 blocks at 0..11 MiB" "$(zcav_offsets "$W/o" | tr '\n' ' ')" \
	"0.00 0.00 0.00 0.00 0.00 0.00 0.01 0.01 0.01 0.01 0.01 0.01 "
expect_file_has "-b 1: the pass's line" "$W/o" "# Read 12 megs in "
expect_file_has "-b 1: zcav's line per pass on stderr" "$W/e" "# Finished loop 1, on device $W/a at "
# --engine auto (the default) by clyde's rule (engine_choose): psync at depth 1; above it,
# io_uring where the kernel takes it, else psync at depth 1 with a note
expect_file_has "auto at depth 1: psync" "$W/e" "engine psync (pread/pwrite), depth 1"
if [ -x "${NO_URING:-}" ]; then
	"$NO_URING" ENOSYS "$ZCAV" $DIRECT --iodepth 4 -b 1 "$W/a" >"$W/o2" 2>"$W/e2"
	rc=$?
	if [ $rc = 77 ]; then
		echo "seccomp unavailable: auto's fallback not checked"
	else
		expect_eq "auto at depth 4, io_uring refused: runs" "$rc" 0
		# refused by the kernel, or (the portable build) never built
		expect_match "... noting the fallback" "$(cat "$W/e2")" "clyde-zcav: note: --engine\
 auto: uring cannot be used \((the kernel has no io_uring \(ENOSYS\)|not built: configure did\
 not find liburing)\); running psync at depth 1"
		expect_file_has "... with psync at depth 1" "$W/e2" "engine psync (pread/pwrite), depth 1"
	fi
fi
# every block under a second on a small file: the hint names a size and says there is too little
if [ "$(gnuplot_points "$W/o" | wc -l)" = 0 ]; then
	expect_file_has "every line a comment: the hint" "$W/e" "every block took under a second"
	expect_match "the hint names a block size" "$(cat "$W/e")" "-b [0-9]+ would give numbers"
fi
# standard input
"$ZCAV" -b 2 - <"$W/a" >"$W/o" 2>"$W/e"
expect_eq "standard input: exit status" "$?" 0
expect_eq "standard input: 6 blocks" "$(zcav_offsets "$W/o" | wc -l | tr -d ' ')" 6
# two -l/-f pairs at once, each into its log
head -c $((4 * 1048576)) /dev/urandom >"$W/b"
"$ZCAV" $DIRECT -b 1 -l "$W/a.log" -f "$W/a" -l "$W/b.log" "$W/b" >"$W/o" 2>"$W/e"
expect_eq "two -l/-f pairs: exit status" "$?" 0
expect_eq "two -l/-f pairs: nothing on stdout" "$(wc -c <"$W/o" | tr -d ' ')" 0
expect_eq "two -l/-f pairs: 12 blocks in the first log" "$(zcav_offsets "$W/a.log" | wc -l | tr -d ' ')" 12
expect_eq "two -l/-f pairs: 4 blocks in the second" "$(zcav_offsets "$W/b.log" | wc -l | tr -d ' ')" 4
# too small for one block
"$ZCAV" $DIRECT -b 16 "$W/b" >"$W/o" 2>"$W/e"
expect_eq "a file smaller than a block: exit status 2" "$?" 2
expect_file_has "a file smaller than a block: says so" "$W/e" "too small: not one block of 16 MiB"

# reading with -r and -s: the blocks are in -r's MiB of the file, every other
# one (when -r's last counted the blocks read, at 2, 6 and 10 MiB here)
"$ZCAV" $DIRECT -r 2:10 -b 2 -s 2 --json "$W/rs.json" "$W/a" >"$W/o" 2>"$W/e"
expect_eq "-r 2:10 -b 2 -s 2: exit status" "$?" 0
mib_offsets='import json, sys
blocks = json.load(open(sys.argv[1]))["targets"][0]["passes"][0]["blocks"]
print(*[b["offset"] >> 20 for b in blocks])'
expect_eq "-r 2:10 -b 2 -s 2: blocks at MiB 2 and 6, none past MiB 10" \
	"$(python3 -c "$mib_offsets" "$W/rs.json")" "2 6"

# --json, two passes
"$ZCAV" $DIRECT -b 2 -c 2 --json "$W/j.json" "$W/a" >"$W/o" 2>"$W/e"
expect_eq "--json -c 2: exit status" "$?" 0
expect_eq "-c 2: #loops and the header after the passes" "$(grep -c '^#loops: 2$' "$W/o")" 1
python3 - "$W/j.json" >"$W/py.out" 2>&1 <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
t = d["targets"][0]
assert d["schema"] == "clyde-zcav/1" and d["options"]["passes"] == 2, d["options"]
assert t["identity"]["kind"] == "regular file" and t["size"] == 12 << 20, t
assert len(t["passes"]) == 2 and len(t["mean"]) == 6, t
for p in t["passes"]:
    assert [b["offset"] for b in p["blocks"]] == [k << 21 for k in range(6)], p
    for b in p["blocks"]:
        assert b["bytes"] == 2 << 20 and b["seconds"] > 0, b
for m, a, b in zip(t["mean"], t["passes"][0]["blocks"], t["passes"][1]["blocks"]):
    assert abs(m["seconds"] - (a["seconds"] + b["seconds"]) / 2) < 1e-9, (m, a, b)
print("ok")
PY
if [ "$(tail -n 1 "$W/py.out")" = ok ]; then ok; else fail "--json:"; sed 's/^/    /' "$W/py.out"; fi

# -w: refused without --force, the file as it was; with it, zeros at the file's size
"$ZCAV" $DIRECT -w -b 1 "$W/a" >"$W/o" 2>"$W/e"
expect_eq "-w without --force: exit status 3" "$?" 3
expect_file_has "-w without --force: says so" "$W/e" "refused without --force"
check "-w without --force: the file untouched" cmp -s "$W/a" "$W/a.orig"
"$ZCAV" $DIRECT -w --force -b 1 "$W/a" >"$W/o" 2>"$W/e"
expect_eq "-w --force: exit status" "$?" 0
expect_eq "-w --force: the file's size kept" "$(wc -c <"$W/a" | tr -d ' ')" $((12 * 1048576))
check "-w --force: every byte zero" cmp -s -n $((12 * 1048576)) "$W/a" /dev/zero

# -w's target is what its guard opened and checked, by its own name
# same_mib A B FROM TO: MiB FROM to TO of files A and B hold the same bytes
same_mib() { cmp -s -i $(($3 * 1048576)):$(($3 * 1048576)) -n $((($4 - $3) * 1048576)) "$1" "$2"; }
# zero_mib FILE FROM TO: MiB FROM to TO of FILE are zeros
zero_mib() { cmp -s -i $(($2 * 1048576)):0 -n $((($3 - $2) * 1048576)) "$1" /dev/zero; }
head -c $((4 * 1048576)) /dev/urandom >"$W/victim"
cp "$W/victim" "$W/victim.orig"
ln -s "$W/victim" "$W/link"
"$ZCAV" $DIRECT -w --force -b 1 "$W/link" >"$W/o" 2>"$W/e"
expect_eq "-w --force on a symlink to a regular file: refused (3)" "$?" 3
expect_file_has "-w --force on a symlink to a file: says why" "$W/e" \
	"refused: a symbolic link to a regular file"
check "-w --force on a symlink to a file: the file untouched" cmp -s "$W/victim" "$W/victim.orig"
# a link in any component, not just the last: a directory link leads into
# another directory (O_NOFOLLOW guards the last name only)
mkdir "$W/real"
cp "$W/victim" "$W/real/f"
ln -s "$W/real" "$W/dl"
"$ZCAV" $DIRECT -w --force -b 1 "$W/dl/f" >"$W/o" 2>"$W/e"
expect_eq "-w --force on a file through a directory symlink: refused (3)" "$?" 3
expect_file_has "-w --force through a directory symlink: says why" "$W/e" \
	"refused: a symbolic link in the path"
check "-w --force through a directory symlink: the file untouched" \
	cmp -s "$W/real/f" "$W/victim.orig"
# a hard link is the file under another name: its other names get the zeros
ln "$W/real/f" "$W/hl"
"$ZCAV" $DIRECT -w --force -b 1 "$W/hl" >"$W/o" 2>"$W/e"
expect_eq "-w --force on a file with a hard link: refused (3)" "$?" 3
expect_file_has "-w --force on a hard-linked file: says why" "$W/e" \
	"refused: a regular file with other names"
check "-w --force on a hard-linked file: the file untouched" cmp -s "$W/real/f" "$W/victim.orig"
for dev in /dev/null /dev/zero; do
	[ -c "$dev" ] || continue
	"$ZCAV" -w --force -b 1 "$dev" >"$W/o" 2>"$W/e"
	expect_eq "-w --force on $dev: refused (3)" "$?" 3
	expect_file_has "-w --force on $dev: a character device" "$W/e" "refused: a character device"
done
ln -s /dev/zero "$W/zlink"
"$ZCAV" -w --force -b 1 "$W/zlink" >"$W/o" 2>"$W/e"
expect_eq "-w --force on a symlink to a character device: refused (3)" "$?" 3
if [ "$(id -u)" = 0 ] && mknod "$W/cdev" c 1 3 2>/dev/null; then
	"$ZCAV" -w --force -b 1 "$W/cdev" >"$W/o" 2>"$W/e"
	expect_eq "-w --force on a character device made here (mknod): refused (3)" "$?" 3
fi

# -r and -s in MiB of the target: every block written lies inside -r
head -c $((64 * 1048576)) /dev/urandom >"$W/r"
cp "$W/r" "$W/r.orig"
"$ZCAV" $DIRECT -w --force -r :16 -b 2 -s 4 "$W/r" >"$W/o" 2>"$W/e"
expect_eq "-w -r :16 -b 2 -s 4: exit status" "$?" 0
expect_file_has "-w -r :16 -b 2 -s 4: says what it writes before it writes" "$W/e" \
	"writing zeros over 4 MiB: 2 blocks of 2 MiB, every 4th block, from MiB 0 to MiB 10; the last byte written is at offset 10485759"
expect_eq "-w -r :16 -b 2 -s 4: the file's size kept" "$(wc -c <"$W/r" | tr -d ' ')" $((64 * 1048576))
check "-w -r :16 -b 2 -s 4: MiB 0-2 zeros" zero_mib "$W/r" 0 2
check "-w -r :16 -b 2 -s 4: MiB 2-8 as they were" same_mib "$W/r" "$W/r.orig" 2 8
check "-w -r :16 -b 2 -s 4: MiB 8-10 zeros" zero_mib "$W/r" 8 10
check "-w -r :16 -b 2 -s 4: nothing written from MiB 10 on" same_mib "$W/r" "$W/r.orig" 10 64
# the issue's case: -r 0:1000 -b 100 -s 20 on a sparse file of 19000 MiB
truncate -s 19000M "$W/sparse"
for mib in 1000 2050 18050; do
	printf 'untouched at %s MiB' $mib | dd of="$W/sparse" bs=1048576 seek=$mib conv=notrunc \
		status=none
done
"$ZCAV" $DIRECT -w --force -r 0:1000 -b 100 -s 20 "$W/sparse" >"$W/o" 2>"$W/e"
expect_eq "-w -r 0:1000 -b 100 -s 20: exit status" "$?" 0
expect_file_has "-w -r 0:1000 -b 100 -s 20: one block, inside the range" "$W/e" \
	"writing zeros over 100 MiB: 1 block of 100 MiB, every 20th block, from MiB 0 to MiB 100"
for mib in 1000 2050 18050; do
	expect_eq "-w -r 0:1000 -s 20: nothing written at MiB $mib" \
		"$(dd if="$W/sparse" bs=1048576 skip=$mib count=1 status=none | head -c 40 | tr -d '\0')" \
		"untouched at $mib MiB"
done
expect_eq "-w -r 0:1000 -s 20: the sparse file's size kept" "$(wc -c <"$W/sparse" | tr -d ' ')" \
	$((19000 * 1048576))
rm -f "$W/sparse"
# a first inside a block: reading starts at that block as zcav does; writing is refused
cp "$W/r.orig" "$W/r"
"$ZCAV" $DIRECT -w --force -r 3:16 -b 2 "$W/r" >"$W/o" 2>"$W/e"
expect_eq "-w -r 3:16 -b 2: a usage error" "$?" 1
expect_file_has "-w -r 3:16 -b 2: says why" "$W/e" "first is not a multiple of the block"
check "-w -r 3:16 -b 2: the file untouched" cmp -s "$W/r" "$W/r.orig"

# one file named twice: written once at most, so refused
cp "$W/r.orig" "$W/r"
"$ZCAV" $DIRECT -w --force -b 2 -l /dev/null "$W/r" -l /dev/null "$W/r" >"$W/o" 2>"$W/e"
expect_eq "-w --force on one file named twice: refused (3)" "$?" 3
expect_file_has "-w --force on one file named twice: says so" "$W/e" \
	"an earlier target is the same device or file"
check "-w --force on one file named twice: the file untouched" cmp -s "$W/r" "$W/r.orig"

# the path swapped for a symlink to another file after the check: the
# descriptor the guard checked is what is written, not the new path
head -c $((4 * 1048576)) /dev/urandom >"$W/t"
: >"$W/race.err"
CLYDE_TEST_PAUSE=zcav_write CLYDE_TEST_RESUME=$W/go "$ZCAV" $DIRECT -w --force -b 1 "$W/t" \
	>"$W/o" 2>"$W/race.err" &
pid=$!
if wait_pause "$W/race.err"; then
	mv "$W/t" "$W/t.checked"
	ln -s "$W/victim" "$W/t"
	touch "$W/go"
else
	fail "-w: never paused between its check and its sweep: $(cat "$W/race.err")"
	kill $pid
fi
wait $pid
expect_eq "-w with its path swapped after the check: exit status" "$?" 0
check "-w with its path swapped: the file swapped in untouched" cmp -s "$W/victim" "$W/victim.orig"
check "-w with its path swapped: the file it checked was written" \
	cmp -s -n $((4 * 1048576)) "$W/t.checked" /dev/zero

# -u: the file opened as that user (root's file, mode 600: refused to nobody)
if [ "$(id -u)" = 0 ] && id nobody >/dev/null 2>&1; then
	head -c 1048576 /dev/zero >"$W/mine"
	chmod 600 "$W/mine"
	chmod 755 "$W"
	"$ZCAV" $DIRECT -u nobody -b 1 "$W/mine" >"$W/o" 2>"$W/e"
	expect_eq "-u nobody on root's file: exit status 2" "$?" 2
	expect_file_has "-u nobody on root's file: refused to nobody" "$W/e" "Permission denied"
	chmod 644 "$W/mine"
	"$ZCAV" $DIRECT -u nobody -b 1 "$W/mine" >"$W/o" 2>"$W/e"
	expect_eq "-u nobody on a file it may read: exit status" "$?" 0
	"$ZCAV" -u no-such-user-here -b 1 "$W/mine" >"$W/o" 2>"$W/e"
	expect_eq "-u with no such user: exit status 1" "$?" 1
fi

# --help and the man page: the same options
if [ -f "$MAN" ]; then
	for opt in $("$ZCAV" --help | grep -oE '(^| )--?[a-z][a-z-]*' | sort -u); do
		grep -q -- "$(printf '%s' "$opt" | sed 's/-/\\\\-/g')" "$MAN" && ok ||
			fail "--help's $opt is not in clyde-zcav(1)"
	done
fi

# clyde-report reads what clyde-zcav wrote: the text and the JSON, one sweep each (and the mean)
"$REPORT" "$W/a.log" "$W/j.json" --svg "$W/r.svg" --html "$W/r.html" >"$W/r.txt" 2>"$W/r.err"
expect_eq "clyde-report on clyde-zcav's text and JSON: exit status" "$?" 0
expect_eq "clyde-report: 4 sweeps (a log, two passes and their mean)" \
	"$(grep -c '^\[[0-9]\]' "$W/r.txt")" 4
expect_eq "clyde-report's SVG: a line per sweep" "$(grep -c '<path class="sweep"' "$W/r.svg")" 4
expect_file_has "clyde-report's page: the section" "$W/r.html" "<h2>Rate by position</h2>"
done_testing
