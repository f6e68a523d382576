#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# The short-option forms bonnie++'s zcav ("-c:b:f:l:r:ws:u:g:", operands
# in order) and getc_putc ("d:s:u:g:m:q") accept, kept by clyde-zcav and
# clyde-getc-putc now that their options are rows (lib/opt.c): each
# argument attached (-b1, -lLOG, -fFILE), a flag clustered with the
# option after it (-wb 1, -wb1, -wfFILE; -qs 100, -qs100, -qmNAME), and
# each gives what the separated form gives.
. "$TESTLIB"
need_python3 "to read the JSON"
scratch_dir
W=$SCRATCH
ZCAV=$(dirname "$CLYDE")/clyde-zcav
GP=$(dirname "$CLYDE")/clyde-getc-putc
need_built "$ZCAV"
need_built "$GP"

# zcav_opts JSON: the options clyde-zcav read, as "block chunk passes first last skip write"
zcav_opts() {
	python3 -c 'import json, sys
o = json.load(open(sys.argv[1]))["options"]
print(o["block_mib"], o["chunk_mib"], o["passes"], o["first_mib"], json.dumps(o["last_mib"]),
      o["skip"], json.dumps(o["write"]))' "$1"
}

# zcav FORM WANT ARGS...: a run in that form reads the options WANT
zcav() {
	form=$1 want=$2
	shift 2
	"$ZCAV" --buffered --json "$W/z.json" "$@" >"$W/zo" 2>"$W/ze"
	expect_eq "clyde-zcav $form ($*): exit status" "$?" 0
	expect_eq "clyde-zcav $form: the options read" "$(zcav_opts "$W/z.json")" "$want"
}

head -c $((4 * 1048576)) /dev/urandom >"$W/a"
zcav separated "1 1 2 0 4 2 false" -b 1 -c 2 -r 0:4 -s 2 -l "$W/l0" -f "$W/a"
zcav attached "1 1 2 0 4 2 false" -b1 -c2 -r0:4 -s2 -l"$W/l1" -f"$W/a"
expect_eq "-lLOG: the log has the lines, stdout none" "$(grep -c . "$W/zo")" 0
expect_file_has "-lLOG: the log has zcav's lines" "$W/l1" "#block offset (GiB), MiB/s, time"
zcav "attached -b with its chunk" "2 1 1 0 null 1 false" -b2:1 "$W/a"
# a file named without -f takes the -l before it, whichever form that -l has
cp "$W/a" "$W/b"
zcav "-lLOG before a bare name" "1 1 1 0 null 1 false" -b1 "$W/a" -l"$W/l2" "$W/b"
expect_file_has "the first file's lines on stdout" "$W/zo" "#block offset (GiB), MiB/s, time"
expect_file_has "the second's in -lLOG's log" "$W/l2" "#block offset (GiB), MiB/s, time"

cp "$W/a" "$W/c"
zcav "clustered -wb N" "1 1 1 0 null 1 true" -wb 1 --force "$W/c"
check "-wb 1: the file is zeros" cmp -s "$W/c" /dev/zero -n $((4 * 1048576))
cp "$W/a" "$W/c"
zcav "clustered -wbN" "2 1 1 0 null 1 true" -wb2 --force "$W/c"
check "-wb2: the file is zeros" cmp -s "$W/c" /dev/zero -n $((4 * 1048576))
cp "$W/a" "$W/c"
zcav "clustered -wfFILE" "1 1 1 0 null 1 true" --force -b 1 -wf"$W/c"
check "-wfFILE: the file is zeros" cmp -s "$W/c" /dev/zero -n $((4 * 1048576))
"$ZCAV" -wb1 "$W/c" >"$W/zo" 2>"$W/ze"
expect_eq "-wb1 without --force: refused (exit 3)" "$?" 3

# getc_putc: the machine name and the size (64 KiB from 100) say what was read
mkdir "$W/d"
gp() {
	form=$1
	shift
	"$GP" --json "$W/g.json" "$@" >"$W/go" 2>"$W/ge"
	expect_eq "clyde-getc-putc $form ($*): exit status" "$?" 0
	expect_match "clyde-getc-putc $form: -m's name" "$(cat "$W/go")" "^box,"
	expect_file_has "clyde-getc-putc $form: -s's size" "$W/g.json" '"size_kib": 64,'
	expect_eq "clyde-getc-putc $form: -q, the table alone" "$(wc -l <"$W/ge" | tr -d ' ')" 4
	expect_empty_dir "clyde-getc-putc $form: in -d's directory, left clean" "$W/d"
}
gp separated -d "$W/d" -s 100 -m box -q
gp attached -d"$W/d" -s100 -mbox -q
gp "clustered -qs N" -qs 100 -d "$W/d" -m box
gp "clustered -qsN, -qmNAME" -qs100 -qmbox -qd"$W/d"
done_testing
