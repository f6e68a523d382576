#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# --json when a run does not finish: for every exit status the file is a
# complete document (or, where nothing ran, no file at all), never half a
# one: it is written to a temporary name and renamed. A failed run is in
# it with where and why it stopped (phase, file, offset, errno, message,
# exit status) and the phases that finished; the runs before it keep
# their figures; no CSV line is printed for the failed run.
. "$TESTLIB"
need_root
need_python3 "to read the JSON"
scratch_dir
W=$SCRATCH
scratch_tmpfs 96m
T=$SCRATCH

# doc FILE EXPR: python's value of EXPR over the document d (r: its last run)
doc() {
	python3 - "$1" "$2" <<'PY' 2>&1
import json, sys
d = json.load(open(sys.argv[1]))
r = d["runs"][-1] if d["runs"] else None
print(eval(sys.argv[2]))
PY
}
no_temp() {
	expect_eq "$1: no temporary file left" "$(ls "$W" | grep -c '^j\.json\.')" 0
}

# exit 0
"$CLYDE" -d "$T" -s 8 -n 1 -f --json "$W/j.json" >"$W/out" 2>"$W/err"
expect_eq "exit 0" "$?" 0
expect_eq "exit 0: the document says so" "$(doc "$W/j.json" '(d["schema"], d["exit_status"], d["stopped"], r["failure"], r["csv"] is not None)')" \
	"('clyde-result/15', 0, None, None, True)"
no_temp "exit 0"

# exit 3: the disk fills in block write
rm -f "$W/j.json"
# the stderr file emptied first: wait_pause must not count an earlier run's pauses
: >"$W/err"
CLYDE_TEST_PAUSE=put_block CLYDE_TEST_RESUME=$W/go "$CLYDE" -d "$T" -s 64 -n 0 -f \
	--json "$W/j.json" >"$W/out" 2>"$W/err" &
pid=$!
wait_pause "$W/err"
expect_eq "exit 3: no document while the run goes on" "$(ls "$W" | grep -c '^j\.json$')" 0
dd if=/dev/zero of="$T/fill" bs=1M 2>/dev/null
touch "$W/go"
wait $pid
expect_eq "exit 3" "$?" 3
rm -f "$T/fill"
expect_eq "exit 3: no CSV line" "$(grep -c '^1\.98,' "$W/out")" 0
expect_match "exit 3: the failure" "$(doc "$W/j.json" 'd["exit_status"], r["failure"]["phase"], r["failure"]["errno"], r["failure"]["error"], r["failure"]["exit_status"], r["failure"]["offset"] > 0, r["csv"]')" \
	"^\\(3, 'put_block', 28, 'No space left on device', 3, True, None\\)$"
expect_match "exit 3: the file it names" "$(doc "$W/j.json" 'r["failure"]["path"]')" "^$T/clyde\\.[^/]*/io\\.0$"
expect_match "exit 3: stopped says so" "$(doc "$W/j.json" 'd["stopped"]')" \
	'^run 1: block write: write .*/io\.0 at offset [0-9]+: No space left on device$'
expect_eq "exit 3: nothing ran before the block write (-f)" \
	"$(doc "$W/j.json" 'sorted(k for k, v in r["phases"].items() if v["ran"])')" "[]"
no_temp "exit 3"
expect_empty_dir "exit 3: nothing left" "$T"

# exit 5: SIGTERM in rewrite: per-char write and block write finished
: >"$W/err"
CLYDE_TEST_PAUSE=rewrite "$CLYDE" -d "$T" -s 8 -n 0 -f64k --json "$W/j.json" >"$W/out" 2>"$W/err" &
pid=$!
wait_pause "$W/err"
kill -TERM $pid
wait $pid
expect_eq "exit 5" "$?" 5
expect_eq "exit 5: the failure" "$(doc "$W/j.json" 'd["exit_status"], r["failure"]["phase"], r["failure"]["errno"], r["failure"]["exit_status"]')" \
	"(5, 'rewrite', 4, 5)"
expect_eq "exit 5: the phases that finished keep their figures" \
	"$(doc "$W/j.json" 'sorted(k for k, v in r["phases"].items() if v["ran"] and v["rate"] > 0)')" \
	"['put_block', 'putc']"
no_temp "exit 5"
expect_empty_dir "exit 5: nothing left" "$T"

# -x 3, SIGTERM in the second run: the first keeps its figures and CSV line
: >"$W/err"
CLYDE_TEST_PAUSE=put_block CLYDE_TEST_RESUME=$W/go2 "$CLYDE" -d "$T" -s 8 -n 0 -f -x 3 \
	--json "$W/j.json" >"$W/out" 2>"$W/err" &
pid=$!
wait_pause "$W/err" 1
touch "$W/go2"
wait_pause "$W/err" 2
kill -TERM $pid
wait $pid
expect_eq "-x 3 stopped in run 2: exit 5" "$?" 5
expect_eq "-x 3: two runs, the first whole" \
	"$(doc "$W/j.json" 'len(d["runs"]), d["runs"][0]["failure"], d["runs"][0]["csv"] is not None, d["runs"][1]["failure"]["phase"], d["exit_status"]')" \
	"(2, None, True, 'put_block', 5)"
expect_eq "-x 3: one CSV line after the header" "$(grep -c '^1\.98,' "$W/out")" 1
expect_match "-x 3: stopped names run 2" "$(doc "$W/j.json" 'd["stopped"]')" '^run 2: block write: stopped by signal 15$'
no_temp "-x 3"

# exit 6: a byte changed between write and read
: >"$W/err"
CLYDE_TEST_PAUSE=getc CLYDE_TEST_RESUME=$W/go3 "$CLYDE" --verify -d "$T" -s 8 -n 0 -f64k \
	--json "$W/j.json" >"$W/out" 2>"$W/err" &
pid=$!
# the byte is changed only while clyde waits in its character read; a
# pause not reached, or a write that fails, is said, not taken for clyde's
if wait_pause "$W/err"; then
	ok
else
	fail "exit 6: no pause in the character read within its time: $(cat "$W/err")"
fi
flip_byte "$(ls "$T"/clyde.*/io.0)" 3000000
expect_eq "exit 6: the byte changed behind clyde's back" "$?" 0
touch "$W/go3"
wait $pid
expect_eq "exit 6" "$?" 6
expect_eq "exit 6: a whole run, its mismatches counted" \
	"$(doc "$W/j.json" 'd["exit_status"], d["stopped"], r["failure"], r["data"]["mismatches"] > 0')" \
	"(6, None, None, True)"
no_temp "exit 6"

# exit 1 and 2 before any run: no document at all
rm -f "$W/j.json"
"$CLYDE" -d "$T" -s 8 --no-such-option --json "$W/j.json" >/dev/null 2>&1
expect_eq "exit 1: usage" "$?" 1
"$CLYDE" -d "$T/missing" -s 8 --json "$W/j.json" >/dev/null 2>&1
expect_eq "exit 2: -d missing" "$?" 2
# exit 4: io_uring not built, or refused (tests/no_uring makes the kernel say ENOSYS)
if [ -x "${NO_URING:-}" ]; then
	"$NO_URING" ENOSYS "$CLYDE" -d "$T" -s 8 -n 0 --engine=uring --json "$W/j.json" >/dev/null 2>&1
	rc=$?
	[ $rc = 77 ] || expect_eq "exit 4: io_uring refused" "$rc" 4
elif ! "$CLYDE" --version | grep -Eq '^engines:.* uring( [^(]|$)'; then
	"$CLYDE" -d "$T" -s 8 -n 0 --engine=uring --json "$W/j.json" >/dev/null 2>&1
	expect_eq "exit 4: io_uring not built" "$?" 4
fi
expect_eq "exits 1, 2 and 4: no document, no temporary file" "$(ls "$W" | grep -c '^j\.json')" 0
"$CLYDE" -d "$T" -s 8 -n 0 --json "$W/no/such/dir/j.json" >/dev/null 2>"$W/err"
expect_eq "a --json file that cannot be made: exit 1" "$?" 1
expect_match "... and says why" "$(cat "$W/err")" "^clyde: --json $W/no/such/dir/j\\.json: No such file or directory$"
expect_empty_dir "nothing left" "$T"

# exit 2 once the runs began: ramfs refuses the O_DIRECT of -D in the first run
RAM=$W/ram
mkdir "$RAM"
if mount -t ramfs ramfs "$RAM" 2>/dev/null; then
	T_MOUNTS="$RAM $T_MOUNTS"
	"$CLYDE" -D -d "$RAM" -s 4 -n 0 --json "$W/j.json" >/dev/null 2>&1
	expect_eq "exit 2 in the run: ramfs refuses O_DIRECT" "$?" 2
	expect_match "exit 2 in the run: a document that says why" \
		"$(doc "$W/j.json" 'd["exit_status"], r["failure"]["phase"], r["failure"]["exit_status"], r["failure"]["message"]')" \
		"^\\(2, None, 2, '-D: the filesystem refuses O_DIRECT"
	no_temp "exit 2 in the run"
	expect_empty_dir "exit 2 in the run: nothing left" "$RAM"
fi
done_testing
