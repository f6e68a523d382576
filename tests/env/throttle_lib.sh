# SPDX-License-Identifier: BSD-2-Clause
# Sourced by the tests that hold a loop device to a rate with cgroup v1's
# blkio throttle (tests/env/series_throttle.sh, tests/env/writeback_cliff.sh,
# tests/env/steady_throttle.sh, tests/env/zcav_throttle.sh,
# tests/env/plan_throttle.sh) after
# tests/lib.sh: skips where root, a free loop device, mkfs.ext4, python3 or
# the blkio throttle is missing; sets W (a scratch tmpfs, which holds the
# loop's image); gives truth_checks (tests/env/truth_lib.sh) and
#   throttle_ext4 SIZE      a direct-I/O loop ext4 at W/mnt, DEV its MAJ:MIN
#   throttle_group          a blkio cgroup of the test's own, CG
#   throttle_set FILE BPS   a rule for DEV in FILE (CG's or the root group's
#                           blkio.throttle.*_bps_device), taken back at exit
#   in_group CMD...         CMD run inside CG
#   dirty_set BYTES BG      vm.dirty_bytes and vm.dirty_background_bytes, the
#                           old four values (bytes and ratios) kept
#   dirty_restore           the old four back exactly; 1 if they do not read so
# and the trap that, even when the test fails or is stopped, takes every
# rule back, removes the group and restores the sysctls before tests/lib.sh's
# cleanup unmounts and detaches.
need_loops mkfs.ext4
need_python3 "to read the JSON"
BLKIO=/sys/fs/cgroup/blkio
[ -f "$BLKIO/blkio.throttle.write_bps_device" ] ||
	skip "no cgroup v1 blkio throttle at $BLKIO (cgroup v2's io.max is not done here)"
. "$(dirname "$TESTLIB")/env/truth_lib.sh"
# The image lives in memory, so that the throttle is the only limit: on the
# machine's disk a stall of the disk itself (9 MiB/s under a 50 MiB/s rule,
# 2026-12-03) failed tests/env/writeback_cliff.sh with clyde right.
need_tmpfs 3G
W=$SCRATCH
mkdir "$W/mnt"
CG=""
DEV=""
TH_RULES=""
TH_DIRTY=""

throttle_cleanup() {
	for f in $TH_RULES; do
		echo "$DEV 0" >"$f" 2>/dev/null
	done
	TH_RULES=""
	if [ -n "$CG" ]; then
		i=0
		# a clyde stopped with the test may take a moment to leave the group
		until rmdir "$CG" 2>/dev/null || [ $i -ge 50 ]; do
			sleep 0.1
			i=$((i + 1))
		done
		[ -d "$CG" ] && echo "warning: could not remove the cgroup $CG"
		CG=""
	fi
	dirty_restore || echo "warning: vm.dirty_* not as they were: $(dirty_now)"
}
trap 'throttle_cleanup; t_cleanup' EXIT

# throttle_ext4 SIZE: a fresh ext4 on a direct-I/O loop device (a buffered
# one would keep a second copy in the page cache; tmpfs takes direct I/O
# from Linux 6.6, and before it the fallback's copy is shmem, which is
# never written back), mounted at W/mnt; DEV its MAJ:MIN. Gives up the
# test if not.
throttle_ext4() {
	if ! loop_mkfs "$W/img" "$1" mkfs.ext4 -q -F || ! mount "$LOOP" "$W/mnt"; then
		fail "ext4 on a loop device: cannot make it"
		done_testing
	fi
	DEV=$(printf '%d:%d' "0x$(stat -c %t "$LOOP")" "0x$(stat -c %T "$LOOP")")
}

throttle_group() {
	CG=$BLKIO/clyde-test.$$
	mkdir "$CG" || { CG=""; fail "cannot make the blkio cgroup $BLKIO/clyde-test.$$"; done_testing; }
}

# throttle_set FILE BPS: DEV limited to BPS bytes a second by FILE (0: no limit)
throttle_set() {
	case " $TH_RULES " in
	*" $1 "*) ;;
	*) TH_RULES="$TH_RULES $1" ;;
	esac
	echo "$DEV $2" >"$1" || { fail "cannot write '$DEV $2' to $1"; done_testing; }
}

in_group() {
	sh -c 'echo $$ >"$0/cgroup.procs" && exec "$@"' "$CG" "$@"
}

dirty_now() {
	v=/proc/sys/vm
	echo "$(cat $v/dirty_bytes) $(cat $v/dirty_ratio) $(cat $v/dirty_background_bytes) $(cat $v/dirty_background_ratio)"
}

# dirty_set BYTES BACKGROUND-BYTES (each zeroes its ratio; dirty_restore
# writes back whichever of each pair was in force)
dirty_set() {
	[ -n "$TH_DIRTY" ] || TH_DIRTY=$(dirty_now)
	echo "$1" >/proc/sys/vm/dirty_bytes && echo "$2" >/proc/sys/vm/dirty_background_bytes ||
		{ fail "cannot set vm.dirty_bytes $1, vm.dirty_background_bytes $2"; done_testing; }
}

dirty_restore() {
	[ -n "$TH_DIRTY" ] || return 0
	# shellcheck disable=SC2086
	set -- $TH_DIRTY
	if [ "$1" != 0 ]; then echo "$1" >/proc/sys/vm/dirty_bytes; else echo "$2" >/proc/sys/vm/dirty_ratio; fi
	if [ "$3" != 0 ]; then
		echo "$3" >/proc/sys/vm/dirty_background_bytes
	else
		echo "$4" >/proc/sys/vm/dirty_background_ratio
	fi
	[ "$(dirty_now)" = "$TH_DIRTY" ] || return 1
	TH_DIRTY=""
}
