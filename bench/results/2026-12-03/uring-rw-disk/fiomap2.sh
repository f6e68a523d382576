#!/bin/sh
# fio randread / randrw 91/9, with and without its random map (norandommap), QD$QD, at the disk
exec 9>/work/bench.lock; flock -x 9
QD=${QD:-128}; D=/var/tmp/s7m; rm -rf $D; mkdir -p $D; F=$D/f
snap() { python3 -c 'import time
for l in open("/proc/diskstats"):
    f=l.split()
    if f[2]=="vda": print(time.monotonic(), f[3], f[6], f[7], f[10], f[13], f[4], f[8])'; }
show() { python3 -c 'import sys
a=list(map(float,sys.argv[1].split())); b=list(map(float,sys.argv[2].split()))
d=[y-x for x,y in zip(a,b)]; t=d[0]
print("%-12s %6.0f io/s (%.3f w) rlat %5.0f us wlat %5.0f us in-dev %5.1f merged r %d w %d  own %s" % (sys.argv[3], (d[1]+d[3])/t, d[3]/(d[1]+d[3]), d[2]*1000/max(d[1],1), d[4]*1000/max(d[3],1), d[5]/1000/t, d[6], d[7], sys.argv[4]))' "$1" "$2" "$3" "$4"; }
taskset -c 0 fio --name=w --filename=$F --size=256m --bs=8k --rw=write --ioengine=io_uring --iodepth=32 --direct=1 --end_fsync=1 >/dev/null
f() { lab=$1; shift
  ( sleep 2; snap > /tmp/s.a; sleep 3; snap > /tmp/s.b ) & sp=$!
  own=$(taskset -c 0 fio --name=r --filename=$F --size=256m --bs=8k --ioengine=io_uring --iodepth=$QD --direct=1 --fixedbufs=1 --registerfiles=1 --time_based --runtime=6 --randrepeat=0 --output-format=json "$@" | python3 -c 'import json,sys; j=json.load(sys.stdin)["jobs"][0]; print("%.0f" % (j["read"]["iops"]+j["write"]["iops"]))')
  wait $sp; show "$(cat /tmp/s.a)" "$(cat /tmp/s.b)" $lab "$own"; }
set -- ${VARIANTS:-rd rw rdnomap rwnomap}
for round in $(seq 1 ${ROUNDS:-4}); do
  echo "round $round"
  for t in "$@"; do
    case $t in
    rd) f rd --rw=randread;;
    rw) f rw --rw=randrw --rwmixread=91;;
    rdnomap) f rdnomap --rw=randread --norandommap;;
    rwnomap) f rwnomap --rw=randrw --rwmixread=91 --norandommap;;
    esac
  done
  first=$1; shift; set -- "$@" $first
done
rm -rf $D
