#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# The house (HACKING.md's source map): each folder of src/ includes headers
# only from itself and the folders this table puts below it, and no header
# includes itself back through others (tsort finds the circle).
. "$TESTLIB"

SRC=$(cd "$(dirname "$TESTLIB")/../src" && pwd)
[ -d "$SRC/lib" ] || skip "no source tree beside $TESTLIB"
command -v tsort >/dev/null 2>&1 || skip "no tsort"

# room: the rooms it may include (lib is below everything)
below() {
	case $1 in
	lib)		echo "" ;;
	sys)		echo "lib" ;;
	placement)	echo "lib" ;;
	tree)		echo "lib" ;;
	profile)	echo "lib sys" ;;
	engines)	echo "lib sys tree" ;;
	core)		echo "lib sys profile tree" ;;
	cluster)	echo "lib core" ;;
	phases)		echo "lib sys placement profile tree engines core cluster" ;;
	formats)	echo "lib sys placement profile tree core cluster" ;;
	clyde)		echo "lib sys placement profile tree engines core cluster phases formats" ;;
	report)		echo "lib core" ;;
	zcav)		echo "lib sys engines" ;;
	getc_putc)	echo "lib sys" ;;
	*)		echo "?" ;;
	esac
}

scratch_dir
W=$SCRATCH
rooms=0
for dir in "$SRC"/*/; do
	room=$(basename "$dir")
	[ "$room" = fsmatrix ] && continue
	rooms=$((rooms + 1))
	allowed=$(below "$room")
	if [ "$allowed" = "?" ]; then
		fail "src/$room: a folder the table does not know (add it, with what it may include)"
		continue
	fi
	for f in "$dir"*.c "$dir"*.h; do
		[ -f "$f" ] || continue
		rel=src/$room/$(basename "$f")
		sed -n 's/^#include "\([a-z_]*\)\/\([a-z_]*\.h\)".*/\1 \2/p' "$f" >"$W/inc"
		while read -r to h; do
			# header edges for the circle check
			case $rel in *.h) echo "$rel src/$to/$h" >>"$W/edges" ;; esac
			[ "$to" = "$room" ] && continue
			case " $allowed " in
			*" $to "*) ok ;;
			*) fail "$rel includes $to/$h: $room may include only from: ${allowed:-nothing}" ;;
			esac
		done <"$W/inc"
		# every include of ours names its room
		if grep -n '^#include "[a-z_]*\.h"' "$f" | grep -v '"config\.h"' >"$W/bare"; then
			while read -r line; do
				fail "$rel: an include without its folder: $line"
			done <"$W/bare"
		fi
	done
done
expect_eq "the table knows the source folders" "$([ "$rooms" -ge 12 ] && echo yes)" yes
if [ -f "$W/edges" ]; then
	if ! tsort "$W/edges" >/dev/null 2>"$W/tsort"; then
		fail "an include circle among the headers: $(cat "$W/tsort")"
	else
		ok
	fi
fi
done_testing
