# SPDX-License-Identifier: BSD-2-Clause
# Sourced by the clyde-zcav tests (tests/env/zcav_*.sh) after tests/lib.sh:
# ZCAV (clyde-zcav of this build), REAL_ZCAV (bonnie++'s, or empty), and
#   zcav_lines FILE      checks that every line of FILE is one of zcav's:
#                        the header, a block "G.GG R.RR S.SSS", a short block
#                        "#G.GG ++++ S.SSS", "# Read N megs in N seconds, N
#                        megabytes per second.", "#loops: N"; prints the
#                        first line that is not, and returns 1
#   gnuplot_points FILE  what gnuplot's "plot FILE using 1:2" reads: every
#                        line that is not a comment, as "offset rate"
#   zcav_offsets FILE    every block's offset, data or comment, in order
ZCAV=${CLYDE_ZCAV:-$(dirname "$CLYDE")/clyde-zcav}
need_built "$ZCAV"
REAL_ZCAV=$(command -v zcav 2>/dev/null || { [ -x /usr/sbin/zcav ] && echo /usr/sbin/zcav; })

zcav_lines() {
	awk '
	/^#block offset \(GiB\), MiB\/s, time$/ { next }
	/^[0-9]+\.[0-9][0-9] [0-9]+\.[0-9][0-9] [0-9]+\.[0-9][0-9][0-9]$/ { next }
	/^#[0-9]+\.[0-9][0-9] \+\+\+\+ [0-9]+\.[0-9][0-9][0-9]$/ { next }
	/^# Read [0-9]+ megs in [0-9]+ seconds, [0-9]+ megabytes per second\.$/ { next }
	/^#loops: [0-9]+$/ { next }
	{ print "not a line of zcav: " FILENAME ":" NR ": " $0; bad = 1; exit }
	END { exit bad }' "$1"
}

gnuplot_points() {
	awk '!/^#/ && NF >= 2 { print $1, $2 }' "$1"
}

zcav_offsets() {
	awk '/^#?[0-9]+\.[0-9][0-9] / { sub(/^#/, ""); print $1 }' "$1"
}
