#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# clyde-report's flame graphs and what moved, from clyde-result/12's
# folded stacks: two configurations of three runs each (a block write on
# "ext" and one 0.6x as fast on "btr", whose stacks spend their time in
# compression), made here from a real run (clyde-p3.json's first). The
# expected numbers are computed here from the stacks written: each frame's
# samples (every run's together), the difference's shares and the frames
# only the baseline has, the functions and layers whose share moved most.
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

FA = {"clyde;main;write_[k];ext4_write_[k];copy_[k]": 600,
      "clyde;main;write_[k];vfs_[k]": 300, "kworker;jbd2_[k]": 100}
LA = {"ext4": 600, "vfs": 300, "journal": 100}
FB = {"clyde;main;write_[k];btrfs_write_[k];zstd_compress_[k]": 700,
      "clyde;main;write_[k];vfs_[k]": 200, "kworker;btrfs_worker_[k]": 100}
LB = {"compression": 700, "vfs": 200, "btrfs": 100}

def stacks(folded, layers):
    n = sum(folded.values())
    return {"period_s": 0.001, "samples": n, "cpu_s": n * 0.001, "idle": 0, "lost": 0,
            "layers": [{"layer": k, "samples": v, "share": v / n, "cpu_s": v * 0.001}
                       for k, v in layers.items()],
            "top_self": [], "top_total": [], "folded_merged": 0,
            "folded": [{"stack": k, "count": v} for k, v in folded.items()]}

def run(name, seed, rate, folded, layers):
    r = copy.deepcopy(base)
    r["name"] = name
    r["seed"] = seed
    p = r["phases"]["put_block"]
    p["rate"] = rate
    p["elapsed_s"] = p["amount"] / rate
    p["profile"] = copy.deepcopy(template)
    p["profile"]["stacks"] = stacks(folded, layers)
    return r

runs = [run("ext", 1, 500000.0, FA, LA), run("ext", 2, 505000.0, FA, LA),
        run("ext", 3, 495000.0, FA, LA), run("btr", 4, 300000.0, FB, LB),
        run("btr", 5, 303000.0, FB, LB), run("btr", 6, 297000.0, FB, LB)]
json.dump(dict(src, schema="clyde-result/12", runs=runs[:3]), open(out + "/ext.json", "w"))
json.dump(dict(src, schema="clyde-result/12", runs=runs[3:]), open(out + "/btr.json", "w"))

# what the report must say, computed from the stacks above
def share_in(folded, fn):
    n = sum(folded.values())
    return 100.0 * sum(v for k, v in folded.items() if fn in k.split(";")) / n

def self_in(folded, fn):
    n = sum(folded.values())
    return 100.0 * sum(v for k, v in folded.items() if k.split(";")[-1] == fn) / n

def movers(a, b):
    # by self share: the samples whose last frame the function is
    names = set(k.split(";")[-1] for k in list(a) + list(b))
    m = [(self_in(b, f) - self_in(a, f), f) for f in names]
    return sorted(m, key=lambda x: (-abs(x[0]), x[1]))

def layer_movers(a, b):
    na, nb = sum(a.values()), sum(b.values())
    m = [(100.0 * b.get(k, 0) / nb - 100.0 * a.get(k, 0) / na, k) for k in set(a) | set(b)]
    return sorted(m, key=lambda x: (-abs(x[0]), x[1]))

def only_in(a, b):
    # samples of a under a path b never takes, counted at the first frame it lacks
    pb = set()
    for k in b:
        f = k.split(";")
        pb.update(";".join(f[:i + 1]) for i in range(len(f)))
    n = sum(a.values())
    return 100.0 * sum(v for k, v in a.items()
                       if any(";".join(k.split(";")[:i + 1]) not in pb
                              for i in range(len(k.split(";"))))) / n

ratio = (300000.0 + 303000.0 + 297000.0) / (500000.0 + 505000.0 + 495000.0)
fm = movers(FA, FB)[:3]
lm = layer_movers(LA, LB)[:3]
line = "  [2] %-18s %.2fx; layers%s; functions%s" % (
    "Block write", ratio,
    ",".join(" %s %+.1f" % (k, v) for v, k in lm),
    ",".join(" %s %+.1f" % (k, v) for v, k in fm))
open(out + "/want.line", "w").write(line + "\n")
frames = []
for name, folded in (("ext", FA), ("btr", FB)):
    for f in sorted(set(f for k in folded for f in k.split(";"))):
        n = 3 * sum(v for k, v in folded.items() if f in k.split(";"))
        frames.append("%s: %d samples, %.2f%%" % (f, n, 100.0 * n / (3 * sum(folded.values()))))
for f in sorted(set(f for k in FB for f in k.split(";"))):
    frames.append("%s: %.2f%% of the samples (was %.2f%%, %+.2f points)" % (
        f, share_in(FB, f), share_in(FA, f), share_in(FB, f) - share_in(FA, f)))
open(out + "/want.titles", "w").write("\n".join(frames) + "\n")
open(out + "/want.notdrawn", "w").write("%.2f%% of those before are in frames not drawn here\n"
                                        % only_in(FA, FB))
top = movers(FA, FB)[0]
open(out + "/want.mover", "w").write("<tr><td>%s</td><td>%.2f%%</td><td>%.2f%%</td>"
                                     "<td>%+.2f points</td></tr>\n"
                                     % (top[1], self_in(FA, top[1]), self_in(FB, top[1]), top[0]))
PY
[ -s "$W/want.line" ] || { fail "the documents were not made"; done_testing; }

"$REPORT" -b first "$W/ext.json" "$W/btr.json" >"$W/text" 2>"$W/err"
expect_eq "clyde-report, text: exit 0" "$?" 0
expect_file_has "the text says what moved in the block write" "$W/text" "$(cat "$W/want.line")"
"$REPORT" -b first --html "$W/page.html" "$W/ext.json" "$W/btr.json" >/dev/null 2>"$W/err"
expect_eq "clyde-report --html: exit 0" "$?" 0
expect_file_has "the page has its flame graphs" "$W/page.html" \
	"<h2>Where the CPU went: flame graphs</h2>"
expect_eq "two flame graphs and one difference" \
	"$(grep -c '^<svg xmlns="http://www.w3.org/2000/svg" width="1200"' "$W/page.html")" 3
while read -r t; do
	expect_file_has "a frame titled '$t'" "$W/page.html" "<title>$t</title>"
done <"$W/want.titles"
expect_file_has "the difference says what of the baseline it does not draw" "$W/page.html" \
	"$(cat "$W/want.notdrawn")"
expect_file_has "the function that moved most, first" "$W/page.html" "$(cat "$W/want.mover")"
done_testing
