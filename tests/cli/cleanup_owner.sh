#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# --cleanup and other users' trees. Root's --cleanup keeps a dead run's
# tree whose directory and marker nobody owns (a run made with -u nobody)
# and names it; --cleanup-user=nobody removes it in a child that became
# nobody: a file inside that only root may delete stays and is named,
# which root itself would have removed. A tree whose marker belongs to
# another user than its directory is kept either way. Nothing is run as
# nobody from the checkout: the child is clyde's own fork.
. "$TESTLIB"
need_root
id nobody >/dev/null 2>&1 || skip "no user nobody"
scratch_dir
W=$SCRATCH
scratch_tmpfs 16m
T=$SCRATCH
host=$(hostname)
boot=$(cat /proc/sys/kernel/random/boot_id 2>/dev/null)
mkdir "$W/target"
printf 'clyde-marker 1\npid 999999\nhost %s\nboot %s\nstart 1\ntime 0\ncmd fake\n' "$host" "$boot" \
	>"$W/target/.clyde-run"
# a run made with -u nobody, killed: its directory and marker are nobody's
R=$T/runs
mkdir -m 1777 "$R"
# the error file exists before clyde starts, so that wait_pause reads it
: >"$W/err"
CLYDE_TEST_PAUSE=put_block "$CLYDE" -u nobody -d "$R" -s 16 -n 0 -f >/dev/null 2>"$W/err" &
pid=$!
if wait_pause "$W/err"; then
	kill -KILL $pid
	wait $pid 2>/dev/null
	left=$(ls -d "$R"/clyde.*)
	expect_eq "-u nobody: its directory and marker are nobody's" \
		"$(stat -c %U "$left" "$left/.clyde-run" | tr '\n' ' ')" "nobody nobody "
	"$CLYDE" --cleanup "$R" >"$W/out" 2>&1
	expect_match "-u nobody: root's --cleanup keeps it" "$(grep '^clyde: kept' "$W/out")" \
		"^clyde: kept $left \\(.*\\): no process $pid, but it belongs to nobody: "
	[ -d "$left" ]
	expect_eq "-u nobody: still there" "$?" 0
	"$CLYDE" --cleanup "$R" --cleanup-user=nobody >"$W/out" 2>&1
	expect_eq "-u nobody: --cleanup-user=nobody: exit 0" "$?" 0
	expect_match "-u nobody: removed as nobody" "$(grep '^clyde: removed' "$W/out")" \
		"^clyde: removed $left \\(.*\\) as nobody: no process $pid$"
	expect_eq "-u nobody: gone" "$(ls -A "$R")" ""
else
	fail "-u nobody: never paused: $(cat "$W/err")"
	kill $pid
fi

# another user's tree: kept by root, removed as its owner with --cleanup-user
U=$T/users
# as /var/tmp: anyone may create, only the owner remove
mkdir -m 1777 "$U"
for t in clyde.nobody clyde.nobody2 clyde.mixed; do
	mkdir "$U/$t"
	cp "$W/target/.clyde-run" "$U/$t/"
	echo data >"$U/$t/f"
done
mkdir "$U/clyde.nobody/rootonly" && echo root >"$U/clyde.nobody/rootonly/f"
chown -R nobody "$U/clyde.nobody" "$U/clyde.nobody2"
chown nobody "$U/clyde.mixed"
chown root "$U/clyde.nobody/rootonly" "$U/clyde.nobody/rootonly/f"
"$CLYDE" --cleanup "$U" >"$W/out" 2>&1
expect_eq "another user's: root's --cleanup exits 0" "$?" 0
expect_match "another user's: kept and named" "$(grep 'clyde.nobody2 ' "$W/out")" \
	"^clyde: kept $U/clyde\\.nobody2 \\(.*\\): no process 999999, but it belongs to nobody: clyde removes only its own user's trees \\(--cleanup-user=nobody removes it as nobody\\)$"
expect_match "a marker of another owner: kept" "$(grep 'clyde.mixed ' "$W/out")" \
	"^clyde: kept $U/clyde\\.mixed \\(.*\\): its directory belongs to nobody, its marker to root: no run of clyde writes that$"
expect_eq "another user's: the count" "$(tail -n 1 "$W/out")" "clyde: --cleanup $U: 0 removed, 3 kept"
expect_eq "another user's: all still there" "$(cat "$U"/clyde.*/f | tr '\n' ' ')" "data data data "
"$CLYDE" --cleanup "$U" --cleanup-user=nobody >"$W/out" 2>&1
expect_eq "--cleanup-user: exit 3 (a file only root may delete)" "$?" 3
expect_match "--cleanup-user: removed as nobody" "$(grep 'clyde.nobody2 ' "$W/out")" \
	"^clyde: removed $U/clyde\\.nobody2 \\(.*\\) as nobody: no process 999999$"
expect_match "--cleanup-user: what nobody may not delete stays" "$(grep 'clyde.nobody ' "$W/out")" \
	"^clyde: cannot remove all of $U/clyde\\.nobody \\(.*\\) as nobody: Permission denied$"
expect_match "--cleanup-user: and is named" "$(cat "$W/out")" "clyde:   left: $U/clyde\\.nobody/rootonly/f"
expect_eq "--cleanup-user: as nobody, not as root" \
	"$(cd "$U/clyde.nobody" && ls -A . rootonly | tr '\n' ' ')" \
	".: .clyde-run rootonly  rootonly: f "
expect_eq "--cleanup-user: the mixed one stays" "$(cat "$U/clyde.mixed/f")" data
"$CLYDE" --cleanup "$U" --cleanup-user=no-such-user-here >"$W/out" 2>&1
expect_eq "--cleanup-user: no such user: exit 1" "$?:$(cat "$W/out")" \
	"1:clyde: --cleanup-user: no such user 'no-such-user-here'"
"$CLYDE" --cleanup-any-ns >"$W/out" 2>&1
expect_eq "--cleanup-any-ns alone: exit 1" "$?" 1
done_testing
