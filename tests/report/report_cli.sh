#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# clyde-report as a program: a mix of bonnie++ 1.98 (real 2.00a lines),
# 1.97, 1.96 and 1.03 CSV, clyde CSV and clyde JSON (/1 and /2) in one
# report, with and without --baseline, checked field by field; stdin,
# -o, the error paths and every documented exit status; the CPU cost
# table of clyde --profile runs (clyde-result/3), in the text and the page;
# the tree workloads of clyde --tree runs (clyde-result/4).
. "$TESTLIB"
G=${REPORT_GOLDEN:-$(dirname "$TESTLIB")/data/report_golden}
need_built "$REPORT"
scratch_dir
W=$SCRATCH
MIX="$G/bonnie-1.97.csv $G/bonnie-1.03.csv $G/clyde-x3.csv $G/clyde-x2.json $G/clyde-r1.json $G/bonnie-2.00a.csv"

# row BLOCK PHASE FILE: the cells after the phase name of that phase's
# row in block [BLOCK], one space apart (the phase names have spaces).
row() {
	sed -n "/^\[$1\] /,/^\$/p" "$3" | grep "^  $2  " | sed "s|^  $2 *||; s|  *| |g"
}

# 1. absolute figures
# shellcheck disable=SC2086
"$REPORT" $MIX >"$W/abs" 2>"$W/abs.err"
expect_eq "mix: exit status" "$?" 0
expect_eq "mix: nothing on stderr" "$(cat "$W/abs.err")" ""
expect_eq "mix: head" "$(head -n 1 "$W/abs")" "clyde-report: 26 runs in 16 configurations"
expect_eq "mix: blocks, in reading order" "$(grep '^\[' "$W/abs" | sed 's/: [0-9]* runs\{0,1\} (.*//' | tr '\n' '|')" \
"[1] base -s 4G -n 16|[2] old196 -s 2G:16k -n 16|[3] new103 -s 4G -n 16|[4] packed -s 300M:32k -n 16:10240:1024:4|\
[5] zeromin -s 1G -n 8:4096|[6] links103 -n 16:link|[7] tmpfs-clyde -s 64M::*:5 -n 1|[8] tmpfs-v1 -s 64M::278752:5 -n 1|\
[9] ext4 -s 4G::8192:5 -n 64|[10] default -s 48208M::8192:5 -n 16|[11] tmpfs -s 2G::8192:5 -n 16|\
[12] label -s 1G::8192:5 -c 2 -n 4:65536:1024:4|[13] links -n 2:link|[14] syms -n 2:symlink|\
[15] fast -s 512M::8192:5|[16] rep -s 256M::8192:5 -n 1|"
expect_eq "mix: clyde CSV and JSON of one configuration" "$(grep '^\[7\]' "$W/abs")" \
	"[7] tmpfs-clyde -s 64M::*:5 -n 1: 5 runs (clyde 0.1.0 CSV, clyde 0.1.0 JSON)"
expect_eq "mix: header row" "$(sed -n '/^\[1\]/{n;p;}' "$W/abs")" \
	"  Phase                Rate  Unit             Min..Max   CV%    n     CPU s  per         Latency us"
# cells: rate unit min..max CV% n CPU per latency; CPU = cpu%/100 / rate * 1024 (MiB) or * 1000
# the byte phases' rates in the page's unit of the phase, 4 significant digits: block write's
# column has a median above 1 GiB/s (clyde's), so 110000 KiB/s is 110000 / 1048576 = 0.1049 GiB/s
expect_eq "1.97: block write" "$(row 1 'Block write' "$W/abs")" "0.1049 GiB/s 0.09537..0.1144 9.1 3 0.00102 MiB 110000"
expect_eq "1.97: random seeks" "$(row 1 'Random seeks' "$W/abs")" "410 seeks/s 400..420 2.4 3 0.122 1000 seeks 80000"
expect_eq "1.97: +++++" "$(row 1 'Seq stat/read' "$W/abs")" "+++++ files/s 0+3 +++ 500"
expect_eq "1.96: 16k chunk, seeks/s" "$(row 2 'Random seeks' "$W/abs")" "350.5 seeks/s - - 1 0.114 1000 seeks 75000"
expect_eq "1.03: block write" "$(row 3 'Block write' "$W/abs")" "0.2098 GiB/s 0.1907..0.2289 9.1 3 0.000512 MiB"
expect_eq "1.03: random delete" "$(row 3 'Random delete' "$W/abs")" "60000 files/s 58000..62000 3.3 3 0.00667 1000 files"
expect_eq "1.03: packed fields" "$(row 4 'Random seeks' "$W/abs")" "1200 seeks/s - - 1 0.0750 1000 seeks"
# 5^2: the two JSON runs ran it under 0.5 s (too_short), counted with their rates (the three CSV
# lines were written with --exact)
expect_eq "clyde: block write" "$(row 7 'Block write' "$W/abs")" "1.118 GiB/s 0.7274..1.977 39.1 5^2 0.000714 MiB 3339"
expect_eq "clyde: seeks" "$(row 7 'Random seeks' "$W/abs")" "278582 seeks/s 144024..296711 26.2 5 0.00424 1000 seeks 56351"
expect_eq "2.00a: per-char write" "$(row 9 'Per-char write' "$W/abs")" "0.5811 MiB/s - - 1 1.70 MiB 16824"
expect_eq "2.00a: ms latency" "$(row 10 'Rewrite' "$W/abs")" "0.4889 GiB/s - - 1 0.00144 MiB 1007000"
expect_eq "2.00a: repeated runs" "$(row 16 'Per-char write' "$W/abs")" "0.6113 MiB/s 0.5918..0.6436 4.2 3 1.62 MiB 15456"
expect_eq "mix: the unit column starts at one place in every row" \
	"$(grep -E '^  [A-Z].*((KiB|seeks|files)/s|  Unit  )' "$W/abs" | sed -E 's/(KiB|seeks|files)\/s.*//; s/Unit.*//' |
	   awk '{print length}' | sort -u)" 29

# 2. against a baseline
# shellcheck disable=SC2086
"$REPORT" --baseline base $MIX >"$W/base" 2>"$W/base.err"
expect_eq "baseline: exit status" "$?" 0
expect_eq "baseline: named" "$(sed -n 2p "$W/base")" "Baseline: [1] base -s 4G -n 16"
expect_file_has "baseline: direction" "$W/base" "that > 1.00 is better: a higher rate, less CPU per unit of work, a lower latency."
expect_file_has "baseline: the test" "$W/base" "(Welch's t-test, p < 0.05); ? fewer than 2 runs on a side: cannot tell."
expect_eq "baseline: itself" "$(row 1 'Block write' "$W/base")" "1.00 0.91..1.09 9.1 3 1.00 1.00 0.1049 GiB/s"
# ratios of means: 220000/110000; CPU 0.001024/0.000512 with no spread (p = 0); Welch p = 0.00366;
# the rewrite's CPU per MiB: the same 8% of 52000, 60000 and 68000 KiB/s against 50000, 60000 and
# 70000 has the same median but not the same mean (1.0069)
expect_eq "1.03 vs 1.97: a difference" "$(row 3 'Block write' "$W/base")" "2.00 1.82..2.18 9.1 3 2.00 0.2098 GiB/s"
expect_eq "1.03 vs 1.97: within the noise" "$(row 3 'Rewrite' "$W/base")" "1.00~ 0.87..1.13 13.3 3 1.01~ 0.05722 GiB/s"
expect_eq "1.03 vs 1.97: seeks" "$(row 3 'Random seeks' "$W/base")" "2.00 1.95..2.05 2.4 3 2.00 820 seeks/s"
# the mix's sixteen configurations have no phase in common: no geometric mean, and why
expect_eq "mix: no geometric mean" "$(grep '^\[3\]' "$W/base")" \
	"[3] new103 -s 4G -n 16: 3 runs (bonnie++ 1.03); no geometric mean: no phase has a rate ratio in every configuration"
expect_eq "mix: no phase in all" "$(grep -c -e '^No phase has a rate ratio in every configuration' \
	-e '^  Block write: no rate in \[16\]$' "$W/base")" 2
# bonnie++ 1.97 and 1.03 alone: every mean over the 4 phases that the five configurations with a
# rate ratio all have (1.96's old196 and packed have no per-char phases, zeromin no create or
# delete): new103's block write 2, rewrite 1, block read 1, seeks 2, so 4^(1/4)
"$REPORT" --baseline base "$G/bonnie-1.97.csv" "$G/bonnie-1.03.csv" >"$W/base2" 2>&1
expect_eq "1.03 vs 1.97: geometric mean" "$(grep '^\[3\]' "$W/base2")" \
	"[3] new103 -s 4G -n 16: 3 runs (bonnie++ 1.03); geometric mean of rate ratios 1.41 over 4 phases"
expect_eq "1.03 vs 1.97: the phases left out" "$(sed -n '/^Every mean/,$p' "$W/base2")" \
	"Every mean is over the same 4 phases, those every configuration with a
  rate ratio has one for; left out of all:
  Per-char write: no rate in [2], [4]
  Per-char read: no rate in [2], [4]
  Seq create: no rate in [5]
  Seq delete: no rate in [5]
  Random create: no rate in [4], [5]
  Random delete: no rate in [4], [5]"
expect_eq "one run: cannot tell" "$(row 9 'Block write' "$W/base")" "3.82? - - 1 0.55? 12.28? 0.4008 GiB/s"
expect_eq "clyde vs 1.97" "$(row 7 'Block write' "$W/base")" "11.70 6.93..18.84 39.1 5^2 1.58 33.99 1.227 GiB/s"
expect_eq "clyde vs 1.97: latency within the noise" "$(row 7 'Seq create' "$W/base")" "4.05 2.79..5.20 22.4 5^2 3.14 0.32~ 85116 files/s"
# the mean rate: (606 + 626 + 659) / 3 = 630.33 KiB/s = 0.6156 MiB/s
expect_eq "2.00a x3 vs 1.97" "$(row 16 'Per-char write' "$W/base")" "1.24 1.19..1.29 4.2 3 1.22 1.18~ 0.6156 MiB/s"
expect_eq "baseline: summary" "$(sed -n '/^Geometric mean/,$p' "$W/base" | sed -n '2p;4p;8p;17p')" \
"  [1]       -  base -s 4G -n 16
  [3]       -  new103 -s 4G -n 16
  [7]       -  tmpfs-clyde -s 64M::*:5 -n 1
  [16]      -  rep -s 256M::8192:5 -n 1"
expect_eq "1.03 vs 1.97: summary" "$(sed -n '/^Geometric mean/,$p' "$W/base2" | sed -n '2,7p')" \
"  [1]   1.00  base -s 4G -n 16 (baseline)
  [2]   0.83  old196 -s 2G:16k -n 16
  [3]   1.41  new103 -s 4G -n 16
  [4]   1.39  packed -s 300M:32k -n 16:10240:1024:4
  [5]   0.78  zeromin -s 1G -n 8:4096
  [6]      -  links103 -n 16:link"
expect_eq "baseline: golden" "$(diff "$G/mix-baseline.txt" "$W/base")" ""
expect_eq "absolute: golden" "$(diff "$G/mix.txt" "$W/abs")" ""

# 3. selecting the baseline
"$REPORT" --baseline first "$G/bonnie-1.03.csv" "$G/bonnie-1.97.csv" >"$W/first"
expect_eq "first" "$(sed -n 2p "$W/first")" "Baseline: [1] new103 -s 4G -n 16"
"$REPORT" -b "new103 -s 4G -n 16" "$G/bonnie-1.97.csv" "$G/bonnie-1.03.csv" >"$W/key"
expect_eq "by key" "$(sed -n 2p "$W/key")" "Baseline: [3] new103 -s 4G -n 16"
"$REPORT" --baseline nosuch "$G/bonnie-1.97.csv" >/dev/null 2>"$W/err"
expect_eq "unknown baseline: usage" "$?" 1
expect_eq "unknown baseline: says so" "$(head -n 2 "$W/err")" \
"clyde-report: --baseline nosuch: no configuration has that name or key
clyde-report: the configurations are:"
printf '%s\n' "$(sed 's/^1.96,1.96,old196,1,1234,2G/1.96,1.96,old196,1,1234,1G/' "$G/bonnie-1.97.csv")" >"$W/twice.csv"
"$REPORT" --baseline old196 "$G/bonnie-1.97.csv" "$W/twice.csv" >/dev/null 2>"$W/err"
expect_eq "ambiguous baseline: usage" "$?" 1
expect_file_has "ambiguous baseline: says so" "$W/err" "more than one configuration has that name; give its key"

# 4. stdin, -o
"$REPORT" <"$G/bonnie-1.03.csv" >"$W/stdin"
expect_eq "no file: stdin" "$(sed -n 1p "$W/stdin")" "clyde-report: 6 runs in 4 configurations"
"$REPORT" "$G/bonnie-1.97.csv" - <"$G/bonnie-1.03.csv" >"$W/dash"
expect_eq "-: stdin among files" "$(sed -n 1p "$W/dash")" "clyde-report: 10 runs in 6 configurations"
expect_eq "-: the stdin runs' source" "$(grep -c '^\[.*bonnie++ 1.03)' "$W/dash")" 4
"$REPORT" -o "$W/out.txt" "$G/bonnie-1.97.csv" >"$W/stdout"
expect_eq "-o: exit status" "$?" 0
expect_eq "-o: stdout empty" "$(wc -c <"$W/stdout")" 0
expect_eq "-o: the text" "$(sed -n 1p "$W/out.txt")" "clyde-report: 4 runs in 2 configurations"
"$REPORT" --svg "$W/out.svg" --html "$W/out.html" "$G/bonnie-1.97.csv" >/dev/null 2>"$W/err"
expect_eq "--svg, --html: exit status" "$?" 0
expect_eq "--svg: an SVG document" "$(sed -n 2p "$W/out.svg" | cut -c1-41)" '<svg xmlns="http://www.w3.org/2000/svg" v'
expect_eq "--html: an HTML page" "$(head -n 2 "$W/out.html" | tr '\n' ' ')" \
	'<!DOCTYPE html> <html xmlns="http://www.w3.org/1999/xhtml" lang="en"> '
# exit 4: an output that cannot be written; said, and the text still comes
"$REPORT" --svg "$W/no-such-dir/out.svg" "$G/bonnie-1.97.csv" >"$W/stdout" 2>"$W/err"
expect_eq "an unwritable --svg exits 4" "$?" 4
expect_eq "an unwritable --svg: said" "$(cat "$W/err")" "clyde-report: $W/no-such-dir/out.svg: No such file or directory"
expect_eq "an unwritable --svg: the text still written" "$(sed -n 1p "$W/stdout")" "clyde-report: 4 runs in 2 configurations"

# 5. malformed input: reported with file and line, skipped, counted
"$REPORT" "$G/malformed.csv" >"$W/mal" 2>"$W/mal.err"
expect_eq "malformed: a run was read" "$?" 0
expect_eq "malformed: the messages" "$(sed "s|^$G/||" "$W/mal.err")" \
"malformed.csv:1: a format 1.98 line with 31 fields, not 50: skipped
malformed.csv:2: not a clyde or bonnie++ CSV line (3 fields, not 50, 48 or 27): skipped
malformed.csv:3: not a clyde or bonnie++ CSV line (2 fields, not 50, 48 or 27): skipped
malformed.csv:4: field 10 (putc) is not a rate: skipped
malformed.csv:5: field 39 (putc_latency) is not a latency (NNus, NNms, NNs): skipped
malformed.csv:6: binary data, not a line of text: skipped
malformed.csv:7: not a clyde or bonnie++ CSV line (50001 fields, not 50, 48 or 27): skipped
malformed.csv:12: a format 1.97 line with 50 fields, not 48: skipped
malformed.csv:13: a size or count field holds something else: skipped
malformed.csv:14: JSON document: the input ends inside it (line 15): skipped
clyde-report: 10 malformed lines skipped"
expect_eq "malformed: the survivor" "$(sed -n 1p "$W/mal")" "clyde-report: 1 run in 1 configuration; 10 malformed lines skipped"

# 6. exit status: 3 nothing to report, 2 unreadable, 1 usage, 4 unwritable
"$REPORT" /dev/null >"$W/out" 2>"$W/err"
expect_eq "nothing: 3" "$?" 3
expect_eq "nothing: no text" "$(wc -c <"$W/out")" 0
expect_eq "nothing: says so" "$(cat "$W/err")" "clyde-report: no runs to report"
"$REPORT" "$W/missing" "$G/bonnie-1.97.csv" >"$W/out" 2>"$W/err"
expect_eq "unreadable: 2" "$?" 2
expect_eq "unreadable: says so" "$(cat "$W/err")" "clyde-report: $W/missing: No such file or directory"
expect_eq "unreadable: the others reported" "$(sed -n 1p "$W/out")" "clyde-report: 4 runs in 2 configurations"
"$REPORT" "$W" >/dev/null 2>&1
expect_eq "a directory: 2" "$?" 2
"$REPORT" --bogus >/dev/null 2>&1
expect_eq "unknown option: 1" "$?" 1
"$REPORT" --help >"$W/help"
expect_eq "--help: 0" "$?" 0
expect_file_has "--help: exit codes" "$W/help" "Exit status: 0 ok, 1 usage, 2 an input could not be read, 3 nothing to report"
expect_eq "--version" "$("$REPORT" --version)" "clyde-report $("$CLYDE" --version | sed -n '1s/^clyde //p')"
if [ -w /dev/full ]; then
	"$REPORT" -o /dev/full "$G/bonnie-1.97.csv" 2>"$W/err"
	expect_eq "unwritable: 4" "$?" 4
	expect_eq "unwritable: says so" "$(cat "$W/err")" "clyde-report: /dev/full: the text: No space left on device"
fi
# 7. --profile (clyde-result/3): the CPU cost table
P=$G/clyde-p3.json
# cost BLOCK PHASE FILE: the cells of that phase's row in block [BLOCK] of the CPU cost table
cost() {
	sed -n '/^CPU cost (--profile)/,/^\(CPU split\|Where the time went\)/p' "$3" | sed -n "/^\[$1\] /,/^\$/p" | grep "^  $2  " |
		sed "s|^  $2 *||; s|  *| |g"
}
# cell BLOCK PHASE COLUMN FILE: one right-aligned cell of that row, found under the end
# of its column's head, so that an empty cell reads as empty and not as its neighbour
cell() {
	sed -n '/^CPU cost (--profile)/,/^\(CPU split\|Where the time went\)/p' "$4" | sed -n "/^\[$1\] /,/^\$/p" |
	awk -v phase="$2" -v col="$3" '
		/^  Phase / { end = index($0, col) + length(col) - 1; next }
		index($0, "  " phase "  ") == 1 {
			s = substr($0, 1, end)
			if (length(s) < end || substr(s, end, 1) == " ") { print ""; exit }
			n = split(s, f, " "); print f[n]; exit
		}'
}
"$REPORT" "$P" >"$W/prof" 2>"$W/prof.err"
expect_eq "profile: exit status" "$?" 0
expect_eq "profile: nothing on stderr" "$(cat "$W/prof.err")" ""
expect_eq "profile: head" "$(head -n 1 "$W/prof")" "clyde-report: 5 runs in 2 configurations"
expect_eq "profile: the table follows the blocks" "$(grep -n '^CPU cost (--profile): ' "$W/prof" | cut -d: -f1)" 22
expect_eq "profile: its blocks" "$(sed -n '/^CPU cost/,/^\(CPU split\|Where the time went\)/p' "$W/prof" | grep '^\[' | tr '\n' '|')" \
	"[1] ext4p -s 1G::8000:5 -n 16: 3 of 4 runs profiled|[2] tmpfsp -s 1G::8000:5 -n 16: 1 of 1 run profiled|"
expect_eq "profile: header row" "$(sed -n '/^CPU cost/,/^\(CPU split\|Where the time went\)/p' "$W/prof" | sed -n '/^\[1\]/{n;p;}')" \
	"  Phase         Clyde s  Caused s  per         Outside%  Write amp  Read amp  n"
# cells: clyde s, caused s, per (unit), outside %, write amp, [read amp,] n: medians of clyde-p3.json's
# per_unit.clyde_s, per_unit.caused_s, outside_fraction and device amplification (README)
expect_eq "profile: block write" "$(cost 1 'Block write' "$W/prof")" "0.410 0.560 GiB 26.7 1.03 3"
expect_eq "profile: rewrite" "$(cost 1 'Rewrite' "$W/prof")" "0.920 1.25 GiB 26.4 1.11 1.01 3"
expect_eq "profile: block read, no write amplification" "$(cost 1 'Block read' "$W/prof")" "0.300 0.340 GiB 11.4 - 1.00 3"
expect_eq "profile: seeks, one run unprofiled" "$(cost 1 'Random seeks' "$W/prof")" "0.0124 0.0155 1000 seeks 19.9 2.45 8.10 2"
expect_eq "profile: seq create, a null caused_s" "$(cost 1 'Seq create' "$W/prof")" "0.0510 0.0920 1000 files 45.1 3.20 3"
expect_eq "profile: no block device" "$(cost 2 'Block write' "$W/prof")" "0.350 - GiB - - 1"
expect_eq "profile: device unknown" "$(cost 2 'Block read' "$W/prof")" "0.250 0.270 GiB 7.4 - - 1"
expect_eq "profile: no row for a phase nobody profiled" "$(cost 1 'Per-char write' "$W/prof")" ""
for c in "1|Block write|Outside%|26.7" "1|Block write|Read amp|" "1|Block write|n|3" "1|Rewrite|Read amp|1.01" \
	"1|Block read|Write amp|-" "1|Random seeks|Clyde s|0.0124" "1|Random seeks|n|2" "1|Seq create|Caused s|0.0920" \
	"1|Seq create|Read amp|" "2|Block write|Caused s|-" "2|Block read|Read amp|-" "2|Block read|Outside%|7.4"; do
	b=${c%%|*} r=${c#*|}
	ph=${r%%|*} r=${r#*|}
	col=${r%%|*} want=${r#*|}
	expect_eq "profile: [$b] $ph, $col" "$(cell "$b" "$ph" "$col" "$W/prof")" "$want"
done
expect_eq "profile: the per column starts at one place in every row" "$(sed -n '/^CPU cost/,/^\(CPU split\|Where the time went\)/p' "$W/prof" |
	grep -E '^  [A-Z]' | awk '{ i = index($0, " per "); print i ? i + 1 : index($0, "GiB") + index($0, "1000 ") }' |
	sort | uniq -c | sed 's/^ *//')" "9 36"
expect_eq "profile: golden" "$(diff "$G/profile.txt" "$W/prof")" ""
"$REPORT" --baseline ext4p "$P" >"$W/prof-base"
expect_eq "profile: the same medians against a baseline" \
	"$(sed -n '/^CPU cost/,/^Geometric/p' "$W/prof-base" | sed '$d')" "$(sed -n '/^CPU cost/,$p' "$W/prof")"
# shellcheck disable=SC2086
"$REPORT" $MIX | grep -c '^CPU cost' >"$W/count"
expect_eq "profile: no table where no run was profiled" "$(cat "$W/count")" 0
# a bad figure in a profile rejects its run, with the file and line
sed 's/"write_amplification": 1.02/"write_amplification": -1.02/' "$P" >"$W/bad.json"
"$REPORT" "$W/bad.json" >"$W/bad" 2>"$W/bad.err"
expect_eq "profile: a bad run skipped" "$?" 0
expect_eq "profile: says which" "$(cat "$W/bad.err")" \
"$W/bad.json:14: phase put_block has a profile.device amplification that is not a ratio: skipped
clyde-report: 1 malformed line skipped"
expect_eq "profile: the others read" "$(sed -n '/^CPU cost/,/^\(CPU split\|Where the time went\)/p' "$W/bad" | grep '^\[1\]')" \
	"[1] ext4p -s 1G::8000:5 -n 16: 2 of 3 runs profiled"
# the page: the same medians, one row per configuration and phase
"$REPORT" --html "$W/prof.html" "$P" >/dev/null 2>"$W/err"
rc=$?
expect_match "profile: --html written, or not built yet (4)" "$rc" '^(0|4)$'
if [ "$rc" = 0 ]; then
	sed -n '/<caption>CPU cost per unit/,/<\/table>/p' "$W/prof.html" | grep '^<tr' |
		sed 's|<span class="key">[^<]*</span>||; s|</t[dh]>|\||g; s|<[^>]*>||g' >"$W/prof.rows"
	DASH=$(printf '\342\200\224')
	expect_eq "profile page: rows" "$(wc -l <"$W/prof.rows")" 8
	expect_eq "profile page: block write" "$(sed -n 2p "$W/prof.rows")" "1 ext4p|Block write|3|0.410|0.560|GiB|26.7|1.03||"
	expect_eq "profile page: seeks" "$(sed -n 5p "$W/prof.rows")" "Random seeks|2|0.0124|0.0155|1000 seeks|19.9|2.45|8.10|"
	expect_eq "profile page: not known" "$(sed -n 7p "$W/prof.rows")" "2 tmpfsp|Block write|1|0.350|$DASH|GiB|$DASH|$DASH||"
	if command -v python3 >/dev/null 2>&1; then
		check "profile page parses as XML" python3 -c 'import sys, xml.dom.minidom; xml.dom.minidom.parse(sys.argv[1])' "$W/prof.html"
	fi
fi
# 8. --tree (clyde-result/4): a table of the tree workloads per configuration
T=$G/clyde-t4.json
"$REPORT" "$T" >"$W/tree" 2>"$W/tree.err"
expect_eq "tree: exit status" "$?" 0
expect_eq "tree: nothing on stderr" "$(cat "$W/tree.err")" ""
expect_eq "tree: head" "$(head -n 1 "$W/tree")" "clyde-report: 8 runs in 5 configurations"
expect_eq "tree: another shape, scale or seed is another configuration" \
	"$(grep '^\[' "$W/tree" | sed 's/: [0-9]* runs\{0,1\} (.*//' | tr '\n' '|')" \
	"[1] ext4t --tree=ports:0.1|[2] xfst -n 1 --tree=ports:0.1|[3] ext4t --tree=ports:0.1 --tree-seed=7|\
[4] ext4t --tree=ports:0.2|[5] plain -n 1|"
expect_file_has "tree: the legend" "$W/tree" "  for the walk); MiB/s: the tree's bytes over the phase's time; Dead s: the median"
expect_eq "tree: the tree, under the block head" "$(sed -n '/^\[4\]/{n;p;}' "$W/tree")" \
	"  Tree workloads: 4000 files, 672 directories, 14.7 MiB"
expect_eq "tree: header row" "$(sed -n '/^\[1\]/{n;n;p;}' "$W/tree")" \
	"  Tree phase      Rate  Unit           Min..Max   CV%  n  MiB/s  Dead s    CPU s  per         Latency us"
# cells: rate unit min..max CV% n MiB/s dead CPU per latency (README: elapsed = amount / rate,
# dead = elapsed - user, user + sys = 0.32 elapsed, MiB/s = 7689133 bytes / elapsed / 2^20)
expect_eq "tree: extract" "$(row 1 'Tree extract' "$W/tree")" "2000 files/s 1800..2200 10.0 3 7.3 0.980 0.160 1000 files 20000"
expect_eq "tree: walk, 2336 entries" "$(row 1 'Tree walk' "$W/tree")" \
	"100000 files/s 90000..110000 10.0 3 313.9 0.023 0.00320 1000 files 2000"
expect_eq "tree: delete moves no bytes" "$(row 1 'Tree delete' "$W/tree")" "4000 files/s 3600..4400 10.0 3 0.980 0.0800 1000 files 60000"
expect_eq "tree: its MiB/s cell is empty" \
	"$(sed -n '/^\[1\]/,/^$/p' "$W/tree" | grep -E '^  Tree (phase|delete) ' | cut -c 59-63 | tr '\n' '|')" "MiB/s|     |"
expect_eq "tree: the file tests and the tree in one block" "$(sed -n '/^\[2\]/,/^$/p' "$W/tree" | grep '^  ' |
	awk -F '  +' '{ print $2 }' | tr '\n' '|')" "Phase|Seq create|Seq delete|Tree workloads: 2000 files, 336 directories, 7.3 MiB|\
Tree phase|Tree extract|Tree copy|Tree walk|Tree read|Tree delete|"
expect_eq "tree: file tests" "$(row 2 'Seq create' "$W/tree")" "4608 files/s 4096..5120 15.7 2 0.0537 1000 files 500"
expect_eq "tree: two runs" "$(row 2 'Tree walk' "$W/tree")" "157500 files/s 150000..165000 6.7 2 494.4 0.013 0.00191 1000 files 1050"
expect_eq "tree: no tree, no tree table" "$(sed -n '/^\[5\]/,$p' "$W/tree" | grep -c 'Tree')" 0
"$REPORT" --baseline "ext4t --tree=ports:0.1" "$T" >"$W/tree-base" 2>"$W/tree.err"
expect_eq "tree baseline: exit status" "$?" 0
expect_file_has "tree baseline: the legend" "$W/tree-base" "  less user CPU) are ratios too: more MiB/s, less dead time is better."
expect_eq "tree baseline: header row" "$(sed -n '/^\[1\]/{n;n;p;}' "$W/tree-base")" \
	"  Tree phase     Rate    Min..Max   CV%  n  MiB/s   Dead  CPU/unit  Latency  Mean rate  Unit"
# ratios: MiB/s as the rate; dead 0.98 / median(0.9 x 0.5, 0.9 x 0.4545); CPU 0.160 / median(0.3 x ...)
expect_eq "tree baseline: a difference" "$(row 2 'Tree extract' "$W/tree-base")" "2.10 2.00..2.20 6.7 2 2.10 2.30 2.25 1.90 4200 files/s"
expect_eq "tree baseline: within the noise" "$(row 2 'Tree copy' "$W/tree-base")" "1.05~ 1.00..1.10 6.7 2 1.05~ 1.15~ 1.12~ 1.90 1050 files/s"
expect_eq "tree baseline: worse" "$(row 2 'Tree read' "$W/tree-base")" "0.53 0.50..0.55 6.7 2 0.53 0.57 0.56 1.90 2625 files/s"
expect_eq "tree baseline: one run" "$(row 4 'Tree extract' "$W/tree-base")" "0.80? - - 1 0.80? 0.40? 0.81? 0.80? 1600 files/s"
expect_eq "tree baseline: geometric mean over the tree phases" "$(grep '^\[2\]' "$W/tree-base")" \
	"[2] xfst -n 1 --tree=ports:0.1: 2 runs (clyde 0.1.0 JSON); geometric mean of rate ratios 1.42 over 5 phases"
expect_eq "tree: golden" "$(diff "$G/tree.txt" "$W/tree")" ""
expect_eq "tree baseline: golden" "$(diff "$G/tree-baseline.txt" "$W/tree-base")" ""
# a tree phase needs its tree; an unknown schema is refused
sed '13s/"tree": {.*},$/"tree": null,/' "$T" >"$W/notree.json"
"$REPORT" "$W/notree.json" >"$W/notree" 2>"$W/notree.err"
expect_eq "tree: a run without its tree skipped" "$(cat "$W/notree.err")" \
"$W/notree.json:16: phase tree_extract ran, but the run has no \"tree\": skipped
clyde-report: 1 malformed line skipped"
expect_eq "tree: the others read" "$(grep '^\[1\]' "$W/notree")" "[1] ext4t --tree=ports:0.1: 2 runs (clyde 0.1.0 JSON)"
sed 's|clyde-result/4|clyde-result/16|' "$T" | "$REPORT" >/dev/null 2>"$W/v16.err"
expect_eq "tree: /16 refused" "$?" 3
expect_eq "tree: /16 says so" "$(head -n 1 "$W/v16.err")" \
	"-:1: a JSON document whose schema is not clyde-result/1 to /15: skipped"
# the page: three tables of the tree phases; the charts have them
"$REPORT" --baseline "ext4t --tree=ports:0.1" --html "$W/tree.html" --svg "$W/tree.svg" "$T" >/dev/null 2>"$W/err"
rc=$?
expect_match "tree: --html, --svg written, or not built yet (4)" "$rc" '^(0|4)$'
if [ "$rc" = 0 ]; then
	expect_eq "tree page: its tables" "$(grep -o '<caption>[^<]*tree workloads[^<]*</caption>' "$W/tree.html" |
		sed 's/<[^>]*>//g' | tr '\n' '|')" "Throughput: tree workloads (median over the runs)|\
Data rate: tree workloads (median over the runs)|Dead time: tree workloads, wall less user CPU (median over the runs)|"
	expect_eq "tree page: a dead time" "$(sed -n '/<caption>Dead time/,/<\/table>/p' "$W/tree.html" | sed -n 4p |
		sed 's|<span class="key">[^<]*</span>||; s|</t[dh]>|\||g; s|<[^>]*>||g')" \
		"2 xfst|2|0.430×2.30|1.72×1.15~|13.4×1.72|687×0.57|0.286×3.45|"
	# two file tests with three measures, five tree phases with five (delete: no MiB/s)
	expect_eq "tree charts: the tree phases' measures" \
		"$(grep -c '<g class="chart"' "$W/tree.svg") $(grep -c 'Tree [a-z]* — dead time' "$W/tree.svg")" "30 5"
	if command -v python3 >/dev/null 2>&1; then
		check "tree page parses as XML" python3 -c 'import sys, xml.dom.minidom; xml.dom.minidom.parse(sys.argv[1])' "$W/tree.html"
	fi
fi
done_testing
