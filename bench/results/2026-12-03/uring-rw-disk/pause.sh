#!/bin/sh
# At the disk, QD $QD: per round, rotating, the clydes in $CLYDES (clyde: as it is; indep: EXP_INDEP, an update one
# write of its own chunk; other: EXP_OTHER, the update's write to another chunk; both from knobs-order.patch, C a
# build with it), each on a new 256 MiB file with 300000 seeks, U updates in 100 (default 10). At clyde's pause
# before its seeks, the fio jobs in $FIOS on its file, rotating: rw (randrw 91/9), rwnomap, rd (randread),
# rdnomap; NAME+spin beside the busy loop. SPIN_ALT=1: clyde's seeks beside the busy loop every other round.
. ./lib.sh
CLYDES=${CLYDES:-clyde}; FIOS=${FIOS:-rw}; U=${U:-10}
per=$(awk -v u=$U 'BEGIN { print 1 + u / 100 }'); spin=""
for round in $(seq 1 ${ROUNDS:-5}); do
  echo "round $round"
  for v in $CLYDES; do
    case $v in clyde) env=X=1 n=$per;; indep) env=EXP_INDEP=1 n=1;; other) env=EXP_OTHER=1 n=$per;; esac
    clyde_pause 256M 300000 $U $env
    if [ $v = clyde ]; then
      for f in $FIOS; do
        s=""; case $f in *+spin) s=1; spin_start;; esac
        case ${f%+spin} in
        rw) set -- --rw=randrw --rwmixread=91;;
        rwnomap) set -- --rw=randrw --rwmixread=91 --norandommap;;
        rd) set -- --rw=randread;;
        rdnomap) set -- --rw=randread --norandommap;;
        esac
        fiorun fio-$f $FILE 256m "$@"
        [ -n "$s" ] && spin_stop
      done
    fi
    lab=$v; [ -n "$spin" ] && { spin_start; lab=$v+spin; }
    clyde_seeks $lab $n
    [ -n "$spin" ] && spin_stop
  done
  [ -n "$SPIN_ALT" ] && { if [ -n "$spin" ]; then spin=; else spin=1; fi; }
  CLYDES=$(rotate $CLYDES); FIOS=$(rotate $FIOS)
done
rm -rf $D
