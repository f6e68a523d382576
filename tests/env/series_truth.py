# SPDX-License-Identifier: BSD-2-Clause
# clyde's time series (clyde-result/8) held to a truth the kernel or
# faultfs enforces. Prints one "CHECK ok TEXT" or "CHECK FAIL TEXT" line
# per check (tests/env/truth_lib.sh counts them) and lines of figures;
# exits 0 unless it cannot read the document.
#
#   series_truth.py throttle DOC PHASE RATE
#       a device held to RATE KiB/s: in the fixed intervals (250 ms or
#       more) that start after the first second and are full width, the
#       median rate is RATE +-10% and 90% of them are within +-20%
#   series_truth.py cliff DOC LIMIT RATE
#       the block write into a page cache of LIMIT KiB (vm.dirty_bytes)
#       over a device written back at RATE KiB/s: the first interval
#       fast, then (after the first second, until the writes end) the rate
#       RATE +-15% and each whole second of it +-30%, the dirty and
#       writeback pages near LIMIT, and the file's fsync at the end as long
#       as what was left takes to reach the device, its intervals (no
#       completion in them) with their pages read, falling at RATE +-30%
#   series_truth.py range DOC LOG PHASE CHUNK DELAY START END [START END]...
#       a sequential phase whose operations of CHUNK KiB over [START, END)
#       KiB each took DELAY s more: the intervals inside a range at most
#       what one operation per DELAY allows, each range lasting at least
#       its operations' delays less one (the first may begin in the
#       interval before), the intervals outside every range above 3 times
#       that; and every interval against faultfs's log (LOG, --log):
#       clyde's work done by each interval's end between what faultfs had
#       finished and clyde had asked past by then (clyde does one
#       operation at a time and stamps it in between) and what faultfs
#       had finished, so an interval with nothing completed is a pause of
#       clyde or of faultfs that the log measures, else a failure
#   series_truth.py steady DOC PHASE settled RATE | never MAX
#       --steady: the phase settled before MAX, its steady rate (its figure)
#       RATE +-10%; or it never settled, went on for MAX seconds, its last
#       window's spread over PCT, its figure the whole phase's
import bisect
import json
import statistics
import sys

MIB = 1024.0
# the phase's operation that completes its unit of work in faultfs's log
DONE_BY = {"put_block": "write", "rewrite": "write", "get_block": "read"}


def check(cond, text):
    print("CHECK %s %s" % ("ok" if cond else "FAIL", text))
    return cond


def rows_of(doc, phase):
    """The phase, its series and its rows as dicts by column name; None
    (a failed check) when the phase has no series."""
    p = doc["runs"][0]["phases"][phase]
    s = p["series"]
    if not check(p["ran"] and isinstance(s, dict), "%s: ran, with a series" % phase):
        return None
    c = s["columns"]
    return p, s, [dict(zip(c, r)) for r in s["rows"]]


def mib(kib):
    return "%.1f" % (kib / MIB)


def throttle(doc, phase, rate):
    got = rows_of(doc, phase)
    if not got:
        return
    p, s, rows = got
    if not check(s["interval_fixed"] and s["interval_s"] >= 0.25,
                 "%s: fixed intervals of 250 ms or more (%s s, fixed %s)"
                 % (phase, s["interval_s"], s["interval_fixed"])):
        return
    w = s["interval_s"]
    full = [r for r in rows
            if r["t_start_s"] >= 1.0 - 1e-9 and r["t_end_s"] - r["t_start_s"] >= w - 1e-6]
    rates = [r["rate"] for r in full]
    print("%s: %d intervals of %g s after the first second, MiB/s: %s"
          % (phase, len(rates), w, " ".join(mib(x) for x in rates)))
    if not check(len(rates) >= 4, "%s: at least 4 full intervals after the first second (%d)"
                 % (phase, len(rates))):
        return
    med = statistics.median(rates)
    check(abs(med - rate) <= 0.10 * rate, "%s: median %s MiB/s within 10%% of %s"
          % (phase, mib(med), mib(rate)))
    # Over the throttle the kernel lets nothing through: an interval far
    # above it is work the series put in the wrong interval. Under it, a
    # loaded machine can leave the device idle for a while (CI once gave a
    # rewrite 37.9 and 24.2 of 50 MiB/s), so two in three must be near.
    over = [x for x in rates if x > 1.25 * rate]
    check(not over, "%s: no interval over 125%% of %s MiB/s%s"
          % (phase, mib(rate), "; over: %s" % " ".join(mib(x) for x in over) if over else ""))
    near = sum(1 for x in rates if abs(x - rate) <= 0.20 * rate)
    check(3 * near >= 2 * len(rates), "%s: %d of %d intervals within 20%% of %s MiB/s "
          "(two in three due)" % (phase, near, len(rates), mib(rate)))


def cliff(doc, limit, rate):
    got = rows_of(doc, "put_block")
    if not got:
        return
    p, s, rows = got
    if not check(rows and s["dirty_source"] is not None,
                 "put_block: a series with the dirty pages measured (%s)" % s["dirty_source"]):
        return
    def pages(r):
        """dirty + writeback KiB at the interval's end; None: not read (a stall's interval)"""
        if r["dirty_kib"] is None or r["writeback_kib"] is None:
            return None
        return r["dirty_kib"] + r["writeback_kib"]

    print("put_block: %d intervals; MiB/s, then dirty+writeback MiB (- not read):" % len(rows))
    print("  " + " ".join(mib(r["rate"]) for r in rows))
    print("  " + " ".join("-" if pages(r) is None else mib(pages(r)) for r in rows))
    first = rows[0]
    check(first["rate"] >= 3 * rate, "the fast part: the first interval at %s MiB/s, 3 x %s or more"
          % (mib(first["rate"]), mib(rate)))
    last = max(i for i, r in enumerate(rows) if r["work"] > 0)
    win = [r for r in rows[:last] if r["t_start_s"] >= 1.0 - 1e-9]
    span = sum(r["t_end_s"] - r["t_start_s"] for r in win)
    if not check(span >= 1.5, "a throttled part of 1.5 s or more after the first second (%.2f s)"
                 % span):
        return
    wr = sum(r["work"] for r in win) / span
    check(abs(wr - rate) <= 0.15 * rate, "the drop: %s MiB/s from %.2f to %.2f s, within 15%% of %s"
          % (mib(wr), win[0]["t_start_s"], win[-1]["t_end_s"], mib(rate)))
    secs = []
    t = win[0]["t_start_s"]
    while t + 1.0 <= win[-1]["t_end_s"] + 1e-9:
        inside = [r for r in win if r["t_start_s"] >= t - 1e-9 and r["t_end_s"] <= t + 1.0 + 1e-9]
        secs.append(sum(r["work"] for r in inside) /
                    sum(r["t_end_s"] - r["t_start_s"] for r in inside))
        t += 1.0
    check(secs and all(abs(x - rate) <= 0.30 * rate for x in secs),
          "every whole second of it within 30%% (MiB/s: %s)" % " ".join(mib(x) for x in secs))
    d = [pages(r) for r in win if pages(r) is not None]
    if not check(len(d) >= len(win) / 2, "the pages read in most of its intervals (%d of %d)"
                 % (len(d), len(win))):
        return
    med = statistics.median(d)
    # the kernel's limit (balance_dirty_pages) is on dirty + writeback
    check(0.75 * limit <= med <= 1.05 * limit,
          "dirty+writeback near the limit: median %s MiB, 75%% to 105%% of %s"
          % (mib(med), mib(limit)))
    check(min(d) >= 0.5 * limit and max(d) <= 1.15 * limit,
          "dirty+writeback between 50%% and 115%% of the limit throughout (%s to %s MiB)"
          % (mib(min(d)), mib(max(d))))
    dirty = max(r["dirty_kib"] for r in win if r["dirty_kib"] is not None)
    check(dirty <= 1.05 * limit, "the dirty column at most the limit (%s MiB)" % mib(dirty))
    # after the last reading in the writes, the phase's fsync waits for what
    # was left then and what was written after it
    j = max(i for i in range(last + 1) if pages(rows[i]) is not None)
    left = pages(rows[j]) + sum(r["work"] for r in rows[j + 1:last + 1])
    tail = p["elapsed_s"] - rows[j]["t_end_s"]
    check(0.6 * left / rate <= tail <= 1.5 * left / rate + 0.2,
          "the %.2f s from %.2f s to the end (the fsync): what was left (%s MiB) at the "
          "device's rate (%.2f s)" % (tail, rows[j]["t_end_s"], mib(left), left / rate))
    # the fsync's intervals complete nothing: the stall reader's gauges, at
    # every interval's end, show what is left draining at the device's rate
    drain = rows[last + 1:-1]
    if check(drain and all(pages(r) is not None for r in drain),
             "the fsync's %d intervals without a completion have their pages read" % len(drain)):
        seq = [pages(rows[last])] + [pages(r) for r in drain] if pages(rows[last]) is not None \
            else [pages(r) for r in drain]
        check(all(b <= a + 2 * MIB for a, b in zip(seq, seq[1:])),
              "the pages fall through the fsync (MiB: %s)" % " ".join(mib(x) for x in seq))
        if len(drain) >= 3:
            t = drain[-1]["t_end_s"] - drain[0]["t_end_s"]
            fell = (pages(drain[0]) - pages(drain[-1])) / t
            check(abs(fell - rate) <= 0.30 * rate,
                  "they fall at the device's rate: %s MiB/s from %.2f to %.2f s, within 30%% of %s"
                  % (mib(fell), drain[0]["t_end_s"], drain[-1]["t_end_s"], mib(rate)))
    end = rows[-1]
    if end["file_dirty_kib"] is not None:
        check(end["file_dirty_kib"] == 0 and end["file_writeback_kib"] == 0,
              "the file clean at the phase's end (cachestat: %s dirty, %s writeback KiB)"
              % (end["file_dirty_kib"], end["file_writeback_kib"]))
        mid = [r["file_dirty_kib"] + r["file_writeback_kib"] for r in win
               if r["file_dirty_kib"] is not None and r["file_writeback_kib"] is not None]
        check(mid and statistics.median(mid) >= 0.5 * limit,
              "the file's own dirty+writeback pages the most of it (median %s MiB)"
              % (mib(statistics.median(mid)) if mid else None))


def offsets(rows):
    at = 0.0
    for r in rows:
        yield at, at + r["work"], r
        at += r["work"]


def faultfs_ops(log, p):
    """From faultfs's --log ("OP OFF LEN START_NS END_NS RESULT PATH"),
    the test file's reads and writes that ended inside phase P, in order:
    (when faultfs took it, when it finished it, OP, KiB moved)."""
    t0, t1 = p["start_s"], p["start_s"] + p["elapsed_s"]
    ops = []
    for line in open(log):
        f = line.rstrip("\n").split(" ", 6)
        if len(f) == 7 and f[6].endswith("io.0") and t0 <= int(f[4]) / 1e9 <= t1:
            ops.append((int(f[3]) / 1e9, int(f[4]) / 1e9, f[0], int(f[5]) / 1024.0))
    return sorted(ops)


def faultfs_done(log, p, op):
    """For each OP of the phase (the one that completes a unit of its
    work), when faultfs finished it, when it took the next request (the
    phase's end for the last) and its KiB. clyde's worker does one
    operation at a time and stamps each done between the two: after
    faultfs's reply, before it asks again."""
    ops = faultfs_ops(log, p)
    t1 = p["start_s"] + p["elapsed_s"]
    return [(end, ops[i + 1][0] if i + 1 < len(ops) else t1, kib)
            for i, (_, end, kind, kib) in enumerate(ops) if kind == op and kib > 0]


def against_log(phase, p, rows, log):
    """Every interval of the phase against faultfs's log: the work clyde
    counts done by each interval's end at least what faultfs had finished
    and clyde had asked past by then, at most what faultfs had finished."""
    done_ops = faultfs_done(log, p, DONE_BY[phase])
    total = sum(r["work"] for r in rows)
    if not check(abs(sum(k for _, _, k in done_ops) - total) < 1e-6,
                 "%s: faultfs finished the phase's %s KiB (%s)"
                 % (phase, total, sum(k for _, _, k in done_ops))):
        return
    # clyde's clock and faultfs's are one (CLOCK_MONOTONIC); start_s is in us
    eps = 2e-6
    done, bad, empty, paused = 0.0, [], 0, []
    for r in rows:
        done += r["work"]
        a, b = p["start_s"] + r["t_start_s"], p["start_s"] + r["t_end_s"]
        lo = sum(k for _, nxt, k in done_ops if nxt <= b - eps)
        hi = sum(k for end, _, k in done_ops if end < b + eps)
        if not lo - 1e-6 <= done <= hi + 1e-6:
            bad.append("%.2f-%.2f s: %s KiB done, faultfs %s to %s" % (
                r["t_start_s"], r["t_end_s"], done, lo, hi))
        if r["work"] == 0:
            empty += 1
            # explained: no operation both finished and asked past inside it
            inside = [end for end, nxt, _ in done_ops if end >= a - eps and nxt <= b - eps]
            if not inside:
                before = [nxt for _, nxt, _ in done_ops if nxt <= a + eps]
                after = [end for end, _, _ in done_ops if end >= b - eps]
                paused.append("%.2f-%.2f s (clyde asked at %.3f s, faultfs answered at %.3f s)"
                              % (r["t_start_s"], r["t_end_s"],
                                 (before[-1] if before else p["start_s"]) - p["start_s"],
                                 (after[0] if after else b) - p["start_s"]))
    check(not bad, "%s: at each of the %d intervals' ends, clyde's work done between what "
          "faultfs had finished and clyde had asked past then and what faultfs had finished%s"
          % (phase, len(rows), "; not: %s" % "; ".join(bad[:5]) if bad else ""))
    check(len(paused) == empty, "%s: each of the %d intervals with nothing completed in a pause "
          "of clyde or faultfs, measured (%s)" % (phase, empty, "; ".join(paused) if paused
                                                  else "none"))


def delayed_ranges(doc, log, phase, chunk, delay, ranges):
    got = rows_of(doc, phase)
    if not got:
        return
    p, s, rows = got
    against_log(phase, p, rows, log)
    slow = chunk / delay
    # the intervals outside every range, and whether faultfs held an
    # operation that ended in one for a delay or more
    ops = faultfs_ops(log, p)
    outside, held = [], []
    for a, b, r in offsets(rows):
        if r["t_end_s"] - r["t_start_s"] >= 0.05 and all(b <= lo or a >= hi for lo, hi in ranges):
            t0, t1 = p["start_s"] + r["t_start_s"], p["start_s"] + r["t_end_s"]
            outside.append(r["rate"])
            held.append(any(t0 <= end < t1 and end - start >= delay for start, end, _, _ in ops))
    rows = [(a, b, r["t_end_s"] - r["t_start_s"], r["rate"]) for a, b, r in offsets(rows)]
    for lo, hi in ranges:
        inside = [(w, x) for a, b, w, x in rows if a >= lo and b <= hi]
        span = sum(w for a, b, w, x in rows if a < hi and b > lo or a == b and lo <= a < hi)
        print("%s: inside %s..%s MiB, MiB/s: %s" % (
            phase, mib(lo), mib(hi), " ".join(mib(x) for _, x in inside)))
        if check(len(inside) >= 3, "%s: 3 or more intervals inside %s..%s MiB (%d)"
                 % (phase, mib(lo), mib(hi), len(inside))):
            over = [(w, x) for w, x in inside if x > (w / delay + 1) * chunk / w]
            check(not over, "%s: inside it, every interval at most one %g KiB operation per "
                  "%g s and one more%s" % (phase, chunk, delay, "; over: %s" % over if over else ""))
        # The intervals over a range are those whose work touches it; the
        # first delayed operation may begin before the first of them (after
        # the last fast completion of the interval before), so up to one
        # delay of the range's time can fall outside them.
        ops = (hi - lo) / chunk
        need = (ops - 1) * delay
        check(span >= need, "%s: the intervals over it last %.2f s, at least %d of its %d "
              "operations' delays, %.2f s" % (phase, span, ops - 1, ops, need))
    print("%s: outside, MiB/s: %s" % (phase, " ".join(mib(x) for x in outside)))
    if check(len(outside) >= 2, "%s: 2 or more intervals outside the delays (%d)"
             % (phase, len(outside))):
        # A delay that leaked past its range shows as intervals of one or two
        # delayed operations each (about the slow rate), never as one with
        # none: an interval in which nothing completed is a pause (of the
        # kernel, of faultfs or of the machine: the rewrite had two such in
        # CI, alone on the machine), which faultfs's log has shown above. Such
        # a pause can also leave two or three intervals with one operation
        # each (0.6 0.6 in CI), so one in five of the rest may be slow; a
        # leaked delay slows far more of them (4 MiB of it: 32 of 42). A
        # slow interval in which faultfs held no operation for a delay is
        # the machine's load (beside stress-ng --cpu 2: 20 of 103 in the
        # rewrite, each interval's work faultfs's own): said, not counted.
        low = [x for x, h in zip(outside, held) if 0 < x < 3 * slow and h]
        loaded = [x for x, h in zip(outside, held) if 0 < x < 3 * slow and not h]
        if loaded:
            print("%s: %d interval(s) outside the delays below 3 x %s MiB/s with no operation "
                  "held a delay (the machine's load): %s" % (
                      phase, len(loaded), mib(slow), " ".join(mib(x) for x in loaded)))
        check(len(low) <= len(outside) // 5,
              "%s: outside them, all but %d of %d intervals above 3 x %s MiB/s, or without "
              "an operation faultfs held a delay%s"
              % (phase, len(outside) // 5, len(outside), mib(slow),
                 "; below: %s" % " ".join(mib(x) for x in low) if low else ""))


def steady(doc, phase, what, figure):
    got = rows_of(doc, phase)
    if not got:
        return
    p, s, rows = got
    st = p.get("steady")
    if not check(isinstance(st, dict), "%s: a steady object" % phase):
        return
    print("%s: %s" % (phase, json.dumps(st)))
    if what == "settled":
        check(st["settled"] is True and st["end"] == "settled",
              "%s: settled (at %s s, end %s)" % (phase, st.get("settled_at_s"), st["end"]))
        sr = st.get("steady_rate")
        check(sr is not None and abs(sr - figure) <= 0.10 * figure,
              "%s: steady rate %s within 10%% of %s" % (phase, sr, figure))
        check(sr is not None and abs(p["rate"] - sr) <= 1e-6 * sr,
              "%s: the phase's rate is the steady window's (%s, %s)" % (phase, p["rate"], sr))
        check(st["settled_at_s"] is not None and st["settled_at_s"] <= st["max_s"],
              "%s: settled before MAX (%s s of %s)" % (phase, st["settled_at_s"], st["max_s"]))
    else:
        check(st["settled"] is False and st["end"] == "max_time",
              "%s: never settled, MAX passed (end %s)" % (phase, st["end"]))
        check(figure * 0.95 <= p["elapsed_s"] <= figure + 3,
              "%s: went on for MAX seconds (%.2f s of %g)" % (phase, p["elapsed_s"], figure))
        check(st["settled_at_s"] is None and st["steady_rate"] is None,
              "%s: no settling time nor steady rate" % phase)
        check(st["spread_pct"] is not None and st["spread_pct"] > st["pct"],
              "%s: the last window's spread %s%% over PCT %s%%" % (phase, st["spread_pct"], st["pct"]))
        whole = p["amount"] / p["elapsed_s"]
        check(abs(p["rate"] - whole) <= 1e-6 * whole,
              "%s: its rate the whole phase's (%s, %s)" % (phase, p["rate"], whole))


def main(argv):
    mode, doc = argv[1], json.load(open(argv[2]))
    schema = doc.get("schema", "")
    check(schema.startswith("clyde-result/") and int(schema.split("/")[1]) >= 8,
          "schema %s: with series" % schema)
    if mode == "throttle":
        throttle(doc, argv[3], float(argv[4]))
    elif mode == "cliff":
        cliff(doc, float(argv[3]), float(argv[4]))
    elif mode == "range":
        v = [float(x) for x in argv[5:]]
        delayed_ranges(doc, argv[3], argv[4], v[0], v[1], list(zip(v[2::2], v[3::2])))
    elif mode == "steady":
        steady(doc, argv[3], argv[4], float(argv[5]))
    else:
        sys.exit("series_truth.py: no mode %s" % mode)


if __name__ == "__main__":
    main(sys.argv)
