#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# clyde-getc-putc as a user runs it, in a scratch directory: its options
# and refusals with their exit status, the table and CSV line in
# getc_putc's shape, the JSON with every method, the ++++++ rule against
# the JSON's own times, clyde-report reading the run's CSV line and JSON,
# nothing left behind, and a SIGINT that stops it.
. "$TESTLIB"
GP=${CLYDE_GETC_PUTC:-$(dirname "$CLYDE")/clyde-getc-putc}
need_built "$GP" "clyde-getc-putc"

scratch_dir
W=$SCRATCH
mkdir "$W/d"
D=$W/d
VERSION=$("$CLYDE" --version | sed -n 's/^clyde //p')

# --help names every option; --version the version
"$GP" --help >"$W/help"
expect_eq "--help exit status" "$?" 0
for o in '-d dir' '-s size' '-m name' '-u user' '-g group' '-q ' '--json FILE' '--helper FD:BYTES' \
	'--help' '--version'; do
	expect_file_has "--help lists $o" "$W/help" "$o"
done
expect_eq "--version" "$("$GP" --version)" "clyde-getc-putc $VERSION"

# refusals: the message names the problem, the status is the documented one
refused() {
	want=$1 what=$2
	shift 2
	"$GP" "$@" >"$W/r.out" 2>"$W/r.err"
	expect_eq "$* exits $want" "$?" "$want"
	expect_file_has "$* says why" "$W/r.err" "$what"
	expect_eq "$* prints no CSV line" "$(cat "$W/r.out")" ""
}
refused 1 "under 64 KiB" -d "$D" -s 63
refused 1 "not a size" -d "$D" -s 12q
refused 1 "comma" -d "$D" -s 64k -m a,b
refused 1 "no operand" -d "$D" -s 64k extra
refused 1 "not FD:BYTES" --helper nonsense
refused 1 "unrecognized option" --no-such-option
refused 2 "$W/missing" -d "$W/missing" -s 64k
if [ "$(id -u)" != 0 ]; then
	refused 1 "only root" -d "$D" -s 64k -u root
fi

# a run: -s 100 is 64 KiB (a multiple of 64 KiB), so every figure is under 0.5 s
"$GP" -d "$D" -s 100 -q -m box --json "$W/run.json" >"$W/out" 2>"$W/err"
expect_eq "run exit status" "$?" 0
expect_eq "stdout is getc_putc's CSV line alone" "$(cat "$W/out")" \
	"box,++++++,++++++,++++++,++++++,++++++,++++++,++++++,++++++"
expect_eq "-q: stderr is the table alone, 4 lines" "$(wc -l <"$W/err" | tr -d ' ')" 4
expect_eq "table heading" "$(sed -n 1p "$W/err")" \
	"$(printf 'Version %5s          write   read putcNT getcNT   putc   getc  putcU  getcU' "$VERSION")"
expect_eq "table row" "$(sed -n 2p "$W/err")" \
	"box                   ++++++ ++++++ ++++++ ++++++ ++++++ ++++++ ++++++ ++++++"
expect_eq "threaded heading" "$(sed -n 3p "$W/err")" \
	"with an idle thread                                putcT  getcT putcUT getcUT"
expect_eq "threaded row" "$(sed -n 4p "$W/err")" \
	"box                                               ++++++ ++++++ ++++++ ++++++"
expect_empty_dir "the run's directory and file are gone" "$D"
expect_file_has "JSON schema" "$W/run.json" '"schema": "clyde-getc-putc/1"'
expect_file_has "JSON size, rounded down" "$W/run.json" '"size_kib": 64,'
expect_eq "JSON: twelve methods" "$(grep -c '"column": ' "$W/run.json")" 12
for col in write read putcNT getcNT putc getc putcU getcU putcT getcT putcUT getcUT; do
	line=$(grep "\"column\": \"$col\"" "$W/run.json")
	expect_match "JSON $col has its CPU" "$line" '"cpu_user_s": [0-9.]+, "cpu_sys_s": [0-9.]+'
	bytes=65536
	case $col in write | read) bytes=1024 ;; esac
	expect_match "JSON $col moved its bytes" "$line" "\"bytes\": $bytes,"
done
expect_match "JSON: the no-thread rows ran in the helper" \
	"$(grep '"column": "putcNT"' "$W/run.json")" '"process": "helper", "threads": 1'
expect_match "JSON: the threaded rows had two threads" \
	"$(grep '"column": "getcUT"' "$W/run.json")" '"threads": 2'

# without -q the progress goes to stderr, and stdout still has the CSV line alone
"$GP" -d "$D" -s 64k -m box >"$W/out" 2>"$W/err"
expect_eq "progress run exit status" "$?" 0
expect_eq "progress run: stdout the CSV line alone" "$(wc -l <"$W/out" | tr -d ' ')" 1
expect_file_has "progress on stderr" "$W/err" "Extending the file...done"
expect_file_has "the helper's rows on stderr" "$W/err" "in a process without threads...done"

# --json -: stdout carries the JSON alone
"$GP" -d "$D" -s 64k -q --json - >"$W/out" 2>"$W/err"
expect_eq "--json - exit status" "$?" 0
expect_eq "--json -: stdout starts with the document" "$(head -c 1 "$W/out")" "{"
expect_eq "--json -: no CSV line" "$(grep -c '^[^ {}\"].*,' "$W/out")" 0

# The ++++++ rule against the JSON's own times, at a size where some
# figures pass 0.5 s and some do not: each CSV cell is ++++++ exactly when
# its elapsed_s is under 0.5, else the whole KiB/s of its bytes and time.
"$GP" -d "$D" -s 16m -q -m box --json "$W/big.json" >"$W/out" 2>/dev/null
expect_eq "16m run exit status" "$?" 0
line=$(cat "$W/out")
expect_eq "16m: nine fields" "$(printf '%s\n' "$line" | awk -F, '{print NF}')" 9
i=1
for col in write read putcNT getcNT putc getc putcU getcU; do
	cell=$(csv_field "$line" $i)
	j=$(grep "\"column\": \"$col\"" "$W/big.json")
	el=$(printf '%s\n' "$j" | sed 's/.*"elapsed_s": \([0-9.]*\),.*/\1/')
	by=$(printf '%s\n' "$j" | sed 's/.*"bytes": \([0-9]*\),.*/\1/')
	want=$(awk -v e="$el" -v b="$by" 'BEGIN { if (e < 0.5) print "++++++"; else print int(b / 1024 / e) }')
	if [ "$want" = "++++++" ] || [ "$cell" = "++++++" ]; then
		expect_eq "16m: $col's cell follows the 0.5 s rule (elapsed $el s)" "$cell" "$want"
	else
		# elapsed_s is rounded to the microsecond: the cell may differ by one
		d=$((cell - want))
		[ "${d#-}" -le 1 ] && ok || fail "16m: $col's cell $cell, want $want (from the JSON)"
	fi
	i=$((i + 1))
done

# clyde-report reads the CSV line and the JSON of that run: one machine, two
# records that agree cell by cell (the JSON's unrounded, within one KiB/s)
if [ -x "$REPORT" ]; then
	"$REPORT" "$W/out" "$W/big.json" >"$W/rep" 2>"$W/rep.err"
	expect_eq "clyde-report on the run: exit status" "$?" 0
	rep=$(grep '^box ' "$W/rep" | head -n 1 | tr -s ' ')
	expect_eq "clyde-report: two records of box" "$(echo "$rep" | cut -d' ' -f2)" 2
	i=1
	for col in write read putcNT getcNT putc getc putcU getcU; do
		cell=$(csv_field "$line" $i)
		got=$(echo "$rep" | cut -d' ' -f$((i + 2)))
		if [ "$cell" = "++++++" ]; then
			expect_eq "clyde-report: $col hidden as the CSV's" "$got" "+"
		else
			d=$((got - cell))
			[ "${d#-}" -le 1 ] && ok || fail "clyde-report: $col $got, the CSV's $cell"
		fi
		i=$((i + 1))
	done
	expect_file_has "clyde-report: the CPU of the JSON record" "$W/rep" "CPU ms per MiB"
fi

# SIGINT stops a run, with status 5, and removes its file
"$GP" -d "$D" -s 256m -q >/dev/null 2>"$W/int.err" &
pid=$!
sleep 1
kill -INT $pid
wait $pid
expect_eq "SIGINT: exit status 5" "$?" 5
expect_empty_dir "SIGINT: the run's directory and file are gone" "$D"

done_testing
