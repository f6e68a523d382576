#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# clyde-fsmatrix --dry-run: the plan for each OS, exactly as the golden
# files in tests/fsmatrix_golden/ have it (paths and the pid made
# placeholders: @WORK@, @OUT@, @PID@), and its usage errors. Runs
# nothing, needs no root. FSMATRIX_GOLDEN_UPDATE=1 rewrites the goldens.
. "$TESTLIB"

TDIR=$(cd "$(dirname "$TESTLIB")" && pwd)
FSMATRIX=${FSMATRIX:-$TDIR/../src/clyde-fsmatrix}
GOLD=$TDIR/fsmatrix_golden
[ -r "$FSMATRIX" ] || skip "no $FSMATRIX"

scratch_dir
W=$SCRATCH
WORK=$W/work
OUT=$W/out

# fsm ARGS...: run it as the plans want it (fixed program names)
fsm() {
	CLYDE=clyde CLYDE_REPORT=clyde-report sh "$FSMATRIX" "$@"
}

# expect_plan NAME ARGS...: the dry run's plan is tests/fsmatrix_golden/NAME.plan
expect_plan() {
	name=$1
	shift
	fsm --dry-run --work "$WORK" --out "$OUT" "$@" >"$W/$name.raw" 2>"$W/$name.err"
	expect_eq "$name: exit status" "$?" 0
	expect_eq "$name: nothing on stderr" "$(cat "$W/$name.err")" ""
	sed -E -e "s|$WORK|@WORK@|g" -e "s|$OUT|@OUT@|g" -e 's/clydefm(\.?)[0-9]+/clydefm\1@PID@/g' \
		"$W/$name.raw" >"$W/$name.plan"
	if [ "${FSMATRIX_GOLDEN_UPDATE:-0}" = 1 ]; then
		cp "$W/$name.plan" "$GOLD/$name.plan"
	fi
	if cmp -s "$W/$name.plan" "$GOLD/$name.plan"; then
		ok
	else
		fail "$name: the plan differs from $GOLD/$name.plan:"
		diff -u "$GOLD/$name.plan" "$W/$name.plan" | sed 's/^/    /'
	fi
}

expect_plan linux --os linux --runs 2 --size 256M --mkfs nj='-O ^has_journal' --mkfs xfs='-m crc=1' \
	tmpfs:mode=1777 ext4:noatime,nobarrier nj=ext4 ext3:data=journal xfs btrfs:compress=zstd \
	zfs:compression=on,atime=off -- -s 16:8192:500 -n 1 -f64k
expect_plan linux-device --os linux --runs 2 --device /dev/sdz --force ext2 zfs tmpfs -- -s 1g -n 8
expect_plan freebsd --os freebsd --runs 2 --size 1G --mkfs suj=-j --mkfs zfs='-o ashift=12' \
	ufs suj=ufs ufs:noatime tmpfs zfs:atime=off -- -s 512m -n 8
expect_plan dragonfly --os dragonfly --runs 2 --size 8g zfs hammer2 hammer2:noatime ufs tmpfs -- -f
expect_plan netbsd --os netbsd --runs 2 --size 1G --baseline ffs:log ffs ffs:log ext2fs tmpfs zfs -- -s 256m
# --tree: every run gets it, and the report reads the runs' JSON (the CSV has no tree phases)
expect_plan linux-tree --os linux --runs 2 --size 1G --tree ports:0.1 ext4 tmpfs -- -s 0 -n 0 --engine=uring

# the dry run makes nothing
expect_eq "the dry runs made no work directory" "$(ls -d "$WORK" 2>/dev/null)" ""
expect_eq "the dry runs made no results directory" "$(ls -d "$OUT" 2>/dev/null)" ""

# and needs no root. nobody runs a copy in the scratch directory: the
# checkout may lie under a directory nobody cannot enter (mktemp -d's 0700)
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null 2>&1; then
	cp "$FSMATRIX" "$W/clyde-fsmatrix"
	chmod 755 "$W" "$W/clyde-fsmatrix"
	setpriv --reuid=65534 --regid=65534 --clear-groups env CLYDE=clyde CLYDE_REPORT=clyde-report \
		sh "$W/clyde-fsmatrix" -n --os netbsd --work "$WORK" --out "$OUT" --runs 2 --size 1G --baseline ffs:log \
		ffs ffs:log ext2fs tmpfs zfs -- -s 256m 2>&1 |
		sed -E -e "s|$WORK|@WORK@|g" -e "s|$OUT|@OUT@|g" -e 's/clydefm(\.?)[0-9]+/clydefm\1@PID@/g' >"$W/nobody.plan"
	expect_eq "a dry run as nobody" "$(cmp "$W/nobody.plan" "$GOLD/netbsd.plan" && echo same)" same
	# a real run needs root
	out=$(setpriv --reuid=65534 --regid=65534 --clear-groups sh "$W/clyde-fsmatrix" --work "$WORK" ext4 2>&1)
	expect_eq "not root: exit status" "$?" 1
	expect_eq "not root: message" "$out" \
		"clyde-fsmatrix: needs root: it makes, mounts and removes file systems and devices (--dry-run shows the commands without root)"
elif [ "$(id -u)" != 0 ]; then
	out=$(sh "$FSMATRIX" --work "$WORK" ext4 2>&1)
	expect_eq "not root: exit status" "$?" 1
	expect_eq "not root: message" "$out" \
		"clyde-fsmatrix: needs root: it makes, mounts and removes file systems and devices (--dry-run shows the commands without root)"
fi

# usage errors: exit 1, the message and the pointer to --help
TRY="Try 'clyde-fsmatrix --help' for more information."
usage_err() {
	want=$1
	shift
	out=$(fsm -n --work "$WORK" --out "$OUT" "$@" 2>&1)
	expect_eq "$want: exit status" "$?" 1
	expect_eq "$want: message" "$out" "clyde-fsmatrix: $want
$TRY"
}
usage_err "no entries: name at least one file system, e.g. ext4 xfs tmpfs"
usage_err "no entries: name at least one file system, e.g. ext4 xfs tmpfs" -- -s 16
usage_err "unknown option --bogus" --bogus ext4
usage_err "--runs needs an argument" ext4 --runs
usage_err "--runs takes a positive number, not '0'" --runs 0 ext4
usage_err "--size takes bytes or a number with k, m, g or t, not '4GB'" --size 4GB ext4
usage_err "--size 8M is too small (16M at least)" --size 8M ext4
usage_err "--os takes linux, freebsd, dragonfly or netbsd, not 'solaris'" --os solaris ext4
usage_err "--force takes no argument" --force=yes ext4
usage_err "two entries are named ext4: give one a label (LABEL=ext4)" ext4 ext4
usage_err "two entries are named ext4:a+b: give one a label (LABEL=ext4:a,b)" ext4:a+b ext4:a,b
usage_err "bad entry 'Ext4': the type must be lower-case letters and digits" Ext4
usage_err "bad entry 'ext4:a;b': odd characters in the mount options" 'ext4:a;b'
usage_err "an entry may not contain blanks: 'ext4:a b'" 'ext4:a b'
usage_err "bad entry 'x;y=ext4': a label may hold letters, digits and _ . + -" 'x;y=ext4'
usage_err "--mkfs takes KEY=ARGS, not 'ext4'" --mkfs ext4 ext4
usage_err "--mkfs xfs: no entry has that label or type (an entry with = in it needs a label)" \
	--mkfs xfs=-f ext4
usage_err "--mkfs ext3:data: no entry has that label or type (an entry with = in it needs a label)" \
	--mkfs ext3:data=journal=-j ext3:data=journal
usage_err "--baseline xfs is not one of the entries" --baseline xfs ext4 btrfs
usage_err "CLYDE-ARGS may not hold -m: clyde-fsmatrix sets -d, -m and --json for each run" ext4 -- -s 16 -m x
usage_err "CLYDE-ARGS may not hold --json=x.json: clyde-fsmatrix sets -d, -m and --json for each run" \
	ext4 -- --json=x.json
usage_err "--tree needs an argument" ext4 --tree
for t in Ports ports: :0.1 ports:0.1:2 ports:x 'ports:1;x'; do
	usage_err "--tree takes SHAPE[:SCALE] (e.g. ports or ports:0.1), not '$t'" --tree "$t" ext4
done
usage_err "CLYDE-ARGS may not hold --tree=source with --tree: give the tree once" --tree ports ext4 -- --tree=source
if [ "$(uname -s)" = Linux ]; then
	out=$(fsm --os freebsd ufs 2>&1)
	expect_eq "--os without --dry-run: exit status" "$?" 1
	expect_eq "--os without --dry-run: message" "$out" "clyde-fsmatrix: --os freebsd is for --dry-run: this is linux
$TRY"
fi

# --help is the usage, on stdout
expect_eq "--help first line" "$(fsm --help | head -n 1)" "usage: clyde-fsmatrix [options] ENTRY... [-- CLYDE-ARGS]"
expect_eq "--help exit status" "$(fsm --help >/dev/null; echo $?)" 0
done_testing
