#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# --profile on a tmpfs: no device, and the profile says so; the machine's
# figures agree with what the test measures itself around clyde's run
# (its own /proc/stat deltas, clyde's CPU time from wait4 and, read
# every few ms from /proc/PID/stat, over each phase): no phase's state
# sums past the test's, the phases of a long run cover most of it, clyde's own
# share is its rusage and what the test saw it use in its phases, the
# machine was at least as busy as clyde;
# the perf counters are opened and agree with getrusage, or are said to
# be missing, never zero; the sampler costs under 1% of a phase of a
# second or more; the tables keep commas off stdout; bad --profile-dev
# names are refused.
. "$TESTLIB"
need_root
need_linux "the profile's whole-program checks read Linux's /proc"
need_python3 "to read the JSON"

need_tmpfs 256m
MNT=$SCRATCH
scratch_dir
W=$SCRATCH

# measured AROUND-JSON COMMAND...: runs the command and writes, in
# seconds, the machine's /proc/stat deltas over it (each state and
# total, the CPUs, USER_HZ's tick), the command's CPU time (wait4's
# rusage, which holds its waited-for children's too), and, every 5 ms,
# CLOCK_MONOTONIC with the process's own CPU (utime + stime of
# /proc/PID/stat: all its threads, no children; the last one read from
# the zombie, before it is reaped); exits with the command's status
measured() {
	python3 - "$@" <<'PY'
import json, os, subprocess, sys, time
hz = os.sysconf("SC_CLK_TCK")
names = ("user_s", "nice_s", "system_s", "idle_s", "iowait_s", "irq_s", "softirq_s", "steal_s")
def machine():
    lines = open("/proc/stat").read().split("\n")
    ticks = [int(x) for x in lines[0].split()[1:9]]
    return ticks, sum(1 for l in lines if l[:3] == "cpu" and l[3:4].isdigit())
def own(pid):
    f = open("/proc/%d/stat" % pid).read().rsplit(")", 1)[1].split()
    return (int(f[11]) + int(f[12])) / hz
before, cpus = machine()
t0 = time.monotonic()
child = subprocess.Popen(sys.argv[2:])
samples = []
while True:
    done = os.waitid(os.P_PID, child.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT)
    samples.append((time.monotonic(), own(child.pid)))
    if done:
        break
    time.sleep(0.005)
end = samples[-1][0]
_, status, ru = os.wait4(child.pid, 0)
wall = time.monotonic() - t0
after, _ = machine()
d = {k: (after[i] - before[i]) / hz for i, k in enumerate(names)}
d.update(total_s=sum(d[k] for k in names), cpus=cpus, tick_s=1 / hz, wall_s=wall,
         child_cpu_s=ru.ru_utime + ru.ru_stime, start_s=t0, end_s=end, samples=samples)
json.dump(d, open(sys.argv[1], "w"))
sys.exit(os.waitstatus_to_exitcode(status))
PY
}

# per-char write of 3 MiB lasts seconds: the phase the sampler's cost is judged on
measured "$W/p.around" "$CLYDE" -d "$MNT" -s 32:8192:1000 -n 1 --profile --json "$W/p.json" >"$W/out" 2>"$W/err"
expect_eq "--profile run" "$?" 0
expect_file_has "the CPU table" "$W/out" "Profile CPU seconds over each phase"
expect_file_has "no device on tmpfs" "$W/out" "Profile device: no block device (tmpfs keeps files in memory)"
expect_file_has "the sampler's cost" "$W/out" "Profile sampler:"
expect_match "the CSV line is still last" "$(tail -n 1 "$W/out")" '^1\.98,'
expect_eq "no comma in the text before the CSV" "$(sed '$d' "$W/out" | grep -c ',')" 0
expect_eq "one CSV line" "$(grep -c '^1\.98,' "$W/out")" 1
# each phase that ran has a row in the cost table
expect_eq "twelve cost rows" "$(awk '/^Profile cost/{on=1;next} on&&/^Profile/{on=0} on' "$W/out" | wc -l)" 12

check_json() {	# FILE PERF(open|closed) AROUND-JSON RUN(long|short)
	python3 - "$1" "$2" "$3" "$4" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
want_perf = sys.argv[2]
problems = []
def need(cond, what):
    if not cond:
        problems.append(what)
need(doc["schema"] == "clyde-result/15", "schema")
STATES = ("user_s", "nice_s", "system_s", "idle_s", "iowait_s", "irq_s", "softirq_s", "steal_s")
phases = []

for name, ph in doc["runs"][0]["phases"].items():
    if not ph["ran"]:
        continue
    p = ph.get("profile")
    need(p is not None, name + ": no profile")
    if p is None:
        continue
    m, g, dev, perf = p["machine"], p["groups"], p["device"], p["perf"]
    need(dev["state"] == "no block device" and "tmpfs" in dev["why"], name + ": device %r" % dev)
    need("write_amplification" not in dev and "write_bytes" not in dev, name + ": device figures on tmpfs")
    need(m is not None and g is not None, name + ": machine or groups missing")
    if m is None or g is None:
        continue
    phases.append((name, m, g))
    # the machine's counters tick 100 times a second on each CPU
    span = p["window_s"] * m["cpus"]
    need(abs(m["total_s"] - span) <= 0.05 * span + 0.03 * m["cpus"] + 0.011,
         name + ": total %g for %g s on %d CPUs" % (m["total_s"], p["window_s"], m["cpus"]))
    # the machine was at least as busy as clyde alone (two sources:
    # /proc/stat and clyde's /proc/self/stat), but for a tick on each CPU
    # at each end
    busy = m["user_s"] + m["nice_s"] + m["system_s"]
    need(busy >= g["clyde_s"] - 2 * 0.01 * m["cpus"] - 1e-9,
         name + ": machine busy %g < clyde's %g" % (busy, g["clyde_s"]))
    # clyde's own ticks and its getrusage agree, but for the ticks' rounding
    own = p["process"]["user_s"] + p["process"]["sys_s"]
    need(abs(g["clyde_s"] - own) <= 0.1 * own + 0.03, name + ": clyde ticks %g vs rusage %g" % (g["clyde_s"], own))
    need(p["caused_s"] is not None and p["caused_s"] >= own - 1e-9, name + ": caused %r" % p["caused_s"])
    need(p["per_unit"]["clyde_s"] is not None, name + ": per unit")
    if p["window_s"] >= 1.0:
        need(p["sampler"]["fraction"] < 0.01, name + ": the sampler cost %g of the phase" % p["sampler"]["fraction"])
    if want_perf == "closed":
        need(all(perf[k] is None for k in ("task_clock_s", "context_switches", "cpu_migrations",
                                          "page_faults", "cycles", "instructions")),
             name + ": perf figures without perf")
        need(perf["software_why"] != "" and perf["hardware_why"] != "", name + ": why not")
    elif perf["task_clock_s"] is None:
        need(perf["software_why"] != "", name + ": no task clock and no reason")
    else:
        # task-clock counts the time the process's threads were on a CPU
        need(abs(perf["task_clock_s"] - own) <= 0.25 * own + 0.03,
             name + ": task-clock %g vs getrusage %g" % (perf["task_clock_s"], own))
        need(perf["cycles"] is not None or perf["hardware_why"] != "", name + ": cycles")
# against the test's own measurement around the run: the phases lie inside
# it (their starts on its clock, CLOCK_MONOTONIC), one after another, so
# no state's sum over them passes the test's delta; and in a long run
# they are most of it: their totals reach 80% of it, less 0.3 s on each
# CPU for the start and the removal (the rest: cache drops). Not in the
# short run (12 phases of 0.2 s together): what it does outside its
# phases (start, 11 cache drops, removal, exit) is a fixed cost as long as
# its phases: measured 0.15 to 0.38 s of runs of 0.3 to 0.5 s, under
# AddressSanitizer 0.3 s of 0.55 alone and 0.55 s of 0.85 on a loaded
# machine.
# Tolerance: a tick on each CPU at each end of each phase, and 2% for the
# moments between the test's readings and clyde's first and last.
a = json.load(open(sys.argv[3]))
prev = a["start_s"]
for name, _, _ in phases:
    ph = doc["runs"][0]["phases"][name]
    need(prev <= ph["start_s"] and ph["start_s"] + ph["elapsed_s"] <= a["end_s"],
         "%s: %.3f to %.3f s, not after %.3f and inside the run (to %.3f)"
         % (name, ph["start_s"], ph["start_s"] + ph["elapsed_s"], prev, a["end_s"]))
    prev = ph["start_s"] + ph["elapsed_s"]
tol = 2 * a["tick_s"] * a["cpus"] * (len(phases) + 1) + 0.02 * a["total_s"]
for k in STATES + ("total_s",):
    got = sum(m[k] for _, m, _ in phases)
    need(got <= a[k] + tol, "the phases' %s %.2f > %.2f measured around the run" % (k, got, a[k]))
got = sum(m["total_s"] for _, m, _ in phases)
if sys.argv[4] == "long":
    need(got >= 0.8 * a["total_s"] - 0.3 * a["cpus"],
         "the phases' total %.2f: not most of the %.2f measured" % (got, a["total_s"]))
need(a["cpus"] == phases[0][1]["cpus"], "CPUs: %r, /proc/stat has %d" % (phases[0][1]["cpus"], a["cpus"]))
# clyde's ticks in its phases: at most its whole CPU time (wait4), and
# between what the test saw it spend (its samples of /proc/PID/stat) for
# certain inside the phases and at most around them. Its whole CPU time
# is no lower bound: outside the phases (start, the cache drops between
# them, the removal, the exit) a small run spends as much as in them, and
# under AddressSanitizer more (its start, and LeakSanitizer's scan at the
# exit in a child that wait4 counts). Each phase's ticks span the
# sampler's snapshots around it: within its wall time (both ends
# together) and the window's excess over the phase of its timed start.
# Tolerance: the difference of two readings in whole ticks is within a
# tick of the truth, the test's and clyde's, in each phase.
got = sum(g["clyde_s"] for _, _, g in phases)
need(got <= a["child_cpu_s"] + 0.01 * len(phases) + 0.02,
     "clyde's ticks %.2f > its rusage %.2f" % (got, a["child_cpu_s"]))
samples = a["samples"]
def cpu_at(t, after):
    """the process's CPU at the first sample at or after t (after), or at
    the last one at or before it; None where there is none"""
    if after:
        got = [c for s, c in samples if s >= t]
        return got[0] if got else None
    got = [c for s, c in samples if s <= t]
    return got[-1] if got else 0.0
inner = outer = 0.0
for name, _, _ in phases:
    ph = doc["runs"][0]["phases"][name]
    start, end = ph["start_s"], ph["start_s"] + ph["elapsed_s"]
    wide = ph["profile"]["sampler"]["wall_s"] + ph["profile"]["window_s"] - ph["elapsed_s"]
    c0, c1 = cpu_at(start, True), cpu_at(end, False)
    if c0 is not None and c1 > c0:
        inner += c1 - c0
    c1 = cpu_at(end + wide, True)
    outer += (samples[-1][1] if c1 is None else c1) - cpu_at(start - wide, False)
tol = 2 * a["tick_s"] * len(phases)
need(inner - tol <= got <= outer + tol,
     "clyde's ticks %.2f in its phases: the test saw it use %.2f in them and %.2f around them "
     "(+-%.2f; its whole rusage %.2f, %.2f of it outside the phases at most)"
     % (got, inner, outer, tol, a["child_cpu_s"], a["child_cpu_s"] - inner))
print("clyde's ticks %.2f in its phases, seen %.2f to %.2f (%d samples); rusage %.2f"
      % (got, inner, outer, len(samples), a["child_cpu_s"]), file=sys.stderr)
print("\n".join(problems))
PY
}
out=$(check_json "$W/p.json" open "$W/p.around" long)
expect_eq "the JSON profile" "$out" ""

# a system without perf events: said, not zero
CLYDE_TEST_NO_PERF=1 measured "$W/n.around" "$CLYDE" -d "$MNT" -s 8:8192:200 -n 1 -f --profile -q \
	--json "$W/n.json" >"$W/nout" 2>"$W/nerr"
expect_eq "--profile without perf" "$?" 0
out=$(check_json "$W/n.json" closed "$W/n.around" short)
expect_eq "the JSON without perf" "$out" ""
expect_file_has "the text says why" "$W/nerr" "Profile perf counters: software no perf_event_open in this kernel (ENOSYS)"
expect_eq "-q: only the CSV on stdout" "$(grep -vc '^1\.98,' "$W/nout")" 0

# bad device names
"$CLYDE" -d "$MNT" -s 8 -n 0 --profile-dev=nosuchdev0 >"$W/bad" 2>&1
expect_eq "unknown --profile-dev: usage error" "$?" 1
expect_file_has "the name is said" "$W/bad" "--profile-dev: nosuchdev0"
"$CLYDE" -d "$MNT" -s 8 -n 0 --profile-dev= >"$W/bad" 2>&1
expect_eq "empty --profile-dev: usage error" "$?" 1
"$CLYDE" -d "$MNT" -s 8 -n 0 --profile-dev=../vda >"$W/bad" 2>&1
expect_eq "a path in --profile-dev: usage error" "$?" 1
expect_eq "no private directory left" "$(ls -A "$MNT")" ""

done_testing
