#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# --profile=layers where there is nothing to split: on a tmpfs (no block
# device) the run goes on, says why on stderr once, and each phase's split
# in the JSON is "unavailable" with that reason, its figures null, and its
# row in the text says it; a build without BPF says what it lacked
# instead. The word implies --profile; a word clyde does not know is a
# usage error (exit status 1) that names it; without the word there is
# no "layers" object. (tests/env/layers_faultfs.sh measures a real split.)
. "$TESTLIB"
need_root
need_linux "--profile=layers is Linux's"
need_python3 "to read the JSON"

need_tmpfs 64m
MNT=$SCRATCH
scratch_dir
W=$SCRATCH

"$CLYDE" -d "$MNT" -s 4M -r 2M -f -n 0 --profile=layers --json "$W/l.json" >"$W/l.out" 2>"$W/l.err"
expect_eq "--profile=layers on a tmpfs: exit status" "$?" 0
if "$CLYDE" --version | grep -q ', bpf yes'; then
	why="no block device under the directory"
else
	why="not built: "
fi
expect_file_has "the note on stderr" "$W/l.err" "clyde: note: --profile=layers: $why"
expect_eq "said once" "$(grep -c 'profile=layers' "$W/l.err")" 1
expect_file_has "the text's rows say why" "$W/l.out" "Random seeks       ($why"
expect_file_has "where a throttle's wait lands" "$W/l.out" "blk-throttle wait is above the block layer"
check "the CSV line is still last" sh -c "tail -n 1 '$W/l.out' | grep -q '^1.98,'"
python3 - "$W/l.json" "$why" >"$W/py.out" 2>&1 <<'PY'
import json, sys
run = json.load(open(sys.argv[1]))["runs"][0]
n = 0
for name in ("put_block", "rewrite", "get_block", "seeks"):
    l = run["phases"][name]["profile"]["layers"]
    assert l["state"] == "unavailable", (name, l["state"])
    assert l["why"].startswith(sys.argv[2]), (name, l["why"])
    for span in ("queue", "device"):
        assert l[span]["requests"] == 0 and l[span]["p50_s"] is None, (name, span, l[span])
    assert l["busy_share"] is None and l["operations"]["device_share"] is None, (name, l)
    assert l["operations"]["count"] > 0, (name, "clyde's own operations are counted")
    n += 1
print("ok", n)
PY
if grep -q '^ok 4' "$W/py.out"; then ok; else fail "the JSON's splits:"; sed 's/^/    /' "$W/py.out"; fi

"$CLYDE" -d "$MNT" -s 4M -r 2M -f -n 0 --profile --json "$W/p.json" >/dev/null 2>"$W/p.err"
expect_eq "--profile alone: exit status" "$?" 0
check "no layers object without the word" sh -c "! grep -q '\"layers\"' '$W/p.json'"
check "no note without the word" sh -c "! grep -q 'profile=layers' '$W/p.err'"

"$CLYDE" -d "$MNT" -s 4M --profile=layers,latency >/dev/null 2>"$W/bad.err"
expect_eq "--profile=layers,latency: exit status" "$?" 1
expect_file_has "the unknown word named" "$W/bad.err" "'latency' is not a word it knows (stacks, layers)"
done_testing
