#!/bin/sh
# fio randrw 91/9 QD 128 on two files, alternating: the paused clyde's seek file (clyde's O_DIRECT block phases
# wrote it) and a file fio laid out as bench/vs-fio does (buffered psync write, end_fsync). Both 512 MiB.
QD=128
. ./lib.sh
for set in $(seq 1 ${SETS:-2}); do
  QD=32; clyde_pause 512M 1000 10; QD=128
  cf=$FILE ff=$D/fio.dat
  taskset -c 0 fio --name=w --filename=$ff --size=512m --bs=8k --rw=write --ioengine=psync --direct=0 --end_fsync=1 >/dev/null
  sleep 1
  echo "set $set: extents: clyde $(filefrag $cf | grep -o '[0-9]* extents\?'), fio $(filefrag $ff | grep -o '[0-9]* extents\?')"
  for i in 1 2 3 4; do
    if [ $((i % 2)) = 1 ]; then
      fiorun rw-clydefile $cf 512m --rw=randrw --rwmixread=91; fiorun rw-fiofile $ff 512m --rw=randrw --rwmixread=91
    else
      fiorun rw-fiofile $ff 512m --rw=randrw --rwmixread=91; fiorun rw-clydefile $cf 512m --rw=randrw --rwmixread=91
    fi
  done
  rm -f $ff; touch /tmp/resume.v; wait $CP
done
rm -rf $D
