#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# The house (HACKING.md's source map): each folder of src/ includes headers
# and calls functions only from itself and the folders this table puts
# below it; a room's headers declare only what the room defines; and no
# file comes back to itself, through includes (headers) or through calls
# (objects): tsort finds the circle. Calls are read with nm from the
# objects of the build this runs in (TOP_BUILDDIR, which make check sets,
# or the current directory), so an out-of-tree build checks its own.
. "$TESTLIB"

SRC=$(cd "$(dirname "$TESTLIB")/../src" && pwd)
[ -d "$SRC/lib" ] || skip "no source tree beside $TESTLIB"
BUILD=${TOP_BUILDDIR:-$(pwd)}
need_cmd tsort
need_cmd nm "the calls are read from the objects"

# room: the rooms it may include and call (lib is below everything)
below() {
	case $1 in
	lib)		echo "" ;;
	sys)		echo "lib" ;;
	placement)	echo "lib" ;;
	tree)		echo "lib" ;;
	age)		echo "lib sys" ;;
	profile)	echo "lib sys" ;;
	engines)	echo "lib sys tree" ;;
	core)		echo "lib sys profile tree" ;;
	cluster)	echo "lib core" ;;
	phases)		echo "lib sys placement profile tree engines core cluster" ;;
	formats)	echo "lib sys placement profile tree core" ;;
	clyde)		echo "lib sys placement profile tree age engines core cluster phases formats" ;;
	report)		echo "lib core" ;;
	zcav)		echo "lib sys engines" ;;
	getc_putc)	echo "lib sys" ;;
	*)		echo "?" ;;
	esac
}

# tsort's complaint as the files of each circle: "a b; c d"
circles() {
	awk '/input contains a loop/ { if (n++) printf "; "; sep = ""; next }
		{ sub(/^tsort: /, ""); printf "%s%s", sep, $0; sep = " " }' "$1"
}

scratch_dir
W=$SCRATCH
: >"$W/edges"
: >"$W/decls"
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
	echo "$room $allowed" >>"$W/table"
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
		# what a header declares at file scope: functions, and extern data
		case $rel in
		*.h) awk -v h="$rel" '
			cont { cont = /\\$/; next }
			/^#/ { cont = /\\$/; next }
			depth == 0 && /^[A-Za-z]/ && !/^(static|typedef|struct [a-z_]* \{|enum|union)/ {
				line = $0
				sub(/\/\*.*/, "", line)
				if (match(line, /[A-Za-z_][A-Za-z0-9_]*\(/)) {
					name = substr(line, RSTART, RLENGTH - 1)
					if (name != "__attribute__")
						print h, name
				} else if (line ~ /^extern/ && match(line, /[A-Za-z_][A-Za-z0-9_]*(\[[^]]*\])*;/)) {
					name = substr(line, RSTART, RLENGTH)
					sub(/[[;].*/, "", name)
					print h, name
				}
			}
			{ n = gsub(/\{/, "{"); m = gsub(/\}/, "}"); depth += n - m }
			' "$f" >>"$W/decls" ;;
		esac
	done
done
expect_eq "the table knows the source folders" "$([ "$rooms" -ge 12 ] && echo yes)" yes
if ! tsort <"$W/edges" >/dev/null 2>"$W/tsort"; then
	fail "an include circle among the headers: $(circles "$W/tsort")"
else
	ok
fi

# Every global symbol of each object of src/: "src/ROOM/FILE.c SYMBOL TYPE".
# An object is named for its source, after automake's per-target prefix
# (libclyde_a-run.o); one whose source is gone (moved, a stale build) is
# not the tree's and is left out.
objects=0
for obj in "$BUILD"/src/*/*.o; do
	[ -f "$obj" ] || continue
	room=$(basename "$(dirname "$obj")")
	base=$(basename "$obj" .o)
	file=src/$room/${base##*-}.c
	[ -f "$SRC/${file#src/}" ] || continue
	objects=$((objects + 1))
	if ! nm -P -g "$obj" >"$W/nm" 2>"$W/nm.err"; then
		fail "nm $obj: $(cat "$W/nm.err")"
		continue
	fi
	awk -v f="$file" 'NF >= 2 { print f, $1, $2 }' "$W/nm" >>"$W/syms"
done
[ "$objects" -gt 0 ] || fail "no objects of src/ under $BUILD/src: build first (make), or set TOP_BUILDDIR"
[ "$objects" -gt 0 ] || done_testing

# Where each symbol is defined, and who uses it: "FROM TO SYMBOL" per call
# (or use of data) from one file into another. A symbol two files define
# (a test's own copy of another OS's file) is the first's: the libraries'
# objects (libclyde_a-...) sort before the tests' (tests_unit_...).
awk 'NR == FNR { if ($3 != "U" && !($2 in def)) def[$2] = $1; next }
	$3 == "U" && ($2 in def) && def[$2] != $1 { print $1, def[$2], $2 }' \
	"$W/syms" "$W/syms" >"$W/calls"
awk 'NR == FNR { if ($3 != "U" && !($2 in def)) def[$2] = $1; next }
	($2 in def) { print $1, def[$2], $2 }' "$W/syms" "$W/decls" >"$W/declared"
calls=$(wc -l <"$W/calls")
expect_eq "calls between files were read from the objects" "$([ "$calls" -ge 100 ] && echo yes)" yes

# A call up the house: the callee's room is not below the caller's.
awk 'NR == FNR { allowed[$1] = " " $0 " "; next }
	{ split($1, a, "/"); split($2, b, "/")
	  if (a[2] != b[2] && index(allowed[a[2]], " " b[2] " ") == 0)
		print $1 " calls " $3 ", defined in " $2 ": " a[2] " may call only: " \
			substr(allowed[a[2]], length(a[2]) + 3) }' \
	"$W/table" "$W/calls" | sort -u >"$W/up"
while read -r line; do
	fail "$line"
done <"$W/up"
[ -s "$W/up" ] || ok

# A header that declares what another room defines: its callers would
# reach that room while including only this one.
awk '{ split($1, a, "/"); split($2, b, "/")
	if (a[2] != b[2]) print $1 " declares " $3 ", defined in " $2 }' "$W/declared" |
	sort -u >"$W/misdeclared"
while read -r line; do
	fail "$line: a room declares only what it defines"
done <"$W/misdeclared"
[ -s "$W/misdeclared" ] || ok

# A circle of calls between files (each file's calls, not its symbols).
awk '{ print $1, $2 }' "$W/calls" | sort -u >"$W/call_edges"
if ! tsort <"$W/call_edges" >/dev/null 2>"$W/tsort"; then
	fail "a circle of calls between files: $(circles "$W/tsort")"
else
	ok
fi
done_testing
