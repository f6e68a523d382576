#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Many clients under mpirun on loop-mounted ext4 (direct-I/O loop devices):
#  1. 4 ranks share one ext4: totals add up to the ranks', the phases'
#     intervals overlap, --cache=drop leaves each rank's file out of the
#     page cache before the reads (at most 5%), nothing is left.
#  2. One rank fails: ranks 0-2 on a large ext4, rank 3 on a small one
#     that is filled behind its back while it pauses in block write. Rank
#     3 fails with ENOSPC and says so; ranks 0-2 stop at the next meeting,
#     exit 3, rank 0 naming rank 3, its host and its error; every rank's
#     files are removed and both filesystems are as they were.
. "$TESTLIB"
need_loops mkfs.ext4
need_mpi
need_python3 "to read the JSON"

scratch_dir
W=$SCRATCH
BIG=$W/big
SMALL=$W/small
mkdir "$BIG" "$SMALL"
# the loop devices go at exit (tests/lib.sh: t_cleanup, loop_detach)
loop_mkfs "$W/big.img" 512M mkfs.ext4 -q -F && mount "$LOOP" "$BIG" || skip "cannot make a loop ext4"
loop_mkfs "$W/small.img" 64M mkfs.ext4 -q -F && mount "$LOOP" "$SMALL" || skip "cannot make a second loop ext4"

# each rank's exit status, as mpirun reports only one
cat >"$W/wrap" <<EOS
#!/bin/sh
"$CLYDE" "\$@"
rc=\$?
echo "rank \${OMPI_COMM_WORLD_RANK:-?} exit \$rc" >>"$W/exits"
exit \$rc
EOS
chmod +x "$W/wrap"

# 1. four ranks on one ext4 (-n 4: file phases long enough to overlap)
mpi_run -np 4 "$W/wrap" -d "$BIG" -s 32:8k:1000 -n 4 -f --json "$W/j1.json" >"$W/out1" 2>"$W/err1"
rc=$?
expect_eq "ext4 4 ranks: exit 0" "$rc" 0
[ "$rc" = 0 ] || cat "$W/err1"
expect_eq "ext4 4 ranks: every rank exits 0" "$(grep -c ' exit 0$' "$W/exits")" 4
expect_eq "ext4 4 ranks: one CSV line, concurrency 4" \
	"$(csv_field "$(grep '^1\.98,' "$W/out1")" 3)" 4
python3 - "$W/j1.json" >"$W/py1" 2>&1 <<'PY'
import json, sys
run = json.load(open(sys.argv[1]))["runs"][0]
bad = []
long_phases, overlapped = [], []
want = {"put_block": 4 * 32 * 1024, "rewrite": 4 * 32 * 1024, "get_block": 4 * 32 * 1024, "seeks": 4000}
for name, p in run["phases"].items():
    if not p["ran"]:
        continue
    ranks = p["cluster"]["ranks_detail"]
    if len(ranks) != 4:
        bad.append(name + ": ranks")
    # phases long enough that 4 ranks on 2 CPUs all get scheduled overlap
    # (most of them: on a loaded machine one rank can end before another starts)
    if p["elapsed_s"] >= 0.05:
        long_phases.append(name)
        if max(r["start_s"] for r in ranks) < min(r["end_s"] for r in ranks):
            overlapped.append(name)
    total = sum(r["amount"] for r in ranks)
    if abs(p["amount"] - total) > 1e-6 * total:
        bad.append(name + ": amount %r, ranks %r" % (p["amount"], total))
    if name in want and p["amount"] != want[name]:
        bad.append(name + ": amount %r, want %r" % (p["amount"], want[name]))
    if "cache" in p and (p["cache"]["resident_pct"] is None or p["cache"]["resident_pct"] > 5):
        bad.append(name + ": resident before the read %r" % p["cache"])
if len(overlapped) < 2 or 2 * len(overlapped) <= len(long_phases):
    bad.append("the ranks overlapped in %r of %r" % (overlapped, long_phases))
if run["cache"]["resident_worst_pct"] is None or run["cache"]["resident_worst_pct"] > 5:
    bad.append("worst residency %r" % run["cache"])
print("\n".join(bad) if bad else "json ok")
PY
expect_eq "ext4 4 ranks: the JSON adds up, the cache was empty" "$(cat "$W/py1")" "json ok"
expect_empty_dir "ext4 4 ranks: nothing left" "$BIG"

# 2. rank 3 fills its small ext4
free_before=$(df -k --output=avail "$SMALL" | tail -n 1)
rm -f "$W/exits"
RES=$W/resume
# mpirun would kill the other ranks' wrappers once one exits non-zero; all must report
mpi_run --mca orte_abort_on_non_zero_status 0 -np 3 "$W/wrap" -d "$BIG" -s 32 -n 0 -f : \
	-np 1 env CLYDE_TEST_PAUSE=put_block CLYDE_TEST_RESUME="$RES" "$W/wrap" -d "$SMALL" -s 32 -n 0 -f \
	>"$W/out2" 2>"$W/err2" &
mp=$!
wait_pause "$W/err2"
expect_eq "full: rank 3 paused in block write" "$(grep -c 'test pause in put_block' "$W/err2")" 1
# fill what is left, then let rank 3 go on into a full filesystem
dd if=/dev/zero of="$SMALL/filler" bs=1M 2>/dev/null
sync
touch "$RES"
wait $mp
expect_eq "full: rank 3 exits 3" "$(grep -c '^rank 3 exit 3$' "$W/exits")" 1
expect_eq "full: ranks 0-2 exit 3" "$(grep -cE '^rank [012] exit 3$' "$W/exits")" 3
expect_match "full: rank 3 says why" "$(grep -v '^clyde: stopped' "$W/err2" | grep 'No space left')" \
	"^clyde: block write: .*/clyde\.r3\.[^/]*/io\.0.*No space left on device; removed $SMALL/clyde\.r3\."
expect_match "full: rank 0 names rank 3, its host and error" "$(grep '^clyde: stopped' "$W/err2")" \
	"^clyde: stopped: rank 3 on [^ ]+ failed: block write: .*No space left on device; removed $BIG/clyde\.r0\."
expect_eq "full: the others are quiet" "$(grep -c '^clyde: stopped' "$W/err2")" 1
expect_eq "full: no CSV" "$(grep -c '^1\.98,' "$W/out2")" 0
rm -f "$SMALL/filler"
sync
expect_empty_dir "full: nothing left on the large ext4" "$BIG"
expect_empty_dir "full: nothing left on the small ext4" "$SMALL"
free_after=$(df -k --output=avail "$SMALL" | tail -n 1)
expect_eq "full: the small ext4's free space as before" "$free_after" "$free_before"
done_testing
