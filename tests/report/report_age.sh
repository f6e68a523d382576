#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# clyde-report's age and fill labels (clyde-result/14, issue 44), from
# clyde JSON documents written here by hand: the age from a run's "age"
# object ("aged:FULL:CHURN", the profile only when not clyde's default),
# from its name's suffix where it has none (a run on a copy of an image
# clyde-fsmatrix aged), "fresh" in a /14 document without either,
# unknown before /14; the fill, fill.phases_pct rounded. The history
# stores both (schema 5), --label age= and fill= win over the document's;
# a database of schema 4 (made here from the SQL that made it, not by
# clyde-report) is read as it is and upgraded in place by an add; runs
# selected by age= and fill= and grouped --by age; the study's "Fresh
# against aged" table, text and HTML, with a ranking that flips. The
# database is read back with Python's sqlite3 module.
. "$TESTLIB"
[ -x "$REPORT" ] || skip "no $REPORT"
need_cmd python3
scratch_dir
W=$SCRATCH

# doc FILE SCHEMA NAME SEED PUT_BLOCK GET_BLOCK [MEMBERS]: a one-run clyde JSON document
doc() {
	printf '{"schema": "clyde-result/%s", "clyde_version": "0.1.0", "runs": [{"name": "%s",
 "seed": %s, "io": {"size_mib": 64, "chunk": 8192, "seeks": 100, "seekers": 1},
 "files": {"number": 0, "max_size": 0, "min_size": 0, "dirs": 1, "chunk": 8192},
 "phases": {"put_block": {"ran": true, "amount": 65536, "rate": %s},
 "get_block": {"ran": true, "amount": 65536, "rate": %s}}%s}]}\n' \
		"$2" "$3" "$4" "$5" "$6" "${7:-}" >"$W/$1"
}

status() {
	rc=0
	"$@" >"$W/out" 2>"$W/err" || rc=$?
	echo "$rc"
}

# A study: ext4 and xfs, fresh and aged. put_block: ext4 above xfs fresh
# (1010 against 900), below aged (510 against 705): flipped. get_block:
# xfs above ext4 both ways. Unequal runs: ext4 fresh 3, aged 3, xfs fresh 1, aged 2.
AGE='"age": {"spec": "80:2", "target_pct": 80, "churn": 2.0, "churn_done": 2.0, "profile": "agrawal", "seed": 1, "capacity_bytes": 1073741824, "fill_before_pct": 0.1, "fill_aged_pct": 80.2, "written_bytes": 2147483648, "files_written": 900, "files_deleted": 400, "live_files": 500, "live_bytes": 858993459, "seconds": 12.5, "time_box_hit": false, "kept_dir": null}'
FILL='"fill": {"capacity_bytes": 1073741824, "before_pct": 80.2, "phases_pct": 81.6, "after_pct": 80.2}'
for i in 1 2 3; do
	doc e-fresh$i.json 14 ext4@fresh $i $((1000 + 10 * (i - 2))) 2000
	# the runs on a copy of the aged image: no "age" of their own, their name says it
	doc e-aged$i.json 14 ext4@aged:80:2 $((10 + i)) $((510 + 10 * (i - 2))) 1500 ", $FILL"
done
doc x-fresh1.json 14 xfs@fresh 21 900 2100
doc x-aged1.json 14 xfs@aged:80:2 22 700 1600 ", $AGE, $FILL"
doc x-aged2.json 14 xfs@aged:80:2 23 710 1650 ", $FILL"
doc old.json 13 ext4 31 1000 2000
doc other.json 14 ext4 32 1000 2000 ', "age": {"target_pct": 90, "churn": 0.5, "profile": "small"}'

# 1. the report of the study's documents: the table and the runs' list
expect_eq "the study's report" "$(status "$REPORT" --baseline ext4@fresh --html "$W/r.html" -o "$W/r.txt" \
	"$W/e-fresh1.json" "$W/e-fresh2.json" "$W/e-fresh3.json" "$W/e-aged1.json" "$W/e-aged2.json" \
	"$W/e-aged3.json" "$W/x-fresh1.json" "$W/x-aged1.json" "$W/x-aged2.json")" 0
expect_eq "the fresh-against-aged table: medians, the ratio, the rankings" \
	"$(sed -n '/^Fresh against aged (aged:80:2)/,/^$/p' "$W/r.txt" | sed 1d | tr -s ' ')" \
	"phase filesystem fresh aged unit ratio
put_block ext4 1000 510 KiB/s 0.510
put_block xfs 900 705 KiB/s 0.783
put_block ranking flipped: ext4 above xfs fresh, below aged
get_block ext4 2000 1500 KiB/s 0.750
get_block xfs 2100 1625 KiB/s 0.774
get_block same ranking fresh and aged"
expect_eq "the runs' list: ages and fills" \
	"$(sed -n '/^The runs. age and fill/,$p' "$W/r.txt" | sed '1,2d' | awk '{ print $1, $3, $4 }' | tr '\n' ';')" \
	"ext4@fresh fresh -;ext4@fresh fresh -;ext4@fresh fresh -;ext4@aged:80:2 aged:80:2 82;ext4@aged:80:2 aged:80:2 82;ext4@aged:80:2 aged:80:2 82;xfs@fresh fresh -;xfs@aged:80:2 aged:80:2 82;xfs@aged:80:2 aged:80:2 82;"
expect_file_has "the page's table" "$W/r.html" "<h2>Fresh against aged (aged:80:2)</h2>"
expect_file_has "the page's flip" "$W/r.html" "ranking flipped: ext4 above xfs fresh, below aged"
expect_file_has "the page's runs' list" "$W/r.html" "<h2>The runs' age and fill</h2>"
python3 -c 'import sys, xml.dom.minidom; xml.dom.minidom.parse(sys.argv[1])' "$W/r.html"
expect_eq "the page parses as XML" "$?" 0
# documents without an aged twin: no table
expect_eq "fresh runs alone" "$(status "$REPORT" "$W/e-fresh1.json" "$W/x-fresh1.json")" 0
check "fresh runs alone: no table, no list" sh -c "! grep -q -e 'Fresh against aged' -e 'age and fill' '$W/out'"

# the rest needs the history
rc=0
"$REPORT" --db "$W/probe.db" --history name=x >"$W/probe.out" 2>&1 || rc=$?
[ "$rc" != 6 ] || { done_testing; exit; }
python3 -c 'import sqlite3' 2>/dev/null || { done_testing; exit; }
sql() {
	python3 - "$1" "$2" <<'EOF'
import sqlite3, sys
con = sqlite3.connect(sys.argv[1])
for row in con.execute(sys.argv[2]):
    print("|".join("" if v is None else str(v) for v in row))
EOF
}

# 2. the history stores them; --label wins over the document's
DB=$W/h.db
expect_eq "add the study" "$(status "$REPORT" --db "$DB" --add "$W/e-fresh1.json" "$W/e-fresh2.json" \
	"$W/e-fresh3.json" "$W/e-aged1.json" "$W/e-aged2.json" "$W/e-aged3.json" "$W/x-fresh1.json" \
	"$W/x-aged1.json" "$W/x-aged2.json" "$W/old.json")" 0
expect_eq "add one with other labels" "$(status "$REPORT" --db "$DB" --add --label age=aged:90:1 \
	--label fill=33 "$W/other.json")" 0
expect_eq "the schema" "$(sql "$DB" 'pragma user_version')" 6
expect_eq "each run's age and fill" "$(sql "$DB" "select name || ' ' || coalesce(age, '(null)') || ' ' || \
	coalesce(fill, '(null)') from runs order by seed + 0" | tr '\n' ';')" \
	"ext4@fresh fresh (null);ext4@fresh fresh (null);ext4@fresh fresh (null);ext4@aged:80:2 aged:80:2 82;ext4@aged:80:2 aged:80:2 82;ext4@aged:80:2 aged:80:2 82;xfs@fresh fresh (null);xfs@aged:80:2 aged:80:2 82;xfs@aged:80:2 aged:80:2 82;ext4 (null) (null);ext4 aged:90:1 33;"

# 3. selection by age and fill, grouping by age
expect_eq "--compare age=fresh age=aged:80:2" "$(status "$REPORT" --db "$DB" --compare name=ext4@fresh \
	name=ext4@aged:80:2,age=aged:80:2,fill=82 --match params)" 0
expect_eq "the selections' runs" "$(grep -E '^[AB]:' "$W/out" | tr '\n' ';')" \
	"A: name=ext4@fresh (3 runs);B: name=ext4@aged:80:2,age=aged:80:2,fill=82 (3 runs);"
expect_eq "their put_block means" "$(awk '$1 == "put_block" { print $2, $3 }' "$W/out")" "0.9766 0.4980"
expect_eq "age=fresh selects the fresh runs" "$(status "$REPORT" --db "$DB" --compare age=fresh \
	age=aged:80:2 --match params)" 0
expect_eq "age=fresh: 4 runs, aged: 5" "$(grep -E '^[AB]:' "$W/out" | tr '\n' ';')" \
	"A: age=fresh (4 runs);B: age=aged:80:2 (5 runs);"
expect_eq "--history --by age" "$(status "$REPORT" --db "$DB" --history format=clyde-json --by age -o "$W/by.svg")" 0
expect_eq "its groups: the ages, the run with none left out" \
	"$(grep -o '>\(fresh\|aged:[0-9:.]*\)<' "$W/by.svg" | sort -u | tr '\n' ' ')" ">aged:80:2< >aged:90:1< >fresh< "
expect_eq "--history --by fill" "$(status "$REPORT" --db "$DB" --history age=aged:80:2 --by fill -o "$W/fill.svg")" 0
expect_file_has "its group" "$W/fill.svg" ">82<"

# 4. a history of schema 4, made here from the SQL that made it (report_db.c
# before schema 5), read as it is, then upgraded in place by an add
O=$W/old.db
python3 - "$O" <<'EOF'
import sqlite3, sys
con = sqlite3.connect(sys.argv[1])
con.executescript("""
CREATE TABLE runs ( id INTEGER PRIMARY KEY, identity TEXT NOT NULL UNIQUE, added_at TEXT NOT NULL,
 source TEXT NOT NULL, line INTEGER NOT NULL, format TEXT NOT NULL, tool_version TEXT,
 name TEXT NOT NULL, config TEXT NOT NULL, seed TEXT, concurrency INTEGER,
 host TEXT, os TEXT, kernel TEXT, arch TEXT, cpu_model TEXT, cpus INTEGER, ram_bytes INTEGER,
 fs_type TEXT, fs_source TEXT, mountpoint TEXT, fs_options TEXT, device TEXT,
 clyde_version TEXT, engine TEXT);
CREATE TABLE results ( run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
 phase TEXT NOT NULL, measure TEXT NOT NULL, value REAL NOT NULL,
 PRIMARY KEY (run_id, phase, measure)) WITHOUT ROWID;
CREATE TABLE labels ( run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
 key TEXT NOT NULL, value TEXT NOT NULL, PRIMARY KEY (run_id, key)) WITHOUT ROWID;
CREATE INDEX labels_key_value ON labels(key, value);
ALTER TABLE runs ADD COLUMN cache_mode TEXT;
ALTER TABLE runs ADD COLUMN cache_outcome TEXT;
ALTER TABLE runs ADD COLUMN resident_worst_pct REAL;
CREATE TABLE series ( run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
 phase TEXT NOT NULL, row INTEGER NOT NULL,
 t_start_s REAL NOT NULL, t_end_s REAL NOT NULL, work REAL, ops REAL, rate REAL, lat_p99_s REAL,
 dirty_kib REAL, writeback_kib REAL, PRIMARY KEY (run_id, phase, row)) WITHOUT ROWID;
CREATE TABLE sweeps ( id INTEGER PRIMARY KEY, identity TEXT NOT NULL UNIQUE, added_at TEXT NOT NULL,
 source TEXT NOT NULL, label TEXT NOT NULL, origin TEXT NOT NULL);
CREATE TABLE sweep_points ( sweep_id INTEGER NOT NULL REFERENCES sweeps(id) ON DELETE CASCADE,
 point INTEGER NOT NULL, offset_gib REAL NOT NULL, mib_s REAL, seconds REAL,
 PRIMARY KEY (sweep_id, point)) WITHOUT ROWID;
ALTER TABLE runs ADD COLUMN line_identity TEXT;
ALTER TABLE runs ADD COLUMN started_at TEXT;
UPDATE runs SET line_identity = identity;
CREATE INDEX runs_line_identity ON runs(line_identity);
ALTER TABLE runs ADD COLUMN fs_super_options TEXT;
INSERT INTO runs (id, identity, added_at, source, line, format, tool_version, name, config, line_identity)
  VALUES (1, 'json:box', '2026-01-01T00:00:00Z', 'box.json', 1, 'clyde-json', '0.1.0', 'box',
          'box -s 64M::100:1', 'json:box');
INSERT INTO results VALUES (1, 'put_block', 'rate', 1000);
INSERT INTO labels VALUES (1, 'kernel', 'old');
INSERT INTO labels VALUES (1, 'age', 'fresh');
PRAGMA application_id = 1131168866;
PRAGMA user_version = 4;
""")
con.commit()
EOF
expect_eq "schema 4 read as it is: --history --by age (a label there)" \
	"$(status "$REPORT" --db "$O" --history kernel=old --by age -o "$W/old.svg")" 0
expect_file_has "its group from the label" "$W/old.svg" ">fresh<"
expect_eq "schema 4: age= selects by the label" "$(status "$REPORT" --db "$O" --compare age=fresh kernel=old)" 0
expect_file_has "its run" "$W/out" "A: age=fresh (1 runs)"
expect_eq "and left at schema 4" "$(sql "$O" 'pragma user_version')" 4
expect_eq "an add upgrades it" "$(status "$REPORT" --db "$O" --add "$W/x-aged1.json")" 0
expect_eq "to schema 6, with the columns" "$(sql "$O" 'pragma user_version')|$(sql "$O" \
	"select count(*) from pragma_table_info('runs') where name in ('age', 'fill')")" "6|2"
expect_eq "the old run: age and fill not known (NULL), its label kept; the new run's stored" \
	"$(sql "$O" "select r.name, coalesce(r.age, '(null)'), coalesce(r.fill, '(null)') from runs r order by id" |
		tr '\n' ';')" "box|(null)|(null);xfs@aged:80:2|aged:80:2|82;"
expect_eq "age=fresh still finds the old run by its label" "$(status "$REPORT" --db "$O" --compare \
	age=fresh age=aged:80:2 --match params)" 0
expect_eq "both sides" "$(grep -E '^[AB]:' "$W/out" | tr '\n' ';')" "A: age=fresh (1 runs);B: age=aged:80:2 (1 runs);"
expect_eq "intact" "$(sql "$O" 'pragma integrity_check')" ok
done_testing
