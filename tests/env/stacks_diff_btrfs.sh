#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# A differential that points at the truth: the same btrfs, its block
# write with compress=zstd and without, two runs each with
# --profile=stacks; clyde-report's page, the uncompressed runs as the
# baseline, puts compression first among the layers whose share of the
# block write's sampled CPU moved (and grew), and a zstd function first
# among the functions that grew.
. "$TESTLIB"
need_loops mkfs.btrfs
need_python3 "to read the page"
[ -x "$REPORT" ] || skip "no $REPORT"
scratch_dir
W=$SCRATCH
mkdir "$W/mnt"

if ! loop_mkfs "$W/img" 2G mkfs.btrfs -q -f; then
	fail "a loop device with mkfs.btrfs -q -f on $W/img (above)"
	done_testing
fi
# run NAME MOUNT-OPTIONS: two runs' JSON in $W/NAME.json
run() {
	mount -o "$2" "$LOOP" "$W/mnt" 2>"$W/mount.err" ||
		skip "cannot mount btrfs -o $2 (no btrfs in this kernel?): $(cat "$W/mount.err")"
	"$CLYDE" -d "$W/mnt" -s 256 -n 0 -f -x 2 -m "$1" --data=compressible:50 \
		--stack-hz=499 --json "$W/$1.json" >"$W/$1.out" 2>"$W/$1.err"
	rc=$?
	umount "$W/mnt"
	expect_eq "clyde on btrfs -o $2, two runs with --profile=stacks" "$rc" 0
	[ $rc = 0 ] || sed 's/^/    /' "$W/$1.err"
}
run plain noatime
run zstd noatime,compress=zstd
"$REPORT" -b plain --html "$W/page.html" "$W/plain.json" "$W/zstd.json" >/dev/null 2>"$W/r.err"
expect_eq "clyde-report -b plain --html" "$?" 0
python3 - "$W/page.html" >"$W/movers" <<'PY'
import re, sys
page = open(sys.argv[1]).read()
# the block write's section: its tables follow its difference
sec = page.split("<h3>Block write</h3>", 1)[1].split("<h3>", 1)[0]
for what in ("layer", "function"):
    table = sec.split('<tr><th>%s' % what, 1)[1].split("</table>", 1)[0]
    rows = re.findall(r"<tr><td>(.*?)</td><td>([-0-9.]+)%</td><td>([-0-9.]+)%</td>"
                      r"<td>([-+0-9.]+) points</td></tr>", table)
    grew = [r for r in rows if float(r[3]) > 0]
    print(what, rows[0][0], rows[0][3], grew[0][0] if grew else "-")
PY
expect_match "compression's layer moved most, and grew" "$(grep '^layer' "$W/movers")" \
	'^layer compression \+[0-9.]+ compression$'
expect_match "the function that grew most is zstd's" "$(grep '^function' "$W/movers")" \
	'^function [^ ]+ [-+][0-9.]+ (ZSTD_|zstd_)'
done_testing
