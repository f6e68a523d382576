#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# What clyde adds to bonnie++'s report: the environment line, --latency,
# --cpu and --ceilings tables, the -x summary, --warmup, --data, and the
# live progress line on a terminal.
. "$TESTLIB"
need_root

need_tmpfs 256m
MNT=$SCRATCH
scratch_dir
W=$SCRATCH

"$CLYDE" -d "$MNT" -s 8::8192 -n 1 -f64k --exact --latency --cpu --ceilings -z 8 >"$W/out" 2>"$W/err"
expect_eq "tables run" "$?" 0
CPU_MODEL=$(sed -n 's/^\(model name\|Model\)[[:space:]]*: *//p' /proc/cpuinfo | head -n 1 | sed 's/[[:space:]]*$//')
expect_eq "environment line, on stderr" "$(grep '^environment:' "$W/err")" \
	"environment: $(uname -s) $(uname -r) $(uname -m); CPU ${CPU_MODEL:-unknown}; no block device"
expect_eq "no context line on stdout" "$(grep -cE '^(clyde|counts:|filesystem:|environment:)' "$W/out")" 0
# stdout: bonnie++'s two tables (10 lines), then the latency and CPU
# tables (13 lines each), the ceilings (line and 6-line table), the CSV last
expect_eq "stdout lines" "$(wc -l <"$W/out")" 44
expect_eq "latency table header" "$(sed -n 11p "$W/out")" \
	"Latency                  p50       p90       p99     p99.9       max        ops"
expect_eq "CPU table header" "$(sed -n 24p "$W/out")" \
	"CPU (seconds)           wall      user    system      dead     flush   CPU us per"
expect_match "ceilings" "$(sed -n 37p "$W/out")" '^Ceilings: system call [0-9]+ ns; memory copy [0-9]+\.[0-9] GiB/s$'
expect_eq "ceilings table header" "$(sed -n 38p "$W/out")" "Phase                   rate   ceiling  fraction"
expect_eq "row names of the three tables" "$(sed -n '12,23p;25,36p;39,43p' "$W/out" | cut -c1-16 | sed 's/ *$//' | tr '\n' ,)" \
"Per-char write,Block write,Rewrite,Per-char read,Block read,Random seeks,Seq create,Seq stat/read,Seq delete,\
Random create,Random stat/read,Random delete,Per-char write,Block write,Rewrite,Per-char read,Block read,\
Random seeks,Seq create,Seq stat/read,Seq delete,Random create,Random stat/read,Random delete,\
Per-char write,Block write,Rewrite,Per-char read,Block read,"
expect_match "latency row: percentiles and 1024 ops" "$(sed -n 13p "$W/out")" '^Block write( +[0-9]+(us|ms|s)){5} +1024$'
expect_eq "seeks counted" "$(sed -n 17p "$W/out" | awk '{print $NF}')" 8192
expect_eq "files counted" "$(sed -n '18,23p' "$W/out" | awk '{print $NF}' | sort -u)" 1024
expect_match "CPU row" "$(sed -n 26p "$W/out")" '^Block write( +[0-9]+\.[0-9]{3}){5} +[0-9]+\.[0-9] MiB$'
expect_match "CPU row: seeks" "$(sed -n 30p "$W/out")" '^Random seeks( +[0-9]+\.[0-9]{3}){5} +[0-9]+\.[0-9] seek$'
expect_match "per-char against its ceiling" "$(sed -n 39p "$W/out")" '^Per-char write +[0-9.]+[kmg] +[0-9.]+[kmg] +[0-9]+\.[0-9]{3}$'
expect_match "CSV last" "$(tail -n 1 "$W/out")" '^1\.98,0\.[0-9.]+,[^,]*,1,8,8M,,8192,5,'

# percentiles are ordered and bounded by the max, in the JSON
"$CLYDE" -d "$MNT" -s 8::8192 -n 1 -f64k --json "$W/doc.json" >/dev/null 2>&1
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
"$CLYDE" -d "$MNT" -s 4::8192 -n 1 -f64k -x 5 --warmup --json "$W/x.json" >"$W/out" 2>"$W/err"
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
	rm -f "$W/go" "$W/err"
	CLYDE_TEST_PAUSE=rewrite CLYDE_TEST_RESUME=$W/go "$CLYDE" -d "$MNT" -s 8::8192 -n 0 -f --data="$1" \
		>/dev/null 2>"$W/err" &
	pid=$!
	wait_pause "$W/err"
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

# the live progress line, on a terminal only: the timed seek phase (no
# seek count) lasts about a second, four redraws
live='^Random seeks\.\.\. +[0-9]+\.[0-9]% +[0-9]+/s $'
if command -v script >/dev/null; then
	script -qec "$CLYDE -d $MNT -s 4 -n 0 -f" /dev/null >"$W/tty" 2>&1
	expect_match "a live line on a terminal" "$(tr '\r' '\n' <"$W/tty" | grep -cE "$live")" '^[1-9]'
	expect_file_has "and the done line after it" "$W/tty" "Random seeks...done"
fi
"$CLYDE" -d "$MNT" -s 4 -n 0 -f >/dev/null 2>"$W/err"
expect_eq "no live line when stderr is a file" "$(tr '\r' '\n' <"$W/err" | grep -cE "$live")" 0
expect_eq "stderr is a file: no carriage return" "$(tr -cd '\r' <"$W/err" | wc -c)" 0
expect_empty_dir "nothing left" "$MNT"
done_testing
