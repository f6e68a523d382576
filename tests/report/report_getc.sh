#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# clyde-report on getc_putc's records: CSV lines in getc_putc's shape
# (bonnie++'s and clyde-getc-putc's are the same) and clyde-getc-putc/1
# JSON documents, written here by hand: the medians per machine, the +
# and - cells, the threaded columns and the CPU per MiB from the JSON,
# malformed records skipped and counted, the page's section, and records
# mixed with a bonnie++ run.
. "$TESTLIB"
need_built "$REPORT"
scratch_dir
W=$SCRATCH
G=${REPORT_GOLDEN:-$(dirname "$TESTLIB")/data/report_golden}

# cells NAME FILE: the cells of NAME's first row in FILE, one space apart
cells() {
	grep "^$1 " "$2" | head -n 1 | tr -s ' ' | cut -d' ' -f2-
}

cat >"$W/a.csv" <<'CSV'
vm,1000,2000,150000,160000,170000,180000,++++++,++++++
vm,1200,2400,++++++,140000,150000,190000,++++++,700000
vm,1100,2200,160000,150000,160000,200000,++++++,
other,10,20,30,40,50,60,70,80
CSV
"$REPORT" "$W/a.csv" >"$W/a.txt" 2>"$W/a.err"
expect_eq "CSV records: exit status" "$?" 0
expect_eq "CSV records: nothing on stderr" "$(cat "$W/a.err")" ""
expect_file_has "the section's heading" "$W/a.txt" "getc_putc (bonnie++'s getc_putc, clyde-getc-putc)"
expect_eq "the heading row: getc_putc's eight" "$(cells Name "$W/a.txt")" \
	"n write read putcNT getcNT putc getc putcU getcU"
# medians of three (putcNT: of two, the third hidden); putcU hidden in all: +;
# getcU: the one measured (the others: hidden, and not measured)
expect_eq "vm: medians" "$(cells vm "$W/a.txt")" "3 1100 2200 155000 150000 160000 190000 + 700000"
expect_eq "other: its one record" "$(cells other "$W/a.txt")" "1 10 20 30 40 50 60 70 80"
expect_eq "no CPU table without JSON" "$(grep -c 'CPU ms per MiB' "$W/a.txt")" 0

# a JSON document: twelve methods, CPU per method
method() {
	printf '    {"name": "%s", "column": "%s", "bytes": 1048576, "elapsed_s": %s, "kib_per_s": %s, "under_min_time": %s, "cpu_s_per_mib": %s}%s\n' \
		"$1" "$2" "$3" "$4" "$5" "$6" "$7"
}
{
	echo '{'
	echo '  "schema": "clyde-getc-putc/1", "clyde_version": "0.1.0", "machine": "vm", "size_kib": 65536,'
	echo '  "methods": ['
	method write write 1.0 1300.5 false 0.75 ,
	method read read 0.8 2600.0 false 0.5 ,
	method putc_no_thread putcNT 0.4 170000 true 0.005 ,
	method getc_no_thread getcNT 0.6 150000 false 0.006 ,
	method putc putc 0.6 160000 false 0.004 ,
	method getc getc 0.6 190000 false 0.004 ,
	method putc_unlocked putcU 0.2 500000 true 0.0015 ,
	method getc_unlocked getcU 0.2 800000 true 0.0012 ,
	method putc_thread putcT 0.9 90000 false 0.0085 ,
	method getc_thread getcT 0.7 120000 false 0.0062 ,
	method putc_unlocked_thread putcUT 0.2 510000 true 0.0014 ,
	method getc_unlocked_thread getcUT 0.2 790000 true 0.0013 ''
	echo '  ]'
	echo '}'
} >"$W/b.json"
"$REPORT" "$W/a.csv" "$W/b.json" >"$W/b.txt" 2>"$W/b.err"
expect_eq "CSV and JSON: exit status" "$?" 0
expect_eq "CSV and JSON: nothing on stderr" "$(cat "$W/b.err")" ""
expect_eq "the heading row: and the threaded four" "$(cells Name "$W/b.txt")" \
	"n write read putcNT getcNT putc getc putcU getcU putcT getcT putcUT getcUT"
# the JSON's rates join the CSV's (write: 1000 1100 1200 1300.5 -> 1150);
# its figures under 0.5 s are hidden as the CSV's
expect_eq "vm: medians of four records" "$(cells vm "$W/b.txt")" \
	"4 1150 2300 155000 150000 160000 190000 + 700000 90000 120000 + +"
expect_eq "other: no threaded figures" "$(cells other "$W/b.txt")" "1 10 20 30 40 50 60 70 80 - - - -"
expect_file_has "the CPU table" "$W/b.txt" "CPU ms per MiB"
# CPU ms per MiB of the JSON record: also where the rate is hidden
expect_eq "vm: CPU per MiB" "$(sed -n '/^CPU ms per MiB/,$p' "$W/b.txt" | grep '^vm ' | tr -s ' ' | cut -d' ' -f2-)" \
	"1 750 500 5 6 4 4 1.5 1.2 8.5 6.2 1.4 1.3"
expect_eq "other has no CPU row" "$(sed -n '/^CPU ms per MiB/,$p' "$W/b.txt" | grep -c '^other ')" 0

# the page: the section and its tables
"$REPORT" --html "$W/b.html" "$W/a.csv" "$W/b.json" >/dev/null 2>&1
expect_eq "--html: exit status" "$?" 0
expect_file_has "the page's section" "$W/b.html" "<h2>One byte at a time (getc_putc)</h2>"
expect_file_has "the page's rates" "$W/b.html" '<td>vm</td><td class="num">4</td><td class="num">1150</td>'
expect_file_has "the page's CPU" "$W/b.html" '<td>vm</td><td class="num">1</td><td class="num">750</td>'

# records alone: the page is their section, without the runs' empty ones
"$REPORT" --html "$W/a.html" "$W/a.csv" >/dev/null 2>&1
expect_eq "--html of records alone: exit status" "$?" 0
expect_file_has "records alone: counted in the head" "$W/a.html" " 4 getc_putc records."
expect_file_has "records alone: their section" "$W/a.html" "<h2>One byte at a time (getc_putc)</h2>"
expect_eq "records alone: no runs' summary or charts" "$(grep -c '<h2>Summary</h2>\|<h2>Charts</h2>' "$W/a.html")" 0

# malformed records: skipped, said, counted; the good ones still reported
cat >"$W/bad.csv" <<'CSV'
,1,2,3,4,5,6,7,8
vm,1,2,3,4,5,6,7,fast
vm,1,2,3,4,5,6,7,-1
ok,1,2,3,4,5,6,7,8
CSV
"$REPORT" "$W/bad.csv" >"$W/bad.txt" 2>"$W/bad.err"
expect_eq "malformed: exit status" "$?" 0
expect_file_has "an empty name is said" "$W/bad.err" "bad.csv:1: a getc_putc line whose machine name is empty"
expect_file_has "a bad cell is named" "$W/bad.err" "bad.csv:2: a getc_putc line whose getcU field is not KiB/s"
expect_file_has "a negative cell" "$W/bad.err" "bad.csv:3:"
expect_file_has "counted" "$W/bad.err" "3 malformed lines skipped"
expect_eq "the good record" "$(cells ok "$W/bad.txt")" "1 1 2 3 4 5 6 7 8"
sed 's/"column": "getcUT"/"column": "nosuch"/' "$W/b.json" >"$W/badcol.json"
"$REPORT" "$W/badcol.json" >/dev/null 2>"$W/badcol.err"
expect_eq "a document with an unknown method: nothing to report" "$?" 3
expect_file_has "the unknown method is said" "$W/badcol.err" "without a known \"column\""

# beside a bonnie++ run: its table, then the records'
"$REPORT" "$G/bonnie-2.00a.csv" "$W/a.csv" >"$W/mix.txt" 2>"$W/mix.err"
expect_eq "mixed: exit status" "$?" 0
expect_match "mixed: the runs' head first" "$(head -n 1 "$W/mix.txt")" '^clyde-report: [0-9]+ runs? in'
expect_eq "mixed: the records' medians" "$(cells vm "$W/mix.txt")" "3 1100 2200 155000 150000 160000 190000 + 700000"

done_testing
