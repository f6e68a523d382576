#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# What a packager relies on: `make install DESTDIR=D` puts every installed
# program (bin_PROGRAMS, bin_SCRIPTS) under D$(bindir) and every man page
# (dist_man_MANS) under D$(man1dir), every data file (dist_pkgdata_DATA:
# the layer table) under D$(pkgdatadir), nothing else and nothing outside
# D$(prefix); each program has its man page; the staged programs run from
# where they were staged; and `make uninstall DESTDIR=D` removes exactly the
# files install staged. Makefile.am passes the lists and directories
# (INSTALL_* in AM_TESTS_ENVIRONMENT), so a new program is checked as soon
# as Makefile.am lists it.
. "$TESTLIB"
[ -n "${INSTALL_BUILDDIR:-}" ] || skip "run through make check (it sets INSTALL_BUILDDIR)"
need_cmd "${INSTALL_MAKE%% *}" "the make that runs make check"

scratch_dir
D=$SCRATCH/stage

# staged: every file and link under $D, one path a line, relative to $D
staged() {
	(cd "$D" && find . ! -type d | sed 's|^\.||' | LC_ALL=C sort)
}

# a make of its own, not a part of the make check that runs this test (no
# jobserver, no inherited command-line variables: ONCE_TESTS= and the like)
submake() {
	env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL -u MAKEOVERRIDES $INSTALL_MAKE -s \
		-C "$INSTALL_BUILDDIR" "$@" >"$SCRATCH/make.out" 2>&1 ||
		{ fail "make $*:"; sed 's/^/    /' "$SCRATCH/make.out"; }
}

# what install must stage: the lists Makefile.am gives, in the configured
# directories (a program's name may carry $(EXEEXT); its man page is NAME.1)
want=$SCRATCH/want
: >"$want"
for p in $INSTALL_PROGRAMS; do
	echo "$INSTALL_BINDIR/$(basename "$p")" >>"$want"
done
for m in $INSTALL_MANS; do
	echo "$INSTALL_MAN1DIR/$(basename "$m")" >>"$want"
done
for d in ${INSTALL_DATA_FILES:-}; do
	echo "$INSTALL_PKGDATADIR/$(basename "$d")" >>"$want"
done
LC_ALL=C sort -o "$want" "$want"

submake install DESTDIR="$D"
staged >"$SCRATCH/got"
if cmp -s "$want" "$SCRATCH/got"; then
	ok
else
	fail "make install DESTDIR= staged other files than Makefile.am lists (diff want got):"
	diff "$want" "$SCRATCH/got" | sed 's/^/    /'
fi
outside=$(grep -v "^$INSTALL_PREFIX/" "$SCRATCH/got")
expect_eq "nothing staged outside the prefix $INSTALL_PREFIX" "$outside" ""

# each program: its man page, and it runs from the staged directory
for p in $INSTALL_PROGRAMS; do
	name=$(basename "$p" "$INSTALL_EXEEXT")
	[ -f "$D$INSTALL_MAN1DIR/$name.1" ] && ok || fail "$name has no man page $INSTALL_MAN1DIR/$name.1"
	[ -x "$D$INSTALL_BINDIR/$(basename "$p")" ] && ok || fail "$name is not executable where it was staged"
	"$D$INSTALL_BINDIR/$(basename "$p")" --help >"$SCRATCH/help" 2>&1; rc=$?
	expect_eq "staged $name --help exits 0" "$rc" 0
	expect_match "staged $name --help prints its usage" "$(head -n 1 "$SCRATCH/help")" "^[Uu]sage: "
done
# clyde names its version, engines and optional libraries
v=$("$D$INSTALL_BINDIR/clyde$INSTALL_EXEEXT" --version 2>&1)
expect_match "clyde --version names the version" "$v" "^clyde $INSTALL_VERSION\$"
expect_match "clyde --version names the engines" "$v" "^engines: psync"
expect_match "clyde --version names the optional libraries" "$v" \
	"^libraries: liburing (yes|no), libnuma (yes|no), hwloc (yes|no), mpi (yes|no), bpf (yes|no)\$"

submake uninstall DESTDIR="$D"
left=$(staged)
expect_eq "make uninstall DESTDIR= removes every file install staged" "$left" ""

done_testing
