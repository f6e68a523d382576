#!/bin/sh
# diskq.sh with three tools, rotating: fio (its own IOPS beside the disk's), clyde as it is and clyde doing fio's
# submission and reaping (knobs as in section 1). QD$QD, 256 MiB, O_DIRECT, CPU 0.
exec 9>/work/bench.lock; flock -x 9
QD=${QD:-32}; D=/var/tmp/ab2; rm -rf $D; mkdir -p $D
snap() { python3 -c 'import time
for l in open("/proc/diskstats"):
    f=l.split()
    if f[2]=="vda": print(time.monotonic(), f[3], f[6], f[13])'; }
show() { python3 -c 'import sys
a=list(map(float,sys.argv[1].split())); b=list(map(float,sys.argv[2].split()))
t=b[0]-a[0]; n=b[1]-a[1]
print("%-9s %.0f reads/s at the disk, read latency %.0f us, in device %.1f; its own figure %s" % (sys.argv[3], n/t, (b[2]-a[2])*1000/n, (b[3]-a[3])/1000/t, sys.argv[4]))' "$1" "$2" "$3" "$4"; }
f() { a=$(snap); own=$(taskset -c 0 fio --name=r --filename=/var/tmp/ab/f256m --size=256m --bs=8k --rw=randread --ioengine=io_uring --iodepth=$QD --direct=1 --fixedbufs=1 --registerfiles=1 --time_based --runtime=5 --randrepeat=0 --output-format=json | python3 -c 'import json,sys; j=json.load(sys.stdin)["jobs"][0]; print("%.0f" % j["read"]["iops"])'); b=$(snap); show "$a" "$b" fio "$own"; }
c() { rm -f /tmp/resume.v /tmp/dq.err
  env $1 $2 CLYDE_TEST_PAUSE=before-seeks CLYDE_TEST_RESUME=/tmp/resume.v taskset -c 0 /work/exp/clyde -d $D -s 256M:8k:300000:1 -n 0 -f --engine=uring --iodepth=$QD -D --seek-updates=0 -q -z 1 --json /tmp/dq.json >/dev/null 2>/tmp/dq.err &
  cp=$!; while ! grep -q "test pause" /tmp/dq.err; do sleep 0.1; done; sleep 1
  a=$(snap); touch /tmp/resume.v; wait $cp; b=$(snap)
  own=$(python3 -c 'import json; p=json.load(open("/tmp/dq.json"))["runs"][0]["phases"]["seeks"]; print("%.0f" % (p["amount"]/p["elapsed_s"]))')
  show "$a" "$b" $3 "$own"; }
set -- fio now fiolike
for round in $(seq 1 ${ROUNDS:-6}); do
  echo "round $round"
  for t in "$@"; do
    case $t in
    fio) f;;
    now) c EXP_UNPLUG=4 EXP_WAITDIV=4 clyde;;
    fiolike) c EXP_UNPLUG=1 EXP_WAITFROM=100000 fio-like;;
    esac
  done
  first=$1; shift; set -- "$@" $first
done
rm -rf $D
