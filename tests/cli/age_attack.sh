#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Aging writes and removes only inside its own directory: while it waits
# at its start (CLYDE_TEST_PAUSE=age-start) something plants, where its
# directories and files go (d0..d7, f0..f9), (1) symlinks to a directory
# and a file outside, (2) bind mounts of an outside directory of the same
# file system. Aging stops (it never follows a link nor enters a mount:
# status 3), what is outside stays whole (every name, every byte), its
# own directory is removed, or, with a mount kept inside it, removed by
# --cleanup once the mount is gone.
. "$TESTLIB"
need_root
need_linux "bind mounts"
private_mounts "$@"
need_tmpfs 256m
T=$SCRATCH
D=$T/d
OUT=$T/outside
mkdir "$D" "$OUT" "$OUT/sub"
for f in p1 p2 p3; do echo "precious $f" >"$OUT/$f"; done
echo "precious deep" >"$OUT/sub/s1"
sig() { (cd "$OUT" && find . | LC_ALL=C sort && find . -type f | LC_ALL=C sort | xargs cat); }
sig0=$(sig)

# attack KIND: run clyde aging, plant KIND at the pause; its status in rc
attack() {
	rm -f "$T/go"
	CLYDE_TEST_PAUSE=age-start CLYDE_TEST_RESUME=$T/go "$CLYDE" -d "$D" -s 16 -r 8 -n 0 -f \
		--age=60:1 >"$T/$1.out" 2>"$T/$1.err" &
	pid=$!
	if wait_pause "$T/$1.err"; then
		A=$(ls -d "$D"/clyde.age.* | head -n 1)
		for i in 0 1 2 3 4 5 6 7; do
			case $1 in
			symlink) ln -s "$OUT" "$A/d$i" ;;
			bind) mkdir "$A/d$i" && mount --bind "$OUT" "$A/d$i" ;;
			esac
		done
		for i in 0 1 2 3 4 5 6 7 8 9; do
			ln -s "$OUT/p1" "$A/f$i"
		done
		touch "$T/go"
	else
		fail "$1: no pause"
	fi
	wait $pid
	rc=$?
}

attack symlink
expect_eq "symlinks: aging stops, status 3" "$rc" 3
expect_eq "symlinks: the outside is whole" "$(sig)" "$sig0"
expect_eq "symlinks: -d empty" "$(ls -A "$D")" ""

attack bind
expect_eq "bind mounts: aging stops, status 3" "$rc" 3
expect_eq "bind mounts: the outside is whole" "$(sig)" "$sig0"
expect_file_has "bind mounts: the kept mount is named" "$T/bind.err" "could not remove all of"
for m in $(awk -v d="$D/" 'index($5, d) == 1 { print $5 }' /proc/self/mountinfo); do
	umount "$m"
done
"$CLYDE" --cleanup "$D" >"$T/cleanup.out" 2>&1
expect_eq "bind mounts: --cleanup after the umount" "$?" 0
expect_eq "bind mounts: then -d empty" "$(ls -A "$D")" ""
expect_eq "bind mounts: the outside still whole" "$(sig)" "$sig0"
done_testing
