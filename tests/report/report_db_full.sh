#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# clyde-report --db --add on a full disk: a clear error (exit 5, "full"),
# and nothing of the add written: the database has what it had and is
# intact, no journal is left. A tmpfs of its own, filled before the add.
. "$TESTLIB"
[ -x "$REPORT" ] || skip "no $REPORT"
need_cmd python3
need_tmpfs 256k
T=$SCRATCH
scratch_dir
W=$SCRATCH
rc=0
"$REPORT" --db "$W/probe.db" --history a=b >/dev/null 2>&1 || rc=$?
[ "$rc" != 6 ] || skip "clyde-report was built without SQLite (--with-sqlite3=no)"
python3 -c 'import sqlite3' 2>/dev/null || skip "python3 has no sqlite3 module to read the database with"

sql() {
	python3 - "$T/h.db" "$1" <<'PY'
import sqlite3, sys
for row in sqlite3.connect(sys.argv[1]).execute(sys.argv[2]):
    print("|".join("" if v is None else str(v) for v in row))
PY
}

# runs NAME FIRST COUNT: COUNT clyde CSV lines, seeds from FIRST
runs() {
	i=0
	while [ $i -lt "$3" ]; do
		printf '1.98,0.1.0,%s,1,%s,8M,,1000,5,1000,50,+++++,+++,+++++,+++,2000,50,+++++,+++,300,10,1,,,,,' \
			"$1" $(($2 + i))
		printf '+++++,+++,+++++,+++,+++++,+++,+++++,+++,+++++,+++,+++++,+++,,,,,,,,,,,,\n'
		i=$((i + 1))
	done
}
runs box 1 3 >"$W/first.csv"
runs box 100 300 >"$W/many.csv"
check "the first add" "$REPORT" --db "$T/h.db" --add --label k=first "$W/first.csv"
before=$(cksum <"$T/h.db")
# fill the file system: dd stops at ENOSPC
dd if=/dev/zero of="$T/fill" bs=4k >/dev/null 2>&1
check "the file system is full" sh -c "! dd if=/dev/zero of='$T/more' bs=4k count=1 2>/dev/null"
rm -f "$T/more"
rc=0
"$REPORT" --db "$T/h.db" --add --label k=second "$W/many.csv" >"$W/out" 2>"$W/err" || rc=$?
expect_eq "a full disk: exit 5" "$rc" 5
expect_file_has "and said" "$W/err" "full"
expect_eq "nothing written" "$(cksum <"$T/h.db")" "$before"
rm -f "$T/fill"
expect_eq "no journal left" "$(ls "$T")" h.db
expect_eq "the runs it had" "$(sql 'select count(*), count(distinct identity) from runs')" "3|3"
expect_eq "no label of the failed add" "$(sql "select count(*) from labels where value = 'second'")" 0
expect_eq "intact" "$(sql 'pragma integrity_check')" ok
done_testing
