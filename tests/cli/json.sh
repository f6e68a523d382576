#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# --json: a valid document with every key, sane values, and the streams
# as documented (--json - leaves stdout to the JSON alone).
. "$TESTLIB"
need_root
need_python3 "to validate JSON"

need_tmpfs 128m
MNT=$SCRATCH
scratch_dir
W=$SCRATCH

touch "$W/before"
"$CLYDE" -d "$MNT" -s 8::8192 -n 1:4k:1k:2 -f64k -x 2 -z 9 --json "$W/doc.json" -m js >"$W/out" 2>"$W/err"
expect_eq "--json FILE run" "$?" 0
touch "$W/after"
expect_eq "stdout keeps the header and CSV lines" "$(wc -l <"$W/out")" 3

# no seek count: the seek phase is timed, and the JSON says so
"$CLYDE" -d "$MNT" -s 8 -n 1 -f64k --json - -m js >"$W/stdout.json" 2>"$W/err2"
expect_eq "--json - run" "$?" 0
expect_file_has "--json -: the table goes to stderr" "$W/err2" "Name:Size etc"
if grep -q '^1\.98,' "$W/stdout.json" "$W/err2"; then fail "--json - printed a CSV line"; else ok; fi

out=$(python3 - "$W/doc.json" "$W/out" "$W/stdout.json" "$(hostname | tr , _)" "$W/before" "$W/after" <<'PY'
import datetime, json, os, sys
problems = []
def need(cond, what):
    if not cond:
        problems.append(what)
doc = json.load(open(sys.argv[1]))
csv_lines = [l.strip() for l in open(sys.argv[2]) if l.startswith("1.98,")]
need(doc.get("schema") == "clyde-result/15", "schema %r" % doc.get("schema"))
need(isinstance(doc.get("clyde_version"), str), "clyde_version")
# /7: the invocation's estimate and what it took
need(doc.get("plan") and doc["plan"]["estimate_s"] > 0 and doc["plan"]["calibration_s"] >= 0,
     "plan %r" % doc.get("plan"))
need(isinstance(doc.get("elapsed_s"), float) and doc["elapsed_s"] > 0, "elapsed_s %r" % doc.get("elapsed_s"))
runs = doc.get("runs", [])
need(len(runs) == 2, "two runs, got %d" % len(runs))
# /10: each run's host and start, UTC to the microsecond, in the order they ran, within the command
before, after = os.path.getmtime(sys.argv[5]), os.path.getmtime(sys.argv[6])
starts = []
for r in runs:
    need(r.get("host") == sys.argv[4], "host %r, hostname %r" % (r.get("host"), sys.argv[4]))
    s = r.get("started_at") or ""
    try:
        t = datetime.datetime.strptime(s, "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=datetime.timezone.utc)
        starts.append(t.timestamp())
    except ValueError:
        problems.append("started_at %r is not ISO 8601 UTC to the microsecond" % s)
need(len(starts) == 2 and before - 1 <= starts[0] < starts[1] <= after + 1,
     "starts %r between the command's start %r and end %r" % (starts, before, after))
names = ["putc", "put_block", "rewrite", "getc", "get_block", "seeks",
         "seq_create", "seq_stat", "seq_del", "ran_create", "ran_stat", "ran_del"]
keys = {"ran", "elapsed_s", "amount", "amount_unit", "rate", "rate_unit", "too_short",
        "cpu_percent", "cpu_user_s", "cpu_sys_s", "cpu_window_s", "cpu_us_per_unit",
        "cpu_unit", "max_latency_us", "dead_s", "flush_s", "latency_us", "mismatches",
        "short", "start_s", "end_s", "workers", "series", "stall_reader_cpu_s"}
# residency is measured before the phases that read the file; tmpfs holds
# all of it, and has no ARC
measured = {"rewrite", "getc", "get_block", "seeks"}
drop = {"mode": "drop", "description": "fsync + fadvise DONTNEED after each I/O phase",
        "outcome": "DROP FAILED: up to 100.0% of the file resident before reads: "
                   "read figures are page-cache figures",
        "resident_worst_pct": 100}
given = {"seeks_timed": False, "files_calibrated": False, "size_note": "", "files_note": ""}

def check_phases(run, tag):
    end = 0
    for n in names:
        p = run["phases"][n]
        # the file tests say how many passes they made: one each, -n given
        want = keys | ({"cache"} if n in measured else set()) | ({"passes"} if n in names[6:] else set())
        need(set(p) == want, "%s%s keys %s" % (tag, n, sorted(set(p) ^ want)))
        if n in measured:
            need(p.get("cache", {}).get("resident_pct") == 100
                 and p["cache"].get("method") in ("cachestat", "mincore")
                 and set(p["cache"]) == {"method", "resident_pct", "range_offset", "range_bytes",
                                         "file_bytes"}, "%s%s cache %r" % (tag, n, p.get("cache")))
            # what each phase reads: getc its 64 KiB (-f64k), the others
            # the whole 8 MiB file (-s 8)
            c = p.get("cache", {})
            need((c.get("range_offset"), c.get("range_bytes"), c.get("file_bytes"))
                 == (0, 64 << 10 if n == "getc" else 8 << 20, 8 << 20), "%s%s range %r" % (tag, n, c))
        need(n not in names[6:] or p.get("passes") == 1, "%s%s passes %r" % (tag, n, p.get("passes")))
        need(p["ran"] is True, n + " ran")
        need(0 < p["elapsed_s"] < 60, n + " elapsed")
        need(p["amount"] > 0 and p["rate"] > 0, n + " amount/rate")
        need(abs(p["rate"] - p["amount"] / p["elapsed_s"]) <= 1e-6 * p["rate"], n + " rate = amount/elapsed")
        need(p["cpu_user_s"] >= 0 and p["cpu_sys_s"] >= 0, n + " cpu")
        need(p["cpu_window_s"] >= p["elapsed_s"] * 0.999, n + " cpu window covers elapsed")
        # /10: the stall reader's CPU, apart (Linux reads /proc/meminfo: it ran)
        r = p["stall_reader_cpu_s"]
        need(isinstance(r, (int, float)) and 0 <= r < p["elapsed_s"] + 1, n + " stall reader %r" % r)
        need(0 <= p["cpu_percent"] <= 100 * run["machine"]["cpus"] + 50, n + " cpu percent")
        need(0 < p["max_latency_us"] <= p["elapsed_s"] * 1e6 + 1, n + " latency")
        need(p["too_short"] == p["short"] == (p["elapsed_s"] < 0.5), n + " short, too_short")
        need(abs(p["end_s"] - p["start_s"] - p["elapsed_s"]) < 1e-5, n + " end_s - start_s = elapsed_s")
        need(p["start_s"] >= end, n + " starts after the phase before ends")
        # one worker: its part is the phase
        ws = p["workers"]
        need(len(ws) == 1 and abs(ws[0]["amount"] - p["amount"]) < 1e-9
             and abs(ws[0]["start_s"] - p["start_s"]) < 1e-5 and abs(ws[0]["end_s"] - p["end_s"]) < 1e-5
             and ws[0]["cpus"] != "" and ws[0]["note"] == "", n + " workers %r" % ws)
        end = p["end_s"]

for i, run in enumerate(runs):
    need(run["name"] == "js" and run["seed"] == 9 and run["concurrency"] == 1, "run %d labels" % i)
    need(run["io"] == {"size_mib": 8, "chunk": 8192, "seeks": 8192, "seekers": 5}, "io %r" % run["io"])
    need(run["files"] == {"number": 1, "max_size": 4096, "min_size": 1024, "dirs": 2, "chunk": 8192},
         "files %r" % run["files"])
    need(run["engine"] == {"name": "psync", "description": "pread/pwrite", "iodepth": 1, "direct": False},
         "engine %r" % run["engine"])
    need(run["cache"] == drop, "cache %r" % run["cache"])
    need(run["counts"] == given, "counts %r" % run["counts"])
    need(run["perchar"] == "syscall", "perchar")
    need(run["filesystem"]["type"] == "tmpfs" and run["filesystem"]["source"] == "clyde-test"
         and "," not in run["filesystem"]["options"], "filesystem %r" % run["filesystem"])
    need(run["machine"]["cpus"] >= 1 and run["machine"]["ram_bytes"] > 1 << 20, "machine")
    need(sorted(run["phases"]) == sorted(names), "phase names")
    check_phases(run, "")
    need(run["phases"]["put_block"]["amount"] == 8 * 1024, "put_block amount in KiB")
    need(run["phases"]["seeks"]["amount"] == 8192, "seeks amount")
    need(run["phases"]["seq_create"]["amount"] == 1024, "files amount")
    need(run["csv"] == csv_lines[i], "csv of run %d matches stdout" % i)
one = json.load(open(sys.argv[3]))
need(len(one["runs"]) == 1, "--json - holds one run")
run = one["runs"][0]
check_phases(run, "--json -: ")
seeks = run["phases"]["seeks"]
need(run["counts"] == dict(given, seeks_timed=True), "timed: counts %r" % run["counts"])
need(run["cache"] == drop, "timed: cache %r" % run["cache"])
need(run["io"]["seeks"] >= 8192 and seeks["amount"] == run["io"]["seeks"]
     and run["csv"].split(",")[7] == str(run["io"]["seeks"]), "timed: seek count %r" % run["io"])
need(0.9 < seeks["elapsed_s"] < 3 and seeks["short"] is False, "timed: about a second")
print("\n".join(problems))
PY
)
expect_eq "JSON document checks" "$out" ""
expect_empty_dir "nothing left" "$MNT"
done_testing
