# SPDX-License-Identifier: BSD-2-Clause
"""--steady in clyde's JSON: python3 steady_check.py FILE PHASE settled|never.

Checks the phase's "steady" object against its series' rows: the steady
window lies in the phase, its rate is the rows' work over the window, the
reported "rate" is the window's when settled and the whole phase's when
not; prints what it found, exits 1 on the first failure."""
import json
import sys


def fail(msg):
    print(msg)
    sys.exit(1)


def close(a, b, rel=1e-6):
    return abs(a - b) <= rel * max(abs(a), abs(b), 1e-12)


def main():
    doc = json.load(open(sys.argv[1]))
    name, want = sys.argv[2], sys.argv[3]
    p = doc["runs"][0]["phases"][name]
    st = p.get("steady")
    if st is None:
        fail(f"{name}: no steady object")
    for key in ("metric", "pct", "window_s", "max_s", "settled", "end", "settled_at_s",
                "window_start_s", "steady_rate", "steady_p99_s", "last_check_at_s",
                "last_window_rate", "spread_pct", "checks", "phase_rate", "planned_amount"):
        if key not in st:
            fail(f"{name}: steady has no {key}")
    whole = p["amount"] / p["elapsed_s"]
    if not close(st["phase_rate"], whole):
        fail(f"{name}: phase_rate {st['phase_rate']} is not amount/elapsed {whole}")
    if st["checks"] < 1:
        fail(f"{name}: no check was made")
    s = p["series"]
    cols = s["columns"]
    t0, t1, work = cols.index("t_start_s"), cols.index("t_end_s"), cols.index("work")
    if want == "never":
        if st["settled"] or st["settled_at_s"] is not None or st["steady_rate"] is not None:
            fail(f"{name}: settled, not never: {st}")
        if st["end"] not in ("max_time", "max_size"):
            fail(f"{name}: end {st['end']}")
        if not close(p["rate"], whole):
            fail(f"{name}: rate {p['rate']} is not the whole phase's {whole}")
        if st["spread_pct"] is None or st["spread_pct"] < st["pct"]:
            fail(f"{name}: the last check's spread {st['spread_pct']} is under PCT")
        print(f"{name}: never settled; end {st['end']} at {st['last_check_at_s']} s; "
              f"spread {st['spread_pct']:.3f}%")
        return
    if not st["settled"] or st["end"] != "settled":
        fail(f"{name}: did not settle: {st}")
    a, b = st["window_start_s"], st["settled_at_s"]
    if not (0 <= a < b <= p["elapsed_s"] + 1e-9):
        fail(f"{name}: window [{a}, {b}] not in the phase [0, {p['elapsed_s']}]")
    if not close(b - a, st["window_s"], 1e-9) and b - a < st["window_s"]:
        fail(f"{name}: the window [{a}, {b}] is shorter than SECONDS {st['window_s']}")
    if b > st["max_s"] + 5 * s["interval_s"]:
        fail(f"{name}: settled at {b} s, past MAX {st['max_s']}")
    rows = [r for r in s["rows"] if r[t0] >= a - 1e-9 and r[t1] <= b + 1e-9]
    span = sum(r[t1] - r[t0] for r in rows)
    if not close(span, b - a, 1e-6):
        fail(f"{name}: the rows in the window cover {span} s, not {b - a}")
    rate = sum(r[work] for r in rows) / (b - a)
    if not close(rate, st["steady_rate"], 1e-6):
        fail(f"{name}: steady_rate {st['steady_rate']} but the rows say {rate}")
    if not close(p["rate"], st["steady_rate"]):
        fail(f"{name}: rate {p['rate']} is not the steady window's {st['steady_rate']}")
    if st["spread_pct"] is None or st["spread_pct"] > st["pct"]:
        fail(f"{name}: spread {st['spread_pct']} over PCT")
    print(f"{name}: settled at {b} s; window [{a}, {b}]; {len(rows)} rows; "
          f"rate {rate:.0f}; spread {st['spread_pct']:.2f}%")


main()
