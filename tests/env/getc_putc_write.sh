#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# clyde-getc-putc's write(2) row against clyde's own per-char write phase
# (one write(2) of one byte per call, --perchar=syscall) on a private
# tmpfs, where neither waits for a device: the same system call over the
# same 1 MiB, so the same rate within 10%. Five runs of each, interleaved
# (a neighbour's load falls on both runs of a round), compared by the
# median of the rounds' ratios (as bench/ab does); the medians of the
# rates are printed beside it. The
# figures are timed, so this runs once, after the other tests. About 60 s.
. "$TESTLIB"
GP=${CLYDE_GETC_PUTC:-$(dirname "$CLYDE")/clyde-getc-putc}
need_built "$GP" "clyde-getc-putc"
need_root
need_linux "a private tmpfs"
need_tmpfs 512m
MNT=$SCRATCH
scratch_dir
W=$SCRATCH
ROUNDS=5

median() {
	sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
}

: >"$W/gp" && : >"$W/clyde"
i=0
while [ $i -lt $ROUNDS ]; do
	# -s 64m: write(2) moves a 64th of it, 1 MiB
	"$GP" -q -d "$MNT" -s 64m --json "$W/gp.json" >/dev/null 2>"$W/gp.err"
	expect_eq "round $i: clyde-getc-putc exit status" "$?" 0
	grep '"column": "write"' "$W/gp.json" | sed 's/.*"kib_per_s": \([0-9.]*\),.*/\1/' >>"$W/gp"
	# -f1m: the per-char phases over 1 MiB, --exact: the figure even under 0.5 s; the
	# block phases over 1 MiB and a thousand seeks keep the rest of the run short
	"$CLYDE" -q -d "$MNT" -s 1m:8k:1000 -f1m -n 0 --exact >"$W/clyde.out" 2>"$W/clyde.err"
	expect_eq "round $i: clyde exit status" "$?" 0
	csv_field "$(tail -n 1 "$W/clyde.out")" 9 >>"$W/clyde"
	i=$((i + 1))
done
expect_eq "clyde-getc-putc: $ROUNDS write rates" "$(grep -cE '^[0-9.]+$' "$W/gp")" $ROUNDS
expect_eq "clyde: $ROUNDS per-char write rates" "$(grep -cE '^[0-9]+$' "$W/clyde")" $ROUNDS
gp=$(median <"$W/gp")
cl=$(median <"$W/clyde")
ratio=$(paste "$W/gp" "$W/clyde" | awk '$2 > 0 { printf "%.4f\n", $1 / $2 }' | median)
echo "write(2) KiB/s, clyde-getc-putc: $(tr '\n' ' ' <"$W/gp")(median $gp)"
echo "per-char write KiB/s, clyde:     $(tr '\n' ' ' <"$W/clyde")(median $cl)"
echo "median of the rounds' ratios: $ratio"
if awk -v r="${ratio:-0}" 'BEGIN { exit !(r >= 0.9 && r <= 1.1) }'; then
	ok
else
	fail "clyde-getc-putc's write(2) row is not within 10% of clyde's per-char write: median ratio ${ratio:-none} (medians $gp and $cl KiB/s)"
fi
expect_empty_dir "nothing left on the tmpfs" "$MNT"
done_testing
