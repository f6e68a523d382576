#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# The remover cannot be steered (src/sys/workdir_remove.c). While it is inside
# a subdirectory (CLYDE_TEST_PAUSE=remove), the test swaps that
# subdirectory for a symlink to a directory outside the tree, on the same
# file system, holding files of the same names; after the resume nothing
# outside was touched and everything inside went: for --cleanup of a
# planted dead tree, and for a run's own cleanup. A file system mounted
# inside a dead tree is not entered: its files stay, the removal names what
# it left and keeps the marker, and a later --cleanup takes the rest.
. "$TESTLIB"
need_root
scratch_dir
W=$SCRATCH
scratch_tmpfs 64m
T=$SCRATCH

# outside DIR: the directory a steered remover would empty
outside() {
	mkdir -p "$1" && for f in f1 f2 f3; do echo "precious $f" >"$1/$f"; done
}
whole() {	# NAME DIR: the outside directory still holds its three files
	expect_eq "$1: nothing outside was touched" "$(cd "$2" && cat f1 f2 f3 | tr '\n' ' ')" \
		"precious f1 precious f2 precious f3 "
}

# 1. --cleanup of a planted dead tree, swapped while inside clyde.race/sub
mkdir "$T/c1"
outside "$T/outside1"
dead_tree "$T/c1/clyde.race"
mkdir "$T/c1/clyde.race/sub"
for f in f1 f2 f3; do echo inside >"$T/c1/clyde.race/sub/$f"; done
# the error file exists before clyde starts, so that wait_pause reads it
: >"$W/err1"
CLYDE_TEST_PAUSE=remove CLYDE_TEST_RESUME=$W/go1 "$CLYDE" --cleanup "$T/c1" >"$W/out1" 2>"$W/err1" &
pid=$!
if wait_pause "$W/err1"; then
	expect_eq "--cleanup: paused inside the subdirectory" "$(grep -c 'test pause in remove' "$W/err1")" 1
	mv "$T/c1/clyde.race/sub" "$T/c1/clyde.race/sub.moved"
	ln -s "$T/outside1" "$T/c1/clyde.race/sub"
	touch "$W/go1"
else
	fail "--cleanup: never paused in the remover: $(cat "$W/err1")"
	kill $pid
fi
wait $pid
expect_eq "--cleanup after the swap: exit 0" "$?" 0
whole "--cleanup after the swap" "$T/outside1"
[ -e "$T/c1/clyde.race" ] || [ -L "$T/c1/clyde.race" ]
expect_eq "--cleanup after the swap: the tree, the moved directory and the link went" "$?" 1
expect_match "--cleanup after the swap: says so" "$(cat "$W/out1")" \
	"^clyde: removed $T/c1/clyde\\.race \\(.*\\): no process 999999"

# 2. a run's own cleanup: a subdirectory planted in its private directory
# while block write pauses, swapped while the remover is inside it
mkdir "$T/c2"
outside "$T/outside2"
: >"$W/err2"
CLYDE_TEST_PAUSE=put_block:remove CLYDE_TEST_RESUME=$W/go2 "$CLYDE" -d "$T/c2" -s 8 -n 0 -f \
	>/dev/null 2>"$W/err2" &
pid=$!
if wait_pause "$W/err2"; then
	wd=$(ls -d "$T"/c2/clyde.*)
	expect_eq "run: its marker names its pid namespace" "$(grep '^pidns ' "$wd/.clyde-run")" \
		"pidns $(stat -L -c '%d:%i' /proc/self/ns/pid 2>/dev/null)"
	mkdir "$wd/sub" && for f in f1 f2 f3; do echo inside >"$wd/sub/$f"; done
	touch "$W/go2"
	if wait_pause "$W/err2" 2; then
		mv "$wd/sub" "$wd/sub.moved"
		ln -s "$T/outside2" "$wd/sub"
	else
		fail "run: never paused in the remover: $(cat "$W/err2")"
	fi
	touch "$W/go2"
else
	fail "run: never paused in block write: $(cat "$W/err2")"
	kill $pid
fi
wait $pid
expect_eq "run's cleanup after the swap: exit 0" "$?" 0
whole "run's cleanup after the swap" "$T/outside2"
expect_eq "run's cleanup after the swap: its directory went" "$(ls -A "$T/c2")" ""

# 3. a file system mounted inside a dead tree is not entered
mkdir "$T/c3"
dead_tree "$T/c3/clyde.mnt"
mkdir "$T/c3/clyde.mnt/m"
echo other >"$T/c3/clyde.mnt/other"
if mount -t tmpfs -o size=1m clyde-test-inner "$T/c3/clyde.mnt/m"; then
	T_MOUNTS="$T/c3/clyde.mnt/m $T_MOUNTS"
	echo keep >"$T/c3/clyde.mnt/m/f"
	"$CLYDE" --cleanup "$T/c3" >"$W/out3" 2>&1
	expect_eq "a mount inside: exit 3" "$?" 3
	expect_eq "a mount inside: its files stay" "$(cat "$T/c3/clyde.mnt/m/f")" keep
	expect_eq "a mount inside: the rest went, the marker stays" \
		"$(cd "$T/c3/clyde.mnt" && ls -A | tr '\n' ' ')" ".clyde-run m "
	expect_match "a mount inside: says why" "$(grep '^clyde: cannot remove all' "$W/out3")" \
		"^clyde: cannot remove all of $T/c3/clyde\\.mnt \\(.*\\): Invalid cross-device link$"
	expect_match "a mount inside: names the mount point" "$(cat "$W/out3")" \
		"clyde:   left: $T/c3/clyde\\.mnt/m \\(another file system: not entered\\)"
	umount "$T/c3/clyde.mnt/m"
	"$CLYDE" --cleanup "$T/c3" >"$W/out3b" 2>&1
	expect_eq "unmounted: a later --cleanup takes the rest" "$?:$(ls -A "$T/c3")" "0:"
else
	fail "cannot mount a tmpfs inside the tree"
fi
done_testing
