#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# --tree: the generated tree is the same for the same shape, scale and
# --tree-seed (and --tree-list shows it); a run's five tree phases do the
# work the listing says, field by field in the JSON and in the text
# tables, with psync, io_uring (where it works) and two workers; the CSV
# line is untouched; a stop signal in a tree phase removes both trees;
# bad options are refused. Small trees: the whole script takes seconds.
. "$TESTLIB"
need_python3 "to read the JSON"

# a tmpfs (root's own, or /dev/shm), else a directory under $TMPDIR
MNT=""
if scratch_tmpfs_any 256m; then
	MNT=$SCRATCH
else
	MNT=$(mktemp -d "${TMPDIR:-/tmp}/clyde-tree.XXXXXX") || skip "no scratch directory"
	T_DIRS="$T_DIRS $MNT"
fi
scratch_dir
W=$SCRATCH
VERSION=$("$CLYDE" --version | sed -n 's/^clyde //p')
SHAPE=ports
SCALE=0.1
SPEC=$SHAPE:$SCALE

# 1. --tree-list: the listing and its summary
# list_stats LISTING SUMMARY: sets L_DIRS L_FILES L_BYTES L_DEPTH L_HASH
# from the summary line, checking the listing against it
list_stats() {
	sum=$(cat "$2")
	expect_match "the summary line ($1)" "$sum" \
		'^clyde: tree [a-z]+ x[0-9.e+-]+ seed [0-9]+: [0-9]+ directories [0-9]+ files [0-9]+ bytes depth [0-9]+ hash [0-9a-f]{16}$'
	set -- "$1" $(printf '%s\n' "$sum" | sed -E 's/.*: ([0-9]+) directories ([0-9]+) files ([0-9]+) bytes depth ([0-9]+) hash ([0-9a-f]+)$/\1 \2 \3 \4 \5/')
	L_DIRS=$2 L_FILES=$3 L_BYTES=$4 L_DEPTH=$5 L_HASH=$6
	expect_eq "$1: 'd ' lines" "$(grep -c '^d ' "$1")" "$L_DIRS"
	expect_eq "$1: 'f ' lines" "$(grep -c '^f ' "$1")" "$L_FILES"
	expect_eq "$1: the sizes add up" "$(awk '$1 == "f" { s += $3 } END { printf "%d\n", s }' "$1")" "$L_BYTES"
	expect_eq "$1: the deepest directory" \
		"$(awk '$1 == "d" { n = split($2, a, "/"); if (n > m) m = n } END { print m + 0 }' "$1")" "$L_DEPTH"
	expect_eq "$1: every line is 'd PATH' or 'f PATH SIZE'" \
		"$(grep -Evc '^(d [^ /][^ ]*|f [^ /][^ ]* [0-9]+)$' "$1")" 0
	expect_eq "$1: no path twice" "$(awk '{ print $2 }' "$1" | sort | uniq -d | wc -l)" 0
	# tar's order: a directory before anything in it
	expect_eq "$1: each parent listed before its entries" "$(awk '
		{ p = $2; sub("/[^/]*$", "", p); if (p != $2 && !(p in seen)) bad++ }
		$1 == "d" { seen[$2] = 1 }
		END { print bad + 0 }' "$1")" 0
}
"$CLYDE" --tree=$SPEC --tree-list >"$W/l1" 2>"$W/l1.err"
expect_eq "--tree-list exit status" "$?" 0
list_stats "$W/l1" "$W/l1.err"
DIRS=$L_DIRS FILES=$L_FILES DEPTH=$L_DEPTH HASH=$L_HASH
expect_match "the default seed is 1" "$(cat "$W/l1.err")" "^clyde: tree $SHAPE x$SCALE seed 1: "
[ "$FILES" -gt 100 ] && [ "$DIRS" -gt 10 ] && [ "$DEPTH" -ge 2 ] && ok ||
	fail "$SPEC is too small a tree to test with: $FILES files $DIRS directories depth $DEPTH"
"$CLYDE" --tree=$SPEC --tree-list -d "$MNT" >"$W/l2" 2>"$W/l2.err"
check "the same listing twice" cmp -s "$W/l1" "$W/l2"
check "the same summary twice" cmp -s "$W/l1.err" "$W/l2.err"
expect_empty_dir "--tree-list writes nothing" "$MNT"
"$CLYDE" --tree=$SPEC --tree-seed=1 --tree-list >"$W/l2" 2>/dev/null
check "--tree-seed=1 is the default" cmp -s "$W/l1" "$W/l2"
"$CLYDE" --tree=$SPEC --tree-seed=5 --tree-list >"$W/l5" 2>"$W/l5.err"
expect_eq "--tree-seed=5 exit status" "$?" 0
list_stats "$W/l5" "$W/l5.err"
HASH5=$L_HASH
expect_match "seed 5 is said" "$(cat "$W/l5.err")" "^clyde: tree $SHAPE x$SCALE seed 5: "
[ "$HASH5" != "$HASH" ] && ok || fail "--tree-seed=5 gives the hash of seed 1: $HASH"
cmp -s "$W/l1" "$W/l5" && fail "--tree-seed=5 gives seed 1's listing" || ok
for s in source:0.02 mixed:0.02 ports:0.05; do
	"$CLYDE" --tree=$s --tree-list >"$W/ls" 2>"$W/ls.err"
	expect_eq "--tree=$s --tree-list" "$?" 0
	list_stats "$W/ls" "$W/ls.err"
	[ "$L_HASH" != "$HASH" ] && ok || fail "--tree=$s has the hash of $SPEC"
done

# 2. whole runs, checked against the listing
# stats LISTING: "DIRS FILES BYTES DEPTH CHUNKS RECORDS": the 128 KiB reads
# (or writes) of a whole tree, as cp does them, and its 10240-byte ones, as tar
stats() {
	awk '$1 == "d" { d++; n = split($2, a, "/"); if (n > m) m = n }
		$1 == "f" { f++; b += $3; c += int(($3 + 131071) / 131072); t += int(($3 + 10239) / 10240) }
		END { printf "%d %d %d %d %d %d\n", d, f, b, m, c, t }' "$1"
}
# check_run OUT JSON WORKERS IO DEPTH RUNSEED NAME TREESEED HASH "$(stats LISTING)":
# the JSON and the text, field by field
check_run() {
	python3 - "$@" "$SHAPE" "$SCALE" "$VERSION" "$(uname -r)" 2>&1 <<'PY'
import json, os, re, sys
out, jpath, W, io, depth, runseed, name, seed, H, st, shape, scale, version, kernel = sys.argv[1:]
W, depth, seed, runseed, scale = int(W), int(depth), int(seed), int(runseed), float(scale)
D, F, B, M, CH, TR = (int(x) for x in st.split())
problems = []
def need(cond, what):
    if not cond:
        problems.append(what)
def eq(what, got, want):
    need(got == want, "%s: got %r, want %r" % (what, got, want))

doc = json.load(open(jpath))
eq("schema", doc["schema"], "clyde-result/15")
r = doc["runs"][0]
eq("run seed", r["seed"], runseed)
eq("concurrency", r["concurrency"], W)
t = r["tree"]
want_tree = {"shape": shape, "scale": scale, "seed": seed, "dirs": D, "files": F, "max_depth": M,
             "bytes": B, "hash": H, "io": io, "depth": depth}
for k, v in want_tree.items():
    eq("tree." + k, t.get(k), v)
need(isinstance(t["walk_cache"], str) and t["walk_cache"], "tree.walk_cache empty")
ring_kinds = None
if io == "psync":
    eq("tree.io_description", t["io_description"], "")
else:
    m = re.match(r"^ring depth (\d+) [^;]*; via ring:((?: [a-z]+)+)(?:; plain calls[^:]*:((?: [a-z]+)+))?$",
                 t["io_description"])
    need(m is not None, "tree.io_description %r" % t["io_description"])
    if m:
        eq("the ring's depth", int(m.group(1)), depth)
        ring_kinds = set(m.group(2).split())
        # every kind has had an io_uring opcode since Linux 5.15; only reads
        # go in the ring unless CLYDE_TEST_TREE_RING=all (the rest cost less as calls)
        kv = tuple(int(x) for x in re.findall(r"\d+", kernel)[:2])
        want_ring = ["read"]
        if os.environ.get("CLYDE_TEST_TREE_RING") == "all":
            want_ring = ["mkdir", "create", "open", "write", "read", "close", "stat", "unlink", "rmdir"]
        if kv >= (6, 0):
            eq("kinds via the ring on Linux %s" % kernel, sorted(ring_kinds), sorted(want_ring))

TREE = ["tree_extract", "tree_copy", "tree_walk", "tree_read", "tree_delete"]
want = {
    "tree_extract": (F, D, 0, B, F, {"mkdir": D, "create": F, "write": TR, "close": F}),
    # copy, read and delete list every directory, as cp, tar and rm do; cp
    # reads each file to its end (one more read each), tar stats it first
    "tree_copy": (F, D, 0, B, F, {"mkdir": D, "stat": F, "create": F, "open": F, "write": CH,
                                  "read": CH + F, "close": 2 * F, "list": D + 1}),
    "tree_walk": (F, D, F + D, B, F + D, {"stat": F + D, "list": D + 1}),
    "tree_read": (F, 0, 0, B, F, {"stat": F, "open": F, "read": TR, "close": F, "list": D + 1}),
    # both trees, and their two roots
    "tree_delete": (2 * F, 2 * (D + 1), 0, 0, 2 * F, {"unlink": 2 * F, "rmdir": 2 * (D + 1),
                                                      "list": 2 * (D + 1)}),
}
phases = r["phases"]
for n, p in phases.items():
    if n not in TREE:
        eq(n + ".ran with -s 0 -n 0", p["ran"], False)
for n in TREE:
    p = phases.get(n)
    need(p is not None and p["ran"], n + " did not run")
    if not p or not p["ran"]:
        continue
    files, dirs, entries, nbytes, amount, ops = want[n]
    pt = p["tree"]
    for k, v in (("files", files), ("dirs", dirs), ("entries", entries), ("bytes", nbytes)):
        eq(n + ".tree." + k, pt[k], W * v)
    eq(n + ".amount", p["amount"], W * amount)
    eq(n + ".amount_unit", p["amount_unit"], "files")
    eq(n + ".mismatches", p["mismatches"], 0)
    el = p["elapsed_s"]
    need(el > 0, n + ": elapsed %r" % el)
    if el > 0:
        need(abs(p["rate"] - W * amount / el) <= 1e-3 * p["rate"] + 1e-3, n + ": rate %r" % p["rate"])
        mib = W * nbytes / 1048576.0 / el
        need(abs(pt["mib_per_s"] - mib) <= 1e-3 * mib + 1e-6, n + ": mib_per_s %r, want %r" % (pt["mib_per_s"], mib))
    eq(n + ": op kinds", sorted(pt["ops"]), sorted(ops))
    for op, o in pt["ops"].items():
        lat = o["latency_us"]
        eq("%s %s count" % (n, op), lat["count"], W * ops.get(op, -1))
        qs = [lat[k] for k in ("p50", "p90", "p99", "p99.9", "max")]
        need(all(q is not None and q >= 0 for q in qs) and qs == sorted(qs) and qs[-1] > 0,
             "%s %s percentiles %r" % (n, op, qs))
        if io == "psync" or op == "list" or ring_kinds is None:
            eq("%s %s via_ring" % (n, op), o["via_ring"], 0)
        elif op == "read" and op in ring_kinds:
            # the reads the page cache holds are plain calls (all on a tmpfs)
            need(0 <= o["via_ring"] <= lat["count"], "%s read via_ring %r of %r" %
                 (n, o["via_ring"], lat["count"]))
        elif op in ring_kinds:
            eq("%s %s via_ring" % (n, op), o["via_ring"], lat["count"])
        else:
            eq("%s %s via_ring (a plain call)" % (n, op), o["via_ring"], 0)
    # the phase's latency: every op but the listings
    timed = [op for op in pt["ops"] if op != "list"]
    eq(n + ".latency_us.count", p["latency_us"]["count"], sum(pt["ops"][op]["latency_us"]["count"] for op in timed))
    eq(n + ": workers", [w["index"] for w in p["workers"]], list(range(W)))
    for w in p["workers"]:
        eq("%s worker %d amount" % (n, w["index"]), w["amount"], amount)
    if n in ("tree_copy", "tree_read"):
        c = p.get("cache")
        need(c is not None and c["resident_pct"] is not None and 0 <= c["resident_pct"] <= 100,
             n + ": cache %r" % c)

# the text: the head line, the phase table, the walk line, the latency table, the CSV
lines = open(out).read().split("\n")
need(lines[-1] == "", "stdout does not end with a newline")
lines = lines[:-1]
csv = lines[-1] if lines else ""
eq("the CSV line in the JSON is stdout's last", r["csv"], csv)
f = csv.split(",")
eq("CSV fields", len(f), 50)
eq("CSV fields 0-4", f[:5], ["1.98", version, name, str(W), str(runseed)])
eq("CSV fields 5-49 (nothing but the tree ran)", [x for x in f[5:] if x], [])
eq("lines with a comma before the CSV line", [l for l in lines[:-1] if "," in l], [])
eq("CSV lines", sum(1 for l in lines if l.startswith("1.98,")), 1)
head = "Tree %s x%g seed %d: %d directories %d files %.1f MiB depth %d; listing hash %s; %s %d at a time" % (
    shape, scale, seed, D, F, B / 1048576.0, M, H, io, depth)
eq("the head line", lines[0] if lines else "", head)
eq("the phase table's header", lines[1].split() if len(lines) > 1 else [],
   "Tree phase files/s MiB/s wall s user s sys s dead s flush s %CP resident".split())
NUM = re.compile(r"^[0-9]+\.[0-9]{3}$")
for i, (n, label) in enumerate(zip(TREE, ["Extract", "Copy", "Walk", "Read", "Delete"])):
    row = lines[2 + i].split() if len(lines) > 2 + i else []
    eq("row %d" % i, row[:1], [label])
    if len(row) != 10:
        problems.append("%s row: %r" % (label, row))
        continue
    p = phases[n]
    need(abs(float(row[1]) - p["rate"]) <= 1, "%s files/s %s, JSON %r" % (label, row[1], p["rate"]))
    need(abs(float(row[2]) - p["tree"]["mib_per_s"]) <= 0.051, "%s MiB/s %s, JSON %r" % (label, row[2], p["tree"]["mib_per_s"]))
    eq(label + " wall s", row[3], "%.3f" % p["elapsed_s"])
    need(all(NUM.match(x) for x in row[4:8]), "%s: seconds %r" % (label, row[4:8]))
    eq(label + " %CP", row[8], str(p["cpu_percent"]))
    if n == "tree_walk":
        eq(label + " resident", row[9], "metadata")
    elif n in ("tree_copy", "tree_read"):
        eq(label + " resident", row[9], "%.1f%%" % p["cache"]["resident_pct"])
    else:
        eq(label + " resident", row[9], "-")
eq("the walk line", lines[7] if len(lines) > 7 else "",
   "walk: %s; it counts every entry (files and directories)" % t["walk_cache"])
eq("the latency table's header", lines[8].split() if len(lines) > 8 else [],
   "Tree latency op count via ring p50 p90 p99 p99.9 max".split())
rows = []
for n, label in zip(TREE, ["Extract", "Copy", "Walk", "Read", "Delete"]):
    for op, o in phases[n]["tree"]["ops"].items():
        rows.append([label, op, str(o["latency_us"]["count"]), str(o["via_ring"])])
got = [l.split() for l in lines[9:-1]]
eq("latency rows (phase op count via-ring)", [g[:4] for g in got], rows)
LAT = re.compile(r"^[0-9]+(us|ms|s)$")
need(all(len(g) == 9 and all(LAT.match(x) for x in g[4:]) for g in got), "latency cells: %r" % got)
print("\n".join(problems))
PY
}

# run LABEL EXPECTED-STATUS ARGS...: clyde on $MNT, stdout in $W/o, stderr in $W/e, JSON in $W/j
run() {
	label=$1
	want=$2
	shift 2
	rm -f "$W/j"
	"$CLYDE" -d "$MNT" -s 0 -n 0 --json "$W/j" "$@" >"$W/o" 2>"$W/e"
	rc=$?
	expect_eq "$label: exit status" "$rc" "$want"
	expect_empty_dir "$label: nothing left" "$MNT"
	[ "$rc" = "$want" ]
}
PROGRESS="Extracting the tree...done
Copying the tree...done
Walking the tree...done
Reading the tree...done
Deleting the trees...done"

ST1=$(stats "$W/l1")
ST5=$(stats "$W/l5")
if run "psync" 0 --tree=$SPEC -z 11 -m treebox; then
	expect_eq "psync: the JSON and the text" "$(check_run "$W/o" "$W/j" 1 psync 1 11 treebox 1 "$HASH" "$ST1")" ""
	expect_eq "psync: the progress lines" "$(grep 'tree.*\.\.\.' "$W/e")" "$PROGRESS"
	cp "$W/o" "$W/o.psync"
fi
# the tree adds nothing to the CSV line, and -z does not change the tree
"$CLYDE" -d "$MNT" -s 0 -n 0 -z 11 -m treebox >"$W/o.none" 2>/dev/null
expect_eq "the CSV line without --tree" "$(tail -n 1 "$W/o.none")" "$(tail -n 1 "$W/o.psync" 2>/dev/null)"
if run "psync -z 12" 0 --tree=$SPEC -z 12 -q; then
	expect_eq "-z 12: the same tree" "$(grep -o '"hash": "[0-9a-f]*"' "$W/j" | tr -d '"' | tr '\n' ' ')" "hash: $HASH "
	expect_match "-q: the CSV line alone on stdout" "$(cat "$W/o")" '^1\.98,0\.[^,]*,[^,]*,1,12,,'
	expect_eq "-q: one line" "$(wc -l <"$W/o")" 1
fi

# two workers, another tree seed
if run "psync -c 2" 0 --tree=$SPEC --tree-seed=5 -c 2 -z 13 -m two; then
	expect_eq "-c 2: the JSON and the text" "$(check_run "$W/o" "$W/j" 2 psync 1 13 two 5 "$HASH5" "$ST5")" ""
fi

# 5. io_uring, where it is built and works
if ! "$CLYDE" --version | grep -q 'uring (not built'; then
	"$CLYDE" -d "$MNT" -s 0 -n 0 --tree=ports:0.001 --engine=uring >/dev/null 2>"$W/e"
	rc=$?
	if [ $rc = 4 ]; then
		echo "io_uring is not available to this process: uring not tested: $(cat "$W/e")"
	else
		expect_eq "uring probe run" "$rc" 0
		if run "uring" 0 --tree=$SPEC --engine=uring -z 14 -m ring; then
			expect_eq "uring: the JSON and the text" "$(check_run "$W/o" "$W/j" 1 uring 32 14 ring 1 "$HASH" "$ST1")" ""
			expect_eq "uring: the progress lines" "$(grep 'tree.*\.\.\.' "$W/e")" "$PROGRESS"
		fi
		if run "uring --iodepth=4 -c 2" 0 --tree=$SPEC --engine=uring --iodepth=4 -c 2 -z 15 -m ring4; then
			expect_eq "uring depth 4, two workers: the JSON and the text" \
				"$(check_run "$W/o" "$W/j" 2 uring 4 15 ring4 1 "$HASH" "$ST1")" ""
		fi
		# every kind through the ring, as before the per-kind choice: the same tree
		CLYDE_TEST_TREE_RING=all
		export CLYDE_TEST_TREE_RING
		if run "uring, all kinds via the ring" 0 --tree=$SPEC --engine=uring -z 16 -m ringall; then
			expect_eq "uring, all kinds via the ring: the JSON and the text" \
				"$(check_run "$W/o" "$W/j" 1 uring 32 16 ringall 1 "$HASH" "$ST1")" ""
		fi
		unset CLYDE_TEST_TREE_RING
	fi
else
	echo "uring not built: only psync tested"
	"$CLYDE" -d "$MNT" -s 0 -n 0 --tree=$SPEC --engine=uring >/dev/null 2>"$W/e"
	expect_eq "--engine=uring --tree without liburing exits 4" "$?" 4
	expect_empty_dir "nothing left after the refusal" "$MNT"
fi

# 7. a stop signal in a tree phase: exit 5, said, both trees removed
# start_paused PHASE ARGS...: clyde in the background, paused in PHASE
start_paused() {
	phase=$1
	shift
	rm -f "$W/e"
	CLYDE_TEST_PAUSE=$phase "$CLYDE" -d "$MNT" -s 0 -n 0 --tree=$SPEC "$@" >/dev/null 2>"$W/e" &
	pid=$!
	wait_pause "$W/e" && return 0
	fail "clyde never paused in $phase: $(cat "$W/e")"
	return 1
}
# on_disk DIR: DIR's tree in --tree-list's form, sorted
on_disk() {
	(cd "$1" && find . -mindepth 1 -printf '%y %P %s\n') | awk '$1 == "d" { print $1, $2; next } { print }' | sort
}
# the listing up to its first file: what a tar x stopped after one file has made
FIRST=$(awk '{ print } $1 == "f" { exit }' "$W/l1" | sort)
stop_in() {
	phase=$1
	sig=$2
	what=$(echo "$phase" | tr _ ' ')
	start_paused "$phase" || { kill -KILL $pid; wait $pid; return; }
	top=$(ls -d "$MNT"/clyde.* 2>/dev/null)
	case $phase in
	tree_extract)
		expect_eq "paused in $phase: what is there" "$(ls "$top" | tr '\n' ' ')" "tree.0 "
		expect_eq "paused in $phase: one file made" "$(on_disk "$top/tree.0")" "$FIRST" ;;
	tree_copy)
		expect_eq "paused in $phase: what is there" "$(ls "$top" | tr '\n' ' ')" "tree.0 tree.0.copy "
		expect_eq "paused in $phase: the whole tree extracted" "$(on_disk "$top/tree.0")" "$(sort "$W/l1")"
		# cp -r meets the files in readdir order: one of them, whole, and
		# only directories of the tree besides
		on_disk "$top/tree.0.copy" >"$W/copied"
		expect_eq "paused in $phase: one file copied" "$(grep -c '^f ' "$W/copied")" 1
		expect_eq "paused in $phase: all of it the tree's" \
			"$(sort "$W/l1" | comm -13 - "$W/copied")" "" ;;
	tree_walk)
		expect_eq "paused in $phase: the copy is whole" "$(on_disk "$top/tree.0.copy")" "$(sort "$W/l1")" ;;
	esac
	kill -"$sig" $pid
	wait $pid
	rc=$?
	expect_eq "SIG$sig in $phase exits 5" "$rc" 5
	case $sig in INT) n=2 ;; TERM) n=15 ;; esac
	expect_match "SIG$sig in $phase is said" "$(grep -v 'test pause' "$W/e" | tail -n 1)" \
		"^clyde: $what: stopped by signal $n; removed $MNT/clyde\\.[A-Za-z0-9]{6}\$"
	expect_empty_dir "nothing left after SIG$sig in $phase" "$MNT"
}
stop_in tree_extract INT
stop_in tree_copy TERM
stop_in tree_walk INT

# 8. bad options: usage errors that name the option
# refused LABEL MESSAGE ARGS...
refused() {
	label=$1
	msg=$2
	shift 2
	"$CLYDE" -d "$MNT" -s 0 -n 0 "$@" >"$W/o" 2>"$W/e"
	expect_eq "$label: exit status" "$?" 1
	expect_eq "$label: the message" "$(head -n 1 "$W/e")" "$msg"
	expect_eq "$label: nothing on stdout" "$(wc -c <"$W/o")" 0
}
refused "--tree=nope" "clyde: --tree: unknown shape 'nope' (ports, source or mixed)" --tree=nope
refused "--tree=ports:0" "clyde: --tree: scale '0' is not a number from 0.001 to 1000" --tree=ports:0
refused "--tree=ports:abc" "clyde: --tree: scale 'abc' is not a number from 0.001 to 1000" --tree=ports:abc
refused "--tree=ports:1001" "clyde: --tree: scale '1001' is not a number from 0.001 to 1000" --tree=ports:1001
refused "--tree=" "clyde: --tree: give a shape: ports, source or mixed" --tree=
refused "--tree-list alone" "clyde: --tree-list needs --tree=SHAPE" --tree-list
refused "--tree-seed=x" "clyde: --tree-seed: 'x' is not a number from 0 to 18446744073709551615" --tree=$SPEC --tree-seed=x
refused "--tree-seed=-1" "clyde: --tree-seed: '-1' is not a number from 0 to 18446744073709551615" --tree=$SPEC --tree-seed=-1
refused "--tree-list --tree=nope" "clyde: --tree: unknown shape 'nope' (ports, source or mixed)" --tree=nope --tree-list
expect_empty_dir "nothing left after the refusals" "$MNT"

# 9. --plan names the tree and its phases
"$CLYDE" --plan -d "$MNT" -s 0 -n 0 --tree=$SPEC --tree-seed=7 >"$W/o" 2>"$W/e"
expect_eq "--plan --tree exit status" "$?" 0
expect_eq "--plan: the tree line" "$(grep '^tree:' "$W/o")" "tree: $SHAPE at scale $SCALE seed 7; system calls 1 at a time; not in the estimate"
expect_eq "--plan: the phases" "$(grep '^phases:' "$W/o")" \
	"phases: tree_extract tree_copy tree_walk tree_read tree_delete"
"$CLYDE" --plan -d "$MNT" -s 0 -n 0 >"$W/o" 2>"$W/e"
expect_eq "--plan without --tree: no tree line" "$(grep -c '^tree:' "$W/o")" 0
expect_empty_dir "--plan writes nothing" "$MNT"

done_testing
