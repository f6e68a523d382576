#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# clyde-fsmatrix for real: a tiny study over tmpfs, ext2 and ext4 on
# loop devices, two runs each; what it leaves in the results directory,
# that its commands are its dry run's plan, and that nothing else is
# left: no mount, no loop device, no image, no directory. Then a study
# stopped by SIGINT in its second run: it cleans up and exits 130.
. "$TESTLIB"
need_loops mkfs.ext2 mkfs.ext4

TDIR=$(cd "$(dirname "$TESTLIB")" && pwd)
FSMATRIX=${FSMATRIX:-$TDIR/../clyde-fsmatrix}
scratch_dir
W=$SCRATCH
WORK=$W/work
mkdir "$WORK"
ARGS="--work $WORK --runs 2 --size 256M tmpfs ext2 ext4:noatime -- -s 16:8192:500 -n 1 -f64k"

# nothing of the study is left: no mount or loop device of the work
# directory, nothing in it
expect_nothing_left() {
	expect_eq "$1: no mount under the work directory" "$(grep -F " $WORK/" /proc/self/mounts)" ""
	expect_eq "$1: no loop device on its images" "$(losetup -a | grep -F "$WORK/")" ""
	expect_empty_dir "$1: nothing in the work directory" "$WORK"
}

# without the $W prefix, /dev/loopN as @DEV@ and the pid as @PID@
normalize() {
	sed -E -e "s|$W|@W@|g" -e 's|/dev/loop[0-9]+|@DEV@|g' -e 's/clydefm(\.?)[0-9]+/clydefm\1@PID@/g'
}

# 1. the study
OUT=$W/out
# shellcheck disable=SC2086 # ARGS is split on purpose
CLYDE=$CLYDE sh "$FSMATRIX" --out "$OUT" $ARGS >"$W/stdout" 2>"$W/stderr"
rc=$?
expect_eq "study: exit status" "$rc" 0
[ $rc = 0 ] || sed 's/^/    /' "$W/stderr"
expect_eq "study: progress on stderr" "$(cat "$W/stderr")" "clyde-fsmatrix: tmpfs: run 1 of 2
clyde-fsmatrix: tmpfs: run 2 of 2
clyde-fsmatrix: ext2: run 1 of 2
clyde-fsmatrix: ext2: run 2 of 2
clyde-fsmatrix: ext4:noatime: run 1 of 2
clyde-fsmatrix: ext4:noatime: run 2 of 2"
expect_eq "results.csv: the names of six runs" "$(cut -d, -f3 "$OUT/results.csv" | tr '\n' ' ')" \
	"tmpfs tmpfs ext2 ext2 ext4:noatime ext4:noatime "
expect_eq "results.csv: clyde's CSV lines" "$(grep -cE '^1\.98,0\.[0-9.]+,' "$OUT/results.csv")" 6
expect_eq "runs.tsv: header" "$(head -n 1 "$OUT/runs.tsv")" \
	"$(printf 'entry\trun\tfstype\tmkfs\tmount_options\tmounted_as\tdevice\tdirect_io\tcsv_line\tjson')"
expect_eq "runs.tsv: the runs" "$(sed 1d "$OUT/runs.tsv" | cut -f1-5,8-10 | normalize)" "$(printf '%s\n' \
	'tmpfs	1	tmpfs	-	size=256M	-	1	json/01-tmpfs.r1.json' \
	'tmpfs	2	tmpfs	-	size=256M	-	2	json/01-tmpfs.r2.json' \
	'ext2	1	ext2	mkfs.ext2 -q -F	-	on	3	json/02-ext2.r1.json' \
	'ext2	2	ext2	mkfs.ext2 -q -F	-	on	4	json/02-ext2.r2.json' \
	'ext4:noatime	1	ext4	mkfs.ext4 -q -F	noatime	on	5	json/03-ext4_noatime.r1.json' \
	'ext4:noatime	2	ext4	mkfs.ext4 -q -F	noatime	on	6	json/03-ext4_noatime.r2.json')"
expect_eq "runs.tsv: devices" "$(sed 1d "$OUT/runs.tsv" | cut -f7 | normalize | tr '\n' ' ')" \
	"tmpfs tmpfs @DEV@ @DEV@ @DEV@ @DEV@ "
expect_eq "runs.tsv: ext4 mounted noatime" "$(sed 1d "$OUT/runs.tsv" | cut -f6 | grep -c '^rw,noatime')" 2
expect_eq "runs.tsv: tmpfs mounted with its size" "$(sed 1d "$OUT/runs.tsv" | cut -f6 | grep -c 'size=262144k')" 2
expect_eq "the JSON documents" "$(ls "$OUT/json" | tr '\n' ' ')" \
	"01-tmpfs.r1.json 01-tmpfs.r2.json 02-ext2.r1.json 02-ext2.r2.json 03-ext4_noatime.r1.json 03-ext4_noatime.r2.json "
expect_eq "each JSON is its run's" "$(grep -l '"name": "ext4:noatime"' "$OUT/json/03-ext4_noatime.r2.json" | wc -l)" 1
expect_eq "raw output: the tables and the CSV line" "$(tail -n 1 "$OUT/raw/02-ext2.r1.out")" "$(sed -n 3p "$OUT/results.csv")"

# commands.log: every command with status 0, and exactly the dry run's plan
expect_eq "commands.log: every status 0" "$(cut -f2 "$OUT/commands.log" | sort -u)" 0
expect_match "commands.log: time stamps" "$(cut -f1 "$OUT/commands.log" | sort -u | head -n 1)" \
	'^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}$'
# shellcheck disable=SC2086
CLYDE=$CLYDE sh "$FSMATRIX" --dry-run --out "$OUT" $ARGS | grep -v '^#' | grep -v 'clyde-report' |
	normalize >"$W/plan"
cut -f3- "$OUT/commands.log" | grep -v 'clyde-report' | normalize >"$W/done"
if cmp -s "$W/plan" "$W/done"; then ok; else
	fail "commands.log is not the dry run's plan:"
	diff -u "$W/plan" "$W/done" | sed 's/^/    /'
fi
expect_eq "the plan's length" "$(wc -l <"$W/plan")" 36

# the summary, and the report when there is a clyde-report
summary="clyde-fsmatrix: 3 entries, 2 runs each; results in $OUT
  tmpfs                    2 runs
  ext2                     2 runs
  ext4:noatime             2 runs"
# found as clyde-fsmatrix finds it: CLYDE_REPORT, beside clyde, beside
# clyde-fsmatrix, on PATH
if [ -n "${CLYDE_REPORT:-}" ]; then
	REPORT=$CLYDE_REPORT
elif [ -x "$(dirname "$CLYDE")/clyde-report" ]; then
	REPORT=$(dirname "$CLYDE")/clyde-report
elif [ -x "$(dirname "$FSMATRIX")/clyde-report" ]; then
	REPORT=$(dirname "$FSMATRIX")/clyde-report
else
	REPORT=$(command -v clyde-report || echo clyde-report)
fi
if command -v "$REPORT" >/dev/null 2>&1; then
	expect_eq "summary.txt" "$(cat "$OUT/summary.txt")" "$summary"
	for f in report.txt report.html report.svg; do
		expect_eq "$f written" "$([ -s "$OUT/$f" ] && echo yes)" yes
	done
	expect_eq "the report follows the summary" "$(sed -n 6,999p "$W/stdout")" "$(cat "$OUT/report.txt")"
	expect_eq "the report's baseline is the first entry" "$(grep -c '^Baseline: \[1\] tmpfs ' "$OUT/report.txt")" 1
	# the report reads the runs' JSON: a rate for every phase of every entry, those their CSV
	# lines print as +++++ (16 MiB, under 0.5 s) too, and geometric means over the same phases
	expect_match "results.csv hides short phases" "$(cut -d, -f10-20 "$OUT/results.csv")" '\+\+\+\+\+'
	expect_eq "the report hides no phase" "$(sed -n '/^\[1\]/,/^Geometric mean/p' "$OUT/report.txt" |
		grep -c '^  [A-Z].*+++')" 0
	expect_eq "every entry's mean over the same phases" \
		"$(grep -E '^\[[23]\] ' "$OUT/report.txt" | sed -n 's/.* over \([0-9]*\) phases$/\1/p' | sort -u | wc -l)" 1
	expect_eq "clyde-report in commands.log" "$(grep -c "	0	$REPORT --baseline tmpfs -o $OUT/report.txt" "$OUT/commands.log")" 1
else
	echo "note: no clyde-report at $REPORT: the report step was skipped"
	expect_eq "summary.txt" "$(cat "$OUT/summary.txt")" "$summary
  report: skipped: clyde-report not found (set CLYDE_REPORT or put it on PATH)"
fi
expect_eq "stdout begins with the summary" "$(head -n 4 "$W/stdout")" "$summary"
expect_nothing_left "study"

# 2. SIGINT in the second run of the first entry, while clyde waits at
# its test pause in the rewrite phase (CLYDE_TEST_PAUSE; the first run
# goes on when the resume file appears). A shell started with & by a
# script has SIGINT ignored and could not trap it: env --default-signal
# gives it back its default.
env --default-signal=INT true 2>/dev/null || skip "env --default-signal not supported (coreutils < 8.31)"
OUT=$W/out2
# wait_pause RUN: clyde's run RUN has paused
wait_pause() {
	i=0
	while [ $i -lt 600 ]; do
		grep -q "test pause in rewrite" "$OUT/raw/01-ext4.r$1.err" 2>/dev/null && return 0
		sleep 0.05
		i=$((i + 1))
	done
	fail "run $1 never paused"
	return 1
}
CLYDE=$CLYDE CLYDE_TEST_PAUSE=rewrite CLYDE_TEST_RESUME=$W/go env --default-signal=INT \
	sh "$FSMATRIX" --out "$OUT" --work "$WORK" --runs 3 --size 256M ext4 tmpfs -- -s 16:8192:500 -n 1 -f64k \
	>"$W/stdout2" 2>"$W/stderr2" &
pid=$!
wait_pause 1 && touch "$W/go" && wait_pause 2
expect_eq "the first run is in results.csv" "$(wc -l <"$OUT/results.csv")" 1
kill -INT $pid
wait $pid
expect_eq "SIGINT: exit status" "$?" 130
expect_eq "SIGINT: stderr" "$(cat "$W/stderr2")" "clyde-fsmatrix: ext4: run 1 of 3
clyde-fsmatrix: ext4: run 2 of 3
clyde-fsmatrix: stopped by SIGINT: cleaning up"
expect_eq "SIGINT: nothing on stdout" "$(cat "$W/stdout2")" ""
expect_eq "SIGINT: summary.txt" "$(cat "$OUT/summary.txt")" "clyde-fsmatrix: 2 entries, 3 runs each; results in $OUT
  ext4                     stopped by SIGINT in run 2"
expect_eq "SIGINT: the first run's results are kept" "$(cut -d, -f3 "$OUT/results.csv")" ext4
expect_eq "SIGINT: clyde stopped (exit 5), then the clean-up" \
	"$(sed -n '/ --json .*r2\.json/,$p' "$OUT/commands.log" | cut -f2- | normalize)" "$(printf '%s\n' \
	"5	$CLYDE -d @W@/work/clydefm.@PID@/mnt01 -m ext4 --json @W@/out2/json/01-ext4.r2.json -s 16:8192:500 -n 1 -f64k" \
	'0	umount @W@/work/clydefm.@PID@/mnt01' \
	'0	losetup -d @DEV@' \
	'0	rm -f @W@/work/clydefm.@PID@/e01.img' \
	'0	rmdir @W@/work/clydefm.@PID@/mnt01' \
	'0	rmdir @W@/work/clydefm.@PID@' \
	'-	# stopped by SIGINT')"
expect_match "SIGINT: clyde removed its files" "$(cat "$OUT/raw/01-ext4.r2.err")" "stopped by signal 15; removed "
expect_nothing_left "SIGINT"
done_testing
