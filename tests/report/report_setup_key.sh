#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# clyde-report's configuration key holds the setup a JSON run records
# beside its name and sizes: runs that differ only in the filesystem's own
# options (clyde-result/11's super_options: ext4's data=journal), only in
# --engine, only in --iodepth, only in -D or only in --data are two
# configurations, in the report and in the history's config column; runs
# that differ in none of them stay one. Documents are made here from a
# real run (clyde-x2.json's first), with one field changed at a time.
. "$TESTLIB"
[ -x "$REPORT" ] || skip "no $REPORT"
need_cmd python3
scratch_dir
W=$SCRATCH

# doc OUT CHANGE...: a clyde-result/11 document of two runs of one setup
# (the first on ext4 with data=ordered, psync, depth 1, buffered, random
# data), then two with CHANGE (FIELD=VALUE, FIELD one of super, engine,
# iodepth, direct, data; none: the same setup again)
doc() {
	python3 - "$REPORT_GOLDEN/clyde-x2.json" "$@" <<'EOF'
import copy, json, sys
src = json.load(open(sys.argv[1]))
base = src["runs"][0]
base["filesystem"] = {"type": "ext4", "source": "/dev/loop0", "mountpoint": "/mnt/t",
                      "options": "rw relatime", "super_options": "rw data=ordered"}
base["engine"] = {"name": "psync", "description": "pread/pwrite", "iodepth": 1, "direct": False}
base["data"] = {"pattern": "random", "verify": False, "mismatches": 0}
runs = [copy.deepcopy(base), copy.deepcopy(base)]
for change in sys.argv[3:]:
    field, value = change.split("=", 1)
    r = copy.deepcopy(base)
    if field == "super":
        r["filesystem"]["super_options"] = value
    elif field == "engine":
        r["engine"]["name"] = value
    elif field == "iodepth":
        r["engine"]["iodepth"] = int(value)
    elif field == "direct":
        r["engine"]["direct"] = value == "true"
    elif field == "data":
        r["data"]["pattern"] = value
    runs += [r, copy.deepcopy(r)]
src["schema"] = "clyde-result/11"
src["runs"] = runs
json.dump(src, open(sys.argv[2], "w"), indent=1)
EOF
}
NAME=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["runs"][0]["name"])' \
	"$REPORT_GOLDEN/clyde-x2.json")

# configs FILE: each configuration's key and run count, one a line
configs() {
	"$REPORT" "$1" 2>"$W/err" | sed -n 's/^\[[0-9]*\] \(.*\): \([0-9]*\) runs* (.*/\1|\2/p'
}

# the same setup four times: one configuration of four runs
doc "$W/none.json" none=
expect_eq "one setup: one configuration" "$(configs "$W/none.json" | cut -d'|' -f2 | tr '\n' ' ')" "4 "
expect_match "its key names the filesystem's own options" "$(configs "$W/none.json")" \
	" super=rw data=ordered\|4$"

for change in "super=rw data=journal" engine=uring iodepth=8 direct=true data=zero; do
	doc "$W/two.json" "$change"
	got=$(configs "$W/two.json")
	expect_eq "only $change differs: two configurations of two runs" \
		"$(printf '%s\n' "$got" | cut -d'|' -f2 | tr '\n' ' ')" "2 2 "
done
doc "$W/two.json" "super=rw data=journal"
expect_match "data=journal in its key" "$(configs "$W/two.json")" "super=rw data=journal\|2"
doc "$W/two.json" engine=uring
expect_match "--engine in its key" "$(configs "$W/two.json")" " --engine=uring super="
doc "$W/two.json" iodepth=8
expect_match "--iodepth in its key" "$(configs "$W/two.json")" " --iodepth=8 super="
doc "$W/two.json" direct=true
expect_match "-D in its key" "$(configs "$W/two.json")" " -D super="
doc "$W/two.json" data=zero
expect_match "--data in its key" "$(configs "$W/two.json")" " --data=zero super="
# clyde's defaults are not written: the key of an older run stays what it was
expect_eq "a /10 document's key: name and sizes only" "$(sed 's|clyde-result/11|clyde-result/10|' \
	"$W/none.json" | python3 -c 'import json,sys; d=json.load(sys.stdin)
for r in d["runs"]: del r["filesystem"]["super_options"]
json.dump(d, sys.stdout)' | "$REPORT" - 2>/dev/null | grep -c "^\[1\] $NAME -s [^ ]*\( -n [^ ]*\)\?: 4 runs")" 1

# the history: the filesystem's own options in their column, and two configurations
rc=0
"$REPORT" --db "$W/probe.db" --history name=x >/dev/null 2>&1 || rc=$?
if [ "$rc" = 6 ]; then
	echo "clyde-report was built without SQLite: the history's part not run"
	done_testing
fi
python3 -c 'import sqlite3' 2>/dev/null || { echo "no python3 sqlite3: the history's part not run"; done_testing; }
doc "$W/two.json" "super=rw data=journal"
"$REPORT" --db "$W/h.db" --add "$W/two.json" >"$W/out" 2>&1
expect_eq "--add: both setups stored" "$(python3 -c 'import sqlite3,sys
c = sqlite3.connect(sys.argv[1])
print(" ".join("%s:%d" % r for r in c.execute("select fs_super_options, count(*) from runs"
      " group by fs_super_options order by 1")), len(list(c.execute("select distinct config from runs"))))' \
	"$W/h.db")" "rw data=journal:2 rw data=ordered:2 2"
done_testing
