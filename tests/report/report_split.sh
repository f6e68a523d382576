#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# clyde-report prints clyde --profile's CPU split of each profiled phase
# (profile.window_s, process, machine, groups: the columns of clyde's
# "Profile CPU seconds over each phase" table) per configuration as means
# over the runs that profiled the phase, in its text and on its page, and
# the unattributed CPU the stack samples named (clyde-result/13). The
# documents are made here from a real run (clyde-p3.json's first) with
# figures chosen here, and the expected rows computed here from them;
# a document whose profiles have no machine and no groups prints none.
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

# per run: wall, user, sys, fs, block, others, irq, softirq, idle, iowait, unattributed
FIG = [(2.0, 0.25, 0.75, 0.5, 0.125, 0.0, 0.04, 0.01, 1.0, 0.5, -0.03),
       (4.0, 0.5, 1.5, 1.5, 0.25, 0.5, 0.08, 0.02, 2.0, 0.0, 0.09),
       (12.0, 1.0, 5.0, 4.0, 0.375, 2.5, 0.36, 0.12, 6.0, 1.5, 3.0)]

def profile(f, unseen):
    wall, user, sys_, fs, block, others, irq, soft, idle, iow, un = f
    p = copy.deepcopy(template)
    p["window_s"] = wall
    p["process"].update(user_s=user, sys_s=sys_, io_uring_s=None)
    p["machine"] = {"cpus": 2, "ticks_per_s": 100, "user_s": 1, "system_s": 1, "idle_s": idle,
                    "iowait_s": iow, "irq_s": irq, "softirq_s": soft, "steal_s": 0,
                    "counters_backwards": False}
    p["groups"].update(filesystem_s=fs, block_s=block, other_processes_s=others,
                       unattributed_s=un)
    if unseen is not None:
        p["stacks"] = {"period_s": 0.01, "samples": 10, "cpu_s": 0.1, "idle": 0, "lost": 0,
                       "layers": [], "top_self": [], "top_total": [], "folded_merged": 0,
                       "folded": [], "unattributed": unseen}
    return p

def unseen(tasks):
    return {"samples": 0, "cpu_s": sum(t[3] for t in tasks),
            "tasks": [{"name": n, "function": f, "layer": l, "samples": 0, "cpu_s": s}
                      for n, f, l, s in tasks]}

U = [unseen([("cc1", "[no frames]", "other-processes", 2.5),
             ("kworker btrfs-endio", "btrfs_work_helper_[k]", "btrfs", 0.25)]),
     unseen([("kworker btrfs-endio", "crc32c_le_[k]", "checksum", 1.0)]),
     None]
runs = []
for i, f in enumerate(FIG):
    r = copy.deepcopy(base)
    r["name"] = "split"
    r["seed"] = 100 + i
    r["phases"]["put_block"]["profile"] = profile(f, U[i])
    runs.append(r)
json.dump(dict(src, schema="clyde-result/13", runs=runs), open(out + "/split.json", "w"))
old = copy.deepcopy(base)
old["name"] = "old"
p = copy.deepcopy(template)
p["machine"] = None
p["groups"] = None
old["phases"]["put_block"]["profile"] = p
json.dump(dict(src, schema="clyde-result/3", runs=[old]), open(out + "/old.json", "w"))

# the expected means, computed here: each column over the three runs
n = len(FIG)
mean = lambda k: sum(k(f) for f in FIG) / n
cols = [mean(lambda f: f[0]), mean(lambda f: f[1] + f[2]), None, mean(lambda f: f[3]), 0.06,
        mean(lambda f: f[4]), 0, 0, 0, mean(lambda f: f[5]), mean(lambda f: f[6] + f[7]), 0,
        mean(lambda f: f[8] + f[9]), mean(lambda f: f[10])]
cell = lambda v: "%7s" % "-" if v is None else "%7.3f" % v
row = "  %-18s %4u %4u" % ("Block write", n, 2) + "".join(" " + cell(v) for v in cols)
open(out + "/row", "w").write(row + "\n")
html = ("<tr><td>split</td><td>Block write</td><td class=\"num\">%u</td><td class=\"num\">2</td>"
        % n + "".join("<td class=\"na\">\u2014</td>" if v is None else
                      "<td class=\"num\">%.3f</td>" % v for v in cols) + "</tr>")
open(out + "/html_row", "w").write(html + "\n")
# the named unattributed CPU over the two runs that name it: the largest first
where = ("  %-18s unattributed, in tasks no snapshot counted: %.3f s in 2 runs: "
         "cc1 %.3f s ([no frames] in other-processes); "
         "kworker btrfs-endio %.3f s (crc32c_le_[k] in checksum)"
         % ("Block write", (2.75 + 1.0) / 2, 2.5 / 2, (0.25 + 1.0) / 2))
open(out + "/where", "w").write(where + "\n")
PY

"$REPORT" "$W/split.json" >"$W/out" 2>"$W/err"
expect_eq "clyde-report of three profiled runs" "$?" 0
check "the split's heading names the columns" \
	grep -q "unattr: busy time no task's counters explain" "$W/out"
check "Block write's row: the means of the three runs, computed here" \
	grep -qxF -f "$W/row" "$W/out"
check "the where row names the unattributed CPU, means over the runs that name it" \
	grep -qxF -f "$W/where" "$W/out"
"$REPORT" --html "$W/page.html" "$W/split.json" >/dev/null 2>"$W/err"
expect_eq "clyde-report --html" "$?" 0
check "the page has the split's section" grep -q "<h2>CPU split (--profile)</h2>" "$W/page.html"
check "the page's row holds the same means" grep -qF -f "$W/html_row" "$W/page.html"

"$REPORT" "$W/old.json" >"$W/old.out" 2>"$W/old.err"
expect_eq "clyde-report of a profile without machine or groups" "$?" 0
check "no split printed for it" sh -c "! grep -q 'CPU split' '$W/old.out'"
"$REPORT" --html "$W/old.html" "$W/old.json" >/dev/null 2>&1
check "no split on its page" sh -c "! grep -q 'CPU split' '$W/old.html'"
done_testing
