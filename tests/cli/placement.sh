#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Placement as it really happened: --bind=core -c 2 puts each worker on
# its own CPU and says so per worker in the placement line and in JSON
# (CPU set, the CPUs it ran on, the node of its buffers); per-worker
# results add up to the phase's; --cpus restricts; bad requests exit 1.
# A build without hwloc and libnuma still binds to cores and refuses the
# NUMA modes with a clear message; a build with them runs them.
. "$TESTLIB"
need_root
need_linux "binding checks read Linux's CPU numbers"
need_python3 "to read the JSON"

need_tmpfs 128m
MNT=$SCRATCH
scratch_dir
W=$SCRATCH
ncpu=$(nproc)
numa=no
"$CLYDE" --version | grep -Eq 'libnuma yes|hwloc yes' && numa=yes

# field JSON EXPR: EXPR of the first run r
field() {
	python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))["runs"][0]; print(eval(sys.argv[2]))' "$1" "$2"
}

if [ "$ncpu" -ge 2 ]; then
	"$CLYDE" -d "$MNT" -c 2 --bind=core -s 16:8192:300 -n 1 -f --json "$W/c.json" >"$W/c.out" 2>"$W/c.err"
	expect_eq "--bind=core -c 2" "$?" 0
	line=$(grep '^placement:' "$W/c.err")
	expect_match "the placement line names the plan" "$line" '^placement: bind core: w0 cpu 0 w1 cpu 1;'
	expect_match "worker 0 ran on CPU 0 only" "$line" '; worker 0 set 0 ran on CPU 0 buffers on node (0|unknown)'
	expect_match "worker 1 ran on CPU 1 only" "$line" '; worker 1 set 1 ran on CPU 1 buffers on node (0|unknown)'
	expect_eq "no comma in the placement line" "$(printf '%s' "$line" | grep -c ',')" 0
	expect_match "the topology line" "$(grep '^topology:' "$W/c.err")" "$ncpu hardware threads"
	out=$(python3 - "$W/c.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))["runs"][0]
bad = []
for name, ph in r["phases"].items():
    if not ph["ran"]:
        continue
    ws = ph.get("workers", [])
    if len(ws) != 2:
        bad.append(name + ": %d workers" % len(ws)); continue
    for k, w in enumerate(ws):
        if w["cpus"] != str(k):
            bad.append("%s: worker %d set %r" % (name, k, w["cpus"]))
        if w["cpu_first"] != k or w["cpu_last"] != k or w["ran_on"] != str(k):
            bad.append("%s: worker %d ran on %r..%r (%r)" % (name, k, w["cpu_first"], w["cpu_last"],
                                                         w["ran_on"]))
        if w["buffer_node"] not in (0, None):
            bad.append("%s: worker %d buffers on node %r" % (name, k, w["buffer_node"]))
        for key in ("rate", "cpu_s", "start_s", "end_s", "latency_us"):
            if key not in w:
                bad.append("%s: worker %d lacks %s" % (name, k, key))
    total = sum(w["amount"] for w in ws)
    if abs(total - ph["amount"]) > 1e-6 * max(1, ph["amount"]):
        bad.append("%s: workers' amounts %g != phase %g" % (name, total, ph["amount"]))
    span = max(w["end_s"] for w in ws) - min(w["start_s"] for w in ws)
    if abs(span - ph["elapsed_s"]) > 1e-5:
        bad.append("%s: first start to last end %g != elapsed %g" % (name, span, ph["elapsed_s"]))
pl = r["placement"]
if [w["cpus"] for w in pl["workers"]] != ["0", "1"] or [w["core"] for w in pl["workers"]] != [0, 1]:
    bad.append("plan %r" % pl["workers"])
t = r["topology"]
if t["threads"] < 2 or not t["source"]:
    bad.append("topology %r" % t)
print("\n".join(bad))
PY
)
	expect_eq "per-worker JSON" "$out" ""

	"$CLYDE" -d "$MNT" -c 2 --cpus=1 -s 8:8192:100 -n 0 -f --json "$W/s.json" >/dev/null 2>"$W/s.err"
	expect_eq "--cpus=1 -c 2" "$?" 0
	expect_eq "--cpus=1: both workers on CPU 1" \
		"$(field "$W/s.json" '[w["cpus"] for w in r["phases"]["put_block"]["workers"]]')" "['1', '1']"
	expect_file_has "--cpus=1: ran on CPU 1" "$W/s.err" "worker 1 set 1 ran on CPU 1"

	# The seek phase is the seekers' work, not the worker thread's (which
	# only waits for them): moved to CPU 1 by the test hook while their
	# worker is bound to CPU 0, the seekers are where the report says the
	# seeks ran.
	CLYDE_TEST_SEEKER_CPU=1 "$CLYDE" -d "$MNT" --bind=core -s 8:8192:300:3 -n 0 -f \
		--json "$W/k.json" >/dev/null 2>"$W/k.err"
	expect_eq "seekers moved to CPU 1" "$?" 0
	expect_eq "seeks ran on the seekers' CPU" "$(field "$W/k.json" '[(w["ran_on"], w["cpu_first"], w["cpu_last"]) for w in r["phases"]["seeks"]["workers"]]')" "[('1', 1, 1)]"
	expect_eq "the other phases on the worker's CPU" "$(field "$W/k.json" 'sorted(set(w["ran_on"] for n, p in r["phases"].items() if p["ran"] and n != "seeks" for w in p["workers"]))')" "['0']"
	expect_match "the placement line has both" "$(grep '^placement:' "$W/k.err")" '; worker 0 set 0 ran on CPU 0-1 buffers'
	expect_eq "no test hook complaint" "$(grep -c 'seeker not moved' "$W/k.err")" 0
fi

"$CLYDE" -d "$MNT" -s 8 -n 0 --cpus=1000 >"$W/e" 2>&1
expect_eq "--cpus of no CPU here: usage" "$?" 1
expect_file_has "--cpus: says which set" "$W/e" "none of these CPUs is in this process's CPU set"
"$CLYDE" -d "$MNT" -s 8 -n 0 --cpus=0-x >"$W/e" 2>&1
expect_eq "--cpus=0-x: usage" "$?" 1
"$CLYDE" -d "$MNT" -s 8 -n 0 --bind=socket >"$W/e" 2>&1
expect_eq "--bind=socket: usage" "$?" 1

if [ $numa = no ]; then
	for opt in --bind=numa --numa-node=0 --mem-policy=local; do
		"$CLYDE" -d "$MNT" -s 8 -n 0 $opt >"$W/e" 2>&1
		expect_eq "$opt without hwloc or libnuma: usage" "$?" 1
		expect_file_has "$opt: says what it needs" "$W/e" "needs hwloc or libnuma"
	done
else
	"$CLYDE" -d "$MNT" -c 2 --bind=numa --mem-policy=bind:0 -s 8:8192:100 -n 0 -f --json "$W/n.json" >/dev/null 2>"$W/n.err"
	expect_eq "--bind=numa --mem-policy=bind:0" "$?" 0
	expect_eq "--bind=numa: each worker on node 0's CPUs" \
		"$(field "$W/n.json" '[w["node"] for w in r["placement"]["workers"]]')" "[0, 0]"
	expect_eq "--mem-policy=bind:0: the buffers on node 0" \
		"$(field "$W/n.json" 'sorted(set(w["buffer_node"] for w in r["phases"]["put_block"]["workers"]))')" "[0]"
	"$CLYDE" -d "$MNT" -s 8 -n 0 --numa-node=7 >"$W/e" 2>&1
	expect_eq "--numa-node=7: usage" "$?" 1
	expect_file_has "--numa-node=7: says which nodes exist" "$W/e" "no such NUMA node"
fi
expect_eq "nothing left behind" "$(ls -A "$MNT")" ""

[ "$T_FAILS" = 0 ]
