#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# --profile=stacks and --flame DIR on a tmpfs: --profile's words and the
# options' bad values refused with exit 1 and a message (-u is
# tests/cli/stacks_drain.sh's), and a user whom perf_event_paranoid refuses
# told why; an unusable DIR refused before any phase;
# one folded file per phase, each line "frame;frame;... count" with
# kernel frames marked, clyde's own stacks under its name and the block
# write's through the write system call; a task whose name holds ';',
# spaces and a tab stays one frame; clyde's own functions named; -x runs
# named apart; and, clyde
# being root, a symbolic link and a hard link planted at a file's name
# are refused (exit 3, the file named) and nothing is written through
# them, the other phases' files still written.
. "$TESTLIB"
need_root
need_linux "perf_event_open"
need_tmpfs 512m
MNT=$SCRATCH
scratch_dir
W=$SCRATCH
RUN="-d $MNT -s 64m -r 32m -n 1 -q"
# the layer table: beside the program in its build tree; a VPATH build's is the source tree's
[ -f "$(dirname "$CLYDE")/data/layers" ] || { CLYDE_LAYERS=$LAYERS_TABLE; export CLYDE_LAYERS; }

# usage: each bad form exits 1 with its message
bad() {
	exp=$1
	shift
	"$CLYDE" "$@" >"$W/bad.out" 2>"$W/bad.err"
	expect_eq "clyde $*: exit status" "$?" 1
	expect_match "clyde $*: says why" "$(cat "$W/bad.err")" "$exp"
}
bad "'bogus' is not a word it knows \\(stacks, layers\\)" $RUN --profile=bogus
bad "'' is not a word" $RUN --profile=stacks,
bad "--stack-hz" $RUN --stack-hz=0
bad "--stack-hz" $RUN --stack-hz=10001
bad "--flame $W/none: No such file or directory" $RUN --flame "$W/none"
: >"$W/file"
bad "--flame $W/file: Not a directory" $RUN --flame "$W/file"
check "an unusable --flame DIR: refused before any phase wrote" \
	test -z "$(ls -A "$MNT")"

# a user perf_event_paranoid keeps from sampling every CPU is told why, exit 1, before any phase
paranoid=$(cat /proc/sys/kernel/perf_event_paranoid 2>/dev/null || echo 0)
if [ "$paranoid" -gt 0 ] && command -v setpriv >/dev/null 2>&1; then
	chmod 1777 "$MNT"
	setpriv --reuid=65534 --regid=65534 --clear-groups "$CLYDE" $RUN --profile=stacks \
		>"$W/user.out" 2>"$W/user.err"
	expect_eq "--profile=stacks as a user: exit status" "$?" 1
	expect_match "--profile=stacks as a user: says why" "$(cat "$W/user.err")" \
		"perf_event_open refused system-wide sampling \\(Permission denied\\).*perf_event_paranoid at most 0 \\(it is $paranoid\\)"
	check "--profile=stacks as a user: no phase ran" test -z "$(ls -A "$MNT")"
	chmod 755 "$MNT"
fi

# perf_event_paranoid and the like: a machine that refuses root says so, and this test skips
"$CLYDE" $RUN -s 8m -r 4m -n 0 --profile=stacks >"$W/probe.out" 2>"$W/probe.err"
if [ $? = 1 ] && grep -q 'perf_event_open' "$W/probe.err"; then
	skip "perf_event_open refused here: $(cat "$W/probe.err")"
fi

# a busy task with a name that would break a folded line if kept as it is
cp "$(command -v sh)" "$W/a;b c	d"
"$W/a;b c	d" -c 'while :; do :; done' &
busy=$!

mkdir "$W/flame"
"$CLYDE" $RUN --profile=stacks --flame "$W/flame" --stack-hz=999 --json "$W/run.json" \
	>"$W/run.out" 2>"$W/run.err"
rc=$?
kill "$busy"
expect_eq "a run with --flame: exit status" "$rc" 0
[ $rc = 0 ] || sed 's/^/    /' "$W/run.err"
for f in putc put_block rewrite getc get_block seeks seq_create seq_stat seq_del ran_create \
	ran_stat ran_del; do
	check "$f.folded written" test -f "$W/flame/$f.folded"
done
check "nothing else in DIR" test "$(ls "$W/flame" | wc -l)" = 12
# the folded format: frames without blanks or ';' inside, joined by ';', a space, a count
expect_eq "every line folded" \
	"$(cat "$W"/flame/*.folded | grep -cvE '^[^ ;]+(;[^ ;]+)* [1-9][0-9]*$')" 0
check "the block write sampled" test "$(wc -l <"$W/flame/put_block.folded")" -gt 0
expect_match "clyde's stacks start with its name, its writes in the kernel's pwrite" \
	"$(grep '^clyde;' "$W/flame/put_block.folded")" ';[a-z0-9_]*sys_pwrite64_\[k\]'
expect_match "the library a user frame lies in" "$(cat "$W"/flame/*.folded)" \
	';\[libc\.so\.6\]'
# the per-char phases spend their user time in clyde's own loop: named from its symbols
expect_match "clyde's own functions named" "$(cat "$W/flame/putc.folded" "$W/flame/getc.folded")" \
	'^clyde;(.*;)?perchar_[a-z_]+( |;)'
# (unit_stacks folds such names; here the program is another one than clyde)
expect_eq "another program's samples are in no folded stack, its crafted name neither" \
	"$(cat "$W"/flame/*.folded | grep -c 'a_b_c_d')" 0
expect_match "they are counted apart (the per-char write's profile.stacks.other)" \
	"$(grep '^ *"putc"' "$W/run.json")" '"stacks": \{[^}]*"other": [1-9][0-9]*,'

# -x: each run's files named apart
mkdir "$W/x"
"$CLYDE" $RUN -n 0 -f -x 2 --flame "$W/x" >"$W/x.out" 2>"$W/x.err"
expect_eq "-x 2 with --flame: exit status" "$?" 0
check "run 1's block write" test -f "$W/x/put_block.x1.folded"
check "run 2's block write" test -f "$W/x/put_block.x2.folded"
check "no unnamed run" test ! -e "$W/x/put_block.folded"

# root writes only new files: a symlink and a hard link planted at two names
mkdir "$W/attack"
printf 'victim\n' >"$W/victim"
printf 'linked\n' >"$W/linked"
ln -s "$W/victim" "$W/attack/put_block.folded"
ln "$W/linked" "$W/attack/rewrite.folded"
"$CLYDE" $RUN -n 0 -f --flame "$W/attack" >"$W/attack.out" 2>"$W/attack.err"
expect_eq "links planted in DIR: exit status 3" "$?" 3
expect_match "the symlink's name said" "$(cat "$W/attack.err")" \
	"--flame $W/attack: put_block.folded: File exists"
expect_match "the hard link's name said" "$(cat "$W/attack.err")" \
	"--flame $W/attack: rewrite.folded: File exists"
expect_eq "nothing written through the symlink" "$(cat "$W/victim")" victim
expect_eq "nothing written through the hard link" "$(cat "$W/linked")" linked
check "the symlink left as it was" test -L "$W/attack/put_block.folded"
check "the other phases' files written" test -f "$W/attack/get_block.folded"

# --profile alone samples no stacks
"$CLYDE" $RUN -n 0 -f --profile >"$W/plain.out" 2>"$W/plain.err"
expect_eq "--profile alone: exit status" "$?" 0
expect_eq "--profile alone: no stacks' note" "$(grep -c 'stacks' "$W/plain.err")" 0
done_testing
