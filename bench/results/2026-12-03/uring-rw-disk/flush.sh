#!/bin/sh
# Cache flushes reaching vda over the whole of a fio randrw 91/9 and a fio randread (6 s each, on the paused
# clyde's file) and over clyde's seeks, QD 128
QD=128
. ./lib.sh
fl() { awk '$3=="vda" {print $4+$8, $19, $20}' /proc/diskstats; }
d() { python3 -c 'import sys; a=list(map(int,sys.argv[1].split())); b=list(map(int,sys.argv[2].split())); print("%s: %d I/Os, %d flushes, %d ms flushing" % (sys.argv[3], b[0]-a[0], b[1]-a[1], b[2]-a[2]))' "$1" "$2" "$3"; }
fio6() { taskset -c 0 fio --name=r --filename=$FILE --size=256m --bs=8k "$@" --ioengine=io_uring --iodepth=$QD --direct=1 --fixedbufs=1 --registerfiles=1 --time_based --runtime=6 --randrepeat=0 >/dev/null; }
for round in 1 2; do
  clyde_pause 256M 300000 10
  a=$(fl); fio6 --rw=randrw --rwmixread=91; b=$(fl); d "$a" "$b" fio-rw
  a=$(fl); fio6 --rw=randread; b=$(fl); d "$a" "$b" fio-rd
  a=$(fl); touch /tmp/resume.v; wait $CP; b=$(fl); d "$a" "$b" clyde-seeks
done
rm -rf $D
