# SPDX-License-Identifier: BSD-2-Clause
# Sourced by the --profile tests on loop filesystems (tests/env/profile_loop.sh,
# tests/env/profile_btrfs.sh) after tests/lib.sh and need_loops: sets W
# (scratch) with its mount point W/mnt; gives field. The loop devices:
# tests/lib.sh's loop_mkfs and loop_detach.
need_python3 "to read the JSON"

scratch_dir
W=$SCRATCH
mkdir "$W/mnt"

# field JSON PHASE PYTHON-EXPRESSION-OF-p: a value of the phase's profile
field() {
	python3 -c 'import json,sys; p=json.load(open(sys.argv[1]))["runs"][0]["phases"][sys.argv[2]]["profile"]; print(eval(sys.argv[3]))' "$1" "$2" "$3"
}
