#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# The seekers take their tickets from the shared pool in batches: which
# chunks a run seeks and which of its seeks write back depend on the
# tickets alone, whatever the number of seekers. strace -f sees every
# pread64 and pwrite64 of a chunk in a run (strace -ff): with the same seed, one seeker and three
# read the same offsets as often and write as often, and a count that is
# no multiple of a batch is done exactly, its updates (one ticket in ten:
# 0, 10, ... 1000 of 1001) 101 writes more than a run without updates.
. "$TESTLIB"
need_linux "strace's Linux system call names"
need_cmd strace "Debian package strace"
scratch_dir
W=$SCRATCH
strace -f -o "$W/probe" true 2>"$W/probe.err" ||
	skip "strace cannot trace here: $(head -n 1 "$W/probe.err")"
SEEKS=1001

# traced N UPDATES: the run's pread64 offsets sorted (one a line) in
# $W/reads.N.U and its pwrite64 count in $W/writes.N.U
traced() {
	mkdir "$W/d.$1.$2"
	# -ff: a file per thread, so that no call is split by another thread's
	mkdir "$W/st.$1.$2"
	# LeakSanitizer (the sanitizer build) cannot run under ptrace: off for the traced runs
	ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
		strace -ff -qq -e trace=pread64,pwrite64 -o "$W/st.$1.$2/t" "$CLYDE" -d "$W/d.$1.$2" \
		-s 4M:8k:$SEEKS:$1 -n 0 -f --exact -q -z 11 --seek-updates=$2 \
		--cache=keep >"$W/out.$1.$2" 2>"$W/err.$1.$2"
	rc=$?
	[ $rc = 0 ] || { fail "clyde with $1 seekers: exit $rc: $(tail -n 3 "$W/err.$1.$2")"; return; }
	cat "$W/st.$1.$2"/t.* >"$W/st.$1.$2.all"
	sed -n 's/^pread64([0-9]*, .*, 8192, \([0-9]*\)) = 8192$/\1/p' "$W/st.$1.$2.all" |
		sort -n >"$W/reads.$1.$2"
	grep -c '^pwrite64(.*, 8192, [0-9]*) = 8192$' "$W/st.$1.$2.all" >"$W/writes.$1.$2"
}

traced 1 10
traced 3 10
traced 3 0
w1=$(cat "$W/writes.1.10")
w3=$(cat "$W/writes.3.10")
w0=$(cat "$W/writes.3.0")
n1=$(wc -l <"$W/reads.1.10")
expect_eq "one seeker and three read as many chunks ($n1)" \
	"$n1" "$(($(wc -l <"$W/reads.3.0")))"
expect_eq "three seekers read the same offsets as often as one" \
	"$(cksum <"$W/reads.3.10")" "$(cksum <"$W/reads.1.10")"
expect_eq "three seekers write as often as one" "$w3" "$w1"
expect_eq "ticket t writes when t mod 10 is 0: 101 writes of 1001 seeks" "$((w3 - w0))" 101
# the rewrite and the block read each read 4 MiB in 8 KiB chunks: the rest are the seeks
expect_eq "every seek done once" "$((n1 - 1024))" $SEEKS
done_testing
