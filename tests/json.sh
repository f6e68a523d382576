#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# --json: a valid document with every key, sane values, and the streams
# as documented (--json - leaves stdout to the JSON alone).
. "$TESTLIB"
need_root
command -v python3 >/dev/null || skip "python3 is needed to validate JSON"

scratch_tmpfs 128m || skip "cannot mount a tmpfs"
MNT=$SCRATCH
scratch_dir
W=$SCRATCH

"$CLYDE" -d "$MNT" -s 8 -n 1:4k:1k:2 -f64k -x 2 -z 9 --json "$W/doc.json" -m js >"$W/out" 2>"$W/err"
expect_eq "--json FILE run" "$?" 0
expect_eq "stdout keeps the header and CSV lines" "$(wc -l <"$W/out")" 3

"$CLYDE" -d "$MNT" -s 8 -n 1 -f64k --json - -m js >"$W/stdout.json" 2>"$W/err2"
expect_eq "--json - run" "$?" 0
expect_file_has "--json -: the table goes to stderr" "$W/err2" "Name:Size etc"
if grep -q '^1\.98,' "$W/stdout.json" "$W/err2"; then fail "--json - printed a CSV line"; else ok; fi

out=$(python3 - "$W/doc.json" "$W/out" "$W/stdout.json" <<'PY'
import json, sys
problems = []
def need(cond, what):
    if not cond:
        problems.append(what)
doc = json.load(open(sys.argv[1]))
csv_lines = [l.strip() for l in open(sys.argv[2]) if l.startswith("1.98,")]
need(doc.get("schema") == "clyde-result/1", "schema")
need(isinstance(doc.get("clyde_version"), str), "clyde_version")
runs = doc.get("runs", [])
need(len(runs) == 2, "two runs, got %d" % len(runs))
names = ["putc", "put_block", "rewrite", "getc", "get_block", "seeks",
         "seq_create", "seq_stat", "seq_del", "ran_create", "ran_stat", "ran_del"]
keys = {"ran", "elapsed_s", "amount", "amount_unit", "rate", "rate_unit", "too_short",
        "cpu_percent", "cpu_user_s", "cpu_sys_s", "cpu_window_s", "cpu_us_per_unit",
        "cpu_unit", "max_latency_us", "dead_s", "flush_s", "latency_us", "mismatches"}
for i, run in enumerate(runs):
    need(run["name"] == "js" and run["seed"] == 9 and run["concurrency"] == 1, "run %d labels" % i)
    need(run["io"] == {"size_mib": 8, "chunk": 8192, "seeks": 8192, "seekers": 5}, "io %r" % run["io"])
    need(run["files"] == {"number": 1, "max_size": 4096, "min_size": 1024, "dirs": 2, "chunk": 8192},
         "files %r" % run["files"])
    need(run["engine"]["name"] == "psync" and run["engine"]["iodepth"] == 1
         and run["engine"]["direct"] is False, "engine %r" % run["engine"])
    need(run["cache"]["mode"] == "drop", "cache")
    need(run["perchar"] == "syscall", "perchar")
    need(run["filesystem"]["type"] == "tmpfs", "filesystem %r" % run["filesystem"])
    need(run["machine"]["cpus"] >= 1 and run["machine"]["ram_bytes"] > 1 << 20, "machine")
    need(sorted(run["phases"]) == sorted(names), "phase names")
    for n in names:
        p = run["phases"][n]
        need(set(p) == keys, "%s keys %s" % (n, sorted(set(p) ^ keys)))
        need(p["ran"] is True, n + " ran")
        need(0 < p["elapsed_s"] < 60, n + " elapsed")
        need(p["amount"] > 0 and p["rate"] > 0, n + " amount/rate")
        need(abs(p["rate"] - p["amount"] / p["elapsed_s"]) <= 1e-6 * p["rate"], n + " rate = amount/elapsed")
        need(p["cpu_user_s"] >= 0 and p["cpu_sys_s"] >= 0, n + " cpu")
        need(p["cpu_window_s"] >= p["elapsed_s"] * 0.999, n + " cpu window covers elapsed")
        need(0 <= p["cpu_percent"] <= 100 * run["machine"]["cpus"] + 50, n + " cpu percent")
        need(0 < p["max_latency_us"] <= p["elapsed_s"] * 1e6 + 1, n + " latency")
        need(p["too_short"] == (p["elapsed_s"] < 0.5), n + " too_short")
    need(run["phases"]["put_block"]["amount"] == 8 * 1024, "put_block amount in KiB")
    need(run["phases"]["seeks"]["amount"] == 8192, "seeks amount")
    need(run["phases"]["seq_create"]["amount"] == 1024, "files amount")
    need(run["csv"] == csv_lines[i], "csv of run %d matches stdout" % i)
one = json.load(open(sys.argv[3]))
need(len(one["runs"]) == 1, "--json - holds one run")
print("\n".join(problems))
PY
)
expect_eq "JSON document checks" "$out" ""
expect_empty_dir "nothing left" "$MNT"
done_testing
