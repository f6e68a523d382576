#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# clyde-report carries what a run says its reads may not be
# (clyde-result/11's device.loop.direct_io false, device.cache_below) into
# a study: each configuration says how many of its runs had each, in the
# text under its head and on the page under its name, and a run that says
# neither (a loop with direct I/O on, no loop at all, an older document)
# adds none. Documents are made here from a real run (clyde-x2.json's
# first), renamed per configuration.
. "$TESTLIB"
[ -x "$REPORT" ] || skip "no $REPORT"
need_cmd python3
scratch_dir
W=$SCRATCH

python3 - "$REPORT_GOLDEN/clyde-x2.json" "$W/runs.json" "$W/old.json" <<'PY'
import copy, json, sys
src = json.load(open(sys.argv[1]))
base = src["runs"][0]
base.pop("csv", None)
dev = {"name": "loop3", "rotational": False, "scheduler": "none", "read_ahead_kb": 128,
       "loop": None, "cache_below": None}
def run(name, seed, loop=None, below=None, read=None):
    r = copy.deepcopy(base)
    r["name"] = name
    r["seed"] = seed
    r["device"] = dict(dev, loop=loop, cache_below=below, read_cache_below=read)
    return r
cached = {"backing_file": "/var/tmp/a.img", "direct_io": False,
          "backing_resident_worst_pct": 80.0, "backing_resident_worst_bytes": 1 << 20}
direct = dict(cached, direct_io=True, backing_resident_worst_pct=None,
              backing_resident_worst_bytes=None)
below = {"phase": "seeks", "rate": 40420.0, "rotational_max": 1000.0}
read = {"phase": "get_block", "rate_kib_s": 1572864.0, "rotational_max_kib_s": 614400.0}
runs = [run("loopy", 1, cached), run("loopy", 2, cached), run("loopy", 3, direct),
        run("vda", 4, below=below, read=read), run("vda", 5, below=below),
        run("plain", 6), run("plain", 7, direct)]
json.dump(dict(src, schema="clyde-result/11", runs=runs), open(sys.argv[2], "w"))
old = copy.deepcopy(base)
old["name"] = "old"
json.dump(dict(src, runs=[old]), open(sys.argv[3], "w"))
PY
"$REPORT" "$W/runs.json" "$W/old.json" >"$W/out" 2>"$W/err"
expect_eq "the report" "$?" 0
# cautions BLOCK: the caution lines under configuration BLOCK's head
cautions() {
	awk -v b="$1" '/^\[[0-9]+\] / { on = index($0, "] " b " ") > 0; next }
		on && /^  caution: / { print }' "$W/out"
}
expect_eq "two of three runs on a cached loop, said under their head" "$(cautions loopy)" \
	"  caution: 2 of 3 runs ran on a loop device without direct I/O: their reads may have come from the host's page cache below the loop"
expect_eq "seeks and reads beyond a rotational device's, said" "$(cautions vda)" \
"  caution: 2 of 2 runs sought faster than any rotational device (the one they ran on says it is): a cache below clyde answered and their reads may be that cache's
  caution: 1 of 2 runs read an uncached file faster than any rotational disk streams (the one they ran on says it is): a cache below clyde served their reads"
expect_eq "a loop with direct I/O and no loop: nothing" "$(cautions plain)" ""
expect_eq "an older document: nothing" "$(cautions old)" ""
expect_eq "no other caution anywhere" "$(grep -c '^  caution: ' "$W/out")" 3

"$REPORT" --html "$W/page.html" "$W/runs.json" "$W/old.json" >/dev/null 2>&1
expect_eq "the page" "$?" 0
check "the page: the same cautions under the names" python3 - "$W/page.html" <<'PY'
import re, sys
page = open(sys.argv[1]).read()
got = re.findall(r'<span class="caution"[^>]*>([^<]*)</span>', page)
# each configuration's name cell appears in each table: the same two, as often
assert got, "no caution on the page"
want = {
    "caution: 2 of 3 runs ran on a loop device without direct I/O: their reads may have come "
    "from the host's page cache below the loop",
    "caution: 2 of 2 runs sought faster than any rotational device (the one they ran on says "
    "it is): a cache below clyde answered and their reads may be that cache's",
    "caution: 1 of 2 runs read an uncached file faster than any rotational disk streams (the "
    "one they ran on says it is): a cache below clyde served their reads",
}
assert {g.replace("&#39;", "'") for g in got} == want, got
PY
done_testing
