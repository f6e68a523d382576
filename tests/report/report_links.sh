#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# clyde-report links its own library and the shared rooms (lib, core)
# only: none of liburing, hwloc, libnuma or MPI (ldd), and no phase of the
# benchmark (nm). Each check runs on clyde too, which must show what the
# report must not, so a check that could never fail is a failure here.
. "$TESTLIB"
REPORT=${CLYDE_REPORT:-$(dirname "$CLYDE")/clyde-report}
[ -x "$REPORT" ] || skip "no $REPORT"
[ -x "$CLYDE" ] || skip "no $CLYDE"
command -v ldd >/dev/null 2>&1 || skip "no ldd: cannot list what clyde-report links"
scratch_dir
W=$SCRATCH

# the optional libraries as clyde --version names them, and as ldd does
OPTIONAL="liburing:liburing libnuma:libnuma hwloc:libhwloc mpi:libmpi"

ldd "$REPORT" >"$W/report.ldd" 2>&1
ldd "$CLYDE" >"$W/clyde.ldd" 2>&1
"$CLYDE" --version >"$W/version" 2>&1
libs=$(grep '^libraries:' "$W/version")
expect_match "clyde --version names the libraries built" "$libs" "liburing (yes|no)"
for pair in $OPTIONAL; do
	name=${pair%%:*}
	so=${pair#*:}
	if grep -q "$so" "$W/report.ldd"; then
		fail "clyde-report links $so: $(grep "$so" "$W/report.ldd")"
	else
		ok
	fi
	# the same test on clyde, built with it, must find it
	case $libs in
	*"$name yes"*)
		if grep -q "$so" "$W/clyde.ldd"; then
			ok
		else
			fail "clyde is built with $name, yet ldd does not name $so: the check above proves nothing"
		fi
		;;
	esac
done

# no phase function, no runner: the names come from the phases' list
if command -v nm >/dev/null 2>&1; then
	LIST=$(dirname "$TESTLIB")/../src/core/phase_list.h
	fns=$(sed -n 's/.*, \(phase_[a-z_]*\), phase_[a-z_]*) *\\\{0,1\}$/\1/p' "$LIST" 2>/dev/null)
	expect_match "the phase functions read from $LIST" "$(echo $fns)" "phase_putc .*phase_put_block"
	nm -P "$REPORT" 2>/dev/null | awk '$2 ~ /^[TtDdBbRrWw]$/ { print $1 }' >"$W/report.sym"
	nm -P "$CLYDE" 2>/dev/null | awk '$2 ~ /^[TtDdBbRrWw]$/ { print $1 }' >"$W/clyde.sym"
	if grep -qx phase_put_block "$W/clyde.sym"; then
		ok
	else
		fail "nm finds no phase_put_block in clyde (stripped?): the check below proves nothing"
	fi
	for fn in $fns phase_ops_get bench_run; do
		if grep -qx "$fn" "$W/report.sym"; then
			fail "clyde-report contains $fn"
		else
			ok
		fi
	done
else
	echo "# no nm: the symbol checks did not run"
fi
done_testing
