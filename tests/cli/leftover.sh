#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# What a killed clyde leaves: SIGKILL in block write leaves the private
# directory with its marker; the next run in the same -d names it, its
# size and its command; clyde --cleanup removes it and nothing else: not
# a directory without a marker, not a symlink (nor what it points to),
# not one whose process still runs, not one from another host, not a
# directory of another name. The directory --cleanup names is shown
# escaped (an escape sequence in it is not obeyed).
. "$TESTLIB"
need_root
scratch_dir
W=$SCRATCH
scratch_tmpfs 96m
T=$SCRATCH
host=$(hostname)
boot=$(cat /proc/sys/kernel/random/boot_id 2>/dev/null)

CLYDE_TEST_PAUSE=put_block "$CLYDE" -d "$T" -s 16 -n 0 -f >/dev/null 2>"$W/err" &
pid=$!
wait_pause "$W/err"
kill -KILL $pid
wait $pid 2>/dev/null
left=$(ls -d "$T"/clyde.*)
expect_match "SIGKILL: the private directory stays" "$left" "^$T/clyde\\.[A-Za-z0-9]{6}$"
expect_match "SIGKILL: its marker names the process" "$(sed -n 2p "$left/.clyde-run")" "^pid $pid$"
expect_eq "SIGKILL: and the file it was writing" "$(ls "$left")" io.0

# the decoys --cleanup must leave alone
mkdir "$T/clyde.nomarker" && echo keep >"$T/clyde.nomarker/f"
mkdir "$W/target" && printf 'clyde-marker 1\npid 999999\nhost %s\nboot %s\nstart 1\ntime 0\ncmd fake\n' \
	"$host" "$boot" >"$W/target/.clyde-run" && echo keep >"$W/target/f"
ln -s "$W/target" "$T/clyde.link"
sleep 300 &
live=$!
mkdir "$T/clyde.alive"
printf 'clyde-marker 1\npid %s\nhost %s\nboot %s\nstart %s\ntime 0\ncmd fake\n' "$live" "$host" \
	"$boot" "$(awk '{print $22}' /proc/$live/stat)" >"$T/clyde.alive/.clyde-run"
mkdir "$T/clyde.elsewhere"
printf 'clyde-marker 1\npid 999999\nhost not-%s\nboot x\nstart 1\ntime 0\ncmd fake\n' "$host" \
	>"$T/clyde.elsewhere/.clyde-run"
mkdir "$T/other"
cp "$W/target/.clyde-run" "$T/other/"

# the next run says what it found
"$CLYDE" -d "$T" -s 8 -n 0 -f >/dev/null 2>"$W/err2"
expect_eq "next run: exit 0" "$?" 0
expect_match "next run: names the leftover, its size, process and command" \
	"$(grep '^clyde: note: a run that did not finish' "$W/err2")" \
	"^clyde: note: a run that did not finish left $left \\([0-9.]+ [KM]iB; clyde pid $pid on $host, started [0-9-]+ [0-9:]+: $CLYDE -d $T -s 16 -n 0 -f\\) behind \\(no process $pid\\); clyde --cleanup removes it$"
expect_eq "next run: only that one" "$(grep -c '^clyde: note: a run that did not finish' "$W/err2")" 1
[ -d "$left" ]
expect_eq "next run: does not remove it" "$?" 0

"$CLYDE" --cleanup "$T" >"$W/out" 2>&1
expect_eq "--cleanup: exit 0" "$?" 0
expect_match "--cleanup: removed it" "$(grep '^clyde: removed' "$W/out")" "^clyde: removed $left \\(.*\\): no process $pid$"
expect_match "--cleanup: kept the live one" "$(grep "clyde.alive" "$W/out")" "^clyde: kept $T/clyde\\.alive .*: pid $live still runs$"
expect_match "--cleanup: kept the other host's" "$(grep "clyde.elsewhere" "$W/out")" \
	"^clyde: kept $T/clyde\\.elsewhere .*: left by host not-$host: only there can clyde tell whether it still runs$"
expect_eq "--cleanup: the count" "$(tail -n 1 "$W/out")" "clyde: --cleanup $T: 1 removed, 2 kept"
[ -e "$left" ]
expect_eq "--cleanup: the leftover is gone" "$?" 1
expect_eq "--cleanup: the rest untouched" \
	"$(cd "$T" && ls -d clyde.* other | tr '\n' ' '; cat clyde.nomarker/f "$W/target/f" | tr '\n' ' ')" \
	"clyde.alive clyde.elsewhere clyde.link clyde.nomarker other keep keep "
kill $live 2>/dev/null
wait $live 2>/dev/null
# the live one's process is gone now: a second cleanup takes it
"$CLYDE" --cleanup "$T" >"$W/out" 2>&1
expect_eq "--cleanup again: the dead process's directory" "$(tail -n 1 "$W/out")" "clyde: --cleanup $T: 1 removed, 1 kept"
"$CLYDE" --cleanup "$T/missing" >"$W/out" 2>&1
expect_eq "--cleanup of a missing directory: exit 2" "$?" 2
expect_eq "--cleanup of a missing directory: says why" "$(cat "$W/out")" \
	"clyde: --cleanup $T/missing: No such file or directory"

# a marker from another pid namespace: cannot tell, unless --cleanup-any-ns
N=$T/ns
mkdir -p "$N/clyde.ns"
printf 'clyde-marker 1\npid %s\nhost %s\nboot %s\nstart 1\npidns 1:2\ntime 0\ncmd fake\n' $$ \
	"$host" "$boot" >"$N/clyde.ns/.clyde-run"
"$CLYDE" --cleanup "$N" >"$W/out" 2>&1
expect_match "another pid namespace: kept" "$(grep 'clyde.ns ' "$W/out")" \
	"^clyde: kept $N/clyde\\.ns \\(.*\\): written in pid namespace 1:2, not this one \\(.*\\): clyde cannot tell whether pid $$ still runs there \\(--cleanup-any-ns removes it\\)$"
[ -d "$N/clyde.ns" ]
expect_eq "another pid namespace: still there" "$?" 0
"$CLYDE" --cleanup "$N" --cleanup-any-ns >"$W/out" 2>&1
expect_eq "--cleanup-any-ns: exit 0" "$?" 0
expect_match "--cleanup-any-ns: removed" "$(grep 'clyde.ns ' "$W/out")" \
	"^clyde: removed $N/clyde\\.ns \\(.*\\): written in pid namespace 1:2, not this one \\(.*\\): taken as gone \\(--cleanup-any-ns\\)$"
[ -e "$N/clyde.ns" ]
expect_eq "--cleanup-any-ns: gone" "$?" 1
"$CLYDE" --cleanup-any-ns >"$W/out" 2>&1
expect_eq "--cleanup-any-ns alone: exit 1" "$?" 1

# --cleanup's own directory named as a terminal shows it, never obeyed:
# an escape sequence in its name comes out as \x1b, found or not
esc=$(printf '\033')
mkdir "$W/esc${esc}[31m"
for d in "$W/esc${esc}[31m" "$W/none${esc}[31m"; do
	"$CLYDE" --cleanup "$d" >"$W/out" 2>&1
	expect_eq "--cleanup of a name with ESC: no raw escape byte out" \
		"$(tr -cd '\033' <"$W/out" | wc -c | tr -d ' ')" 0
	expect_file_has "--cleanup of a name with ESC: shown escaped" "$W/out" '\x1b[31m'
done
done_testing
