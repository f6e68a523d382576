#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# The aio engine (POSIX AIO, issue 46): built wherever aio.h is, the
# portable build included; every I/O phase at depth 32 with --verify; its
# context line; --cache=uncached refused; never --engine=auto's choice
# where it is blocking threads underneath (glibc's), uring refused or
# not; -D as psync has it, where O_DIRECT is taken (tmpfs, since Linux
# 6.6) and where it is refused (ramfs).
. "$TESTLIB"
need_root

need_tmpfs 256m
MNT=$SCRATCH
VERSION=$("$CLYDE" --version | sed -n 's/^clyde //p')
DROP="cache drop (fsync + fadvise DONTNEED after each I/O phase)"
FAILED="DROP FAILED: up to 100.0% of the file resident before reads: read figures are page-cache figures"
engines=$("$CLYDE" --version | sed -n 's/^engines: //p')

# 0. where the C library has aio.h, aio is built, in every build (the
# portable one, --with-liburing=no --with-libnuma=no --with-hwloc=no, too)
cc=${CC:-cc}
if command -v "$cc" >/dev/null 2>&1 && printf '#include <aio.h>\n' | "$cc" -E - >/dev/null 2>&1; then
	expect_match "aio.h is here: aio is built" "$engines" '(^| )aio( |$)'
fi
case " $engines " in
*" aio "*) ;;
*)
	err=$("$CLYDE" --engine=aio --iodepth=8 -d "$MNT" -s 1 -n 0 2>&1 >/dev/null); rc=$?
	expect_eq "aio not built exits 4" "$rc" 4
	expect_match "the reason is given" "$err" "--engine=aio: not built: configure found no POSIX AIO"
	done_testing
	;;
esac

# the engine's description where the C library is glibc: threads underneath, a dup per slot
if getconf GNU_LIBC_VERSION >/dev/null 2>&1; then
	AIO_DESC="POSIX AIO by aio_suspend; blocking I/O in glibc's threads underneath; a dup(2) per slot; 1024 threads at most"
else
	AIO_DESC=""
fi
# context_is LABEL FILE ENGINE OUTCOME SEED: clyde's first context line (on stderr)
context_is() {
	got=$(grep "^clyde $VERSION: " "$2")
	want="clyde $VERSION: engine $3; $DROP: $4; per-char syscall; seed $5"
	if [ -z "$AIO_DESC" ]; then
		expect_match "$1" "$got" "^clyde $VERSION: engine aio .*\\(QD [0-9]+; POSIX AIO by "
	else
		expect_eq "$1" "$got" "$want"
	fi
}

# 1. every I/O phase through aio at depth 32, every byte read back; the
# seeks with and without updates
"$CLYDE" --engine=aio --iodepth=32 --verify -d "$MNT" -s 16::8192 -n 0 -f64k --exact -z 1 \
	>"$MNT.out" 2>"$MNT.err"
rc=$?
expect_eq "aio run with --verify: exit status" "$rc" 0
[ $rc = 0 ] || sed 's/^/    /' "$MNT.err"
expect_eq "no mismatch reported" "$(grep -c 'verify' "$MNT.err")" 0
line=$(tail -n 1 "$MNT.out")
context_is "context names aio, its depth and what it is underneath" "$MNT.err" "aio (QD 32; $AIO_DESC)" "$FAILED" 1
for f in 9 11 13 15 17 19; do
	expect_match "aio CSV field $f is a rate" "$(csv_field "$line" $f)" '^[0-9]+(\.[0-9])?$'
done
for pct in 0 100; do
	line=$("$CLYDE" --engine=aio --iodepth=32 --verify --seek-updates=$pct -d "$MNT" -s 4::8192 -n 0 -f \
		--exact 2>"$MNT.err" | tail -n 1)
	expect_match "--seek-updates=$pct with --verify: seeks" "$(csv_field "$line" 19)" '^[0-9]+(\.[0-9])?$'
	expect_eq "--seek-updates=$pct: no mismatch" "$(grep -c 'verify' "$MNT.err")" 0
done
expect_empty_dir "after aio runs" "$MNT"

# 2. no per-request flags in an aiocb: --cache=uncached is refused, a usage error
err=$("$CLYDE" --engine=aio --iodepth=4 --cache=uncached -d "$MNT" -s 4 -n 0 2>&1 >/dev/null); rc=$?
expect_eq "--cache=uncached with aio exits 1" "$rc" 1
expect_match "and says why" "$err" \
	"^clyde: --cache=uncached: the aio engine cannot pass RWF_DONTCACHE with each request"

# 3. --engine=auto never takes glibc's aio: not first, nor when uring is refused
# (where aio comes next in the table); aio by its name still runs
if [ -n "$AIO_DESC" ]; then
	"$CLYDE" --engine=auto --iodepth=8 -d "$MNT" -s 2::8192 -n 0 -f64k -z 3 >/dev/null 2>"$MNT.err"
	expect_eq "auto at 8: exit 0" "$?" 0
	expect_match "auto at 8 is not aio" "$(grep "^clyde $VERSION: " "$MNT.err")" \
		"^clyde $VERSION: engine (uring|psync) "
	if [ -x "${NO_URING:-}" ]; then
		"$NO_URING" EPERM "$CLYDE" --engine=auto --iodepth=8 -d "$MNT" -s 2::8192 -n 0 -f64k -z 3 \
			>/dev/null 2>"$MNT.err"; rc=$?
		if [ $rc = 77 ]; then
			echo "seccomp unavailable: auto with uring refused not checked"
		else
			expect_eq "auto at 8, uring refused: exit 0" "$rc" 0
			# (refused by the filter, or not built: the portable build)
			expect_match "auto at 8, uring refused: psync, not aio" \
				"$(grep "^clyde $VERSION: " "$MNT.err")" \
				"^clyde $VERSION: engine psync \\(pread/pwrite; --engine=auto fell back: uring (io_uring is refused|not built)"
			expect_file_has "auto at 8, uring refused: the note names uring" "$MNT.err" \
				"clyde: note: --engine=auto: uring cannot be used ("
		fi
	fi
fi

# 4. -D: what psync does, aio does; on tmpfs (O_DIRECT since Linux 6.6, or refused before)...
"$CLYDE" --engine=psync -D -d "$MNT" -s 4::8192 -n 0 -z 4 >/dev/null 2>"$MNT.psync"
prc=$?
"$CLYDE" --engine=aio --iodepth=16 -D --verify -d "$MNT" -s 4::8192 -n 0 -z 4 >"$MNT.out" 2>"$MNT.err"
expect_eq "-D on tmpfs: aio exits as psync" "$?" "$prc"
if [ $prc = 0 ]; then
	expect_match "-D on tmpfs: aio with O_DIRECT" "$(grep "^clyde $VERSION: " "$MNT.err")" \
		"^clyde $VERSION: engine aio with O_DIRECT \\(QD 16; "
	# (a rate, or +++++ where the phase was too short to time: it ran)
	expect_match "-D on tmpfs: the block read ran" "$(csv_field "$(tail -n 1 "$MNT.out")" 17)" '^([0-9]+|[+]{5})$'
	expect_eq "-D on tmpfs: no mismatch" "$(grep -c 'verify' "$MNT.err")" 0
else
	expect_eq "-D on tmpfs: aio's message is psync's" "$(tail -n 1 "$MNT.err")" "$(tail -n 1 "$MNT.psync")"
fi
expect_empty_dir "-D on tmpfs left clean" "$MNT"
# ...and ramfs, which refuses it
scratch_dir
RAM=$SCRATCH
if mount -t ramfs ramfs "$RAM" 2>/dev/null; then
	T_MOUNTS="$RAM $T_MOUNTS"
	perr=$("$CLYDE" --engine=psync -D -d "$RAM" -s 4 -n 0 2>&1 >/dev/null); prc=$?
	err=$("$CLYDE" --engine=aio --iodepth=8 -D -d "$RAM" -s 4 -n 0 2>&1 >/dev/null); rc=$?
	expect_eq "O_DIRECT refused (ramfs): aio exits 2" "$rc" 2
	expect_eq "O_DIRECT refused (ramfs): as psync does" "$rc" "$prc"
	expect_match "O_DIRECT refusal is named" "$err" "-D: the filesystem refuses O_DIRECT \(Invalid argument\)"
	expect_eq "O_DIRECT refusal: psync's words" "$(printf '%s\n' "$err" | tail -n 1)" \
		"$(printf '%s\n' "$perr" | tail -n 1)"
	expect_empty_dir "ramfs left clean" "$RAM"
fi
expect_empty_dir "nothing left" "$MNT"
rm -f "$MNT.out" "$MNT.err" "$MNT.psync"
done_testing
