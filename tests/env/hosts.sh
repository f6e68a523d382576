#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Many hosts for real: 3 "hosts" on this machine, each a persistent set of
# namespaces (network, UTS with its own hostname, mount with its own
# scratch tmpfs, time with its own CLOCK_MONOTONIC: unshare --net= --uts=
# --mount= --time= bound to files, entered with nsenter; h2's clock runs
# H2_CLOCK_S ahead of the others), each host's veth on a bridge in a switch namespace of the
# test's own, on 10.213.27.0/24, which nothing routes anywhere. mpirun runs
# in a fourth such namespace, the login node; Open MPI starts its daemons
# through a launcher agent (plm_rsh_agent) that nsenters the host, as ssh
# would log in, and the ranks talk over TCP (btl tcp) on the test's subnet.
# 2 ranks per host:
#  1. the report names the 3 hosts, has one CPU line per host (each the
#     sum of its ranks'), rank_hosts maps ranks 0-5 to h1 h1 h2 h2 h3 h3,
#     clyde measures the clock offsets within 10 ms of what the time
#     namespaces set (0 on h1 and h3, H2_CLOCK_S on h2);
#     --mpi-read-other=2 makes each rank read a file that a rank on
#     another host wrote, in a tmpfs every host mounts (seen in
#     /proc/PID/fd while paused).
#  2. a clyde on h2 SIGKILLed mid-phase: mpirun aborts the job naming h2;
#     --cleanup on each host removes what the killed ranks left.
#  3. h3's veth set down mid-phase (every pair of ranks connected before
#     it: the deadline's messages need no new connection): the ranks on h1
#     and h2 stop at the next meeting's --mpi-timeout, rank 0 naming ranks
#     4 and 5 on h3, having removed their files; the test ends h3's
#     processes, --cleanup on h3 removes what they left.
# After: no namespace, link or mount of the test's is left (ip netns, ip
# link, /proc/mounts as before).
. "$TESTLIB"

need_root
need_linux "namespaces"
need_mpi
need_cmd unshare "util-linux"
need_cmd nsenter "util-linux"
need_cmd ip "iproute2"
need_cmd ss "iproute2"
need_python3 "to read the JSON"

scratch_dir
W=$SCRATCH
NSD=$W/ns
NET=10.213.27
HOSTS="h1 h2 h3"
# h2's CLOCK_MONOTONIC ahead of h1's and h3's (its time namespace's offset,
# whole seconds): the offset clyde must measure for ranks 2 and 3
H2_CLOCK_S=777
# the machine's own before the test: compared after
NETNS_BEFORE=$(ip netns list 2>/dev/null | sort)
LINKS_BEFORE=$(ip -o link show | awk -F': ' '{print $2}' | sort)

# ns_id FILE: the namespace a bound file holds ("uts:[4026532...]"'s number)
ns_id() {
	stat -L -c %i "$1" 2>/dev/null
}

# ns_pids NAME KIND: the processes in host NAME's namespace of KIND (uts, net)
ns_pids() {
	np_id=$(ns_id "$NSD/$1.$2")
	[ -n "$np_id" ] || return 0
	for np_p in /proc/[0-9]*; do
		[ "$(readlink "$np_p/ns/$2" 2>/dev/null)" = "$2:[$np_id]" ] && echo "${np_p#/proc/}"
	done
}

# in_host NAME CMD...: CMD inside host NAME (its network, hostname and mounts)
in_host() {
	ih_name=$1
	shift
	nsenter --net="$NSD/$ih_name.net" --uts="$NSD/$ih_name.uts" --mount="$NSD/$ih_name.mnt" \
		--time="$NSD/$ih_name.time" -- "$@"
}

# every process in the test's namespaces, then the namespaces (their files
# unmounted: the last reference), the switch's links going with its network
hosts_teardown() {
	for n in login $HOSTS; do
		# shellcheck disable=SC2046
		kill -9 $(ns_pids "$n" net) $(ns_pids "$n" uts) 2>/dev/null
	done
	for f in "$NSD"/*.*; do
		[ -e "$f" ] || continue
		umount "$f" 2>/dev/null || umount -l "$f" 2>/dev/null
	done
	if grep -q " $NSD " /proc/mounts; then
		umount "$NSD" 2>/dev/null || umount -l "$NSD" 2>/dev/null
	fi
	rm -rf "$NSD"
	for m in "$W/shared" "$W/hosts-file"; do
		grep -q " $m " /proc/mounts && umount "$m" 2>/dev/null
	done
}
trap 'hosts_teardown; t_cleanup' EXIT

# The namespaces' files live in a private mount: a namespace file cannot be
# bound in a shared one.
mkdir -p "$NSD" "$W/local" "$W/shared"
mount --bind "$NSD" "$NSD" && mount --make-private "$NSD" || skip "cannot make a private mount"
# the shared storage: one tmpfs that every host's mount namespace has
mount -t tmpfs -o size=256m clyde-hosts-shared "$W/shared" || skip "cannot mount a tmpfs"
# the hosts' names, for mpirun and the daemons, over /etc/hosts in each
{
	echo "127.0.0.1 localhost"
	echo "$NET.10 login"
	i=1
	for h in $HOSTS; do
		echo "$NET.1$i $h"
		i=$((i + 1))
	done
} >"$W/hosts"

# make_ns NAME ADDRESS [CLOCK]: a host, its CLOCK_MONOTONIC CLOCK seconds
# ahead of this machine's (0 when not given); ADDRESS empty: the switch, a
# network alone
make_ns() {
	: >"$NSD/$1.net"
	if [ -z "$2" ]; then
		unshare --net="$NSD/$1.net" ip link set lo up
		return
	fi
	: >"$NSD/$1.uts"
	: >"$NSD/$1.mnt"
	: >"$NSD/$1.time"
	# in the new mount namespace: the other hosts' namespace files (the
	# copy of $NSD) let go, its own scratch tmpfs, its own /etc/hosts; the
	# time namespace holds the processes that nsenter it later, not this sh
	unshare --net="$NSD/$1.net" --uts="$NSD/$1.uts" --mount="$NSD/$1.mnt" \
		--time="$NSD/$1.time" --monotonic="${3:-0}" --propagation private sh -c "
		hostname $1 && ip link set lo up &&
		umount -l '$NSD' && mount -t tmpfs -o size=256m clyde-hosts-$1 '$W/local' &&
		mount --bind '$W/hosts' /etc/hosts"
}

# wire NAME ADDRESS: NAME's eth0 on ADDRESS, its peer v-NAME on the bridge
wire() {
	# a process in NAME's network for ip link's "netns PID"
	nsenter --net="$NSD/$1.net" sleep 60 &
	wp=$!
	# once it is there: before, its network is this script's
	wn=0
	while [ "$(readlink "/proc/$wp/ns/net")" != "net:[$(ns_id "$NSD/$1.net")]" ] &&
		[ $wn -lt 100 ]; do
		sleep 0.05
		wn=$((wn + 1))
	done
	nsenter --net="$NSD/sw.net" ip link add "v-$1" type veth peer name eth0 netns $wp
	wr=$?
	kill $wp
	wait $wp 2>/dev/null
	[ $wr = 0 ] || return 1
	nsenter --net="$NSD/sw.net" ip link set "v-$1" master br0 up &&
		nsenter --net="$NSD/$1.net" ip addr add "$2/24" dev eth0 &&
		nsenter --net="$NSD/$1.net" ip link set eth0 up
}

make_ns sw "" || skip "cannot make a network namespace"
nsenter --net="$NSD/sw.net" ip link add br0 type bridge &&
	nsenter --net="$NSD/sw.net" ip link set br0 up || skip "cannot make a bridge"
i=1
for h in $HOSTS; do
	clock=0
	[ "$h" = h2 ] && clock=$H2_CLOCK_S
	make_ns "$h" "$NET.1$i" "$clock" && wire "$h" "$NET.1$i" ||
		skip "cannot make host $h (time namespaces need Linux 5.6, util-linux 2.36)"
	i=$((i + 1))
done
make_ns login "$NET.10" || skip "cannot make the login node's namespaces"
wire login "$NET.10" || skip "cannot make a veth pair"
for h in $HOSTS; do
	expect_eq "$h: its own hostname" "$(in_host "$h" hostname)" "$h"
done
# h2's clock H2_CLOCK_S ahead of h1's: read on h1, on h2, on h1 again, h2's
# reading less H2_CLOCK_S lies between h1's two
mono() {
	in_host "$1" python3 -c 'import time; print(time.clock_gettime(time.CLOCK_MONOTONIC))'
}
a1=$(mono h1)
b=$(mono h2)
a2=$(mono h1)
expect_eq "h2's CLOCK_MONOTONIC $H2_CLOCK_S s ahead of h1's ($a1, $b, $a2)" \
	"$(python3 -c "print($a1 <= $b - $H2_CLOCK_S <= $a2)")" True
# the scratch tmpfs is each host's own, the shared one the same for all
in_host h1 touch "$W/local/mine" "$W/shared/seen"
expect_eq "h2 does not see h1's scratch" "$(in_host h2 ls "$W/local" | wc -l)" 0
expect_eq "h2 sees the shared tmpfs" "$(in_host h2 ls "$W/shared")" seen
rm -f "$W/shared/seen"
in_host h1 rm -f "$W/local/mine"

# mpirun's launcher: "AGENT HOST COMMAND..." runs COMMAND on HOST, as ssh
# would. It first goes back to this script's mount namespace: a copy of a
# mount namespace (the login node's) never holds other mount namespaces'
# files, so the hosts' are found there alone.
cat >"$W/agent" <<EOF
#!/bin/sh
host=\$1
shift
exec nsenter --target=$$ --mount -- nsenter --net="$NSD/\$host.net" --uts="$NSD/\$host.uts" \\
	--mount="$NSD/\$host.mnt" --time="$NSD/\$host.time" -- sh -c "\$*"
EOF
chmod +x "$W/agent"
for h in $HOSTS; do
	echo "$h slots=2"
done >"$W/hostfile"

# hosts_mpirun ARGS...: mpirun on the login node over the hosts, at most 180 s
hosts_mpirun() {
	in_host login timeout 180 mpirun --allow-run-as-root --hostfile "$W/hostfile" \
		--mca plm_rsh_agent "$W/agent" --mca plm_rsh_no_tree_spawn 1 \
		--mca btl self,tcp --mca btl_tcp_if_include "$NET.0/24" \
		--mca oob_tcp_if_include "$NET.0/24" "$@"
}

# rank_pids: "PID RANK HOST" of every rank alive (not a rank's series stall
# reader, not a zombie its parent has yet to reap)
rank_pids() {
	for h in $HOSTS; do
		for pid in $(ns_pids "$h" uts); do
			[ "$(cat "/proc/$pid/comm" 2>/dev/null)" = clyde ] || continue
			[ "$(cut -d' ' -f3 "/proc/$pid/stat" 2>/dev/null)" = Z ] && continue
			pp=$(ps -o ppid= -p "$pid" | tr -d ' ')
			[ "$(cat "/proc/$pp/comm" 2>/dev/null)" = clyde ] && continue
			r=$(tr '\0' '\n' 2>/dev/null <"/proc/$pid/environ" |
				sed -n 's/^OMPI_COMM_WORLD_RANK=//p')
			[ -n "$r" ] && echo "$pid $r $h"
		done
	done
}

# resume_all RESUMEFILE PID: let every test pause go on while PID runs (at most 60 s)
resume_all() {
	ra_n=0
	while kill -0 "$2" 2>/dev/null && [ $ra_n -lt 1200 ]; do
		[ -e "$1" ] || touch "$1"
		sleep 0.05
		ra_n=$((ra_n + 1))
	done
}

# 1. 3 hosts x 2 ranks, each reading the file of the rank 2 further: another host's
RES=$W/resume1
CLYDE_TEST_PAUSE=get_block CLYDE_TEST_RESUME=$RES \
	hosts_mpirun -x CLYDE_TEST_PAUSE -x CLYDE_TEST_RESUME -np 6 \
	"$CLYDE" -d "$W/shared" -s 16 -n 0 -f --mpi-read-other=2 --json "$W/j1.json" \
	>"$W/out1" 2>"$W/err1" &
mp=$!
wait_pause "$W/err1" 6
expect_eq "read other: all 6 ranks paused in block read" "$(grep -c 'test pause in get_block' "$W/err1")" 6
rank_pids >"$W/ranks1"
expect_eq "read other: 6 ranks, 2 on each host" "$(awk '{print $3}' "$W/ranks1" | sort | uniq -c |
	awk '{print $1}' | tr '\n' ' ')" "2 2 2 "
crossed=0
while read -r pid r h; do
	other=$(( (r + 2) % 6 ))
	# the writer of the file it holds: rank r+2, on another host
	oh=$(awk -v o="$other" '$2 == o {print $3}' "$W/ranks1")
	# shellcheck disable=SC2010 # the links' targets, which a glob cannot read
	if ls -l "/proc/$pid/fd" 2>/dev/null | grep -q "$W/shared/clyde\.r$other\.[^/]*/io\.0$" &&
		[ -n "$oh" ] && [ "$oh" != "$h" ]; then
		crossed=$((crossed + 1))
	fi
done <"$W/ranks1"
expect_eq "read other: every rank holds the file a rank on another host wrote" "$crossed" 6
resume_all "$RES" $mp
wait $mp
rc=$?
expect_eq "3 hosts: exit 0" "$rc" 0
[ "$rc" = 0 ] || cat "$W/err1"
expect_match "3 hosts: the cluster table" "$(grep '^Many clients' "$W/out1")" \
	'^Many clients: 6 ranks on 3 hosts x -c 1;.*reads from rank \+2'
for h in $HOSTS; do
	expect_eq "3 hosts: one CPU line for $h" "$(grep -c "^Host $h: 2 ranks; CPU" "$W/out1")" 1
done
python3 - "$W/j1.json" "$H2_CLOCK_S" >"$W/py1" 2>&1 <<'PY'
import json, sys
run = json.load(open(sys.argv[1]))["runs"][0]
h2_clock = float(sys.argv[2])
bad = []
c = run["cluster"]
if sorted(c["hosts"]) != ["h1", "h2", "h3"]:
    bad.append("hosts %r" % c["hosts"])
if c["rank_hosts"] != ["h1", "h1", "h2", "h2", "h3", "h3"]:
    bad.append("rank_hosts %r" % c["rank_hosts"])
off = c["clock_offsets_s"]
# one kernel clock underneath: each rank's true offset is exactly what its
# host's time namespace adds (h2's H2_CLOCK_S); what clyde measures beyond
# it is how far apart the ranks left a barrier, microseconds to a few
# milliseconds here. 10 ms: the issue's bound; a routine that returns 0
# misses h2's by H2_CLOCK_S.
want = [0, 0, h2_clock, h2_clock, 0, 0]
if len(off) != 6 or off[0] != 0 or not all(abs(o - w) < 0.010 for o, w in zip(off, want)):
    bad.append("offsets %r, want %r within 10 ms" % (off, want))
for name, p in run["phases"].items():
    if not p["ran"]:
        continue
    pc = p["cluster"]
    ranks = pc["ranks_detail"]
    if [r["host"] for r in ranks] != c["rank_hosts"]:
        bad.append(name + ": ranks' hosts")
    # the aggregate on rank 0's clock: its span is the ranks' first start to last end
    if abs(pc["first_start_s"] - min(r["start_s"] for r in ranks)) > 1e-6 or \
       abs(pc["last_end_s"] - max(r["end_s"] for r in ranks)) > 1e-6:
        bad.append(name + ": span")
    # each rank's start moved to rank 0's clock by its offset: together, as
    # the start meeting has them (mpi.sh 2d: tens of ms), not H2_CLOCK_S apart
    starts = [r["start_s"] for r in ranks]
    if max(starts) - min(starts) > 0.5:
        bad.append("%s: starts %.3f s apart on rank 0's clock" % (name, max(starts) - min(starts)))
    hosts = {x["host"]: x for x in pc["hosts"]}
    if sorted(hosts) != ["h1", "h2", "h3"]:
        bad.append(name + ": per-host CPU of %r" % sorted(hosts))
        continue
    for h, x in hosts.items():
        mine = [r for r in ranks if r["host"] == h]
        u = sum(r["cpu_user_s"] for r in mine)
        s = sum(r["cpu_sys_s"] for r in mine)
        if abs(x["cpu_user_s"] - u) > 1e-5 * max(u, 1) or abs(x["cpu_sys_s"] - s) > 1e-5 * max(s, 1):
            bad.append("%s: %s's CPU %r+%r, its ranks' %r+%r" % (name, h, x["cpu_user_s"], x["cpu_sys_s"], u, s))
print("\n".join(bad) if bad else "json ok")
PY
expect_eq "3 hosts: hosts, rank_hosts, offsets, per-host CPU in the JSON" "$(cat "$W/py1")" "json ok"
# the offsets clyde measured, for the log
grep -o '"clock_offsets_s": *\[[^]]*\]' "$W/j1.json"
expect_empty_dir "3 hosts: every rank's directory removed" "$W/shared"

# left_on HOST: the private directories left in HOST's scratch
left_on() {
	in_host "$1" ls "$W/local" | grep -c '^clyde\.'
}

# 2. a clyde on h2 killed mid-phase: mpirun aborts the job, naming h2
RES=$W/resume2
CLYDE_TEST_PAUSE=get_block CLYDE_TEST_RESUME=$RES \
	hosts_mpirun -x CLYDE_TEST_PAUSE -x CLYDE_TEST_RESUME -np 6 \
	"$CLYDE" -d "$W/local" -s 16 -n 0 -f >"$W/out2" 2>"$W/err2" &
mp=$!
wait_pause "$W/err2" 6
rank_pids >"$W/ranks2"
victim=$(awk '$2 == 2 && $3 == "h2" {print $1}' "$W/ranks2")
expect_match "killed: rank 2 found on h2" "$victim" '^[0-9]+$'
t0=$(date +%s)
[ -n "$victim" ] && kill -9 "$victim"
resume_all "$RES" $mp
wait $mp
rc=$?
took=$(($(date +%s) - t0))
expect_match "killed: mpirun fails" "$rc" '^[1-9]'
expect_eq "killed: mpirun names rank 2 on h2" \
	"$(grep -c 'process rank 2 with PID .* on node h2 exited on signal 9' "$W/err2")" 1
# mpirun's own abort: seconds; 120 s is far past it, below the default --mpi-timeout
expect_match "killed: the others stopped ($took s)" "$([ "$took" -lt 120 ] && echo yes)" yes
expect_eq "killed: no CSV" "$(grep -c '^1\.98,' "$W/out2")" 0
expect_eq "killed: no rank left running" "$(rank_pids | wc -l)" 0
for h in $HOSTS; do
	in_host "$h" "$CLYDE" --cleanup "$W/local" >"$W/clean2.$h" 2>&1
	expect_eq "killed: --cleanup on $h exits 0" "$?" 0
	expect_eq "killed: nothing left on $h" "$(left_on "$h")" 0
done
expect_eq "killed: h2's --cleanup removed the killed rank's directory" \
	"$(grep -c "^clyde: removed $W/local/clyde\.r2\." "$W/clean2.h2")" 1

# 3. h3's network cut mid-phase: the others stop at the meeting's deadline
RES=$W/resume3
CLYDE_TEST_PAUSE=get_block CLYDE_TEST_RESUME=$RES \
	hosts_mpirun -x CLYDE_TEST_PAUSE -x CLYDE_TEST_RESUME -np 6 \
	"$CLYDE" -d "$W/local" -s 16 -n 0 -f --mpi-timeout=10 >"$W/out3" 2>"$W/err3" &
mp=$!
wait_pause "$W/err3" 6
# Before the cut, every pair of ranks already holds its TCP connection:
# the deadline's messages (any rank to any other) must need no new one
# while the network is broken. Each host's established sockets, with
# their owners, matched end to end: a pair is two ranks at the two ends.
rank_pids >"$W/ranks3"
for h in $HOSTS; do
	in_host "$h" ss -tnpH state established
done >"$W/sockets3"
python3 - "$W/ranks3" "$W/sockets3" >"$W/pairs3" 2>&1 <<'PY'
import re, sys
rank = {int(l.split()[0]): int(l.split()[1]) for l in open(sys.argv[1]) if l.strip()}
owner, ends = {}, []
for line in open(sys.argv[2]):
    f = line.split()
    if len(f) < 5:
        continue
    ranks = {rank[int(p)] for p in re.findall(r"pid=(\d+)", line) if int(p) in rank}
    if ranks:
        owner[f[2]] = ranks.pop()
        ends.append((f[2], f[3]))
pairs = {tuple(sorted((owner[a], owner[b]))) for a, b in ends if b in owner and owner[b] != owner[a]}
print(len(pairs))
PY
expect_eq "cut: before it, every pair of the 6 ranks holds a connection" "$(cat "$W/pairs3")" 15
nsenter --net="$NSD/sw.net" ip link set v-h3 down
t0=$(date +%s)
# every pause resumed, h3's too: they end the phase on their own. Each
# pause takes the file away; one rank_pids takes seconds (it reads every
# process's namespaces), so the resumes come from a loop of their own: all
# six within a fraction of a second, not one a rank_pids apart, which put
# the last ranks past --mpi-timeout behind the first and had them named.
resume_all "$RES" $mp &
resumer=$!
while [ $(($(date +%s) - t0)) -lt 60 ] && [ "$(rank_pids | awk '$3 != "h3"' | wc -l)" != 0 ]; do
	sleep 0.2
done
took=$(($(date +%s) - t0))
# 10 s of timeout (a live rank late by that much would be named too),
# 2 s for the answers, then cleanup: 60 s is plenty
expect_match "cut: the ranks on h1 and h2 stopped ($took s)" \
	"$([ "$(rank_pids | awk '$3 != "h3"' | wc -l)" = 0 ] && [ "$took" -lt 60 ] && echo yes)" yes
# the cut host's processes end as a dead host's would; then mpirun can end
# shellcheck disable=SC2046
kill -9 $(ns_pids h3 uts) 2>/dev/null
nsenter --net="$NSD/sw.net" ip link set v-h3 up
n=0
while kill -0 $mp 2>/dev/null && [ $n -lt 300 ]; do
	sleep 0.1
	n=$((n + 1))
done
# else end it: $mp is timeout(1), mpirun its child
if kill -0 $mp 2>/dev/null; then
	echo "cut: mpirun still running 30 s after the cut host's end: killed"
	pkill -KILL -P $mp
	kill -KILL $mp
fi
wait $mp
rc=$?
kill $resumer 2>/dev/null
wait $resumer 2>/dev/null
expect_match "cut: mpirun fails" "$rc" '^[1-9]'
expect_eq "cut: rank 0 names ranks 4 and 5 on h3" \
	"$(grep -c '^clyde: --mpi-timeout: rank 4 on h3, rank 5 on h3 did not come to meeting [0-9]* within 10 s' "$W/err3")" 1
expect_eq "cut: no CSV" "$(grep -c '^1\.98,' "$W/out3")" 0
cut_left=0
for h in h1 h2; do
	expect_eq "cut: the ranks on $h removed their directories" "$(left_on "$h")" 0
	cut_left=$((cut_left + $(left_on "$h")))
done
# what the ranks said, when they did not stop as they should
[ "$cut_left" = 0 ] && grep -q '^clyde: --mpi-timeout: rank 4 on h3, rank 5 on h3 ' "$W/err3" ||
	cat "$W/err3"
in_host h3 "$CLYDE" --cleanup "$W/local" >"$W/clean3" 2>&1
expect_eq "cut: --cleanup on h3 exits 0" "$?" 0
expect_eq "cut: nothing left on h3" "$(left_on h3)" 0

# 4. nothing of the test's is left
UTS_IDS=$(for n in login $HOSTS; do ns_id "$NSD/$n.uts"; done)
hosts_teardown
expect_eq "after: ip netns as before" "$(ip netns list 2>/dev/null | sort)" "$NETNS_BEFORE"
expect_eq "after: ip link as before" "$(ip -o link show | awk -F': ' '{print $2}' | sort)" \
	"$LINKS_BEFORE"
expect_eq "after: no mount of the test's" "$(grep -c -e " $W" -e 'clyde-hosts' /proc/mounts)" 0
left=0
for id in $UTS_IDS; do
	for p in /proc/[0-9]*; do
		[ "$(readlink "$p/ns/uts" 2>/dev/null)" = "uts:[$id]" ] && left=$((left + 1))
	done
done
expect_eq "after: no process in the hosts' namespaces" "$left" 0
done_testing
