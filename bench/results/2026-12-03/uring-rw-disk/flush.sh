#!/bin/sh
# flushes reaching vda during fio randrw 91/9 (on the paused clyde's file) and during clyde's seeks, QD128
exec 9>/work/bench.lock; flock -x 9
QD=128; D=/var/tmp/s7; C=${C:-/work/main/clyde}
fl() { awk '$3=="vda" {print $4+$8, $19, $20}' /proc/diskstats; }
d() { python3 -c 'import sys; a=list(map(int,sys.argv[1].split())); b=list(map(int,sys.argv[2].split())); print("%s: %d I/Os, %d flushes, %d ms flushing" % (sys.argv[3], b[0]-a[0], b[1]-a[1], b[2]-a[2]))' "$1" "$2" "$3"; }
for round in 1 2; do
  rm -rf $D; mkdir -p $D; rm -f /tmp/resume.v /tmp/dq.err
  CLYDE_TEST_PAUSE=before-seeks CLYDE_TEST_RESUME=/tmp/resume.v taskset -c 0 $C -d $D -s 256M:8k:300000:1 -n 0 -f --engine=uring --iodepth=$QD -D --seek-updates=${U:-10} -q -z 1 >/dev/null 2>/tmp/dq.err &
  cp=$!; while ! grep -q "test pause" /tmp/dq.err; do sleep 0.1; done; sleep 1
  file=$(find $D -type f | head -1)
  a=$(fl); taskset -c 0 fio --name=r --filename=$file --size=256m --bs=8k --rw=randrw --rwmixread=91 --ioengine=io_uring --iodepth=$QD --direct=1 --fixedbufs=1 --registerfiles=1 --time_based --runtime=6 --randrepeat=0 >/dev/null; b=$(fl); d "$a" "$b" fio-rw
  a=$(fl); taskset -c 0 fio --name=r --filename=$file --size=256m --bs=8k --rw=randread --ioengine=io_uring --iodepth=$QD --direct=1 --fixedbufs=1 --registerfiles=1 --time_based --runtime=6 --randrepeat=0 >/dev/null; b=$(fl); d "$a" "$b" fio-rd
  a=$(fl); touch /tmp/resume.v; wait $cp; b=$(fl); d "$a" "$b" clyde-seeks
done
rm -rf $D
