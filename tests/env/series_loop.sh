#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# The time series on a loop ext4 (tests/cli/series.sh does tmpfs and this
# machine's filesystem): the rows add up as there, and with --profile
# the device's columns are the loop device's, whose written bytes over the
# block write are at least the file (its fsync is inside the phase); the
# test file's dirty pages show while the block write fills the cache.
. "$TESTLIB"
need_loops mkfs.ext4
. "$(dirname "$TESTLIB")/env/profile_loop_lib.sh"
CHECKER=$(dirname "$TESTLIB")/cli/series_check.py

if ! loop_mkfs "$W/img" 1G mkfs.ext4 -q -F || ! mount "$LOOP" "$W/mnt"; then
	fail "ext4: cannot make it"
	done_testing
fi
dev=$(basename "$LOOP")
# 512 MiB: the writes (into the page cache) outlast a few intervals, so
# readings fall inside the block write, not only after its fsync
"$CLYDE" -d "$W/mnt" -s 512:8192:2000 -r 128 -n 1 --profile -q --json "$W/s.json" >"$W/s.out" 2>"$W/s.err"
expect_eq "ext4 run" "$?" 0
out=$(python3 "$CHECKER" "$W/s.json" adaptive "" "$dev" 2>&1)
expect_eq "ext4: the series add up${out:+ ($out)}" "$?" 0
got=$(python3 - "$W/s.json" <<'PY'
import json, sys
p = json.load(open(sys.argv[1]))["runs"][0]["phases"]["put_block"]
s = p["series"]
c = {k: i for i, k in enumerate(s["columns"])}
# the bytes of an interval without a reading are in the next reading's row
written = sum(r[c["dev_write_kib"]] or 0 for r in s["rows"])
# the readings inside the phase (the last one is after its fsync)
inside = [r for r in s["rows"][:-1] if r[c["cpu_user_s"]] is not None]
dirty = max([r[c["file_dirty_kib"]] or 0 for r in inside] or [0])
print("written %s" % ("ok" if written >= 0.95 * p["amount"] else "%.0f of %.0f KiB" % (written, p["amount"])))
print("dirty %s" % ("ok" if dirty > 0 else "never in %d readings" % len(inside)))
print("source %s" % s["file_cache_source"])
PY
)
expect_match "ext4: the device wrote the block write's file" "$got" 'written ok'
expect_match "ext4: the file's dirty pages seen" "$got" 'dirty ok'
expect_match "ext4: cachestat" "$got" 'source (cachestat|None)'
loop_detach
done_testing
