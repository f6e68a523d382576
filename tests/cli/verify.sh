#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# --verify: clean runs pass; a byte changed between the write and read
# phases is found, named by file and offset, counted, and exits 6.
. "$TESTLIB"
need_root

need_tmpfs 256m
MNT=$SCRATCH
scratch_dir
W=$SCRATCH

# clean: concurrency, seekers that update, file data (tests/cli/verify_uring.sh:
# the same through io_uring)
for engine in psync; do
	"$CLYDE" --verify --engine=$engine -d "$MNT" -s 8:4k:2000:4 -c 2 -n 1:8k:1k:2 -f64k \
		--json "$W/clean.json" >"$W/out" 2>"$W/err"
	rc=$?
	expect_eq "--verify clean run ($engine)" "$rc" 0
	expect_match "no mismatch reported ($engine)" "$(grep -c 'verify:' "$W/err")" '^0$'
	expect_eq "JSON: verify on, no mismatches ($engine)" "$(python3 -c 'import json,sys
print(sorted({(r["data"]["verify"], r["data"]["mismatches"]) for r in json.load(open(sys.argv[1]))["runs"]}))' \
		"$W/clean.json")" "[(True, 0)]"
done
"$CLYDE" --verify --perchar=stdio -D -d "$MNT" -s 4 -n 0 >/dev/null 2>"$W/err"
expect_eq "--verify with -D and stdio per-char" "$?" 0

# a byte changed while clyde waits in the per-char read, after rewrite:
# the block read finds it at its offset
: >"$W/err"
CLYDE_TEST_PAUSE=getc CLYDE_TEST_RESUME=$W/go "$CLYDE" --verify -d "$MNT" -s 8 -n 0 -f64k \
	--json "$W/bad.json" >"$W/out" 2>"$W/err" &
pid=$!
wait_pause "$W/err"
io=$(ls "$MNT"/clyde.*/io.0)
flip_byte "$io" 3000000
expect_eq "the byte changed behind clyde's back" "$?" 0
touch "$W/go"
wait $pid
rc=$?
expect_eq "a changed byte exits 6" "$rc" 6
expect_match "the mismatch names phase, file and offset" "$(cat "$W/err")" \
	"clyde: verify: block read: $MNT/clyde\.[A-Za-z0-9]+/io\.0: data differ at offset 3000000"
expect_match "the count is reported" "$(cat "$W/err")" "verify: [1-9][0-9]* mismatches in run 1"
# block read meets it once; seeks may read that chunk too before an update mends it
expect_eq "JSON counts it" "$(python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))["runs"][0]
p=r["phases"]
print(p["get_block"]["mismatches"], r["data"]["mismatches"] == sum(x.get("mismatches", 0) for x in p.values()))' \
	"$W/bad.json")" "1 True"
expect_match "the CSV line still comes" "$(tail -n 1 "$W/out")" '^1\.98,'
expect_empty_dir "nothing left" "$MNT"

# a lost write: the rewrite's data are put back to the old bytes behind
# clyde's back. Copied at the first pause (chunk 0 already rewritten, the
# rest not) and written back at the second (rewrite done); every chunk but
# the first now holds version 1 where clyde expects 2. The data are
# self-consistent, so only the versions kept in memory can tell.
rm -f "$W/go" "$W/err"
CLYDE_TEST_PAUSE=rewrite:getc CLYDE_TEST_RESUME=$W/go "$CLYDE" --verify -d "$MNT" -s 8::100 -n 0 \
	-f64k --json "$W/lost.json" >"$W/out" 2>"$W/err" &
pid=$!
wait_pause "$W/err" 1
io=$(ls "$MNT"/clyde.*/io.0)
cp "$io" "$W/old"
touch "$W/go"
wait_pause "$W/err" 2
dd if="$W/old" of="$io" bs=1M conv=notrunc 2>/dev/null
touch "$W/go"
wait $pid
rc=$?
expect_eq "a lost rewrite exits 6" "$rc" 6
expect_match "the first stale chunk is named" "$(cat "$W/err")" \
	"clyde: verify: per-char read: $MNT/clyde\.[A-Za-z0-9]+/io\.0: data differ at offset 8196"
# per-char read meets chunks 1-7 of its 64 KiB; block read all 1023 stale chunks
expect_eq "JSON counts every stale chunk" "$(python3 -c 'import json,sys; p=json.load(open(sys.argv[1]))["runs"][0]["phases"]
print(p["getc"]["mismatches"], p["get_block"]["mismatches"])' "$W/lost.json")" "7 1023"
rm -f "$W/old"
expect_empty_dir "nothing left after the lost write" "$MNT"

# small files: each one's size and data as written are kept. A file
# shortened by its last byte after its create (a lost write) is found by
# the stat phase and named with both sizes; a file rewritten in place with
# other bytes of the same size, by its data.
for change in truncate rewrite; do
	# the file exists before clyde starts: wait_pause must not read a
	# missing file as "paused"
	rm -f "$W/go"
	: >"$W/err"
	CLYDE_TEST_PAUSE=seq_create CLYDE_TEST_RESUME=$W/go "$CLYDE" --verify -d "$MNT" -s 0 \
		-n 1:8k:1k:1 --json "$W/small.json" >"$W/out" 2>"$W/err" &
	pid=$!
	wait_pause "$W/err"
	f=$(find "$MNT" -type f -name '0000000000*')
	size=$(wc -c <"$f")
	case $change in
	truncate)
		truncate -s $((size - 1)) "$f"
		want="size $((size - 1)), written $size"
		;;
	rewrite)
		# zeros: the first byte that differs is the data's first nonzero
		# one (offset 0 but one time in 256)
		first=$(od -An -v -tu1 -w1 "$f" | awk '$1 != 0 { print NR - 1; exit }')
		head -c "$size" /dev/zero | dd of="$f" conv=notrunc 2>/dev/null
		want="data differ at offset ${first:-none}"
		;;
	esac
	touch "$W/go"
	wait $pid
	expect_eq "a small file's $change after its create exits 6" "$?" 6
	expect_match "the $change names the file" "$(cat "$W/err")" \
		"clyde: verify: sequential stat: $MNT/clyde\.[A-Za-z0-9]+/files\.0/0000000000[A-Za-z0-9]*: $want"
	expect_eq "JSON counts the $change once" "$(python3 -c 'import json,sys; p=json.load(open(sys.argv[1]))["runs"][0]["phases"]
print(p["seq_stat"]["mismatches"], p["ran_stat"]["mismatches"])' "$W/small.json")" "1 0"
	expect_empty_dir "nothing left after the $change" "$MNT"
done

# without --verify the same change goes unnoticed (nothing checks): exit 0
rm -f "$W/go" "$W/err"
CLYDE_TEST_PAUSE=getc CLYDE_TEST_RESUME=$W/go "$CLYDE" -d "$MNT" -s 8 -n 0 -f64k \
	>/dev/null 2>"$W/err" &
pid=$!
wait_pause "$W/err"
flip_byte "$(ls "$MNT"/clyde.*/io.0)" 3000000
expect_eq "without --verify: the byte changed" "$?" 0
touch "$W/go"
wait $pid
expect_eq "without --verify nothing is checked" "$?" 0
done_testing
