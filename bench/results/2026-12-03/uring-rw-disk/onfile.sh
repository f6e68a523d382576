#!/bin/sh
# fio randrw 91/9 (random map), randread and randrw --norandommap, QD 128, rotating, $ROUNDS rounds, all on one
# clyde seek file (clyde paused before its seeks)
QD=128
. ./lib.sh
clyde_pause 256M 1000 10
set -- rw rd rwnomap
for round in $(seq 1 ${ROUNDS:-8}); do
  echo "round $round"
  for v in "$@"; do
    case $v in
    rw) fiorun rw $FILE 256m --rw=randrw --rwmixread=91;;
    rd) fiorun rd $FILE 256m --rw=randread;;
    rwnomap) fiorun rwnomap $FILE 256m --rw=randrw --rwmixread=91 --norandommap;;
    esac
  done
  set -- $(rotate "$@")
done
touch /tmp/resume.v; wait $CP; rm -rf $D
