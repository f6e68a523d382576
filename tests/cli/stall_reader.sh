#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# The stall reader (src/phases/stall_reader.c): clyde started again by
# posix_spawn, once per run and before the first phase, never forked from
# the threaded process inside a phase; its CPU shown apart from the
# phases' (stall_reader_cpu_s), never in a phase's CPU or its last
# interval's; gone with clyde after a normal run and after a ^C to the
# whole process group; and its hidden argument refused by hand.
. "$TESTLIB"
need_root
need_linux "strace, /proc and a tmpfs"
need_python3 "to read strace's log and the JSON"
need_cmd strace "to see the processes clyde starts"
need_cmd setsid "util-linux, to give clyde a process group of its own"
need_tmpfs 128m
MNT=$SCRATCH
scratch_dir
W=$SCRATCH

# processes LOG: what strace -f's LOG shows of the processes the main
# thread started, against the first phase's text and the last "done"
processes() {
	python3 - "$1" <<'EOF'
import re, sys
lines = open(sys.argv[1]).read().splitlines()
main = lines[0].split()[0]
starts, helpers, first, last = [], [], None, None
for i, line in enumerate(lines):
    pid, _, call = line.partition(" ")
    call = call.lstrip()
    if pid == main and first is None and call.startswith('write(2, "Writing intelligently'):
        first = i
    if pid == main and call.startswith('write(2, "done'):
        last = i
    if pid == main and re.match(r"(clone3?|fork|vfork)\(", call) and "CLONE_THREAD" not in call:
        starts.append(i)
    if call.startswith("execve(") and '"--stall-reader-helper"' in call:
        helpers.append(i)
if first is None or last is None:
    print("no progress texts in the log")
else:
    print("%d started before the phases, %d during them, %d helper execs" %
          (sum(1 for s in starts if s < first), sum(1 for s in starts if first < s < last),
           len(helpers)))
EOF
}

# (a) Every process clyde's main thread starts (clone or clone3 without
# CLONE_THREAD, fork, vfork), with the helper's execve and the phases'
# progress texts in one log, in the order they happened: one, the
# helper, before the first phase ("Writing intelligently...": -f skips
# the per-char phases, whose one-byte writes strace would crawl through),
# none from there to the last phase's "done". In a sanitizer build,
# LeakSanitizer cannot run under ptrace: off for these two runs.
untraced_leaks=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0
ASAN_OPTIONS=$untraced_leaks strace -f -o "$W/trace" \
	-e trace=clone,clone3,fork,vfork,execve,write \
	"$CLYDE" -d "$MNT" -s 8 -r 4 -n 1 -f --interval=100 >"$W/a.out" 2>"$W/a.err"
expect_eq "(a) clyde under strace: exit status" "$?" 0
expect_eq "(a) one process started, the helper, before the first phase" \
	"$(processes "$W/trace")" "1 started before the phases, 0 during them, 1 helper execs"
# no series, no reader: nothing started at all
ASAN_OPTIONS=$untraced_leaks strace -f -o "$W/trace-off" \
	-e trace=clone,clone3,fork,vfork,execve,write \
	"$CLYDE" -d "$MNT" -s 8 -r 4 -n 0 -f --interval=off >"$W/off.out" 2>"$W/off.err"
expect_eq "(a) --interval=off: exit status" "$?" 0
expect_eq "(a) --interval=off: no process started" \
	"$(processes "$W/trace-off")" "0 started before the phases, 0 during them, 0 helper execs"

# (b) A reader made busy (30 ms of CPU after each reading): its CPU is in
# stall_reader_cpu_s, not in the phase's, and not in the phase's last
# interval, where a reader reaped at the phase's end would put it. One
# worker, and one seeker (-s's fourth field; the default is 5, which on 2
# CPUs rightly spend more CPU than the seek phase's time): its phase's CPU
# cannot pass the phase's time.
CLYDE_TEST_STALL_READER_BUSY_MS=30 "$CLYDE" -d "$MNT" -s 8:8k::1 -r 4 -n 0 -c 1 --interval=100 -q \
	--json "$W/b.json" >"$W/b.out" 2>"$W/b.err"
expect_eq "(b) a busy reader: exit status" "$?" 0
res=$(python3 - "$W/b.json" <<'EOF'
import json, sys
run = json.load(open(sys.argv[1]))["runs"][0]
bad, total = [], 0.0
for name, p in run["phases"].items():
    if not isinstance(p, dict) or not p.get("ran"):
        continue
    reader = p.get("stall_reader_cpu_s")
    if reader is None:
        bad.append("%s: no stall_reader_cpu_s" % name)
    else:
        total += reader
    cols = p["series"]["columns"]
    rows = p["series"]["rows"]
    u, s = cols.index("cpu_user_s"), cols.index("cpu_sys_s")
    # the last interval's CPU, over the time since the last reading of CPU before it
    since = 0.0
    for r in rows[:-1]:
        if r[u] is not None:
            since = r[1]
    last = rows[-1]
    cpu = (last[u] or 0) + (last[s] or 0)
    if cpu > last[1] - since + 0.02:
        bad.append("%s: last interval (%.3f s) holds %.3f s of CPU" % (name, last[1] - since, cpu))
    whole = p["cpu_user_s"] + p["cpu_sys_s"]
    if whole > p["cpu_window_s"] * 1.02 + 0.02:
        bad.append("%s: %.3f s of CPU in %.3f s with one worker" % (name, whole, p["cpu_window_s"]))
if total < 0.1:
    bad.append("the busy reader took %.3f s of CPU in all" % total)
print("; ".join(bad) or "apart")
EOF
)
expect_eq "(b) the reader's CPU is apart from the phases'" "$res" apart
# clyde-report reads the document with the new key and without it alike
python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
for p in d["runs"][0]["phases"].values():
    if isinstance(p, dict):
        p.pop("stall_reader_cpu_s", None)
json.dump(d, open(sys.argv[2], "w"))' "$W/b.json" "$W/b-without.json"
"$CLYDE_REPORT" "$W/b.json" >"$W/with.txt" 2>&1
expect_eq "clyde-report: a document with stall_reader_cpu_s" "$?" 0
"$CLYDE_REPORT" "$W/b-without.json" >"$W/without.txt" 2>&1
expect_eq "clyde-report: the same without it" "$?" 0
cmp -s "$W/with.txt" "$W/without.txt" && ok ||
	fail "clyde-report: the key changed the report: $(diff "$W/with.txt" "$W/without.txt")"

# (c) The helper, one child of clyde all run long, named clyde
# --stall-reader-helper; gone the moment clyde has exited, after a run
# that ended and after ^C to clyde's process group (which the helper
# ignores: clyde stops it).
for end in resume sigint; do
	# the last run's stderr goes first (series.sh says why)
	rm -f "$W/resume" "$W/c.err"
	CLYDE_TEST_PAUSE=get_block CLYDE_TEST_RESUME=$W/resume \
		setsid "$CLYDE" -d "$MNT" -s 16 -n 0 -f -q >"$W/c.out" 2>"$W/c.err" &
	cpid=$!
	if ! wait_pause "$W/c.err"; then
		fail "(c) $end: clyde did not pause in the block read"
		kill $cpid
		wait $cpid
		continue
	fi
	expect_eq "(c) $end: clyde leads its process group" "$(ps -o pgid= -p $cpid | tr -d ' ')" \
		"$cpid"
	kid=$(pgrep -P $cpid)
	expect_eq "(c) $end: one child of clyde" "$(echo $kid | wc -w)" 1
	expect_eq "(c) $end: the helper's command line" \
		"$(tr '\0' ' ' <"/proc/$kid/cmdline" 2>/dev/null)" "clyde --stall-reader-helper "
	if [ "$end" = resume ]; then
		touch "$W/resume"
		wait $cpid
		expect_eq "(c) $end: clyde exit status" "$?" 0
	else
		kill -INT "-$cpid" || kill -INT $cpid
		wait $cpid
		expect_eq "(c) $end: clyde exit status" "$?" 5
	fi
	[ -n "$kid" ] && [ ! -e "/proc/$kid" ] && ok ||
		fail "(c) $end: the helper ($kid) is still there: $(ps -o pid,ppid,stat,args -p "$kid")"
	find "$MNT" -mindepth 1 -delete
done

# Its argument by hand, with a file where its board would be: refused,
# the file untouched.
head -c 4096 /dev/zero | tr '\0' x >"$W/board"
"$CLYDE" --stall-reader-helper 3<>"$W/board" 4<>"$W/board" >/dev/null 2>"$W/hand.err"
expect_eq "--stall-reader-helper by hand: exit status" "$?" 1
expect_file_has "--stall-reader-helper by hand: the reason" "$W/hand.err" \
	"clyde: --stall-reader-helper is clyde's own helper, which clyde starts itself"
expect_eq "--stall-reader-helper by hand: the file untouched" "$(tr -d x <"$W/board" | wc -c)" 0
done_testing
