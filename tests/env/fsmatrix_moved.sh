#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# A study explains its difference: clyde-fsmatrix over btrfs with and
# without compress=zstd, one run each with --profile=stacks and its own
# --flame, and the report it writes: report.txt's "What moved" puts
# compression first for the block write (the compression layer first
# among the layers, or a zstd function first among the functions, and
# grown), report.html has the block write's differential flame graph
# against the baseline with a zstd frame that grew, and each run's
# folded stacks are in a directory of their own. The study cleans up
# after itself: no mount or loop device of its work directory is left.
# Sizes: about a minute on a 2-CPU VM beside a compiler (802 and 890
# samples in the two block writes at 499 Hz).
. "$TESTLIB"
need_loops mkfs.btrfs
need_python3 "to read the study's JSON and page"
[ -x "$REPORT" ] || skip "no $REPORT"
grep -qw btrfs /proc/filesystems || modprobe btrfs 2>/dev/null ||
	skip "no btrfs in this kernel (/proc/filesystems, modprobe btrfs)"
TDIR=$(cd "$(dirname "$TESTLIB")" && pwd)
FSMATRIX=${FSMATRIX:-$TDIR/../clyde-fsmatrix}
scratch_dir
W=$SCRATCH
mkdir "$W/work"
OUT=$W/out

CLYDE=$CLYDE CLYDE_REPORT=$REPORT sh "$FSMATRIX" --work "$W/work" --out "$OUT" --flame --runs 1 \
	--size 1G btrfs btrfs:compress=zstd -- -s 256m -r 128m -n 0 -f --profile=stacks \
	--stack-hz=499 --data=compressible:50 >"$W/study.out" 2>"$W/study.err"
rc=$?
expect_eq "no mount under the work directory" "$(grep -F " $W/work/" /proc/self/mounts)" ""
expect_eq "no loop device on its images" "$(losetup -a | grep -F "$W/work/")" ""
if [ $rc != 0 ]; then
	fail "the study: exit status $rc (stderr below)"
	sed 's/^/    /' "$W/study.err"
	done_testing
fi
# the sampler may be refused here (perf_event_paranoid, no perf events in a VM)
why=$(python3 - "$OUT/json/01-btrfs.r1.json" <<'PY'
import json, sys
doc, _ = json.JSONDecoder().raw_decode(open(sys.argv[1]).read())
prof = doc["runs"][0]["phases"]["put_block"].get("profile") or {}
if not prof.get("stacks"):
    print("no profile.stacks in the block write")
PY
)
[ -z "$why" ] || skip "clyde sampled no stacks here: $why ($(head -n 1 "$OUT/raw/01-btrfs.r1.err"))"

for e in 01-btrfs 02-btrfs_compress_zstd; do
	expect_eq "--flame: $e's block write folded in its own directory" \
		"$(test -s "$OUT/flame/$e/r1/put_block.folded" && echo yes)" yes
done
line=$(sed -n '/^What moved/,/^$/p' "$OUT/report.txt" | grep '^  \[2\] Block write ')
expect_match "report.txt: what moved in the block write" "$line" '^  \[2\] Block write +[0-9.]+x'
expect_match "report.txt: compression moved most, and grew" "$line" \
	'; layers compression \+[0-9.]+[,;]|; functions (ZSTD_|zstd_)[^ ]* \+[0-9.]+[,;]'
python3 - "$OUT/report.html" >"$W/diff" <<'PY'
import re, sys
page = open(sys.argv[1]).read()
sec = page.split("<h3>Block write</h3>", 1)[1].split("<h3>", 1)[0]
title = "btrfs:compress=zstd: Block write, against the baseline btrfs</text>"
if title not in sec:
    print("no differential")
    sys.exit(0)
svg = sec.split(title, 1)[1].split("</div>", 1)[0]
grew = re.findall(r"<title>((?:ZSTD_|zstd_)[^:<]*): [0-9.]+% of the samples \(was [0-9.]+%, \+",
                  svg)
print("differential", grew[0] if grew else "-")
PY
expect_match "report.html: the block write's differential, a zstd frame grown" "$(cat "$W/diff")" \
	'^differential (ZSTD_|zstd_)'
done_testing
