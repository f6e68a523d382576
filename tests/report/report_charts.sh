#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# clyde-report's SVG and HTML, as tests/unit/unit_report_charts writes them from
# its hand-built set, read by real XML parsers (Python's minidom, and
# xmllint where installed): well-formed, the right roots, as many bars in
# the page as in the SVG, nothing loaded from elsewhere. And
# bench/render-report says what is missing when there is no Chromium.
. "$TESTLIB"

BUILD=$(cd "$(dirname "$CLYDE")" && pwd)
SRC=$(cd "$GOLDEN/../../.." && pwd)
UNIT=$BUILD/tests/unit/unit_report_charts
need_built "$UNIT"
need_python3
scratch_dir
W=$SCRATCH

"$UNIT" "$W" >"$W/unit.out" 2>&1
expect_eq "unit_report_charts writes the samples" "$?" 0
for f in report.svg report.html; do
	check "$f parses as XML" python3 -c 'import sys, xml.dom.minidom; xml.dom.minidom.parse(sys.argv[1])' "$W/$f"
	if command -v xmllint >/dev/null 2>&1; then
		check "$f: xmllint" xmllint --noout "$W/$f"
	fi
done

out=$(python3 - "$W/report.svg" "$W/report.html" <<'PY'
import sys
import xml.dom.minidom as md

SVG = "http://www.w3.org/2000/svg"
XHTML = "http://www.w3.org/1999/xhtml"
svg = md.parse(sys.argv[1]).documentElement
html = md.parse(sys.argv[2]).documentElement
problems = []

def bars(root):
    return [r for r in root.getElementsByTagNameNS(SVG, "rect") if r.getAttribute("class") == "bar"]

if svg.namespaceURI != SVG or svg.tagName != "svg":
    problems.append("SVG root is %s" % svg.tagName)
if svg.getAttribute("version") != "1.1" or len(svg.getAttribute("viewBox").split()) != 4:
    problems.append("SVG version or viewBox")
if html.namespaceURI != XHTML or html.tagName != "html":
    problems.append("HTML root is %s" % html.tagName)
metas = [m.getAttribute("charset") for m in html.getElementsByTagNameNS(XHTML, "meta")]
if "utf-8" not in metas:
    problems.append("no meta charset utf-8")
n = len(bars(svg))
if n == 0 or len(bars(html)) != n:
    problems.append("bars: SVG %d, page %d" % (n, len(bars(html))))
for b in bars(svg):
    if len(b.getElementsByTagNameNS(SVG, "title")) != 1:
        problems.append("a bar without a tooltip")
        break
def text_of(el):
    return "".join(c.data for c in el.childNodes if c.nodeType == c.TEXT_NODE)

if not any("xfs & <tuned> \"quoted\" 'x'" in text_of(t) for t in svg.getElementsByTagNameNS(SVG, "text")):
    problems.append("the odd name does not read back")
for root in (svg, html):
    for el in root.getElementsByTagName("*"):
        for a in ("href", "src", "xlink:href"):
            if el.hasAttribute(a):
                problems.append("%s has %s" % (el.tagName, a))
    if root.getElementsByTagName("script") or root.getElementsByTagName("link"):
        problems.append("script or link element")
print("\n".join(problems))
PY
)
expect_eq "SVG and page structure" "$out" ""

CHROMIUM=/nonexistent/chromium "$SRC/bench/render-report" "$W/report.html" "$W/x.png" 2>"$W/err"
expect_eq "render-report without Chromium" "$?" 3
expect_file_has "render-report says what to install" "$W/err" "apt-get install chromium"
done_testing
