#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# -x repeats, seeds (-z, -Z), and processes synchronised with -p / -y s.
. "$TESTLIB"
need_root

need_tmpfs 128m
MNT=$SCRATCH
HEADER='format_version,bonnie_version,name,concurrency,seed,file_size,io_chunk_size,num_seeks,seek_proc_count,putc,putc_cpu,put_block,put_block_cpu,rewrite,rewrite_cpu,getc,getc_cpu,get_block,get_block_cpu,seeks,seeks_cpu,num_files,max_size,min_size,num_dirs,file_chunk_size,seq_create,seq_create_cpu,seq_stat,seq_stat_cpu,seq_del,seq_del_cpu,ran_create,ran_create_cpu,ran_stat,ran_stat_cpu,ran_del,ran_del_cpu,putc_latency,put_block_latency,rewrite_latency,getc_latency,get_block_latency,seeks_latency,seq_create_latency,seq_stat_latency,seq_del_latency,ran_create_latency,ran_stat_latency,ran_del_latency'

# -x 3 -z 7: the header, then three lines with seed 7; no table on stdout
"$CLYDE" -d "$MNT" -s 2 -n 1 -f64k -x 3 -z 7 -m rep >"$MNT.out" 2>"$MNT.err"
expect_eq "-x exit status" "$?" 0
expect_eq "-x stdout lines" "$(wc -l <"$MNT.out")" 4
expect_eq "-x header names all 50 fields" "$(head -n 1 "$MNT.out")" "$HEADER"
expect_eq "-x seeds with -z" "$(tail -n 3 "$MNT.out" | cut -d, -f5 | sort -u)" 7
expect_eq "-x: no table on stdout" "$(grep -c 'Name:Size' "$MNT.out")" 0
expect_eq "-x: context on stderr, once per run" "$(grep -c '^clyde .*engine psync' "$MNT.err")" 3

# without -z every run draws a new seed (bonnie++ reuses one)
"$CLYDE" -d "$MNT" -s 2 -n 0 -f64k -x 3 -q >"$MNT.out" 2>/dev/null
expect_eq "-x seeds without -z differ" "$(tail -n 3 "$MNT.out" | cut -d, -f5 | sort -u | wc -l)" 3

# -Z: the seed is the file's first four bytes, network order
printf '\000\000\001\002rest' >"$MNT.seed"
line=$("$CLYDE" -d "$MNT" -s 2 -n 0 -f -Z "$MNT.seed" 2>/dev/null | tail -n 1)
expect_eq "-Z seed" "$(csv_field "$line" 4)" 258
rm -f "$MNT.seed"

# -p 2 makes a semaphore; two runs with -y s meet before every phase
if "$CLYDE" -p 2 2>/dev/null; then
	# -x 2: the barriers go on counting across runs
	"$CLYDE" -y s -x 2 -d "$MNT" -s 32::2000 -n 1 -f64k -m one --json "$MNT.one.json" \
		>"$MNT.one" 2>/dev/null &
	p1=$!
	"$CLYDE" -y s -x 2 -d "$MNT" -s 32::2000 -n 1 -f64k -m two --json "$MNT.two.json" \
		>"$MNT.two" 2>/dev/null &
	p2=$!
	# a stuck barrier must not hang the suite
	( sleep 60; kill $p1 $p2 2>/dev/null ) &
	guard=$!
	wait $p1; r1=$?
	wait $p2; r2=$?
	kill $guard 2>/dev/null
	expect_eq "first synchronised run" "$r1" 0
	expect_eq "second synchronised run" "$r2" 0
	expect_match "both finished" "$(tail -n 1 "$MNT.one") $(tail -n 1 "$MNT.two")" '^1\.98,.*,one,.* 1\.98,.*,two,'
	# lined up phase by phase: neither process starts a phase before the
	# other has ended the one before it (CLOCK_MONOTONIC is shared), in
	# every run, across the -x runs too
	cat >"$MNT.lineup.py" <<'EOF'
import json, sys
def seq(path):
    out = []
    for r in json.load(open(path))["runs"]:
        out += [(n, p["start_s"], p["end_s"]) for n, p in r["phases"].items() if p["ran"]]
    return out
a, b = seq(sys.argv[1]), seq(sys.argv[2])
bad = [a[k][0] for k in range(1, min(len(a), len(b)))
       if a[k][1] < b[k - 1][2] or b[k][1] < a[k - 1][2]]
print(len(a), len(b), bad)
EOF
	expect_eq "-y s: no phase starts before the other process ended the last" \
		"$(python3 "$MNT.lineup.py" "$MNT.one.json" "$MNT.two.json")" "24 24 []"
	rm -f "$MNT.one.json" "$MNT.two.json"
	# and the check can fail: two runs one after the other are not lined up
	"$CLYDE" -x 2 -d "$MNT" -s 8::500 -n 1 -f64k --json "$MNT.one.json" >/dev/null 2>&1
	"$CLYDE" -x 2 -d "$MNT" -s 8::500 -n 1 -f64k --json "$MNT.two.json" >/dev/null 2>&1
	expect_match "runs in turn are not lined up" "$(python3 "$MNT.lineup.py" "$MNT.one.json" "$MNT.two.json")" \
		"^24 24 \\['put_block', 'rewrite', "
	rm -f "$MNT.one.json" "$MNT.two.json" "$MNT.lineup.py"
	"$CLYDE" -p -1 2>/dev/null
	expect_eq "-p -1 removes the semaphore" "$?" 0
	err=$("$CLYDE" -y s -d "$MNT" -s 2 -n 0 2>&1 >/dev/null)
	expect_eq "-y s without a semaphore exits 1" "$?" 1
	expect_match "-y s without a semaphore says so" "$err" "no semaphore \(create it with clyde -p N\)"
	rm -f "$MNT.one" "$MNT.two"
else
	fail "-p 2 could not create the semaphore"
fi
expect_empty_dir "nothing left" "$MNT"
rm -f "$MNT.out" "$MNT.err"
done_testing
