#!/bin/sh
# What the disk sees (/proc/diskstats of vda) during fio's randread and during clyde's seeks (from the end of a pause
# before them to clyde's exit): reads, mean read latency (read ticks / reads), mean requests in the device (weighted
# ticks / time). QD$QD, 256 MiB, O_DIRECT, CPU 0, rotating.
exec 9>/work/bench.lock; flock -x 9
QD=${QD:-128}; D=/var/tmp/ab2; rm -rf $D; mkdir -p $D
snap() { python3 -c 'import time
for l in open("/proc/diskstats"):
    f=l.split()
    if f[2]=="vda": print(time.monotonic(), f[3], f[6], f[13])'; }
show() { python3 -c 'import sys
a=list(map(float,sys.argv[1].split())); b=list(map(float,sys.argv[2].split()))
t=b[0]-a[0]; n=b[1]-a[1]
print("%s: %.0f reads/s, read latency %.0f us, in device %.1f" % (sys.argv[3], n/t, (b[2]-a[2])*1000/n, (b[3]-a[3])/1000/t))' "$1" "$2" "$3"; }
f() { a=$(snap); taskset -c 0 fio --name=r --filename=/var/tmp/ab/f256m --size=256m --bs=8k --rw=randread --ioengine=io_uring --iodepth=$QD --direct=1 --fixedbufs=1 --registerfiles=1 --time_based --runtime=5 --randrepeat=0 >/dev/null; b=$(snap); show "$a" "$b" fio; }
c() { rm -f /tmp/resume.v /tmp/dq.err
  CLYDE_TEST_PAUSE=before-seeks CLYDE_TEST_RESUME=/tmp/resume.v taskset -c 0 /work/main/clyde -d $D -s 256M:8k:300000:1 -n 0 -f --engine=uring --iodepth=$QD -D --seek-updates=0 -q -z 1 >/dev/null 2>/tmp/dq.err &
  cp=$!; while ! grep -q "test pause" /tmp/dq.err; do sleep 0.1; done; sleep 1
  a=$(snap); touch /tmp/resume.v; wait $cp; b=$(snap); show "$a" "$b" clyde; }
for round in $(seq 1 ${ROUNDS:-6}); do
  if [ $((round % 2)) = 1 ]; then f; c; else c; f; fi
done
rm -rf $D
