#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# clyde-report's "What moved" explains a phase's difference from the data:
# beside the layers and functions whose share moved, the device's bytes
# per byte, and where both sides ran --profile=layers the time per
# request at the device and queued in the block layer, as ratios, and the
# task outside clyde whose CPU grew most; the page's difference has the
# same figures. With one run a side the line is still there, marked ?.
# A top by total that an older clyde wrote with "[libc.so.6]" and
# "[unknown]" in it ranks the named functions only. The documents are
# made here from a real run's (clyde-p3.json's first); the expected line
# is computed here from the figures written into them.
. "$TESTLIB"
[ -x "$REPORT" ] || skip "no $REPORT"
need_cmd python3
scratch_dir
W=$SCRATCH

python3 - "$REPORT_GOLDEN/clyde-p3.json" "$W" <<'PY'
import copy, json, sys
src, _ = json.JSONDecoder().raw_decode(open(sys.argv[1]).read())
out = sys.argv[2]
base = src["runs"][0]
base.pop("csv", None)
template = copy.deepcopy(base["phases"]["put_block"]["profile"])
for p in base["phases"].values():
    if isinstance(p, dict):
        p["profile"] = None

def layers(dev_n, dev_s, q_n, q_s):
    span = lambda n, s: {"requests": n, "mean_s": s / n, "p50_s": s / n, "p99_s": s / n,
                         "sum_s": s}
    return {"state": "measured", "why": "", "bios": dev_n, "queue": span(q_n, q_s),
            "device": span(dev_n, dev_s), "busy_share": 0.5,
            "operations": {"count": 100, "mean_s": 0.001, "requests": dev_n, "queue_s": q_s,
                           "device_s": dev_s, "queue_share": 0.1, "device_share": 0.5,
                           "above_share": 0.4, "above_mean_s": 0.0004, "above_why": ""},
            "throttle": "x"}

def stacks(folded, lay, total):
    samples = sum(c for _, c in folded)
    assert sum(lay.values()) == samples
    fl = [{"function": f, "self": 0, "total": t, "self_share": 0, "total_share": t / samples}
          for f, t in total]
    return {"period_s": 0.001, "samples": samples, "cpu_s": samples * 0.001, "idle": 0,
            "lost": 0, "layers": [{"layer": n, "samples": c, "share": c / samples,
                                   "cpu_s": c * 0.001} for n, c in lay.items()],
            "top_self": [], "top_total": fl, "folded_merged": 0,
            "folded": [{"stack": s, "count": c, "layer": ""} for s, c in folded]}

def run(name, seed, rate, amp, tasks, lay, st):
    r = copy.deepcopy(base)
    r["name"], r["seed"] = name, seed
    ph = r["phases"]["put_block"]
    ph["rate"] = rate
    p = copy.deepcopy(template)
    p["device"]["write_amplification"] = amp
    p["groups"]["top"] = [{"name": n, "group": g, "s": s} for n, g, s in tasks]
    if lay:
        p["layers"] = lay
    p["stacks"] = st
    ph["profile"] = p
    return r

# "[unknown]" and "[libc.so.6]" under every stack, and first by total as an older clyde wrote it
U = "clyde;[unknown];[libc.so.6];write_block;entry_SYSCALL_64_[k];vfs_write_[k];"
P_FOLD = [(U + "btrfs_buffered_write_[k]", 600), (U + "copy_page_[k]", 400)]
Z_FOLD = [(U + "btrfs_buffered_write_[k]", 300), (U + "copy_page_[k]", 200),
          ("kworker/u4:2-btrfs-compressed-write;ZSTD_compressBlock_doubleFast_[k]", 400),
          ("kworker/u4:2-btrfs-compressed-write;zstd_compress_[k]", 100)]
TOTAL = [("[unknown]", 1000), ("[libc.so.6]", 1000), ("write_block", 1000),
         ("entry_SYSCALL_64_[k]", 990)]
P_ST = stacks(P_FOLD, {"filesystem": 600, "page-cache": 400}, TOTAL)
Z_ST = stacks(Z_FOLD, {"filesystem": 300, "page-cache": 200, "compression": 500}, TOTAL)
# plain: the device 2 ms a request, queued 0.1 ms; zstd: the same at the device, queued 0.05 ms
P_LAY = [layers(1000, 2.0, 1000, 0.1), layers(1000, 2.0, 1000, 0.1)]
Z_LAY = [layers(540, 1.08, 540, 0.027), layers(600, 1.2, 600, 0.03)]
P_TASKS = [("kworker btrfs-endio-write", "filesystem", 0.05)]
Z_TASKS = [("kworker btrfs-compressed-write", "filesystem", 0.8),
           ("kworker btrfs-endio-write", "filesystem", 0.07)]
plain = [run("plain", 1, 524288.0, 1.02, P_TASKS, P_LAY[0], P_ST),
         run("plain", 2, 530000.0, 1.02, P_TASKS, P_LAY[1], P_ST)]
zstd = [run("zstd", 3, 320000.0, 0.55, Z_TASKS, Z_LAY[0], Z_ST),
        run("zstd", 4, 322000.0, 0.55, Z_TASKS, Z_LAY[1], Z_ST)]
doc = lambda runs: dict(src, schema="clyde-result/12", runs=runs)
json.dump(doc(plain + zstd), open(out + "/two.json", "w"))
json.dump(doc([plain[0], zstd[0]]), open(out + "/one.json", "w"))
# no --profile=layers on either side: no time per request
nolay = [copy.deepcopy(r) for r in (plain[0], plain[1], zstd[0], zstd[1])]
for r in nolay:
    del r["phases"]["put_block"]["profile"]["layers"]
json.dump(doc(nolay), open(out + "/nolay.json", "w"))

# the line, from the figures above
def shares(runs):
    lay, fun, n = {}, {}, 0
    for r in runs:
        st = r["phases"]["put_block"]["profile"]["stacks"]
        for l in st["layers"]:
            lay[l["layer"]] = lay.get(l["layer"], 0) + l["share"]
        for f in st["folded"]:
            leaf = f["stack"].split(";")[-1]
            fun[leaf] = fun.get(leaf, 0) + f["count"]
            n += f["count"]
    return ({k: v / len(runs) * 100 for k, v in lay.items()},
            {k: v / n * 100 for k, v in fun.items()})
def moved(a, b):
    keys = set(a) | set(b)
    m = [(b.get(k, 0) - a.get(k, 0), k) for k in keys]
    m.sort(key=lambda x: (-abs(x[0]), x[1]))
    return ", ".join("%s %+.1f" % (k, v) for v, k in m[:3])
def per_request(lays, span):
    return sum(l[span]["sum_s"] for l in lays) / sum(l[span]["requests"] for l in lays)
def line(pl, zs, mark, with_layers):
    (la, fa), (lb, fb) = shares(pl), shares(zs)
    rate = lambda rs: sum(r["phases"]["put_block"]["rate"] for r in rs) / len(rs)
    s = "  [2] %-18s %.2fx%s; layers %s; functions %s; device writes per byte %.2fx" % (
        "Block write", rate(zs) / rate(pl), mark, moved(la, lb), moved(fa, fb), 0.55 / 1.02)
    if with_layers:
        lp = [r["phases"]["put_block"]["profile"]["layers"] for r in pl]
        lz = [r["phases"]["put_block"]["profile"]["layers"] for r in zs]
        s += "; device time per request %.2fx; queue time per request %.2fx" % (
            per_request(lz, "device") / per_request(lp, "device"),
            per_request(lz, "queue") / per_request(lp, "queue"))
    return s + "; outside clyde kworker btrfs-compressed-write (filesystem) +%.3f s" % 0.8
open(out + "/want.two", "w").write(line(plain, zstd, "", True) + "\n")
open(out + "/want.one", "w").write(line(plain[:1], zstd[:1], "?", True) + "\n")
open(out + "/want.nolay", "w").write(line(plain, zstd, "", False) + "\n")
PY
[ -s "$W/want.two" ] || fail "the documents were not made (python3 above)"

moved() {
	"$REPORT" -b plain "$W/$1.json" >"$W/$1.out" 2>"$W/$1.err"
	expect_eq "$1: the report" "$?" 0
	sed -n '/^What moved/,/^$/p' "$W/$1.out" | grep '^  \[' >"$W/$1.moved"
}
moved two
expect_eq "two runs a side: what moved, from the data" "$(cat "$W/two.moved")" \
	"$(cat "$W/want.two")"
expect_match "two runs a side: compression's layer first" "$(cat "$W/two.moved")" \
	'; layers compression \+50\.0,'
moved one
expect_eq "one run a side: the line, its ratio marked ?" "$(cat "$W/one.moved")" \
	"$(cat "$W/want.one")"
moved nolay
expect_eq "no --profile=layers: no time per request" "$(cat "$W/nolay.moved")" \
	"$(cat "$W/want.nolay")"
# the top by total: the named functions only, as clyde ranks them now
expect_match "total: no [unknown] or [libc.so.6]" \
	"$(grep '^  Block write  *total' "$W/two.out" | head -n 1)" \
	'total write_block 100\.0%  entry_SYSCALL_64_\[k\] 99\.0%$'

"$REPORT" -b plain --html "$W/page.html" "$W/two.json" >/dev/null 2>"$W/page.err"
expect_eq "the page" "$?" 0
python3 - "$W/page.html" >"$W/figures" <<'PY'
import re, sys
page = open(sys.argv[1]).read()
sec = page.split("<h3>Block write</h3>", 1)[1].split("<h3>", 1)[0]
table = sec.split("<tr><th>figure", 1)[1].split("</table>", 1)[0]
for row in re.findall(r"<tr><td>(.*?)</td><td>(.*?)</td><td>(.*?)</td><td>(.*?)</td></tr>",
                      table):
    print(" | ".join(row))
PY
expect_match "page: device time per request, both sides and the ratio" \
	"$(grep '^device time per request' "$W/figures")" '\| 2 ms \| 2 ms \| 1\.00x$'
expect_match "page: queue time per request" \
	"$(grep '^block-layer queue time per request' "$W/figures")" \
	'\| 0\.1 ms \| 0\.05 ms \| 0\.50x$'
expect_match "page: device bytes written" "$(grep '^device bytes written' "$W/figures")" \
	'\| 1\.02 \| 0\.55 \| 0\.54x$'
expect_match "page: the task that grew" "$(grep '^grew most' "$W/figures")" \
	'kworker btrfs-compressed-write \(filesystem\) \| 0\.000 s \| 0\.800 s \| \+0\.800 s$'
done_testing
