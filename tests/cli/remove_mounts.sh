#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# The remover (src/sys/workdir_remove.c) stops at every mount inside a tree
# it removes, a mount of the tree's own file system included, which keeps
# st_dev: a bind mount of a directory outside the tree, an rbind of one
# that has a mount of its own inside, a read-only bind, and a file
# bind-mounted. For clyde --cleanup of a dead run's tree and for a run's
# own cleanup (the mount made in its private directory while block write
# pauses): what is outside stays whole (every name, every file's content),
# the mount is still mounted when clyde exits, the messages name it (and
# nothing inside it), the exit status is 3 (a run's results are printed
# still), and once it is unmounted a later --cleanup removes the rest.
# Also a dead run's tree bind-mounted over a clyde.* directory: --cleanup
# enters none of it. All of it in a mount namespace of its own. A FUSE
# mount inside: the same checks in tests/env/remove_fuse.sh.
. "$TESTLIB"
need_root
need_linux "bind mounts"
private_mounts "$@"
scratch_dir
W=$SCRATCH
scratch_tmpfs 128m
T=$SCRATCH

# mounted PATH: PATH is a mount point (a bind mount of one file system
# shows only in mountinfo)
mounted() {
	awk -v p="$1" '$5 == p { found = 1 } END { exit !found }' /proc/self/mountinfo
}

# sig PATH: every name under PATH and every file's content, to compare
sig() {
	if [ -d "$1" ]; then
		(cd "$1" && find . | LC_ALL=C sort && find . -type f | LC_ALL=C sort | xargs cat)
	else
		cat "$1"
	fi
}

# outside KIND PATH: what the mount of KIND shows inside the tree: a
# directory with files and a subdirectory (rbind: and a tmpfs mounted in
# it), or a file
outside() {
	if [ "$1" = file ]; then
		echo "precious file" >"$2"
		return
	fi
	mkdir -p "$2/deep" && for f in f1 f2 f3; do echo "precious $f" >"$2/$f"; done
	echo "precious deep" >"$2/deep/d1"
	if [ "$1" = rbind ]; then
		mkdir "$2/sub" && mount -t tmpfs -o size=1m clyde-test-sub "$2/sub" &&
			echo "precious g1" >"$2/sub/g1" && echo "precious g2" >"$2/sub/g2"
	fi
}

# put KIND OUTSIDE DIR: mount OUTSIDE at DIR/m as KIND says; 1 when it cannot
put() {
	case $1 in
	bind) mkdir "$3/m" && mount --bind "$2" "$3/m" ;;
	rbind) mkdir "$3/m" && mount --rbind "$2" "$3/m" ;;
	robind)
		mkdir "$3/m" && mount --bind -o ro "$2" "$3/m" || return 1
		# util-linux makes it read-only with a second mount call: it must be
		! touch "$3/m/ro-test" 2>/dev/null
		;;
	file) : >"$3/m" && mount --bind "$2" "$3/m" ;;
	esac
}

# mounts KIND DIR: the mount points put made
mounts() {
	echo "$2/m"
	[ "$1" = rbind ] && echo "$2/m/sub"
}

# take KIND DIR: undo put
take() {
	if [ "$1" = rbind ]; then umount -R "$2/m"; else umount "$2/m"; fi
}

# what KIND: why the remover says it left the mount
what() {
	if [ "$1" = file ]; then echo "(a mount point: kept)"; else echo "(a mount point: not entered)"; fi
}

# begin KIND DIR OUTSIDE: DIR made, and OUTSIDE for KIND; its sig in before
begin() {
	mkdir "$2"
	outside "$1" "$3"
	before=$(sig "$3")
}

# kept NAME KIND TREE OUTSIDE MESSAGES: the outside whole, every mount
# still mounted, the rest of TREE gone but the mount and the marker, and
# MESSAGES name the mount and nothing else left
kept() {
	expect_eq "$1: the outside stays whole" "$(sig "$4")" "$before"
	for m in $(mounts "$2" "$3"); do
		mounted "$m"
		expect_eq "$1: $m is still mounted" "$?" 0
	done
	expect_eq "$1: the rest went; the marker and the mount point stay" \
		"$(cd "$3" && ls -A | tr '\n' ' ')" ".clyde-run m "
	expect_eq "$1: names the mount, nothing inside it" "$(grep '^clyde:   left: ' "$5")" \
		"clyde:   left: $3/m $(what "$2")"
}

# finish NAME KIND TREE DIR OUTSIDE: once the mount in TREE is taken away,
# --cleanup DIR removes the rest, and the outside is whole still
finish() {
	take "$2" "$3"
	"$CLYDE" --cleanup "$4" >"$W/later" 2>&1
	expect_eq "$1: unmounted, a later --cleanup takes the rest" "$?:$(ls -A "$4")" "0:"
	expect_eq "$1: the outside whole after that too" "$(sig "$5")" "$before"
}

# cleanup_case KIND: --cleanup of a dead tree with KIND's mount inside
cleanup_case() {
	k=$1 c=$T/c.$1 out=$T/out.c.$1
	name="--cleanup, $k"
	begin "$k" "$c" "$out"
	dead_tree "$c/clyde.dead"
	mkdir "$c/clyde.dead/own" && echo own >"$c/clyde.dead/own/f" && echo own >"$c/clyde.dead/g"
	if ! put "$k" "$out" "$c/clyde.dead"; then
		fail "$name: cannot mount inside the tree"
		return
	fi
	"$CLYDE" --cleanup "$c" >"$W/out.$k" 2>&1
	expect_eq "$name: exit 3" "$?" 3
	kept "$name" "$k" "$c/clyde.dead" "$out" "$W/out.$k"
	expect_match "$name: says why" "$(grep '^clyde: cannot remove all' "$W/out.$k")" \
		"^clyde: cannot remove all of $c/clyde\\.dead \\(.*\\): Invalid cross-device link\$"
	finish "$name" "$k" "$c/clyde.dead" "$c" "$out"
}

# run_case KIND: a run whose private directory gets KIND's mount while block write pauses
run_case() {
	k=$1 d=$T/r.$1 out=$T/out.r.$1
	name="a run's cleanup, $k"
	begin "$k" "$d" "$out"
	# the error file exists before clyde starts, so that wait_pause reads it
	: >"$W/err.$k"
	CLYDE_TEST_PAUSE=put_block CLYDE_TEST_RESUME=$W/go.$k "$CLYDE" -d "$d" -s 8 -n 0 -f \
		--json "$W/json.$k" >"$W/csv.$k" 2>"$W/err.$k" &
	pid=$!
	if ! wait_pause "$W/err.$k"; then
		fail "$name: never paused in block write: $(cat "$W/err.$k")"
		kill $pid
		wait $pid
		return
	fi
	wd=$(ls -d "$d"/clyde.*)
	put "$k" "$out" "$wd" || fail "$name: cannot mount inside its directory"
	touch "$W/go.$k"
	wait $pid
	expect_eq "$name: exit 3" "$?" 3
	kept "$name" "$k" "$wd" "$out" "$W/err.$k"
	expect_eq "$name: says so" "$(grep '^clyde: warning: could not remove' "$W/err.$k")" \
		"clyde: warning: could not remove all of $wd: Invalid cross-device link"
	expect_eq "$name: the run's CSV line is printed" "$(grep -c '^1\.98,' "$W/csv.$k")" 1
	expect_eq "$name: the JSON's exit status, no run stopped" \
		"$(grep -o '"exit_status": [0-9]*\|"stopped": [a-z]*' "$W/json.$k" | tail -n 2 | tr '\n' ' ')" \
		'"exit_status": 3 "stopped": null '
	finish "$name" "$k" "$wd" "$d" "$out"
}

for kind in bind rbind robind file; do
	cleanup_case $kind
	run_case $kind
done

# a mount over the tree itself: a dead run's tree outside, bind-mounted
# onto a clyde.* directory that --cleanup then finds
c=$T/c.over out=$T/out.over
name="--cleanup, a mount over the tree"
mkdir -p "$c/clyde.over"
dead_tree "$out"
mkdir "$out/deep" && echo "precious f" >"$out/f" && echo "precious d1" >"$out/deep/d1"
before=$(sig "$out")
if mount --bind "$out" "$c/clyde.over"; then
	"$CLYDE" --cleanup "$c" >"$W/out.over" 2>&1
	expect_eq "$name: exit 3" "$?" 3
	expect_eq "$name: the outside stays whole" "$(sig "$out")" "$before"
	mounted "$c/clyde.over"
	expect_eq "$name: still mounted" "$?" 0
	expect_eq "$name: names the mount, nothing inside it" "$(grep '^clyde:   left: ' "$W/out.over")" \
		"clyde:   left: $c/clyde.over (a mount point: not entered)"
	umount "$c/clyde.over"
	expect_eq "$name: unmounted, the directory beneath as it was" "$(ls -A "$c/clyde.over")" ""
else
	fail "$name: cannot mount over the tree"
fi
done_testing
