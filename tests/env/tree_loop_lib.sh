# SPDX-License-Identifier: BSD-2-Clause
# Sourced by the --tree tests on loop filesystems (tests/env/tree_loop.sh for
# ext4, tests/env/tree_xfs.sh, tests/env/tree_btrfs.sh) after tests/lib.sh and
# need_loops: sets W (scratch), MNT, ENGINES (psync, and uring where it is
# built), the listings of the two shapes and their hashes; gives stats and
# tree_fs_runs, the checks on one filesystem. The loop devices: tests/lib.sh's
# loop_mkfs and loop_detach.
need_python3 "to read the JSON"

scratch_dir
W=$SCRATCH
MNT=$W/mnt
mkdir "$MNT"

# stats LISTING: "DIRS FILES BYTES"
stats() {
	awk '$1 == "d" { d++ } $1 == "f" { f++; b += $3 } END { printf "%d %d %d\n", d, f, b }' "$1"
}

# check_json JSON FSTYPE IO "$(stats LISTING)" HASH: the counts, the ring, the cache
check_json() {
	python3 - "$@" 2>&1 <<'PY'
import json, re, sys
jpath, fstype, io, st, H = sys.argv[1:]
D, F, B = (int(x) for x in st.split())
problems = []
def need(cond, what):
    if not cond:
        problems.append(what)
def eq(what, got, want):
    need(got == want, "%s: got %r, want %r" % (what, got, want))
r = json.load(open(jpath))["runs"][0]
eq("filesystem", r["filesystem"]["type"], fstype)
t = r["tree"]
# (tests/cli/tree.sh checks the run's tree.dirs against the listing)
for k, v in (("files", F), ("bytes", B), ("hash", H), ("io", io)):
    eq("tree." + k, t[k], v)
want = {
    "tree_extract": (F, D, 0, B, {"mkdir": D, "create": F, "close": F}),
    "tree_copy": (F, D, 0, B, {"mkdir": D, "create": F, "open": F, "close": 2 * F}),
    "tree_walk": (F, D, F + D, B, {"stat": F + D, "list": D + 1}),
    "tree_read": (F, 0, 0, B, {"open": F, "close": F}),
    "tree_delete": (2 * F, 2 * (D + 1), 0, 0, {"unlink": 2 * F, "rmdir": 2 * (D + 1)}),
}
# the kinds the uring backend sent through the ring (only reads, unless CLYDE_TEST_TREE_RING)
m = re.search(r"via ring:((?: [a-z]+)+)", r["tree"]["io_description"])
ring_kinds = set(m.group(1).split()) if m else set()
eq("kinds via the ring", sorted(ring_kinds), [] if io == "psync" else ["read"])
for n, (files, dirs, entries, nbytes, ops) in want.items():
    p = r["phases"][n]
    eq(n + ".ran", p["ran"], True)
    pt = p["tree"]
    for k, v in (("files", files), ("dirs", dirs), ("entries", entries), ("bytes", nbytes)):
        eq(n + ".tree." + k, pt[k], v)
    for op, c in ops.items():
        eq("%s %s count" % (n, op), pt["ops"][op]["latency_us"]["count"], c)
    # reads and writes: at least one a file
    for op in ("read", "write"):
        if op in pt["ops"]:
            need(pt["ops"][op]["latency_us"]["count"] >= F, "%s: %s count %r" % (n, op, pt["ops"][op]))
    for op, o in pt["ops"].items():
        if io == "psync" or op == "list" or op not in ring_kinds:
            eq("%s %s via_ring" % (n, op), o["via_ring"], 0)
        elif op == "read":
            # the evicted data is read in the ring; what readahead brought in, by calls
            need(0 < o["via_ring"] <= o["latency_us"]["count"], "%s read via_ring %r of %r" %
                 (n, o["via_ring"], o["latency_us"]["count"]))
        else:
            eq("%s %s via_ring" % (n, op), o["via_ring"], o["latency_us"]["count"])
    if n in ("tree_copy", "tree_read"):
        c = p.get("cache") or {}
        need(c.get("method") in ("cachestat", "mincore"), n + ": residency not measured: %r" % c)
        need(c.get("resident_pct") is not None and c["resident_pct"] <= 5,
             n + ": %r%% of the tree resident after the drop" % c.get("resident_pct"))
print("\n".join(problems))
PY
}

# uring where it is built: tests/cli/uring.sh requires the kernel to take it
ENGINES=psync
if ! "$CLYDE" --version | grep -q 'uring (not built'; then
	ENGINES="psync uring"
else
	echo "uring not built: psync only"
fi

for spec in ports:0.1 source:0.05; do
	"$CLYDE" --tree=$spec --tree-list >"$W/l.$spec" 2>"$W/e"
	expect_eq "--tree=$spec --tree-list" "$?" 0
	eval "HASH_$(echo $spec | tr :. __)=$(sed -n 's/.* hash \([0-9a-f]*\)$/\1/p' "$W/e")"
done

# tree_fs_runs FS MKFS...: on a fresh 512 MiB FS (made by MKFS), every
# shape and engine; a mkfs that fails is a failure, a kernel that cannot
# mount FS a skip
tree_fs_runs() {
	fs=$1
	shift
	if ! loop_mkfs "$W/img" 512M "$@"; then
		fail "$fs: no 512 MiB $fs on a loop device (above)"
		loop_detach
		return
	fi
	mount "$LOOP" "$MNT" 2>"$W/mount.err" ||
		skip "cannot mount $fs (no $fs in this kernel?): $(cat "$W/mount.err")"
	for spec in ports:0.1 source:0.05; do
		hash=$(eval echo "\$HASH_$(echo $spec | tr :. __)")
		for io in $ENGINES; do
			"$CLYDE" -d "$MNT" -s 0 -n 0 --tree=$spec --engine=$io --json "$W/j" >"$W/o" 2>"$W/e"
			rc=$?
			expect_eq "$fs $spec $io: exit status" "$rc" 0
			[ $rc = 0 ] || sed 's/^/    /' "$W/e"
			expect_empty_dir "$fs $spec $io: nothing left" "$MNT"
			[ $rc = 0 ] || continue
			expect_eq "$fs $spec $io: the JSON" "$(check_json "$W/j" $fs $io "$(stats "$W/l.$spec")" "$hash")" ""
			expect_eq "$fs $spec $io: no drop warning" "$(grep -c 'WARNING' "$W/e")" 0
			expect_eq "$fs $spec $io: the table's resident cells" \
				"$(awk '/^Tree phase/ { on = 1; next } on && NF == 10 { print $1, $10 } /^walk:/ { on = 0 }' "$W/o" |
					awk '$2 ~ /%$/ { v = $2 + 0; $2 = (v <= 5 ? "low" : $2) } { print }' | tr '\n' ' ')" \
				"Extract - Copy low Walk metadata Read low Delete - "
		done
	done
	loop_detach
}

# tree_nothing_left: no loop device on the images, no mount
tree_nothing_left() {
	expect_eq "no loop device left on the images" "$(losetup -a | grep -F "$W/")" ""
	expect_eq "no mount left" "$(grep -F " $MNT " /proc/self/mounts)" ""
}
