#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# bench/ceilings' arithmetic, no benchmark run: its self-test (medians of
# per-round ratios, their intervals, the derived rewrite ceiling, bonnie++'s
# +++++) and its table read back from a raw CSV (--analyze).
. "$TESTLIB"

need_python3 "to run bench/ceilings"
BENCH=$(cd "$(dirname "$TESTLIB")/../bench" && pwd)
[ -f "$BENCH/ceilings" ] || skip "no bench/ceilings beside $TESTLIB"

scratch_dir
W=$SCRATCH
if python3 "$BENCH/ceilings" --self-test >"$W/self" 2>&1; then ok; else
	fail "bench/ceilings --self-test:"
	sed 's/^/    /' "$W/self"
fi
summary=$(tail -n 1 "$W/self")
expect_match "self-test: its summary line" "$summary" '^ceilings self-test: [0-9]+ of [0-9]+ checks passed$'
# shellcheck disable=SC2086 # its words: ceilings self-test: PASSED of TOTAL ...
set -- $summary
expect_eq "self-test: every check passed" "$3" "${5:-}"
expect_match "self-test: it checked something" "${5:-0}" '^[1-9]'

# two rounds of disk seeks: clyde 90 and 110 IOPS against fio's 100, CPU
# per I/O 3 against 4; the options the labels name come from the CSV
cat >"$W/raw.csv" <<'CSV'
where,round,tool,metric,value
options,0,ceilings,iodepth,8
options,0,ceilings,seek_updates,0
options,0,ceilings,files,128
options,0,ceilings,disk_files,64
disk,1,clyde,ran,1
disk,1,clyde,seeks,90
disk,1,clyde,seeks.cpu,3
disk,1,fio,ran,1
disk,1,fio,random,100
disk,1,fio,random.cpu,4
disk,2,clyde,ran,1
disk,2,clyde,seeks,110
disk,2,clyde,seeks.cpu,3
disk,2,fio,ran,1
disk,2,fio,random,100
disk,2,fio,random.cpu,4
CSV
python3 "$BENCH/ceilings" --analyze "$W/raw.csv" >"$W/table" 2>&1
expect_match "--analyze: the seeks row, its label from the CSV's options" \
	"$(grep '^seeks' "$W/table")" \
	'^seeks +disk +fio randread QD8 +IOPS +100 +100 +1\.000 \(n=2: too few\) +0\.750$'
expect_eq "--analyze: no rows for ceilings that did not run" "$(grep -c 'tmpfs' "$W/table")" 0
done_testing
