#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""clyde-report's text and page in the same units, checked from the inputs.

Usage: report_units.py TEXT PAGE MODE INPUT...
MODE: "absolute" (Rate and Min..Max are medians, min and max) or
"baseline" (Mean rate is the mean). The byte phases' rates are worked
here from the CSV lines and JSON documents themselves, in KiB/s, grouped
by the run's name (every name of the inputs used is one configuration).
Each rate cell of the text, times its unit's factor (MiB = 1024 KiB,
GiB = 1024 MiB), must be that figure within the printed rounding, and
each phase's unit in the text must be the page's column unit. Prints one
line per failure and exits 1 when there is any.
"""
import json
import re
import statistics
import sys

# the byte phases: the text's row name, the JSON key
KIB_PHASES = [("Per-char write", "putc"), ("Block write", "put_block"),
              ("Rewrite", "rewrite"), ("Per-char read", "getc"),
              ("Block read", "get_block")]
FACTOR = {"KiB/s": 1.0, "MiB/s": 1024.0, "GiB/s": 1024.0 * 1024.0}


def csv_rates(line):
    """(name, {json key: KiB/s}) of a bonnie++ or clyde CSV line, or None."""
    f = line.rstrip("\n").split(",")
    if f[0] in ("format_version", "name") or len(f) < 12:
        return None
    if f[0] == "1.98":
        name, first = f[2], 9
    elif f[0] in ("1.97", "1.96"):
        name, first = f[2], 7
    elif len(f) == 27:	# bonnie++ 1.03: no version field
        name, first = f[0], 2
    else:
        return None
    rates = {}
    for i, (_, key) in enumerate(KIB_PHASES):
        cell = f[first + 2 * i]
        if re.fullmatch(r"[0-9]+(\.[0-9]+)?", cell):
            rates[key] = float(cell)
    return name, rates


def json_runs(text):
    """(name, {json key: KiB/s}) of every run of the documents in text."""
    dec = json.JSONDecoder()
    i = 0
    while True:
        while i < len(text) and text[i].isspace():
            i += 1
        if i >= len(text):
            return
        doc, i = dec.raw_decode(text, i)
        for run in doc["runs"]:
            rates = {}
            for _, key in KIB_PHASES:
                ph = run["phases"].get(key) or {}
                if ph.get("ran") and isinstance(ph.get("rate"), (int, float)):
                    rates[key] = float(ph["rate"])
            yield run["name"], rates


def read_inputs(paths):
    """{name: {json key: [KiB/s of each run]}}"""
    by_name = {}
    for path in paths:
        with open(path, encoding="utf-8") as f:
            text = f.read()
        if text.lstrip().startswith("{"):
            runs = list(json_runs(text))
        else:
            runs = [r for r in map(csv_rates, text.splitlines()) if r]
        for name, rates in runs:
            cfg = by_name.setdefault(name, {})
            for key, v in rates.items():
                cfg.setdefault(key, []).append(v)
    return by_name


def page_units(path):
    """{phase row name: unit} of the page's throughput tables' headers."""
    with open(path, encoding="utf-8") as f:
        page = f.read()
    return dict(re.findall(r'<th>([^<]+)<span class="unit">([^<]+)</span></th>', page))


def text_blocks(path):
    """{name: {phase row name: [cells]}} of the text's blocks (first table of each)."""
    blocks, cur = {}, None
    with open(path, encoding="utf-8") as f:
        for line in f:
            m = re.match(r"\[[0-9]+\] (\S+) ", line)
            if m:
                cur = blocks.setdefault(m.group(1), {})
                continue
            if cur is None or not line.startswith("  "):
                if not line.strip():
                    cur = None
                continue
            for row, _ in KIB_PHASES:
                if line.startswith("  " + row + "  "):
                    cur[row] = line[len(row) + 2:].split()
    return blocks


def close(printed, unit, want):
    """Whether the printed figure in unit is want KiB/s within its rounding."""
    printed = printed.rstrip("*")
    decimals = len(printed.split(".")[1]) if "." in printed else 0
    half = 0.5 * 10 ** -decimals * FACTOR[unit]
    return abs(float(printed) * FACTOR[unit] - want) <= half + 1e-9 * want


def main():
    text, page, mode = sys.argv[1:4]
    inputs = read_inputs(sys.argv[4:])
    units = page_units(page)
    blocks = text_blocks(text)
    bad, checked = [], 0
    for name, cfg in sorted(inputs.items()):
        rows = blocks.get(name)
        if rows is None:
            bad.append(f"{name}: no block in the text")
            continue
        for row, key in KIB_PHASES:
            runs = sorted(cfg.get(key, []))
            if not runs:
                continue
            cells = rows.get(row)
            if cells is None:
                bad.append(f"{name} {row}: no row in the text")
                continue
            if mode == "absolute":
                figure, unit, spread = cells[0], cells[1], cells[2]
                want = [(figure, statistics.median(runs))]
                if len(runs) >= 2:
                    lo, hi = spread.split("..")
                    want += [(lo, runs[0]), (hi, runs[-1])]
            else:
                figure, unit = cells[-2], cells[-1]
                want = [(figure, statistics.fmean(runs))]
            if unit not in FACTOR:
                bad.append(f"{name} {row}: unit {unit!r} is not a byte rate")
                continue
            if units.get(row) != unit:
                bad.append(f"{name} {row}: the text's unit {unit}, the page's {units.get(row)}")
            for printed, kib in want:
                checked += 1
                if not close(printed, unit, kib):
                    bad.append(f"{name} {row}: {printed} {unit}, from the inputs {kib:.6g} KiB/s")
    for line in bad:
        print(line)
    print(f"{checked} rate cells checked, {len(bad)} wrong")
    return 1 if bad or not checked else 0


if __name__ == "__main__":
    sys.exit(main())
