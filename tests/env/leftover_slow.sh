#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# The time bounds of the look for leftovers (src/clyde/leftover.c), on
# faultfs whose delays stand in for a cold disk or a planted tree that is
# slow to read (tests/cli/leftover_attack.sh has the entries bound):
# - a tree whose every entry takes 100 ms a stat, 60 of them (a lookup
#   through FUSE stats more than once: counting it whole took 14 s): its
#   size is counted for LEFTOVER_COUNT_SECONDS (1 s) and shown as "at
#   least", with how many entries were counted;
# - 50 clyde.* directories whose markers take 100 ms each to open (5 s
#   to read them all): before a run clyde stops reading them after
#   LEFTOVER_SCAN_SECONDS (2 s), says so, and the run goes on.
. "$TESTLIB"
FAULTFS_BACKING=32m
. "$(dirname "$TESTLIB")/env/faultfs_lib.sh"
host=$(hostname)
boot=$(cat /proc/sys/kernel/random/boot_id 2>/dev/null)

# marker DIR: a run on another host's, so that it is kept and only looked at
marker() {
	printf 'clyde-marker 1\npid 999999\nhost not-%s\nboot %s\nstart 1\ntime 0\ncmd fake\n' \
		"$host" "$boot" >"$1/.clyde-run"
}
# took CMD...: run it, output in $W/out; the seconds it took in $took
took() {
	t0=$(date +%s%N)
	"$@" >"$W/out" 2>&1
	rc=$?
	took=$((($(date +%s%N) - t0) / 1000000))
	return $rc
}

mkdir "$B/clyde.slow"
marker "$B/clyde.slow"
for i in $(seq 60); do
	: >"$B/clyde.slow/f$i"
done
mount_ffs --rule "op=stat,err=delay,delay_us=100000,path=clyde.slow/*,count=0"
took "$CLYDE" --cleanup "$M"
expect_eq "a slow tree: --cleanup exit 0" "$rc" 0
line=$(grep 'clyde\.slow' "$W/out")
expect_match "a slow tree: too large to inspect, its first entries counted" "$line" \
	"^clyde: kept $M/clyde\\.slow \\(at least [0-9.]+ [A-Za-z]+: too large to inspect, its first [0-9]+ entries counted, the rest not; "
counted=$(printf '%s\n' "$line" | sed -n 's/.*its first \([0-9]*\) entries counted.*/\1/p')
echo "a slow tree: ${counted:-?} of 60 entries counted, --cleanup took $took ms"
if [ "${counted:-60}" -lt 60 ]; then ok; else fail "a slow tree: counted ${counted:-?} of 60 entries"; fi
# whole: at least 60 stats of 100 ms, 6 s; bounded: 1 s and what starting takes
if [ "$took" -lt 4000 ]; then ok; else fail "a slow tree: --cleanup took $took ms (a whole count takes 6000 or more)"; fi
unmount
rm -rf "$B/clyde.slow"

for i in $(seq 10 59); do
	mkdir "$B/clyde.m$i"
	marker "$B/clyde.m$i"
done
mount_ffs --rule "op=open,err=delay,delay_us=100000,path=clyde.m*/.clyde-run,count=0"
# -s past the 32 MiB the backing holds: the run stops at the free-space
# check, after the look for leftovers, before writing anything
took "$CLYDE" -d "$M" -s 1024 -n 0 -f
expect_eq "many slow markers: the run goes on to the space check (exit 2)" "$rc" 2
expect_file_has "many slow markers: it said it stopped looking" "$W/out" \
	"clyde: note: stopped looking for what killed runs left in $M after 2 s: too many clyde.* directories to read before every run; clyde --cleanup reads them all"
expect_file_has "many slow markers: then the space check" "$W/out" "too little free space"
opened=$(st "ops open")
echo "many slow markers: $opened opens, the run took $took ms"
if [ "$opened" -lt 50 ]; then ok; else fail "many slow markers: $opened opens, all 50 markers read"; fi
if [ "$took" -lt 4000 ]; then ok; else fail "many slow markers: took $took ms (reading all takes 5000)"; fi
unmount
expect_eq "faultfs exit status" "$RC" 0

done_testing
