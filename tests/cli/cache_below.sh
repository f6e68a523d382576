#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Seeks no rotational device reaches, on a device that says it is
# rotational, are flagged as a cache below clyde (a hypervisor's, a
# controller's): a note on stderr and device.cache_below in the JSON,
# exactly when the run's own figures (its device's kind and its seek rate,
# read here from the JSON) say so, and never otherwise. On a virtual disk
# that the host caches (a "rotational" virtio disk at tens of thousands of
# seeks a second) the flag shows; on tmpfs or an SSD it must not.
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
	expect_eq "no note" "$(grep -c 'which says it is rotational' "$W/err")" 0
fi
check "no comma on stderr" sh -c '! grep -q , "$1"' - "$W/err"
done_testing
