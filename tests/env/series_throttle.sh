#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# The time series against a rate the kernel enforces: a loop ext4 whose
# device cgroup v1's blkio throttle holds to 50 MiB/s for writes and for
# reads, and clyde in that cgroup with O_DIRECT (-D: every byte goes
# through the throttle as clyde writes or reads it) and fixed intervals of
# 500 ms. In the block write, the rewrite and the block read, the intervals
# after the first second read 50 MiB/s: their median within 10%, none
# over 125%, two in three within 20% (tests/env/series_truth.py
# throttle). The throttle dispatches in slices of 100 ms on this device, so 500 ms intervals hold
# five of them: 250 ms ones alternate two and three slices (+-8%).
# About 17 s.
. "$TESTLIB"
. "$(dirname "$TESTLIB")/env/throttle_lib.sh"
RATE=$((50 * 1024 * 1024))

throttle_ext4 1G
throttle_group
throttle_set "$CG/blkio.throttle.write_bps_device" $RATE
throttle_set "$CG/blkio.throttle.read_bps_device" $RATE
# 256 MiB: 5 s per phase; 64 KiB chunks, 200 in an interval; a thousand seeks
in_group "$CLYDE" -d "$W/mnt" -D -s 256:64k:1000 -n 0 -f -r 0 --interval=500 -q \
	--json "$W/t.json" >"$W/t.out" 2>"$W/t.err"
expect_eq "clyde in the throttled cgroup: exit status" "$?" 0
# the cgroup's own count: every byte of the phases went through the throttle
got=$(awk -v d="$DEV" '$1 == d && $2 == "Write" { print $3 }' "$CG/blkio.throttle.io_service_bytes")
[ "${got:-0}" -ge $((2 * 256 * 1048576)) ] && ok ||
	fail "the cgroup throttled ${got:-no} bytes of writes, not the block write's and the rewrite's 512 MiB"
for phase in put_block rewrite get_block; do
	truth_checks throttle "$W/t.json" $phase $((RATE / 1024))
done
throttle_cleanup
expect_eq "the cgroup removed" "$(ls -d "$BLKIO"/clyde-test.* 2>/dev/null)" ""
done_testing
