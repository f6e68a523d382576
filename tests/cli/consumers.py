#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""How the programs that read bonnie++'s output would read clyde's.

Each consumer below is a small reimplementation, written for this test, of
the rule one real program uses to find and parse bonnie++ 2.00a's output
(none of their code is copied). tests/cli/consumers.sh runs clyde in the command
shape each program uses and calls this helper on what clyde printed:

  consumers.py generic FILE...          every line with a comma is a 1.98
                                        CSV line or the -x header line
  consumers.py csvlines FILE            print the valid 1.98 CSV lines
  consumers.py CONSUMER FILE [--expect LINE]... [--get KEY]
      CONSUMER: pkb, yardstick, mmtests, bonnie2gchart. Parse FILE as that
      consumer does; fail (status 1, message on stdout) where the consumer
      would fail. --expect: the CSV lines clyde wrote, in order; every value
      the consumer took must equal the field it came from. --get KEY: print
      the value the consumer holds for KEY (first record) instead.
"""

import re
import sys

# The 1.98 CSV, by position (DESIGN.md section 3; the -x header names).
FIELDS = (
    "format_version,bonnie_version,name,concurrency,seed,file_size,"
    "io_chunk_size,num_seeks,seek_proc_count,putc,putc_cpu,put_block,"
    "put_block_cpu,rewrite,rewrite_cpu,getc,getc_cpu,get_block,get_block_cpu,"
    "seeks,seeks_cpu,num_files,max_size,min_size,num_dirs,file_chunk_size,"
    "seq_create,seq_create_cpu,seq_stat,seq_stat_cpu,seq_del,seq_del_cpu,"
    "ran_create,ran_create_cpu,ran_stat,ran_stat_cpu,ran_del,ran_del_cpu,"
    "putc_latency,put_block_latency,rewrite_latency,getc_latency,"
    "get_block_latency,seeks_latency,seq_create_latency,seq_stat_latency,"
    "seq_del_latency,ran_create_latency,ran_stat_latency,ran_del_latency"
).split(",")
HEADER = ",".join(FIELDS)
IDX = {name: i for i, name in enumerate(FIELDS)}


class Rejected(Exception):
    """The consumer would stop with an error on this input."""


def is_csv(line):
    f = line.split(",")
    return len(f) == 50 and f[0] == "1.98"


def num(v):
    """A float as the shell compares it: 1632090.0 -> 1632090."""
    return str(int(v)) if float(v).is_integer() else repr(float(v))


def latency(v):
    """'11166us' -> (11166.0, 'us'), read independently of any consumer."""
    m = re.fullmatch(r"([0-9]+(?:\.[0-9]+)?)(us|ms|s)", v)
    if not m:
        raise ValueError("not a latency: %r" % v)
    return float(m.group(1)), m.group(2)


# --------------------------------------------------------------------------
# PerfKitBenchmarker: perfkitbenchmarker/linux_benchmarks/bonnie_benchmark.py
# (GoogleCloudPlatform/PerfKitBenchmarker). Run() executes
# `/usr/sbin/bonnie++ -q -d DIR -s 2*RAM_MiB -n 100 -f` over ssh, keeps
# stdout (stderr apart) and calls ParseCSVResults(out.strip()), which splits
# the WHOLE stdout on ',' (not line by line): field 0 must be 1.96, 1.97 or
# 1.98, and `assert len(results) == len(mapping)` (48 fields for 1.96/1.97,
# 50 for 1.98). Fields 0-6 and num_files..file_chunk_size become metadata;
# putc..seeks_cpu and seq_create..ran_del_latency become samples, skipping
# values that are empty or contain '+'; cpu fields are '%', latency fields
# go through the regex ([0-9]*\.?[0-9]+)(\w+) (first match: value, unit),
# the rest are float K/sec.
PKB_48 = [n for n in FIELDS if n not in ("num_seeks", "seek_proc_count")]


def pkb(text):
    results = text.strip().split(",")
    layouts = {"1.96": PKB_48, "1.97": PKB_48, "1.98": FIELDS}
    if results[0] not in layouts:
        raise Rejected("ValueError: Unsupported bonnie++ CSV Format version: %r"
                       % results[0][:40])
    names = layouts[results[0]]
    if len(results) != len(names):
        raise Rejected("AssertionError: %d comma-separated fields in stdout, "
                       "want %d" % (len(results), len(names)))

    def valid(v):
        return v != "" and "+" not in v

    meta = {}
    for i in list(range(0, names.index("io_chunk_size") + 1)) + \
            list(range(names.index("num_files"), names.index("file_chunk_size") + 1)):
        if valid(results[i]):
            meta[names[i]] = results[i]
    samples = {}
    for i in list(range(names.index("putc"), names.index("num_files"))) + \
            list(range(names.index("seq_create"), len(names))):
        v = results[i]
        if not valid(v):
            continue
        if "cpu" in names[i]:
            samples[names[i]] = (float(v), "%")
        elif "latency" in names[i]:
            m = re.findall(r"([0-9]*\.?[0-9]+)(\w+)", v)[0]
            samples[names[i]] = (float(m[0]), m[1])
        else:
            samples[names[i]] = (float(v), "K/sec")
    rec = {k: num(v[0]) for k, v in samples.items()}
    rec.update(meta)
    return [rec], [(samples, meta)]


def pkb_expect(parsed, lines):
    if len(lines) != 1:
        return ["PKB reads exactly one result, %d CSV lines given" % len(lines)]
    samples, meta = parsed[0]
    e = lines[0].split(",")
    bad = []
    for name in ("name", "seed", "concurrency", "file_size"):
        if meta.get(name, "") != e[IDX[name]]:
            bad.append("metadata %s: %r, CSV has %r" % (name, meta.get(name), e[IDX[name]]))
    for i in list(range(9, 21)) + list(range(26, 50)):
        name, v = FIELDS[i], e[i]
        if v == "" or v.startswith("+"):
            if name in samples:
                bad.append("%s: sample %r for CSV field %d %r" % (name, samples[name], i, v))
            continue
        want = latency(v) if name.endswith("latency") else \
            (float(v), "%" if name.endswith("cpu") else "K/sec")
        if samples.get(name) != want:
            bad.append("%s: %r, CSV field %d is %r" % (name, samples.get(name), i, v))
    return bad


# --------------------------------------------------------------------------
# OPNFV Yardstick: yardstick/benchmark/scenarios/storage/bonnie.py
# (opnfv/yardstick); options from samples/bonnie++.yaml. It runs
# `bonnie++ -d DIR -s FILE_SIZE [-r RAM] [-u USER] [-c CONC]` over ssh,
# raises RuntimeError(stderr) on a non-zero status, and takes
# raw_data = stdout.split('\n')[-2] -- the last line of a stdout that ends
# in a newline -- as the result, then pipes raw_data into bon_csv2html.
def yardstick(text):
    parts = text.split("\n")
    if len(parts) < 2:
        raise Rejected("IndexError: stdout has no newline-terminated line")
    raw = parts[-2]
    if not is_csv(raw):
        raise Rejected("raw_data is not a 1.98 CSV line: %r" % raw[:120])
    rec = dict(zip(FIELDS, raw.split(",")))
    rec["raw_data"] = raw
    return [rec], [raw]


def yardstick_expect(parsed, lines):
    if len(lines) != 1:
        return ["Yardstick keeps one line, %d CSV lines given" % len(lines)]
    return [] if parsed[0] == lines[0] else \
        ["raw_data %r is not the CSV line %r" % (parsed[0], lines[0])]


# --------------------------------------------------------------------------
# mmtests: shellpack_src/src/bonniepp/bonniepp-bench and
# shellpack_src/src/bonniepp/extract-report-tput.pl (gormanm/mmtests).
# The bench runs `bonnie++ [-b] -u root -r 0 -d DIR -s MiB|-s 0
# -n N:SIZE:SIZE:DIRS|-n 0 -f[ SIZE] -m HOST -R 128 -l DETAIL 2>&1 | tee
# bonnie` (-R and -l come from mmtests' own bonnie++ patches). The tput
# report reads that file -- stdout and stderr together -- and treats every
# line matching /^[a-z0-9.-]+,/ as a result: split on ',', any element
# starting with '+' becomes -1, and elements 9, 11, 13, 15, 17, 19, 26, 28,
# 30, 32, 34, 36 are reported (as the raw string) when numerically > 0.
MM_REPORTED = [9, 11, 13, 15, 17, 19, 26, 28, 30, 32, 34, 36]


def perl_num(s):
    m = re.match(r"\s*([-+]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][-+]?[0-9]+)?)", s)
    return float(m.group(1)) if m else 0.0


def mmtests(text):
    recs, raw = [], []
    for line in text.splitlines(True):
        if not re.match(r"[a-z0-9.-]+,", line):
            continue
        el = ["-1" if e.startswith("+") else e for e in line.split(",")]
        rep = {}
        for i in MM_REPORTED:
            v = el[i] if i < len(el) else ""
            if perl_num(v) > 0:
                rep[FIELDS[i]] = v
        recs.append(rep)
        raw.append(rep)
    return recs, raw


def mmtests_expect(parsed, lines):
    if len(parsed) != len(lines):
        return ["mmtests took %d result lines, clyde wrote %d CSV lines"
                % (len(parsed), len(lines))]
    bad = []
    for n, (rep, line) in enumerate(zip(parsed, lines)):
        e = line.split(",")
        want = {FIELDS[i]: e[i] for i in MM_REPORTED
                if e[i] and not e[i].startswith("+") and float(e[i]) > 0}
        if rep != want:
            bad.append("result %d: %r, CSV gives %r" % (n + 1, rep, want))
    return bad


# --------------------------------------------------------------------------
# bonnie2gchart: app.js, parseBonnieCsv() (pommi/bonnie2gchart, 1.98 support
# since commit 613dd51; the older PHP inc/functions.php had the same rule
# for 1.03/1.96). The pasted text is split on '\n', each line on ','; a
# line with at most one column (no comma) is ignored; any other line must
# have 27 (1.03), 48 (1.96/1.97) or 50 (1.98) columns, else the whole input
# is rejected with "Line N has M columns". Cells matching ^(\d+)([mun]s)$
# become milliseconds; the charts read outblk, outrw, inblk, sc... with
# parseFloat.
COL_27 = ["name", "sz"] + FIELDS[9:21] + ["num_files"] + FIELDS[26:38]


def bonnie2gchart(text):
    rows = []
    for n, line in enumerate(text.split("\n"), 1):
        cols = line.split(",")
        if len(cols) <= 1:
            continue
        layout = {27: COL_27, 48: PKB_48, 50: FIELDS}.get(len(cols))
        if layout is None:
            raise Rejected("Column count mismatch: Line %d has %d columns: %r"
                           % (n, len(cols), line[:120]))
        row = {}
        for name, v in zip(layout, cols):
            m = re.match(r"^(\d+)([mun]s)$", v)
            if m:
                v = float(m.group(1)) / {"ms": 1, "us": 1000, "ns": 1000000}[m.group(2)]
            row[name] = v
        rows.append(row)
    recs = [{k: (num(v) if isinstance(v, float) else v) for k, v in r.items()} for r in rows]
    return recs, rows


def bonnie2gchart_expect(parsed, lines):
    data = [r for r in parsed if r.get("format_version") == "1.98"]
    if len(data) != len(lines):
        return ["bonnie2gchart charted %d 1.98 rows, clyde wrote %d CSV lines"
                % (len(data), len(lines))]
    bad = []
    for n, (row, line) in enumerate(zip(data, lines)):
        for i, v in enumerate(line.split(",")):
            want = v
            if FIELDS[i].endswith("latency") and v:
                val, unit = latency(v)
                want = val * {"ms": 1, "us": 0.001, "s": 1000}[unit]
            got = row[FIELDS[i]]
            if isinstance(want, float) and isinstance(got, float):
                ok = abs(got - want) <= 1e-9 * max(1.0, want)
            else:
                ok = got == want
            if not ok:
                bad.append("row %d %s: %r, CSV field %d is %r" % (n + 1, FIELDS[i], got, i, v))
    return bad


CONSUMERS = {
    "pkb": (pkb, pkb_expect),
    "yardstick": (yardstick, yardstick_expect),
    "mmtests": (mmtests, mmtests_expect),
    "bonnie2gchart": (bonnie2gchart, bonnie2gchart_expect),
}


def read(path):
    with open(path, encoding="utf-8", errors="replace", newline="") as f:
        return f.read()


def generic(paths):
    """Every line that contains a comma is a 1.98 CSV line or the header."""
    bad = 0
    for p in paths:
        for n, line in enumerate(read(p).split("\n"), 1):
            if "," in line and not is_csv(line) and line != HEADER:
                print("%s:%d: a line with commas that is not CSV: %s" % (p, n, line[:160]))
                bad += 1
    return 1 if bad else 0


def main(argv):
    if len(argv) >= 2 and argv[0] == "generic":
        return generic(argv[1:])
    if len(argv) == 2 and argv[0] == "csvlines":
        for line in read(argv[1]).split("\n"):
            if is_csv(line):
                print(line)
        return 0
    if len(argv) < 2 or argv[0] not in CONSUMERS:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    parse, expect = CONSUMERS[argv[0]]
    text = read(argv[1])
    lines, get = [], None
    rest = argv[2:]
    while rest:
        if rest[0] == "--expect" and len(rest) > 1:
            lines.append(rest[1])
        elif rest[0] == "--get" and len(rest) > 1:
            get = rest[1]
        else:
            print("bad arguments: %r" % rest, file=sys.stderr)
            return 2
        rest = rest[2:]
    try:
        recs, parsed = parse(text)
    except Rejected as e:
        print("%s rejects the output: %s" % (argv[0], e))
        return 1
    if get is not None:
        print(recs[0].get(get, "") if recs else "")
        return 0
    bad = expect(parsed, lines)
    for b in bad:
        print("%s: %s" % (argv[0], b))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
