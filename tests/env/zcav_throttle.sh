#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# clyde-zcav against a rate the kernel enforces: a loop device that cgroup
# v1's blkio throttle holds to 50 MiB/s for reads, clyde-zcav in that
# cgroup: every block reads 50 MiB/s +-20% (--json's rates, and the same
# in its text, where blocks of 64 MiB take over a second and so print as
# numbers). bonnie++'s zcav in the same cgroup on the same device (its
# page cache dropped first) prints the same lines at the same offsets,
# read by a gnuplot-style reader as points. About 12 s.
. "$TESTLIB"
. "$(dirname "$TESTLIB")/env/throttle_lib.sh"
. "$(dirname "$TESTLIB")/env/zcav_lib.sh"
need_cmd blockdev
[ -n "$REAL_ZCAV" ] || skip "bonnie++'s zcav not found (the bonnie++ package)"
RATE=$((50 * 1024 * 1024))

if ! loop_mkfs "$W/img" 256M true; then
	fail "a 256 MiB loop device"
	done_testing
fi
DEV=$(printf '%d:%d' "0x$(stat -c %t "$LOOP")" "0x$(stat -c %T "$LOOP")")
throttle_group
throttle_set "$CG/blkio.throttle.read_bps_device" $RATE
# 4 blocks of 64 MiB: 1.28 s each at 50 MiB/s
in_group "$ZCAV" -b 64 --json "$W/t.json" "$LOOP" >"$W/c.out" 2>"$W/c.err"
expect_eq "clyde-zcav in the throttled cgroup: exit status" "$?" 0
python3 - "$W/t.json" >"$W/py.out" 2>&1 <<'PY'
import json, sys
b = json.load(open(sys.argv[1]))["targets"][0]["passes"][0]["blocks"]
assert len(b) == 4, len(b)
for x in b:
    assert 40 <= x["mib_s"] <= 60, "block at %d MiB: %.1f MiB/s, not 50 +-20%%" % (x["offset"] >> 20, x["mib_s"])
print("ok", " ".join("%.1f" % x["mib_s"] for x in b))
PY
if grep -q '^ok' "$W/py.out"; then ok; else fail "every block at 50 MiB/s +-20%:"; sed 's/^/    /' "$W/py.out"; fi
echo "rates, MiB/s: $(sed -n 's/^ok //p' "$W/py.out")"
check "every line one of zcav's" zcav_lines "$W/c.out"
gnuplot_points "$W/c.out" >"$W/c.pts"
expect_eq "a gnuplot-style reader finds 4 points" "$(wc -l <"$W/c.pts" | tr -d ' ')" 4
bad=$(awk '$2 < 40 || $2 > 60' "$W/c.pts")
expect_eq "the text's rates are 50 MiB/s +-20% too" "$bad" ""

# bonnie++'s zcav, its page cache of the device dropped first
blockdev --flushbufs "$LOOP"
in_group "$REAL_ZCAV" -b 64 "$LOOP" >"$W/z.out" 2>"$W/z.err"
expect_eq "zcav in the throttled cgroup: exit status" "$?" 0
gnuplot_points "$W/z.out" >"$W/z.pts"
expect_eq "the same offsets as zcav's points" "$(cut -d' ' -f1 "$W/c.pts" | tr '\n' ' ')" \
	"$(cut -d' ' -f1 "$W/z.pts" | tr '\n' ' ')"
expect_eq "zcav's header line is clyde-zcav's" "$(head -n 1 "$W/c.out")" "$(head -n 1 "$W/z.out")"
expect_eq "a # Read line as zcav's (its numbers aside)" \
	"$(sed -n 's/^# Read 256 megs in [0-9]* seconds, [0-9]* megabytes per second\.$/R/p' "$W/c.out")" \
	"$(sed -n 's/^# Read 256 megs in [0-9]* seconds, [0-9]* megabytes per second\.$/R/p' "$W/z.out")"
throttle_cleanup
done_testing
