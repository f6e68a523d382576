#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# faultfs (tests/tools/faultfs.c), the tests' FUSE file system that fails on
# demand, proved with ordinary tools before any test trusts it with clyde:
#  1. passthrough: dd, cmp, ls, stat, mv, ln, chmod, touch, truncate, df,
#     rm; an open file unlinked still reads; fchmod, futimens and fsync on
#     a directory; the stats count the writes.
#  2. each fault: EIO on a read overlapping a range (once), on the 4th
#     write; short reads and writes (half, at least 1 byte); fsync EIO then
#     ENOSPC (the first due rule fires); create, unlink, rename, stat,
#     mkdir, rmdir, open, readdir and close fail once; delays; a rule
#     armed, replaced and disarmed through the control file mid-mount;
#     count=0 for ever (dd iflag=direct), count=2; the stats agree.
#  3. bad rules are refused before mounting; SIGTERM and umount end it
#     cleanly (exit 0, unmounted, stats written).
. "$TESTLIB"
FAULTFS_BACKING=64m
. "$(dirname "$TESTLIB")/env/faultfs_lib.sh"

# py CODE: python3 with the helpers below, M the mount point and B the backing
cat >"$W/prelude.py" <<'PY'
import errno, os, time
M, B = os.environ["M"], os.environ["B"]
def p(name):
    return os.path.join(M, name)
def e(f, *a):
    """ok, or the name of the errno f(*a) raised"""
    try:
        f(*a)
    except OSError as x:
        return errno.errorcode.get(x.errno, str(x.errno))
    return "ok"
def n(f, *a):
    """the length or number f(*a) returned, or its errno's name"""
    try:
        r = f(*a)
    except OSError as x:
        return errno.errorcode.get(x.errno, str(x.errno))
    return len(r) if isinstance(r, (bytes, list)) else r
def show(*v):
    print(" ".join(str(x) for x in v))
PY
py() {
	{ cat "$W/prelude.py"; printf '%s\n' "$1"; } | M=$M B=$B $tmo python3 - 2>&1
}

dd if=/dev/urandom of="$W/ref" bs=64k count=16 2>/dev/null

# 1. passthrough
mount_ffs
$tmo dd if="$W/ref" of="$M/data" bs=64k 2>"$W/dd.err"
expect_eq "dd onto faultfs" "$?" 0
check "read back through faultfs" cmp -s "$W/ref" "$M/data"
check "written through to the backing directory" cmp -s "$W/ref" "$B/data"
expect_eq "ls" "$($tmo ls "$M")" "data"
expect_eq "stat size" "$($tmo stat -c %s "$M/data")" 1048576
mkdir "$M/d" && $tmo mv "$M/data" "$M/d/moved"
check "mkdir and mv" test -f "$B/d/moved" -a ! -e "$B/data"
ln -s moved "$M/d/sym" && ln "$M/d/moved" "$M/d/hard"
expect_eq "symlink" "$(readlink "$M/d/sym")" moved
expect_eq "hard link" "$(stat -c %h "$M/d/moved")" 2
chmod 640 "$M/d/moved" && truncate -s 4096 "$M/d/moved" && touch -d @1000000000 "$M/d/moved"
expect_eq "chmod, truncate, touch" "$(stat -c '%a %Y %s' "$B/d/moved")" "640 1000000000 4096"
expect_match "df (statfs)" "$($tmo df -P "$M" | tail -n 1)" "^faultfs +[0-9]+ "
$tmo rm -r "$M/d"
check "rm -r" test ! -e "$B/d"
# unlinked while open, it still reads and writes (no .fuse_hidden file)
got=$(py '
fd = os.open(p("gone"), os.O_RDWR | os.O_CREAT, 0o644)
os.write(fd, b"z" * 100)
os.unlink(p("gone"))
show(n(os.pwrite, fd, b"y" * 10, 100), n(os.pread, fd, 200, 0), os.listdir(M), os.listdir(B))')
expect_eq "an unlinked open file" "$got" "10 110 [] []"
# attributes set through a directory's descriptor (which faultfs keeps no handle of)
got=$(py '
os.mkdir(p("dir"))
fd = os.open(p("dir"), os.O_RDONLY | os.O_DIRECTORY)
show(e(os.fchmod, fd, 0o700), e(os.utime, fd, (5, 5)), oct(os.fstat(fd).st_mode & 0o777),
     os.stat(os.path.join(B, "dir")).st_mtime, e(os.fsync, fd), e(os.rmdir, p("dir")))')
expect_eq "a directory's descriptor" "$got" "ok ok 0o700 5.0 ok ok"
unmount
expect_eq "faultfs exits 0 on umount" "$RC" 0
check "umount unmounted" test -z "$(grep " $M " /proc/mounts)"
expect_eq "stats: every op kind" "$(grep -c '^ops ' "$W/stats")" 24
expect_eq "stats: the writes (dd's 16, the unlinked file's 2)" "$(st 'ops write')" 18
expect_eq "stats: no fault" "$(grep -c '^faults ' "$W/stats")" 0
check "stats: no temporary file left" test ! -e "$W/stats.tmp"

# 2a. EIO on a read overlapping [512K, 516K), once
cp "$W/ref" "$B/r"
mount_ffs --rule "op=read,err=EIO,path=r,off=512K-516K"
got=$(py '
fd = os.open(p("r"), os.O_RDONLY)
show(n(os.pread, fd, 4096, 0), n(os.pread, fd, 4096, 516 << 10), n(os.pread, fd, 4096, 510 << 10),
     n(os.pread, fd, 4096, 510 << 10), n(os.pread, fd, 4096, 512 << 10))')
expect_eq "read EIO at an offset, once" "$got" "4096 4096 EIO 4096 4096"
expect_eq "stats during the mount: the fault" "$(st 'faults read EIO')" 1
unmount
expect_eq "stats: the reads" "$(st 'ops read')" 5

# 2b. EIO on the 4th write (after=3)
mount_ffs --rule "op=write,err=EIO,path=w,after=3"
got=$(py '
fd = os.open(p("w"), os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
show(*[n(os.write, fd, b"x" * 4096) for i in range(6)])')
expect_eq "write EIO after 3" "$got" "4096 4096 4096 EIO 4096 4096"
expect_eq "the failed write wrote nothing" "$(stat -c %s "$B/w")" 20480
unmount
expect_eq "stats: write EIO" "$(st 'faults write EIO')" 1

# 2c. short reads and writes, twice each: half, then at least 1 byte
head -c 8192 "$W/ref" >"$B/s"
mount_ffs --rule "op=read,err=short,path=s,count=2" --rule "op=write,err=short,path=s,count=2"
got=$(py '
fd = os.open(p("s"), os.O_RDWR)
show(n(os.pread, fd, 8192, 0), n(os.pread, fd, 1, 0), n(os.pread, fd, 8192, 0),
     n(os.pwrite, fd, b"y" * 8192, 0), n(os.pwrite, fd, b"y", 0),
     n(os.pwrite, fd, b"y" * 8192, 0))')
expect_eq "short reads and writes" "$got" "4096 1 8192 4096 1 8192"
unmount
expect_eq "stats: short reads" "$(st 'faults read short')" 2
expect_eq "stats: short writes" "$(st 'faults write short')" 2

# 2d. fsync: EIO, then the second rule, ENOSPC (fdatasync), then through
mount_ffs --rule "op=fsync,err=EIO,path=f" --rule "op=fsync,err=ENOSPC,path=f"
got=$(py '
fd = os.open(p("f"), os.O_WRONLY | os.O_CREAT, 0o644)
os.write(fd, b"f" * 4096)
show(e(os.fsync, fd), e(os.fdatasync, fd), e(os.fsync, fd))')
expect_eq "fsync EIO, fdatasync ENOSPC, fsync" "$got" "EIO ENOSPC ok"
unmount
expect_eq "stats: fsync EIO and ENOSPC" "$(st 'faults fsync EIO') $(st 'faults fsync ENOSPC')" "1 1"

# 2e. the namespace, open, listing and close, each once
for f in u n1 st o cl mvsrc; do : >"$B/$f"; done
mkdir "$B/rd" "$B/ld"
set --
for r in create:c unlink:u rename:n1 stat:st mkdir:md rmdir:rd open:o readdir:ld flush:cl \
	rename:mvsrc; do
	set -- "$@" --rule "op=${r%%:*},err=EIO,path=${r#*:}"
done
mount_ffs "$@"
got=$(py '
c = os.O_WRONLY | os.O_CREAT
show(e(os.open, p("c"), c), os.path.exists(os.path.join(B, "c")), e(os.open, p("c"), c),
     e(os.unlink, p("u")), e(os.unlink, p("u")),
     e(os.rename, p("n1"), p("n2")), e(os.rename, p("n1"), p("n2")),
     e(os.stat, p("st")), e(os.stat, p("st")),
     e(os.mkdir, p("md")), e(os.mkdir, p("md")),
     e(os.rmdir, p("rd")), e(os.rmdir, p("rd")),
     e(os.open, p("o"), os.O_RDONLY), e(os.open, p("o"), os.O_RDONLY),
     e(os.listdir, p("ld")), e(os.listdir, p("ld")),
     e(os.close, os.open(p("cl"), os.O_RDONLY)), e(os.close, os.open(p("cl"), os.O_RDONLY)))')
expect_eq "namespace EIO once each" "$got" \
	"EIO False ok EIO ok EIO ok EIO ok EIO ok EIO ok EIO ok EIO ok EIO ok"
err=$($tmo mv "$M/mvsrc" "$M/mvdst" 2>&1)
expect_eq "mv fails" "$?" 1
expect_match "mv names the EIO" "$err" "Input/output error"
check "mv: the file stayed" test -e "$B/mvsrc" -a ! -e "$B/mvdst"
unmount
for op in create unlink stat mkdir rmdir open readdir flush; do
	expect_eq "stats: $op EIO" "$(st "faults $op EIO")" 1
done
expect_eq "stats: rename EIO" "$(st 'faults rename EIO')" 2

# 2f. delays: a write 300 ms late then done, an fsync 200 ms late then EIO
mount_ffs --rule "op=write,err=delay,delay_us=300000,path=dl" \
	--rule "op=fsync,err=EIO,delay_us=200000,path=dl"
got=$(py '
fd = os.open(p("dl"), os.O_WRONLY | os.O_CREAT, 0o644)
def late(s, f, *a):
    t = time.monotonic()
    r = n(f, *a)
    return "%s:%s" % (r, "late" if time.monotonic() - t >= s else "%.3fs" % (time.monotonic() - t))
show(late(0.3, os.write, fd, b"d" * 4096), n(os.write, fd, b"d" * 4096), late(0.2, os.fsync, fd))')
expect_eq "delays" "$got" "4096:late 4096 EIO:late"
expect_eq "the delayed write was done" "$(stat -c %s "$B/dl")" 8192
unmount
expect_eq "stats: delay total" "$(st delay_us_total)" 500000
expect_eq "stats: delay, fsync EIO" "$(st 'faults write delay') $(st 'faults fsync EIO')" "1 1"
expect_eq "stats: ops" "$(st 'ops create') $(st 'ops write') $(st 'ops fsync')" "1 2 1"

# 2g. the control file: armed mid-mount (count=0: for ever), replaced, removed
mount_ffs
reads='
fd = os.open(p("r"), os.O_RDONLY)
show(*[n(os.pread, fd, 4096, 0) for i in range(3)])'
expect_eq "no rule yet" "$(py "$reads")" "4096 4096 4096"
printf '# armed mid-mount\nop=read,err=EIO,path=r,count=0  # for ever\n\nop=read,bogus=1\n' \
	>"$W/ctl.new"
mv "$W/ctl.new" "$W/ctl"
expect_eq "armed for ever" "$(py "$reads")" "EIO EIO EIO"
expect_eq "stats: the bad line counted" "$(st control_errors)" 1
expect_match "the bad line said" "$(cat "$W/ffs.err")" "ctl:4: op=read,bogus=1: unknown key"
echo "op=read,err=ENOSPC,path=r" >"$W/ctl.new"
mv "$W/ctl.new" "$W/ctl"
expect_eq "replaced: the old rule is gone" "$(py "$reads")" "ENOSPC 4096 4096"
echo "op=read,err=EROFS,path=r,count=0" >"$W/ctl.new"
mv "$W/ctl.new" "$W/ctl"
expect_eq "armed again" "$(py "$reads")" "EROFS EROFS EROFS"
rm "$W/ctl"
expect_eq "removed: disarmed" "$(py "$reads")" "4096 4096 4096"
unmount
expect_eq "stats: control loads and errors" "$(st control_loads) $(st control_errors)" "3 1"
expect_eq "stats: read faults" \
	"$(st 'faults read EIO') $(st 'faults read ENOSPC') $(st 'faults read EROFS')" "3 1 3"

# 2h. count=0 on a range, seen by dd with O_DIRECT: [64K, 128K) fails every time
mount_ffs --rule "op=read,err=EIO,path=r,off=64K-128K,count=0"
for i in 1 2; do
	err=$($tmo dd if="$M/r" of=/dev/null bs=64k iflag=direct 2>&1)
	expect_eq "dd over the bad range fails ($i)" "$?" 1
	expect_match "dd says EIO ($i)" "$err" "Input/output error"
done
$tmo dd if="$M/r" of=/dev/null bs=64k count=1 iflag=direct 2>/dev/null
expect_eq "dd before the bad range" "$?" 0
$tmo dd if="$M/r" of="$W/tail" bs=64k skip=2 iflag=direct 2>/dev/null
expect_eq "dd after the bad range" "$?" 0
expect_eq "...all of it" "$(stat -c %s "$W/tail")" $((14 * 65536))
unmount
expect_eq "stats: count=0 fired every time" "$(st 'faults read EIO')" 2

# 3. bad rules refused, nothing mounted; SIGTERM ends it cleanly
for r in "op=read,err=EBOGUS:unknown err" "op=stat,err=short:err=short is for read and write" \
	"err=EIO:no op=" "op=write,off=9-3:END must be past START" \
	"op=fsync,err=delay:needs delay_us="; do
	err=$("$FAULTFS" --backing "$B" --rule "${r%%:*}" "$M" 2>&1)
	expect_eq "bad rule ${r%%:*}: exit 2" "$?" 2
	expect_match "bad rule ${r%%:*}: said" "$err" "${r#*:}"
done
check "bad rules: nothing mounted" test -z "$(grep " $M " /proc/mounts)"
mount_ffs --rule "op=read,err=EIO,path=r"
py 'os.open(p("r"), os.O_RDONLY)' >/dev/null
kill -TERM "$PID"
wait "$PID"
expect_eq "SIGTERM: exit 0" "$?" 0
PID=""
check "SIGTERM: unmounted" test -z "$(grep " $M " /proc/mounts)"
expect_eq "SIGTERM: stats written" "$(st 'ops open')" 1

done_testing
