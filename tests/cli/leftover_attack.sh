#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Leftovers planted to attack root, who runs clyde and clyde --cleanup in
# a directory anyone may write:
# - a marker whose cmd, host and pidns, and a directory whose name, hold a
#   terminal's commands (set the title, ring, clear the screen): clyde
#   shows them as \xNN, and not one ESC or BEL byte reaches stdout or
#   stderr, before a run, in --cleanup, nor in the remover's "left:" lines;
# - a tree of more entries than a look counts (LEFTOVER_COUNT_ENTRIES in
#   src/clyde/leftover.c): its size is "at least", counted over at most
#   that many entries, and clyde says it was too large to inspect (the
#   exact bound: tests/unit/unit_walk_budget.c; the time bound:
#   tests/env/leftover_slow.sh);
# - a tree nobody owns is not walked as root: its size is not counted and
#   its directories' access times (strictatime) stay as they were.
. "$TESTLIB"
need_root
need_linux "a tmpfs with strictatime"
id nobody >/dev/null 2>&1 || skip "no user nobody"
need_python3 "to make many files fast"
scratch_dir
W=$SCRATCH
scratch_tmpfs 64m strictatime
T=$SCRATCH
chmod 1777 "$T"
host=$(hostname)
boot=$(cat /proc/sys/kernel/random/boot_id 2>/dev/null)
ESC=$(printf '\033')
BEL=$(printf '\007')

# raw FILE: how many ESC and BEL bytes it holds
raw() {
	tr -cd '\033\007' <"$1" | wc -c | tr -d ' '
}

# marker DIR PID HOST CMD [PIDNS]: a marker as clyde writes one
marker() {
	if [ $# -gt 4 ]; then
		printf 'clyde-marker 1\npid %s\nhost %s\nboot %s\nstart 1\npidns %s\ntime 0\ncmd %s\n' \
			"$2" "$3" "$boot" "$5" "$4" >"$1/.clyde-run"
	else
		printf 'clyde-marker 1\npid %s\nhost %s\nboot %s\nstart 1\ntime 0\ncmd %s\n' \
			"$2" "$3" "$boot" "$4" >"$1/.clyde-run"
	fi
}

# 1. terminal commands in a directory's name and in a marker's fields
evil="${ESC}]0;owned${BEL}${ESC}[2J"
shown='\\x1b]0;owned\\x07\\x1b\[2J'
mkdir "$T/clyde.a${evil}z"
marker "$T/clyde.a${evil}z" 999999 "$host" "$evil$(printf '\302\233')1J"
mkdir "$T/clyde.host"
marker "$T/clyde.host" 999999 "h$evil" fake
mkdir "$T/clyde.ns"
marker "$T/clyde.ns" 999999 "$host" fake "1:$evil"

"$CLYDE" -d "$T" -s 1 -n 0 -f --plan >"$W/run.out" 2>"$W/run.err"
expect_eq "before a run: exit 0" "$?" 0
expect_eq "before a run: no ESC or BEL on stdout" "$(raw "$W/run.out")" 0
expect_eq "before a run: no ESC or BEL on stderr" "$(raw "$W/run.err")" 0
expect_match "before a run: the name and the cmd shown escaped (C1 CSI's UTF-8 too)" \
	"$(grep '^clyde: note: a run that did not finish' "$W/run.err")" \
	"left $T/clyde\\.a${shown}z \\([^;]+; clyde pid 999999 on $host, started \\?: ${shown}\\\\xc2\\\\x9b1J\\) behind"

"$CLYDE" --cleanup "$T" >"$W/c.out" 2>"$W/c.err"
expect_eq "--cleanup: exit 0" "$?" 0
expect_eq "--cleanup: no ESC or BEL on stdout" "$(raw "$W/c.out")" 0
expect_eq "--cleanup: no ESC or BEL on stderr" "$(raw "$W/c.err")" 0
expect_match "--cleanup: the name removed, escaped" "$(grep '^clyde: removed' "$W/c.out")" \
	"^clyde: removed $T/clyde\\.a${shown}z \\("
expect_match "--cleanup: the host escaped" "$(grep 'clyde.host ' "$W/c.out")" \
	"on h${shown}, .*: left by host h${shown}: only there"
expect_match "--cleanup: the pid namespace escaped" "$(grep 'clyde.ns ' "$W/c.out")" \
	"written in pid namespace 1:${shown}, not this one"
rm -rf "$T/clyde.host" "$T/clyde.ns"

# the remover's "left:" lines: nobody's tree holds a file only root may
# delete, named with the same commands; --cleanup-user=nobody cannot remove it
L=$T/clyde.left
mkdir -p "$L/rootonly"
marker "$L" 999999 "$host" fake
echo x >"$L/rootonly/f$evil"
chown nobody "$L" "$L/.clyde-run"
"$CLYDE" --cleanup "$T" --cleanup-user=nobody >"$W/l.out" 2>"$W/l.err"
expect_eq "left: exit 3" "$?" 3
expect_eq "left: no ESC or BEL on stdout" "$(raw "$W/l.out")" 0
expect_eq "left: no ESC or BEL on stderr" "$(raw "$W/l.err")" 0
expect_match "left: the name escaped" "$(grep '^clyde:   left:' "$W/l.out")" \
	"^clyde:   left: $L/rootonly/f${shown}$"
rm -rf "$L"

# 2. a tree of more entries than a look counts, its process gone: the
# entries bound (50000) plus some, empty files so that it is cheap
B=$T/clyde.big
mkdir "$B"
marker "$B" 999999 "$host" fake
python3 -c 'import os, sys
for i in range(int(sys.argv[2])):
    os.close(os.open("%s/f%d" % (sys.argv[1], i), os.O_CREAT | os.O_WRONLY, 0o644))' "$B" 50100
"$CLYDE" -d "$T" -s 1 -n 0 -f --plan >"$W/big.out" 2>"$W/big.err"
expect_eq "a large tree: the run goes on (exit 0)" "$?" 0
line=$(grep 'clyde\.big' "$W/big.err")
expect_match "a large tree: too large to inspect, what was counted and what not" "$line" \
	"^clyde: note: a run that did not finish left $B \\(at least [0-9.]+ [A-Za-z]+: too large to inspect, its first [0-9]+ entries counted, the rest not; clyde pid 999999 on $host, .*\\) behind \\(no process 999999\\); clyde --cleanup removes it$"
# 50000 at most; fewer where the second of counting ran out first (a
# sanitizer build counts about 47000 in it)
counted=$(printf '%s\n' "$line" | sed -n 's/.*its first \([0-9]*\) entries counted.*/\1/p')
if [ "${counted:-50001}" -le 50000 ]; then ok; else fail "a large tree: ${counted:-?} entries counted"; fi
"$CLYDE" --cleanup "$T" >"$W/big.out" 2>&1
expect_match "a large tree: --cleanup says so too, and removes it whole" \
	"$(grep 'clyde\.big' "$W/big.out")" \
	"^clyde: removed $B \\(at least [0-9.]+ [A-Za-z]+: too large to inspect, its first [0-9]+ entries counted, the rest not; "
expect_eq "a large tree: gone" "$(ls -A "$T")" ""

# 3. as root, nobody's tree is not walked: its size is not counted, and
# its directories are never read (their access times stay in 2001)
N=$T/clyde.nobody
mkdir -p "$N/sub"
marker "$N" 999999 "$host" fake
head -c 1048576 /dev/zero >"$N/sub/data"
chown -R nobody "$N"
touch -a -d 2001-01-01 "$N" "$N/sub"
atimes() {
	stat -c %X "$N" "$N/sub" | tr '\n' ' '
}
before=$(atimes)
"$CLYDE" -d "$T" -s 1 -n 0 -f --plan >"$W/n.out" 2>"$W/n.err"
expect_eq "nobody's tree: the run goes on (exit 0)" "$?" 0
expect_match "nobody's tree: named, its size not counted" "$(grep 'clyde\.nobody' "$W/n.err")" \
	"^clyde: note: a run that did not finish left $N \\(size not counted: clyde does not walk another user's tree; clyde pid 999999 on $host, .*\\) behind \\(no process 999999\\); it belongs to nobody: "
"$CLYDE" --cleanup "$T" >"$W/n.out" 2>&1
expect_match "nobody's tree: --cleanup keeps it, its size not counted" \
	"$(grep 'clyde\.nobody' "$W/n.out")" \
	"^clyde: kept $N \\(size not counted: clyde does not walk another user's tree; .*belongs to nobody"
expect_eq "nobody's tree: its directories were not read as root" "$(atimes)" "$before"
"$CLYDE" --cleanup "$T" --cleanup-user=nobody >"$W/n.out" 2>&1
expect_eq "nobody's tree: --cleanup-user=nobody removes it (exit 0)" "$?" 0
expect_eq "nobody's tree: gone" "$(ls -A "$T")" ""

done_testing
