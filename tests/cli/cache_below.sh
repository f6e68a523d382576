#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Seeks no rotational device reaches, on a device that says it is
# rotational, are flagged as a cache below clyde (a hypervisor's, a
# controller's): a note on stderr and device.cache_below in the JSON,
# exactly when the run's own figures (its device's kind and its seek rate,
# read here from the JSON) say so, and never otherwise. On a virtual disk
# that the host caches (a "rotational" virtio disk at tens of thousands of
# seeks a second) the flag shows; on tmpfs or an SSD it must not. The same
# for the block read of an uncached file.
. "$TESTLIB"
need_python3 "to read the JSON"
scratch_dir
W=$SCRATCH
mkdir "$W/d"

"$CLYDE" -d "$W/d" -s 16M -n 0 -f --json "$W/r.json" >"$W/out" 2>"$W/err"
expect_eq "the run" "$?" 0
# what the run's own figures say: rotational and faster than 1000 seeks/s
want=$(python3 -c 'import json,sys
r = json.load(open(sys.argv[1]))["runs"][0]; s = r["phases"]["seeks"]; d = r["device"]
rate = s["amount"] / s["elapsed_s"]
beyond = d is not None and d["rotational"] is True and d["loop"] is None and rate > 1000
print("%s %.0f %s" % (beyond, rate, d["name"] if d else "-"))' "$W/r.json")
set -- $want
echo "device $3, seeks $2/s: beyond a rotational device: $1"
# cache_below's rate, and whether it is the seek rate (to the JSON's rounding)
got=$(python3 -c 'import json,sys
r = json.load(open(sys.argv[1]))["runs"][0]; s = r["phases"]["seeks"]
c = r["device"] and r["device"]["cache_below"]
print("%.0f %s" % (c["rate"], abs(c["rate"] - s["amount"] / s["elapsed_s"]) <= 1e-3 * c["rate"])
      if c else None)' "$W/r.json")
if [ "$1" = True ]; then
	expect_match "device.cache_below: the seek rate" "$got" "^[0-9]+ True$"
	note=$(grep '^clyde: note: seeks at ' "$W/err")
	expect_match "the note names the device and a cache below" "$note" \
		"^clyde: note: seeks at [0-9]+/s on $3 which says it is rotational: no rotational device seeks faster than about 1000/s. A cache below clyde answered them \\(likely a hypervisor's page cache on the host or a controller's\\)"
	n=$(printf '%s\n' "$note" | sed 's|^clyde: note: seeks at \([0-9]*\)/s.*|\1|')
	g=${got%% *}
	case "$n.$g" in
	*[!0-9.]* | .* | *.) fail "the note's rate ($n) and the JSON's ($g): not both numbers" ;;
	*) expect_eq "the note's rate is the JSON's" "$(( n - g <= 1 && g - n <= 1 ))" 1 ;;
	esac
else
	expect_eq "no device.cache_below" "$got" None
	expect_eq "no note" "$(grep -c '^clyde: note: seeks at .*which says it is rotational' "$W/err")" 0
fi

# The block read the same way: faster than any rotational disk streams (600 MiB/s), on a
# device that says it is rotational, of a file clyde found uncached before it (its
# residency at most 5%: a page-cache read is said apart), flagged in
# device.read_cache_below and a note; never otherwise.
want=$(python3 -c 'import json,sys
r = json.load(open(sys.argv[1]))["runs"][0]; g = r["phases"]["get_block"]; d = r["device"]
rate = g["amount"] / g["elapsed_s"]
cold = (g.get("cache") or {}).get("resident_pct")
beyond = (d is not None and d["rotational"] is True and d["loop"] is None and cold is not None
          and 0 <= cold <= 5 and rate > 600 * 1024)
print("%s %.0f %s" % (beyond, rate / 1024, cold))' "$W/r.json")
set -- $want
echo "block read $2 MiB/s, resident before it: $3%: beyond a rotational disk: $1"
got=$(python3 -c 'import json,sys
r = json.load(open(sys.argv[1]))["runs"][0]; g = r["phases"]["get_block"]
c = r["device"] and r["device"]["read_cache_below"]
print("%.0f %s" % (c["rate_kib_s"] / 1024, abs(c["rate_kib_s"] - g["amount"] / g["elapsed_s"]) <= 1e-3 * c["rate_kib_s"])
      if c else None)' "$W/r.json")
if [ "$1" = True ]; then
	expect_match "device.read_cache_below: the block read's rate" "$got" "^[0-9]+ True$"
	expect_match "the read note names the device and a cache below" \
		"$(grep '^clyde: note: block reads at ' "$W/err")" \
		"^clyde: note: block reads at ${got%% *} MiB/s of a file clyde found uncached on [a-z0-9]+ which says it is rotational: no rotational disk streams faster than about 600 MiB/s. A cache below clyde served them"
else
	expect_eq "no device.read_cache_below" "$got" None
	expect_eq "no read note" "$(grep -c '^clyde: note: block reads at ' "$W/err")" 0
fi
check "no comma on stderr" sh -c '! grep -q , "$1"' - "$W/err"
done_testing
