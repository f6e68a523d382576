#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# clyde-report says where a profiled phase's CPU went, as clyde --profile
# does: the busiest tasks outside clyde (clyde-result/3's groups.top) and,
# from clyde-result/12's profile.stacks, the layers' shares and the top
# functions by self and total time, as means over a configuration's runs.
# The documents are made here from a real run (clyde-p3.json's first) and
# the expected lines computed here from the figures written into them; an
# older document still reads, and a bad share rejects its run by name.
. "$TESTLIB"
[ -x "$REPORT" ] || skip "no $REPORT"
need_cmd python3
scratch_dir
W=$SCRATCH

python3 - "$REPORT_GOLDEN/clyde-p3.json" "$W" <<'PY'
import copy, json, sys
text = open(sys.argv[1]).read()
src, _ = json.JSONDecoder().raw_decode(text)
out = sys.argv[2]
base = src["runs"][0]
base.pop("csv", None)
template = copy.deepcopy(base["phases"]["put_block"]["profile"])
for p in base["phases"].values():
    if isinstance(p, dict):
        p["profile"] = None

def profile(outside, tasks, stacks):
    p = copy.deepcopy(template)
    p["outside_s"] = outside
    if tasks is None:
        p["groups"] = None
    else:
        p["groups"]["top"] = [{"name": n, "group": g, "s": s} for n, g, s in tasks]
    if stacks is not None:
        p["stacks"] = stacks
    return p

def stacks(samples, layers, funcs):
    # layers: {name: samples}; funcs: {name: (self, total)}
    assert sum(layers.values()) == samples
    fl = [{"function": f, "self": s, "total": t, "self_share": s / samples,
           "total_share": t / samples} for f, (s, t) in funcs.items()]
    return {"period_s": 0.001, "samples": samples, "cpu_s": samples * 0.001, "idle": 7,
            "lost": 0, "layers": [{"layer": n, "samples": c, "share": c / samples,
                                   "cpu_s": c * 0.001} for n, c in layers.items()],
            "top_self": sorted(fl, key=lambda f: (-f["self"], f["function"])),
            "top_total": sorted(fl, key=lambda f: (-f["total"], f["function"])),
            "folded_merged": 0, "folded": []}

def run(name, seed, prof):
    r = copy.deepcopy(base)
    r["name"] = name
    r["seed"] = seed
    r["phases"]["put_block"]["profile"] = prof
    return r

S1 = stacks(1000, {"ext4": 500, "vfs": 300, "page-cache": 200},
            {"ext4_a_[k]": (400, 500), "vfs_write_[k]": (100, 800), "copy_[k]": (300, 300),
             "clear_[k]": (200, 200)})
S2 = stacks(400, {"ext4": 100, "vfs": 100, "clyde": 200},
            {"ext4_a_[k]": (100, 100), "vfs_write_[k]": (100, 200), "main": (200, 400)})
S3 = stacks(10, {"unknown": 10}, {"mystery_[k]": (10, 10)})
runs = [run("ws", 1, profile(0.5, [("kworker/u4:1-flush-254:0", "writeback", 0.3),
                                   ("jbd2/vda1-8", "filesystem", 0.1)], S1)),
        run("ws", 2, profile(0.7, [("kworker/u4:1-flush-254:0", "writeback", 0.5)], S2)),
        run("ws", 3, profile(None, None, S3))]
json.dump(dict(src, schema="clyde-result/12", runs=runs), open(out + "/ws.json", "w"))
# clyde-result/11: no stacks; its tasks still said
old = run("old", 4, profile(0.25, [("jbd2/vda1-8", "filesystem", 0.125)], None))
json.dump(dict(src, schema="clyde-result/11", runs=[old]), open(out + "/old.json", "w"))
bad = run("bad", 5, profile(0.5, [], stacks(10, {"ext4": 10}, {"f": (10, 10)})))
bad["phases"]["put_block"]["profile"]["stacks"]["layers"][0]["share"] = 1.5
json.dump(dict(src, schema="clyde-result/12", runs=[bad]), open(out + "/bad.json", "w"))

# The lines, computed from the figures above: means over the runs of ws.
def fmt_shares(what, sums, n, top):
    means = sorted(((v / n, k) for k, v in sums.items()), key=lambda x: (-x[0], x[1]))[:top]
    return "  %-18s %s" % ("Block write", what) + "".join(
        "%s%s %.1f%%" % ("  " if i else " ", k, v * 100) for i, (v, k) in enumerate(means))
def add(d, k, v):
    d[k] = d.get(k, 0) + v
lay, slf, tot = {}, {}, {}
for s in (S1, S2, S3):
    for l in s["layers"]:
        add(lay, l["layer"], l["samples"] / s["samples"])
    for f in s["top_self"]:
        add(slf, f["function"], f["self"] / s["samples"])
        add(tot, f["function"], f["total"] / s["samples"])
tasks = {}
for t in [("kworker/u4:1-flush-254:0", 0.3), ("jbd2/vda1-8", 0.1), ("kworker/u4:1-flush-254:0", 0.5)]:
    add(tasks, t[0], t[1])
tl = sorted(((v / 2, k) for k, v in tasks.items()), key=lambda x: (-x[0], x[1]))
groups = {"kworker/u4:1-flush-254:0": "writeback", "jbd2/vda1-8": "filesystem"}
want = ["  %-18s outside clyde %.3f s in 2 runs; tasks in 2 runs" % ("Block write", (0.5 + 0.7) / 2)
        + "".join("%s %s %.3f s (%s)" % (";" if i else ":", k, v, groups[k])
                  for i, (v, k) in enumerate(tl)),
        "  %-18s sampled %.3f s of CPU in 3 runs" % ("Block write", (1.0 + 0.4 + 0.01) / 3),
        fmt_shares("layers", lay, 3, 99), fmt_shares("self", slf, 3, 3),
        fmt_shares("total", tot, 3, 3)]
open(out + "/want", "w").write("\n".join(want) + "\n")
PY
"$REPORT" "$W/ws.json" "$W/old.json" >"$W/out" 2>"$W/err"
expect_eq "the report" "$?" 0
expect_eq "nothing on stderr" "$(cat "$W/err")" ""
# rows BLOCK: the where rows under configuration BLOCK's head
rows() {
	sed -n '/^Where the time went/,$p' "$W/out" |
	awk -v b="$1" '/^\[[0-9]+\] / { on = index($0, "] " b " ") > 0; next } on && /^  / { print }'
}
expect_eq "ws: the means of its three runs" "$(rows ws)" "$(cat "$W/want")"
# by hand: unknown (0 + 0 + 1) / 3, ext4 (0.5 + 0.25 + 0) / 3, vfs (0.3 + 0.25) / 3 ...
expect_match "ws: layers, largest first" "$(rows ws | grep ' layers ')" \
	' layers unknown 33\.3%  ext4 25\.0%  vfs 18\.3%  clyde 16\.7%  page-cache 6\.7%$'
expect_eq "old: its tasks, no layers" "$(rows old)" \
	"  Block write        outside clyde 0.250 s in 1 run; tasks in 1 run: jbd2/vda1-8 0.125 s (filesystem)"
expect_eq "the section once, after the CPU cost" \
	"$(grep -n -e '^CPU cost' -e '^Where the time went' "$W/out" | cut -d: -f2 | cut -c1-5 | tr '\n' '|')" \
	"CPU c|Where|"
"$REPORT" "$W/bad.json" "$W/old.json" >"$W/bad" 2>"$W/bad.err"
expect_eq "a bad share: the run skipped, the rest read" "$?" 0
expect_match "a bad share: said with the phase" "$(head -n 1 "$W/bad.err")" \
	'bad\.json:[0-9]+: phase put_block has a profile\.stacks\.layers that is not a list of layers and shares: skipped$'
expect_eq "a bad share: the others still there" "$(grep -c '^  Block write  *outside clyde' "$W/bad")" 1
"$REPORT" "$REPORT_GOLDEN/clyde-r1.json" >"$W/plain" 2>&1
expect_eq "no profile: no section" "$(grep -c '^Where the time went' "$W/plain")" 0
done_testing
