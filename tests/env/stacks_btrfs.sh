#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# --profile=stacks against an independent profiler: on btrfs with
# compress=zstd, during the block write, the share of the machine's busy
# samples that clyde's put_block.folded gives to zstd's compression
# (frames ZSTD_* or zstd_*) and to btrfs's own functions (btrfs_*) is
# within 5 points of what `perf record -a -g` gives them over the same
# window. perf is started while clyde waits at the block write's first
# completion (CLYDE_TEST_PAUSE) and stopped at the pause after the block
# write's window closed (after-put_block), before clyde reads its rings;
# the block write ends with fsync inside its timing, so that the
# compression of its writeback is inside the window, not after it.
# perf's stacks are folded here, by this script alone, from `perf script`.
# Both count the busy samples of the phase's work: another program's
# (clyde counts them apart; here a task with a user-space frame in any
# sample that is not clyde) are left out, so that a build or a CPU hog
# beside the test moves neither share.
. "$TESTLIB"
need_loops mkfs.btrfs
need_cmd perf "Debian's linux-perf"
need_python3 "to fold perf's stacks"
scratch_dir
W=$SCRATCH
mkdir "$W/mnt" "$W/flame"

if ! loop_mkfs "$W/img" 2G mkfs.btrfs -q -f; then
	fail "a loop device with mkfs.btrfs -q -f on $W/img (above)"
	done_testing
fi
mount -o compress=zstd "$LOOP" "$W/mnt" 2>"$W/mount.err" ||
	skip "cannot mount btrfs (no btrfs in this kernel?): $(cat "$W/mount.err")"

# perf's own samples are no part of the phase's work: both sides leave out
# tasks named perf*, and the idle task
CLYDE_TEST_PAUSE=put_block:after-put_block CLYDE_TEST_RESUME=$W/go \
	"$CLYDE" -d "$W/mnt" -s 512 -n 0 -f --data=compressible:50 --stack-hz=499 \
	--flame "$W/flame" >"$W/c.out" 2>"$W/c.err" &
pid=$!
if ! wait_pause "$W/c.err" 1; then
	kill "$pid" 2>/dev/null
	wait "$pid"
	fail "clyde paused in the block write (stderr below)"
	sed 's/^/    /' "$W/c.err"
	done_testing
fi
perf record -a -g -F 499 -o "$W/perf.data" >"$W/perf.out" 2>&1 &
perf_pid=$!
# perf writes its header once its events are open: then the window begins
n=0
while [ ! -s "$W/perf.data" ] && [ $n -lt 200 ]; do
	sleep 0.05
	n=$((n + 1))
done
sleep 0.2
touch "$W/go"
wait_pause "$W/c.err" 2
kill -INT "$perf_pid"
wait "$perf_pid"
touch "$W/go"
wait "$pid"
rc=$?
expect_eq "clyde on btrfs zstd with --profile=stacks" "$rc" 0
[ $rc = 0 ] || { sed 's/^/    /' "$W/c.err"; done_testing; }
check "put_block.folded written" test -s "$W/flame/put_block.folded"
perf script -i "$W/perf.data" -F comm,tid,ip,sym >"$W/perf.txt" 2>"$W/perf.err"
check "perf script read perf's samples" test -s "$W/perf.txt"

# shares FILE KIND: "zstd btrfs samples" of the busy samples not perf's;
# KIND folded (clyde's lines) or perf (perf script's blocks, folded here)
shares() {
	python3 - "$1" "$2" <<'EOF'
import re, sys
path, kind = sys.argv[1], sys.argv[2]
zstd = re.compile(r'(^|;)(ZSTD_|zstd_)')
btrfs = re.compile(r'(^|;)btrfs_')
stacks = []
if kind == 'folded':
    for line in open(path):
        text, _, count = line.rstrip('\n').rpartition(' ')
        stacks.append((text.split(';')[0], text, int(count)))
else:
    # a sample: "comm tid" then one "ip sym" line a frame, innermost first
    user_tids = set()
    for block in open(path, errors='replace').read().split('\n\n'):
        lines = [l for l in block.split('\n') if l.strip()]
        if not lines:
            continue
        head = lines[0].strip().rsplit(None, 1)
        comm, tid = (head[0], head[1]) if len(head) == 2 else (head[0], '?')
        if tid == '0':
            continue
        syms = []
        for l in reversed(lines[1:]):
            parts = l.split(None, 1)
            sym = parts[1] if len(parts) == 2 else '[unknown]'
            syms.append(re.sub(r'\+0x[0-9a-f]+$', '', sym.strip()))
            try:
                if int(parts[0], 16) < 0xffff800000000000:
                    user_tids.add(tid)
            except ValueError:
                pass
        stacks.append((comm, comm + ';' + ';'.join(syms), 1, tid))
    # a task with a frame in user space in any sample is a program, not a
    # kernel thread: another program's samples are not the phase's work
    # (clyde counts them apart), so they leave the count here too
    stacks = [s[:3] for s in stacks if s[3] not in user_tids or s[0].startswith('clyde')]
busy = z = b = 0
for comm, text, n in stacks:
    if comm.startswith('perf') or comm.startswith('swapper'):
        continue
    busy += n
    z += n if zstd.search(text) else 0
    b += n if btrfs.search(text) else 0
print(f"{100.0 * z / max(busy, 1):.1f} {100.0 * b / max(busy, 1):.1f} {busy}")
EOF
}
set -- $(shares "$W/flame/put_block.folded" folded)
c_zstd=$1 c_btrfs=$2 c_busy=$3
set -- $(shares "$W/perf.txt" perf)
p_zstd=$1 p_btrfs=$2 p_busy=$3
echo "    clyde: zstd $c_zstd%, btrfs $c_btrfs% of $c_busy busy samples"
echo "    perf:  zstd $p_zstd%, btrfs $p_btrfs% of $p_busy busy samples"
# enough samples on each side that 5 points is not noise, and compression seen at all
check "clyde sampled the phase ($c_busy busy samples, 200 or more)" test "$c_busy" -ge 200
check "perf sampled the phase ($p_busy busy samples, 200 or more)" test "$p_busy" -ge 200
# 11% to 30% measured here beside other work (whose samples count as busy on
# both sides): 6% or more, so that a clyde that named no zstd frame is off by more than 5
check "perf saw zstd's frames in 6% or more of the block write ($p_zstd%)" \
	awk -v p="$p_zstd" 'BEGIN { exit !(p >= 6) }'
within5() {
	awk -v a="$1" -v b="$2" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= 5) }'
}
check "zstd's share: clyde $c_zstd% within 5 points of perf's $p_zstd%" within5 "$c_zstd" "$p_zstd"
check "btrfs's share: clyde $c_btrfs% within 5 points of perf's $p_btrfs%" \
	within5 "$c_btrfs" "$p_btrfs"
loop_detach
done_testing
