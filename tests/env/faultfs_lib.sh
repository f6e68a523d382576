# SPDX-License-Identifier: BSD-2-Clause
# Sourced by the tests that mount faultfs (tests/env/faultfs.sh and
# tests/env/fault_phases.sh) after tests/lib.sh, with FAULTFS_BACKING the size
# of the tmpfs behind it: skips where faultfs, /dev/fuse, root or python3
# is missing; sets B (the backing tmpfs), W (a scratch directory) and M
# (the mount point); gives mount_ffs, unmount, mounted and st, and the
# trap that always unmounts.
need_root
[ -n "${FAULTFS:-}" ] || skip "faultfs not built (configure found no libfuse3)"
need_built "$FAULTFS"
[ -c /dev/fuse ] || skip "no /dev/fuse"
need_python3 "for exact reads and writes and the JSON"

need_tmpfs "${FAULTFS_BACKING:-64m}"
B=$SCRATCH
scratch_dir
W=$SCRATCH
M=$W/mnt
mkdir "$M"
PID=""
RC=""
tmo=""
command -v timeout >/dev/null 2>&1 && tmo="timeout 60"

# unmount: umount faultfs's mount, which ends it; RC is its exit status
unmount() {
	[ -n "$PID" ] || return 0
	unmounted=yes
	umount "$M" 2>/dev/null || { unmounted=""; umount -l "$M" 2>/dev/null; }
	i=0
	while kill -0 "$PID" 2>/dev/null && [ $i -lt 100 ]; do
		# unmounted here, nothing busy, and faultfs still serving: a copy
		# of the mount in a mount namespace made while it was mounted
		# (another test's unshare -m, seen: a hosts.sh run's) holds the
		# connection; SIGTERM ends faultfs as umount would have
		[ $i = 20 ] && [ -n "$unmounted" ] && kill -TERM "$PID" 2>/dev/null
		sleep 0.1
		i=$((i + 1))
	done
	if kill -0 "$PID" 2>/dev/null; then
		fail "faultfs still running 10 s after umount"
		kill -KILL "$PID"
	fi
	wait "$PID"
	RC=$?
	PID=""
}
trap 'unmount; t_cleanup' EXIT
trap 'exit 1' HUP INT TERM

mounted() {
	grep -q " $M fuse.faultfs " /proc/mounts
}

# mount_ffs [--rule RULE]...: a fresh faultfs of $B at $M, with the control
# file $W/ctl (none yet), the stats $W/stats and the log of reads and
# writes $W/io.log (a line as each ends); gives up the test if not
mount_ffs() {
	rm -f "$W/ctl" "$W/stats"
	: >"$W/ffs.err"
	"$FAULTFS" -v --backing "$B" --control "$W/ctl" --stats "$W/stats" --log "$W/io.log" "$@" "$M" \
		2>"$W/ffs.err" &
	PID=$!
	i=0
	# the stats file is written once mounted
	until [ -f "$W/stats" ] && mounted; do
		if ! kill -0 "$PID" 2>/dev/null || [ $i -ge 100 ]; then
			fail "faultfs $* did not mount:"
			sed 's/^/    /' "$W/ffs.err"
			unmount
			done_testing
		fi
		sleep 0.1
		i=$((i + 1))
	done
}

# st KEY: the number after KEY ("ops read", "faults read EIO") in the stats, 0 if none
st() {
	n=$(awk -v k="$1" 'substr($0, 1, length(k) + 1) == k " " { print $NF }' "$W/stats")
	echo "${n:-0}"
}

