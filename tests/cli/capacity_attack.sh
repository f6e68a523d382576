#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# What --latency-target and --open-loop make, remove and write as root:
# (a) ENOSPC in the middle of the capacity's creates (a tmpfs short of
# inodes; one short of pages, where a delete's pool file is made but not
# written): an error status, a message naming the capacity and the
# space, no warning of a capacity.N kept, and -d empty; (b) SIGINT during
# an open-loop step and while a delete window's pool is made: exit 5
# within seconds, -d empty; (c) --open-loop-log: a symbolic link or a hard
# link planted at its path to a file elsewhere, or a FIFO there, is
# refused with status 1 and the file elsewhere is whole; the log's
# directory swapped for a link to elsewhere during the run changes
# nothing (the file is opened once, before the run): nothing appears
# elsewhere and the file opened holds every line, its old bytes gone.
. "$TESTLIB"
need_root
need_linux "tmpfs with nr_inodes"
need_python3 "to read the JSON"
private_mounts "$@"
scratch_dir
W=$SCRATCH
OUT=$W/outside
mkdir "$OUT"
echo "precious" >"$OUT/victim"
sig() { (cd "$OUT" && find . | LC_ALL=C sort && find . -type f | LC_ALL=C sort | xargs cat); }
sig0=$(sig)

# (a) inodes: the phase's 1024 files fit in 1536; the open loop's 1000
# creates on top of them do not
need_tmpfs 8m nr_inodes=1536
D=$SCRATCH
"$CLYDE" -d "$D" -s 0 -n 1:0:0:1 --open-loop=2000 --capacity-step=0.5 \
	--capacity-phases=seq_create >"$W/a1.out" 2>"$W/a1.err"
rc=$?
check "ENOSPC (inodes): an error status ($rc)" test "$rc" != 0 -a "$rc" != 8
expect_file_has "ENOSPC (inodes): names the capacity" "$W/a1.err" \
	"sequential create: capacity (create): create "
expect_file_has "ENOSPC (inodes): says why" "$W/a1.err" "No space left on device"
check "ENOSPC (inodes): no capacity.N kept" sh -c "! grep -q 'cannot remove' '$W/a1.err'"
expect_empty_dir "ENOSPC (inodes)" "$D"

# pages: 1024 files of 1 KiB take a page each, 4 MiB of 6; a delete
# step's pool of 2000 does not fit, and the file whose write fails was
# made: it must go too, or capacity.N cannot be removed
need_tmpfs 6m
D=$SCRATCH
"$CLYDE" -d "$D" -s 0 -n 1:1k:1k:1 --open-loop=4000 --capacity-step=0.5 \
	--capacity-phases=seq_del >"$W/a2.out" 2>"$W/a2.err"
rc=$?
check "ENOSPC (pages): an error status ($rc)" test "$rc" != 0 -a "$rc" != 8
expect_file_has "ENOSPC (pages): names the capacity" "$W/a2.err" \
	"sequential delete: capacity (delete): create "
expect_file_has "ENOSPC (pages): says why" "$W/a2.err" "No space left on device"
check "ENOSPC (pages): capacity.N removed by the capacity itself" \
	sh -c "! grep -q 'cannot remove' '$W/a2.err'"
expect_empty_dir "ENOSPC (pages)" "$D"

# (b) SIGINT once the capacity's directory is there
need_tmpfs 64m
D=$SCRATCH
# wait_capacity: until clyde's capacity.N shows in -d, at most a minute; 1 when it never did
wait_capacity() {
	wc_n=0
	until ls -d "$D"/*/capacity.* >/dev/null 2>&1; do
		[ $wc_n -ge 1200 ] && return 1
		sleep 0.05
		wc_n=$((wc_n + 1))
	done
}
# interrupt NAME ARGS...: clyde ARGS, SIGINT once capacity.N shows; its
# status in rc, the seconds from the signal to its end in took
interrupt() {
	name=$1
	shift
	"$CLYDE" -d "$D" -s 0 "$@" >"$W/$name.out" 2>"$W/$name.err" &
	pid=$!
	if wait_capacity; then
		sleep 0.2
		t0=$(date +%s)
		kill -INT $pid
	else
		fail "$name: no capacity.N in $D"
		t0=$(date +%s)
	fi
	wait $pid
	rc=$?
	took=$(($(date +%s) - t0))
}
# a step of 30 s at 50/s, 5 slots: each sleeps at most 5 gaps (0.1 s) for
# its ticket, then sees the signal; 5 s leaves a loaded machine room
interrupt b1 -n 1:0:0:1 --open-loop=50 --capacity-step=30 --capacity-phases=seq_create
expect_eq "SIGINT in an open-loop step: exit 5" "$rc" 5
check "SIGINT in an open-loop step: stopped within 5 s (took $took)" test "$took" -le 5
expect_file_has "SIGINT in an open-loop step: says so" "$W/b1.err" "stopped by a signal"
expect_empty_dir "SIGINT in an open-loop step" "$D"
# a delete window of 3 s is given a pool of 15 s of the phase's deletes
# (made untimed, before the window: tens of seconds here)
interrupt b2 -n 1:0:0:1 --latency-target=p50:1s --capacity-step=3 --capacity-max=2 \
	--capacity-phases=seq_del
expect_eq "SIGINT while a delete pool is made: exit 5" "$rc" 5
check "SIGINT while a delete pool is made: stopped within 5 s (took $took)" test "$took" -le 5
expect_empty_dir "SIGINT while a delete pool is made" "$D"

# (c) the log's path
L=$W/logs
mkdir "$L"
logrefused() {
	what=$1
	want=$2
	"$CLYDE" -d "$D" -s 0 -n 1:0:0:1 --open-loop=100 --capacity-step=0.2 \
		--capacity-phases=seq_create --open-loop-log="$L/ol.log" >"$W/c.out" 2>"$W/c.err"
	expect_eq "$what at the log's path: exit 1" "$?" 1
	expect_file_has "$what at the log's path: says why" "$W/c.err" "$want"
	expect_eq "$what at the log's path: the file elsewhere is whole" "$(sig)" "$sig0"
	expect_empty_dir "$what at the log's path" "$D"
	rm -f "$L/ol.log"
}
ln -s "$OUT/victim" "$L/ol.log"
logrefused "a symbolic link" "is a symbolic link: clyde does not follow it"
ln -s "$OUT/newfile" "$L/ol.log"
logrefused "a dangling symbolic link" "is a symbolic link: clyde does not follow it"
ln "$OUT/victim" "$L/ol.log"
logrefused "a hard link" "has other hard links"
mkfifo "$L/ol.log"
# a FIFO without a reader would block an open for writing: a timeout says so
if command -v timeout >/dev/null 2>&1; then
	timeout 60 "$CLYDE" -d "$D" -s 0 -n 1:0:0:1 --open-loop=100 --capacity-step=0.2 \
		--capacity-phases=seq_create --open-loop-log="$L/ol.log" >"$W/c.out" 2>"$W/c.err"
	expect_eq "a FIFO at the log's path: exit 1 (124: it blocked)" "$?" 1
	expect_file_has "a FIFO at the log's path: says why" "$W/c.err" "is not a regular file"
	expect_empty_dir "a FIFO at the log's path" "$D"
fi
rm -f "$L/ol.log"

# the log's directory swapped for a link to elsewhere while the run is on
mkdir "$L/dir"
echo "old bytes, longer than a line of the log, which must not stay at its end ....." \
	>"$L/dir/ol.log"
"$CLYDE" -d "$D" -s 0 -n 1:0:0:1 --open-loop=50,50 --capacity-step=1 --capacity-phases=seq_create \
	--open-loop-log="$L/dir/ol.log" --json "$W/c.json" >"$W/c.out" 2>"$W/c.err" &
pid=$!
if wait_capacity; then
	mv "$L/dir" "$L/moved" && ln -s "$OUT" "$L/dir"
else
	fail "swap: no capacity.N in $D"
fi
wait $pid
expect_eq "the log's directory swapped: exit status" "$?" 0
expect_eq "the log's directory swapped: nothing written elsewhere" "$(sig)" "$sig0"
sched=$(python3 -c 'import json, sys
ol = json.load(open(sys.argv[1]))["runs"][0]["phases"]["seq_create"]["capacity"]["open_loop"]
print(sum(s["scheduled"] for s in ol["steps"]))' "$W/c.json")
expect_eq "the file opened holds each request's line" "$(wc -l <"$L/moved/ol.log" | tr -d ' ')" \
	"$sched"
check "its old bytes are gone" sh -c "! grep -q 'old bytes' '$L/moved/ol.log'"
expect_empty_dir "the log's directory swapped" "$D"
done_testing
