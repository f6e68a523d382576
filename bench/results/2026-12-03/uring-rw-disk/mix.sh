#!/bin/sh
# Who gains from the 91/9 mix at QD 128? Per round, rotating: c-rd, a clyde that only reads (at its pause, f-rd,
# fio randread, and f-rw, fio randrw 91/9, on its file); c-rw, a clyde with 10 updates in 100; c-indep, the same
# with EXP_INDEP (knobs-order.patch; C a build with it). 512 MiB files, 330000 seeks. Own rates: clyde's I/Os
# (reads and update writes) over its seek phase; fio's read and write IOPS. And the disk's view.
C=${C:-/work/exp2/clyde}
. ./lib.sh
set -- rd rw indep
for round in $(seq 1 ${ROUNDS:-6}); do
  echo "round $round"
  for t in "$@"; do
    case $t in
    rd) clyde_pause 512M 330000 0 X=1
        fiorun f-rd $FILE 512m --rw=randread
        fiorun f-rw $FILE 512m --rw=randrw --rwmixread=91
        clyde_seeks c-rd 1;;
    rw) clyde_pause 512M 330000 10 X=1; clyde_seeks c-rw 1.1;;
    indep) clyde_pause 512M 330000 10 EXP_INDEP=1; clyde_seeks c-indep 1;;
    esac
  done
  set -- $(rotate "$@")
done
rm -rf $D
