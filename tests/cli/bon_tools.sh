#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# clyde's CSV through bonnie++'s own bon_csv2txt and bon_csv2html: no
# complaint, and the same numbers clyde printed.
. "$TESTLIB"
need_root
need_cmd bon_csv2txt "Debian package bonnie++"
need_cmd bon_csv2html "Debian package bonnie++"

need_tmpfs 256m
MNT=$SCRATCH
scratch_dir
W=$SCRATCH

check_tools() {
	label=$1
	line=$(tail -n 1 "$W/out")
	printf '%s\n' "$line" >"$W/csv"

	bon_csv2txt <"$W/csv" >"$W/txt" 2>"$W/txt.err"
	expect_eq "$label: bon_csv2txt status" "$?" 0
	expect_eq "$label: bon_csv2txt says nothing on stderr" "$(cat "$W/txt.err")" ""
	# I/O row: the same cells as clyde's table (same notation), seeks raw
	io_ours=$(grep -A3 '^Name:Size' "$W/out" | sed -n 2p | cut -c20-)
	io_theirs=$(grep -A1 '^Name:Size' "$W/txt" | sed -n 2p | cut -c20-)
	if [ "$(csv_field "$line" 5)" != "" ]; then
		# bon_csv2txt shows +++++ in rate columns as 0k: its bug, not ours
		ours=$(echo "$io_ours" | awk '{for (i = 1; i <= 9; i += 2) if ($i == "+++++") $i = "0k"
			print $1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$12}')
		theirs=$(echo "$io_theirs" | awk '{print $1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$12}')
		expect_eq "$label: bon_csv2txt I/O cells" "$theirs" "$ours"
		expect_eq "$label: bon_csv2txt seeks" "$(echo "$io_theirs" | awk '{print $11}')" "$(csv_field "$line" 19)"
	fi
	# file row: bon_csv2txt prints the CSV's numbers as they are
	if [ "$(csv_field "$line" 21)" != "" ]; then
		theirs=$(grep -A1 'files:max:min' "$W/txt" | sed -n 2p | cut -c20- | awk '{$1=$1; print}')
		want=$(printf '%s\n' "$line" | cut -d, -f27-38 | tr , ' ')
		expect_eq "$label: bon_csv2txt file cells" "$theirs" "$want"
	fi
	lat_theirs=$(grep '^Latency' "$W/txt" | cut -c18- | tr -s ' ' | sed 's/^ //' | tr '\n' ' ')
	lat_want=""
	[ -n "$(csv_field "$line" 5)" ] && lat_want="$(printf '%s\n' "$line" | cut -d, -f39-44 | tr , ' ') "
	[ -n "$(csv_field "$line" 21)" ] && lat_want="$lat_want$(printf '%s\n' "$line" | cut -d, -f45-50 | tr , ' ') "
	expect_eq "$label: bon_csv2txt latencies" "$lat_theirs" "$lat_want"

	bon_csv2html <"$W/csv" >"$W/html" 2>"$W/html.err"
	expect_eq "$label: bon_csv2html status" "$?" 0
	expect_eq "$label: bon_csv2html says nothing on stderr" "$(cat "$W/html.err")" ""
	# every number of the CSV appears in the HTML, in order (block
	# columns in MiB/s, rounded; +++++ there shows as 0, its bug)
	sed -n '/class="rowheader"/,/<\/table>/p' "$W/html" | grep -o '<td[^>]*>[^<]*</td>' |
		sed 's/<[^>]*>//g' >"$W/cells"
	missing=$(printf '%s\n' "$line" | awk -F, -v cells="$W/cells" '
		function blk(v) { return v ~ /^[0-9]+$/ ? int(v / 1024 + 0.5) : (v == "+++++" ? 0 : v) }
		BEGIN { n = 0; while ((getline c < cells) > 0) cell[n++] = c }
		{
			k = 0
			for (i = 10; i <= 21; i++) if ($i != "") want[k++] = (i == 12 || i == 14 || i == 18) ? blk($i) : $i
			for (i = 27; i <= 50; i++) if ($i != "") want[k++] = $i
			j = 0
			for (w = 0; w < k; w++) {
				while (j < n && cell[j] != want[w]) j++
				if (j == n) { print want[w] " (value " w ")"; exit }
				j++
			}
		}')
	expect_eq "$label: bon_csv2html shows every value in order" "$missing" ""
}

# no seek count: a timed seek phase, its count in field 7 and the label
# (a one-letter name: on a fast machine the count has 7 digits, and
# bon_csv2txt then shortens a longer name to fit its label column)
"$CLYDE" -d "$MNT" -s 64 -n 1 -f64k --exact -m t >"$W/out" 2>/dev/null
check_tools "full run"
n=$(csv_field "$(tail -n 1 "$W/out")" 7)
expect_match "full run: a timed seek count" "$n" '^[1-9][0-9]{3,}$'
expect_eq "full run: clyde's label: name, size, the count" "$(sed -n 4p "$W/out" | cut -c1-19)" \
	"$(awk -v s="64M:::$n" 'BEGIN { w = 19 - length(s) - 1; printf("%-" w "s %s", substr("t", 1, w), s) }')"
expect_eq "full run: bon_csv2txt's label (its own layout)" \
	"$(grep -A1 '^Name:Size' "$W/txt" | sed -n 2p | awk '{print $1, $2}')" "t 64M::$n:5"
"$CLYDE" -d "$MNT" -s 16:16k:200:2 -n 1:4k:1k:4 -f64k --exact -m opts >"$W/out" 2>/dev/null
check_tools "chunk, dirs, sizes"
"$CLYDE" -d "$MNT" -s 4::8192 -n 1 -f64k -m plus >"$W/out" 2>/dev/null
check_tools "+++++ fields"

# -x: bon_csv2txt takes the data lines, all of them
"$CLYDE" -d "$MNT" -s 2::8192 -n 1 -f64k -x 2 -q -m rep >"$W/x" 2>/dev/null
tail -n +2 "$W/x" | bon_csv2txt >"$W/txt" 2>"$W/txt.err"
expect_eq "-x lines: bon_csv2txt quiet" "$(cat "$W/txt.err")" ""
expect_eq "-x lines: two I/O rows" "$(grep -c '^rep ' "$W/txt")" 4
expect_empty_dir "nothing left" "$MNT"
done_testing
