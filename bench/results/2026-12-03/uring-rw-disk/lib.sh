# Sourced by this folder's scripts (run them from here, as root). Takes /work/bench.lock and gives:
#   snap                 one line of vda's /proc/diskstats, with a monotonic time
#   show A B LABEL OWN   what the disk did between snaps A and B: I/Os a second, the share of writes, the mean
#                        read and write latency, the mean requests in the device, merges; OWN the tool's figure
#   fiorun LABEL FILE SIZE FIO-ARGS...   a 6 s fio job at QD $QD, O_DIRECT, io_uring, the disk read in its middle
#   clyde_pause SIZE SEEKS U [ENV...]    clyde ($C) to its pause before the seeks, in $D; FILE its file
#   clyde_seeks LABEL U                  clyde resumed, the disk read in the middle of its seeks, shown
#   spin_start, spin_stop                a busy loop at SCHED_IDLE on CPU 0 (the vCPU never halts; any
#                                        runnable task preempts it)
exec 9>/work/bench.lock; flock -x 9
QD=${QD:-128}; D=${D:-/var/tmp/s7}; C=${C:-/work/main/clyde}
snap() { python3 -c 'import time
for l in open("/proc/diskstats"):
    f=l.split()
    if f[2]=="vda": print(time.monotonic(), f[3], f[6], f[7], f[10], f[13], f[4], f[8])'; }
show() { python3 -c 'import sys
a=list(map(float,sys.argv[1].split())); b=list(map(float,sys.argv[2].split()))
d=[y-x for x,y in zip(a,b)]; t=d[0]
print("%-6s %6.0f io/s (%.3f w) rlat %5.0f us wlat %5.0f us in-dev %5.1f merged r %d w %d  own %s" % (sys.argv[3], (d[1]+d[3])/t, d[3]/(d[1]+d[3]), d[2]*1000/max(d[1],1), d[4]*1000/max(d[3],1), d[5]/1000/t, d[6], d[7], sys.argv[4]))' "$1" "$2" "$3" "$4"; }
fiorun() {
  fr_lab=$1 fr_file=$2 fr_size=$3; shift 3
  ( sleep 2; snap > /tmp/s.a; sleep 3; snap > /tmp/s.b ) & fr_sp=$!
  fr_own=$(taskset -c 0 fio --name=r --filename=$fr_file --size=$fr_size --bs=8k "$@" --ioengine=io_uring --iodepth=$QD --direct=1 --fixedbufs=1 --registerfiles=1 --time_based --runtime=6 --randrepeat=0 --output-format=json | python3 -c 'import json,sys; j=json.load(sys.stdin)["jobs"][0]; print("%.0f" % (j["read"]["iops"]+j["write"]["iops"]))')
  wait $fr_sp; show "$(cat /tmp/s.a)" "$(cat /tmp/s.b)" $fr_lab "$fr_own"; }
clyde_pause() {
  cp_size=$1 cp_seeks=$2 cp_u=$3; shift 3
  rm -rf $D; mkdir -p $D; rm -f /tmp/resume.v /tmp/dq.err
  env "$@" CLYDE_TEST_PAUSE=before-seeks CLYDE_TEST_RESUME=/tmp/resume.v taskset -c 0 $C -d $D -s $cp_size:8k:$cp_seeks:1 -n 0 -f --engine=uring --iodepth=$QD -D --seek-updates=$cp_u -q -z 1 --json /tmp/dq.json >/dev/null 2>/tmp/dq.err &
  CP=$!; while ! grep -q "test pause" /tmp/dq.err 2>/dev/null; do sleep 0.1; done; sleep 1
  FILE=$(find $D -type f | head -1); }
# $3: I/Os per seek ticket (1.1 with 10 updates in 100; 1 when each update is one write of its own)
clyde_seeks() {
  touch /tmp/resume.v; sleep 1; cs_a=$(snap); sleep 3; cs_b=$(snap); wait $CP
  cs_own=$(python3 -c 'import json,sys; p=json.load(open("/tmp/dq.json"))["runs"][0]["phases"]["seeks"]; print("%.0f" % (p["amount"]*float(sys.argv[1])/p["elapsed_s"]))' $2)
  show "$cs_a" "$cs_b" $1 "$cs_own"; }
spin_start() { chrt -i 0 taskset -c 0 sh -c 'while :; do :; done' & SPIN=$!; }
spin_stop() { kill $SPIN; wait $SPIN 2>/dev/null; }
# rotate A B C -> B C A: each round starts with the next
rotate() { echo "$*" | awk '{for(i=2;i<=NF;i++) printf "%s ", $i; print $1}'; }
