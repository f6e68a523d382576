#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# clyde-fsmatrix --age for real, on loop devices: ext2 and ext4, fresh
# and aged:80:2, two runs each. The aging is clyde's own (--age
# --age-only); a wrapper logs each call and what every run finds under
# -d before it hands the call to clyde. That
# the aged master is made once per entry with the runs' -s and -n, that
# every run of an aged column starts from the same aged state (the
# files there, and nothing an earlier run left: each on its own copy),
# that the commands are the dry run's plan, that --db labels the runs
# age= and the report has its fresh-against-aged table, and that nothing
# is left: no mount, no loop device, no master, no copy. Then a study
# stopped by SIGINT while it ages: it cleans up (the master too), 130.
. "$TESTLIB"
need_loops mkfs.ext2 mkfs.ext4

TDIR=$(cd "$(dirname "$TESTLIB")" && pwd)
FSMATRIX=${FSMATRIX:-$TDIR/../clyde-fsmatrix}
scratch_dir
W=$SCRATCH
WORK=$W/work
mkdir "$WORK"
LOG=$W/stub.log
: >"$LOG"

# the wrapper: --age-only is logged (and, for the SIGINT case, held);
# any other run is logged with what it finds under -d (aging directories,
# their files) and leaves a mark there that a later run on the same copy
# would see; every call is then clyde's
cat >"$W/clyde" <<EOF
#!/bin/sh
dir= json= age_only=0
prev=
for a; do
	case \$prev in
	-d) dir=\$a ;;
	--json) json=\$a ;;
	esac
	case \$a in --age-only) age_only=1 ;; esac
	prev=\$a
done
if [ \$age_only = 1 ]; then
	echo "age \$*" >>"$LOG"
	[ -z "\${STUB_AGE_PAUSE:-}" ] || { touch "\$STUB_AGE_PAUSE"; sleep 60; exit 5; }
	exec "$CLYDE" "\$@"
fi
aged=\$(ls -d "\$dir"/clyde.age.* 2>/dev/null | wc -l)
files=\$(find "\$dir"/clyde.age.* -type f 2>/dev/null | wc -l)
echo "run \$(basename "\$json") aged=\$aged files=\$files marks=\$(ls "\$dir" | grep -c '^mark')" >>"$LOG"
touch "\$dir/mark.\$\$"
exec "$CLYDE" "\$@"
EOF
chmod +x "$W/clyde"

expect_nothing_left() {
	expect_eq "$1: no mount under the work directory" "$(grep -F " $WORK/" /proc/self/mounts)" ""
	expect_eq "$1: no loop device on its images" "$(losetup -a | grep -F "$WORK/")" ""
	expect_empty_dir "$1: nothing in the work directory" "$WORK"
}
normalize() {
	sed -E -e "s|$W|@W@|g" -e 's|/dev/loop[0-9]+|@DEV@|g' -e 's/clydefm(\.?)[0-9]+/clydefm\1@PID@/g'
}

ARGS="--work $WORK --runs 2 --size 256M --age fresh,aged:80:2 --age-seed 7 ext2 ext4 -- -s 16:8192:500 -n 1 -f64k"
OUT=$W/out
DB=$W/h.db
# shellcheck disable=SC2086 # ARGS is split on purpose
CLYDE=$W/clyde CLYDE_REPORT=$REPORT sh "$FSMATRIX" --out "$OUT" --db "$DB" $ARGS >"$W/stdout" 2>"$W/stderr"
rc=$?
expect_eq "study: exit status" "$rc" 0
[ $rc = 0 ] || sed 's/^/    /' "$W/stderr"
expect_eq "study: progress" "$(cat "$W/stderr")" "clyde-fsmatrix: ext2@fresh: run 1 of 2
clyde-fsmatrix: ext2@fresh: run 2 of 2
clyde-fsmatrix: ext2@aged:80:2: aging the master image
clyde-fsmatrix: ext2@aged:80:2: run 1 of 2
clyde-fsmatrix: ext2@aged:80:2: run 2 of 2
clyde-fsmatrix: ext4@fresh: run 1 of 2
clyde-fsmatrix: ext4@fresh: run 2 of 2
clyde-fsmatrix: ext4@aged:80:2: aging the master image
clyde-fsmatrix: ext4@aged:80:2: run 1 of 2
clyde-fsmatrix: ext4@aged:80:2: run 2 of 2"
expect_eq "aged once per entry, with the runs' -s and -n and the seed" "$(grep '^age ' "$LOG" | normalize)" \
	"age -d @W@/work/clydefm.@PID@/mnt02 --age=80%:2 --age-only -z 7 -s 16:8192:500 -n 1 --json @W@/out/raw/02-ext2_aged_80_2.age.json
age -d @W@/work/clydefm.@PID@/mnt04 --age=80%:2 --age-only -z 7 -s 16:8192:500 -n 1 --json @W@/out/raw/04-ext4_aged_80_2.age.json"
# a fresh column's second run is on the same file system (a mark of the first); an aged column's
# runs each on a copy of the master: the same aging files, and no mark
expect_eq "what each run found" "$(grep '^run ' "$LOG" | sed -E 's/files=[1-9][0-9]*/files=N/')" \
	"run 01-ext2_fresh.r1.json aged=0 files=0 marks=0
run 01-ext2_fresh.r2.json aged=0 files=0 marks=1
run 02-ext2_aged_80_2.r1.json aged=1 files=N marks=0
run 02-ext2_aged_80_2.r2.json aged=1 files=N marks=0
run 03-ext4_fresh.r1.json aged=0 files=0 marks=0
run 03-ext4_fresh.r2.json aged=0 files=0 marks=1
run 04-ext4_aged_80_2.r1.json aged=1 files=N marks=0
run 04-ext4_aged_80_2.r2.json aged=1 files=N marks=0"
for e in 02-ext2 04-ext4; do
	expect_eq "$e: both runs found the master's files" \
		"$(grep "^run $e" "$LOG" | sed -E 's/.* files=([0-9]+) .*/\1/' | sort -u | wc -l)" 1
done
# the aging's own JSON: 80% full at the block read (the phases' -s reserved), from the master
for e in 02-ext2 04-ext4; do
	expect_eq "$e: the master aged to 80% with churn 2" "$(python3 -c 'import json, sys
a = json.load(open(sys.argv[1]))["runs"][0]["age"]
print(a["target_pct"], a["churn"], a["churn_done"] >= 1.99, a["kept_dir"] is not None)' \
		"$OUT/raw/${e}_aged_80_2.age.json")" "80 2 True True"
done

# commands.log: every status 0, and the dry run's plan
expect_eq "commands.log: every status 0" "$(cut -f2 "$OUT/commands.log" | sort -u)" 0
# shellcheck disable=SC2086
CLYDE=$W/clyde sh "$FSMATRIX" --dry-run --out "$OUT" --db "$DB" $ARGS | grep -v '^#' | normalize >"$W/plan"
cut -f3- "$OUT/commands.log" | normalize | sed "s|^$(echo "$REPORT" | normalize)|clyde-report|" >"$W/done"
sed -i "s|^$(echo "$REPORT" | normalize)|clyde-report|" "$W/plan"
if cmp -s "$W/plan" "$W/done"; then ok; else
	fail "commands.log is not the dry run's plan:"
	diff -u "$W/plan" "$W/done" | sed 's/^/    /'
fi
expect_eq "the copies: one a run of an aged column" "$(grep -c '	0	cp --reflink=auto --sparse=always ' "$OUT/commands.log")" 4

# the history and the report
if python3 -c 'import sqlite3' 2>/dev/null && [ -s "$DB" ]; then
	python3 - "$DB" >"$W/labels" <<'EOF'
import sqlite3, sys
con = sqlite3.connect(sys.argv[1])
print(" ".join("%s=%s" % r for r in con.execute(
    "select r.name, l.value from runs r join labels l on l.run_id = r.id and l.key = 'age' order by r.id")))
EOF
	expect_eq "--db: the runs' age labels" "$(cat "$W/labels")" \
		"ext2@fresh=fresh ext2@fresh=fresh ext2@aged:80:2=aged:80:2 ext2@aged:80:2=aged:80:2 ext4@fresh=fresh ext4@fresh=fresh ext4@aged:80:2=aged:80:2 ext4@aged:80:2=aged:80:2"
fi
expect_file_has "the report: fresh against aged" "$OUT/report.txt" "Fresh against aged (aged:80:2)"
expect_eq "the report: a ranking line per phase of both" \
	"$(sed -n '/^Fresh against aged/,/^$/p' "$OUT/report.txt" | grep -c -e ' same ranking fresh and aged$' -e ' ranking flipped: ')" \
	"$(sed -n '/^Fresh against aged/,/^$/p' "$OUT/report.txt" | awk '$2 == "ext2" { n++ } END { print n + 0 }')"
expect_nothing_left "study"

# 2. SIGINT while the second entry's master is aged: the master goes too
env --default-signal=INT true 2>/dev/null || skip "env --default-signal not supported (coreutils < 8.31)"
OUT=$W/out2
CLYDE=$W/clyde STUB_AGE_PAUSE=$W/aging env --default-signal=INT \
	sh "$FSMATRIX" --out "$OUT" --work "$WORK" --runs 1 --size 256M --age aged:50:1 ext4 \
	-- -s 16:8192:500 -n 1 -f64k >"$W/stdout2" 2>"$W/stderr2" &
pid=$!
i=0
while [ ! -e "$W/aging" ] && [ $i -lt 600 ]; do
	sleep 0.05
	i=$((i + 1))
done
check "the aging began" test -e "$W/aging"
kill -INT $pid
wait $pid
expect_eq "SIGINT: exit status" "$?" 130
expect_eq "SIGINT: the clean-up, the master image too" \
	"$(sed -n '/--age-only/,$p' "$OUT/commands.log" | cut -f2- | normalize | sed 's/^[0-9]*	@W@\/clyde .*/(aging)/')" \
	"$(printf '%s\n' '(aging)' \
	'0	umount @W@/work/clydefm.@PID@/mnt01' \
	'0	losetup -d @DEV@' \
	'0	rm -f @W@/work/clydefm.@PID@/e01.master.img' \
	'0	rmdir @W@/work/clydefm.@PID@/mnt01' \
	'0	rmdir @W@/work/clydefm.@PID@' \
	'-	# stopped by SIGINT')"
expect_nothing_left "SIGINT"
done_testing
