#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# The page with the time series' charts (tests/report/series_doc.py's
# document), drawn by headless Chromium through bench/render-report: a PNG
# comes out, and it is not blank. Chromium is a test package (.ci/deps
# --test): under CI=true its absence fails, elsewhere it is a skip.
. "$TESTLIB"
need_built "$REPORT"
need_python3
SRC=$(cd "$(dirname "$TESTLIB")/.." && pwd)
GEN=$SRC/tests/report/series_doc.py
browser=""
for b in ${CHROMIUM:-} chromium chromium-browser google-chrome; do
	if command -v "$b" >/dev/null 2>&1; then
		browser=$b
		break
	fi
done
if [ -z "$browser" ]; then
	[ "${CI:-}" = true ] && fail "no Chromium under CI=true (.ci/deps --test installs chromium)"
	skip "no headless Chromium (apt-get install chromium)"
fi
scratch_dir
W=$SCRATCH

python3 "$GEN" good >"$W/doc.json"
"$REPORT" --series=only --html "$W/page.html" "$W/doc.json" >/dev/null 2>"$W/err"
expect_eq "the page is written" "$?" 0
CHROMIUM=$browser WIDTH=1000 HEIGHT=1800 "$SRC/bench/render-report" "$W/page.html" "$W/page.png" \
	>/dev/null 2>"$W/render.err"
expect_eq "bench/render-report draws it" "$?" 0
expect_eq "a PNG" "$(head -c 8 "$W/page.png" | od -An -tx1 | tr -d ' \n')" "89504e470d0a1a0a"
# not blank: decoded, a share of its pixels is neither white nor one colour
out=$(python3 - "$W/page.png" <<'PY'
import struct, sys, zlib
data = open(sys.argv[1], "rb").read()
pos, idat, head = 8, b"", None
while pos < len(data):
    n, kind = struct.unpack(">I4s", data[pos:pos + 8])
    body = data[pos + 8:pos + 8 + n]
    if kind == b"IHDR":
        head = struct.unpack(">IIBBBBB", body)
    elif kind == b"IDAT":
        idat += body
    pos += 12 + n
w, h, depth, colour, _, _, interlace = head
if depth != 8 or colour not in (2, 6) or interlace:
    print("an unexpected PNG: depth %d, colour type %d, interlace %d" % (depth, colour, interlace))
    sys.exit()
bpp = 3 if colour == 2 else 4
raw, stride = zlib.decompress(idat), w * bpp
prev, inked, colours = bytearray(stride), 0, set()
for y in range(h):
    f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
    for i in range(stride):
        a = line[i - bpp] if i >= bpp else 0
        b, c = prev[i], prev[i - bpp] if i >= bpp else 0
        pred = {0: 0, 1: a, 2: b, 3: (a + b) // 2}.get(f)
        if pred is None:
            p = a + b - c
            pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            pred = a if pa <= pb and pa <= pc else b if pb <= pc else c
        line[i] = (line[i] + pred) & 255
    for x in range(0, stride, bpp * 4):
        px = bytes(line[x:x + 3])
        colours.add(px)
        inked += px != b"\xff\xff\xff"
    prev = line
print("ok" if inked > 1000 and len(colours) > 8 else "blank: %d inked pixels, %d colours" % (inked, len(colours)))
PY
)
expect_eq "and not blank" "$out" ok
done_testing
