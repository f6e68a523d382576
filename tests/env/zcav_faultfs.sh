#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# clyde-zcav finds the slow part of a file: faultfs (tests/tools/faultfs.c)
# delays every read that overlaps 8-12 MiB of a 32 MiB file by 20 ms. In
# clyde-zcav's --json (1 MiB blocks, three passes, each block's mean of
# its middle third, so one stall of the machine does not count), the
# blocks of that range are the slow ones and no others: each of them over
# the others' median by more than 10 ms, every other block under it.
# The delay was 2 ms and the margin 1.5 ms, which a CPU hog beside the
# test crossed: with `stress-ng --cpu 2` an undelayed block took 3.19 ms
# (the others' median 0.43 ms), as long as a delayed one (3.90 ms); the
# scheduler's waits for faultfs's thread and clyde-zcav's come to a few
# milliseconds a block under such a hog, not ten. About 5 s.
. "$TESTLIB"
FAULTFS_BACKING=48m
. "$(dirname "$TESTLIB")/env/faultfs_lib.sh"
. "$(dirname "$TESTLIB")/env/zcav_lib.sh"

dd if=/dev/urandom of="$B/data" bs=1M count=32 status=none
mount_ffs --rule "op=read,err=delay,delay_us=20000,path=data,off=8M-12M,count=0"
# through FUSE's direct_io: the page cache is not in the way whichever way it is opened
$tmo "$ZCAV" -b 1 -c 3 --json "$W/f.json" "$M/data" >"$W/c.out" 2>"$W/c.err"
rc=$?
if [ $rc != 0 ] && grep -q "O_DIRECT refused" "$W/c.err"; then
	echo "note: O_DIRECT refused on this FUSE mount: --buffered"
	$tmo "$ZCAV" --buffered -b 1 -c 3 --json "$W/f.json" "$M/data" >"$W/c.out" 2>"$W/c.err"
	rc=$?
fi
expect_eq "clyde-zcav over the delaying faultfs: exit status" "$rc" 0
[ $rc = 0 ] || sed 's/^/    /' "$W/c.err"
check "every line one of zcav's" zcav_lines "$W/c.out"
delayed=$(st "faults read delay")
[ "$delayed" -ge 12 ] && ok || fail "faultfs delayed $delayed reads, not at least 4 blocks' in 3 passes"
python3 - "$W/f.json" >"$W/py.out" 2>&1 <<'PY'
import json, sys
t = json.load(open(sys.argv[1]))["targets"][0]
mean = {m["offset"] >> 20: m["seconds"] for m in t["mean"]}
assert len(mean) == 32, len(mean)
inside = {k: v for k, v in mean.items() if 8 <= k < 12}
outside = sorted(v for k, v in mean.items() if not 8 <= k < 12)
median = outside[len(outside) // 2]
line = lambda d: " ".join("%g:%.2f" % (k, v * 1e3) for k, v in sorted(d.items()))
slow = {k: v for k, v in mean.items() if v > median + 0.010}
if sorted(slow) != sorted(inside):
    print("every block (MiB: ms):", line(mean))
assert sorted(slow) == sorted(inside), "slow blocks (MiB: ms) %s; the delayed ones %s; others' median %.2f ms" % (line(slow), line(inside), median * 1e3)
print("ok", "median %.2f ms, delayed %s" % (median * 1e3, line(inside)))
PY
if grep -q '^ok' "$W/py.out"; then ok; else fail "the delayed blocks and no others are slow:"; sed 's/^/    /' "$W/py.out"; fi
sed -n 's/^ok /blocks, ms: /p' "$W/py.out"
unmount
expect_eq "faultfs exit status" "$RC" 0
done_testing
