# SPDX-License-Identifier: BSD-2-Clause
# The time series of a clyde JSON document (clyde-result/8), checked
# against the phase figures they must add up to. Used by tests/cli/series.sh
# and tests/env/series_loop.sh:
#   python3 series_check.py DOC.json MODE [INTERVAL_S] [DEVICE]
# MODE: adaptive, fixed (every interval but the last INTERVAL_S wide) or off
# (every series null); DEVICE: the device_source a --profile run must name.
# Prints one line per problem and the phases it checked; exit 1 on a problem.
import json
import sys

COLUMNS = ["t_start_s", "t_end_s", "work", "ops", "rate", "lat_p50_s", "lat_p99_s",
           "lat_max_s", "cpu_user_s", "cpu_sys_s", "dirty_kib", "writeback_kib",
           "file_dirty_kib", "file_writeback_kib", "dev_read_kib", "dev_write_kib"]
IO_PHASES = {"putc", "put_block", "rewrite", "getc", "get_block", "seeks"}

doc = json.load(open(sys.argv[1]))
mode = sys.argv[2]
width = float(sys.argv[3]) if len(sys.argv) > 3 and sys.argv[3] else None
device = sys.argv[4] if len(sys.argv) > 4 else None
problems = []
checked = []


def need(cond, what):
    if not cond:
        problems.append(what)


need(doc["schema"] == "clyde-result/15", "schema %s" % doc["schema"])
for run in doc["runs"]:
    for name, p in run["phases"].items():
        s = p.get("series", "absent")
        need(s != "absent", "%s: no series key" % name)
        if not p["ran"] or mode == "off":
            need(s is None, "%s: a series where null is due" % name)
            continue
        if not isinstance(s, dict):
            problems.append("%s: series %r" % (name, s))
            continue
        checked.append(name)
        cols = s["columns"]
        need(cols[:len(COLUMNS)] == COLUMNS, "%s: columns %r" % (name, cols))
        c = {k: cols.index(k) for k in COLUMNS if k in cols}
        rows = s["rows"]
        need(len(rows) >= 1, "%s: no rows" % name)
        if not rows:
            continue
        # the rows tile [0, elapsed] exactly
        need(rows[0][c["t_start_s"]] == 0, "%s: first row starts at %r" % (name, rows[0][0]))
        for a, b in zip(rows, rows[1:]):
            need(a[c["t_end_s"]] == b[c["t_start_s"]],
                 "%s: rows %r and %r do not meet" % (name, a[:2], b[:2]))
        need(rows[-1][c["t_end_s"]] == p["elapsed_s"],
             "%s: last row ends at %r, the phase at %r" % (name, rows[-1][1], p["elapsed_s"]))
        # the work adds up to the amount; KiB to 1e-9 relative, counts exactly
        work = sum(r[c["work"]] for r in rows)
        if p["amount_unit"] == "KiB":
            need(abs(work - p["amount"]) <= 1e-9 * max(1.0, p["amount"]),
                 "%s: work %r, amount %r" % (name, work, p["amount"]))
        else:
            need(all(isinstance(r[c["work"]], int) for r in rows), "%s: work not integers" % name)
            need(work == p["amount"], "%s: work %r, amount %r" % (name, work, p["amount"]))
        need(s["work_unit"] == p["amount_unit"], "%s: work_unit %r" % (name, s["work_unit"]))
        ops = sum(r[c["ops"]] for r in rows)
        need(ops > 0, "%s: no operation in any interval" % name)
        need(ops == p["latency_us"]["count"],
             "%s: %d operations in the series, %d timed" % (name, ops, p["latency_us"]["count"]))
        cpu_u = sum(r[c["cpu_user_s"]] or 0 for r in rows)
        cpu_s = sum(r[c["cpu_sys_s"]] or 0 for r in rows)
        need(abs(cpu_u - p["cpu_user_s"]) < 1e-5 and abs(cpu_s - p["cpu_sys_s"]) < 1e-5,
             "%s: the rows' CPU %.6f+%.6f, the phase's %.6f+%.6f"
             % (name, cpu_u, cpu_s, p["cpu_user_s"], p["cpu_sys_s"]))
        for r in rows:
            span = r[c["t_end_s"]] - r[c["t_start_s"]]
            if span > 0:
                # the times are printed to nine significant digits (1e-8 s past 1 s,
                # 1e-7 s past 10 s): a short row's span is that coarse
                slack = 1e-8 * max(1.0, r[c["t_end_s"]])
                need(abs(r[c["rate"]] * span - r[c["work"]]) <= slack * r[c["rate"]] + 1e-6 * r[c["work"]],
                     "%s: rate %r of work %r in %r s" % (name, r[c["rate"]], r[c["work"]], span))
            if r[c["ops"]] == 0:
                need(r[c["lat_p50_s"]] is None and r[c["lat_max_s"]] is None,
                     "%s: latencies without an operation" % name)
            else:
                need(0 < r[c["lat_p50_s"]] <= r[c["lat_p99_s"]] <= r[c["lat_max_s"]],
                     "%s: latencies out of order %r" % (name, r[5:8]))
                need(r[c["lat_max_s"]] * 1e6 <= p["latency_us"]["max"] * 1.001 + 0.001,
                     "%s: an interval's max %r above the phase's" % (name, r[c["lat_max_s"]]))
            # a row without a worker's reading (nothing completed after its
            # end before the next) has no CPU, file columns or device bytes;
            # the machine's dirty pages are the stall reader's, where it ran
            if r[c["cpu_user_s"]] is None:
                need(r[c["file_dirty_kib"]] is None and r[c["dev_write_kib"]] is None,
                     "%s: a file's pages or the device's bytes without a reading" % name)
                need((r[c["dirty_kib"]] is None) == (r[c["writeback_kib"]] is None),
                     "%s: dirty and writeback not read together" % name)
            elif s["dirty_source"] and s["dirty_source"].startswith("Linux"):
                need(isinstance(r[c["dirty_kib"]], int) and r[c["dirty_kib"]] >= 0,
                     "%s: dirty_kib %r" % (name, r[c["dirty_kib"]]))
        # the last row always has its reading: the phase's end takes one
        need(rows[-1][c["cpu_user_s"]] is not None, "%s: the last row has no reading" % name)
        read = sum(1 for r in rows if r[c["cpu_user_s"]] is not None)
        need(read * 2 >= len(rows), "%s: %d readings in %d rows" % (name, read, len(rows)))
        if s["file_cache_source"] is not None:
            need(name in IO_PHASES, "%s: a test file's cache where there is none" % name)
        if mode == "fixed":
            need(s["interval_fixed"] is True, "%s: interval_fixed %r" % (name, s["interval_fixed"]))
            need(s["interval_s"] == width, "%s: interval_s %r" % (name, s["interval_s"]))
            for r in rows[:-1]:
                need(abs(r[c["t_end_s"]] - r[c["t_start_s"]] - width) < 1e-9,
                     "%s: an interval of %r s" % (name, r[1] - r[0]))
        else:
            need(s["interval_fixed"] is False, "%s: interval_fixed %r" % (name, s["interval_fixed"]))
            need(s["interval_s"] >= 0.1, "%s: interval_s %r" % (name, s["interval_s"]))
            need(len(rows) <= 512, "%s: %d rows" % (name, len(rows)))
        need(len(rows) == 1 or rows[-2][1] < p["elapsed_s"], "%s: an empty last row" % name)
        need(0 < s["record_bytes"] < 1 << 20, "%s: record_bytes %r" % (name, s["record_bytes"]))
        need(s["sampler_cpu_s"] >= 0, "%s: sampler_cpu_s %r" % (name, s["sampler_cpu_s"]))
        if device is not None and name in IO_PHASES:
            need(s["device_source"] == device, "%s: device_source %r" % (name, s["device_source"]))
            # a row without a reading has its bytes in the next reading's row
            need(all(r[c["dev_write_kib"]] is not None for r in rows
                     if r[c["cpu_user_s"]] is not None),
                 "%s: a reading without the device's bytes" % name)
print("checked: " + " ".join(checked))
for pr in problems:
    print("PROBLEM: " + pr)
sys.exit(1 if problems else 0)
