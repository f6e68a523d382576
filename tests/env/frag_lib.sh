# SPDX-License-Identifier: BSD-2-Clause
# Sourced by tests/env/frag_tools.sh and tests/env/frag_throttle.sh after
# tests/lib.sh: the one step that fragments a filesystem, so that it can
# be swapped for `clyde --age` when that exists (issue 44).
#
#   fragment_fs DIR FILE_KIB [FULL_PCT]
#     fills DIR's filesystem with files of FILE_KIB KiB in DIR/aging (to
#     FULL_PCT percent of its size, or until it is full when not given),
#     writes them out, then removes every other one: the free space left
#     is as many holes of FILE_KIB as there were files removed (and what
#     was free beyond FULL_PCT). 1 when it cannot.
fragment_fs() {
	python3 - "$1" "$2" "${3:-100}" <<'PY' || return 1
import errno, os, sys
top, kib, full = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
d = os.path.join(top, "aging")
os.mkdir(d)
st = os.statvfs(top)
size = st.f_blocks * st.f_frsize
want = size * full // 100
buf = os.urandom(kib * 1024)
names = []
used = (st.f_blocks - st.f_bfree) * st.f_frsize
while used + len(buf) <= want:
    name = os.path.join(d, "f%07d" % len(names))
    try:
        with open(name, "wb") as f:
            f.write(buf)
    except OSError as e:
        if e.errno != errno.ENOSPC:
            raise
        if os.path.exists(name):
            os.unlink(name)
        break
    names.append(name)
    used += len(buf)
os.sync()
for name in names[::2]:
    os.unlink(name)
os.sync()
print("fragment_fs: %d files of %d KiB written, every other removed" % (len(names), kib))
PY
}
