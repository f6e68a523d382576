#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# A default run (no -s, -n or seek count: the file half the free space,
# the I/O phases in their time boxes, the seeks timed, the file count
# calibrated) ends within 30% of its own estimate (--json's
# plan.estimate_s, which --plan prints) on devices the kernel holds to a
# rate: a loop ext4 of 1 GiB (a 453 MiB file) whose device cgroup v1's
# blkio throttle, in the root group (which the flusher's write-back is
# charged to), holds to 30 MiB/s each way, then to 500 reads and 50
# writes a second. There the seek phase takes seconds, not the one
# second it lasts on a fast disk (8192 reads at 500 a second and 820
# chunks written back at 50 a second: over 30 s), and a block write
# stopped at its 8 s box still flushes what the page cache took of the
# file at the device's rate: the estimate must count both, from what the
# calibration measured. The seek phase's own estimate is within 30% of
# what it took too. The wall time is the test's, around clyde. About
# 3 minutes.
#
# On the device held to 500/50 I/Os a second the bounds are wider, for
# two measured reasons, and the old estimate (2.03 times over: 60.1 s
# for 122.3 s, its seeks 1.1 s for 31.4 s) still fails them. The same
# default block write of the same 453 MiB took 22.8 s in one run and
# 8.9 s in another: a limit in I/Os lets through as many bytes as the
# kernel puts in each request, and the size of the requests its
# write-back forms varies from run to run. And the seek phase's
# write-backs are throttled apart from its reads (the two limits are
# separate budgets): where the flusher writes them back during the
# reads, the phase takes as little as its reads alone (8192 at 500 a
# second, 16.4 s), where at the end, the reads and the writes (820 at
# 50, 16.4 s more), which is what the estimate counts. Seen: whole runs
# at 0.68 to 1.05 of their estimates, seek phases at 0.73 to 0.95.
#
# The loop device is told it has no volatile write cache ("write
# through"), as a device with power-loss protection says. The throttle
# lets metadata through at once (Linux charges REQ_META bios to the
# group and dispatches them even over the limit, since 29390bb5661d, so
# that metadata cannot be stuck behind data: a priority inversion) and
# makes the next ordinary write of the group pay the debt, unless its
# 100 ms slice lapses first. The metadata phases send their journal as
# some 2,300 bios of 4 KiB (which reach the device as 26 merged
# requests); with a write cache, the empty flush that closes the
# phase's sync is such an ordinary write and waited 44-48 s (2,300 at
# 50 a second) with the device idle (clyde in blkdev_issue_flush, no
# request in flight) in 4 of 4 runs beside `stress-ng --cpu 2` (whole
# runs 1.37-1.49 times their estimates) and 1 of 3 there with the
# inode tables zeroed at mkfs, while without the cache the flush never
# reaches the throttle and 4 of 4 runs beside the hog took 0.84-0.98.
# Whether the slice lapses first is a matter of scheduling, not of the
# device the test stands for, nor of clyde. The attribute outlives the
# loop's detach, so it is set back before it.
. "$TESTLIB"
. "$(dirname "$TESTLIB")/env/throttle_lib.sh"
need_cmd date

throttle_ext4 1G
WCACHE=/sys/block/${LOOP#/dev/}/queue/write_cache
[ -w "$WCACHE" ] || skip "no $WCACHE to say the loop device has no write cache"
WCACHE_WAS=$(cat "$WCACHE")
trap 'echo "$WCACHE_WAS" >"$WCACHE"; throttle_cleanup; t_cleanup' EXIT
echo "write through" >"$WCACHE" || { fail "cannot write 'write through' to $WCACHE"; done_testing; }

# run_default NAME LOW HIGH SEEK_LOW: a default run on W/mnt as the rules
# now stand; the wall time within LOW..HIGH times its estimate, and the
# seek phase within SEEK_LOW..HIGH times its own
run_default() {
	sync
	t0=$(date +%s.%N)
	"$CLYDE" -d "$W/mnt" -q --json "$W/$1.json" >"$W/$1.out" 2>"$W/$1.err"
	rc=$?
	t1=$(date +%s.%N)
	expect_eq "$1: a default run's exit status" "$rc" 0
	[ "$rc" = 0 ] || { sed 's/^/    /' "$W/$1.err"; return; }
	python3 - "$W/$1.json" "$t0" "$t1" "$2" "$3" "$4" >"$W/$1.py" 2>&1 <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
wall = float(sys.argv[3]) - float(sys.argv[2])
low, high, seek_low = (float(a) for a in sys.argv[4:7])
est = d["plan"]["estimate_s"]
ph = d["runs"][0]["phases"]
seek, seek_est = ph["seeks"]["elapsed_s"], ph["seeks"]["estimate_s"]
print("estimate %.1f s, wall %.1f s (%.2f of it); seeks %.1f s, estimated %.1f s" %
      (est, wall, wall / est, seek, seek_est))
print("phases: " + "; ".join("%s %.1f/%.1f s" % (k, v["elapsed_s"], v.get("estimate_s", 0))
                             for k, v in ph.items() if v.get("ran")))
bad = []
if not low * est <= wall <= high * est:
    bad.append("the run took %.1f s, not %.2f to %.2f times its estimate %.1f s" %
               (wall, low, high, est))
if not seek_low * seek_est <= seek <= high * seek_est:
    bad.append("the seeks took %.1f s, not %.2f to %.2f times their estimate %.1f s" %
               (seek, seek_low, high, seek_est))
for b in bad:
    print("bad: " + b)
PY
	sed 's/^/    /' "$W/$1.py"
	if grep -q '^bad: ' "$W/$1.py"; then
		fail "$1: within the bounds of the estimates"
	elif grep -q '^estimate ' "$W/$1.py"; then
		ok
	else
		fail "$1: the JSON could not be read"
	fi
}

throttle_set "$BLKIO/blkio.throttle.read_bps_device" $((30 * 1024 * 1024))
throttle_set "$BLKIO/blkio.throttle.write_bps_device" $((30 * 1024 * 1024))
run_default bps 0.7 1.3 0.7
throttle_set "$BLKIO/blkio.throttle.read_bps_device" 0
throttle_set "$BLKIO/blkio.throttle.write_bps_device" 0
throttle_set "$BLKIO/blkio.throttle.read_iops_device" 500
throttle_set "$BLKIO/blkio.throttle.write_iops_device" 50
run_default iops 0.55 1.3 0.45
done_testing
