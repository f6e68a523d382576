#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# clyde-getc-putc beside bonnie++'s own getc_putc on one private tmpfs:
# the CSV line and the table parsed field by field (shape, field count,
# each cell a whole number or ++++++, never the rates, which are two
# programs' timings), identical where every figure is under 0.5 s.
. "$TESTLIB"
GP=${CLYDE_GETC_PUTC:-$(dirname "$CLYDE")/clyde-getc-putc}
need_built "$GP" "clyde-getc-putc"
need_root
need_cmd getc_putc "Debian package bonnie++"
command -v getc_putc_helper >/dev/null 2>&1 || skip "getc_putc_helper not found (Debian package bonnie++)"

need_tmpfs 256m
MNT=$SCRATCH
scratch_dir
W=$SCRATCH
REAL=$(command -v getc_putc)
CELL='^([0-9]+|\+\+\+\+\+\+)$'
ROW='^box {18}( ( *[0-9]+|\+\+\+\+\+\+)){8}$'

# run_both SIZE: both programs on $MNT (getc_putc wants -u as root; its
# helper is found beside it by its own path)
run_both() {
	"$REAL" -q -d "$MNT" -s "$1" -m box -u root >"$W/real.out" 2>"$W/real.err"
	expect_eq "getc_putc -s $1 exit status" "$?" 0
	"$GP" -q -d "$MNT" -s "$1" -m box >"$W/ours.out" 2>"$W/ours.err"
	expect_eq "clyde-getc-putc -s $1 exit status" "$?" 0
}

# csv_shape FILE LABEL: one line, nine fields, the name, eight cells
csv_shape() {
	expect_eq "$2: one line on stdout" "$(wc -l <"$1" | tr -d ' ')" 1
	line=$(cat "$1")
	expect_eq "$2: nine fields" "$(printf '%s\n' "$line" | awk -F, '{print NF}')" 9
	expect_eq "$2: field 0 is the machine" "$(csv_field "$line" 0)" box
	for i in 1 2 3 4 5 6 7 8; do
		expect_match "$2: field $i" "$(csv_field "$line" $i)" "$CELL"
	done
}

# The table: getc_putc's are its stderr's last two lines, clyde-getc-putc's
# first two (its threaded two follow); the heading differs only in the version.
table_shape() {
	tail -n 2 "$W/real.err" >"$W/real.tab"
	head -n 2 "$W/ours.err" >"$W/ours.tab"
	expect_eq "$1: headings but the version" "$(sed -n '1s/^Version .\{5\}//p' "$W/ours.tab")" \
		"$(sed -n '1s/^Version .\{5\}//p' "$W/real.tab")"
	expect_match "$1: getc_putc's row" "$(sed -n 2p "$W/real.tab")" "$ROW"
	expect_match "$1: clyde-getc-putc's row" "$(sed -n 2p "$W/ours.tab")" "$ROW"
	expect_eq "$1: the rows' widths" "$(sed -n 2p "$W/ours.tab" | wc -c)" \
		"$(sed -n 2p "$W/real.tab" | wc -c)"
	expect_match "$1: clyde-getc-putc's threaded row" "$(sed -n 4p "$W/ours.err")" \
		'^box {46}( ( *[0-9]+|\+\+\+\+\+\+)){4}$'
	# the table's cells are the CSV's
	expect_eq "$1: getc_putc's table is its CSV" \
		"$(sed -n 2p "$W/real.tab" | awk '{$1=$1; print}' | tr ' ' ,)" "$(cat "$W/real.out")"
	expect_eq "$1: clyde-getc-putc's table is its CSV" \
		"$(sed -n 2p "$W/ours.tab" | awk '{$1=$1; print}' | tr ' ' ,)" "$(cat "$W/ours.out")"
}

# 1 MiB: every figure of both is under 0.5 s, so the lines are the same
run_both 1m
csv_shape "$W/real.out" "getc_putc 1m"
csv_shape "$W/ours.out" "clyde-getc-putc 1m"
expect_eq "1m: the same CSV line" "$(cat "$W/ours.out")" "$(cat "$W/real.out")"
table_shape 1m
expect_eq "1m: the same table row" "$(sed -n 2p "$W/ours.tab")" "$(sed -n 2p "$W/real.tab")"

# 64 MiB: write(2) and read(2) move 1 MiB, about a second each
# here; the cells are numbers or ++++++ by each program's own times
run_both 64m
csv_shape "$W/real.out" "getc_putc 64m"
csv_shape "$W/ours.out" "clyde-getc-putc 64m"
table_shape 64m
expect_empty_dir "nothing left on the tmpfs" "$MNT"

done_testing
