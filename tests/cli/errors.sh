#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# The directory checks and I/O failures: a clear message, the documented
# exit status, and nothing left behind.
. "$TESTLIB"
need_root

# read-only filesystem: exit 2
need_tmpfs 16m ro
RO=$SCRATCH
err=$("$CLYDE" -d "$RO" -s 1 -n 0 2>&1 >/dev/null); rc=$?
expect_eq "read-only exits 2" "$rc" 2
expect_match "read-only is named" "$err" "$RO: the filesystem is mounted read-only"

# a directory another user owns, with -u nobody (as root access() says yes)
need_tmpfs 16m mode=0755
OWNED=$SCRATCH
err=$("$CLYDE" -u nobody -d "$OWNED" -s 1 -n 0 2>&1 >/dev/null); rc=$?
expect_eq "-u nobody on root's directory exits 2" "$rc" 2
expect_match "not writable is named" "$err" "$OWNED: not writable by uid [0-9]+: Permission denied"
expect_empty_dir "nothing made in the unwritable directory" "$OWNED"
# ...and -u nobody where nobody may write works, as nobody
chmod 1777 "$OWNED"
line=$("$CLYDE" -u nobody -d "$OWNED" -s 1::8192 -n 0 -f64k 2>/dev/null | tail -n 1); rc=$?
expect_match "-u nobody runs where it may write" "$line" '^1\.98,'
expect_empty_dir "-u nobody cleaned up" "$OWNED"

# too little free space, found before any I/O: exit 2
need_tmpfs 2m
SMALL=$SCRATCH
err=$("$CLYDE" -d "$SMALL" -s 16 -n 0 2>&1 >/dev/null); rc=$?
expect_eq "too small exits 2" "$rc" 2
expect_match "free space is named" "$err" "too little free space: the run needs 16.0 MiB, .* is free"
expect_empty_dir "nothing written when too small" "$SMALL"

# out of inodes during the create phase: exit 3, phase and file named
need_tmpfs 16m nr_inodes=200
FULL=$SCRATCH
err=$("$CLYDE" -d "$FULL" -s 0 -n 1 2>&1 >/dev/null); rc=$?
expect_eq "ENOSPC in a phase exits 3" "$rc" 3
expect_match "the phase, file and error are named" "$err" \
	"sequential create: create $FULL/clyde\.[A-Za-z0-9]+/files\.0/[0-9a-f]{10}[0-9A-Za-z]{0,12}: No space left on device"
expect_match "the removal is reported" "$err" "removed $FULL/clyde\."
expect_empty_dir "nothing left after ENOSPC" "$FULL"

# out of space during block write: the check passes, then another writer
# fills the filesystem while clyde is paused in the per-char phase
need_tmpfs 32m
DATA=$SCRATCH
scratch_dir
GO=$SCRATCH/go
CLYDE_TEST_PAUSE=putc CLYDE_TEST_RESUME=$GO "$CLYDE" -d "$DATA" -s 16 -n 0 -f64k \
	>/dev/null 2>"$GO.err" &
pid=$!
wait_pause "$GO.err"
dd if=/dev/zero of="$DATA/filler" bs=1M count=24 2>/dev/null
touch "$GO"
wait $pid; rc=$?
rm -f "$DATA/filler"
expect_eq "ENOSPC in block write exits 3" "$rc" 3
expect_match "block write ENOSPC is named" "$(cat "$GO.err")" \
	"block write: .*$DATA/clyde\.[A-Za-z0-9]+/io\.0.*: No space left on device"
expect_empty_dir "nothing left after ENOSPC in block write" "$DATA"

# a file size limit: SIGXFSZ stops the run like SIGINT, exit 5
err=$(sh -c "ulimit -f 2048; exec \"$CLYDE\" -d \"$DATA\" -s 8 -n 0 -f" 2>&1 >/dev/null); rc=$?
expect_eq "SIGXFSZ (file size limit) exits 5" "$rc" 5
expect_match "the stop is reported" "$err" "block write: stopped by signal"
expect_empty_dir "nothing left after SIGXFSZ" "$DATA"

done_testing
