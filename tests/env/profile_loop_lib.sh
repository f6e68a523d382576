# SPDX-License-Identifier: BSD-2-Clause
# Sourced by the --profile tests on loop filesystems (tests/env/profile_loop.sh,
# tests/env/profile_btrfs.sh) after tests/lib.sh and need_loops: sets W
# (scratch) with its mount point W/mnt; gives mkloop, detach (always, by
# trap) and field.
command -v python3 >/dev/null || skip "python3 is needed to read the JSON"

scratch_dir
W=$SCRATCH
LOOP=""
detach() {
	[ -n "$LOOP" ] && { umount "$W/mnt" 2>/dev/null; losetup -d "$LOOP"; }
	LOOP=""
	rm -f "$W/img"
}
trap 'detach; t_cleanup' EXIT
mkdir "$W/mnt"

# mkloop SIZE MKFS...: a filesystem on a fresh direct-I/O loop device (LOOP),
# not mounted; what MKFS said is in $W/mkfs.out
mkloop() {
	size=$1
	shift
	truncate -s "$size" "$W/img" && LOOP=$(losetup --direct-io=on -f --show "$W/img") &&
		"$@" "$LOOP" >"$W/mkfs.out" 2>&1
}

# field JSON PHASE PYTHON-EXPRESSION-OF-p: a value of the phase's profile
field() {
	python3 -c 'import json,sys; p=json.load(open(sys.argv[1]))["runs"][0]["phases"][sys.argv[2]]["profile"]; print(eval(sys.argv[3]))' "$1" "$2" "$3"
}
