#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# The time series against the delays faultfs (tests/tools/faultfs.c) puts
# on ranges of offsets: every write of the test file over [32, 34) MiB and
# every read over [56, 58) MiB waits 50 ms more, every other read and write
# of it 0.3 ms (so that the fast parts last several intervals on any
# machine). The block write and the block read go through the file in
# order, so their intervals' work says which offsets each covered; with
# fixed intervals of 100 ms (tests/env/series_truth.py range), the
# intervals inside a range do at most one 64 KiB operation per 50 ms (and
# one more), each range lasts at least 31 of its 32 operations' 50 ms
# (the first may begin in the interval before the range's), the
# intervals outside the ranges in which something completed, all but
# one in five (a pause), do more than 3 times one per 50 ms (a
# margin for a loaded machine: faultfs is one thread, and the rewrite's
# chunk is two operations). The rewrite reads and writes each chunk: both
# ranges are slow in it. faultfs counts the writes it delayed: all of the
# block write's and the rewrite's (the seekers write nothing back). And
# every interval against faultfs's log of when it finished each read and
# write (both CLOCK_MONOTONIC): the work clyde counts done by each
# interval's end lies between what faultfs had finished 50 ms before and
# what it had finished then, so an interval in which nothing completed is
# one in which faultfs finished nothing (a pause, measured), never work
# filed in a neighbour.
# About 15 s.
. "$TESTLIB"
FAULTFS_BACKING=160m
. "$(dirname "$TESTLIB")/env/faultfs_lib.sh"
. "$(dirname "$TESTLIB")/env/truth_lib.sh"

# (the first rule that matches fires)
printf '%s\n' "op=write,err=delay,delay_us=50000,path=*io.0,off=32M-34M,count=0" \
	"op=read,err=delay,delay_us=50000,path=*io.0,off=56M-58M,count=0" \
	"op=write,err=delay,delay_us=300,path=*io.0,count=0" \
	"op=read,err=delay,delay_us=300,path=*io.0,count=0" >"$W/ctl.new"
# mount_ffs starts without a control file: the rules go in once mounted
mount_ffs
mv "$W/ctl.new" "$W/ctl"
$tmo "$CLYDE" -d "$M" -s 96:64k:100 --seek-updates=0 -n 0 -f -r 0 --interval=100 -q \
	--json "$W/f.json" >"$W/f.out" 2>"$W/f.err"
expect_eq "clyde over the delaying faultfs: exit status" "$?" 0
expect_eq "faultfs delayed every write of the block write and the rewrite" \
	"$(st 'faults write delay')" 3072
unmount
w="$((32 * 1024)) $((34 * 1024))"
r="$((56 * 1024)) $((58 * 1024))"
# shellcheck disable=SC2086
{
	truth_checks range "$W/f.json" "$W/io.log" put_block 64 0.05 $w
	truth_checks range "$W/f.json" "$W/io.log" rewrite 64 0.05 $w $r
	truth_checks range "$W/f.json" "$W/io.log" get_block 64 0.05 $r
}
done_testing
