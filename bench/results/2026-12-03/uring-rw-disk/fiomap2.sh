#!/bin/sh
# fio randrw 91/9 with its random map (rw) and with --norandommap (rwnomap), and the same for randread (rd,
# rdnomap), QD $QD, on a 256 MiB file fio laid out itself, rotating $VARIANTS, at the disk
D=/var/tmp/s7m
. ./lib.sh
rm -rf $D; mkdir -p $D; F=$D/f
taskset -c 0 fio --name=w --filename=$F --size=256m --bs=8k --rw=write --ioengine=io_uring --iodepth=32 --direct=1 --end_fsync=1 >/dev/null
set -- ${VARIANTS:-rw rwnomap}
for round in $(seq 1 ${ROUNDS:-14}); do
  echo "round $round"
  for t in "$@"; do
    case $t in
    rd) fiorun rd $F 256m --rw=randread;;
    rw) fiorun rw $F 256m --rw=randrw --rwmixread=91;;
    rdnomap) fiorun rdnomap $F 256m --rw=randread --norandommap;;
    rwnomap) fiorun rwnomap $F 256m --rw=randrw --rwmixread=91 --norandommap;;
    esac
  done
  set -- $(rotate "$@")
done
rm -rf $D
