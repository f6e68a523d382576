#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# The cluster under mpirun (issue 13): four ranks on this machine run
# tests/cluster_probe, which checks on every rank the rank and size, a
# meeting with no failure, a meeting where ranks 2 and 3 fail (all must
# name rank 2, its -ENOSPC and its message), the clock offset, the
# counters summed and the host names gathered on rank 0, and prints one
# line per rank. Skipped where Open MPI's mpirun or the MPI build is missing.
. "$TESTLIB"

command -v mpirun >/dev/null 2>&1 || skip "no mpirun (Open MPI's openmpi-bin)"
[ -n "${CLUSTER_PROBE:-}" ] && [ -x "$CLUSTER_PROBE" ] ||
	skip "not an MPI build (configure found no Open MPI, or --with-mpi=no)"

out=$(mktemp "${TMPDIR:-/tmp}/clyde-test.mpi.XXXXXX")
T_DIRS="$T_DIRS $out"

# The flags Open MPI 4.1 needs on one machine, as root, in a container:
#   --oversubscribe       more ranks than cores (4 ranks on a 2-core machine)
#   --allow-run-as-root   mpirun refuses root without it (as do the
#                         OMPI_ALLOW_RUN_AS_ROOT{,_CONFIRM}=1 variables)
#   --mca plm_rsh_agent false   never look for ssh/rsh: every rank is local,
#                         and without an ssh client mpirun would refuse to start
#   --mca btl self,vader  shared memory only, no probing of network interfaces
#   --mca btl_vader_single_copy_mechanism none   no cross-memory attach
#                         (process_vm_readv), which container seccomp
#                         profiles may refuse
tmo=""
command -v timeout >/dev/null 2>&1 && tmo="timeout 120"
# shellcheck disable=SC2086
$tmo mpirun --oversubscribe --allow-run-as-root \
	--mca plm_rsh_agent false \
	--mca btl self,vader --mca btl_vader_single_copy_mechanism none \
	-np 4 "$CLUSTER_PROBE" >"$out" 2>"$out.err"
rc=$?
expect_eq "mpirun -np 4 cluster_probe exits 0" "$rc" 0
[ "$rc" = 0 ] || { cat "$out" "$out.err"; }

expect_eq "no rank failed a check" "$(grep -c 'FAIL' "$out")" 0
expect_eq "one line per rank" "$(grep -cE '^rank [0-3] of 4 host [^ ]+ ok$' "$out")" 4
for r in 0 1 2 3; do
	expect_eq "rank $r reported" "$(grep -c "^rank $r of 4 host " "$out")" 1
done
# counters: 1 per rank, rank << 32 per rank: 4 and (0+1+2+3) << 32
expect_eq "sums and hosts on rank 0" "$(grep '^sum ' "$out")" "sum 4 25769803776 hosts 4"
done_testing
