#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# --verify through io_uring: a clean run with concurrency, seekers that
# update and file data passes, every byte read back, no mismatch. Where
# uring is built (clyde --version) the kernel must take it, as
# tests/cli/uring.sh requires; where it is not built, a counted skip.
. "$TESTLIB"
need_root
"$CLYDE" --version | grep -q 'uring (not built' &&
	skip "uring not built: $("$CLYDE" --version | grep -o 'uring (not built[^)]*)')"
need_python3 "to read the JSON"

need_tmpfs 256m
MNT=$SCRATCH
scratch_dir
W=$SCRATCH

"$CLYDE" --verify --engine=uring -d "$MNT" -s 8:4k:2000:4 -c 2 -n 1:8k:1k:2 -f64k \
	--json "$W/clean.json" >"$W/out" 2>"$W/err"
rc=$?
expect_eq "--verify clean run (uring)" "$rc" 0
[ $rc = 0 ] || sed 's/^/    /' "$W/err"
expect_match "no mismatch reported (uring)" "$(grep -c 'verify:' "$W/err")" '^0$'
expect_eq "JSON: uring, verify on, no mismatches" "$(python3 -c 'import json,sys
print(sorted({(r["engine"]["name"], r["data"]["verify"], r["data"]["mismatches"]) for r in json.load(open(sys.argv[1]))["runs"]}))' \
	"$W/clean.json" 2>&1)" "[('uring', True, 0)]"
done_testing
