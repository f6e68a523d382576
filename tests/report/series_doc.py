# SPDX-License-Identifier: BSD-2-Clause
# Writes clyde-report's time-series test documents (tests/report/report_series.sh),
# by hand from the clyde-result/8 contract: every figure is chosen here, so the
# test knows what the report must make of it.
#
# python3 series_doc.py KIND >FILE, KIND one of:
#   good      "cliff", two runs (the -x 2 of one configuration): put_block 4 s in
#             40 rows of 0.1 s, 500 KiB/s for 2 s then 50 KiB/s for 2 s, with no
#             completion in [2.5, 2.8) (the longest stall, 0.3 s) and [3.3, 3.4);
#             the machine's dirty pages rising for 2 s then flat. get_block
#             (run 1 only) 1 s in 10 rows at 1000 KiB/s, dirty not measured
#             (null). rewrite with "series": null; seeks without the key.
#             Run 2's put_block does the same at 0.8 times the work.
#   shuffled  good, its columns in another order and with two columns no
#             schema has ("future_a" text, "future_b" numbers).
#   nokey     good without any "series" key and as clyde-result/7.
#   nulls     good with every "series" null.
#   no_t_end  good, put_block's columns without "t_end_s".
#   narrow    good, put_block's row 3 one value short.
#   gap       good, put_block's row 5 starting 0.05 s after row 4 ends.
#   unit      good, put_block's work_unit "seeks".
import json
import sys

COLUMNS = ["t_start_s", "t_end_s", "work", "ops", "rate", "lat_p50_s", "lat_p99_s", "lat_max_s",
           "cpu_user_s", "cpu_sys_s", "dirty_kib", "writeback_kib", "file_dirty_kib",
           "file_writeback_kib", "dev_read_kib", "dev_write_kib"]
STALLS = {25, 26, 27, 33}


def t(k, width=0.1):
    return round(k * width, 9)


def put_block_rows(factor):
    rows = []
    for k in range(40):
        work, ops = (50, 5) if k < 20 else (5, 1)
        if k in STALLS:
            work, ops = 0, 0
        work *= factor
        dirty = 1024 + 1024 * min(k + 1, 20) * 19 // 20
        wb = 0 if k < 20 else 512
        p99 = None if ops == 0 else (0.002 if k < 20 else 0.02)
        rows.append([t(k), t(k + 1), work, ops, round(work / 0.1, 9), p99 and p99 / 2, p99,
                     p99 and p99 * 2, 0.001, 0.01, dirty, wb, None, None, None, None])
    return rows


def get_block_rows():
    return [[t(k), t(k + 1), 100, 10, 1000, 0.0001, 0.0002, 0.0004, 0.001, 0.01,
             None, None, None, None, None, None] for k in range(10)]


def series(rows, dirty):
    return {"interval_s": 0.1, "interval_fixed": False, "work_unit": "KiB", "sampler_cpu_s": 0.0012,
            "record_bytes": 147456,
            "dirty_source": "Linux /proc/meminfo Dirty, Writeback" if dirty else None,
            "file_cache_source": None, "device_source": None,
            "columns": list(COLUMNS), "rows": rows}


def phase(rows, dirty, elapsed):
    amount = sum(r[2] for r in rows)
    return {"ran": True, "elapsed_s": elapsed, "amount": amount, "amount_unit": "KiB",
            "rate": amount / elapsed, "rate_unit": "KiB/s", "cpu_user_s": 0.04, "cpu_sys_s": 0.4,
            "max_latency_us": 40000, "series": series(rows, dirty)}


def run(factor, with_get):
    phases = {"putc": {"ran": False}, "put_block": phase(put_block_rows(factor), True, 4.0)}
    rewrite = phase(put_block_rows(1), True, 4.0)
    rewrite["series"] = None
    phases["rewrite"] = rewrite
    if with_get:
        phases["get_block"] = phase(get_block_rows(), False, 1.0)
    seeks = {"ran": True, "elapsed_s": 1.0, "amount": 8192, "amount_unit": "seeks", "rate": 8192,
             "rate_unit": "seeks/s", "cpu_user_s": 0.1, "cpu_sys_s": 0.2, "max_latency_us": 900}
    phases["seeks"] = seeks
    return {"name": "cliff", "concurrency": 1,
            "io": {"size_mib": 64, "chunk": 8192, "seeks": 8192, "seekers": 5},
            "files": {"number": 0, "max_size": 0, "min_size": 0, "dirs": 1, "chunk": 8192},
            "phases": phases}


def doc():
    return {"schema": "clyde-result/8", "clyde_version": "0.1.0", "runs": [run(1, True), run(0.8, False)]}


def each_series(d):
    for r in d["runs"]:
        for p in r["phases"].values():
            if p.get("series"):
                yield p["series"]


def reorder(s):
    order = ["rate", "future_a", "dirty_kib", "t_end_s", "ops", "future_b"] + \
        [c for c in COLUMNS if c not in ("rate", "dirty_kib", "t_end_s", "ops")]
    old = {c: i for i, c in enumerate(s["columns"])}
    extra = {"future_a": lambda k: "x%d" % k, "future_b": lambda k: k * 7}
    s["rows"] = [[extra[c](k) if c in extra else row[old[c]] for c in order]
                 for k, row in enumerate(s["rows"])]
    s["columns"] = order


def dump(v, indent=0):
    """JSON with one line per object member, a row of scalars on one line."""
    pad = " " * indent
    if isinstance(v, dict):
        items = [pad + "  " + json.dumps(k) + ": " + dump(x, indent + 2).lstrip() for k, x in v.items()]
        return pad + "{\n" + ",\n".join(items) + "\n" + pad + "}"
    if isinstance(v, list) and any(isinstance(x, (list, dict)) for x in v):
        return pad + "[\n" + ",\n".join(dump(x, indent + 2) for x in v) + "\n" + pad + "]"
    return pad + json.dumps(v)


def main(kind):
    d = doc()
    pb = d["runs"][0]["phases"]["put_block"]["series"]
    if kind == "shuffled":
        for s in each_series(d):
            reorder(s)
    elif kind in ("nokey", "nulls"):
        for r in d["runs"]:
            for p in r["phases"].values():
                if "series" in p:
                    if kind == "nokey":
                        del p["series"]
                    else:
                        p["series"] = None
                elif kind == "nulls" and p["ran"]:
                    p["series"] = None
        if kind == "nokey":
            d["schema"] = "clyde-result/7"
    elif kind == "no_t_end":
        i = pb["columns"].index("t_end_s")
        del pb["columns"][i]
        for row in pb["rows"]:
            del row[i]
    elif kind == "narrow":
        pb["rows"][2].pop()
    elif kind == "gap":
        for row in pb["rows"][4:]:
            row[0] = round(row[0] + 0.05, 9) if row is pb["rows"][4] else row[0]
    elif kind == "unit":
        pb["work_unit"] = "seeks"
    elif kind != "good":
        sys.exit("series_doc.py: no kind " + kind)
    print(dump(d))


main(sys.argv[1])
