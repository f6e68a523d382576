#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# The write-back cliff in the block write's time series, against limits
# the kernel enforces: vm.dirty_bytes 64 MiB (vm.dirty_background_bytes
# 32 MiB) for the test, and a loop ext4 whose device the blkio throttle
# holds to 50 MiB/s of writes. Under cgroup v1 the flusher's write-back is
# charged to the root blkio group, so the limit is the root group's. A
# buffered block write of 256 MiB with --cache=keep (tests/env/series_truth.py
# cliff): the first interval at memory speed (the page cache takes the
# first tens of MiB), then 50 MiB/s (+-15%, each whole second +-30%) while
# the dirty and writeback pages, which the kernel holds under vm.dirty_bytes,
# stay near 64 MiB, and the phase's closing fsync lasts as long as what was
# left takes at 50 MiB/s. The old vm.dirty_* (bytes and ratios: setting
# one of a pair zeroes the other) and the root group's rule go back at the
# end, failed or not. The setting is the machine's: Makefile.am runs this
# after every other test of the build, none beside it. About 11 s.
. "$TESTLIB"
. "$(dirname "$TESTLIB")/env/throttle_lib.sh"
RATE=$((50 * 1024 * 1024))
LIMIT=$((64 * 1024 * 1024))
before=$(dirty_now)

throttle_ext4 1G
sync
dirty_set $LIMIT $((LIMIT / 2))
throttle_set "$BLKIO/blkio.throttle.write_bps_device" $RATE
"$CLYDE" -d "$W/mnt" -s 256:8k:200 --seek-updates=0 -n 0 -f -r 0 --cache=keep -q \
	--json "$W/c.json" >"$W/c.out" 2>"$W/c.err"
expect_eq "clyde under vm.dirty_bytes $LIMIT: exit status" "$?" 0
throttle_cleanup
expect_eq "vm.dirty_bytes, dirty_ratio, dirty_background_bytes, dirty_background_ratio restored" \
	"$(dirty_now)" "$before"
expect_eq "the root group's rule for $DEV removed" \
	"$(awk -v d="$DEV" '$1 == d' "$BLKIO/blkio.throttle.write_bps_device")" ""
truth_checks cliff "$W/c.json" $((LIMIT / 1024)) $((RATE / 1024))
done_testing
