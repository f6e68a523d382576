#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# -u and -g as root, in clyde, clyde-getc-putc and clyde-zcav: a number
# past what uid_t or gid_t holds (4294967296 was taken as uid 0, so a run
# that said it dropped root kept it), the type's -1 (4294967295, "no
# change" to setuid), one past 2^64, a sign, a space, hexadecimal: each
# refused with exit status 1 and the value named, before anything runs;
# a valid id still becomes the run's user. The directory is root's and
# not writable by others, so a run that kept root would get through it.
# An id longer than any buffer (300 zeros then 1) is uid 1, not cut to
# zeros and root. The same refusals for any width of uid_t:
# tests/unit/unit_privs.c.
. "$TESTLIB"
need_root
GP=${CLYDE_GETC_PUTC:-$(dirname "$CLYDE")/clyde-getc-putc}
ZCAV=${CLYDE_ZCAV:-$(dirname "$CLYDE")/clyde-zcav}
need_built "$GP" "clyde-getc-putc"
need_built "$ZCAV" "clyde-zcav"
scratch_dir
W=$SCRATCH
# the others may reach what is in it, not write it
chmod 755 "$W"
mkdir "$W/d"
chmod 755 "$W/d"
head -c 1048576 /dev/zero >"$W/f"

# refused PROGRAM OPTION VALUE WANT ARGS...: exit 1, WANT on stderr, nothing made
refused() {
	prog=$1 opt=$2 value=$3 want=$4
	shift 4
	"$prog" "$opt" "$value" "$@" >"$W/o" 2>"$W/e"
	rc=$?
	name=$(basename "$prog")
	expect_eq "$name $opt '$value': exit status 1" "$rc" 1
	expect_file_has "$name $opt '$value': says why" "$W/e" "$want"
}

for opt in -u -g; do
	case $opt in
	-u) what="user" ;;
	*) what="group" ;;
	esac
	range="out of range: a $what id is a number from 0 to 4294967294"
	for v in 4294967296 4294967295 18446744073709551616 18446744073709551615; do
		refused "$CLYDE" "$opt" "$v" "clyde: $opt $v: $range" -d "$W/d" -s 1 -n 0 -f
	done
	for v in -1 0x10 " 5" "5x"; do
		refused "$CLYDE" "$opt" "$v" "clyde: $opt '$v': neither a $what's name nor a $what id" \
			-d "$W/d" -s 1 -n 0 -f
	done
	refused "$GP" "$opt" 4294967296 "clyde-getc-putc: $opt 4294967296: $range" -d "$W/d" -s 64k
	refused "$GP" "$opt" -1 "clyde-getc-putc: $opt '-1': neither" -d "$W/d" -s 64k
	refused "$ZCAV" "$opt" 4294967296 "clyde-zcav: $opt 4294967296: $range" -b 1 "$W/f"
	refused "$ZCAV" "$opt" 4294967295 "clyde-zcav: $opt 4294967295: $range" -b 1 "$W/f"
done
# the group after -u's colon too
refused "$CLYDE" -u 65534:4294967296 "clyde: -u 4294967296: out of range: a group id" \
	-d "$W/d" -s 1 -n 0 -f
expect_eq "nothing was made in the directory" "$(ls -A "$W/d")" ""

# a valid id is still taken: as 65534 clyde may not write root's directory
# (exit 2, the uid named), as 0 it may; -g alone as root keeps uid 0
"$CLYDE" -u 65534 -d "$W/d" -s 1 -n 0 -f >"$W/o" 2>"$W/e"
expect_eq "-u 65534: exit status 2" "$?" 2
expect_file_has "-u 65534: became uid 65534" "$W/e" "not writable by uid 65534"
"$CLYDE" -u 0 -g 65534 -d "$W/d" -s 1 -n 0 -f --plan >"$W/o" 2>"$W/e"
expect_eq "-u 0 -g 65534: exit status 0" "$?" 0
"$GP" -u 65534 -d "$W/d" -s 64k >"$W/o" 2>"$W/e"
expect_eq "clyde-getc-putc -u 65534: refused the directory (exit 2)" "$?" 2
"$ZCAV" -u 4294967294 -b 1 "$W/f" >"$W/o" 2>"$W/e"
expect_eq "clyde-zcav -u 4294967294, the largest id, reads a file all may read" "$?" 0


# an id longer than any buffer: 300 zeros then 1 is uid 1, never cut to the
# zeros (uid 0, root). As root the run read a file only root may read.
long1=$(printf '0%.0s' $(seq 300))1
head -c 1048576 /dev/zero >"$W/secret"
chmod 600 "$W/secret"
"$ZCAV" -u "$long1" -b 1 -f "$W/secret" >"$W/o" 2>"$W/e"
expect_eq "clyde-zcav -u 300 zeros then 1: cannot read root's 0600 file (exit 2)" "$?" 2
expect_file_has "clyde-zcav -u 300 zeros then 1: refused by the system" "$W/e" \
	"secret: Permission denied"
"$CLYDE" -u "$long1" -d "$W/d" -s 1 -n 0 -f --plan >"$W/o" 2>"$W/e"
expect_eq "clyde -u 300 zeros then 1: exit status 2" "$?" 2
expect_file_has "clyde -u 300 zeros then 1: became uid 1" "$W/e" "not writable by uid 1:"
"$GP" -u "$long1" -d "$W/d" -s 64k >"$W/o" 2>"$W/e"
expect_eq "clyde-getc-putc -u 300 zeros then 1: refused the directory (exit 2)" "$?" 2

done_testing
