#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# clyde-report's results history (--db): runs added with their labels and
# environment, each once (a clyde JSON document and its own CSV lines are
# the same runs), two sets of made-up runs whose answer is known compared
# (10% slower with little noise: worse; 2% with 5% noise: within noise;
# 2 runs: too few), --fail-on-regression's status 7 and the statuses that
# win over it, a history chart that parses as SVG, four writers at once,
# a database of the previous schema (made here from SQL, not by
# clyde-report) migrated, and databases that are not to be written or
# used: read-only, newer, of a crafted schema version or application id,
# foreign, damaged. The database is read back with
# Python's sqlite3 module, independent of the program.
. "$TESTLIB"
[ -x "$REPORT" ] || skip "no $REPORT"
need_cmd python3
scratch_dir
W=$SCRATCH

# a build without SQLite: --db says how to get it and exits 6, then the rest cannot run
rc=0
"$REPORT" --db "$W/probe.db" --history name=x >"$W/probe.out" 2>&1 || rc=$?
if [ "$rc" = 6 ]; then
	expect_file_has "without SQLite, --db says how to get it" "$W/probe.out" "--with-sqlite3=yes"
	check "without SQLite, no database is made" test ! -e "$W/probe.db"
	skip "clyde-report was built without SQLite (--with-sqlite3=no): exit 6 checked, the history cannot be"
fi
python3 -c 'import sqlite3' 2>/dev/null || skip "python3 has no sqlite3 module to read the database with"

# sql DB QUERY: the query's rows, fields joined by '|', read by Python (not by clyde-report)
sql() {
	python3 - "$1" "$2" <<'EOF'
import sqlite3, sys
con = sqlite3.connect(sys.argv[1])
for row in con.execute(sys.argv[2]):
    print("|".join("" if v is None else str(v) for v in row))
EOF
}

# line NAME SEED PUTC GETC SEEKS: a clyde CSV line (bonnie++ 1.98's layout) with these rates
line() {
	printf '1.98,0.1.0,%s,1,%s,8M,,1000,5,%s,50,+++++,+++,+++++,+++,%s,50,+++++,+++,%s,10,1,,,,,' \
		"$1" "$2" "$3" "$4" "$5"
	printf '+++++,+++,+++++,+++,+++++,+++,+++++,+++,+++++,+++,+++++,+++,'
	printf '10us,10us,10us,10us,10us,10us,10us,10us,10us,10us,10us,10us\n'
}

status() {
	rc=0
	"$@" >"$W/out" 2>"$W/err" || rc=$?
	echo "$rc"
}

# 1. add, dedupe, labels, environment
DB=$W/h.db
python3 - "$REPORT_GOLDEN/clyde-x2.json" >"$W/x2.csv" <<'EOF'
import json, sys
for run in json.load(open(sys.argv[1]))["runs"]:
    print(run["csv"])
EOF
expect_eq "add a JSON document" "$(status "$REPORT" --db "$DB" --add --label kernel=6.1 \
	--label patch=none "$REPORT_GOLDEN/clyde-x2.json")" 0
expect_file_has "the add counts its runs" "$W/out" "2 runs added, 0 already there"
expect_eq "add the document's own CSV lines" "$(status "$REPORT" --db "$DB" --add \
	--label note=again "$W/x2.csv")" 0
expect_file_has "the document's own CSV lines are its runs" "$W/out" "0 runs added, 2 already there"
expect_eq "add the same document again" "$(status "$REPORT" --db "$DB" --add "$REPORT_GOLDEN/clyde-x2.json")" 0
expect_eq "still two runs" "$(sql "$DB" 'select count(*) from runs')" 2
expect_eq "the labels of both adds" "$(sql "$DB" "select group_concat(key||'='||value, ' ') from \
	(select key, value from labels where run_id = (select min(id) from runs) order by key)")" \
	"kernel=6.1 note=again patch=none"
expect_eq "the JSON's environment" "$(sql "$DB" 'select distinct fs_type, kernel, cache_mode, clyde_version from runs')" \
	"$(python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))["runs"][0]; d=json.load(open(sys.argv[1]))
print("|".join([r["filesystem"]["type"], r["machine"]["kernel"], r["cache"]["mode"], d["clyde_version"]]))' \
	"$REPORT_GOLDEN/clyde-x2.json")"
expect_eq "figures per phase and measure" "$(sql "$DB" "select count(*) > 0 from results where measure = 'rate' and phase = 'put_block'")" 1
expect_eq "add bonnie++'s CSV" "$(status "$REPORT" --db "$DB" --add "$REPORT_GOLDEN/bonnie-2.00a.csv")" 0
expect_eq "older documents and bonnie++ lines say no start: known by their lines" \
	"$(sql "$DB" "select count(*) from runs where started_at is null and identity = line_identity and identity like 'csv:%'")" \
	"$(sql "$DB" "select count(*) from runs")"
expect_eq "a bonnie++ line has no environment" \
	"$(sql "$DB" "select count(*) from runs where format like 'bonnie%' and kernel is null and fs_type is null and host is null")" \
	"$(sql "$DB" "select count(*) from runs where format like 'bonnie%'")"
expect_eq "add a document with time series" "$(status "$REPORT" --db "$DB" --add "$REPORT_GOLDEN/clyde-s8.json")" 0
expect_eq "its series rows, as many as the document has" "$(sql "$DB" 'select count(*) from series')" \
	"$(python3 -c 'import json,sys
print(sum(len(p["series"]["rows"]) for r in json.load(open(sys.argv[1]))["runs"]
          for p in r["phases"].values() if isinstance(p, dict) and p.get("series")))' "$REPORT_GOLDEN/clyde-s8.json")"
cat >"$W/disk.zcav" <<'Z'
#block offset (GiB), MiB/s, time
0.00 150.00 3.413
0.50 140.00 3.657
1.50 100.00 5.120
Z
expect_eq "add a zcav sweep" "$(status "$REPORT" --db "$DB" --add "$W/disk.zcav")" 0
expect_eq "add it again" "$(status "$REPORT" --db "$DB" --add "$W/disk.zcav")" 0
expect_eq "the sweep once, with its points" "$(sql "$DB" 'select count(*) from sweeps')|$(sql "$DB" \
	'select group_concat(mib_s) from (select mib_s from sweep_points order by point)')" "1|150.0,140.0,100.0"
expect_eq "the schema version" "$(sql "$DB" 'pragma user_version')" 6
expect_eq "nothing readable to add: 3" "$(status "$REPORT" --db "$DB" --add /dev/null)" 3
expect_eq "an unreadable input: 2" "$(status "$REPORT" --db "$DB" --add "$W/none.csv")" 2
expect_eq "a bad label: usage" "$(status "$REPORT" --db "$DB" --add --label 'a b=c' "$W/x2.csv")" 1

# 1b. a run's identity: its seed, start and host where the JSON says when it began
# (clyde-result/10), else its line and which of its input's runs with that line it is.
# doc10 OUT HOST=START...: clyde-x2.json's first run (a real one) as a /10 document, once
# per HOST=START, each with the same CSV line (an empty START: null)
doc10() {
	python3 - "$REPORT_GOLDEN/clyde-x2.json" "$@" <<'EOF'
import json, sys
doc = json.load(open(sys.argv[1]))
run = doc["runs"][0]
doc["schema"] = "clyde-result/10"
doc["runs"] = []
for hs in sys.argv[3:]:
    host, start = hs.split("=", 1)
    r = dict(run)
    r["host"], r["started_at"] = host, start or None
    doc["runs"].append(r)
json.dump(doc, open(sys.argv[2], "w"), indent=1)
EOF
}
I=$W/id.db
doc10 "$W/twins.json" h1=2026-01-02T03:04:05.000001Z h2=2026-01-02T03:04:05.000001Z
expect_eq "two runs of one CSV line, two hosts: both stored" "$(status "$REPORT" --db "$I" --add "$W/twins.json")" 0
expect_file_has "both added" "$W/out" "2 runs added, 0 already there"
expect_eq "their identities: seed, start, host" "$(sql "$I" "select identity from runs order by id" | tr '\n' ' ')" \
	"$(python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))["runs"][0]; s=r["seed"]
print("run:%d|2026-01-02T03:04:05.000001Z|h1 run:%d|2026-01-02T03:04:05.000001Z|h2 " % (s, s))' "$REPORT_GOLDEN/clyde-x2.json")"
expect_eq "two starts and hosts" "$(sql "$I" "select group_concat(host || '@' || started_at, ' ') from runs")" \
	"h1@2026-01-02T03:04:05.000001Z h2@2026-01-02T03:04:05.000001Z"
expect_eq "their line: the document's first and second of it" "$(sql "$I" "select replace(line_identity, \
	(select line_identity from runs where id = 1), 'L') from runs order by id" | tr '\n' ' ')|$(sql "$I" \
	'select line_identity from runs where id = 1')" "L L#2 |csv:$(python3 -c 'import json,sys
print(json.load(open(sys.argv[1]))["runs"][0]["csv"])' "$REPORT_GOLDEN/clyde-x2.json")"
expect_eq "the same document again" "$(status "$REPORT" --db "$I" --add "$W/twins.json")" 0
expect_file_has "stored once" "$W/out" "0 runs added, 2 already there"
# a /10 document and its own CSV lines in one input: one run each (the CSV line is the
# document's run, not a second run of its line)
doc10 "$W/one10.json" h1=2026-01-02T03:04:05.000001Z h2=2026-01-02T03:04:05.000001Z
python3 -c 'import json,sys; [print(r["csv"]) for r in json.load(open(sys.argv[1]))["runs"]]' \
	"$W/one10.json" >"$W/one10.csv"
cat "$W/one10.json" "$W/one10.csv" >"$W/both.txt"
expect_eq "a document and its CSV lines in one input" "$(status "$REPORT" --db "$W/both.db" --add "$W/both.txt")" 0
expect_file_has "its two runs, once each" "$W/out" "2 runs added, 2 already there"
expect_eq "two runs stored" "$(sql "$W/both.db" 'select count(*) from runs')" 2
cat "$W/one10.csv" "$W/one10.json" >"$W/both.txt"
expect_eq "the CSV lines first, then the document" "$(status "$REPORT" --db "$W/both2.db" --add "$W/both.txt")" 0
expect_eq "two runs stored" "$(sql "$W/both2.db" 'select count(*) from runs')" 2
# a host name as long as Linux allows (HOST_NAME_MAX 64), and one shorter: read and stored
h64=$(printf 'h%.0s' $(seq 64))
h63=$(printf 'h%.0s' $(seq 63))
doc10 "$W/long.json" "$h64=2026-01-02T03:04:05Z" "$h63=2026-01-02T03:04:05Z"
expect_eq "64- and 63-character hosts" "$(status "$REPORT" --db "$W/long.db" --add "$W/long.json")" 0
expect_file_has "both added" "$W/out" "2 runs added, 0 already there"
expect_eq "their hosts stored whole" "$(sql "$W/long.db" 'select length(host) from runs order by id' | tr '\n' ' ')" "64 63 "
doc10 "$W/later.json" h1=2026-01-02T03:09:00Z
expect_eq "the same line, started later on h1: a third run" "$(status "$REPORT" --db "$I" --add "$W/later.json")" 0
expect_file_has "added" "$W/out" "1 run added, 0 already there"
python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["runs"][0]["csv"])' "$REPORT_GOLDEN/clyde-x2.json" >"$W/one.csv"
expect_eq "the CSV line alone: one of those runs" "$(status "$REPORT" --db "$I" --add "$W/one.csv")" 0
expect_file_has "already there" "$W/out" "0 runs added, 1 already there"
expect_eq "--history dates each run by its start" "$(status "$REPORT" --db "$I" --history name=tmpfs-clyde --svg "$W/id.svg")" 0
expect_eq "its groups: the starts to the second, in order" "$(python3 - "$W/id.svg" <<'EOF'
import sys, xml.etree.ElementTree as ET
g = ET.parse(sys.argv[1]).getroot().find("{http://www.w3.org/2000/svg}g")
print(" ".join(t.text for t in g.iter("{http://www.w3.org/2000/svg}text") if t.text and t.text.startswith("20")))
EOF
)" "2026-01-02T03:04:05Z 2026-01-02T03:09:00Z"
# the line first, then the document: the line's row becomes the run that says when it ran,
# and the document's other run of the same line is another
L=$W/line.db
expect_eq "a CSV line, then /10 runs of that line" "$(status "$REPORT" --db "$L" --add "$W/one.csv")|$(status "$REPORT" --db "$L" --add "$W/twins.json")" "0|0"
expect_file_has "one of them is the line's run" "$W/out" "1 run added, 1 already there"
expect_eq "both known by their start now" "$(sql "$L" "select count(*), count(started_at), count(distinct identity) from runs")" "2|2|2"
# two identical lines in one input are two runs; the same input again, none new
{ cat "$W/one.csv"; cat "$W/one.csv"; } >"$W/two.csv"
expect_eq "one file, the same line twice" "$(status "$REPORT" --db "$W/two.db" --add "$W/two.csv")" 0
expect_file_has "two runs" "$W/out" "2 runs added, 0 already there"
expect_eq "the file again" "$(status "$REPORT" --db "$W/two.db" --add "$W/two.csv")" 0
expect_file_has "none new" "$W/out" "0 runs added, 2 already there"
expect_eq "its line in another file: the first of them" "$(status "$REPORT" --db "$W/two.db" --add "$W/one.csv")" 0
expect_file_has "already there" "$W/out" "0 runs added, 1 already there"
# a start that is not a UTC time: the run is refused, not guessed at
doc10 "$W/badstart.json" h1=2026-01-02
expect_eq "a started_at that is not a UTC time: nothing to add, 3" "$(status "$REPORT" --db "$W/bad.db" --add "$W/badstart.json")" 3
expect_file_has "and said" "$W/err" 'a "started_at" that is not a UTC time'
doc10 "$W/nostart.json" h1=
expect_eq "a /10 run whose start is null: known by its line" "$(status "$REPORT" --db "$L" --add "$W/nostart.json")" 0
expect_file_has "one of that line's runs" "$W/out" "0 runs added, 1 already there"

# 1c. many lines: each line's occurrence in its input is found in a hash table, and a
# repeat after the table has grown is still that line's second run. Counting them by a
# scan of the input's runs so far took 26.7 s of CPU for 40,000 lines (quadratic: 60 s
# for these 60,000); the table takes 3 s, the add included (6.4 s in the sanitizer build).
python3 - >"$W/many.csv" <<'EOF2'
for rep in range(2):
    for i in range(30000):
        print("1.98,0.1.0,many,1,%d,8M,,1000,5,%d,50,+++++,+++,+++++,+++,2000,50,+++++,+++,300,10,1,,,,,"
              "+++++,+++,+++++,+++,+++++,+++,+++++,+++,+++++,+++,+++++,+++,"
              "10us,10us,10us,10us,10us,10us,10us,10us,10us,10us,10us,10us" % (i, 1000 + i % 7))
EOF2
# cpu_status CMD...: CMD's exit status and its CPU seconds (user+system), its
# output in W/out and W/err; a wall limit of 600 s only against a hang. The
# bound is on CPU, not the wall: beside a CPU hog the sanitizer build's add
# (6.4 s of CPU, 3.2 s in the -O2 build) took over 20 s of wall time.
cpu_status() {
	python3 - "$W/out" "$W/err" "$@" <<'EOF'
import resource, subprocess, sys
try:
    with open(sys.argv[1], "w") as out, open(sys.argv[2], "w") as err:
        rc = subprocess.run(sys.argv[3:], stdout=out, stderr=err, timeout=600).returncode
except subprocess.TimeoutExpired:
    rc = 124
r = resource.getrusage(resource.RUSAGE_CHILDREN)
print(rc, "%.1f" % (r.ru_utime + r.ru_stime))
EOF
}
# cpu_bound NAME "RC CPU" SECONDS: exit 0 within SECONDS of CPU
cpu_bound() {
	cb_rc=${2% *}
	cb_cpu=${2#* }
	expect_eq "$1: exit status" "$cb_rc" 0
	if awk "BEGIN { exit !($cb_cpu < $3) }"; then ok; else fail "$1: $cb_cpu s of CPU, not under $3"; fi
}
cpu_bound "60,000 lines, each twice" "$(cpu_status "$REPORT" --db "$W/many.db" --add "$W/many.csv")" 20
expect_file_has "each line's two runs stored" "$W/out" "60000 runs added, 0 already there"
expect_eq "the second of a line seen after the table grew" \
	"$(sql "$W/many.db" "select count(*) from runs where line_identity like '%#2'")" 30000
cpu_bound "added again" "$(cpu_status "$REPORT" --db "$W/many.db" --add "$W/many.csv")" 20
expect_file_has "all there" "$W/out" "0 runs added, 60000 already there"

# 2. compare made-up runs whose answer is known
C=$W/c.db
: >"$W/a.csv"
: >"$W/b.csv"
seed=100
# putc: B 10% slower, 0.5% noise; getc: B 2% slower, 5% noise; seeks: B 20% faster
for d in -0.005 0 0.005 -0.003 0.003; do
	n=$(awk -v d="$d" 'BEGIN { print (d * 10) }')
	line box $seed "$(awk -v d="$d" 'BEGIN { printf "%d", 100000 * (1 + d) }')" \
		"$(awk -v n="$n" 'BEGIN { printf "%d", 100000 * (1 + n) }')" \
		"$(awk -v d="$d" 'BEGIN { printf "%d", 1000 * (1 + d) }')" >>"$W/a.csv"
	line box $((seed + 1)) "$(awk -v d="$d" 'BEGIN { printf "%d", 90000 * (1 - d) }')" \
		"$(awk -v n="$n" 'BEGIN { printf "%d", 98000 * (1 - n) }')" \
		"$(awk -v d="$d" 'BEGIN { printf "%d", 1200 * (1 - d) }')" >>"$W/b.csv"
	seed=$((seed + 2))
done
line box 900 100000 100000 1000 >"$W/few.csv"
line box 901 50000 50000 500 >>"$W/few.csv"
check "add set A" "$REPORT" --db "$C" --add --label kernel=A "$W/a.csv" >/dev/null
check "add set B" "$REPORT" --db "$C" --add --label kernel=B "$W/b.csv" >/dev/null
check "add set C" "$REPORT" --db "$C" --add --label kernel=C "$W/few.csv" >/dev/null
expect_eq "compare A B" "$(status "$REPORT" --db "$C" --compare kernel=A kernel=B)" 0
cp "$W/out" "$W/compare.out"
expect_match "10% slower, low noise: worse" "$(grep ' putc ' "$W/compare.out")" ' 0\.900 .* worse '
expect_match "2% slower, 5% noise: within noise" "$(grep ' getc ' "$W/compare.out")" ' 0\.980 .* within noise '
expect_match "20% faster: better" "$(grep ' seeks ' "$W/compare.out")" ' 1\.200 .* better '
expect_match "the CV of the noisy set" "$(grep ' getc ' "$W/compare.out")" ' [34]\.[0-9]%  *[34]\.[0-9]% '
expect_eq "compare A C" "$(status "$REPORT" --db "$C" --compare kernel=A kernel=C)" 0
expect_match "2 runs: too few" "$(grep ' putc ' "$W/out")" 'too few runs'
expect_eq "a 5% gate fails on the 10% regression: 7" \
	"$(status "$REPORT" --db "$C" --compare kernel=A kernel=B --fail-on-regression=5)" 7
expect_file_has "the regression is named" "$W/err" "regression: box -s 8M::*:5 -n 1: putc 10.0% worse"
check "the noisy phase is not named" sh -c "! grep -q getc '$W/err'"
# rates near the double's top in a crafted history (clyde-report never stores them: its
# readers cap a rate at 1e18): their spread squared overflowed, Welch's p came out NaN and
# the gate called putc worse; values past the readers' caps are not figures, left out
cp "$C" "$W/huge.db"
python3 -c 'import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.execute("update results set value = value * 1e155 where measure = '"'rate'"' and phase = '"'putc'"'"); c.commit()' "$W/huge.db"
expect_eq "a crafted history of rates near 1e160: the gate passes" \
	"$(status "$REPORT" --db "$W/huge.db" --compare kernel=A kernel=B --fail-on-regression=5)" 0
check "no p of NaN, no putc regression" sh -c "! grep -qi -e nan -e 'putc.*worse' '$W/out' '$W/err'"
expect_eq "a 15% gate passes" "$(status "$REPORT" --db "$C" --compare kernel=A kernel=B --fail-on-regression=15)" 0
expect_eq "2 runs against 5: the gate cannot judge: 8" \
	"$(status "$REPORT" --db "$C" --compare kernel=A kernel=C --fail-on-regression=5)" 8
expect_file_has "and names the phase and its runs" "$W/err" \
	"too few runs: box -s 8M::*:5 -n 1: putc has 5 in A and 2 in B, a verdict needs 3 a side"
expect_file_has "and says how to let it pass" "$W/err" "3 phases with too few runs to judge (under 3 a side); --allow-few lets them pass"
expect_eq "2 runs against 5, --allow-few: 0" \
	"$(status "$REPORT" --db "$C" --compare kernel=A kernel=C --fail-on-regression=5 --allow-few)" 0
expect_file_has "--allow-few still names them" "$W/err" "too few runs: box -s 8M::*:5 -n 1: putc has 5 in A and 2 in B"
expect_eq "2 runs against 5 without the gate: a report, 0" \
	"$(status "$REPORT" --db "$C" --compare kernel=A kernel=C)" 0
expect_eq "--allow-few without --fail-on-regression: usage" \
	"$(status "$REPORT" --db "$C" --compare kernel=A kernel=C --allow-few)" 1
# a regression in one configuration, too few runs in another: the regression's 7 wins
line odd 950 100000 100000 1000 >"$W/odd.csv"
line odd 951 100000 100000 1000 >>"$W/odd.csv"
G2=$W/g.db
check "gate sets: A" "$REPORT" --db "$G2" --add --label side=a "$W/a.csv"
check "gate sets: B" "$REPORT" --db "$G2" --add --label side=b "$W/b.csv" "$W/odd.csv"
expect_eq "a regression and a phase with too few runs: 7" \
	"$(status "$REPORT" --db "$G2" --compare side=a side=b --fail-on-regression=5)" 7
expect_eq "too few runs and no regression beyond 15%: 8" \
	"$(status "$REPORT" --db "$G2" --compare side=a side=b --fail-on-regression=15)" 8
expect_file_has "the one-sided configuration named" "$W/err" "too few runs: odd -s 8M::*:5 -n 1: putc has 0 in A and 2 in B"
# sides that share no configuration (configurations are keyed by name): nothing compared, 3,
# gate or not; a side with no run shows a dash, not nan or 0.0%
expect_eq "disjoint sides: 3" "$(status "$REPORT" --db "$G2" --compare name=box name=odd)" 3
expect_file_has "disjoint sides: said" "$W/err" "name=box and name=odd share no configuration (a name and its parameters): nothing compared"
expect_eq "disjoint sides, with the gate and --allow-few: still 3" \
	"$(status "$REPORT" --db "$G2" --compare name=box name=odd --fail-on-regression=5 --allow-few)" 3
expect_eq "an empty side: dashes for its mean and CV" "$(grep ' putc ' "$W/out" | tr -s ' ')" \
" putc 92.77 - MiB/s - 5.6% - - too few runs (10/0 runs)
 putc - 97.66 MiB/s - - 0.0% - too few runs (0/2 runs)"
check "no nan" sh -c "! grep -q nan '$W/out'"
expect_eq "an environment column selects too" "$(status "$REPORT" --db "$C" --compare kernel=A,name=box kernel=B)" 0
expect_eq "a selection that matches nothing wins over 7: 3" \
	"$(status "$REPORT" --db "$C" --compare kernel=A kernel=Z --fail-on-regression=5)" 3
expect_eq "a missing database wins over 7: 5" \
	"$(status "$REPORT" --db "$W/missing.db" --compare kernel=A kernel=B --fail-on-regression=5)" 5
check "and it is not made" test ! -e "$W/missing.db"
expect_eq "a bad selection: usage" "$(status "$REPORT" --db "$C" --compare kernel kernel=B)" 1
expect_eq "a bad percentage: usage" "$(status "$REPORT" --db "$C" --compare kernel=A kernel=B --fail-on-regression=x)" 1
expect_eq "--compare takes two" "$(status "$REPORT" --db "$C" --compare kernel=A)" 1
expect_eq "--label without --db: usage" "$(status "$REPORT" --label a=b "$W/a.csv")" 1
expect_eq "--db without an action: usage" "$(status "$REPORT" --db "$C")" 1
expect_eq "two actions: usage" "$(status "$REPORT" --db "$C" --add --history a=b)" 1
expect_eq "--svg with --compare: usage" "$(status "$REPORT" --db "$C" --compare kernel=A kernel=B --svg "$W/x.svg")" 1
expect_eq "--by without --history: usage" "$(status "$REPORT" --db "$C" --compare kernel=A kernel=B --by kernel)" 1

# 2b. sets whose median and mean disagree: the verdict is the mean's (its ratio and Welch's
# test of it), so the gate fails only on a regression of the same statistic it tests
S=$W/s.db
# runs FILE NAME FIRST_SEED VALUE...: one CSV line per value (putc and getc that rate, seeks 1000)
runs() {
	f=$1 n=$2 sd=$3
	shift 3
	: >"$f"
	for v in "$@"; do
		line "$n" "$sd" "$v" "$v" 1000 >>"$f"
		sd=$((sd + 1))
	done
}
# repeat N VALUE: VALUE N times
repeat() {
	i=0
	while [ "$i" -lt "$1" ]; do printf '%s ' "$2"; i=$((i + 1)); done
}
# the issue's: A 7 runs at 100000 and 5 at 80000 (median 100000, mean 91667), B 12 at 99000
# shellcheck disable=SC2046
runs "$W/bi-a.csv" mix 1000 $(repeat 7 100000) $(repeat 5 80000)
# shellcheck disable=SC2046
runs "$W/bi-b.csv" mix 2000 $(repeat 12 99000)
# skewed: A 28 runs at 100000 and 12 at 200000 (median 100000, mean 130000), B 40 at 109000..111000
# shellcheck disable=SC2046
runs "$W/sk-a.csv" skew 3000 $(repeat 28 100000) $(repeat 12 200000)
# shellcheck disable=SC2046
runs "$W/sk-b.csv" skew 4000 $(repeat 20 109000) $(repeat 20 111000)
# unequal sizes: A 3 runs {90000, 100000, 140000} (median 100000, mean 110000), B 9 at 104000
runs "$W/un-a.csv" uneq 5000 90000 100000 140000
# shellcheck disable=SC2046
runs "$W/un-b.csv" uneq 6000 $(repeat 9 104000)
for set in bi sk un; do
	check "add $set A" "$REPORT" --db "$S" --add --label "set=$set-a" "$W/$set-a.csv"
	check "add $set B" "$REPORT" --db "$S" --add --label "set=$set-b" "$W/$set-b.csv"
done
expect_eq "bimodal: a 0.5% gate passes (B's mean is 8% better)" \
	"$(status "$REPORT" --db "$S" --compare set=bi-a set=bi-b --fail-on-regression=0.5)" 0
expect_match "bimodal: better by the ratio of the means" "$(grep ' putc ' "$W/out")" \
	' 89\.52  *96\.68 MiB/s  *1\.080 .* better '
check "bimodal: nothing named worse" sh -c "! grep -q worse '$W/out' '$W/err'"
expect_eq "bimodal, B as the baseline: the 0.5% gate fails: 7" \
	"$(status "$REPORT" --db "$S" --compare set=bi-b set=bi-a --fail-on-regression=0.5)" 7
expect_file_has "bimodal, B as the baseline: the regression is the means' 7.4%" "$W/err" "putc 7.4% worse (p 0.0313)"
expect_eq "skewed: a 0.5% gate fails: 7 (the medians said 10% better)" \
	"$(status "$REPORT" --db "$S" --compare set=sk-a set=sk-b --fail-on-regression=0.5)" 7
expect_match "skewed: worse by the ratio of the means" "$(grep ' putc ' "$W/out")" ' 0\.846 .* worse '
expect_file_has "skewed: named with the means' 15.4%" "$W/err" "putc 15.4% worse"
expect_eq "skewed, a 20% gate: passes" \
	"$(status "$REPORT" --db "$S" --compare set=sk-a set=sk-b --fail-on-regression=20)" 0
expect_eq "unequal sizes: a 0.5% gate passes" \
	"$(status "$REPORT" --db "$S" --compare set=un-a set=un-b --fail-on-regression=0.5)" 0
expect_match "unequal sizes: the means' ratio, within noise" "$(grep ' putc ' "$W/out")" \
	' 107\.4  *101\.6 MiB/s  *0\.945 .* within noise \(3/9 runs\)'

# 3. the history chart
expect_eq "history by label" "$(status "$REPORT" --db "$C" --history name=box --by kernel --svg "$W/h.svg")" 0
check "the history is SVG that parses" python3 - "$W/h.svg" <<'EOF'
import sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
assert root.tag == "{http://www.w3.org/2000/svg}svg", root.tag
groups = root.findall("{http://www.w3.org/2000/svg}g")
assert len(groups) == 3, len(groups)    # putc, getc, seeks
for g in groups:
    medians = [c for c in g.iter("{http://www.w3.org/2000/svg}circle") if c.get("class") == "median"]
    spreads = [l for l in g.iter("{http://www.w3.org/2000/svg}line") if l.get("class") == "spread"]
    assert len(medians) == 3 and len(spreads) == 3, (len(medians), len(spreads))
    labels = [t.text for t in g.iter("{http://www.w3.org/2000/svg}text") if t.text in ("A", "B", "C")]
    assert labels == ["A", "B", "C"], labels
EOF
# one run: round ticks up to at least its rate (they were its rate's quarters,
# 0.3418 .. 1.367 and 6.965e+04, with the point on the top edge)
line solo 9 123457 234567 3457 >"$W/solo.csv"
expect_eq "one run added" "$(status "$REPORT" --db "$W/solo.db" --add "$W/solo.csv")" 0
expect_eq "a history of one point" "$(status "$REPORT" --db "$W/solo.db" --history name=solo --svg "$W/solo.svg")" 0
check "one point: round ticks from 0 to at least the rate" python3 - "$W/solo.svg" <<'EOF'
import math, re, sys, xml.etree.ElementTree as ET
NS = "{http://www.w3.org/2000/svg}"
root = ET.parse(sys.argv[1]).getroot()
groups = root.findall(NS + "g")
assert len(groups) == 3, len(groups)
def value(t):
    m = re.fullmatch(r"([0-9]+(?:\.[0-9]+)?)([kM]?)", t)
    assert m, "tick %r" % t
    return float(m.group(1)) * {"": 1, "k": 1e3, "M": 1e6}[m.group(2)]
for g in groups:
    ticks = [value(t.text) for t in g.iter(NS + "text") if t.get("text-anchor") == "end"]
    assert len(ticks) >= 3 and ticks[0] == 0, ticks
    step = ticks[1]
    for k, v in enumerate(ticks):
        assert abs(v - k * step) <= 1e-9 * step, ticks
    mant = step / 10 ** math.floor(math.log10(step) + 1e-12)
    assert any(abs(mant - m) < 1e-9 for m in (1, 2, 2.5, 5)), (step, ticks)
    title = next(c for c in g.iter(NS + "circle") if c.get("class") == "median").find(NS + "title").text
    median = float(re.search(r"median ([0-9.e+]+)", title).group(1))
    assert ticks[-1] >= median * (1 - 1e-9) and ticks[-2] < median, (ticks, median)
EOF
expect_eq "history by date, a page" "$(status "$REPORT" --db "$C" --history kernel=A --html "$W/h.html")" 0
expect_file_has "the page holds the chart" "$W/h.html" "<svg"

# 4. four writers at once, onto a database none of them has made yet
P=$W/p.db
for w in 1 2 3 4; do
	: >"$W/w$w.csv"
	for r in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do
		line "w$w" "$w$r" $((1000 + r)) 2000 300 >>"$W/w$w.csv"
	done
done
pids=""
for w in 1 2 3 4; do
	"$REPORT" --db "$P" --add --label writer=$w "$W/w$w.csv" >"$W/w$w.out" 2>&1 &
	pids="$pids $!"
done
n=0
for p in $pids; do
	n=$((n + 1))
	rc=0
	wait "$p" || rc=$?
	expect_eq "writer $n's status ($(cat "$W/w$n.out"))" "$rc" 0
done
expect_eq "four writers: every run once" "$(sql "$P" 'select count(*), count(distinct identity) from runs')" "80|80"
expect_eq "four writers: every label" "$(sql "$P" 'select count(*) from labels')" 80
expect_eq "four writers: intact" "$(sql "$P" 'pragma integrity_check')" ok

# 5. a database of the previous schema (1), written here from SQL, migrated by an add
O=$W/old.db
line box 7 123456 123456 1000 >"$W/oldline.csv"
python3 - "$O" "csv:$(cat "$W/oldline.csv")" <<'EOF'
import sqlite3, sys
con = sqlite3.connect(sys.argv[1])
con.executescript("""
CREATE TABLE runs (id INTEGER PRIMARY KEY, identity TEXT NOT NULL UNIQUE, added_at TEXT NOT NULL,
  source TEXT NOT NULL, line INTEGER NOT NULL, format TEXT NOT NULL, tool_version TEXT,
  name TEXT NOT NULL, config TEXT NOT NULL, seed TEXT, concurrency INTEGER,
  host TEXT, os TEXT, kernel TEXT, arch TEXT, cpu_model TEXT, cpus INTEGER, ram_bytes INTEGER,
  fs_type TEXT, fs_source TEXT, mountpoint TEXT, fs_options TEXT, device TEXT,
  clyde_version TEXT, engine TEXT);
CREATE TABLE results (run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  phase TEXT NOT NULL, measure TEXT NOT NULL, value REAL NOT NULL,
  PRIMARY KEY (run_id, phase, measure)) WITHOUT ROWID;
CREATE TABLE labels (run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  key TEXT NOT NULL, value TEXT NOT NULL, PRIMARY KEY (run_id, key)) WITHOUT ROWID;
CREATE INDEX labels_key_value ON labels(key, value);
INSERT INTO runs (id, identity, added_at, source, line, format, tool_version, name, config)
  VALUES (1, '@IDENTITY@', '2025-01-01T00:00:00Z', 'old.csv', 1, 'clyde-csv', '0.0.9', 'box',
          'box -s 8M::1000:5 -n 1');
INSERT INTO results VALUES (1, 'putc', 'rate', 123456);
INSERT INTO labels VALUES (1, 'kernel', 'old');
PRAGMA application_id = 1131168866;
PRAGMA user_version = 1;
""".replace("@IDENTITY@", sys.argv[2].replace("'", "''")))
con.commit()
EOF
expect_eq "a schema-1 database is read as it is" "$(status "$REPORT" --db "$O" --history kernel=old --svg "$W/old.svg")" 0
expect_eq "and left at schema 1" "$(sql "$O" 'pragma user_version')" 1
expect_eq "an add migrates it" "$(status "$REPORT" --db "$O" --add --label kernel=new "$W/a.csv")" 0
expect_eq "to schema 6" "$(sql "$O" 'pragma user_version')" 6
expect_eq "with the new columns and tables" "$(sql "$O" "select count(*) from pragma_table_info('runs') where name in \
	('cache_mode', 'cache_outcome', 'resident_worst_pct', 'line_identity', 'started_at', 'fs_super_options')")|$(sql "$O" "select count(*) from sqlite_master where name in ('series', 'sweeps', 'sweep_points', 'runs_line_identity')")" "6|4"
expect_eq "the old run's filesystem options: not known (NULL)" "$(sql "$O" "select fs_super_options is null from runs where id = 1")" 1
expect_eq "the old run known by its line" "$(sql "$O" "select line_identity = identity, started_at is null from runs where id = 1")" "1|1"
expect_eq "its file added again: already there" "$(status "$REPORT" --db "$O" --add "$W/oldline.csv")" 0
expect_file_has "and counted so" "$W/out" "0 runs added, 1 already there"
expect_eq "the old run kept" "$(sql "$O" "select r.name, x.value, l.value from runs r join results x on x.run_id = r.id \
	join labels l on l.run_id = r.id where r.id = 1")" "box|123456.0|old"
expect_eq "the new runs added" "$(sql "$O" 'select count(*) from runs')" 6
expect_eq "intact" "$(sql "$O" 'pragma integrity_check')" ok

# 6. databases not to use: newer, foreign, damaged; one not to write: read-only
cp "$C" "$W/newer.db"
python3 -c 'import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.execute("pragma user_version = 99"); c.commit()' "$W/newer.db"
expect_eq "a newer schema is refused: 5" "$(status "$REPORT" --db "$W/newer.db" --add "$W/few.csv")" 5
expect_file_has "and said" "$W/err" "schema 99 is newer"
python3 -c 'import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.execute("create table t (x)"); c.commit()' "$W/foreign.db"
expect_eq "another program's database is refused: 5" "$(status "$REPORT" --db "$W/foreign.db" --add "$W/few.csv")" 5
expect_file_has "and said" "$W/err" "not a clyde history"
expect_eq "and left alone" "$(sql "$W/foreign.db" 'select count(*) from sqlite_master')" 1
# crafted schema versions and owners: refused with the value named, never a crash (a
# negative version indexed the migrations' table: SIGSEGV)
current=$(sql "$C" 'pragma user_version')
for v in -1000000 2147483647 $((current + 1)) 0 -1; do
	cp "$C" "$W/v.db"
	python3 -c 'import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.execute("pragma user_version = %d" % int(sys.argv[2])); c.commit()' \
		"$W/v.db" "$v"
	expect_eq "user_version $v, --add: refused with 5" "$(status "$REPORT" --db "$W/v.db" --add "$W/few.csv")" 5
	expect_file_has "user_version $v, --add: the value named" "$W/err" "schema $v "
	expect_eq "user_version $v, --compare: refused with 5" \
		"$(status "$REPORT" --db "$W/v.db" --compare kernel=A kernel=B)" 5
	expect_file_has "user_version $v, --compare: the value named" "$W/err" "schema $v "
	expect_eq "user_version $v: left as it was" "$(sql "$W/v.db" 'pragma user_version')|$(sql "$W/v.db" \
		'select count(*) from runs')" "$v|$(sql "$C" 'select count(*) from runs')"
done
: >"$W/v.db"
python3 -c 'import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.execute("pragma user_version = -1000000"); c.commit()' "$W/v.db"
expect_eq "an empty file of user_version -1000000: refused with 5" "$(status "$REPORT" --db "$W/v.db" --add "$W/few.csv")" 5
expect_file_has "and the value named" "$W/err" "schema -1000000 "
cp "$C" "$W/app.db"
python3 -c 'import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.execute("pragma application_id = 1234567"); c.commit()' "$W/app.db"
expect_eq "a history of another application_id: refused with 5" "$(status "$REPORT" --db "$W/app.db" --add "$W/few.csv")" 5
expect_file_has "and the value named" "$W/err" "not a clyde history (application_id 1234567"
head -c 4096 /dev/zero | tr '\0' 'x' >"$W/junk.db"
expect_eq "a file that is no database: 5" "$(status "$REPORT" --db "$W/junk.db" --add "$W/few.csv")" 5

R=$W/ro
mkdir "$R"
cp "$C" "$R/h.db"
before=$(cksum <"$R/h.db")
if [ "$(id -u)" = 0 ]; then
	# root writes past file modes: a read-only mount of its own holds it
	if mount -t tmpfs -o size=16m clyde-test "$R" 2>/dev/null; then
		T_MOUNTS="$R $T_MOUNTS"
		cp "$C" "$R/h.db"
		before=$(cksum <"$R/h.db")
		mount -o remount,ro "$R" || fail "cannot remount $R read-only"
	else
		fail "as root, cannot mount a tmpfs to make a read-only database on"
	fi
else
	chmod a-w "$R/h.db" "$R"
fi
expect_eq "a read-only database: 5" "$(status "$REPORT" --db "$R/h.db" --add --label kernel=D "$W/few.csv")" 5
expect_file_has "and said" "$W/err" "read-only"
expect_eq "nothing written" "$(cksum <"$R/h.db")" "$before"
expect_eq "a read-only database can be compared" "$(status "$REPORT" --db "$R/h.db" --compare kernel=A kernel=B)" 0
[ "$(id -u)" = 0 ] || chmod u+w "$R"

done_testing
