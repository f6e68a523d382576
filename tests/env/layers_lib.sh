# SPDX-License-Identifier: BSD-2-Clause
# Sourced by the tests of --profile=layers against a device whose service
# time is known (tests/env/layers_faultfs.sh, tests/env/layers_throttle.sh),
# after tests/lib.sh and tests/env/faultfs_lib.sh: skips where clyde was
# built without BPF or loop devices are missing; gives
#   layers_loop      faultfs mounted, a direct-I/O loop device (LOOP, its
#                    MAJ:MIN in DEV) on its file img, ext4 on it at W/l, then
#                    every read and write of img delayed by DELAY_US
#   layers_run OUT [PREFIX...]  clyde's block phases and seeks there, with
#                    O_DIRECT and one seeker (-s LAYERS_SIZE -r LAYERS_RAM),
#                    --profile=layers --json OUT (its text in OUT.txt, its
#                    stderr in OUT.err), run by PREFIX (in_group ...) where given
#   truth_checks ARGS...  tests/env/layers_truth.py ARGS: its CHECK lines
#                    counted as checks (tests/env/truth_lib.sh's, pointed here)
# and the trap that takes it all down in order, the throttle's rules (when
# the test sourced tests/env/throttle_lib.sh first) with it: the ext4 and
# the loop device first, then faultfs, which the loop holds open.
"$CLYDE" --version | grep -q ', bpf yes' ||
	skip "clyde was built without BPF (configure --with-bpf: libbpf-dev, bpftool, clang)"
need_loops mkfs.ext4
# 20 ms: what a request spends beyond faultfs's sleep (FUSE's round trip,
# the loop's worker and faultfs waking) was 0.6 to 0.9 ms with the other
# builds beside the test and 1.7 ms under a heavier load, 17% of a 10 ms
# delay and past the 15% the checks allow; of 20 ms it is 8%
DELAY_US=20000
# -s: 4 MiB in 64 KiB chunks, 100 seeks, one seeker (a test may ask for less)
LAYERS_SIZE=${LAYERS_SIZE:-4M:64k:100:1}
LAYERS_RAM=${LAYERS_RAM:-2M}
. "$(dirname "$TESTLIB")/env/truth_lib.sh"
TRUTH=$(dirname "$TESTLIB")/env/layers_truth.py

layers_cleanup() {
	loop_detach
	unmount
	command -v throttle_cleanup >/dev/null 2>&1 && throttle_cleanup
	t_cleanup
}
trap layers_cleanup EXIT

layers_loop() {
	mount_ffs
	mkdir "$W/l"
	# no delay yet: mkfs writes the whole journal and inode tables
	if ! loop_mkfs "$M/img" 64M mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 ||
		! mount "$LOOP" "$W/l"; then
		fail "ext4 on a loop device on faultfs: cannot make it"
		done_testing
	fi
	# with direct I/O the loop sends each request to faultfs as it came;
	# buffered, FUSE's direct_io (faultfs's files) keeps the page cache out too
	echo "loop direct I/O on a FUSE file: $(cat "/sys/block/${LOOP#/dev/}/loop/dio" 2>/dev/null)"
	DEV=$(printf '%d:%d' "0x$(stat -c %t "$LOOP")" "0x$(stat -c %T "$LOOP")")
	for op in read write; do
		echo "op=$op,err=delay,delay_us=$DELAY_US,path=img,count=0"
	done >"$W/ctl.new" && mv "$W/ctl.new" "$W/ctl"
}

layers_run() {
	lr_out=$1
	shift
	# 64 KiB chunks: a request is one FUSE read or write (at most 128 KiB), one delay
	"$@" $tmo "$CLYDE" -d "$W/l" -s "$LAYERS_SIZE" -r "$LAYERS_RAM" -D -f -n 0 --profile=layers \
		--json "$lr_out" >"$lr_out.txt" 2>"$lr_out.err"
	lr_rc=$?
	expect_eq "clyde --profile=layers on the loop device: exit status" "$lr_rc" 0
	[ "$lr_rc" = 0 ] || sed 's/^/    /' "$lr_out.err"
}
