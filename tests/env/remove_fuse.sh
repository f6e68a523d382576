#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# The remover (src/sys/workdir_remove.c) stops at a FUSE mount inside a
# tree it removes (faultfs, tests/tools/faultfs.c, over a directory of
# files outside the tree): for clyde --cleanup of a dead run's tree and for
# a run's own cleanup (faultfs mounted in its private directory while block
# write pauses), what faultfs shows stays whole (every name, every file's
# content, looked at beneath faultfs), faultfs is still mounted when clyde
# exits, the messages name the mount point (and nothing inside it), the
# exit status is 3 (a run's results are printed still), and once it is
# unmounted a later --cleanup removes the rest. The bind mounts of the
# tree's own file system: tests/cli/remove_mounts.sh. In a mount namespace
# of its own.
. "$TESTLIB"
need_root
need_linux "FUSE"
private_mounts "$@"
FAULTFS_BACKING=16m
. "$(dirname "$TESTLIB")/env/faultfs_lib.sh"
need_tmpfs 96m
T=$SCRATCH

# what faultfs shows: files and a subdirectory in its backing directory
mkdir "$B/deep" && for f in f1 f2 f3; do echo "precious $f" >"$B/$f"; done
echo "precious deep" >"$B/deep/d1"
# sig: every name beneath faultfs and every file's content, to compare
sig() {
	(cd "$B" && find . | LC_ALL=C sort && find . -type f | LC_ALL=C sort | xargs cat)
}
before=$(sig)

# kept NAME DIR: faultfs (at DIR/m) still mounted and whole, the rest of
# DIR gone but the mount point and the marker
kept() {
	expect_eq "$1: what faultfs shows stays whole" "$(sig)" "$before"
	mounted
	expect_eq "$1: faultfs is still mounted" "$?" 0
	expect_eq "$1: the rest went; the marker and the mount point stay" \
		"$(cd "$2" && ls -A | tr '\n' ' ')" ".clyde-run m "
}

# 1. --cleanup of a dead run's tree with faultfs mounted inside
C=$T/c
dead_tree "$C/clyde.dead"
mkdir "$C/clyde.dead/m" "$C/clyde.dead/own"
echo own >"$C/clyde.dead/own/f"
M=$C/clyde.dead/m
mount_ffs
"$CLYDE" --cleanup "$C" >"$W/out1" 2>&1
expect_eq "--cleanup: exit 3" "$?" 3
kept "--cleanup" "$C/clyde.dead"
expect_match "--cleanup: says why" "$(grep '^clyde: cannot remove all' "$W/out1")" \
	"^clyde: cannot remove all of $C/clyde\\.dead \\(.*\\): Invalid cross-device link\$"
expect_eq "--cleanup: names the mount, nothing inside it" "$(grep '^clyde:   left: ' "$W/out1")" \
	"clyde:   left: $M (another file system: not entered)"
unmount
expect_eq "--cleanup: faultfs ended cleanly" "$RC" 0
"$CLYDE" --cleanup "$C" >"$W/out1b" 2>&1
expect_eq "--cleanup: unmounted, a later --cleanup takes the rest" "$?:$(ls -A "$C")" "0:"
expect_eq "--cleanup: faultfs's files whole after that too" "$(sig)" "$before"

# 2. a run's own cleanup: faultfs mounted in its private directory mid-run
D=$T/r
mkdir "$D"
# the error file exists before clyde starts, so that wait_pause reads it
: >"$W/err2"
CLYDE_TEST_PAUSE=put_block CLYDE_TEST_RESUME=$W/go2 $tmo "$CLYDE" -d "$D" -s 8 -n 0 -f \
	>"$W/csv2" 2>"$W/err2" &
pid=$!
if wait_pause "$W/err2"; then
	wd=$(ls -d "$D"/clyde.*)
	M=$wd/m
	mkdir "$M"
	mount_ffs
	touch "$W/go2"
	wait $pid
	expect_eq "a run's cleanup: exit 3" "$?" 3
	kept "a run's cleanup" "$wd"
	expect_eq "a run's cleanup: says so" "$(grep '^clyde: warning: could not remove' "$W/err2")" \
		"clyde: warning: could not remove all of $wd: Invalid cross-device link"
	expect_eq "a run's cleanup: names the mount, nothing inside it" \
		"$(grep '^clyde:   left: ' "$W/err2")" "clyde:   left: $M (another file system: not entered)"
	expect_eq "a run's cleanup: the run's CSV line is printed" "$(grep -c '^1\.98,' "$W/csv2")" 1
	unmount
	expect_eq "a run's cleanup: faultfs ended cleanly" "$RC" 0
	"$CLYDE" --cleanup "$D" >"$W/out2" 2>&1
	expect_eq "a run's cleanup: unmounted, --cleanup takes the rest" "$?:$(ls -A "$D")" "0:"
	expect_eq "a run's cleanup: faultfs's files whole after that too" "$(sig)" "$before"
else
	fail "a run's cleanup: never paused in block write: $(cat "$W/err2")"
	kill $pid
	wait $pid
fi
done_testing
