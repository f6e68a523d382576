#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# clyde-fsmatrix --dry-run: the plan for each OS, exactly as the golden
# files in tests/data/fsmatrix_golden/ have it (paths and the pid made
# placeholders: @WORK@, @OUT@, @PID@), --age's and --fill's too; the BSD
# plans' commands as written here by hand from each BSD's manual pages,
# cited; --age's aged entry, its labels and each BSD's copy checked
# command by command; its usage errors.
# Runs nothing, needs no root. FSMATRIX_GOLDEN_UPDATE=1 rewrites the
# goldens (never the commands from the manuals).
. "$TESTLIB"

TDIR=$(cd "$(dirname "$TESTLIB")" && pwd)
FSMATRIX=${FSMATRIX:-$TDIR/../clyde-fsmatrix}
GOLD=$TDIR/data/fsmatrix_golden
[ -r "$FSMATRIX" ] || skip "no $FSMATRIX"

scratch_dir
W=$SCRATCH
WORK=$W/work
OUT=$W/out

# fsm ARGS...: run it as the plans want it (fixed program names)
fsm() {
	CLYDE=clyde CLYDE_REPORT=clyde-report sh "$FSMATRIX" "$@"
}

# expect_plan NAME ARGS...: the dry run's plan is tests/data/fsmatrix_golden/NAME.plan
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
# --age: two entries fresh and aged, --runs 2; an aged master made once per entry (image, mkfs,
# mount, clyde --age-only with the runs' -s and -n, unmount, detach) and every run on a copy of it;
# --fill: every run fills (clyde --age=F%:0). With --db the runs are labelled age= and fill=.
expect_plan linux-age --os linux --runs 2 --size 1G --db /h.db --age fresh,aged:80:2 --age-seed 44 \
	ext4 xfs -- -s 256m -n 2 -f
expect_plan freebsd-age --os freebsd --runs 2 --size 1G --age fresh,aged:70:1.5:small --fill 50 \
	ufs tmpfs -- -s256m
# --tree: every run gets it, and the report reads the runs' JSON (the CSV has no tree phases)
expect_plan linux-tree --os linux --runs 2 --size 1G --tree ports:0.1 ext4 tmpfs -- -s 0 -n 0 --engine=uring

# The BSD plans against each system's manual pages (read in its source
# tree), not against what the program wrote: every command that makes,
# attaches, mounts or removes, each shape once in the order of first use,
# written here by hand with the page and option that say it. S is the
# study's directory (@WORK@/clydefm.@PID@), NN an entry's number.
# plan_shapes NAME: those commands of the plan $W/NAME.plan
plan_shapes() {
	grep -vE '^(#|clyde |clyde-report |mkdir |rmdir |rm |ln )' "$W/$1.plan" |
		sed -E -e 's|@WORK@/clydefm\.@PID@|S|g' -e 's/(e|mnt|zdev)0[0-9]/\1NN/g' | awk '!seen[$0]++'
}
# expect_manual NAME <<EOF: plan_shapes NAME is the text less its # lines
expect_manual() {
	grep -v '^#' >"$W/$1.manual"
	plan_shapes "$1" >"$W/$1.shapes"
	if cmp -s "$W/$1.manual" "$W/$1.shapes"; then
		ok
	else
		fail "$1: the plan is not what the manual pages say:"
		diff -u "$W/$1.manual" "$W/$1.shapes" | sed 's/^/    /'
	fi
}

# FreeBSD: --size 1G --mkfs suj=-j --mkfs zfs='-o ashift=12' ufs suj=ufs ufs:noatime tmpfs zfs:atime=off
expect_manual freebsd <<'EOF'
# truncate(1) -s size: the sparse image
truncate -s 1G S/eNN.img
# mdconfig(8) -a: attach; -t vnode with -f file: "A file specified with -f
# file becomes the backing store"; -n: "print only the unit number
# without the md prefix" (the plan's @UNIT@)
mdconfig -a -t vnode -n -f S/eNN.img
# newfs(8) -U: "Enable soft updates on the new file system" (ufs's default)
newfs -U /dev/md@UNIT@
# mount(8) -t ufs
mount -t ufs /dev/md@UNIT@ S/mntNN
# umount(8)
umount S/mntNN
# mdconfig(8) -d -u unit: "Detach a memory disk from the system"
mdconfig -d -u @UNIT@
# newfs(8) -j: "Enable soft updates journaling on the new file system"
newfs -j /dev/md@UNIT@
# mount(8) -o noatime
mount -t ufs -o noatime /dev/md@UNIT@ S/mntNN
# tmpfs(5) size: "in bytes, unless suffixed with one of k, m, g, t, or p"
mount -t tmpfs -o size=1g clydefm S/mntNN
# zpool-create(8) -m mountpoint: "an absolute path, legacy, or none";
# -o property=value: pool properties (zpoolprops(7) ashift)
zpool create -m none -o ashift=12 clydefm@PID@ /dev/md@UNIT@
# zfs-create(8) -o property=value: zfsprops(7) mountpoint, atime
zfs create -o mountpoint=S/mntNN -o atime=off clydefm@PID@/fm
# zpool-export(8); zpool-import(8) -d dir: "searches for devices or files
# in dir" (a directory holding a link to the md device); zpool-destroy(8)
zpool export clydefm@PID@
zpool import -d S/zdevNN clydefm@PID@
zpool destroy clydefm@PID@
EOF

# DragonFly: --size 8g zfs hammer2 hammer2:noatime ufs tmpfs
expect_manual dragonfly <<'EOF'
truncate -s 8g S/eNN.img
# vnconfig(8) -c: "A vn device is autocloned if special_file is given as
# vn, the name of the resulting device is printed on stdout"
vnconfig -c vn S/eNN.img
# newfs_hammer2(8) -L label: named PFSs in place of the default ones
newfs_hammer2 -L CLYDE /dev/vn@UNIT@
# mount_hammer2(8) special[@label] node: "PFS label is mounted"
mount_hammer2 /dev/vn@UNIT@@CLYDE S/mntNN
umount S/mntNN
# vnconfig(8) -u: "Disable and unconfigure the device"
vnconfig -u vn@UNIT@
# mount_hammer2(8) -o options: "See the mount(8) man page" (noatime)
mount_hammer2 -o noatime /dev/vn@UNIT@@CLYDE S/mntNN
# newfs(8): "the disk must be labeled using disklabel(8)" but with -v:
# "the disk does not contain any partitions, and newfs should build a
# file system on the whole disk" (the bare vn device)
newfs -v /dev/vn@UNIT@
mount -t ufs /dev/vn@UNIT@ S/mntNN
# mount_tmpfs(8) -s size: "the total file system size"; "a trailing ...
# G to indicate gigabytes ... both lowercase and uppercase"
mount_tmpfs -s 8g clydefm S/mntNN
EOF

# NetBSD: --size 1G --baseline ffs:log ffs ffs:log ext2fs tmpfs zfs
expect_manual netbsd <<'EOF'
# dd(1) writes the image in full: vnd(4) BUGS: "The vnd driver does not
# work if the file is sparse"; newfs(8) -Z: vnd(4) "doesn't support file
# systems with holes"
dd if=/dev/zero of=S/eNN.img bs=1m count=1024
# vndconfig(8) vnode_disk regular_file: "If no action option is given,
# -c is assumed" (vnconfig(8) in older releases, whose BUGS says it
# "should really be named vndconfig")
vndconfig vnd@UNIT@ S/eNN.img
# newfs(8) -I: "Do not require that the file system type listed in the
# disk label is 4.2BSD"; -O 2: "FFSv2"; on the raw partition, d on amd64
# (vnconfig(8): "the raw partition which varies between architectures")
newfs -I -O 2 /dev/rvnd@UNIT@d
mount -t ffs /dev/vnd@UNIT@d S/mntNN
umount S/mntNN
# vndconfig(8) -u: "Unconfigures the device"
vndconfig -u vnd@UNIT@
# mount(8) log: "(FFS only with UFS2 superblock layout) Mount the file
# system with wapbl(4) meta-data journaling"
mount -t ffs -o log /dev/vnd@UNIT@d S/mntNN
# newfs_ext2fs(8) -I: "Do not require that the file system type listed
# in the disk label is Linux Ext2" (NOTES: it fails otherwise)
newfs_ext2fs -I /dev/rvnd@UNIT@d
mount -t ext2fs /dev/vnd@UNIT@d S/mntNN
# mount_tmpfs(8) -s size, G for gigabytes
mount_tmpfs -s 1G clydefm S/mntNN
# zpool-create(8) -m none; zfs-create(8) -o mountpoint=; zpool-export(8),
# zpool-import(8) -d dir, zpool-destroy(8), as on FreeBSD
zpool create -m none clydefm@PID@ /dev/vnd@UNIT@d
zfs create -o mountpoint=S/mntNN clydefm@PID@/fm
zpool export clydefm@PID@
zpool import -d S/zdevNN clydefm@PID@
zpool destroy clydefm@PID@
EOF

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

# --db: each clyde run is followed by its add to the history, labelled with its entry
fsm --dry-run --work "$WORK" --out "$OUT" --os linux --runs 2 --db "$W/h.db" tmpfs nj=ext4 -- -s 16 \
	>"$W/db.plan" 2>&1
expect_eq "--db: exit status" "$?" 0
expect_eq "--db: an add after each run" "$(grep -E '^(clyde|clyde-report) ' "$W/db.plan" | sed -E 's/ --json [^ ]*|-d [^ ]* //g' |
	awk '{ print $1, $NF, ($0 ~ /--add/ ? $6 : "") }')" "$(printf '%s\n' \
	"clyde 16 " "clyde-report $OUT/json/01-tmpfs.r1.json entry=tmpfs" \
	"clyde 16 " "clyde-report $OUT/json/01-tmpfs.r2.json entry=tmpfs" \
	"clyde 16 " "clyde-report $OUT/json/02-nj.r1.json entry=nj" \
	"clyde 16 " "clyde-report $OUT/json/02-nj.r2.json entry=nj" \
	"clyde-report $OUT/json/02-nj.r2.json ")"
# the report reads the JSON documents the adds read (every phase's rate: the CSV prints +++++ for
# a phase under 0.5 s), so that the report and the history have the same figures of the same runs
expect_eq "--db: the report reads what --add reads" \
	"$(grep '^clyde-report --baseline' "$W/db.plan" | tr ' ' '\n' | grep '\.json$')" \
	"$(grep '^clyde-report --db' "$W/db.plan" | awk '{ print $NF }')"

# --age's commands, each in its place: the aged entry of linux-age.plan, as clyde-fsmatrix(1)
# and the contract with clyde (--age=FULL%:CHURN --age-only -z SEED, -s and -n as the runs)
# say; each run's own copy, attached, mounted (no mkfs), run, unmounted, detached, removed
S='@WORK@/clydefm.@PID@'
expect_eq "--age: the aged entry's commands" "$(sed -n '/^# entry 2:/,/^# entry 3:/p' "$W/linux-age.plan" |
	grep -v '^clyde-report')" "# entry 2: ext4@aged:80:2 (type ext4, aged:80:2: aged once, every run on a copy)
mkdir $S/mnt02
truncate -s 1G $S/e02.master.img
losetup --direct-io=on -f --show $S/e02.master.img
mkfs.ext4 -q -F @DEV@
mount -t ext4 @DEV@ $S/mnt02
clyde -d $S/mnt02 --age=80%:2 --age-only -z 44 -s 256m -n 2 --json @OUT@/raw/02-ext4_aged_80_2.age.json
umount $S/mnt02
losetup -d @DEV@
cp --reflink=auto --sparse=always $S/e02.master.img $S/e02.img
losetup --direct-io=on -f --show $S/e02.img
mount -t ext4 @DEV@ $S/mnt02
clyde -d $S/mnt02 -m ext4@aged:80:2 --json @OUT@/json/02-ext4_aged_80_2.r1.json -s 256m -n 2 -f
umount $S/mnt02
losetup -d @DEV@
rm -f $S/e02.img
cp --reflink=auto --sparse=always $S/e02.master.img $S/e02.img
losetup --direct-io=on -f --show $S/e02.img
mount -t ext4 @DEV@ $S/mnt02
clyde -d $S/mnt02 -m ext4@aged:80:2 --json @OUT@/json/02-ext4_aged_80_2.r2.json -s 256m -n 2 -f
umount $S/mnt02
losetup -d @DEV@
rm -f $S/e02.img
rm -f $S/e02.master.img
rmdir $S/mnt02
# entry 3: xfs@fresh (type xfs, fresh)"
expect_eq "--age --db: the labels of each run" "$(grep '^clyde-report --db' "$W/linux-age.plan" |
	sed -e 's/ --label study=[^ ]*//' -e 's|@OUT@/json/||')" \
	"clyde-report --db /h.db --add --label entry=ext4@fresh --label age=fresh 01-ext4_fresh.r1.json
clyde-report --db /h.db --add --label entry=ext4@fresh --label age=fresh 01-ext4_fresh.r2.json
clyde-report --db /h.db --add --label entry=ext4@aged:80:2 --label age=aged:80:2 02-ext4_aged_80_2.r1.json
clyde-report --db /h.db --add --label entry=ext4@aged:80:2 --label age=aged:80:2 02-ext4_aged_80_2.r2.json
clyde-report --db /h.db --add --label entry=xfs@fresh --label age=fresh 03-xfs_fresh.r1.json
clyde-report --db /h.db --add --label entry=xfs@fresh --label age=fresh 03-xfs_fresh.r2.json
clyde-report --db /h.db --add --label entry=xfs@aged:80:2 --label age=aged:80:2 04-xfs_aged_80_2.r1.json
clyde-report --db /h.db --add --label entry=xfs@aged:80:2 --label age=aged:80:2 04-xfs_aged_80_2.r2.json"
expect_eq "--age: the study compares all four columns, ext4@fresh the baseline" \
	"$(grep '^clyde-report --baseline' "$W/linux-age.plan" | tr ' ' '\n' | grep -c '\.json$')|$(grep -c \
	'^clyde-report --baseline ext4@fresh ' "$W/linux-age.plan")" "8|1"
# the BSDs' copies: dd(1) conv=sparse on FreeBSD and DragonFly (their cp(1) has no --sparse),
# a whole dd copy on NetBSD (vnd(4) does not work on a sparse file)
expect_eq "--age on FreeBSD: the copy" "$(grep -c "^dd if=$S/e02.master.img of=$S/e02.img bs=1m conv=sparse\$" \
	"$W/freebsd-age.plan")" 2
expect_eq "--age on FreeBSD: aged tmpfs skipped" "$(grep -c '^# skipped: an aged column needs an image to copy: tmpfs has none$' \
	"$W/freebsd-age.plan")" 1
expect_eq "--fill: every run fills" "$(grep -c '^clyde .* -m ufs@fill50 .* --age=50%:0 -s256m$' "$W/freebsd-age.plan")" 2
for os in dragonfly netbsd; do
	fsm --dry-run --os $os --work "$WORK" --out "$OUT" --runs 1 --age aged:80:2 ufs ffs -- -s 64m \
		>"$W/$os-age.raw" 2>&1
	expect_eq "--age on $os: exit status" "$?" 0
	sed -E -e "s|$WORK|@WORK@|g" -e 's/clydefm(\.?)[0-9]+/clydefm\1@PID@/g' "$W/$os-age.raw" >"$W/$os-age.plan"
done
expect_eq "--age on DragonFly: the copy" "$(grep -c "^dd if=$S/e01.master.img of=$S/e01.img bs=1m conv=sparse\$" \
	"$W/dragonfly-age.plan")" 1
expect_eq "--age on NetBSD: a whole copy" "$(grep -c "^dd if=$S/e02.master.img of=$S/e02.img bs=1m\$" \
	"$W/netbsd-age.plan")" 1

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
usage_err "--age takes fresh or aged:FULL:CHURN[:PROFILE] (e.g. fresh,aged:80:2), not 'old'" --age old ext4
usage_err "--age aged:100:2: FULL is a whole percentage from 1 to 99" --age aged:100:2 ext4
usage_err "--age aged:80: CHURN is a number (0, 2, 0.5)" --age aged:80 ext4
usage_err "--age aged:80:x: CHURN is a number (0, 2, 0.5)" --age aged:80:x ext4
usage_err "--age aged:80:2:A: PROFILE is a name of lower-case letters and digits" --age aged:80:2:A ext4
usage_err "--age fresh is given twice" --age fresh,fresh ext4
usage_err "--age aged:80:2: an aged image is copied for every run: not with --device" \
	--device /dev/sdz --age aged:80:2 ext4
usage_err "--fill takes whole percentages from 1 to 99 (e.g. 10,50,90), not '5%'" --fill 5% ext4
usage_err "--fill takes whole percentages from 1 to 99, not '100'" --fill 100 ext4
usage_err "--fill 50 is given twice" --fill 50,50 ext4
usage_err "--age-seed takes a number (clyde -z), not 'x'" --age-seed x --age fresh ext4
usage_err "CLYDE-ARGS may not hold --age-only: it runs no phases (give clyde-fsmatrix --age aged:FULL:CHURN)" \
	ext4 -- --age-only
usage_err "CLYDE-ARGS may not hold --age=50% with --age or --fill: clyde-fsmatrix gives each run its own" --fill 10 ext4 -- --age=50%
usage_err "--baseline ext4@aged:1:1: ext4 has no column aged:1:1" --age fresh --baseline ext4@aged:1:1 ext4
usage_err "--tree needs an argument" ext4 --tree
for t in Ports ports: :0.1 ports:0.1:2 ports:x 'ports:1;x'; do
	usage_err "--tree takes SHAPE[:SCALE] (e.g. ports or ports:0.1), not '$t'" --tree "$t" ext4
done
usage_err "CLYDE-ARGS may not hold --tree=source with --tree: give the tree once" --tree ports ext4 -- --tree=source
# --flame: each run its own directory under OUT/flame, made before the run and given to clyde
FLAME_ERR="every run would write the same directory; give clyde-fsmatrix --flame (each run's stacks in OUT/flame/NN-ENTRY/rRUN/)"
usage_err "CLYDE-ARGS may not hold --flame: $FLAME_ERR" ext4 -- --flame /tmp/f
usage_err "CLYDE-ARGS may not hold --flame=/tmp/f: $FLAME_ERR" ext4 -- --flame=/tmp/f
usage_err "--flame takes no argument" --flame=x ext4
fsm --dry-run --os linux --work "$WORK" --out "$OUT" --runs 2 --flame btrfs zstd=btrfs:compress=zstd \
	-- -s 256m --profile=stacks >"$W/flame.plan" 2>&1
expect_eq "--flame: exit status" "$?" 0
expect_eq "--flame: a directory per run, made before it and given to it" \
	"$(grep -e '^mkdir -p .*/flame/' -e '^clyde ' "$W/flame.plan" | sed -e "s|$OUT|@OUT@|g" \
		-e "s|$WORK/clydefm\.[0-9]*|@W@|g")" \
	"mkdir -p @OUT@/flame/01-btrfs/r1
clyde -d @W@/mnt01 -m btrfs --json @OUT@/json/01-btrfs.r1.json --flame @OUT@/flame/01-btrfs/r1 -s 256m --profile=stacks
mkdir -p @OUT@/flame/01-btrfs/r2
clyde -d @W@/mnt01 -m btrfs --json @OUT@/json/01-btrfs.r2.json --flame @OUT@/flame/01-btrfs/r2 -s 256m --profile=stacks
mkdir -p @OUT@/flame/02-zstd/r1
clyde -d @W@/mnt02 -m zstd --json @OUT@/json/02-zstd.r1.json --flame @OUT@/flame/02-zstd/r1 -s 256m --profile=stacks
mkdir -p @OUT@/flame/02-zstd/r2
clyde -d @W@/mnt02 -m zstd --json @OUT@/json/02-zstd.r2.json --flame @OUT@/flame/02-zstd/r2 -s 256m --profile=stacks"
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
