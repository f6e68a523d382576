#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# The test files' page-cache gauge (cachestat(2)) in a phase's series costs
# what the sampler's rule allows, and the worker pays it: the walk of a
# 1 GiB tmpfs file takes milliseconds, in the thread that reads the file.
# The reading taken before the clock counts as the first, so the block
# read's first interval of 100 ms has none (it had one: 5% of the phase's
# time), while the last, after the phase's end, always has one.
. "$TESTLIB"
need_root
need_linux "a tmpfs to mount and cachestat(2)"
need_python3 "to read the JSON"
need_tmpfs 1300m
MNT=$SCRATCH
scratch_dir
W=$SCRATCH

"$CLYDE" -d "$MNT" -s 1024M:8k:1000 -n 0 -f --cache=keep --interval=100 -q \
	--json "$W/run.json" >"$W/out" 2>"$W/err"
rc=$?
expect_eq "exit status ($(tail -n 2 "$W/err" | tr '\n' ' '))" "$rc" 0

# SOURCE FIRST LAST READ ROWS: the get_block series' file gauge source, its
# first and last rows' readings (- for none), and how many rows have one
out=$(python3 - "$W/run.json" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))["runs"][0]["phases"]["get_block"]["series"]
i = s["columns"].index("file_dirty_kib")
rows = s["rows"]
val = lambda r: "-" if r[i] is None else str(r[i])
print(s["file_cache_source"] or "none", val(rows[0]), val(rows[-1]),
      sum(r[i] is not None for r in rows), len(rows))
PY
)
echo "get_block: source first last read rows: $out"
set -- $out
if [ "${1:-none}" = none ]; then
	skip "no file page-cache source on this kernel (cachestat(2) came in Linux 6.5)"
fi
if [ "$5" -lt 2 ]; then
	skip "the block read lasted under two intervals of 100 ms ($5): too fast to tell"
fi
expect_eq "no reading of the files in the read's first interval" "$2" "-"
check "the last interval, after the phase's end, has its reading ($3)" [ "$3" != "-" ]
done_testing
