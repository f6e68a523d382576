#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# --tree on ext4 made here on a direct-I/O loop device (tests/env/tree_xfs.sh
# and tests/env/tree_btrfs.sh: the same on xfs and btrfs), two shapes, psync
# and (where built) io_uring. Each run's five phases do the listing's work,
# --cache=drop leaves at most 5% of the tree in the page cache before the
# copy and the read, and nothing is left. Then a tree that fits once but
# not twice: the copy fails with ENOSPC (exit 3, said), and both trees are
# removed.
. "$TESTLIB"
need_loops mkfs.ext4
. "$(dirname "$TESTLIB")/env/tree_loop_lib.sh"

# 1. ext4: every shape and engine
tree_fs_runs ext4 mkfs.ext4 -q -F

# 2. ENOSPC in the copy: a 64 MiB ext4 (no blocks kept for root: clyde
# runs as root) and a tree of 55% to 68% of its free space
if loop_mkfs "$W/img" 64M mkfs.ext4 -q -F -m 0 && mount "$LOOP" "$MNT"; then
	avail=$(df -B1 --output=avail "$MNT" | tail -n 1 | tr -d ' ')
	spec=""
	# the source shape's tail (files to 24 MB) makes the bytes jump with the
	# scale: try seeds too
	for s in 0.1 0.12 0.14 0.16 0.18 0.2; do
		for seed in 1 2 3 4 5 6 7 8 9 10 11 12; do
			"$CLYDE" --tree=source:$s --tree-seed=$seed --tree-list >"$W/l.full" 2>/dev/null
			b=$(stats "$W/l.full" | cut -d' ' -f3)
			if [ $((b * 100)) -ge $((avail * 55)) ] && [ $((b * 100)) -le $((avail * 68)) ]; then
				spec="source:$s --tree-seed=$seed"
				break 2
			fi
		done
	done
	if [ -z "$spec" ]; then
		fail "ENOSPC: no source scale gives 55% to 68% of $avail bytes"
	else
		echo "ENOSPC: --tree=$spec: $b bytes of $avail free"
		for io in $ENGINES; do
			"$CLYDE" -d "$MNT" -s 0 -n 0 --tree=$spec --engine=$io >"$W/o" 2>"$W/e"
			rc=$?
			expect_eq "ENOSPC $io: exit status 3" "$rc" 3
			expect_eq "ENOSPC $io: the extract finished" "$(grep -c '^Extracting the tree\.\.\.done' "$W/e")" 1
			expect_match "ENOSPC $io: said in the copy" "$(grep '^clyde: tree copy' "$W/e")" \
				'^clyde: tree copy: .*No space left on device'
			expect_eq "ENOSPC $io: no CSV line" "$(grep -c '^1\.98,' "$W/o")" 0
			expect_empty_dir "ENOSPC $io: nothing left" "$MNT"
			expect_eq "ENOSPC $io: the space is back" \
				"$(df -B1 --output=avail "$MNT" | tail -n 1 | tr -d ' ')" "$avail"
			[ $rc = 3 ] || sed 's/^/    /' "$W/e"
		done
	fi
else
	fail "ENOSPC: cannot make a 64 MiB ext4"
fi
loop_detach
tree_nothing_left

done_testing
