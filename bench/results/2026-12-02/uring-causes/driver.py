#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
# Screening: clyde seek phase variants (env knobs) against fio and t/io_uring, interleaved.
import fcntl, json, os, subprocess, sys, time, statistics
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", ".."))
from clyde_csv import csv_rates, median_interval

D = os.environ.get("DIR", "/var/tmp/ab")  # holds f1g, a 1 GiB file for fio
CLYDE = os.environ.get("CLYDE", "./clyde")  # built with knobs.patch
TIOU = os.environ.get("TIOU", "t/io_uring")  # from apt-get source fio
rounds = int(sys.argv[1])
qd = int(sys.argv[2])
variants = sys.argv[3].split(",")          # e.g. base,REAP1,RING=1,NOCAP,NOREG
seeks = int(os.environ.get("SEEKS", "200000"))
upd = int(os.environ.get("UPD", "0"))
extra = os.environ.get("EXTRA", "").split()

def lock():
    f = open(os.environ.get("LOCK", "/dev/null"), "w")
    fcntl.flock(f, fcntl.LOCK_EX)
    return f

def clyde(v):
    env = dict(os.environ)
    if v != "base":
        for kv in v.split("+"):
            k, _, val = kv.partition("=")
            if k == "CPU":
                env["CLYDE_TEST_SEEKER_CPU"] = val
            else:
                env["EXP_" + k] = val or "1"
    out = subprocess.run([CLYDE, "-d", D, "-s", os.environ.get("SZ","1G") + ":8k:%d:1" % seeks, "-n", "0", "-f",
                          "--engine=uring", "--iodepth=%d" % qd, "-D",
                          "--seek-updates=%d" % upd, "-q", "-z", "1", "--json", "/tmp/exp.json"] + extra, env=env,
                         check=True, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                         text=True).stdout
    allr = csv_rates(out)
    r = allr["seeks"]
    with open(os.environ.get("BLOCKS_LOG", "/dev/null"), "a") as bf:
        bf.write("qd=%d v=%s put_block=%s rewrite=%s get_block=%s\n" % (qd, v, allr.get("put_block"), allr.get("rewrite"), allr.get("get_block")))
    ph = json.load(open("/tmp/exp.json"))["runs"][0]["phases"]["seeks"]
    cpu[v if v else ""] = cpu.get(v, []) + [(ph["cpu_user_s"] + ph["cpu_sys_s"]) * 1e6 / (ph["amount"] * (1 + upd / 100.0))]
    return r * (1 + upd / 100.0)

cpu = {}
def fio():
    rw = ["--rw=randread"] if not upd else ["--rw=randrw", "--rwmixread=%d" % (100 - upd)]
    p = subprocess.Popen(["fio", "--name=r", "--filename=%s/f%s" % (D, os.environ.get("SZ","1G").lower()), "--size=" + os.environ.get("SZ","1G").lower(), "--bs=8k",
                          "--ioengine=io_uring", "--iodepth=%d" % qd, "--direct=1",
                          "--fixedbufs=1", "--registerfiles=1", "--time_based", "--runtime=5",
                          "--randrepeat=0", "--output-format=json"] + rw,
                         stdout=subprocess.PIPE, text=True)
    out = p.stdout.read()
    _, st, ru = os.wait4(p.pid, 0)
    j = json.loads(out)["jobs"][0]
    n = j["read"]["total_ios"] + j["write"]["total_ios"]
    cpu["fio"] = cpu.get("fio", []) + [(ru.ru_utime + ru.ru_stime) * 1e6 / n]
    return j["read"]["iops"] + j["write"]["iops"]

def tiou():
    out = subprocess.run([TIOU, "-d%d" % qd, "-s1", "-c1", "-b8192", "-p0", "-B1", "-F1", "-n1",
                          "-O1", "-r5", D + "/f1g"], stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT, text=True).stdout
    tot = [int(l.split("IOPS=")[1].split(",")[0]) for l in out.splitlines()
           if l.startswith("IOPS=")]
    return sum(tot) / len(tot)

tools = ["fio"] + (["tiou"] if os.path.exists(TIOU) else []) + ["c:" + v for v in variants]
res = {t: [] for t in tools}
for r in range(rounds):
    order = tools[r % len(tools):] + tools[:r % len(tools)]
    l = lock()
    for t in order:
        if t == "fio":
            v = fio()
        elif t == "tiou":
            v = tiou()
        else:
            v = clyde(t[2:])
        res[t].append(v)
    l.close()
    print("round %d: " % r + " ".join("%s=%.0f" % (t, res[t][-1]) for t in tools), flush=True)
    time.sleep(2)
print("QD %d upd %d, %d rounds; ratio to fio per round: median (95%%)" % (qd, upd, rounds))
for t in tools:
    ratios = [a / b for a, b in zip(res[t], res["fio"])]
    import statistics
    m = statistics.median(ratios)
    lo, hi = median_interval(ratios) or (min(ratios), max(ratios))
    c = cpu.get(t[2:] if t.startswith("c:") else t)
    cs = " cpu/io %.2f us" % statistics.median(c) if c else ""
    print("%-14s median %8.0f  /fio %.3f (%.3f..%.3f)%s" % (t, sorted(res[t])[len(res[t]) // 2], m, lo, hi, cs))
