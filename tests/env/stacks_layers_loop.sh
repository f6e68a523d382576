#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# --profile=stacks with --profile=layers: the BPF programs are loaded
# after the sampler read /proc/kallsyms, so it reads it again and their
# JIT code has its own names in the stacks (bpf_prog_TAG_NAME), in the
# layer "profiler" with the kernel's dispatch to them, instead of being
# given to the last kernel symbol before them (_einittext on x86). An
# ext4 on a direct-I/O loop device, O_DIRECT 4 KiB writes: a request an
# operation, each running the programs.
. "$TESTLIB"
need_loops mkfs.ext4
need_python3 "to read the JSON"
"$CLYDE" --version | grep -q ', bpf yes' || skip "clyde built without BPF (--with-bpf)"
scratch_dir
W=$SCRATCH
mkdir "$W/mnt" "$W/flame"
CLYDE_LAYERS=$LAYERS_TABLE
export CLYDE_LAYERS
if ! loop_mkfs "$W/img" 256M mkfs.ext4 -q -F; then
	fail "a loop device with mkfs.ext4 on $W/img (above)"
	done_testing
fi
mount "$LOOP" "$W/mnt" || { fail "mount $LOOP"; done_testing; }
"$CLYDE" -d "$W/mnt" -s 64M:4k:2000:1 -r 32M -D -f -n 0 -q --profile=stacks,layers \
	--stack-hz=2999 --flame "$W/flame" --json "$W/l.json" >"$W/l.out" 2>"$W/l.err"
rc=$?
expect_eq "--profile=stacks,layers on a loop device: exit status" "$rc" 0
[ $rc = 0 ] || sed 's/^/    /' "$W/l.err"
grep -q 'BPF programs took' "$W/l.err" ||
	skip "the BPF programs did not load here: $(grep 'profile=layers' "$W/l.err")"
prog=$(cat "$W"/flame/*.folded | grep -c ';bpf_prog_[0-9a-f]*_[A-Za-z0-9_]*_\[k\]')
echo "    stacks with a BPF program's frame: $prog"
check "the programs' frames named by their JIT symbols" test "$prog" -gt 0
expect_eq "no frame given to the symbol before the JIT code" \
	"$(cat "$W"/flame/*.folded | grep -c '_einittext_\[k\]')" 0
expect_match "the block write's layers have the profiler's" \
	"$(python3 -c 'import json, sys
st = json.load(open(sys.argv[1]))["runs"][0]["phases"]["put_block"]["profile"]["stacks"]
print(" ".join("%s=%d" % (l["layer"], l["samples"]) for l in st["layers"]))' "$W/l.json")" \
	'profiler=[1-9]'
umount "$W/mnt"
loop_detach
done_testing
