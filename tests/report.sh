#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# What clyde adds to bonnie++'s report: the environment line, --latency,
# --cpu and --ceilings tables, the -x summary, --warmup, --data, and the
# live progress line on a terminal.
. "$TESTLIB"
need_root

scratch_tmpfs 256m || skip "cannot mount a tmpfs"
MNT=$SCRATCH
scratch_dir
W=$SCRATCH

"$CLYDE" -d "$MNT" -s 8 -n 1 -f64k --exact --latency --cpu --ceilings >"$W/out" 2>"$W/err"
expect_eq "tables run" "$?" 0
expect_match "environment line" "$(sed -n 3p "$W/out")" "^environment: $(uname -s) $(uname -r) $(uname -m); CPU .*; no block device$"
expect_match "latency table header" "$(grep '^Latency  ' "$W/out" | tail -n 1)" '^Latency +p50 +p90 +p99 +p99\.9 +max +ops$'
# twelve latency rows, twelve CPU rows, five ceiling rows
expect_eq "rows of the three tables" "$(grep -cE '^(Per-char|Block|Rewrite|Random|Seq) ' "$W/out")" 29
row=$(grep '^Block write ' "$W/out" | head -n 1)
expect_match "latency row: percentiles and 1024 ops" "$row" '^Block write( +[0-9]+(us|ms|s)){5} +1024$'
expect_match "seeks counted" "$(grep '^Random seeks' "$W/out" | head -n 1)" ' 8192$'
expect_match "CPU table" "$(grep '^CPU (seconds)' "$W/out")" 'wall +user +system +dead +flush +CPU us per'
expect_match "CPU row" "$(grep '^Block write ' "$W/out" | sed -n 2p)" '^Block write( +[0-9]+\.[0-9]+){5} +[0-9.]+ MiB$'
expect_match "ceilings" "$(grep '^Ceilings:' "$W/out")" '^Ceilings: system call [0-9]+ ns, memory copy [0-9.]+ GiB/s$'
expect_match "per-char against its ceiling" "$(grep '^Per-char write' "$W/out" | tail -n 1)" ' 0\.[0-9]{3}$|[0-9]\.[0-9]{3}$'
expect_match "CSV still last" "$(tail -n 1 "$W/out")" '^1\.98,'

# percentiles are ordered and bounded by the max, in the JSON
"$CLYDE" -d "$MNT" -s 8 -n 1 -f64k --json "$W/doc.json" >/dev/null 2>&1
out=$(python3 -c '
import json, sys
doc = json.load(open(sys.argv[1]))
bad = []
for name, p in doc["runs"][0]["phases"].items():
    l = p["latency_us"]
    seq = [l["p50"], l["p90"], l["p99"], l["p99.9"], l["max"]]
    if seq != sorted(seq) or l["count"] <= 0 or abs(l["max"] - p["max_latency_us"]) > 1e-6:
        bad.append(name)
    if not (0 <= p["dead_s"] <= p["elapsed_s"] + 1e-9) or p["flush_s"] < 0:
        bad.append(name + " dead/flush")
if doc["runs"][0]["phases"]["put_block"]["flush_s"] <= 0:
    bad.append("no flush time for block write")
env = doc["runs"][0]
if not env["machine"]["kernel"] or env["device"] is not None or env["data"]["pattern"] != "random":
    bad.append("environment")
print(" ".join(bad))' "$W/doc.json")
expect_eq "JSON percentiles, dead time, flush, environment" "$out" ""

# -x 5: the summary on stderr, five runs and a summary in JSON
"$CLYDE" -d "$MNT" -s 4 -n 1 -f64k -x 5 --warmup --json "$W/x.json" >"$W/out" 2>"$W/err"
expect_eq "-x 5 --warmup" "$?" 0
expect_eq "-x 5: header and five lines" "$(wc -l <"$W/out")" 6
expect_file_has "warm-up said" "$W/err" "warm-up run (not counted)"
expect_match "summary header" "$(grep '^Summary of' "$W/err")" '^Summary of 5 runs +median +min\.\.max +CV% +CPU%$'
expect_match "summary row" "$(grep '^block write ' "$W/err")" '^block write +[0-9.]+[kmg] +[0-9.]+[kmg]\.\.[0-9.]+[kmg] +[0-9]+\.[0-9] +[0-9]+$'
out=$(python3 -c '
import json, sys, statistics
doc = json.load(open(sys.argv[1]))
runs = doc["runs"]
s = doc["summary"]["put_block"]
rates = sorted(r["phases"]["put_block"]["rate"] for r in runs)
ok = (len(runs) == 5 and doc["warmup"] is True and s["runs"] == 5
      and abs(s["median"] - statistics.median(rates)) <= 1e-6 * s["median"]
      and s["min"] == rates[0] and s["max"] == rates[-1] and s["cv_percent"] >= 0)
print("ok" if ok else json.dumps(s))' "$W/x.json")
expect_eq "JSON: five runs and their summary" "$out" ok

# --data: what lands in the file, seen while clyde waits in rewrite
data_ratio() {
	rm -f "$W/go"
	CLYDE_TEST_PAUSE=rewrite CLYDE_TEST_RESUME=$W/go "$CLYDE" -d "$MNT" -s 8 -n 0 -f --data="$1" \
		>/dev/null 2>"$W/err" &
	pid=$!
	for i in $(seq 100); do grep -q "test pause" "$W/err" && break; sleep 0.1; done
	ratio=$(head -c 4194304 "$MNT"/clyde.*/io.0 | gzip -1 | wc -c)
	touch "$W/go"
	wait $pid
	echo $((ratio * 100 / 4194304))
}
r=$(data_ratio zero)
[ "$r" -le 2 ] && ok || fail "--data=zero compresses to $r%, want <= 2%"
r=$(data_ratio random)
[ "$r" -ge 98 ] && ok || fail "--data=random compresses to $r%, want >= 98%"
r=$(data_ratio compressible:50)
[ "$r" -ge 40 ] && [ "$r" -le 60 ] && ok || fail "--data=compressible:50 compresses to $r%, want about 50%"
err=$("$CLYDE" --data=compressible:101 -d "$MNT" 2>&1); rc=$?
expect_eq "--data out of range exits 1" "$rc" 1

# the live progress line, on a terminal only
if command -v script >/dev/null; then
	script -qec "$CLYDE -d $MNT -s 64 -n 0 -f" /dev/null >"$W/tty" 2>&1
	expect_match "a live line on a terminal" "$(tr '\r' '\n' <"$W/tty" | grep -c '%')" '^[1-9]'
	expect_file_has "and the done line after it" "$W/tty" "Writing intelligently...done"
fi
"$CLYDE" -d "$MNT" -s 8 -n 0 -f >/dev/null 2>"$W/err"
expect_eq "no live line when stderr is a file" "$(grep -c '%' "$W/err")" 0
expect_empty_dir "nothing left" "$MNT"
done_testing
