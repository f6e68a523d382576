#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Where clyde-getc-putc's rows run, as the kernel sees it (strace -f): the
# no-thread rows in a process exec'd afresh in --helper mode, which never
# clones and does the stdio writes on the file's descriptor; the main
# process's one thread (CLONE_THREAD) started only after the helper
# exited, for the threaded rows.
. "$TESTLIB"
GP=${CLYDE_GETC_PUTC:-$(dirname "$CLYDE")/clyde-getc-putc}
need_built "$GP" "clyde-getc-putc"
need_linux "strace's Linux system call names"
need_cmd strace "Debian package strace"
scratch_dir
W=$SCRATCH
mkdir "$W/d"
strace -f -o "$W/probe" true 2>"$W/probe.err" ||
	skip "strace cannot trace here: $(head -n 1 "$W/probe.err")"

# LeakSanitizer (the sanitizer build) cannot run under ptrace, and would
# clone at exit to look for leaks: off for the traced run
ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
	strace -f -e trace=execve,clone,clone3,fork,vfork,write -o "$W/st" \
	"$GP" -q -d "$W/d" -s 64k >/dev/null 2>"$W/err"
expect_eq "traced run: exit status" "$?" 0
main=$(head -n 1 "$W/st" | cut -d' ' -f1)
helper_exec=$(grep 'execve(.*"--helper"' "$W/st")
expect_eq "one exec of the helper" "$(printf '%s\n' "$helper_exec" | grep -c .)" 1
helper=$(printf '%s\n' "$helper_exec" | cut -d' ' -f1)
spec=$(printf '%s\n' "$helper_exec" | sed 's/.*"--helper", "\([0-9]*:[0-9]*\)".*/\1/')
fd=${spec%%:*}
expect_match "the helper is another process" "$helper" '^[0-9]+$'
[ "$helper" != "$main" ] && ok || fail "the helper runs in the main process ($main)"
expect_eq "the helper's bytes: the 64 KiB file" "${spec#*:}" 65536
expect_eq "the helper never clones" \
	"$(grep -E "^$helper +(clone|clone3|fork|vfork)\(" "$W/st" | grep -c .)" 0
# putc's 64 KiB through stdio's buffer: writes of whole buffers on the file
puts=$(grep -E "^$helper +write\($fd, " "$W/st" | grep -c .)
[ "$puts" -ge 1 ] && ok || fail "the helper wrote nothing on descriptor $fd"
threads=$(grep -E "^$main +clone3?\(.*CLONE_THREAD" "$W/st")
expect_eq "the main process starts one thread" "$(printf '%s\n' "$threads" | grep -c .)" 1
# after the helper has exited: the trace's lines are in time order
# (strace pads the pid: one or more spaces after it)
exit_line=$(grep -nE "^$helper +\+\+\+ exited with 0 \+\+\+" "$W/st" | cut -d: -f1)
thread_line=$(grep -nE "^$main +clone3?\(.*CLONE_THREAD" "$W/st" | cut -d: -f1)
expect_match "the helper exited with 0" "${exit_line:-none}" '^[0-9]+$'
[ "${thread_line:-0}" -gt "${exit_line:-0}" ] && ok ||
	fail "the thread (trace line ${thread_line:-none}) started before the helper exited (line ${exit_line:-none})"
done_testing
