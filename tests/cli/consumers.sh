#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# The programs that read bonnie++'s whole stdout -- PerfKitBenchmarker,
# OPNFV Yardstick, mmtests, bonnie2gchart, bon_csv2txt/bon_csv2html -- run
# in the command shapes they use, must take clyde's output and get the
# numbers of clyde's CSV line. tests/cli/consumers.py reimplements each one's
# parsing rule (and says where the rule comes from). Also: in every shape,
# any line with a comma, on stdout or stderr, is a 1.98 CSV line or the -x
# header (DESIGN.md 3, "Streams, order, and what clyde adds").
. "$TESTLIB"
need_root
# the interpreter itself, once: a version manager's shim costs 0.5 s a call
need_python3 "for the consumer parsers"
PY=$(python3 -c 'import sys; print(sys.executable)')
HELPER=$(dirname "$TESTLIB")/cli/consumers.py

need_tmpfs 256m
MNT=$SCRATCH
scratch_dir
W=$SCRATCH
HAVE_BON=no
command -v bon_csv2html >/dev/null && command -v bon_csv2txt >/dev/null && HAVE_BON=yes

# -S: no site module, half the start-up time of the ~50 calls (the helper
# needs only re and sys)
cons() {
	"$PY" -S "$HELPER" "$@"
}

# run NAME ARGS...: clyde ARGS, stdout in $W/NAME.out, stderr in $W/NAME.err,
# the valid CSV lines of stdout in $W/NAME.csv, the last of them in $LINE
run() {
	n=$1
	shift
	"$CLYDE" "$@" >"$W/$n.out" 2>"$W/$n.err"
	expect_eq "$n: exit status" "$?" 0
	cons csvlines "$W/$n.out" >"$W/$n.csv"
	LINE=$(tail -n 1 "$W/$n.csv")
}

# consumer LABEL CONSUMER FILE CSVFILE: CONSUMER parses FILE without error
# and every value it takes equals its field in the CSV lines of CSVFILE
consumer() {
	c_label=$1
	c_name=$2
	c_file=$3
	c_csv=$4
	set --
	while IFS= read -r l; do
		set -- "$@" --expect "$l"
	done <"$c_csv"
	if c_out=$(cons "$c_name" "$c_file" "$@"); then ok; else fail "$c_label: $c_out"; fi
}

# got CONSUMER FILE KEY: the value CONSUMER holds for KEY
got() {
	cons "$1" "$2" --get "$3" 2>&1
}

# commas LABEL FILE...: every line with a comma is CSV or the header
commas() {
	c_label=$1
	shift
	if c_out=$(cons generic "$@"); then ok; else fail "$c_label: $c_out"; fi
}

# streams NAME: the comma rule on stdout alone and on stdout+stderr (2>&1)
streams() {
	commas "$1: stdout" "$W/$1.out"
	commas "$1: stdout+stderr (2>&1)" "$W/$1.out" "$W/$1.err"
}

# ident NAME LINE: the CSV line carries what the command line asked for
ident() {
	expect_eq "$1: CSV is 1.98 with 50 fields" "$(printf '%s\n' "$2" | awk -F, '{print $1, NF}')" "1.98 50"
	expect_eq "$1: name, seed" "$(csv_field "$2" 2),$(csv_field "$2" 4)" "box,4242"
}

# table NAME: stdout is bonnie++'s table, then the CSV line last, one CSV
# line, no context lines (those go to stderr)
table() {
	expect_match "$1: stdout starts with the table" "$(head -n 1 "$W/$1.out")" '^Version [^ ]+ +------Sequential Output------'
	expect_eq "$1: one CSV line on stdout" "$(wc -l <"$W/$1.csv")" 1
	expect_eq "$1: the CSV line is the last line" "$(tail -n 1 "$W/$1.out")" "$LINE"
	expect_eq "$1: stdout ends with a newline" "$(tail -c 1 "$W/$1.out" | od -An -c | tr -d ' ')" '\n'
	if grep -Eq 'engine psync|^filesystem:|^environment:' "$W/$1.out"; then
		fail "$1: context lines on stdout: $(grep -E 'engine psync|^filesystem:|^environment:' "$W/$1.out")"
	else ok; fi
	expect_file_has "$1: context on stderr" "$W/$1.err" "engine psync"
}

T0=$(date +%s)
# The command shapes of Yardstick, PKB, mmtests and --json give no seek
# count, as the consumers' do: clyde times that phase (about a second).
# The other runs give bonnie++'s count (-s SIZE::8192) to stay fast.
TINY="-n 1 -f64k -m box -z 4242 --exact"

# 1. Yardstick: `bonnie++ -d DIR -s FILE_SIZE -r RAM -c CONC` (its sample
# task: -s 1024 -r 512 -c 1), result = stdout.split('\n')[-2], then fed to
# bon_csv2html. bonnie2gchart and mmtests's rule on the same output.
# shellcheck disable=SC2086
run yard -d "$MNT" -s 8 -r 4 -c 1 $TINY
ident yard "$LINE"
table yard
streams yard
consumer "Yardstick takes the CSV line" yardstick "$W/yard.out" "$W/yard.csv"
expect_eq "Yardstick: block write = CSV field 11" "$(got yardstick "$W/yard.out" put_block)" "$(csv_field "$LINE" 11)"
if [ $HAVE_BON = yes ]; then
	raw=$(got yardstick "$W/yard.out" raw_data)
	printf '%s\n' "$raw" | bon_csv2html >"$W/yard.html" 2>"$W/yard.html.err"
	expect_eq "Yardstick: bon_csv2html on raw_data" "$?:$(cat "$W/yard.html.err")" "0:"
	expect_file_has "Yardstick: bon_csv2html shows the seeks" "$W/yard.html" ">$(csv_field "$LINE" 19)<"
fi
consumer "bonnie2gchart takes stdout" bonnie2gchart "$W/yard.out" "$W/yard.csv"
cat "$W/yard.out" "$W/yard.err" >"$W/yard.all"
consumer "bonnie2gchart takes stdout+stderr" bonnie2gchart "$W/yard.all" "$W/yard.csv"
expect_eq "bonnie2gchart: block write = CSV field 11" "$(got bonnie2gchart "$W/yard.out" put_block)" "$(csv_field "$LINE" 11)"
consumer "mmtests rule on stdout+stderr" mmtests "$W/yard.all" "$W/yard.csv"

# 2. the same with the extra tables: before the CSV line, no commas
# shellcheck disable=SC2086
run extra -d "$MNT" -s 8::8192 -r 4 $TINY --latency --cpu --ceilings
ident extra "$LINE"
table extra
streams extra
pct=$(grep -n 'p99\.9' "$W/extra.out" | head -n 1 | cut -d: -f1)
csvn=$(grep -n '^1\.98,' "$W/extra.out" | tail -n 1 | cut -d: -f1)
expect_match "extra: latency table on stdout" "${pct:-none}" '^[0-9]+$'
[ -n "$pct" ] && [ -n "$csvn" ] && [ "$pct" -lt "$csvn" ] && ok || fail "extra: latency table is not before the CSV line"
expect_file_has "extra: CPU table on stdout" "$W/extra.out" "system"
consumer "extra: Yardstick" yardstick "$W/extra.out" "$W/extra.csv"
consumer "extra: bonnie2gchart" bonnie2gchart "$W/extra.out" "$W/extra.csv"
cat "$W/extra.out" "$W/extra.err" >"$W/extra.all"
consumer "extra: bonnie2gchart on stdout+stderr" bonnie2gchart "$W/extra.all" "$W/extra.csv"
consumer "extra: mmtests rule" mmtests "$W/extra.all" "$W/extra.csv"

# 3. PerfKitBenchmarker: `bonnie++ -q -d DIR -s 2xRAM -n 100 -f`, the whole
# stdout stripped and split on commas
run pkb -q -d "$MNT" -s 8 -n 1 -f -m box -z 4242 --exact
ident pkb "$LINE"
streams pkb
expect_eq "-q: stdout is the CSV line alone" "$(cat "$W/pkb.out")" "$LINE"
consumer "PKB parses -q stdout" pkb "$W/pkb.out" "$W/pkb.csv"
expect_eq "PKB: block write = CSV field 11" "$(got pkb "$W/pkb.out" put_block)" "$(csv_field "$LINE" 11)"
expect_eq "PKB: seeks = CSV field 19" "$(got pkb "$W/pkb.out" seeks)" "$(csv_field "$LINE" 19)"
expect_eq "PKB: seed metadata = CSV field 4" "$(got pkb "$W/pkb.out" seed)" 4242
# +++++ (no --exact): PKB skips those samples, still no error
run pkbplus -q -d "$MNT" -s 4::8192 -n 1 -f -m box -z 4242
consumer "PKB parses +++++" pkb "$W/pkbplus.out" "$W/pkbplus.csv"

# 4. -q with extra tables: they go to stderr, stdout keeps the CSV alone
run quiet -q -d "$MNT" -s 8::8192 -n 1 -f -m box -z 4242 --exact --latency --cpu
streams quiet
expect_eq "-q --latency --cpu: stdout is one line" "$(wc -l <"$W/quiet.out")" 1
expect_eq "-q --latency --cpu: and it is the CSV" "$(cat "$W/quiet.out")" "$LINE"
expect_file_has "-q --latency: latency table on stderr" "$W/quiet.err" "p99.9"
consumer "PKB parses -q --latency --cpu" pkb "$W/quiet.out" "$W/quiet.csv"

# 5. mmtests: `bonnie++ [-b] -u root -r 0 -d DIR -s MiB -n N:S:S:DIRS -f
# -m HOST -R 128 -l DETAIL 2>&1 | tee bonnie` (-R is mmtests's own patch,
# not bonnie++ 2.00a's: left out), then every /^[a-z0-9.-]+,/ line of it
"$CLYDE" -u root -r 0 -d "$MNT" -s 8 -n 1:4096:4096:2 -f -m box -z 4242 --exact \
	-l "$W/bonnie-detail" 2>&1 | tee "$W/mm.out" >/dev/null
cons csvlines "$W/mm.out" >"$W/mm.csv"
LINE=$(tail -n 1 "$W/mm.csv")
ident mmtests "$LINE"
commas "mmtests: 2>&1 output" "$W/mm.out"
consumer "mmtests parses 2>&1 output" mmtests "$W/mm.out" "$W/mm.csv"
expect_eq "mmtests: block write = CSV field 11" "$(got mmtests "$W/mm.out" put_block)" "$(csv_field "$LINE" 11)"
expect_eq "mmtests: 2 dirs in CSV field 24" "$(csv_field "$LINE" 24)" 2
"$CLYDE" -u root -r 0 -d "$MNT" -s 4::8192 -n 1:4096:4096:2 -f -m box -z 4242 2>&1 | tee "$W/mmplus.out" >/dev/null
cons csvlines "$W/mmplus.out" >"$W/mmplus.csv"
consumer "mmtests parses +++++ output" mmtests "$W/mmplus.out" "$W/mmplus.csv"

# 6. -x 1: $(clyde ... -x 1) is the CSV line, and only it
run x1 -d "$MNT" -s 8::8192 -n 1 -f -m box -z 4242 --exact -x 1
ident x1 "$LINE"
streams x1
expect_eq "-x 1: stdout is one line" "$(wc -l <"$W/x1.out")" 1
one=$("$CLYDE" -d "$MNT" -s 4::8192 -n 1 -f -m box -z 4242 -x 1 2>/dev/null)
expect_match "-x 1: \$(clyde -x 1) is one CSV line" "$(printf '%s\n' "$one" | wc -l) $one" '^1 1\.98,([^,]*,){48}[^,]*$'
consumer "-x 1: PKB rule" pkb "$W/x1.out" "$W/x1.csv"
consumer "-x 1: Yardstick rule" yardstick "$W/x1.out" "$W/x1.csv"
run x1lat -d "$MNT" -s 8::8192 -n 1 -f -m box -z 4242 --exact -x 1 --latency --cpu
streams x1lat
expect_eq "-x 1 --latency --cpu: stdout is one line" "$(wc -l <"$W/x1lat.out")" 1
expect_file_has "-x 1 --latency: latency table on stderr" "$W/x1lat.err" "p99.9"
if [ $HAVE_BON = yes ]; then
	bon_csv2html <"$W/x1.out" >"$W/x1.html" 2>"$W/x1.html.err"
	expect_eq "-x 1 | bon_csv2html" "$?:$(cat "$W/x1.html.err")" "0:"
fi

# 7. -x 3: the header, then three CSV lines, nothing else
run x3 -d "$MNT" -s 4::8192 -n 1 -f -m box -z 4242 --exact -x 3 --latency
streams x3
expect_eq "-x 3: stdout is 4 lines" "$(wc -l <"$W/x3.out")" 4
expect_match "-x 3: header first" "$(head -n 1 "$W/x3.out")" '^format_version,bonnie_version,'
expect_eq "-x 3: then three CSV lines" "$(tail -n +2 "$W/x3.out")" "$(cat "$W/x3.csv")"
expect_eq "-x 3: three of them" "$(wc -l <"$W/x3.csv")" 3
expect_file_has "-x 3 --latency: latency tables on stderr" "$W/x3.err" "p99.9"
consumer "-x 3: bonnie2gchart" bonnie2gchart "$W/x3.out" "$W/x3.csv"
cat "$W/x3.out" "$W/x3.err" >"$W/x3.all"
consumer "-x 3: mmtests rule on stdout+stderr" mmtests "$W/x3.all" "$W/x3.csv"
if [ $HAVE_BON = yes ]; then
	tail -n +2 "$W/x3.out" | bon_csv2txt >"$W/x3.txt" 2>"$W/x3.txt.err"
	expect_eq "-x 3 data lines | bon_csv2txt" "$?:$(cat "$W/x3.txt.err")" "0:"
	expect_eq "-x 3: bon_csv2txt shows 3 I/O rows" "$(grep -Ec '^box +4M' "$W/x3.txt")" 3
fi

# 8. --json FILE: stdout as without it (same labels, line for line)
# shellcheck disable=SC2086
run json -d "$MNT" -s 8 -r 4 -c 1 $TINY --json "$W/doc.json"
table json
streams json
# the label (line 4) carries each run's own timed seek count
expect_eq "--json FILE: stdout shaped as without it" "$(sed 4d "$W/json.out" | cut -c1-18)" "$(sed 4d "$W/yard.out" | cut -c1-18)"
n=$(csv_field "$LINE" 7)
expect_eq "--json FILE: the label shows the timed seek count" "$(sed -n 4p "$W/json.out" | cut -c1-19)" \
	"$(awk -v s="8M:::$n" 'BEGIN { w = 19 - length(s) - 1; printf("%-" w "s %s", "box", s) }')"
expect_eq "--json FILE: JSON written, same seed" \
	"$("$PY" -c 'import json,sys; print(json.load(open(sys.argv[1]))["runs"][0]["seed"])' "$W/doc.json" 2>&1)" 4242
consumer "--json FILE: Yardstick" yardstick "$W/json.out" "$W/json.csv"
consumer "--json FILE: bonnie2gchart" bonnie2gchart "$W/json.out" "$W/json.csv"

expect_empty_dir "after all runs" "$MNT"
echo "consumers.sh: $(($(date +%s) - T0)) s"
done_testing
