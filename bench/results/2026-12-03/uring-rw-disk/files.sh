#!/bin/sh
# fio randrw 91/9 QD128 on two files, alternating: the paused clyde's seek file (clyde's O_DIRECT block phases
# wrote it) and a file fio laid out as bench/vs-fio does (buffered psync write, end_fsync). Same size, 512 MiB.
exec 9>/work/bench.lock; flock -x 9
QD=128; D=/var/tmp/s7; C=${C:-/work/main/clyde}
. ./snapshow.sh
fiorun() { # $1 label, $2 file, rest fio args
  flab=$1; ff=$2; shift 2
  ( sleep 2; snap > /tmp/s.a; sleep 3; snap > /tmp/s.b ) & sp=$!
  own=$(taskset -c 0 fio --name=r --filename=$ff --size=512m --bs=8k "$@" --ioengine=io_uring --iodepth=$QD --direct=1 --fixedbufs=1 --registerfiles=1 --time_based --runtime=6 --randrepeat=0 --output-format=json | python3 -c 'import json,sys; j=json.load(sys.stdin)["jobs"][0]; print("%.0f" % (j["read"]["iops"]+j["write"]["iops"]))')
  wait $sp; show "$(cat /tmp/s.a)" "$(cat /tmp/s.b)" $flab "$own"; }
for set in $(seq 1 ${SETS:-2}); do
  rm -rf $D; mkdir -p $D; rm -f /tmp/resume.v /tmp/dq.err
  CLYDE_TEST_PAUSE=before-seeks CLYDE_TEST_RESUME=/tmp/resume.v taskset -c 0 $C -d $D -s 512M:8k:1000:1 -n 0 -f --engine=uring --iodepth=32 -D --seek-updates=10 -q -z 1 >/dev/null 2>/tmp/dq.err &
  cp=$!; while ! grep -q "test pause" /tmp/dq.err; do sleep 0.1; done
  cf=$(find $D -type f | head -1); ff=$D/fio.dat
  taskset -c 0 fio --name=w --filename=$ff --size=512m --bs=8k --rw=write --ioengine=psync --direct=0 --end_fsync=1 >/dev/null
  sleep 1
  echo "set $set: extents: clyde $(filefrag $cf | grep -o '[0-9]* extents\?'), fio $(filefrag $ff | grep -o '[0-9]* extents\?')"
  for i in 1 2 3 4; do
    if [ $((i % 2)) = 1 ]; then fiorun rw-clydefile $cf --rw=randrw --rwmixread=91; fiorun rw-fiofile $ff --rw=randrw --rwmixread=91
    else fiorun rw-fiofile $ff --rw=randrw --rwmixread=91; fiorun rw-clydefile $cf --rw=randrw --rwmixread=91; fi
  done
  rm -f $ff; touch /tmp/resume.v; wait $cp
done
rm -rf $D
