#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# --stonewall without MPI, on a tmpfs: a limit far below what the block
# write needs cuts it; both -c workers are worn out to the same amount;
# rewrite and block read cover what the write left; the seeks are not
# cut; the JSON and the table say what was done at the limit; bad values
# are usage errors.
. "$TESTLIB"
need_root
need_python3 "to read the JSON"
scratch_dir
W=$SCRATCH
scratch_tmpfs 1200m
T=$SCRATCH

"$CLYDE" -d "$T" -c 2 -s 512:8k:500 -n 0 -f --stonewall=0.02 --exact --json "$W/j.json" \
	>"$W/out" 2>"$W/err"
rc=$?
expect_eq "-c 2 --stonewall: exit 0" "$rc" 0
[ "$rc" = 0 ] || cat "$W/err"
# the size the CSV and the table give is what each worker's cut write left,
# a whole number of MiB (the cut waits for one), not the planned 512M
expect_eq "-c 2 --stonewall: the CSV's size is what was written" \
	"$(csv_field "$(grep '^1\.98,' "$W/out")" 5)" "$(python3 -c '
import json, sys
kib = json.load(open(sys.argv[1]))["runs"][0]["phases"]["put_block"]["workers"][0]["amount"]
mib = int(kib) // 1024
print("%dG" % (mib // 1024) if mib % 1024 == 0 else "%dM" % mib if kib % 1024 == 0 else "not whole MiB: %r KiB" % kib)
' "$W/j.json")"
python3 - "$W/j.json" >"$W/py" 2>&1 <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
run = doc["runs"][0]
ph = run["phases"]
bad = []
full = 2 * 512 * 1024
w = ph["put_block"]
if not w["amount"] < full:
    bad.append("put_block not cut: %r KiB" % w["amount"])
amounts = [x["amount"] for x in w["workers"]]
if len(amounts) != 2 or amounts[0] != amounts[1]:
    bad.append("workers not worn out to the same amount: %r" % amounts)
if w["stonewall"]["seconds"] != 0.02:
    bad.append("stonewall seconds %r" % w["stonewall"])
lim = w["stonewall"]["amount_at_limit"]
if lim is None or not 0 < lim <= w["amount"]:
    bad.append("amount at the limit %r of %r" % (lim, w["amount"]))
for name in ("rewrite", "get_block"):
    p = ph[name]
    if not 0 < p["amount"] <= w["amount"]:
        bad.append("%s covered %r KiB of the %r written" % (name, p["amount"], w["amount"]))
    if "stonewall" not in p:
        bad.append(name + ": no stonewall object")
if "stonewall" in ph["seeks"] or ph["seeks"]["amount"] != 1000:
    bad.append("seeks cut or labelled: %r" % ph["seeks"].get("amount"))
if run["cluster"] is not None:
    bad.append("a cluster alone")
print("\n".join(bad) if bad else "json ok")
PY
expect_eq "-c 2 --stonewall: the JSON" "$(cat "$W/py")" "json ok"
expect_empty_dir "-c 2 --stonewall: nothing left" "$T"

# one worker: its own thread, so the main thread can decide
"$CLYDE" -d "$T" -s 512:8k:500 -n 0 -f --stonewall=0.02 --json "$W/j1.json" >/dev/null 2>"$W/err1"
expect_eq "-c 1 --stonewall: exit 0" "$?" 0
expect_eq "-c 1 --stonewall: cut" "$(python3 -c '
import json, sys
p = json.load(open(sys.argv[1]))["runs"][0]["phases"]["put_block"]
print("cut" if p["amount"] < 512 * 1024 and p["stonewall"]["amount_at_limit"] is not None else p["amount"])' "$W/j1.json")" cut

for v in 0 0.001 abc -1 1e7; do
	"$CLYDE" -d "$T" -s 8 --stonewall=$v >/dev/null 2>"$W/bad"
	expect_eq "--stonewall=$v: usage error" "$?" 1
	expect_match "--stonewall=$v: says why" "$(head -n 1 "$W/bad")" \
		"^clyde: --stonewall: '$v' is not a number of seconds from 0.01 to 1e\\+06$"
done
done_testing
