#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# clyde-report on a study's runs: the geometric means of configurations
# where one lacks a phase are over the same phases, and the text and the
# page name the phase left out; a JSON phase under 0.5 s ("too_short")
# counts with its rate and is marked (^N), a median of fewer runs than
# the configuration has is marked (*); and the text report and the
# history (--db --add, then --compare) have the same figures of the same
# runs, read from their JSON documents and from their CSV lines alike.
# Made-up runs, figures chosen so the answers are worked by hand.
. "$TESTLIB"
[ -x "$REPORT" ] || skip "no $REPORT"
need_cmd python3
scratch_dir
W=$SCRATCH
G=${REPORT_GOLDEN:-$(dirname "$TESTLIB")/data/report_golden}

# 1. Three configurations, two runs each, clyde's CSV lines (a real line of clyde-x3.csv with
# its name, seed and rates changed): btrfs's block read printed +++++ in both runs. Rate ratios
# to ext4: xfs 2 on every phase but its block read, 4; btrfs 2 on every phase it has.
TEMPLATE=$(sed -n 2p "$G/clyde-x3.csv")
# csv_line NAME SEED BLOCK-READ FACTOR: the template's rates times FACTOR, block read as given
csv_line() {
	printf '%s\n' "$TEMPLATE" | awk -F, -v OFS=, -v name="$1" -v seed="$2" -v gb="$3" -v f="$4" '{
		$3 = name; $5 = seed
		split("12 14 18 20 27 29 31 33 35 37", rate, " ")
		for (i in rate) $rate[i] = 1000 * f * (1 + rate[i] / 100)
		$18 = gb == "+++++" ? gb : gb * f; $19 = gb == "+++++" ? "+++" : $19
		print
	}'
}
{
	csv_line ext4 1 100000 1
	csv_line ext4 2 100000 1
	csv_line xfs 3 200000 2
	csv_line xfs 4 200000 2
	csv_line btrfs 5 +++++ 2
	csv_line btrfs 6 +++++ 2
} >"$W/study.csv"
"$REPORT" --baseline ext4 --html "$W/study.html" "$W/study.csv" >"$W/study.txt" 2>"$W/study.err"
expect_eq "geomean: exit status" "$?" 0
# xfs: block write, rewrite, seeks and six file phases at 2; its block read (4) left out with btrfs's
expect_eq "geomean: xfs over the phases btrfs has too" "$(grep '^\[2\]' "$W/study.txt")" \
	"[2] xfs -s 64M::*:5 -n 1: 2 runs (clyde 0.1.0 CSV); geometric mean of rate ratios 2.00 over 9 phases"
expect_eq "geomean: btrfs over the same phases" "$(grep '^\[3\]' "$W/study.txt")" \
	"[3] btrfs -s 64M::*:5 -n 1: 2 runs (clyde 0.1.0 CSV); geometric mean of rate ratios 2.00 over 9 phases"
expect_eq "geomean: the phase left out, and why" "$(sed -n '/^Every mean/,$p' "$W/study.txt")" \
	"Every mean is over the same 9 phases, those every configuration with a
  rate ratio has one for; left out of all:
  Block read: no rate in [3]"
expect_file_has "geomean: the page names it" "$W/study.html" \
	"Every geometric mean is over the same 9 phases, those every configuration with a throughput ratio has one for. Left out of all: Block read (no rate in [3])."
expect_file_has "geomean: the page's mean" "$W/study.html" '<td class="num" title="over 9 phases"><b>×2.000</b></td>'

# 2. Three runs of one configuration as clyde's JSON documents (clyde-x2.json's first run, its
# name, seed and rates changed): block read under 0.5 s in the first run, the seeks not run in
# the third. Block read 3000000, 3300000, 2700000 KiB/s: median and mean 3000000, CV 10.0%.
python3 - "$G/clyde-x2.json" "$W" <<'EOF'
import copy, json, sys
doc = json.load(open(sys.argv[1]))
run0 = doc["runs"][0]
rates = {"put_block": [1e6, 1.2e6, 0.8e6], "get_block": [3e6, 3.3e6, 2.7e6], "seeks": [1000, 1100, None]}
csv = []
for i in range(3):
    run = copy.deepcopy(run0)
    run["name"] = "st"
    run["seed"] = 100 + i
    run.pop("csv", None)
    for ph, p in run["phases"].items():
        if not isinstance(p, dict) or not p.get("ran"):
            continue
        p["too_short"] = p["short"] = ph == "get_block" and i == 0
        if ph in rates and rates[ph][i] is None:
            p["ran"] = False
        elif ph in rates:
            p["rate"] = rates[ph][i]
    d = dict(doc, runs=[run])
    json.dump(d, open("%s/st%d.json" % (sys.argv[2], i), "w"))
    # the same run's CSV line as clyde prints it: +++++ for a phase under 0.5 s
    f = ["1.98", "0.1.0", "st", "1", str(100 + i), "64M", "", "297245", "5"]
    for ph in ("putc", "put_block", "rewrite", "getc", "get_block", "seeks"):
        p = run["phases"].get(ph)
        if not p or not p.get("ran"):
            f += ["", ""]
        elif p["too_short"]:
            f += ["+++++", "+++"]
        else:
            f += ["%.0f" % p["rate"], "50"]
    csv.append(",".join(f + [""] * 29))
open("%s/st.csv" % sys.argv[2], "w").write("\n".join(csv) + "\n")
EOF
"$REPORT" --html "$W/st.html" "$W/st0.json" "$W/st1.json" "$W/st2.json" >"$W/st.txt" 2>"$W/st.err"
expect_eq "JSON: exit status" "$?" 0
expect_eq "JSON: a phase under 0.5 s counts, marked" \
	"$(grep '^  Block read ' "$W/st.txt" | awk -F '  +' '{ print $3, $4, $5, $6, $7 }')" "2.861 GiB/s 2.575..3.147 10.0 3^1"
expect_eq "JSON: a median of fewer runs is marked" \
	"$(grep '^  Random seeks ' "$W/st.txt" | awk -F '  +' '{ print $3, $6, $7 }')" "1050* 6.7 2"
expect_file_has "JSON: the legend says what * is" "$W/st.txt" \
	"*: after a Rate, a figure of fewer runs than the configuration has (n says how"
expect_file_has "JSON: the legend says what ^N is" "$W/st.txt" \
	"^N: after n, N runs ran the phase for under 0.5 s (JSON too_short); their rates are"
check "JSON: the page marks the short runs" grep -Eq '; 1 run under 0\.5 s">[0-9.]+<sup>\^1</sup>' "$W/st.html"
check "JSON: the page marks a median of fewer runs" grep -Eq 'title="median of 2 runs;[^"]*">[0-9.]+\*<' "$W/st.html"

# 3. The text report and the history agree, phase by phase, on the same runs: the JSON
# documents, and their CSV lines (where the short block read has no figure in either)
rc=0
"$REPORT" --db "$W/probe.db" --history name=x >/dev/null 2>&1 || rc=$?
[ "$rc" != 6 ] || skip "clyde-report was built without SQLite (--with-sqlite3=no): the history cannot be compared"
# agree SET PHASES FILES...: the report's median, unit, CV and runs of each phase against --compare's
# mean, unit, CV and runs (the means are the medians here: three runs evenly spread, or one; both
# print a MiB/s or GiB/s to 4 significant digits, and --compare's seeks/s and files/s with a decimal)
agree() {
	set_name=$1
	phases=$2
	shift 2
	"$REPORT" "$@" >"$W/$set_name.txt" 2>&1
	"$REPORT" --db "$W/$set_name.db" --add "$@" >/dev/null 2>&1
	"$REPORT" --db "$W/$set_name.db" --compare name=st name=st >"$W/$set_name.cmp" 2>&1
	report_phase_cells '3 4 6 7' <"$W/$set_name.txt" | awk '$4 == "" { $4 = "-" } { print }' >"$W/$set_name.a"
	compare_phase_cells <"$W/$set_name.cmp" |
		awk '$5 !~ /^[MG]iB\/s$/ { $2 = sprintf("%.0f", $2) } { print $1, $2, $5, $3, $4 }' >"$W/$set_name.b"
	expect_eq "$set_name: the report's figures are the history's" "$(cat "$W/$set_name.a")" "$(cat "$W/$set_name.b")"
	expect_eq "$set_name: of every phase that ran" "$(wc -l <"$W/$set_name.a")" "$phases"
}
agree json 10 "$W/st0.json" "$W/st1.json" "$W/st2.json"
expect_eq "json: the short block read is in both" "$(grep '^get_block ' "$W/json.b")" "get_block 2.861 GiB/s 10.0 3"
agree csv 4 "$W/st.csv"
# 3300000 and 2700000: mean 3000000 KiB/s (2.861 GiB/s), sd 424264
expect_eq "csv: the +++++ block read is in neither" "$(grep '^get_block ' "$W/csv.b")" "get_block 2.861 GiB/s 14.1 2"

# 4. Two filesystems under two names compared by a field: three runs each of "ext4" on ext4 and
# "xfs" on xfs (clyde-x2.json's first run, its filesystem, name, seed and block write changed),
# the same parameters. Block write 100000, 110000, 90000 KiB/s against twice that: B/A 2.000.
python3 - "$G/clyde-x2.json" "$W" <<'PY'
import copy, json, sys
doc = json.load(open(sys.argv[1]))
# clyde-result/11: each filesystem's own options, which the key holds and --match=params leaves out
doc["schema"] = "clyde-result/11"
for k, (fs, opts, factor) in enumerate((("ext4", "rw relatime", 1), ("xfs", "rw noatime", 2))):
    runs = []
    for i, rate in enumerate((100000, 110000, 90000)):
        run = copy.deepcopy(doc["runs"][0])
        run.pop("csv", None)
        run["name"] = fs
        run["seed"] = 200 + 10 * k + i
        run["filesystem"] = dict(run["filesystem"], type=fs, options=opts,
                                 super_options="rw data=ordered" if fs == "ext4" else "rw attr2 inode64")
        run["phases"]["put_block"]["rate"] = rate * factor
        runs.append(run)
    json.dump(dict(doc, runs=runs), open("%s/%s.json" % (sys.argv[2], fs), "w"))
PY
"$REPORT" --db "$W/fs.db" --add "$W/ext4.json" "$W/xfs.json" >/dev/null 2>&1
rc=0
"$REPORT" --db "$W/fs.db" --compare fs=ext4 fs=xfs >"$W/fs-key.out" 2>"$W/fs-key.err" || rc=$?
expect_eq "by name and parameters: two names share nothing, exit 3" "$rc" 3
expect_file_has "by name and parameters: the message names the way across names" "$W/fs-key.err" \
	"share no configuration (a name and its parameters): nothing compared; --match=params pairs them"
rc=0
"$REPORT" --db "$W/fs.db" --compare fs=ext4 fs=xfs --match params --fail-on-regression=5 \
	>"$W/fs.out" 2>"$W/fs.err" || rc=$?
expect_eq "by parameters: exit status" "$rc" 0
expect_eq "by parameters: one configuration" "$(grep -c '^(any name) -s 64M::\*:5 -n 1$' "$W/fs.out")" 1
expect_eq "by parameters: block write, B/A and its runs" \
	"$(awk '$1 == "put_block" { print $2, $3, $4, $5, $NF, $(NF - 1) }' "$W/fs.out")" "97.66 195.3 MiB/s 2.000 runs) (3/3"
expect_eq "by parameters: every phase of both" "$(grep -c ' (3/3 runs)$' "$W/fs.out")" 10
# type= and options= are the same columns as fs= and fs_options=
"$REPORT" --db "$W/fs.db" --compare type=ext4 options=rw\ noatime --match=params >"$W/alias.out" 2>&1
expect_eq "type= and options=: exit status" "$?" 0
expect_eq "type= and options=: the same table" "$(sed 1,2d "$W/alias.out")" "$(sed 1,2d "$W/fs.out")"
# the gate works across names: xfs against ext4 as the baseline is 50% slower on block write
rc=0
"$REPORT" --db "$W/fs.db" --compare fs=xfs fs=ext4 --match params --fail-on-regression=5 \
	>/dev/null 2>"$W/gate.err" || rc=$?
expect_eq "by parameters: the gate" "$rc" 7
expect_file_has "by parameters: the gate names the phase" "$W/gate.err" \
	"clyde-report: regression: (any name) -s 64M::*:5 -n 1: put_block 50.0% worse"
# usage
rc=0
"$REPORT" --db "$W/fs.db" --compare fs=ext4 fs=xfs --match names >/dev/null 2>"$W/m.err" || rc=$?
expect_eq "--match: a bad value" "$rc:$(cat "$W/m.err")" "1:clyde-report: --match names: not key or params"
rc=0
"$REPORT" --db "$W/fs.db" --history fs=ext4 --match params >/dev/null 2>"$W/m.err" || rc=$?
expect_eq "--match: only with --compare" "$rc:$(cat "$W/m.err")" "1:clyde-report: --match goes with --compare"
done_testing
