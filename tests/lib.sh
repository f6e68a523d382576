# SPDX-License-Identifier: BSD-2-Clause
# Shared helpers for the whole-program tests. Each test script sources
# this, says what it needs with the need_* helpers (each a skip that names
# what is missing), makes its own scratch filesystems (scratch_tmpfs,
# loop_mkfs), and exits 0 (pass), 1 (fail) or 77 (skip); everything it
# mounted is unmounted, every loop device detached.

set -u
CLYDE=${CLYDE:-$(pwd)/clyde}
# shellcheck disable=SC2034 # clyde-report, for the tests that run it
REPORT=${CLYDE_REPORT:-$(dirname "$CLYDE")/clyde-report}
T_FAILS=0
T_CHECKS=0
T_MOUNTS=""
T_DIRS=""
T_LOOPS=""

# at exit: the loop devices (their filesystems may be mounted under a
# scratch tmpfs or directory), then the scratch mounts, then the directories
t_cleanup() {
	loop_detach
	for m in $T_MOUNTS; do
		umount "$m" 2>/dev/null || umount -l "$m" 2>/dev/null
	done
	for d in $T_DIRS; do
		# the directory, and the $d.out-style files the tests keep beside it
		rm -rf "$d" "$d".*
	done
}
trap t_cleanup EXIT
# a test interrupted (make check stopped with ^C) cleans up too: sh runs the
# EXIT trap on exit, not on death by a signal
trap 'exit 1' HUP INT TERM

# t_once_test: this script is one of the default build's once-per-run
# tests (ONCE_TESTS in Makefile.am, which passes the list as
# CLYDE_ONCE_TESTS): loop devices, FUSE, MPI, xfs, btrfs, as root
t_once_test() {
	case " ${CLYDE_ONCE_TESTS:-} " in
	*"/$(basename "$0") "*) return 0 ;;
	esac
	return 1
}

# skip REASON: the test cannot run here: exit 77, a counted SKIP. Never
# after a failed check (that would hide the failure: exit 1), and never,
# with CI=true, in a once-per-run test: CI's machine is made to run them
# all (.ci/deps --test), so a skip there is a failure to be fixed. A skip
# CI must allow names its reason with skip_allowed_in_ci.
skip() {
	if [ "$T_FAILS" != 0 ]; then
		echo "FAIL: $T_FAILS failed check(s) above; then it cannot go on: $*"
		exit 1
	fi
	if [ "${CI:-}" = true ] && t_once_test; then
		echo "FAIL: CI=true: a once-per-run test (ONCE_TESTS) must run, not skip: $*"
		exit 1
	fi
	echo "SKIP: $*"
	exit 77
}

# skip_allowed_in_ci REASON WHY-CI-MAY-LACK-IT: a skip that CI accepts
# too, its reason said; still a failure after a failed check
skip_allowed_in_ci() {
	if [ "$T_FAILS" != 0 ]; then
		echo "FAIL: $T_FAILS failed check(s) above; then it cannot go on: $1"
		exit 1
	fi
	echo "SKIP: $1 (allowed in CI: $2)"
	exit 77
}

# The need_* helpers: what a test needs, or a skip that names it. Call
# them first, before any check (a skip after a failed check fails).
need_root() {
	[ "$(id -u)" = 0 ] || skip "needs root"
}

# need_linux [WHY]: Linux, or skip ("Linux only: WHY")
need_linux() {
	[ "$(uname -s)" = Linux ] || skip "Linux only${1:+: $1}"
}

# need_cmd CMD [WHERE-FROM]: CMD on the PATH, or skip ("CMD not found
# (WHERE-FROM)")
need_cmd() {
	command -v "$1" >/dev/null 2>&1 || skip "$1 not found${2:+ ($2)}"
}

# need_python3 [WHAT-FOR]: python3 on the PATH, or skip ("python3 is
# needed WHAT-FOR")
need_python3() {
	command -v python3 >/dev/null 2>&1 || skip "python3 is needed${1:+ $1}"
}

# need_built PROGRAM [WHY]: an executable PROGRAM (a program of this build,
# a test tool), or skip ("PROGRAM not built (WHY)")
need_built() {
	[ -x "$1" ] || skip "$1 not built${2:+ ($2)}"
}

# need_mpi: mpirun, and clyde built with MPI, or skip
need_mpi() {
	need_cmd mpirun "Open MPI's openmpi-bin"
	"$CLYDE" --version | grep -q 'mpi yes' || skip "clyde was built without MPI"
}

# need_loops CMD...: root, Linux, a free loop device and these commands
# (losetup and truncate always), or skip
need_loops() {
	need_root
	need_linux "loop devices"
	for p in losetup truncate "$@"; do
		need_cmd "$p"
	done
	losetup -f >/dev/null 2>&1 || skip "no free loop device"
}

# private_mounts ARGS...: run this test again in a mount namespace of its
# own, its mounts private (unshare -m --propagation private): what it mounts
# shows nowhere else, and goes with it however it ends. Call it before
# anything is made, with the script's arguments; skips where no namespace
# can be made.
private_mounts() {
	[ -n "${T_PRIVATE_MOUNTS:-}" ] && return 0
	need_cmd unshare "util-linux"
	unshare -m --propagation private true 2>/dev/null ||
		skip "cannot make a mount namespace (unshare -m --propagation private)"
	T_PRIVATE_MOUNTS=1
	export T_PRIVATE_MOUNTS
	exec unshare -m --propagation private sh "$0" "$@"
}

# dead_tree DIR: DIR made (with its parents) holding the marker of a run
# that died on this host in this boot (pid 999999), for --cleanup to find
dead_tree() {
	mkdir -p "$1" && printf 'clyde-marker 1\npid 999999\nhost %s\nboot %s\nstart 1\ntime 0\ncmd fake\n' \
		"$(hostname)" "$(cat /proc/sys/kernel/random/boot_id 2>/dev/null)" >"$1/.clyde-run"
}

# need_tmpfs SIZE [OPTIONS]: scratch_tmpfs, or skip with what mount said
# (on one line)
need_tmpfs() {
	scratch_tmpfs "$@" 2>/dev/null ||
		skip "cannot mount a tmpfs: $(printf '%s' "$T_WHY" | tr -s ' \n' '  ')"
}

ok() {
	T_CHECKS=$((T_CHECKS + 1))
}

fail() {
	T_CHECKS=$((T_CHECKS + 1))
	T_FAILS=$((T_FAILS + 1))
	echo "FAIL: $*"
}

# check DESCRIPTION COMMAND...: the command must succeed.
check() {
	desc=$1
	shift
	if "$@"; then ok; else fail "$desc"; fi
}

# relay_checks FILE WHAT: a checking script's output, FILE: its "CHECK ok
# TEXT" lines are passed checks (shown), "CHECK FAIL TEXT" failed ones,
# other lines are shown; no check at all is a failure (WHAT made none)
relay_checks() {
	rc_n=0
	while IFS= read -r rc_line; do
		case $rc_line in
		"CHECK ok "*) ok; rc_n=$((rc_n + 1)); echo "  ok: ${rc_line#CHECK ok }" ;;
		"CHECK FAIL "*) fail "${rc_line#CHECK FAIL }"; rc_n=$((rc_n + 1)) ;;
		*) echo "  $rc_line" ;;
		esac
	done <"$1"
	[ $rc_n -gt 0 ] || fail "$2: no check made"
}

# expect_eq DESCRIPTION GOT WANT
expect_eq() {
	if [ "$2" = "$3" ]; then ok; else fail "$1: got '$2', want '$3'"; fi
}

# expect_match DESCRIPTION STRING EXTENDED-REGEX
expect_match() {
	if printf '%s\n' "$2" | grep -Eq -- "$3"; then ok; else fail "$1: '$2' does not match /$3/"; fi
}

# expect_file_has DESCRIPTION FILE FIXED-STRING
expect_file_has() {
	if grep -Fq -- "$3" "$2"; then ok; else fail "$1: $2 lacks '$3':"; sed 's/^/    /' "$2"; fi
}

# expect_same_bytes GOLDEN GOT: the file GOT is the golden file GOLDEN, byte
# for byte; else its first differences (diff golden got)
expect_same_bytes() {
	if cmp -s "$2" "$1"; then
		ok
	else
		fail "$(basename "$1"): not the golden's bytes (diff golden got):"
		diff "$1" "$2" | head -n 20 | sed 's/^/    /'
	fi
}

# The scratch_* helpers set SCRATCH (never call them in $(...): the
# cleanup would not learn of what they made).
# CLYDE_TEST_RUN (letters and digits), where a whole run set it, goes
# into the name, so that its check for mounts left behind counts its own
# tests' alone, not those of a run beside it.
scratch_dir() {
	case ${CLYDE_TEST_RUN:-} in
	*[!A-Za-z0-9]*) echo "CLYDE_TEST_RUN: letters and digits only" >&2; return 1 ;;
	esac
	SCRATCH=$(mktemp -d "/tmp/clyde-test.${CLYDE_TEST_RUN:+$CLYDE_TEST_RUN.}XXXXXX") || return 1
	T_DIRS="$T_DIRS $SCRATCH"
}

# scratch_tmpfs SIZE [OPTIONS]: a private tmpfs at $SCRATCH; on failure
# what went wrong is on stderr and in T_WHY (need_tmpfs skips with it)
scratch_tmpfs() {
	T_WHY="no scratch directory"
	scratch_dir || return 1
	opts="size=$1"
	[ $# -gt 1 ] && opts="$opts,$2"
	T_WHY=$(mount -t tmpfs -o "$opts" clyde-test "$SCRATCH" 2>&1) ||
		{ printf '%s\n' "$T_WHY" >&2; return 1; }
	T_MOUNTS="$SCRATCH $T_MOUNTS"
}

# scratch_tmpfs_any SIZE: a tmpfs to test on, as root or not: root mounts a
# private one (scratch_tmpfs); an ordinary user gets a scratch directory on
# the machine's own tmpfs, /dev/shm, where it is one and writable (a disk's
# timing and its RWF_NOWAIT short reads would change what a test sees).
# Fails where neither can be had.
scratch_tmpfs_any() {
	if [ "$(id -u)" = 0 ]; then
		scratch_tmpfs "$1" 2>/dev/null && return 0
	fi
	[ -w /dev/shm ] && [ "$(stat -f -c %T /dev/shm 2>/dev/null)" = tmpfs ] || return 1
	SCRATCH=$(mktemp -d /dev/shm/clyde-test.XXXXXX) || return 1
	T_DIRS="$T_DIRS $SCRATCH"
}

# scratch_ext4 IMAGE: a loop-mounted ext4 of 96 MiB at $SCRATCH whose
# image is IMAGE (put it on a scratch tmpfs); fails without mkfs.ext4.
# Its loop device, SCRATCH_LOOP, reads the image with direct I/O where the
# kernel takes it (else the image's pages stay cached below the loop, and
# clyde warns of it); mount -o loop alone would not.
scratch_ext4() {
	command -v mkfs.ext4 >/dev/null || return 1
	truncate -s 96M "$1" && mkfs.ext4 -q -F "$1" >/dev/null 2>&1 || return 1
	scratch_dir || return 1
	mount -o loop "$1" "$SCRATCH" 2>/dev/null || return 1
	T_MOUNTS="$SCRATCH $T_MOUNTS"
	SCRATCH_LOOP=$(awk -v m="$SCRATCH" '$2 == m { print $1 }' /proc/self/mounts | tail -n 1)
	losetup --direct-io=on "$SCRATCH_LOOP" 2>/dev/null || true
}

# loop_mkfs IMAGE SIZE MKFS...: a fresh sparse IMAGE (put it in a scratch
# directory) of SIZE on a loop device, LOOP, made a filesystem by MKFS
# (run as MKFS... $LOOP), not mounted. Direct I/O where the kernel takes it,
# so the loop does not keep a second copy of the data in the page cache;
# a buffered loop device, said, where it does not. What failed is said,
# indented. loop_detach (and the exit) takes it down.
loop_mkfs() {
	lm_img=$1 lm_size=$2
	shift 2
	LOOP=""
	truncate -s "$lm_size" "$lm_img" || { echo "    truncate -s $lm_size $lm_img failed"; return 1; }
	if ! LOOP=$(losetup --direct-io=on -f --show "$lm_img" 2>/dev/null); then
		# losetup may leave the device attached when it refuses direct I/O
		for l in $(losetup -n -O NAME -j "$lm_img" 2>/dev/null); do
			losetup -d "$l"
		done
		echo "$lm_img: no direct I/O loop device: a buffered one"
		LOOP=$(losetup -f --show "$lm_img") || { LOOP=""; echo "    losetup $lm_img failed"; return 1; }
	fi
	T_LOOPS="$T_LOOPS $LOOP=$lm_img"
	"$@" "$LOOP" >"$lm_img.mkfs" 2>&1 && return 0
	echo "    $* $LOOP failed:"
	sed 's/^/    /' "$lm_img.mkfs"
	return 1
}

# loop_detach: every loop device loop_mkfs made unmounted (wherever the
# test mounted it), detached, its image removed. A device still open (a
# btrfs unmount lets go of it a moment later on a busy machine) is only
# marked to detach when closed, which the kernel then does in a work
# item: wait up to 10 s until it no longer names the image.
loop_detach() {
	for ld in $T_LOOPS; do
		ld_dev=${ld%%=*}
		for ld_m in $(awk -v d="$ld_dev" '$1 == d { print $2 }' /proc/self/mounts 2>/dev/null); do
			umount "$ld_m" 2>/dev/null || umount -l "$ld_m" 2>/dev/null
		done
		ld_n=0
		while losetup -n -O BACK-FILE "$ld_dev" 2>/dev/null | grep -qF "${ld#*=}" &&
			[ $ld_n -lt 100 ]; do
			losetup -d "$ld_dev" 2>/dev/null
			sleep 0.1
			ld_n=$((ld_n + 1))
		done
		rm -f "${ld#*=}" "${ld#*=}.mkfs"
	done
	T_LOOPS=""
}

# csv_field LINE N: field N (0-based) of a CSV line.
csv_field() {
	printf '%s\n' "$1" | cut -d, -f$(($2 + 1))
}

# report_phase_cells FIELDS: clyde-report's text rows on stdin with each phase's CSV name (putc,
# put_block, ... ran_del) for its row name, as "NAME FIELD...": FIELDS the awk field numbers of the
# row split at two blanks or more ($2 is the phase); the marks cut: "+N" and "^N" after a count, "*"
report_phase_cells() {
	sed -E -e 's/^  Per-char write /  putc /' -e 's/^  Block write /  put_block /' \
		-e 's/^  Rewrite /  rewrite /' -e 's/^  Per-char read /  getc /' -e 's/^  Block read /  get_block /' \
		-e 's/^  Random seeks /  seeks /' -e 's/^  Seq create /  seq_create /' -e 's|^  Seq stat/read |  seq_stat |' \
		-e 's/^  Seq delete /  seq_del /' -e 's/^  Random create /  ran_create /' \
		-e 's|^  Random stat/read |  ran_stat |' -e 's/^  Random delete /  ran_del /' |
		awk -F '  +' -v fields="$1" '$2 ~ /^[a-z_]+$/ {
			line = $2
			n = split(fields, f, " ")
			for (i = 1; i <= n; i++) { v = $f[i]; sub(/[+^][0-9]+.*$|\*$/, "", v); line = line " " v }
			print line
		}'
}

# compare_phase_cells: clyde-report --compare's rows on stdin as "NAME MEAN-A CV-A RUNS-A UNIT" (the
# CV without its %; UNIT the row's, MEAN-A's)
compare_phase_cells() {
	awk '/^  [a-z_]+ / && $1 != "phase" {
		cv = $6; sub(/%$/, "", cv); n = $(NF - 1); sub(/^\(/, "", n); sub(/\/.*/, "", n)
		print $1, $2, cv, n, $4
	}'
}

# The directory must hold nothing that clyde made.
expect_empty_dir() {
	left=$(find "$2" -mindepth 1 -maxdepth 1 ! -name lost+found 2>/dev/null)
	if [ -z "$left" ]; then ok; else fail "$1: left behind in $2: $left"; fi
}

# wait_pause ERRFILE [COUNT]: until clyde's stderr ERRFILE shows COUNT (1)
# test pauses (CLYDE_TEST_PAUSE), at most a minute: a sanitizer build on a
# busy machine takes its time to get there; 1 when it never did. ERRFILE
# may not exist yet (the command started with & has not opened it): none
wait_pause() {
	wp_n=0
	while :; do
		wp_seen=$(grep -c 'test pause in ' "$1" 2>/dev/null)
		[ "${wp_seen:-0}" -ge "${2:-1}" ] && return 0
		[ $wp_n -ge 1200 ] && return 1
		sleep 0.05
		wp_n=$((wp_n + 1))
	done
}

# flip_byte FILE OFFSET: replace the byte at OFFSET with its complement, so
# the file surely differs there (writing a fixed byte leaves it unchanged
# once in 256 runs, when clyde's pattern already held that byte); 1 when
# the byte cannot be read or written
flip_byte() {
	fb_old=$(od -An -tu1 -j "$2" -N1 "$1" 2>/dev/null | tr -d ' ')
	[ -n "$fb_old" ] || return 1
	printf "\\$(printf %o $((255 - fb_old)))" |
		dd of="$1" bs=1 seek="$2" conv=notrunc 2>/dev/null || return 1
	[ "$(od -An -tu1 -j "$2" -N1 "$1" | tr -d ' ')" = $((255 - fb_old)) ]
}

# mpi_run ARGS...: mpirun with the flags Open MPI 4.1 needs on one machine,
# as root, in a container, within 180 s:
#   --oversubscribe       more ranks than cores (4 ranks on a 2-core machine)
#   --allow-run-as-root   mpirun refuses root without it (as do the
#                         OMPI_ALLOW_RUN_AS_ROOT{,_CONFIRM}=1 variables)
#   --mca plm_rsh_agent false   never look for ssh/rsh: every rank is local,
#                         and without an ssh client mpirun would refuse to start
#   --mca btl self,vader  shared memory only, no probing of network interfaces
#   --mca btl_vader_single_copy_mechanism none   no cross-memory attach
#                         (process_vm_readv), which container seccomp
#                         profiles may refuse
mpi_run() {
	tmo=""
	command -v timeout >/dev/null 2>&1 && tmo="timeout 180"
	# shellcheck disable=SC2086
	$tmo mpirun --oversubscribe --allow-run-as-root --mca plm_rsh_agent false \
		--mca btl self,vader --mca btl_vader_single_copy_mechanism none "$@"
}

done_testing() {
	echo "$(basename "$0"): $T_CHECKS checks, $T_FAILS failed"
	[ "$T_FAILS" = 0 ]
	exit $?
}
