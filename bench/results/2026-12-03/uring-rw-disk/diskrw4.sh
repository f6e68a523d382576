#!/bin/sh
# rand-rw QD$QD at the disk: fio randrw 91/9 (on a paused clyde's file), clyde, clyde EXP_INDEP, clyde EXP_OTHER.
# /proc/diskstats of vda over 3 s in the middle of each run.
exec 9>/work/bench.lock; flock -x 9
QD=${QD:-128}; D=/var/tmp/s7; C=${C:-/work/main/clyde}
snap() { python3 -c 'import time
for l in open("/proc/diskstats"):
    f=l.split()
    if f[2]=="vda": print(time.monotonic(), f[3], f[6], f[7], f[10], f[13], f[4], f[8])'; }
show() { python3 -c 'import sys
a=list(map(float,sys.argv[1].split())); b=list(map(float,sys.argv[2].split()))
d=[y-x for x,y in zip(a,b)]; t=d[0]
print("%-6s %6.0f io/s (%.3f w) rlat %5.0f us wlat %5.0f us in-dev %5.1f merged r %d w %d  own %s" % (sys.argv[3], (d[1]+d[3])/t, d[3]/(d[1]+d[3]), d[2]*1000/max(d[1],1), d[4]*1000/max(d[3],1), d[5]/1000/t, d[6], d[7], sys.argv[4]))' "$1" "$2" "$3" "$4"; }
clyde() { # $1 label, rest env
  lab=$1; shift
  rm -rf $D; mkdir -p $D; rm -f /tmp/resume.v /tmp/dq.err
  env "$@" CLYDE_TEST_PAUSE=before-seeks CLYDE_TEST_RESUME=/tmp/resume.v taskset -c 0 $C -d $D -s 256M:8k:300000:1 -n 0 -f --engine=uring --iodepth=$QD -D --seek-updates=${U:-10} -q -z 1 --json /tmp/dq.json >/dev/null 2>/tmp/dq.err &
  cp=$!; while ! grep -q "test pause" /tmp/dq.err; do sleep 0.1; done; sleep 1
  file=$(find $D -type f | head -1)
  for v in $FIOS; do
    case $v in rw) a="--rw=randrw --rwmixread=91";; rwnomap) a="--rw=randrw --rwmixread=91 --norandommap";; rd) a=--rw=randread;; rdnomap) a="--rw=randread --norandommap";; esac
    ( sleep 2; snap > /tmp/s.a; sleep 3; snap > /tmp/s.b ) & sp=$!
    own=$(taskset -c 0 fio --name=r --filename=$file --size=256m --bs=8k $a --ioengine=io_uring --iodepth=$QD --direct=1 --fixedbufs=1 --registerfiles=1 --time_based --runtime=6 --randrepeat=0 --output-format=json | python3 -c 'import json,sys; j=json.load(sys.stdin)["jobs"][0]; print("%.0f" % (j["read"]["iops"]+j["write"]["iops"]))')
    wait $sp; show "$(cat /tmp/s.a)" "$(cat /tmp/s.b)" fio-$v "$own"
  done
  touch /tmp/resume.v; sleep 1; a=$(snap); sleep 3; b=$(snap); wait $cp
  own=$(python3 -c 'import json; p=json.load(open("/tmp/dq.json"))["runs"][0]["phases"]["seeks"]; print("%.0f" % (p["amount"]*(1+int(__import__("os").environ.get("U","10"))/100)/p["elapsed_s"]))')
  show "$a" "$b" $lab "$own"
}
set -- x
FIOS=${FIOS:-rw rwnomap rd}
for round in $(seq 1 ${ROUNDS:-5}); do
  echo "round $round"
  for t in "$@"; do
    case $t in
    x) clyde clyde X=1;;
    indep) clyde indep EXP_INDEP=1;;
    other) clyde other EXP_OTHER=1;;
    esac
  done
  FIOS=$(echo $FIOS | awk '{for(i=2;i<=NF;i++) printf "%s ", $i; print $1}')
done
rm -rf $D
