#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# clyde-fsmatrix --db for real, on tmpfs: two studies of three runs each
# go into one history, each run labelled with its entry and study; a
# study stopped by SIGINT in its second run keeps its first there; the
# two studies compared give a verdict per phase, and a CI-style gate
# (--fail-on-regression) fails exactly when a phase is worse beyond it.
. "$TESTLIB"
need_root
need_linux
TDIR=$(cd "$(dirname "$TESTLIB")" && pwd)
FSMATRIX=${FSMATRIX:-$TDIR/../clyde-fsmatrix}
scratch_dir
W=$SCRATCH
rc=0
"$REPORT" --db "$W/probe.db" --history a=b >/dev/null 2>&1 || rc=$?
[ "$rc" != 6 ] || skip "clyde-report was built without SQLite (--with-sqlite3=no)"
need_cmd python3
python3 -c 'import sqlite3' 2>/dev/null || skip "python3 has no sqlite3 module to read the database with"
env --default-signal=INT true 2>/dev/null || skip "env --default-signal not supported (coreutils < 8.31)"
mkdir "$W/work"
DB=$W/history.db
ARGS="--work $W/work --runs 3 --size 64M --db $DB tmpfs -- -s 16:8192:500 -n 1 -f64k"

sql() {
	python3 - "$DB" "$1" <<'EOF'
import sqlite3, sys
for row in sqlite3.connect(sys.argv[1]).execute(sys.argv[2]):
    print("|".join("" if v is None else str(v) for v in row))
EOF
}

for s in s1 s2; do
	# shellcheck disable=SC2086 # ARGS is split on purpose
	CLYDE=$CLYDE CLYDE_REPORT=$REPORT sh "$FSMATRIX" --out "$W/$s" $ARGS >"$W/$s.out" 2>"$W/$s.err"
	rc=$?
	expect_eq "study $s: exit status" "$rc" 0
	[ "$rc" = 0 ] || sed 's/^/    /' "$W/$s.err"
	expect_file_has "study $s: the summary names the history" "$W/$s.out" "history: $DB (0 run(s) not added)"
done
expect_eq "six runs, labelled by entry and study" \
	"$(sql "select l.value, count(*) from labels l where l.key = 'study' group by l.value order by 1")" "s1|3
s2|3"
# the study's report reads the runs' JSON documents, as the history does: a rate for every phase,
# those its CSV lines hid (+++++, under 0.5 s: a 16 MiB file on tmpfs reads in a few ms) too
expect_match "s1: results.csv hides a short phase" "$(cut -d, -f10-20 "$W/s1/results.csv")" '\+\+\+\+\+'
# the report's block of its one configuration: a row per phase
report_block() {
	sed -n '/^\[1\]/,/^$/{p;/^$/q;}' "$W/s1/report.txt"
}
expect_eq "s1: its report hides none" "$(report_block | grep -c '+++')" 0
# and agrees with the history on every phase: its CV and its runs, as report.txt has them (^N: runs
# under 0.5 s, counted) and as --compare of the same study has them
"$REPORT" --db "$DB" --compare study=s1 study=s1 >"$W/s1-db.out" 2>&1
expect_eq "s1: the report's CV and runs are the history's, phase by phase" "$(report_block | report_phase_cells '5 6')" \
	"$(compare_phase_cells <"$W/s1-db.out" | cut -d' ' -f1,3,4)"
expect_eq "s1: twelve phases compared" "$(compare_phase_cells <"$W/s1-db.out" | wc -l)" 12
expect_eq "the entry's label" "$(sql "select distinct value from labels where key = 'entry'")" tmpfs
expect_eq "the environment from the JSON" "$(sql 'select distinct fs_type from runs')" tmpfs

# stopped by SIGINT in its second run: the first is in the history
OUT=$W/s3
wait_pause() {
	i=0
	while [ $i -lt 600 ]; do
		grep -q "test pause in rewrite" "$OUT/raw/01-tmpfs.r$1.err" 2>/dev/null && return 0
		sleep 0.05
		i=$((i + 1))
	done
	fail "run $1 never paused"
	return 1
}
# shellcheck disable=SC2086
CLYDE=$CLYDE CLYDE_REPORT=$REPORT CLYDE_TEST_PAUSE=rewrite CLYDE_TEST_RESUME=$W/go \
	env --default-signal=INT sh "$FSMATRIX" --out "$OUT" $ARGS >"$W/s3.out" 2>"$W/s3.err" &
pid=$!
wait_pause 1 && touch "$W/go" && wait_pause 2
kill -INT $pid
rc=0
wait $pid || rc=$?
expect_eq "stopped: exit status" "$rc" 130
expect_eq "stopped: its first run is in the history" "$(sql "select count(*) from labels where key = 'study' and value = 's3'")" 1

# the two studies compared: a verdict per phase; the gate fails where a phase is worse beyond 5%
rc=0
"$REPORT" --db "$DB" --compare study=s1 study=s2 --fail-on-regression=5 >"$W/cmp.out" 2>"$W/cmp.err" || rc=$?
expect_match "compare: 0 or 7" "$rc" '^(0|7)$'
expect_match "compare: verdicts" "$(cat "$W/cmp.out")" ' (better|worse|within noise) \(3/3 runs\)'
# the ratio as printed (3 places): 0.950 may be either side of 5%, so such a phase is left out of both lists
worse=$(awk '/ worse \(/ && $5 < 0.95 { print $1 }' "$W/cmp.out" | sort)
edge=$(awk '/ worse \(/ && $5 == "0.950" { print $1 }' "$W/cmp.out")
# the configuration's key holds colons (-s 16:8192:500): the phase is the word before "N% worse"
named=$(sed -n 's/^clyde-report: regression: .*: \([a-z_]*\) [0-9.]*% worse .*/\1/p' "$W/cmp.err" | grep -vxF "${edge:-@}" | sort)
expect_eq "the gate names the phases worse beyond 5%" "$named" "$worse"
if [ -z "$edge" ]; then
	expect_eq "the gate's status" "$rc" "$([ -n "$worse" ] && echo 7 || echo 0)"
fi
# a set against itself: within noise everywhere, the gate passes
rc=0
"$REPORT" --db "$DB" --compare study=s1 study=s1 --fail-on-regression=0 >"$W/self.out" 2>&1 || rc=$?
expect_eq "a study against itself passes the gate" "$rc" 0
check "a study against itself is within noise" sh -c "! grep -Eq ' (better|worse) \(' '$W/self.out'"
expect_eq "the history is intact" "$(sql 'pragma integrity_check')" ok
done_testing
